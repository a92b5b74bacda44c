package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	agentapi "github.com/smile-loop/smile-loop/internal/agent/api"
	agentcli "github.com/smile-loop/smile-loop/internal/agent/cli"
	"github.com/smile-loop/smile-loop/internal/agent/none"
	"github.com/smile-loop/smile-loop/internal/agent/replay"
	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/observe"
	"github.com/smile-loop/smile-loop/internal/redact"
	rpt "github.com/smile-loop/smile-loop/internal/report"
	"github.com/smile-loop/smile-loop/internal/sandbox"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// runRequest is one tutorial to run; zero fields take smile.json's values.
type runRequest struct {
	ConfigPath string         // "" means smile.json in the current directory (or the defaults)
	Config     *config.Config // when set, used instead of loading ConfigPath
	Tutorial   string         // overrides config "tutorial"
	OutputDir  string         // overrides config "outputDir"
	ScratchDir string         // where the work and logs directories go; "" = inside the output directory
	Resume     bool
	RepoRoot   string       // SARIF paths are relative to it
	Events     loop.Emitter // also receives the run's events (Action log); may be nil
	Quiet      bool         // no terminal progress and no observer server
}

// runOutcome is what a run produced.
type runOutcome struct {
	State     *loop.State
	Report    *rpt.Report
	Files     rpt.Files
	OutputDir string
	Config    config.Config
	Failed    bool // the report fails the threshold, or the loop did not complete
}

// providerError: the configured provider cannot run in this build or environment.
type providerError struct{ provider, why string }

func (e *providerError) Error() string {
	return fmt.Sprintf("llmProvider %q is not available: %s", e.provider, e.why)
}

// EnvironmentUnavailable maps the error to exit code 3.
func (e *providerError) EnvironmentUnavailable() bool { return true }

// agents are a Student and a Mentor for a run.
type agents struct {
	Student  loop.Student
	Mentor   loop.Mentor
	ServeAPI bool         // the agents talk to wrappers through the loop's HTTP API
	Secrets  []string     // values the agents hold that must be masked (the proxy's run token)
	Close    func() error // releases what the agents hold (the key-holding proxy); may be nil
}

// newLLMAgents builds the Student and Mentor of the LLM providers (claude, codex,
// gemini) in the configured runtime: "api" calls the provider's HTTP API from here;
// "cli" runs the provider's CLI in the container through smile-wrapper, reaching the
// provider through a key-holding proxy (the key never enters the container).
func newLLMAgents(e *env, cfg config.Config) (agents, error) {
	if cfg.LLMRuntime == config.RuntimeAPI {
		s, m, err := agentapi.New(cfg, e.getenv, e.log)
		if err != nil {
			return agents{}, err
		}
		return agents{Student: s, Mentor: m}, nil
	}
	s, m, err := agentcli.New(cfg, e.getenv, agentcli.Options{Logger: e.log})
	if err != nil {
		return agents{}, err
	}
	return agents{Student: s, Mentor: m, ServeAPI: true, Secrets: s.Secrets(), Close: s.Close}, nil
}

// cmdRun runs the loop on one tutorial and writes the report.
func cmdRun(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "run")
	cfgPath := fs.String("config", "", "path of smile.json (default: ./smile.json, or the defaults when it is absent)")
	output := fs.String("output", "", "output directory for the report, state and logs (default: config outputDir, smile-output)")
	resume := fs.Bool("resume", false, "continue the interrupted run saved in the output directory")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: smile-action run [--config F] [--output DIR] [--resume] [TUTORIAL]\n\nRuns the Student/Mentor loop on a tutorial in a fresh container and writes smile-report.md, .json, .sarif and smile-audit.log.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError{fmt.Errorf("run takes at most one tutorial, got %d arguments", fs.NArg())}
	}
	out, err := runTutorial(ctx, e, runRequest{ConfigPath: *cfgPath, OutputDir: *output, Resume: *resume, Tutorial: fs.Arg(0)})
	if out != nil && out.Report != nil {
		printOutcome(e, out)
	}
	if err != nil {
		if out != nil && out.State != nil && exitCode(err) == exitInternal {
			// the loop ended in error and its report says why: the tutorial did not pass
			e.log.Debug("run ended in error", "err", err)
			return errFailed
		}
		return err
	}
	if out.Failed {
		return errFailed
	}
	if out.Report.Inconclusive(out.Config.FailOn) {
		return errInconclusive
	}
	return nil
}

func printOutcome(e *env, out *runOutcome) {
	r := out.Report
	verdict := "passed"
	switch {
	case out.Failed:
		verdict = "did not pass"
	case r.Inconclusive(out.Config.FailOn):
		verdict = "was inconclusive"
	}
	reason := ""
	if out.State != nil && out.State.FinalResult != nil && out.State.Status != loop.StatusCompleted {
		reason = " — " + out.State.FinalResult.Reason
	}
	fmt.Fprintf(e.stdout, "smile-loop: %s %s: status %s, %d iteration(s), %d gap(s)%s\n",
		r.Meta.Tutorial, verdict, r.Meta.Status, r.Meta.Iterations, len(r.Gaps), reason)
	if r.Coverage != nil {
		fmt.Fprintf(e.stdout, "coverage: %s\n", r.Coverage.Line())
	}
	if out.Files.Markdown != "" {
		fmt.Fprintf(e.stdout, "report: %s\n", out.Files.Markdown)
		fmt.Fprintf(e.stdout, "        %s, %s, %s\n", out.Files.JSON, out.Files.SARIF, out.Files.Audit)
	}
}

