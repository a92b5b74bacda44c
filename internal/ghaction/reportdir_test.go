package ghaction_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/golden"
	"github.com/smile-loop/smile-loop/internal/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func TestLoadReportDirTreatsTheArtifactAsData(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "smile-report.json"), `{"meta":{"tutorialUri":"docs/a.md","status":"blocker","completed":false,"failOn":"high"},
	 "gaps":[{"id":1,"location":{"found":true,"line":7,"endLine":5,"text":"pip install x"},"problem":"<img src=x onerror=alert(1)> @admin","severity":"HIGH","fingerprint":"abc"},
	         {"id":2,"location":{"found":false},"problem":"p","severity":"bogus"}]}`)
	writeFile(t, filepath.Join(dir, "smile-report.md"), "<script>ignored</script>")
	writeFile(t, filepath.Join(dir, ghaction.EventFile), `{"repository":"o/r","pullRequest":2,"headSha":"ec26c3e57ca3a959ca5aad62de7213c562f8c821"}`)
	res, rec, err := ghaction.LoadReportDir(dir, "")
	require.NoError(t, err)
	require.NotNil(t, rec)
	assert.Equal(t, 2, rec.PR)
	require.Len(t, res, 1)
	r := res[0]
	assert.Equal(t, "docs/a.md", r.Tutorial)
	assert.True(t, r.Failed())
	assert.True(t, r.Untrusted)
	assert.Empty(t, r.Markdown, "the untrusted Markdown is never used")
	assert.Empty(t, r.Files)
	require.Len(t, r.Report.Gaps, 2)
	g := r.Report.Gaps[0]
	assert.Equal(t, report.Location{Found: true, Line: 7, Text: "pip install x"}, g.Location)
	assert.Equal(t, "<img src=x onerror=alert(1)> @admin", g.Problem)
	assert.Equal(t, report.High, g.Severity)
	assert.Equal(t, "abc", g.Fingerprint)
	assert.False(t, r.Report.Gaps[1].Location.Found)
	assert.Equal(t, report.Medium, r.Report.Gaps[1].Severity)
	seen := golden.Render(t, ghaction.Summary(res))
	assert.Empty(t, seen.Images)
	assert.Empty(t, seen.Live(), "no live mention, reference or link from the artifact")
	assert.True(t, seen.Shows("<img src=x onerror=alert(1)> @admin"), "shown as text")

	tests := []struct{ name, report, event string }{
		{"path traversal", `{"meta":{"tutorialUri":"../../etc/passwd"}}`, ""},
		{"absolute path", `{"meta":{"tutorialUri":"/etc/passwd"}}`, ""},
		{"not JSON", `<html>`, ""},
		{"bad event record", `{"meta":{"tutorialUri":"a.md"}}`, `{"pullRequest":"2; rm -rf /","headSha":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := t.TempDir()
			writeFile(t, filepath.Join(d, "x", "smile-report.json"), tt.report)
			if tt.event != "" {
				writeFile(t, filepath.Join(d, ghaction.EventFile), tt.event)
			}
			_, _, err := ghaction.LoadReportDir(d, "")
			var rde *ghaction.ReportDirError
			require.ErrorAs(t, err, &rde)
			assert.True(t, rde.InvalidInput())
		})
	}
	_, _, err = ghaction.LoadReportDir(t.TempDir(), "")
	assert.ErrorContains(t, err, "no smile-report.json")
}

func TestVerifyPR(t *testing.T) {
	t.Parallel()
	_, gh := newGitHub(t)
	ctx := context.Background()
	rec := ghaction.EventRecord{Repository: "Codertocat/Hello-World", PR: 2, HeadSHA: headSHA}
	require.NoError(t, gh.VerifyPR(ctx, rec, headSHA))

	var rde *ghaction.ReportDirError
	moved := rec
	moved.HeadSHA = "1111111111111111111111111111111111111111"
	require.ErrorAs(t, gh.VerifyPR(ctx, moved, ""), &rde, "the pull request moved on")
	assert.Contains(t, rde.Error(), "moved on")
	require.ErrorAs(t, gh.VerifyPR(ctx, rec, "2222222222222222222222222222222222222222"), &rde, "not the workflow run's commit")
	other := rec
	other.Repository = "evil/fork"
	require.ErrorAs(t, gh.VerifyPR(ctx, other, headSHA), &rde, "another repository")
}

// The trusted job decides the threshold: an artifact that claims failOn never (or
// low) does not change the verdict.
func TestReportDirThresholdIsTheTrustedJobs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "smile-report.json"), `{"meta":{"tutorialUri":"docs/a.md","status":"completed","completed":true,"failOn":"never"},
	 "gaps":[{"id":1,"location":{"found":true,"line":7},"problem":"p","severity":"high"}]}`)
	for failOn, failed := range map[string]bool{"": true, "high": true, "critical": false} {
		res, _, err := ghaction.LoadReportDir(dir, failOn)
		require.NoError(t, err)
		assert.Equal(t, failed, res[0].Failed(), "trusted fail-on %q", failOn)
		assert.Equal(t, failOn, res[0].FailOn)
	}
}
