package report

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smile-loop/smile-loop/internal/agent/none"
	"github.com/smile-loop/smile-loop/internal/loop"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readAll(t *testing.T, f Files) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range []string{f.Markdown, f.JSON, f.SARIF, f.Audit} {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		out[filepath.Base(p)] = string(data)
	}
	return out
}

func TestWriteCreatesDirectory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "does", "not", "exist")
	r := buildFixture(t, "gaps")
	files, err := Write(dir, r, WithFallback(failWriter{t}))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "smile-report.md"), files.Markdown)
	got := readAll(t, files)
	require.Len(t, got, 4)
	validateReportJSON(t, []byte(got[JSONFile]))
	validateSARIF(t, []byte(got[SARIFFile]))
	assert.Equal(t, RenderMarkdown(r), got[MarkdownFile])
	assert.Contains(t, got[AuditFile], "bash: line 1: npm: command not found")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 4, "no temporary files left behind")

	// Writing again replaces the files.
	_, err = Write(dir, buildFixture(t, "clean"), WithFallback(failWriter{t}))
	require.NoError(t, err)
	validateReportJSON(t, []byte(readAll(t, files)[JSONFile]))
	md, err := os.ReadFile(files.Markdown)
	require.NoError(t, err)
	assert.Contains(t, string(md), "No gaps found")
}

func TestWriteRetries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var calls atomic.Int32
	flaky := func(path string, fill func(io.Writer) error) error {
		if calls.Add(1) <= 2 {
			return errors.New("disk hiccup")
		}
		return loop.WriteAtomicFunc(path, fill)
	}
	var fallback bytes.Buffer
	files, err := Write(dir, buildFixture(t, "clean"), WithRetry(3, time.Millisecond), WithFallback(&fallback), withWriteFile(flaky))
	require.NoError(t, err)
	got := readAll(t, files)
	validateReportJSON(t, []byte(got[JSONFile]))
	validateSARIF(t, []byte(got[SARIFFile]))
	assert.Zero(t, fallback.Len(), "no fallback when a retry succeeds")
}

func TestWriteFallsBackToStdout(t *testing.T) {
	t.Parallel()
	// A regular file where the directory should be: every attempt fails.
	blocker := filepath.Join(t.TempDir(), "report")
	require.NoError(t, os.WriteFile(blocker, []byte("x"), 0o644))
	var stdout bytes.Buffer
	r := buildFixture(t, "gaps")
	files, err := Write(filepath.Join(blocker, "out"), r, WithRetry(2, time.Millisecond), WithFallback(&stdout))
	require.Error(t, err)
	var werr *WriteError
	require.ErrorAs(t, err, &werr)
	assert.True(t, werr.FellBack)
	assert.Contains(t, err.Error(), "printed to standard output")
	assert.Equal(t, Files{}, files)
	assert.Equal(t, RenderMarkdown(r), stdout.String(), "9.E3: the report goes to stdout")
}

// A canary secret planted in outputs, notes, findings, file paths, LLM errors and the
// saved full output appears in none of the four files (and is replaced by the mask).
func TestCanarySecretNowhere(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	logs := filepath.Join(out, "logs")
	require.NoError(t, os.MkdirAll(filepath.Join(logs, "commands"), 0o755))
	full := filepath.Join(logs, "commands", "001.log")
	require.NoError(t, os.WriteFile(full, []byte("FULL-OUTPUT-MARKER token="+canary+"\n"+strings.Repeat("x", 100)), 0o644))

	st := hostileState(full)
	r := Build(st, loadTutorial(t, "hostile.md"), Options{RuleFix: none.Fix, Now: fixedNow, LogsDir: logs, Secrets: []string{canary}})
	files, err := Write(out, r, WithFallback(failWriter{t}))
	require.NoError(t, err)
	for name, text := range readAll(t, files) {
		assert.NotContains(t, text, canary, name)
		assert.NotContains(t, text, canary[:12]+"…", name)
	}
	got := readAll(t, files)
	validateReportJSON(t, []byte(got[JSONFile]))
	validateSARIF(t, []byte(got[SARIFFile]))
	assert.Contains(t, got[AuditFile], "FULL-OUTPUT-MARKER token=***", "the saved full output is in the audit log, masked")
	assert.Contains(t, got[JSONFile], "Bearer ***")

	// Without the secret the canary would be there: the test can fail.
	bare := Build(hostileState(full), loadTutorial(t, "hostile.md"), Options{RuleFix: none.Fix, Now: fixedNow, LogsDir: logs})
	js, err := RenderJSON(bare)
	require.NoError(t, err)
	assert.Contains(t, string(js), canary)
}

func TestOutputPathOutsideLogsIsNotRead(t *testing.T) {
	t.Parallel()
	secretFile := filepath.Join(t.TempDir(), "passwd")
	require.NoError(t, os.WriteFile(secretFile, []byte("root:OUTSIDE-MARKER"), 0o644))
	logs := t.TempDir()
	link := filepath.Join(logs, "link.log")
	require.NoError(t, os.Symlink(secretFile, link))
	for _, p := range []string{secretFile, link, filepath.Join("..", filepath.Base(filepath.Dir(secretFile)), "passwd")} {
		r := Build(hostileState(p), nil, Options{RuleFix: none.Fix, Now: fixedNow, LogsDir: logs})
		assert.NotContains(t, RenderAuditLog(r), "OUTSIDE-MARKER", p)
	}
	r := Build(hostileState(secretFile), nil, Options{RuleFix: none.Fix, Now: fixedNow})
	assert.NotContains(t, RenderAuditLog(r), "OUTSIDE-MARKER", "no LogsDir: no file is read")
}

type failWriter struct{ t *testing.T }

func (f failWriter) Write(p []byte) (int, error) {
	f.t.Errorf("unexpected fallback write of %d bytes", len(p))
	return len(p), nil
}
