package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// cmdValidate checks smile.json and the tutorial without Docker: exit 0 when both are
// usable, 2 with every problem otherwise. Warnings (near-miss field names, an empty
// tutorial, missing images) are printed but do not fail.
func cmdValidate(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "validate")
	cfgPath := fs.String("config", "", "configuration file (default: "+config.FileName+" in the current directory, or the defaults)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: smile-action validate [--config FILE] [TUTORIAL]\n\nChecks the configuration and the tutorial without Docker; exits 2 listing every problem.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError{fmt.Errorf("validate takes at most one tutorial, got %d arguments", fs.NArg())}
	}

	var problems []error
	cfg, warnings, err := config.Load(*cfgPath)
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	if err != nil {
		problems = append(problems, err)
	}
	source := *cfgPath
	if source == "" {
		source = config.FileName
	}
	if _, statErr := os.Stat(source); err == nil && statErr != nil {
		source = "defaults (no " + config.FileName + ")"
	}

	path := cfg.Tutorial
	if fs.NArg() == 1 {
		path = fs.Arg(0)
	}
	var tu *tutorial.Tutorial
	if err := config.ValidateTutorialPath(path); err != nil {
		problems = append(problems, err)
	} else if tu, err = tutorial.Load(path); err != nil {
		problems = append(problems, err)
	} else {
		for _, w := range tu.Warnings {
			fmt.Fprintf(e.stderr, "warning: %s: %s\n", path, w)
		}
	}
	if len(problems) > 0 {
		return errors.Join(problems...)
	}

	fmt.Fprintf(e.stdout, "config: %s is valid (llmProvider %s, maxIterations %d)\n", source, cfg.LLMProvider, cfg.MaxIterations)
	shell, cmds := tu.Map.ShellBlocks(), 0
	for _, b := range shell {
		cmds += len(b.Commands)
	}
	fmt.Fprintf(e.stdout, "tutorial: %s is valid (%d lines, %d shell blocks with %d commands, %d images)\n",
		path, tu.Map.LineCount(), len(shell), cmds, len(tu.Images))
	return nil
}
