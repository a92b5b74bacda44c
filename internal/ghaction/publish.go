package ghaction

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"path/filepath"
	"strings"

	"github.com/sethvargo/go-githubactions"
)

// Statuses of the status output.
const (
	StatusPassed  = "passed"
	StatusFailed  = "failed"
	StatusError   = "error"
	StatusNothing = "skipped" // no tutorial to test
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
	var all []Gap
	for _, r := range results {
		all = append(all, r.Gaps...)
	}
	out.Gaps = len(all)
	out.Status = overall(results)
	notPosted := func(what string, e error) {
		msg := fmt.Sprintf("could not post the %s: %s", what, Why(e))
		out.NotPosted = append(out.NotPosted, msg)
		p.Action.Warningf("%s", msg)
	}

	// 1. Artifact (first: the summary links to it).
	link := ""
	if p.Artifacts != nil && len(results) > 0 {
		id, err := p.Artifacts.Upload(ctx, p.Inputs.ArtifactName, p.artifactFiles(results), 0)
		switch {
		case errors.Is(err, ErrNoArtifactService):
			p.Action.Warningf("%s", err.Error())
			out.NotPosted = append(out.NotPosted, "artifact: "+err.Error())
		case err != nil:
			notPosted("report artifact", err)
		default:
			out.ArtifactID = id
			if u := p.Event.RunURL(); u != "" {
				link = fmt.Sprintf("%s/artifacts/%d", u, id)
			}
			p.Action.Infof("Uploaded the report as artifact %q (id %d)", p.Inputs.ArtifactName, id)
		}
	}

	// 2. Step summary and outputs: always.
	summary := Summary(results, p.Inputs.FailOn)
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

	// 3. GitHub: check run and review.
	checkPosted := false
	if p.Inputs.CommentMode != ModeNone && len(results) > 0 {
		if p.GitHub == nil {
			out.NotPosted = append(out.NotPosted, "check run and review: no github-token")
			p.Action.Warningf("could not post the check run or review: no github-token input")
		} else {
			if p.Event.Fork {
				p.Action.Noticef("pull request from a fork: the token is probably read-only; if posting fails, the gaps stay in the summary, the annotations below and the artifact")
			}
			id, err := p.GitHub.PostCheck(ctx, CheckRun{
				Name:       p.Inputs.CheckName,
				Conclusion: conclusion(out.Status),
				Title:      checkTitle(results, out),
				Summary:    summary,
				Gaps:       all,
				FailOn:     p.Inputs.FailOn,
				DetailsURL: p.Event.RunURL(),
			})
			out.CheckRunID = id
			if err != nil {
				notPosted("check run", err)
			} else {
				checkPosted = true
			}
			if p.Inputs.CommentMode == ModeReview && p.Event.IsPR() {
				files := p.PRFiles
				if files == nil {
					files, err = p.GitHub.ChangedFiles(ctx)
				}
				if err != nil {
					notPosted("review", err)
				} else {
					ro, err := p.GitHub.Review(ctx, all, files, tested(results))
					out.Review = &ro
					for _, pr := range ro.Problems {
						out.NotPosted = append(out.NotPosted, pr)
						p.Action.Warningf("%s", pr)
					}
					if err != nil {
						notPosted("review", err)
					} else {
						p.Action.Infof("Review: %d comment(s) created, %d updated, %d unchanged, %d outdated removed, %d kept (replied), %d gap(s) in the review body",
							ro.Created, ro.Updated, ro.Unchanged, ro.Deleted, ro.KeptReplied, len(ro.Outside)+len(ro.Refused))
					}
				}
			}
		}
	}

	// 4. Workflow-command annotations when the check run could not carry them.
	if p.Inputs.CommentMode != ModeNone && !checkPosted {
		for _, g := range all {
			p.Action.WithFieldsMap(map[string]string{
				"file":    g.Path,
				"line":    fmt.Sprint(max(g.Line, 1)),
				"endLine": fmt.Sprint(max(g.last(), 1)),
				"title":   fmt.Sprintf("smile-loop: %s gap", orDefault(g.Severity, "unrated")),
			}).Warningf("%s", annotationText(g))
			out.Annotated++
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

func annotationText(g Gap) string {
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
		case !r.Passed:
			status = StatusFailed
		}
	}
	return status
}

func conclusion(status string) string {
	switch status {
	case StatusPassed:
		return "success"
	case StatusNothing:
		return "neutral"
	default:
		return "failure"
	}
}

func checkTitle(results []Result, out Outcome) string {
	failed := 0
	for _, r := range results {
		if !r.Passed {
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

// Summary renders the step summary: an overview table, then each tutorial's report.
func Summary(results []Result, failOn string) string {
	var b strings.Builder
	b.WriteString("# smile-loop tutorial check\n\n")
	if len(results) == 0 {
		b.WriteString("No tutorial to test: nothing matched the `tutorials` input")
		b.WriteString(" (on a pull request, only changed tutorials are tested).\n")
		return b.String()
	}
	b.WriteString("| Tutorial | Result | Status | Gaps |\n|---|---|---|---|\n")
	for _, r := range results {
		verdict := "✅ passed"
		switch {
		case r.Err != "":
			verdict = "⚠️ error"
		case !r.Passed:
			verdict = "❌ failed"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %d |\n", strings.ReplaceAll(r.Tutorial, "`", ""), verdict, EscapeInline(r.Status), len(r.Gaps))
	}
	if failOn != "" {
		fmt.Fprintf(&b, "\nFails on gaps of severity `%s` or above.\n", failOn)
	}
	for _, r := range results {
		fmt.Fprintf(&b, "\n---\n\n")
		switch {
		case r.Err != "":
			fmt.Fprintf(&b, "## `%s`\n\nThe run produced no report: %s\n", r.Tutorial, Escape(r.Err))
		case r.Markdown != "":
			b.WriteString(strings.TrimSpace(r.Markdown) + "\n")
		default:
			fmt.Fprintf(&b, "## `%s`\n\n", r.Tutorial)
			for _, g := range r.Gaps {
				b.WriteString(gapLine(g, "") + "\n")
			}
		}
	}
	return b.String()
}

// redacted returns a copy of results with every published text passed through Redact.
func (p *Publisher) redacted(results []Result) []Result {
	if p.Redact == nil {
		return results
	}
	out := make([]Result, len(results))
	for i, r := range results {
		r.Markdown, r.Err, r.Status = p.Redact(r.Markdown), p.Redact(r.Err), p.Redact(r.Status)
		gaps := make([]Gap, len(r.Gaps))
		for j, g := range r.Gaps {
			g.Text, g.Problem, g.SuggestedFix, g.Heading = p.Redact(g.Text), p.Redact(g.Problem), p.Redact(g.SuggestedFix), p.Redact(g.Heading)
			if g.Evidence != nil {
				ev := *g.Evidence
				ev.Command, ev.Output = p.Redact(ev.Command), p.Redact(ev.Output)
				g.Evidence = &ev
			}
			gaps[j] = g
		}
		r.Gaps = gaps
		out[i] = r
	}
	return out
}

func tested(results []Result) []string {
	out := make([]string, 0, len(results))
	for _, r := range results {
		out = append(out, r.Tutorial)
	}
	return out
}