// runTutorial is the pipeline of one run: config → tutorial → sandbox → agents → loop →
// report. A report is written for every end of the loop (cancelled and error included)
// and for failures to set up the container or the agents; the outcome is nil only when
// the config or the tutorial is invalid or the output directory is busy.
func runTutorial(ctx context.Context, e *env, req runRequest) (*runOutcome, error) {
	cfg, cfgDir, err := loadRunConfig(e, req)
	if err != nil {
		return nil, err
	}
	tutPath := cfg.Tutorial
	if req.Tutorial != "" {
		tutPath = req.Tutorial
	} else {
		tutPath = resolveNear(tutPath, cfgDir)
	}
	if err := config.ValidateTutorialPath(tutPath); err != nil {
		return nil, err
	}
	tut, err := tutorial.Load(tutPath)
	if err != nil {
		return nil, err
	}
	for _, w := range tut.Warnings {
		e.log.Warn("tutorial", "path", tutPath, "warning", w)
	}
	outDir := req.OutputDir
	if outDir == "" {
		outDir = cfg.OutputDir
	}
	if outDir, err = filepath.Abs(outDir); err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("create output directory %s: %w", outDir, err)
	}
	runID := loop.NewRunID()
	var resumed *loop.State
	if req.Resume {
		if resumed, err = loop.LoadState(outDir); err != nil {
			return nil, &loop.ResumeError{Dir: outDir, Err: err}
		}
		runID, cfg = resumed.RunID, resumed.Config // the run continues as it was configured
	}
	out := &runOutcome{OutputDir: outDir, Config: cfg}
	ag, agErr := newAgents(ctx, e, cfg, tut, cfgDir)
	if ag.Close != nil {
		defer func() { _ = ag.Close() }()
	}
	secrets := append(runSecrets(e), ag.Secrets...)
	mask := redact.New(secrets...)
	e.setLogMask(mask)

	events, closeEvents := runEvents(ctx, e, req, cfg, runID, tutPath, mask)
	defer closeEvents()

	// a failure before the loop starts still gets a report
	setupFailed := func(cause error) (*runOutcome, error) {
		var lerr *loop.LockedError
		if errors.As(cause, &lerr) || req.Resume {
			return nil, cause // another run's directory, or a run to resume later: leave it as it is
		}
		st, err := loop.Abort(loop.Options{Config: cfg, Tutorial: tut, StateDir: outDir, RunID: runID,
			Secrets: secrets, Events: events, Logger: e.log, RuleFix: none.Fix}, cause)
		if st == nil {
			return nil, err
		}
		out.State = st
		writeReport(e, out, tut, req, secrets)
		return out, cause
	}

	if agErr != nil {
		return setupFailed(agErr)
	}
	so := sandbox.ConfigOptions(cfg) // image, limits, keepOn*, keepWork
	so.RunID = runID
	so.TutorialDir = tut.Dir
	so.WorkDir = filepath.Join(scratchDir(req, outDir), "work")
	so.LogsDir = filepath.Join(scratchDir(req, outDir), "logs")
	so.FreshWork = !req.Resume // a new run does not start from an earlier run's files
	so.Progress = func(line string) { fmt.Fprintf(e.stderr, "smile-loop: %s\n", line) }
	so.Redact = mask
	// A container outlives the run's timeout by a margin at most, even when this
	// process is killed before it can remove it.
	so.Lifetime = time.Duration(cfg.Timeout)*time.Second + 15*time.Minute
	so.Logger = e.log
	sb, err := sandbox.New(ctx, so)
	if err != nil {
		return setupFailed(err)
	}
	st, err := loop.Run(ctx, loop.Options{
		RuleFix:  none.Fix,
		Config:   cfg,
		Tutorial: tut,
		Sandbox:  sb,
		Student:  ag.Student,
		Mentor:   ag.Mentor,
		Events:   events,
		StateDir: outDir,
		Logger:   e.log,
		Resume:   req.Resume,
		Resumed:  resumed,
		RunID:    runID,
		Secrets:  secrets,
		ServeAPI: ag.ServeAPI,
	})
	var lerr *loop.LockedError
	var rerr *loop.ResumeError
	switch {
	case errors.As(err, &lerr), errors.As(err, &rerr):
		return nil, err
	case st == nil:
		return setupFailed(err)
	}
	out.State = st
	writeReport(e, out, tut, req, secrets)
	return out, err
}

