package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runIn runs the CLI in dir and returns exit code, stdout and stderr.
func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string
		args      []string
		code      int
		stdout    []string
		stderr    []string
		notStderr []string
	}{
		{
			name:   "defaults and a valid tutorial",
			files:  map[string]string{"tutorial.md": "# Hi\n\n```bash\necho hi\n```\n"},
			args:   []string{"validate"},
			code:   0,
			stdout: []string{"defaults (no smile.json) is valid", "tutorial.md is valid (5 lines, 1 shell blocks with 1 commands, 0 images)"},
		},
		{
			name:   "tutorial argument wins over the config",
			files:  map[string]string{"smile.json": `{"tutorial": "other.md"}`, "docs/t.md": "# T\n"},
			args:   []string{"validate", "docs/t.md"},
			code:   0,
			stdout: []string{"smile.json is valid", "docs/t.md is valid"},
		},
		{
			name:   "missing tutorial",
			files:  map[string]string{"smile.json": `{"tutorial": "docs/missing.md"}`},
			args:   []string{"validate"},
			code:   2,
			stderr: []string{"Tutorial not found: docs/missing.md"},
		},
		{
			name:  "every problem at once, warnings too",
			files: map[string]string{"smile.json": `{"maxIteration": 3, "llmProvider": "gpt", "timeout": -5, "tutorial": "nope.md"}`},
			args:  []string{"validate"},
			code:  2,
			stderr: []string{
				`warning: smile.json: unknown field "maxIteration" is ignored; did you mean "maxIterations"?`,
				`llmProvider: "gpt" is not allowed`, "timeout: -5 is too small", "(2 problems)",
				"Tutorial not found: nope.md",
			},
		},
		{
			name:   "invalid JSON with line and column",
			files:  map[string]string{"cfg.json": "{\n  \"timeout\": 10,\n}\n", "tutorial.md": "# T\n"},
			args:   []string{"validate", "--config", "cfg.json"},
			code:   2,
			stderr: []string{"invalid JSON in cfg.json at line 3, column 1"},
		},
		{
			name:   "binary tutorial",
			files:  map[string]string{"tutorial.md": "PK\x03\x04\x00\x00"},
			args:   []string{"validate"},
			code:   2,
			stderr: []string{"not a valid markdown file"},
		},
		{
			name:   "tutorial warnings do not fail",
			files:  map[string]string{"tutorial.md": "# T\n\n![diagram](img/missing.png)\n"},
			args:   []string{"validate"},
			code:   0,
			stderr: []string{`warning: tutorial.md: image "img/missing.png" on line 3 not found`},
		},
		{
			name:   "empty tutorial is a warning",
			files:  map[string]string{"tutorial.md": ""},
			args:   []string{"validate"},
			code:   0,
			stderr: []string{"warning: tutorial.md: the tutorial is empty"},
		},
		{
			name:   "too many arguments",
			args:   []string{"validate", "a.md", "b.md"},
			code:   2,
			stderr: []string{"at most one tutorial"},
		},
		{
			name:      "help",
			args:      []string{"validate", "-h"},
			code:      0,
			stderr:    []string{"Usage: smile-action validate"},
			notStderr: []string{"smile-action: "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				p := filepath.Join(dir, name)
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
			}
			code, stdout, stderr := runIn(t, dir, tt.args...)
			assert.Equal(t, tt.code, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			for _, s := range tt.stdout {
				assert.Contains(t, stdout, s)
			}
			for _, s := range tt.stderr {
				assert.Contains(t, stderr, s)
			}
			for _, s := range tt.notStderr {
				assert.NotContains(t, stderr, s)
			}
		})
	}
}

func TestSchemaCommand(t *testing.T) {
	committed, err := os.ReadFile(filepath.Join("..", "..", "schema", "smile.schema.json"))
	require.NoError(t, err)
	dir := t.TempDir()
	code, stdout, stderr := runIn(t, dir, "schema", "config")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, string(committed), stdout, "schema config prints the committed schema")

	code, stdout, stderr = runIn(t, dir, "schema", "report")
	require.Equal(t, 0, code, stderr)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	assert.Contains(t, doc, "$schema")

	for _, args := range [][]string{{"schema"}, {"schema", "state"}, {"schema", "config", "report"}} {
		code, _, stderr = runIn(t, dir, args...)
		assert.Equal(t, 2, code, strings.Join(args, " "))
		assert.Contains(t, stderr, "config or report")
	}
}
