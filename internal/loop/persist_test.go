package loop

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSaveIterationWritesJSONAndMarkdown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	it := Iteration{Iteration: 7, Started: start, Ended: start.Add(2 * time.Second),
		Student: &StudentResult{StudentOutput: StudentOutput{Status: StudentAskMentor, CurrentStep: "Install", Problem: "npm\nmissing"}, Trigger: TriggerMissingDependency,
			Findings: []Finding{{Line: 6, Problem: "npm missing", Trigger: TriggerMissingDependency}},
			Commands: []CommandRecord{{Line: 6, Command: "npm install", ExitCode: 127, Summary: "missing command `npm`"}}},
		Mentor: &MentorRecord{Notes: "Install Node.js first."}}
	require.NoError(t, SaveIteration(dir, it))
	assert.FileExists(t, filepath.Join(dir, IterationsDir, "007.json"))
	md, err := os.ReadFile(filepath.Join(dir, IterationsDir, "007.md"))
	require.NoError(t, err)
	for _, want := range []string{"# Iteration 7", "- Ended: 2026-01-02T03:04:07Z (2s)", "## Student: ask_mentor", "- Problem: npm missing",
		"- line 6: npm missing (trigger missing_dependency)", "- line 6: `npm install` → exit 127 — missing command 'npm'", "## Mentor\n\nInstall Node.js first."} {
		assert.Contains(t, string(md), want)
	}
}
