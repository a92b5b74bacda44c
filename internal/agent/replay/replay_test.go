package replay

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

type nopSandbox struct{ loop.Sandbox }

func (nopSandbox) Start(context.Context) error              { return nil }
func (nopSandbox) Reset(context.Context) error              { return nil }
func (nopSandbox) Close(context.Context, bool) error        { return nil }
func (nopSandbox) HostAddr(context.Context) (string, error) { return "127.0.0.1", nil }

const tut = "# Demo\n\n## Install\n\n```bash\nnpm install\n```\n\n## Configure\n\nSet `PORT` in `.env`.\n\n## Run\n\n```bash\nnpm start\n```\n"

const scenario = `{
  "student": [
    {"status": "ask_mentor", "currentStep": "Install", "problem": "npm: command not found", "questionForMentor": "How do I get npm?"},
    {"status": "ask_mentor", "currentStep": "Configure", "problem": "which value for PORT?", "questionForMentor": "What port?"},
    {"status": "ask-mentor", "currentStep": "Run", "problem": "npm start exits 1", "questionForMentor": "Why?"},
    {"status": "completed", "summary": "done"}
  ],
  "mentor": ["Install Node.js first.", {"notes": "Use 3000.", "fixes": ["say PORT=3000"]}, "Run npm install before npm start."]
}`

func TestReplayRunAndRecordRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "scenario.json")
	require.NoError(t, os.WriteFile(path, []byte(scenario), 0o644))
	p, err := Load(path)
	require.NoError(t, err)
	tt, err := tutorial.Parse(filepath.Join(dir, "tutorial.md"), []byte(tut))
	require.NoError(t, err)
	run := func(p *Player, out string) *loop.State {
		st, err := loop.Run(context.Background(), loop.Options{Config: config.Default(), Tutorial: tt, Sandbox: nopSandbox{},
			Student: p.Student(), Mentor: p.Mentor(), StateDir: out})
		require.NoError(t, err)
		return st
	}
	out := filepath.Join(dir, "out")
	st := run(p, out)
	assert.Equal(t, loop.StatusCompleted, st.Status)
	require.Len(t, st.History, 4)
	assert.Equal(t, []string{"Install Node.js first.", "Use 3000.", "Run npm install before npm start."}, st.MentorNotes)
	assert.Equal(t, []string{"say PORT=3000"}, st.History[1].Mentor.Fixes)
	var lines []int
	for _, it := range st.History[:3] {
		require.Len(t, it.Student.Findings, 1)
		lines = append(lines, it.Student.Findings[0].Line)
	}
	assert.Equal(t, []int{3, 9, 13}, lines, "findings at the steps the Student named")

	// the written scenario replays to the same history
	again, err := Load(filepath.Join(out, loop.ScenarioFile))
	require.NoError(t, err)
	st2 := run(again, filepath.Join(dir, "out2"))
	assert.Equal(t, st.Status, st2.Status)
	assert.Equal(t, st.MentorNotes, st2.MentorNotes)
	for i := range st.History {
		assert.Equal(t, st.History[i].Student.StudentOutput, st2.History[i].Student.StudentOutput)
		assert.Equal(t, st.History[i].Student.Findings, st2.History[i].Student.Findings)
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"student": [{"status": "maybe"}]}`), 0o644))
	for _, path := range []string{"", filepath.Join(dir, "missing.json"), bad} {
		_, err := Load(path)
		var se *ScenarioError
		require.ErrorAs(t, err, &se, path)
		assert.True(t, se.InvalidInput())
	}
}

func TestExhaustedScenarioIsAnError(t *testing.T) {
	t.Parallel()
	p := New(loop.Scenario{Student: []loop.StudentResult{{StudentOutput: loop.StudentOutput{Status: "ask_mentor"}}}})
	_, err := p.Student().Attempt(context.Background(), loop.StudentTask{Iteration: 2, Events: loop.Discard})
	assert.ErrorContains(t, err, "iteration 2 has none")
	_, err = p.Mentor().Advise(context.Background(), loop.MentorTask{})
	assert.ErrorContains(t, err, "answer 1 is missing")
}
