package ghaction

import (
	"context"
	"fmt"
	"sort"
	"time"
	"unicode/utf8"

	"github.com/google/go-github/v60/github"
	"github.com/smile-loop/smile-loop/internal/report"
)

// Limits GitHub puts on check runs, and smile-loop's own cap per run.
const (
	MaxAnnotationsPerRequest = 50
	MaxSummary               = 65535 // characters of a check-run summary or text
	// MaxAnnotationsPerRun caps the check run's annotations (most severe first); every
	// gap is still in the summary and the report.
	MaxAnnotationsPerRun = 200
)

// CheckRun is what the check run shows.
type CheckRun struct {
	Name       string
	Conclusion string // success, failure, neutral
	Title      string
	Summary    string // Markdown, capped at MaxSummary
	Results    []Result
	DetailsURL string
}

// annotationLevel maps severities: failing gaps are failures, the rest warnings, low notices.
func annotationLevel(g fileGap, failOn string) string {
	switch {
	case g.failing(failOn):
		return "failure"
	case g.Severity == report.Low:
		return "notice"
	default:
		return "warning"
	}
}

// annotations are the check run's annotations: located gaps only (an unlocated gap is
// in the summary; a line-1 annotation would point at the wrong place), most severe
// first, at most MaxAnnotationsPerRun.
func annotations(results []Result) []*github.CheckRunAnnotation {
	type ann struct {
		g      fileGap
		failOn string
	}
	var all []ann
	for _, r := range results {
		for _, g := range r.gaps() {
			if g.line() > 0 {
				all = append(all, ann{g, r.FailOn})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].g.Severity.Rank() > all[j].g.Severity.Rank() })
	all = all[:min(len(all), MaxAnnotationsPerRun)]
	out := make([]*github.CheckRunAnnotation, 0, len(all))
	for _, a := range all {
		g := a.g
		msg := g.Problem
		if g.SuggestedFix != "" {
			msg += "\n\nSuggested fix: " + g.SuggestedFix
		}
		var raw *string
		if t := evidenceText(g.Evidence); t != "" {
			raw = github.String(truncate(t, MaxSummary))
		}
		out = append(out, &github.CheckRunAnnotation{
			RawDetails:      raw,
			Path:            github.String(g.Path),
			StartLine:       github.Int(g.line()),
			EndLine:         github.Int(g.last()),
			AnnotationLevel: github.String(annotationLevel(g, a.failOn)),
			Title:           github.String(truncate(fmt.Sprintf("smile-loop: %s gap", orDefault(string(g.Severity), "unrated")), 255)),
			Message:         github.String(truncate(msg, MaxSummary)),
		})
	}
	return out
}

// PostCheck creates a completed check run on the event's commit, sending annotations in
// batches of MaxAnnotationsPerRequest (the first with the create, the rest as updates).
func (g *GitHub) PostCheck(ctx context.Context, cr CheckRun) (int64, error) {
	anns := annotations(cr.Results)
	output := func(batch []*github.CheckRunAnnotation) *github.CheckRunOutput {
		return &github.CheckRunOutput{
			Title:       github.String(truncate(cr.Title, 255)),
			Summary:     github.String(CapMarkdown(cr.Summary, MaxSummary, "")),
			Annotations: batch,
		}
	}
	first := anns[:min(MaxAnnotationsPerRequest, len(anns))]
	now := github.Timestamp{Time: time.Now()}
	opts := github.CreateCheckRunOptions{
		Name:        cr.Name,
		HeadSHA:     g.Event.SHA,
		Status:      github.String("completed"),
		Conclusion:  github.String(cr.Conclusion),
		CompletedAt: &now,
		Output:      output(first),
	}
	if cr.DetailsURL != "" {
		opts.DetailsURL = github.String(cr.DetailsURL)
	}
	run, _, err := g.Client.Checks.CreateCheckRun(ctx, g.Event.Owner, g.Event.Repo, opts)
	if err != nil {
		return 0, fmt.Errorf("create check run %q: %w", cr.Name, err)
	}
	for i := len(first); i < len(anns); i += MaxAnnotationsPerRequest {
		batch := anns[i:min(i+MaxAnnotationsPerRequest, len(anns))]
		if _, _, err := g.Client.Checks.UpdateCheckRun(ctx, g.Event.Owner, g.Event.Repo, run.GetID(), github.UpdateCheckRunOptions{
			Name: cr.Name, Output: output(batch),
		}); err != nil {
			return run.GetID(), fmt.Errorf("add annotations %d-%d to check run %d: %w", i+1, i+len(batch), run.GetID(), err)
		}
	}
	return run.GetID(), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[:max(n-len("…"), 0)]
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return cut + "…"
}
