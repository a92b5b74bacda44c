package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile-loop/internal/agent/none"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
)

func TestReadState(t *testing.T) {
	t.Parallel()
	good, err := json.Marshal(gapsState())
	require.NoError(t, err)
	tests := []struct {
		name     string
		state    string // state.json ("" = absent)
		prev     string // state.json.prev
		wantErr  bool
		wantWarn string
		check    func(t *testing.T, st *loop.State)
	}{
		{name: "saved state", state: string(good), check: func(t *testing.T, st *loop.State) {
			assert.Len(t, st.History, 3)
			assert.Equal(t, "npm install", st.History[0].Student.Findings[0].Command)
		}},
		{name: "spec's string mentorResult and unknown fields", state: `{"schemaVersion":1,"status":"completed","future":{"x":1},
			"history":[{"iteration":1,"studentResult":{"status":"ask_mentor","problem":"p"},"mentorResult":"install node first"}]}`,
			check: func(t *testing.T, st *loop.State) {
				require.NotNil(t, st.History[0].Mentor)
				assert.Equal(t, "install node first", st.History[0].Mentor.Notes)
			}},
		{name: "mistyped field skipped", state: `{"schemaVersion":1,"status":"blocker","iteration":"three","tutorial":"t.md"}`,
			wantWarn: "ignored field", check: func(t *testing.T, st *loop.State) {
				assert.Equal(t, loop.StatusBlocker, st.Status)
				assert.Equal(t, "t.md", st.Tutorial)
			}},
		{name: "newer schema", state: `{"schemaVersion":7,"status":"completed"}`, wantWarn: "schema version 7"},
		{name: "torn state.json, previous copy used", state: `{"schemaVersion":1,"sta`, prev: string(good), wantWarn: "used state.json.prev",
			check: func(t *testing.T, st *loop.State) { assert.Len(t, st.History, 3) }},
		{name: "not JSON", state: "<html>", wantErr: true},
		{name: "missing", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if tt.state != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, loop.StateFile), []byte(tt.state), 0o644))
			}
			if tt.prev != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, loop.StatePrevFile), []byte(tt.prev), 0o644))
			}
			st, warns, err := ReadState(dir)
			if tt.wantErr {
				require.Error(t, err)
				var se *StateError
				require.ErrorAs(t, err, &se)
				assert.True(t, se.InvalidInput())
				assert.Contains(t, err.Error(), "point --from at the output directory")
				return
			}
			require.NoError(t, err)
			if tt.wantWarn != "" {
				assert.Contains(t, joinWarn(warns), tt.wantWarn)
			} else {
				assert.Empty(t, warns)
			}
			if tt.check != nil {
				tt.check(t, st)
			}
			// Whatever was read renders to a valid report.
			js, err := RenderJSON(Build(st, nil, Options{RuleFix: none.Fix, Now: fixedNow}))
			require.NoError(t, err)
			validateReportJSON(t, js)
		})
	}
}

func joinWarn(ws []string) string {
	out := ""
	for _, w := range ws {
		out += w + "\n"
	}
	return out
}
