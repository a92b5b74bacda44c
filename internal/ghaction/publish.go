package ghaction

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sethvargo/go-githubactions"
	"github.com/smile-loop/smile-loop/internal/report"
)

// Statuses of the status output.
const (
	StatusPassed = "passed"
	StatusFailed = "failed"
	StatusError  = "error"
	// StatusInconclusive: no tutorial failed, but at least one could not be exercised
	// enough to call it a pass (its report's Coverage says why); the check is neutral
	// and the job does not fail.
	StatusInconclusive = "inconclusive"
	StatusNothing      = "skipped" // no tutorial to test
)

// Publisher turns the results of one job into everything Action mode leaves behind:
// artifact, step summary, outputs, check run, review, workflow-command annotations and
// audit issues. Nothing it cannot post is lost: the log says what and why, and the
// summary, outputs, annotations and workspace files are always written.
type Publisher struct {
	Action    *githubactions.Action
	Getenv    func(string) string
	GitHub    *GitHub    // nil without a token
	Artifacts *Artifacts // nil or unconfigured: no upload
	Inputs    Inputs
	Event     Event
	Workspace string
	PRFiles   []PRFile // the pull request's files, when known
	// ExtraFiles go into the artifact besides the reports (the event record).
	ExtraFiles []ArtifactFile
	Log        *slog.Logger
	// Redact masks secrets in every text that leaves the job (comments, annotations,
	// summary, issues); nil leaves text as it is (the report is redacted already).
	Redact func(string) string

	results []Result // being published
	warned  int      // warnings written: GitHub counts them in the step's 10
}

// warn writes a warning annotation (escaped by go-githubactions) and counts it.
func (p *Publisher) warn(msg string) {
	p.warned++
	p.Action.Warningf("%s", msg)
}

// Outcome is what Publish did.
type Outcome struct {
	Status     string
	Gaps       int
	ArtifactID int64
	CheckRunID int64
	Review     *ReviewOutcome
	Audit      *AuditOutcome
	Annotated  int      // workflow-command annotations written
	NotPosted  []string // outputs that could not be posted, with why
}

// Publish publishes the results. It returns an error only for a broken runner
// environment (an unwritable GITHUB_OUTPUT or summary file); GitHub API failures
// degrade instead, and are listed in Outcome.NotPosted.
func (p *Publisher) Publish(ctx context.Context, results []Result) (out Outcome, err error) {
	defer func() {
		// go-githubactions panics when it cannot write a file command.
		if r := recover(); r != nil {
			err = fmt.Errorf("write runner file command: %v", r)
		}
	}()
	results = p.redacted(results)
	var all []fileGap
	for _, r := range results {
		all = append(all, r.gaps()...)
	}
	out.Gaps = len(all)
	out.Status = overall(results)
	notPosted := func(what string, e error) {
		msg := fmt.Sprintf("could not post the %s: %s", what, Why(e))
		out.NotPosted = append(out.NotPosted, msg)
		p.warn(msg)
	}

	// 1. Artifact (first: the summary links to it).
	link := p.upload(ctx, results, &out)

	// 2. GitHub: check run and review.
	summary := Summary(results)
	checkPosted := false
	if p.Inputs.CommentMode != ModeNone && len(results) > 0 {
		if p.GitHub == nil {
			out.NotPosted = append(out.NotPosted, "check run and review: no github-token")
			p.warn("could not post the check run or review: no github-token input")
		} else {
			if p.Event.Fork {
				p.Action.Noticef("pull request from a fork: the token is probably read-only; if posting fails, the gaps stay in the summary, the annotations below and the artifact")
			}
			if p.Event.IsPR() {
				var problems []string
				results, problems = p.GitHub.AtHead(ctx, results)
				for _, pr := range problems {
					p.Action.Infof("%s", LogText(pr)) // not a warning: fork runs need the 10 shown for gaps
				}
			}
			id, err := p.GitHub.PostCheck(ctx, CheckRun{
				Name:       p.Inputs.CheckName,
				Conclusion: conclusion(out.Status),
				Title:      checkTitle(results, out),
				Summary:    summary,
				Results:    results,
				DetailsURL: p.Event.RunURL(),
			})
			out.CheckRunID = id
			if err != nil {
				notPosted("check run", err)
			} else {
				checkPosted = true
			}
			if p.Inputs.CommentMode == ModeReview && p.Event.IsPR() {
				p.review(ctx, results, &out, notPosted)
			}
		}
	}

	// 3. Workflow-command annotations when the check run could not carry them.
	if p.Inputs.CommentMode != ModeNone && !checkPosted && len(all) > 0 {
		if note := p.annotate(all, &out); note != "" {
			summary += "\n---\n\n" + note + "\n"
		}
	}

	// 4. Step summary and outputs: always.
	if p.Getenv("GITHUB_STEP_SUMMARY") != "" {
		p.Action.AddStepSummary(CapMarkdown(summary, MaxSummary, link))
	}
	if p.Getenv("GITHUB_OUTPUT") != "" {
		p.Action.SetOutput("status", out.Status)
		p.Action.SetOutput("gaps", fmt.Sprint(out.Gaps))
		for _, o := range []struct{ name, file string }{
			{"report-json", "smile-report.json"}, {"report-markdown", "smile-report.md"}, {"report-sarif", "smile-report.sarif"},
		} {
			p.Action.SetOutput(o.name, strings.Join(p.outputPaths(results, o.file), "\n"))
		}
		if link != "" {
			p.Action.SetOutput("artifact-url", link)
		}
	}

	// 5. Scheduled audits: one issue per failing tutorial.
	if p.Inputs.AuditIssues && !p.Event.IsPR() && p.GitHub != nil {
		ao, err := p.GitHub.Audit(ctx, results)
		out.Audit = &ao
		if err != nil {
			notPosted("audit issues", err)
		}
	}
	return out, nil
}

