package main

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"
	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/observe"
	"github.com/smile-loop/smile-loop/internal/redact"
)

// actionRun is one tutorial to run in Action mode, with the inputs that override
// smile.json.
type actionRun struct {
	Tutorial   string        // repository-relative path
	Workspace  string        // repository root
	Config     config.Config // smile.json with the inputs applied
	OutputDir  string        // absolute, one per tutorial
	ScratchDir string        // work and logs (under RUNNER_TEMP); "" = inside OutputDir
	Events     loop.Emitter
}

// runActionTutorial runs one tutorial end to end (runTutorial) and converts its report.
// Tests of the Action wiring pass their own (seams.runOne); the end-to-end test runs
// this one.
func runActionTutorial(ctx context.Context, e *env, r actionRun) ghaction.Result {
	cfg := r.Config
	cfg.Tutorial = r.Tutorial
	tut := filepath.Join(r.Workspace, filepath.FromSlash(r.Tutorial))
	if wd, err := os.Getwd(); err == nil && sameDir(wd, r.Workspace) {
		tut = filepath.FromSlash(r.Tutorial) // on a runner: the report names it as in the repository
	}
	out, err := runTutorial(ctx, e, runRequest{
		Config:     &cfg,
		Tutorial:   tut,
		OutputDir:  r.OutputDir,
		ScratchDir: r.ScratchDir,
		RepoRoot:   r.Workspace,
		Events:     r.Events,
		Quiet:      true,
	})
	if out == nil || out.Report == nil {
		msg := "the run produced no report"
		if err != nil {
			msg = err.Error()
		}
		return ghaction.Result{Tutorial: r.Tutorial, FailOn: r.Config.FailOn, Err: msg}
	}
	if err != nil {
		e.log.Warn("run ended with an error; its report is published", "tutorial", r.Tutorial, "err", err)
	}
	return ghaction.FromReport(r.Tutorial, out.Report, out.Files, r.Config.FailOn)
}

// publishTimeout bounds posting the results (GitHub retries included).
const publishTimeout = 5 * time.Minute

// cmdAction is Action mode: GITHUB_ACTIONS=true and no subcommand. It reads the inputs
// and the event, runs the tutorials, then publishes (ghaction.Publisher).
func cmdAction(ctx context.Context, e *env, _ []string) error {
	gha := githubactions.New(githubactions.WithGetenv(e.getenv), githubactions.WithWriter(e.stdout))
	in, err := ghaction.ReadInputs(gha.GetInput)
	if err != nil {
		return err
	}
	if in.Token != "" {
		gha.AddMask(in.Token)
	}
	ws := workspace(e)
	if in.Command == "discover" {
		_, err := discover(ctx, e, gha, in, ws)
		return err
	}
	ev, err := ghaction.ReadEvent(e.getenv)
	if err != nil {
		return err
	}
	if w := ghaction.TrustWarning(ev); w != "" {
		gha.Warningf("%s", w)
	}
	gh, err := newGitHub(e, in.Token, ev)
	if err != nil {
		return err
	}
	p := &ghaction.Publisher{
		Action: gha, Getenv: e.getenv, GitHub: gh, Inputs: in, Event: ev, Workspace: ws, Log: e.log,
		Artifacts: &ghaction.Artifacts{ResultsURL: e.getenv("ACTIONS_RESULTS_URL"), Token: e.getenv("ACTIONS_RUNTIME_TOKEN"), TempDir: e.getenv("RUNNER_TEMP")},
		Redact:    secretMasker(e).String,
	}
	if in.ReportDir != "" {
		return actionPost(ctx, e, p, in)
	}

	cfg, cfgPath, err := actionConfig(ws, in.Config, in.TrustedConfig, gha.Noticef)
	if err != nil {
		return err
	}
	failOn := firstOf(in.FailOn, cfg.FailOn)
	p.Inputs.FailOn = failOn

	// Which tutorials.
	var changed func(context.Context) ([]ghaction.PRFile, error)
	if ev.IsPR() && in.ChangedOnly && gh != nil {
		changed = func(ctx context.Context) ([]ghaction.PRFile, error) {
			files, err := gh.ChangedFiles(ctx)
			p.PRFiles = files
			return files, err
		}
	}
	d := ghaction.Discovery{Workspace: ws, Patterns: in.Tutorials, ChangedOnly: in.ChangedOnly && changed != nil}
	tutorials, err := d.Tutorials(ctx, ev, changed)
	if err != nil && changed != nil {
		gha.Warningf("could not list the pull request's files (%s); testing every tutorial matching %s", ghaction.Why(err), strings.Join(in.Tutorials, ", "))
		d.ChangedOnly = false
		tutorials, err = d.Tutorials(ctx, ev, nil)
	}
	if err != nil {
		return err
	}
	if ev.IsPR() && in.ChangedOnly && gh == nil {
		gha.Warningf("no github-token: cannot list the pull request's files, so every tutorial matching %s is tested", strings.Join(in.Tutorials, ", "))
	}
	if len(tutorials) == 0 {
		where := ""
		if ev.IsPR() && d.ChangedOnly {
			where = " among the files this pull request changes"
		}
		gha.Noticef("No tutorial to test: nothing matched %s%s.", strings.Join(in.Tutorials, ", "), where)
	}

	// Which provider.
	cfg.LLMRuntime = firstOf(in.LLMRuntime, cfg.LLMRuntime)
	provider, why := ghaction.ChooseProvider(firstOf(in.LLMProvider, cfg.LLMProvider), cfg.LLMRuntime, ev, e.getenv)
	if why != "" {
		gha.Noticef("%s", why)
	}

	cfg.LLMProvider, cfg.FailOn = provider, failOn
	cfg.ContainerImage = actionLearnerImage(in.Image, cfg.ContainerImage, cfgPath)
	if in.MaxIterations > 0 {
		cfg.MaxIterations = in.MaxIterations
	}
	if cfg.Scenario != "" && !filepath.IsAbs(cfg.Scenario) && cfgPath != "" {
		cfg.Scenario = filepath.Join(filepath.Dir(cfgPath), cfg.Scenario)
	}
	if err := cfg.Validate(); err != nil {
		return err
	}

	outRoot := in.OutputDir
	if !filepath.IsAbs(outRoot) {
		outRoot = filepath.Join(ws, outRoot)
	}
	scratch := actionScratch(e.getenv)
	defer tidyAction(e, ws, outRoot, scratch)
	var results []ghaction.Result
	for _, t := range tutorials {
		// Groups do not nest on GitHub: the tutorial is a heading line and each of its
		// iterations a collapsible group; gap annotations come from the publisher, which
		// annotates the de-duplicated report.
		gha.Infof("smile-loop: testing %s", ghaction.LogText(t))
		if err := insideRepo(ws, t); err != nil {
			gha.Errorf("%s", ghaction.LogText(p.Redact(err.Error())))
			results = append(results, ghaction.Result{Tutorial: t, FailOn: failOn, Err: err.Error()})
			continue
		}
		alog := observe.NewActionsLog(e.stdout, observe.ActionsLogOptions{File: t, Redact: p.Redact, NoGapAnnotations: true})
		run := actionRun{Tutorial: t, Workspace: ws, Config: cfg, Events: alog, OutputDir: filepath.Join(outRoot, slug(t))}
		if scratch != "" {
			run.ScratchDir = filepath.Join(scratch, slug(t))
		}
		res := e.runOne(ctx, e, run)
		alog.Close()
		if res.Err != "" {
			gha.Errorf("%s: %s", t, p.Redact(res.Err))
		}
		results = append(results, res)
		if ctx.Err() != nil {
			break
		}
	}

	if ev.IsPR() && len(results) > 0 {
		// The fork-safe pair posts from a privileged workflow_run job: record which
		// commit these reports are about.
		if f, err := ghaction.WriteEventRecord(outRoot, ev); err != nil {
			gha.Warningf("could not record the pull request for the fork-safe pair: %v", err)
		} else {
			p.ExtraFiles = append(p.ExtraFiles, ghaction.ArtifactFile{Name: ghaction.EventFile, Path: f})
		}
	}
	// A cancelled or timed-out run still publishes what it has, under a bound of its own.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), publishTimeout)
	defer cancel()
	out, err := p.Publish(pctx, results)
	if err != nil {
		return err
	}
	v := verdict(gha, out)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return v
}

