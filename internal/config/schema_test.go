package config

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite schema/smile.schema.json and the README configuration reference")

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	return root
}

// The committed schema must be what the Go types generate: run
// `go test ./internal/config -run TestSchemaIsCurrent -update` after changing config.go.
func TestSchemaIsCurrent(t *testing.T) {
	want, err := SchemaJSON()
	require.NoError(t, err)
	file := filepath.Join(repoRoot(t), SchemaPath)
	if *update {
		require.NoError(t, os.WriteFile(file, want, 0o644))
	}
	got, err := os.ReadFile(file)
	require.NoError(t, err, "generate it with: go test ./internal/config -run TestSchemaIsCurrent -update")
	assert.Equal(t, string(want), string(got),
		"%s is stale: run go test ./internal/config -run TestSchemaIsCurrent -update and commit it", SchemaPath)
}

// README's configuration reference must be what the schema generates: run
// `go test ./internal/config -run TestReadmeReference -update` after changing config.go.
func TestReadmeReference(t *testing.T) {
	file := filepath.Join(repoRoot(t), "README.md")
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	want, ok := ReplaceReference(string(raw))
	require.True(t, ok, "README.md lacks the %s … %s markers", ReferenceStart, ReferenceEnd)
	if *update && want != string(raw) {
		require.NoError(t, os.WriteFile(file, []byte(want), 0o644))
		raw = []byte(want)
	}
	assert.Equal(t, want, string(raw),
		"README.md's configuration reference is stale: run go test ./internal/config -run TestReadmeReference -update")
}

func TestReferenceCoversEveryField(t *testing.T) {
	t.Parallel()
	ref := Reference()
	for _, n := range walkSchema(Schema(), "") {
		assert.Contains(t, ref, "| `"+n.path+"` |")
	}
	assert.Contains(t, ref, "| `llmProvider` | string | `\"claude\"` | `claude`, `codex`, `gemini`, `none`, `replay` |")
	assert.Contains(t, ref, "| `studentBehavior.timeoutSeconds` | integer | `60` | ≥ 1 |")
	assert.Contains(t, ref, "`scenario` is required when `llmProvider` is `\"replay\"`.")
}
