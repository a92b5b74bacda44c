package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/smile-loop/smile-loop/internal/config"
)

// trustModelURL is the README section that says which settings a pull request may set.
const trustModelURL = "https://github.com/smile-loop/smile-loop#trust-model"

// actionConfig loads the run's configuration in Action mode. The file of the config
// input (else ./smile.json when present) comes from the checkout, which a pull request
// controls: its security-relevant settings (config.TrustedFields) are ignored, with a
// notice naming each one. They come from the trusted-config input instead (a file the
// workflow vouches for, e.g. checked out from the base branch outside the workspace),
// else from the defaults; the action's inputs override both. Action mode never keeps a
// learner container. The path returned is the one relative scenario paths resolve
// against (the trusted file's).
func actionConfig(ws, configPath, trustedPath string, notice func(string, ...any)) (config.Config, string, error) {
	trusted, base := config.Default(), ""
	if trustedPath != "" {
		p := absIn(ws, trustedPath)
		cfg, _, err := config.Load(p)
		if err != nil {
			return cfg, p, fmt.Errorf("trusted-config: %w", err)
		}
		trusted, base = cfg, p
	}
	p := configPath
	if p == "" {
		if _, err := os.Stat(filepath.Join(ws, config.FileName)); err != nil {
			return neverKeep(trusted), base, nil
		}
		p = config.FileName
	}
	p = absIn(ws, p)
	if base != "" && sameDir(p, base) {
		return neverKeep(trusted), base, nil
	}
	file, _, err := config.Load(p)
	if err != nil {
		return file, p, err
	}
	cfg, ignored := config.Untrusted(trusted, file)
	if len(ignored) > 0 {
		notice("smile-loop ignored %s from %s: a configuration file in the checkout is untrusted in Action mode (a pull request can change it). "+
			"Set these with the action's inputs or name a file the workflow trusts with trusted-config; see %s",
			strings.Join(ignored, ", "), filepath.Base(p), trustModelURL)
	}
	return neverKeep(cfg), base, nil
}

// neverKeep: a container of an Action run is always removed, pass or fail.
func neverKeep(c config.Config) config.Config {
	c.Container.KeepOnFailure, c.Container.KeepOnSuccess = false, false
	return c
}

func absIn(ws, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(ws, p)
}

// insideRepo checks that the tutorial rel (slash-separated, relative to the workspace)
// is a regular file reached without any symbolic link: a pull request can add
// docs/x.md -> /github/workflow/event.json, and the file's content would become the
// tutorial (prompts, gaps, the container).
func insideRepo(ws, rel string) error {
	root, err := os.OpenRoot(ws)
	if err != nil {
		return fmt.Errorf("open the repository: %w", err)
	}
	defer root.Close()
	p := ""
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel))), "/") {
		p = filepath.Join(p, part)
		fi, err := root.Lstat(p)
		if err != nil {
			return fmt.Errorf("tutorial %s: %w", rel, err)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("tutorial %s: %s is a symbolic link; smile-loop tests only files inside the repository, not what links point to", rel, filepath.ToSlash(p))
		}
	}
	fi, err := root.Lstat(p)
	if err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("tutorial %s is not a regular file", rel)
	}
	return err
}
