package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	rpt "github.com/smile-loop/smile-loop/internal/report"
)

func runReportCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append([]string{"report"}, args...), func(string) string { return "" }, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// savedRun writes a finished run's output directory: state.json and a tutorial.
func savedRun(t *testing.T, status loop.Status, withGap bool) string {
	t.Helper()
	dir := t.TempDir()
	tut := filepath.Join(dir, "tutorial.md")
	require.NoError(t, os.WriteFile(tut, []byte("# Demo\n\nInstall jq:\n\n```bash\njq --version\n```\n"), 0o644))
	start := time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
	st := &loop.State{SchemaVersion: loop.StateSchemaVersion, RunID: "r1", Tutorial: tut, Config: config.Default(),
		Status: status, StartTime: start, EndTime: start.Add(time.Minute), Iteration: 1,
		FinalResult: &loop.FinalResult{Status: status}}
	res := &loop.StudentResult{StudentOutput: loop.StudentOutput{Status: loop.StudentCompleted}}
	if withGap {
		res.Findings = []loop.Finding{{Command: "jq --version", ExitCode: 127, Class: loop.ClassMissingDependency,
			Problem: "jq missing", Output: "bash: jq: command not found"}}
	}
	st.History = []loop.Iteration{{Iteration: 1, Started: start, Ended: start.Add(time.Minute), Student: res}}
	data, err := json.Marshal(st)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, loop.StateFile), data, 0o644))
	return dir
}

func TestReportFromSavedState(t *testing.T) {
	t.Parallel()
	schema, err := rpt.JSONSchema()
	require.NoError(t, err)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource(rpt.SchemaID, doc))
	sch, err := c.Compile(rpt.SchemaID)
	require.NoError(t, err)

	tests := []struct {
		name    string
		status  loop.Status
		withGap bool
		extra   []string
		code    int
	}{
		{"passed", loop.StatusCompleted, false, nil, exitOK},
		{"gap at the fail threshold", loop.StatusCompleted, true, nil, exitFailed},
		{"gap below --fail-on", loop.StatusCompleted, true, []string{"--fail-on", "critical"}, exitOK},
		{"incomplete run", loop.StatusTimeout, false, []string{"--fail-on", "never"}, exitFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := savedRun(t, tt.status, tt.withGap)
			out := filepath.Join(t.TempDir(), "new", "dir")
			code, stdout, stderr := runReportCmd(t, append([]string{"--from", dir, "--output", out}, tt.extra...)...)
			require.Equal(t, tt.code, code, stderr)
			for _, f := range []string{"smile-report.md", "smile-report.json", "smile-report.sarif", "smile-audit.log"} {
				assert.Contains(t, stdout, filepath.Join(out, f))
				assert.FileExists(t, filepath.Join(out, f))
			}
			data, err := os.ReadFile(filepath.Join(out, "smile-report.json"))
			require.NoError(t, err)
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			require.NoError(t, err)
			require.NoError(t, sch.Validate(inst))
			r, err := rpt.Decode(data)
			require.NoError(t, err)
			if tt.withGap {
				require.Len(t, r.Gaps, 1)
				assert.Equal(t, 6, r.Gaps[0].Location.Line, "located with the tutorial recorded in the state")
			}
		})
	}
}

func TestReportUsageErrors(t *testing.T) {
	t.Parallel()
	code, _, stderr := runReportCmd(t)
	assert.Equal(t, exitInvalidInput, code)
	assert.Contains(t, stderr, "--from DIR is required")

	code, _, stderr = runReportCmd(t, "--from", t.TempDir())
	assert.Equal(t, exitInvalidInput, code)
	assert.Contains(t, stderr, "point --from at the output directory")

	code, _, stderr = runReportCmd(t, "--from", t.TempDir(), "--fail-on", "sometimes")
	assert.Equal(t, exitInvalidInput, code)
	assert.True(t, strings.Contains(stderr, "use critical, high, medium, low or never"), stderr)
}

func TestReportWithoutTutorialKeepsRecordedLines(t *testing.T) {
	t.Parallel()
	dir := savedRun(t, loop.StatusCompleted, true)
	require.NoError(t, os.Remove(filepath.Join(dir, "tutorial.md")))
	code, _, stderr := runReportCmd(t, "--from", dir, "--fail-on", "never")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "tutorial not readable")
	data, err := os.ReadFile(filepath.Join(dir, "smile-report.json"))
	require.NoError(t, err)
	r, err := rpt.Decode(data)
	require.NoError(t, err)
	require.Len(t, r.Gaps, 1)
	assert.False(t, r.Gaps[0].Location.Found, "no line recorded and no tutorial: the location is unknown, not invented")
}

func TestReportUnwritableOutputFallsBackToStdout(t *testing.T) {
	t.Parallel()
	dir := savedRun(t, loop.StatusCompleted, false)
	blocker := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o644))
	code, stdout, stderr := runReportCmd(t, "--from", dir, "--output", filepath.Join(blocker, "out"))
	assert.Equal(t, exitInvalidInput, code)
	assert.Contains(t, stdout, "# SMILE Loop Report: Demo", "9.E3: the report is printed instead")
	assert.Contains(t, stderr, "choose another output directory")
}