// writeReport builds and writes the report of out.State; without the report package's
// files it still leaves state.json behind.
func writeReport(e *env, out *runOutcome, tut *tutorial.Tutorial, req runRequest, secrets []string) {
	r := rpt.Build(out.State, tut, rpt.Options{
		RuleFix:  none.Fix,
		Secrets:  secrets,
		RepoRoot: req.RepoRoot,
		LogsDir:  filepath.Join(scratchDir(req, out.OutputDir), "logs"),
		Version:  version,
		Logger:   e.log,
	})
	out.Report = r
	out.Failed = r.Failed(out.Config.FailOn) || out.State.Status != loop.StatusCompleted && out.State.Status != loop.StatusInconclusive
	files, err := rpt.Write(out.OutputDir, r, rpt.WithFallback(e.stdout))
	if err != nil {
		e.log.Error("write report", "dir", out.OutputDir, "err", err)
		return
	}
	out.Files = files
}

// scratchDir holds a run's work and logs directories: req.ScratchDir (Action mode:
// under RUNNER_TEMP), else the output directory.
func scratchDir(req runRequest, outDir string) string {
	if req.ScratchDir != "" {
		return req.ScratchDir
	}
	return outDir
}

// loadRunConfig loads smile.json (or takes req.Config) and returns it with the
// directory of the config file, against which relative paths are also tried.
func loadRunConfig(e *env, req runRequest) (config.Config, string, error) {
	if req.Config != nil {
		return *req.Config, "", nil
	}
	cfg, warnings, err := config.Load(req.ConfigPath)
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	if err != nil {
		return cfg, "", err
	}
	dir := ""
	if req.ConfigPath != "" {
		dir = filepath.Dir(req.ConfigPath)
	}
	return cfg, dir, nil
}

// resolveNear returns path as given when it exists relative to the current directory,
// else relative to dir (the config file's directory) when it exists there.
func resolveNear(path, dir string) string {
	if path == "" || filepath.IsAbs(path) || dir == "" || dir == "." {
		return path
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if alt := filepath.Join(dir, path); fileExists(alt) {
		return alt
	}
	return path
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// newAgents picks the Student and Mentor of the configured provider.
func newAgents(ctx context.Context, e *env, cfg config.Config, tut *tutorial.Tutorial, cfgDir string) (agents, error) {
	switch cfg.LLMProvider {
	case config.ProviderNone:
		return agents{Student: &none.Student{Logger: e.log, SkipFixChecks: e.skipFixChecks}, Mentor: none.Mentor{}}, nil
	case config.ProviderReplay:
		p, err := replay.Load(resolveNear(cfg.Scenario, cfgDir))
		if err != nil {
			return agents{}, err
		}
		return agents{Student: p.Student(), Mentor: p.Mentor()}, nil
	case config.ProviderClaude, config.ProviderCodex, config.ProviderGemini:
		return newLLMAgents(e, cfg)
	default:
		return agents{}, usageError{fmt.Errorf("unknown llmProvider %q: use claude, codex, gemini, none or replay", cfg.LLMProvider)}
	}
}

// runEvents fans the run's events out to terminal progress, the observer server (when
// enabled) and req.Events.
func runEvents(ctx context.Context, e *env, req runRequest, cfg config.Config, runID, tutPath string, mask *redact.Redactor) (loop.Emitter, func()) {
	var emitters []loop.Emitter
	var closers []func()
	if req.Events != nil {
		emitters = append(emitters, req.Events)
	}
	if !req.Quiet {
		// a live line on a terminal, plain timestamped lines elsewhere (and with CI=true)
		tty := false
		if f, ok := e.stderr.(*os.File); ok {
			tty = observe.IsTTY(f, e.getenv)
		}
		term := observe.NewTerminal(e.stderr, observe.TerminalOptions{TTY: tty, MaxIterations: cfg.MaxIterations, Redact: mask.String})
		emitters = append(emitters, term)
		closers = append(closers, term.Close)
		if cfg.Observe.Enabled && e.getenv("SMILE_NO_OBSERVE") == "" {
			hub := observe.NewHub(observe.HubOptions{RunID: runID, Tutorial: tutPath, MaxIterations: cfg.MaxIterations, Redact: mask.String, Logger: e.log})
			sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
			addr, err := observe.Serve(sctx, observe.Addr(cfg.Observe.Port), hub)
			if err != nil {
				cancel()
				e.log.Warn("live observation is off", "err", err)
			} else {
				fmt.Fprintf(e.stderr, "smile-loop: watch live at %s\n", observe.ViewerURL(addr, ""))
				emitters = append(emitters, hub)
				closers = append(closers, func() {
					// flush loop_complete to connected observers, then stop serving
					fctx, fcancel := context.WithTimeout(context.Background(), 2*time.Second)
					_ = hub.Close(fctx)
					fcancel()
					cancel()
				})
			}
		}
	}
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	switch len(emitters) {
	case 0:
		return loop.Discard, closeAll
	case 1:
		return emitters[0], closeAll
	}
	return observe.Multi(emitters...), closeAll
}

// runSecrets are the values masked in everything the run writes: secret-looking
// environment variables and the known credentials.
func runSecrets(e *env) []string {
	environ := os.Environ()
	for _, name := range redact.CredentialNames() {
		if v := e.getenv(name); v != "" {
			environ = append(environ, name+"="+v)
		}
	}
	return redact.FromEnv(environ)
}