// actionPost posts the reports of an untrusted run (report-dir), treating them as data.
func actionPost(ctx context.Context, e *env, p *ghaction.Publisher, in ghaction.Inputs) error {
	dir := in.ReportDir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(p.Workspace, dir)
	}
	all, rec, err := ghaction.LoadReportDir(dir, in.FailOn)
	if err != nil {
		return err
	}
	// Only reports about tutorials this workflow tests are posted: an untrusted run
	// cannot aim comments at other files.
	var results []ghaction.Result
	for _, r := range all {
		if !ghaction.MatchAny(in.Tutorials, r.Tutorial) {
			p.Action.Warningf("report-dir: ignoring the report about %s: it does not match the tutorials input (%s)", r.Tutorial, strings.Join(in.Tutorials, ", "))
			continue
		}
		results = append(results, r)
	}
	p.Artifacts = nil // the reports are already an artifact of the untrusted run
	if rec == nil {
		// Without the record nothing ties the reports to a pull request's head commit.
		return &ghaction.ReportDirError{Reason: "no " + ghaction.EventFile + " in the artifact, so the reports cannot be checked against a pull request's head commit"}
	}
	if p.GitHub == nil {
		return usageError{errors.New("report-dir: posting needs the github-token input")}
	}
	if err := p.GitHub.VerifyPR(ctx, *rec, p.Event.SHA); err != nil {
		return err
	}
	p.Event.PR, p.Event.SHA = rec.PR, rec.HeadSHA
	p.GitHub.Event = p.Event
	out, err := p.Publish(ctx, results)
	if err != nil {
		return err
	}
	_ = verdict(p.Action, out)
	return nil // the untrusted run carries the verdict; posting it succeeded
}

// verdict logs what could not be posted and turns the status into the step's result.
func verdict(gha *githubactions.Action, out ghaction.Outcome) error {
	if len(out.NotPosted) > 0 {
		gha.Infof("Not posted (%d): the report, the step summary and the workflow annotations above still hold every gap.", len(out.NotPosted))
		for _, n := range out.NotPosted {
			gha.Infof("  - %s", ghaction.LogText(n))
		}
	}
	gha.Infof("smile-loop: %s, %d gap(s)", out.Status, out.Gaps)
	switch out.Status {
	case ghaction.StatusFailed, ghaction.StatusError:
		return errFailed
	}
	return nil
}

// secretMasker masks the secrets of the environment (the process's and the injected
// one) in everything Action mode posts.
func secretMasker(e *env) *redact.Redactor {
	environ := os.Environ()
	for _, name := range redact.CredentialNames() {
		if v := e.getenv(name); v != "" {
			environ = append(environ, name+"="+v)
		}
	}
	return redact.New(redact.FromEnv(environ)...)
}

func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// slug turns a tutorial path into a directory name: docs/get-started.md → docs-get-started.
func slug(t string) string {
	t = strings.TrimSuffix(t, path.Ext(t))
	var b strings.Builder
	for _, r := range t {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-.")
}
