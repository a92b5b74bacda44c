package ghaction_test

import (
	"testing"

	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	assert.True(t, res.Passed, "medium gaps pass under fail-on high")
	assert.False(t, ghaction.FromReport("docs/a.md", r, files, "medium").Passed)
	assert.Equal(t, "docs/a.md", res.Tutorial)
	assert.Len(t, res.Files, 4)
	assert.NotEmpty(t, res.Markdown)
	require.Len(t, res.Gaps, 2)
	assert.Equal(t, ghaction.Gap{ID: "G1", Path: "docs/a.md", Line: 4, EndLine: 6, Text: "x", Heading: "Install › Linux", Problem: "p",
		SuggestedFix: "f", Severity: "medium", Category: "missing step", Fingerprint: "fp1"}, res.Gaps[0])
	assert.Zero(t, res.Gaps[1].Line)
	assert.Equal(t, &ghaction.Evidence{Command: "make", ExitCode: 2, Output: "boom"}, res.Gaps[1].Evidence)

	nilRes := ghaction.FromReport("docs/b.md", nil, report.Files{}, "high")
	assert.Equal(t, "the run produced no report", nilRes.Err)
	assert.False(t, nilRes.Passed)
}
