package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/smile-loop/smile-loop/internal/agent/none"

	"github.com/smile-loop/smile-loop/internal/redact"
	rpt "github.com/smile-loop/smile-loop/internal/report"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// cmdReport re-renders every report format from a run's saved state.
func cmdReport(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "report")
	from := fs.String("from", "", "output directory of a run (holds state.json)")
	output := fs.String("output", "", "directory to write the report to (default: the --from directory)")
	repoRoot := fs.String("repo-root", "", "repository root; SARIF paths are relative to it (default: the tutorial path as recorded)")
	failOn := fs.String("fail-on", "", "lowest gap severity that exits 1: critical, high, medium, low or never (default: the run's failOn)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: smile-action report --from DIR [--output DIR] [--repo-root DIR] [--fail-on SEVERITY]\n\nRe-renders smile-report.md, .json, .sarif and smile-audit.log from DIR/state.json.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *from == "" {
		if fs.NArg() != 1 {
			return usageError{errors.New("report: --from DIR is required (the output directory of a run, which holds state.json)")}
		}
		*from = fs.Arg(0)
	}
	switch *failOn {
	case "", "critical", "high", "medium", "low", "never":
	default:
		return usageError{fmt.Errorf("report: --fail-on %q: use critical, high, medium, low or never", *failOn)}
	}
	st, warns, err := rpt.ReadState(*from)
	if err != nil {
		return err
	}
	for _, w := range warns {
		e.log.Warn("state", "note", w)
	}
	var tut *tutorial.Tutorial
	if st.Tutorial != "" {
		if t, err := tutorial.Load(st.Tutorial); err == nil {
			tut = t
		} else {
			e.log.Warn("tutorial not readable; gaps keep the lines recorded during the run", "tutorial", st.Tutorial, "err", err)
		}
	}
	secrets := redact.FromEnv(os.Environ())
	for _, name := range redact.CredentialNames() {
		if v := e.getenv(name); v != "" {
			secrets = append(secrets, v)
		}
	}
	r := rpt.Build(st, tut, rpt.Options{
		RuleFix: none.Fix,
		Secrets: secrets, RepoRoot: *repoRoot, LogsDir: *from, Version: version, Logger: e.log,
	})
	dir := *output
	if dir == "" {
		dir = *from
	}
	files, err := rpt.Write(dir, r, rpt.WithFallback(e.stdout))
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s\n%s\n%s\n%s\n", files.Markdown, files.JSON, files.SARIF, files.Audit)
	fmt.Fprintf(e.stderr, "smile-action: report re-rendered: status %s, %d gap(s)\n", r.Meta.Status, len(r.Gaps))
	threshold := *failOn
	if threshold == "" {
		threshold = st.Config.FailOn
	}
	if r.Failed(threshold) {
		return errFailed
	}
	return nil
}
