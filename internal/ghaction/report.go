package ghaction

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/smile-loop/smile-loop/internal/report"
)

// FromReport converts one run's report into what Action mode publishes. tutorial is the
// repository-relative path the run was asked to test (used when the report has no
// tutorialUri); failOn is the effective threshold.
func FromReport(tutorial string, r *report.Report, files report.Files, failOn string) Result {
	res := Result{Tutorial: filepath.ToSlash(tutorial), Status: "error", Passed: false}
	if r == nil {
		res.Err = "the run produced no report"
		return res
	}
	if r.Meta.TutorialURI != "" {
		if p, ok := cleanRepoPath(r.Meta.TutorialURI); ok {
			res.Tutorial = p
		}
	}
	res.Status = r.Meta.Status
	res.Passed = !r.Failed(failOn)
	res.Markdown = report.RenderMarkdown(r)
	for _, f := range []string{files.Markdown, files.JSON, files.SARIF, files.Audit} {
		if f != "" {
			res.Files = append(res.Files, f)
		}
	}
	for _, g := range r.Gaps {
		gp := Gap{
			ID:           fmt.Sprintf("G%d", g.ID),
			Path:         res.Tutorial,
			Text:         g.Location.Text,
			Heading:      strings.Join(g.Location.HeadingPath, " › "),
			Problem:      g.Problem,
			SuggestedFix: g.SuggestedFix,
			Severity:     string(g.Severity),
			Category:     string(g.Category),
			Fingerprint:  g.Fingerprint,
		}
		if g.Evidence != nil && (g.Evidence.Command != "" || g.Evidence.Output != "") {
			gp.Evidence = &Evidence{Command: g.Evidence.Command, ExitCode: g.Evidence.ExitCode, Output: g.Evidence.Output}
		}
		if g.Location.Found && g.Location.Line > 0 {
			gp.Line, gp.EndLine = g.Location.Line, g.Location.EndLine
		}
		res.Gaps = append(res.Gaps, gp)
	}
	return res
}
