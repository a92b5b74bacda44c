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
