package ghaction_test

import (
	"testing"

	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/report"
	"github.com/stretchr/testify/assert"
)

func TestFromReport(t *testing.T) {
	t.Parallel()
	r := &report.Report{SchemaVersion: 1}
	r.Meta.Tutorial, r.Meta.TutorialURI, r.Meta.Status, r.Meta.Completed = "./docs/a.md", "docs/a.md", "completed", true
	r.Gaps = []report.Gap{
		{ID: 1, Location: report.Location{Found: true, Line: 4, EndLine: 6, Text: "x", HeadingPath: []string{"Install", "Linux"}},
			Problem: "p", SuggestedFix: "f", Severity: report.Medium, Category: report.MissingStep, Fingerprint: "fp1"},
		{ID: 2, Location: report.Location{Found: false, Quote: "somewhere"}, Problem: "q", Severity: report.Low, Category: report.Other,
			Evidence: &report.Evidence{Command: "make", ExitCode: 2, Output: "boom"}},
	}
	files := report.Files{Markdown: "/ws/o/smile-report.md", JSON: "/ws/o/smile-report.json", SARIF: "/ws/o/smile-report.sarif", Audit: "/ws/o/smile-audit.log"}
	res := ghaction.FromReport("docs/a.md", r, files, "high")
	assert.False(t, res.Failed(), "medium gaps pass under fail-on high")
	assert.True(t, ghaction.FromReport("docs/a.md", r, files, "medium").Failed())
	assert.Equal(t, "docs/a.md", res.Tutorial)
	assert.Same(t, r, res.Report, "the report itself, not a copy of its model")
	assert.Equal(t, "completed", res.Status())
	assert.Len(t, res.Files, 4)
	assert.NotEmpty(t, res.Markdown)

	nilRes := ghaction.FromReport("docs/b.md", nil, report.Files{}, "high")
	assert.Equal(t, "the run produced no report", nilRes.Err)
	assert.True(t, nilRes.Failed())
	assert.Equal(t, "error", nilRes.Status())
}

// One rule for pass/fail: an unknown or empty threshold is report.Failed's (high), in
// the summary, the check run's levels and the annotations alike.
func TestUnknownThresholdIsTheReportsRule(t *testing.T) {
	t.Parallel()
	for _, failOn := range []string{"", "urgent"} {
		res := run("docs/a.md", "completed", true, gap(7, 0, "pip missing"))
		res.FailOn = failOn
		assert.Equal(t, res.Report.Failed(failOn), res.Failed(), failOn)
		assert.True(t, res.Failed(), "a high gap fails under the default threshold %q", failOn)
		assert.Equal(t, ghaction.StatusFailed, publishStatus(t, res))
	}
	res := run("docs/a.md", "completed", true, gap(7, 0, "pip missing"))
	res.FailOn = "never"
	assert.False(t, res.Failed())
}
