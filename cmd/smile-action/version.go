package main

import (
	"context"
	"fmt"
	"regexp"
	"runtime/debug"
)

// Build-time values, set by the release build (and `make build`) with
//
//	-ldflags "-X main.version=v1.2.3 -X main.learnerRepository=ghcr.io/<owner>/smile-base"
//
// A plain `go build` leaves version "dev"; init then derives a dev version from the
// module and VCS information Go embeds, so a report still says which commit made it.
var (
	version           = "dev"
	learnerRepository = "ghcr.io/smile-loop/smile-base"
)

func init() { version = resolveVersion(version, debug.ReadBuildInfo) }

// releaseVersion matches the versions the release workflow builds: v1.2.3 (tags
// v1.2.3-rc.1 too).
var releaseVersion = regexp.MustCompile(`^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$`)

// pseudoVersion matches Go's pseudo-versions (v0.0.0-20261123183000-0123456789ab), which
// `go build` stamps in a git checkout: they name a commit, not a release.
var pseudoVersion = regexp.MustCompile(`\d{14}-[0-9a-f]{12}$`)

// resolveVersion keeps a version set at build time; a dev build becomes
// "dev+<commit>[-dirty]" (go build in a git checkout) or the module version
// (go install …@v1.2.3).
func resolveVersion(v string, info func() (*debug.BuildInfo, bool)) string {
	if v != "dev" && v != "" {
		return v
	}
	bi, ok := info()
	if !ok {
		return "dev"
	}
	if mv := bi.Main.Version; releaseVersion.MatchString(mv) && !pseudoVersion.MatchString(mv) {
		return mv
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "dev+" + rev
}

// publishedLearnerImage is the learner image released together with this build
// (ghcr.io/<owner>/smile-base:1.2.3), or "" for a development build, which has none.
func publishedLearnerImage(v string) string {
	m := releaseVersion.FindStringSubmatch(v)
	if m == nil || pseudoVersion.MatchString(v) || learnerRepository == "" {
		return ""
	}
	return learnerRepository + ":" + m[1]
}

func cmdVersion(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "version")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	_, err := fmt.Fprintf(e.stdout, "smile-action %s\n", version)
	return err
}
