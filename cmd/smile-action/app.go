package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/smile-loop/smile-loop/internal/ghaction"
)

// env is what every subcommand gets from the process: no globals, so tests run
// subcommands with a fake environment and buffers.
type env struct {
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
	log    *slog.Logger
	// logMask masks the secrets in log; nil when a test builds env with its own log.
	logMask *maskedLog
	// skipFixChecks: the deterministic Student does not re-run fixes to prove them (eval)
	skipFixChecks bool
	seams
}

// seams are the parts of the program a test of its wiring replaces, passed in (runWith)
// rather than swapped in package variables, so such tests run in parallel. A nil field
// is the real one.
type seams struct {
	// runOne runs one tutorial of Action mode end to end (default runActionTutorial).
	runOne func(ctx context.Context, e *env, r actionRun) ghaction.Result
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, args []string) error
}

func commands() []command {
	return []command{
		{"run", "run the Student/Mentor loop on a tutorial and write the report", cmdRun},
		{"validate", "check smile.json and the tutorial without Docker", cmdValidate},
		{"schema", "print the JSON Schema of smile.json (config) or of the report (report)", cmdSchema},
		{"report", "re-render the report from a run's saved state (--from DIR)", cmdReport},
		{"discover", "list the tutorials to test, as JSON for a strategy.matrix", cmdDiscover},
		{"eval", "score deterministic runs against labelled tutorials (precision, recall)", cmdEval},
		{"version", "print the version", cmdVersion},
	}
}

// run is the whole program: it parses the subcommand, runs it and maps its error to an
// exit code. It is the only place that turns errors into exit codes.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, getenv, stdout, stderr, seams{})
}

// runWith is run with its seams given (tests).
func runWith(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, s seams) int {
	if s.runOne == nil {
		s.runOne = runActionTutorial
	}
	logMask := newMaskedLog(stderr, getenv)
	e := &env{getenv: getenv, stdout: stdout, stderr: stderr, logMask: logMask, seams: s,
		log: slog.New(slog.NewTextHandler(logMask, &slog.HandlerOptions{Level: logLevel(getenv)}))}
	if len(args) == 0 {
		if getenv("GITHUB_ACTIONS") == "true" {
			return report(e, cmdAction(ctx, e, nil))
		}
		usage(stderr)
		return exitInvalidInput
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return report(e, c.run(ctx, e, args[1:]))
		}
	}
	fmt.Fprintf(stderr, "smile-action: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitInvalidInput
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: smile-action <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'smile-action <command> -h' for a command's flags. With GITHUB_ACTIONS=true and no command, runs as a GitHub Action.")
}

func logLevel(getenv func(string) string) slog.Level {
	if getenv("SMILE_DEBUG") != "" || getenv("RUNNER_DEBUG") == "1" {
		return slog.LevelDebug
	}
	return slog.LevelWarn
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("smile-action "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}

// parseFlags parses args, turning flag errors into invalid-input errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return usageError{err}
	}
	return nil
}