// upload uploads the report artifact and returns its link ("" when not uploaded).
func (p *Publisher) upload(ctx context.Context, results []Result, out *Outcome) string {
	if p.Artifacts == nil || len(results) == 0 {
		return ""
	}
	arts := *p.Artifacts
	overwrite, days := p.artifactSettings()
	arts.Overwrite = arts.Overwrite || overwrite
	id, err := arts.Upload(ctx, p.Inputs.ArtifactName, p.artifactFiles(results), days)
	switch {
	case errors.Is(err, ErrNoArtifactService):
		p.warn(err.Error())
		out.NotPosted = append(out.NotPosted, "artifact: "+err.Error())
		return ""
	case err != nil:
		msg := "could not post the report artifact: " + Why(err)
		out.NotPosted = append(out.NotPosted, msg)
		p.warn(msg)
		return ""
	}
	out.ArtifactID = id
	p.Action.Infof("Uploaded the report as artifact %q (id %d)", p.Inputs.ArtifactName, id)
	if u := p.Event.RunURL(); u != "" {
		return fmt.Sprintf("%s/artifacts/%d", u, id)
	}
	return ""
}

// review posts the review comments and summary reviews.
func (p *Publisher) review(ctx context.Context, results []Result, out *Outcome, notPosted func(string, error)) {
	files := p.PRFiles
	var err error
	if files == nil {
		files, err = p.GitHub.ChangedFiles(ctx)
	}
	if err != nil {
		notPosted("review", err)
		return
	}
	ro, err := p.GitHub.Review(ctx, results, files, p.Inputs.FilterMode)
	out.Review = &ro
	for _, pr := range ro.Problems {
		out.NotPosted = append(out.NotPosted, pr)
		p.warn(pr)
	}
	if err != nil {
		notPosted("review", err)
		return
	}
	listed := 0
	for _, n := range ro.Outside {
		listed += n
	}
	p.Action.Infof("Review: %d comment(s) created (%d file-level), %d updated, %d unchanged, %d outdated removed, %d kept (replied), %d gap(s) listed in summary reviews (%d over the limit of %d comments)",
		ro.Created, ro.FileComments, ro.Updated, ro.Unchanged, ro.Deleted, ro.KeptReplied, listed, ro.OverCap, MaxCommentsPerRun)
}

// MaxAnnotationsShown is how many annotations of each level (error, warning, notice)
// GitHub shows for one step; the rest are dropped from the display.
const MaxAnnotationsShown = 10

