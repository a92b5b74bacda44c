package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/golden"
)

var committedSchema = filepath.Join("..", "..", "schema", "report.schema.json")

// The committed schema is the one the Go types generate.
func TestCommittedSchemaIsCurrent(t *testing.T) {
	t.Parallel()
	got, err := JSONSchema()
	require.NoError(t, err)
	if golden.Updating() {
		require.NoError(t, os.WriteFile(committedSchema, got, 0o644))
	}
	want, err := os.ReadFile(committedSchema)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "schema/report.schema.json is stale: run go test ./internal/report -update and commit it")
}

func TestSchemaRejectsBrokenReports(t *testing.T) {
	t.Parallel()
	js, err := RenderJSON(buildFixture(t, "gaps"))
	require.NoError(t, err)
	schema, err := JSONSchema()
	require.NoError(t, err)
	s := compileSchema(t, SchemaID, schema)

	tests := []struct {
		name   string
		mutate func(m map[string]any)
	}{
		{"missing gaps", func(m map[string]any) { delete(m, "gaps") }},
		{"unknown severity", func(m map[string]any) { gap(m)["severity"] = "urgent" }},
		{"unknown category", func(m map[string]any) { gap(m)["category"] = "typo" }},
		{"line zero", func(m map[string]any) { gap(m)["location"].(map[string]any)["line"] = 0 }},
		{"gap without fix", func(m map[string]any) { delete(gap(m), "suggestedFix") }},
		{"bad timestamp", func(m map[string]any) { m["meta"].(map[string]any)["timestamp"] = "yesterday" }},
		{"extra field", func(m map[string]any) { m["surprise"] = true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var m map[string]any
			require.NoError(t, json.Unmarshal(js, &m))
			tt.mutate(m)
			data, err := json.Marshal(m)
			require.NoError(t, err)
			inst, err := jsonschema.UnmarshalJSON(bytesReader(data))
			require.NoError(t, err)
			assert.Error(t, s.Validate(inst))
		})
	}
}

func gap(m map[string]any) map[string]any { return m["gaps"].([]any)[0].(map[string]any) }

// Decode reads back what RenderJSON wrote.
func TestDecodeRoundTrip(t *testing.T) {
	t.Parallel()
	r := buildFixture(t, "gaps")
	js, err := RenderJSON(r)
	require.NoError(t, err)
	back, err := Decode(js)
	require.NoError(t, err)
	assert.Equal(t, r.Gaps, back.Gaps)
	assert.Equal(t, r.Meta.Status, back.Meta.Status)
	again, err := RenderJSON(back)
	require.NoError(t, err)
	assert.JSONEq(t, string(js), string(again))
	assert.Contains(t, RenderAuditLog(back), "npm install")
}
