package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
}

func TestRunInputErrors(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		args   []string
		code   int
		stderr string
	}{
		{"missing tutorial", map[string]string{"smile.json": `{"llmProvider": "none"}`}, []string{"run"}, exitInvalidInput, "Tutorial not found: tutorial.md"},
		{"invalid config", map[string]string{"smile.json": `{"maxIterations": -1}`, "tutorial.md": "# T\n"}, []string{"run"}, exitInvalidInput, "maxIterations"},
		{"two tutorials", nil, []string{"run", "a.md", "b.md"}, exitInvalidInput, "at most one tutorial"},
		{"resume without state", map[string]string{"tutorial.md": "# T\n", "smile.json": `{"llmProvider": "none"}`}, []string{"run", "--resume"}, exitInvalidInput, "nothing to resume"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			code, _, stderr := runIn(t, dir, tt.args...)
			assert.Equal(t, tt.code, code, stderr)
			assert.Contains(t, stderr, tt.stderr)
		})
	}
}

// A run that cannot set up its container still leaves a report saying why (with or
// without a Docker Engine: the image is missing, or the engine is).
func TestRunSetupFailureWritesReport(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tutorial.md": "# T\n\n```bash\necho hi\n```\n",
		"smile.json":  `{"llmProvider": "none", "containerImage": "smile-no-such-image:never", "outputDir": "out", "observe": {"enabled": false}}`,
	})
	code, stdout, stderr := runIn(t, dir, "run")
	assert.Equal(t, exitEnvironment, code, stderr)
	assert.Contains(t, stdout, filepath.Join(dir, "out", "smile-report.md"), "prints where the report is")
	data, err := os.ReadFile(filepath.Join(dir, "out", "smile-report.json"))
	require.NoError(t, err)
	var r struct {
		Meta struct {
			Status string `json:"status"`
			Reason string `json:"reason"`
		} `json:"meta"`
	}
	require.NoError(t, json.Unmarshal(data, &r))
	assert.Equal(t, "error", r.Meta.Status)
	assert.NotEmpty(t, r.Meta.Reason)
	assert.NoFileExists(t, filepath.Join(dir, "out", loop.LockFile))
}

func TestResolveNear(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"cfg/tutorial.md": "# T\n"})
	t.Chdir(dir)
	assert.Equal(t, filepath.Join("cfg", "tutorial.md"), resolveNear("tutorial.md", "cfg"))
	assert.Equal(t, "other.md", resolveNear("other.md", "cfg"), "kept as given when found nowhere")
	writeFiles(t, dir, map[string]string{"tutorial.md": "# T\n"})
	assert.Equal(t, "tutorial.md", resolveNear("tutorial.md", "cfg"), "the current directory wins")
}