// annotate writes the fork fallback's workflow-command annotations: failing gaps as
// errors, the others as warnings, most severe first then by file and line, at most
// MaxAnnotationsShown of each level. It returns the note for the summary about the
// ones GitHub would not show ("" when all are shown).
func (p *Publisher) annotate(all []fileGap, out *Outcome) string {
	gaps := append([]fileGap(nil), all...)
	sort.SliceStable(gaps, func(i, j int) bool {
		a, b := gaps[i], gaps[j]
		if a.Severity.Rank() != b.Severity.Rank() {
			return a.Severity.Rank() > b.Severity.Rank()
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.line() < b.line()
	})
	failOn := map[string]string{}
	for _, r := range p.results {
		failOn[r.Tutorial] = r.FailOn
	}
	// The warnings this step already wrote take their place among the 10 shown.
	shown, hidden := map[string]int{"warning": min(p.warned, MaxAnnotationsShown)}, map[string]int{}
	for _, g := range gaps {
		level := "warning"
		if g.failing(failOn[g.Path]) {
			level = "error"
		}
		if shown[level] >= MaxAnnotationsShown {
			hidden[level]++
			continue
		}
		shown[level]++
		fields := map[string]string{
			"file":  g.Path,
			"title": fmt.Sprintf("smile-loop: %s gap", orDefault(string(g.Severity), "unrated")),
		}
		if g.line() > 0 {
			fields["line"], fields["endLine"] = fmt.Sprint(g.line()), fmt.Sprint(g.last())
		}
		a := p.Action.WithFieldsMap(fields)
		if level == "error" {
			a.Errorf("%s", annotationText(g))
		} else {
			a.Warningf("%s", annotationText(g))
		}
		out.Annotated++
	}
	if hidden["error"]+hidden["warning"] == 0 {
		return ""
	}
	note := fmt.Sprintf("GitHub shows at most %d error and %d warning annotations per step: %d more failing and %d more other gap(s) are listed in this summary and in the report artifact.",
		MaxAnnotationsShown, MaxAnnotationsShown, hidden["error"], hidden["warning"])
	p.Action.Noticef("%s", note)
	return note
}

func annotationText(g fileGap) string {
	s := g.Problem
	if g.SuggestedFix != "" {
		s += " Suggested fix: " + g.SuggestedFix
	}
	return s
}

func overall(results []Result) string {
	if len(results) == 0 {
		return StatusNothing
	}
	status := StatusPassed
	for _, r := range results {
		switch {
		case r.Err != "":
			return StatusError
		case r.Failed():
			status = StatusFailed
		case r.Report.Inconclusive(r.FailOn) && status == StatusPassed:
			status = StatusInconclusive
		}
	}
	return status
}

func conclusion(status string) string {
	switch status {
	case StatusPassed:
		return "success"
	case StatusNothing, StatusInconclusive:
		return "neutral"
	default:
		return "failure"
	}
}

func checkTitle(results []Result, out Outcome) string {
	failed := 0
	for _, r := range results {
		if r.Failed() {
			failed++
		}
	}
	if failed == 0 {
		return fmt.Sprintf("%d tutorial(s) passed, %d gap(s) below the threshold", len(results), out.Gaps)
	}
	return fmt.Sprintf("%d of %d tutorial(s) failed with %d gap(s)", failed, len(results), out.Gaps)
}

// artifactFiles names the report files inside the artifact: as they are for one
// tutorial, under the tutorial's path for several.
func (p *Publisher) artifactFiles(results []Result) []ArtifactFile {
	var out []ArtifactFile
	for _, r := range results {
		for _, f := range r.Files {
			name := filepath.Base(f)
			if len(results) > 1 {
				name = path.Join(strings.TrimSuffix(r.Tutorial, path.Ext(r.Tutorial)), name)
			}
			out = append(out, ArtifactFile{Name: name, Path: f})
		}
	}
	return append(out, p.ExtraFiles...)
}

// outputPaths returns the workspace-relative paths of one kind of report file (outputs
// are read by later steps, outside this container, where only the workspace is shared).
func (p *Publisher) outputPaths(results []Result, base string) []string {
	var out []string
	for _, r := range results {
		for _, f := range r.Files {
			if filepath.Base(f) != base {
				continue
			}
			if rel, err := filepath.Rel(p.Workspace, f); err == nil && !strings.HasPrefix(rel, "..") {
				f = filepath.ToSlash(rel)
			}
			out = append(out, f)
		}
	}
	return out
}

// redacted returns a copy of results with every published text passed through Redact.
func (p *Publisher) redacted(results []Result) []Result {
	p.results = results
	if p.Redact == nil {
		return results
	}
	out := make([]Result, len(results))
	for i, r := range results {
		r.Markdown, r.Err = p.Redact(r.Markdown), p.Redact(r.Err)
		if r.Report != nil {
			rc := *r.Report
			rc.Meta.Status = p.Redact(rc.Meta.Status)
			rc.Gaps = make([]report.Gap, len(r.Report.Gaps))
			for j, g := range r.Report.Gaps {
				g.Location.Text, g.Problem, g.SuggestedFix = p.Redact(g.Location.Text), p.Redact(g.Problem), p.Redact(g.SuggestedFix)
				hp := make([]string, len(g.Location.HeadingPath))
				for k, h := range g.Location.HeadingPath {
					hp[k] = p.Redact(h)
				}
				g.Location.HeadingPath = hp
				if g.Evidence != nil {
					ev := *g.Evidence
					ev.Command, ev.Output = p.Redact(ev.Command), p.Redact(ev.Output)
					g.Evidence = &ev
				}
				rc.Gaps[j] = g
			}
			r.Report = &rc
		}
		out[i] = r
	}
	p.results = out
	return out
}
