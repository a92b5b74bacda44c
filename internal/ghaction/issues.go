package ghaction

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"
	"github.com/smile-loop/smile-loop/internal/report"
)

// MaxIssuesPerRun caps the audit issues one run opens; the other failing tutorials are
// in the step summary and the report, and get their issue on a later run.
const MaxIssuesPerRun = 10

// AuditOutcome says what the scheduled audit did to the tracking issues.
type AuditOutcome struct {
	Opened, Updated, Unchanged, Closed []string // tutorial paths
	OverCap                            []string // failing tutorials not opened: over MaxIssuesPerRun
}

// Audit keeps one open issue per failing tutorial (found again by a hidden fingerprint),
// updates it when the gaps change, and closes it when the tutorial passes again.
func (g *GitHub) Audit(ctx context.Context, results []Result) (AuditOutcome, error) {
	var out AuditOutcome
	open, err := g.auditIssues(ctx)
	if err != nil {
		return out, err
	}
	for _, r := range results {
		if r.Err != "" {
			continue // no verdict: leave the issue as it is
		}
		iss, exists := open[sanitizeFP(r.Tutorial)]
		if !r.Failed() {
			if !exists {
				continue
			}
			msg := fmt.Sprintf("The nightly audit passes again ([run](%s)); closing.", g.Event.RunURL())
			if _, _, err := g.Client.Issues.CreateComment(ctx, g.Event.Owner, g.Event.Repo, iss.GetNumber(), &github.IssueComment{Body: github.String(msg)}); err != nil {
				return out, fmt.Errorf("comment on issue #%d: %w", iss.GetNumber(), err)
			}
			if _, _, err := g.Client.Issues.Edit(ctx, g.Event.Owner, g.Event.Repo, iss.GetNumber(), &github.IssueRequest{State: github.String("closed"), StateReason: github.String("completed")}); err != nil {
				return out, fmt.Errorf("close issue #%d: %w", iss.GetNumber(), err)
			}
			out.Closed = append(out.Closed, r.Tutorial)
			continue
		}
		title, body := g.auditIssue(r)
		if !exists && len(out.Opened) >= MaxIssuesPerRun {
			out.OverCap = append(out.OverCap, r.Tutorial)
			continue
		}
		if !exists {
			if _, _, err := g.Client.Issues.Create(ctx, g.Event.Owner, g.Event.Repo, &github.IssueRequest{Title: github.String(title), Body: github.String(body)}); err != nil {
				return out, fmt.Errorf("open issue for %s: %w", r.Tutorial, err)
			}
			out.Opened = append(out.Opened, r.Tutorial)
			continue
		}
		if iss.GetTitle() == title && iss.GetBody() == body {
			out.Unchanged = append(out.Unchanged, r.Tutorial)
			continue
		}
		if _, _, err := g.Client.Issues.Edit(ctx, g.Event.Owner, g.Event.Repo, iss.GetNumber(), &github.IssueRequest{Title: github.String(title), Body: github.String(body)}); err != nil {
			return out, fmt.Errorf("update issue #%d: %w", iss.GetNumber(), err)
		}
		out.Updated = append(out.Updated, r.Tutorial)
	}
	return out, nil
}

func (g *GitHub) auditIssue(r Result) (title, body string) {
	gaps := r.gaps()
	title = fmt.Sprintf("smile-loop: %s fails the tutorial audit (%d gap%s)", oneLine(r.Tutorial), len(gaps), plural(len(gaps)))
	var b strings.Builder
	fmt.Fprintf(&b, "The scheduled smile-loop audit found that a newcomer cannot complete %s (status %s).\n\n", report.CodeSpanMD(r.Tutorial), report.CodeSpanMD(r.Status()))
	for _, gp := range gaps {
		b.WriteString(gapLine(gp, blobLink(g.Event, g.Event.SHA, gp)) + "\n")
	}
	if len(gaps) == 0 {
		b.WriteString("No located gap: the run did not complete. See the report.\n")
	}
	if u := g.Event.RunURL(); u != "" {
		fmt.Fprintf(&b, "\nLatest audit: [workflow run](%s). This issue is updated by each audit and closed when the tutorial passes.\n", u)
	}
	fmt.Fprintf(&b, "%s%s -->", g.marks().audit(), sanitizeFP(r.Tutorial))
	return title, b.String()
}

// auditIssues finds smile-loop's open audit issues (its marker, scope and author) by
// tutorial path.
func (g *GitHub) auditIssues(ctx context.Context) (map[string]*github.Issue, error) {
	out := map[string]*github.Issue{}
	opt := &github.IssueListByRepoOptions{State: "open", ListOptions: github.ListOptions{PerPage: 100}}
	for {
		is, resp, err := g.Client.Issues.ListByRepo(ctx, g.Event.Owner, g.Event.Repo, opt)
		if err != nil {
			return nil, fmt.Errorf("list open issues: %w", err)
		}
		for _, i := range is {
			if i.IsPullRequest() {
				continue
			}
			if p, ok := value(i.GetBody(), g.marks().audit()); ok && g.authored(ctx, i.GetUser()) {
				out[p] = i
			}
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opt.Page = resp.NextPage
	}
}

// oneLine flattens line breaks (an issue title is one line).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
