package ghaction_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile-loop/internal/ghaction"
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
	assert.False(t, r.Passed)
	assert.Empty(t, r.Markdown, "the untrusted Markdown is never used")
	assert.Empty(t, r.Files)
	require.Len(t, r.Gaps, 2)
	assert.Equal(t, ghaction.Gap{ID: "G1", Path: "docs/a.md", Line: 7, Text: "pip install x", Problem: "<img src=x onerror=alert(1)> @admin", Severity: "high", Fingerprint: "abc"}, r.Gaps[0])
	assert.Equal(t, 0, r.Gaps[1].Line)
	assert.Equal(t, "medium", r.Gaps[1].Severity)
	summary := ghaction.Summary(res, "high")
	assert.NotContains(t, summary, "<img")
	assert.NotContains(t, summary, "@admin")

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
