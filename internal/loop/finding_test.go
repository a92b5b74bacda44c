package loop

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/tutorial"
)

func locateTutorial(t *testing.T) *tutorial.Tutorial {
	t.Helper()
	raw, err := os.ReadFile("testdata/locate.md")
	require.NoError(t, err)
	tut, err := tutorial.Parse("testdata/locate.md", raw)
	require.NoError(t, err)
	return tut
}

// The loop's order wins everywhere: the failing command's line before the quote's, so
// the report shows the line the loop recorded (issue 15: two orders disagreed).
func TestLocateCommandBeforeQuote(t *testing.T) {
	t.Parallel()
	tut := locateTutorial(t)
	f := Finding{Quote: "Run the setup script to configure the database", Command: "./scripts/setup.sh"}
	loc := Locate(tut, nil, nil, f)
	assert.Equal(t, Location{Line: 23, EndLine: 23, Source: LocatedByCommand}, loc)

	f.Command = ""
	assert.Equal(t, Location{Line: 20, EndLine: 20, Source: LocatedByQuote}, Locate(tut, nil, nil, f))
	assert.Equal(t, Location{Source: LocatedNowhere}, Locate(tut, nil, nil, Finding{Quote: "deploy to the cluster with kubectl"}))
	assert.Equal(t, Location{Line: 9, EndLine: 9, Source: LocatedByAgent}, Locate(nil, nil, nil, Finding{Line: 9}), "without the tutorial the agent's line is kept")
	assert.Equal(t, LocatedNowhere, Locate(tut, nil, nil, Finding{Line: 500}).Source, "a line past the end is not trusted")
}

func TestCompleteFindings(t *testing.T) {
	t.Parallel()
	tut := locateTutorial(t)
	rule := func(f Finding) string { // as none.Fix: the finding's own fix first
		return firstNonEmpty(f.Fix, "rule fix for "+f.Category)
	}
	st := &State{Status: StatusBlocker, FinalResult: &FinalResult{Status: StatusBlocker}, History: []Iteration{
		{Iteration: 1, Student: &StudentResult{StudentOutput: StudentOutput{Status: StudentAskMentor, CurrentStep: "Test"},
			Findings: []Finding{
				{Step: "Test", Command: "npm test", ExitCode: 1, Class: ClassTestFailure, Problem: "tests fail"},
				{Line: 7, Problem: "no docker here", Environment: true, Fix: "say Docker is needed"},
				{Quote: "Install the dependencies", Problem: "which version?", Question: "which Node version?"},
			}},
			Mentor: &MentorRecord{Notes: "- Tell the reader which Node version to install.\n- Unrelated.", Fixes: []string{"fix the test code"}}},
		{Iteration: 2, Student: &StudentResult{StudentOutput: StudentOutput{Status: StudentCannotComplete, Problem: "npm start fails: `Error: Cannot find module 'express'`", CurrentStep: "Run"},
			Commands: []CommandRecord{{Command: "npm start", ExitCode: 1, Output: "Error: Cannot find module 'express'", Class: ClassMissingDependency}}}},
	}}
	CompleteFindings(st, tut, rule)

	fs := st.History[0].Student.Findings
	require.Len(t, fs, 3)
	assert.Equal(t, []any{38, LocatedByCommand, CategoryFailingCheck, SeverityHigh, "fix the test code", FixByMentor},
		[]any{fs[0].Line, fs[0].Located, fs[0].Category, fs[0].Severity, fs[0].Fix, fs[0].FixSource})
	assert.Equal(t, []any{7, CategoryEnvironmentAssumption, SeverityLow, "say Docker is needed", FixByRule},
		[]any{fs[1].Line, fs[1].Category, fs[1].Severity, fs[1].Fix, fs[1].FixSource}, "an environment limitation is low; its own fix is the rule's")
	assert.Equal(t, []any{11, LocatedByQuote, CategoryAmbiguousInstruction, SeverityMedium, FixByMentorNotes},
		[]any{fs[2].Line, fs[2].Located, fs[2].Category, fs[2].Severity, fs[2].FixSource})
	assert.Contains(t, fs[2].Fix, "which Node version")

	// A Student that stopped without a finding gets one from its output; it stopped the run.
	last := st.History[1].Student.Findings
	require.Len(t, last, 1)
	assert.Equal(t, "npm start", last[0].Command)
	assert.Equal(t, 31, last[0].Line)
	assert.Equal(t, CategoryMissingPrerequisite, last[0].Category)
	assert.Equal(t, SeverityCritical, last[0].Severity)
	assert.Equal(t, "rule fix for missing prerequisite", last[0].Fix)

	// Completing again changes nothing.
	before := cloneState(st)
	CompleteFindings(st, tut, func(Finding) string { return "other" })
	assert.Equal(t, before, cloneState(st))
}

// A run that cannot start ends through the same end as every run (issue 15: cmd built
// this state by hand): saved, locked while written, reason masked, loop_complete emitted.
func TestAbort(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var events []EventType
	st, err := Abort(Options{Tutorial: locateTutorial(t), StateDir: dir, RunID: "r1", Secrets: []string{"s3cr3t-value"},
		Events: EmitterFunc(func(e Event) { events = append(events, e.Type) })}, errors.New("no sandbox: token s3cr3t-value"))
	require.EqualError(t, err, "no sandbox: token s3cr3t-value", "the cause is returned as it is")
	require.NotNil(t, st)
	saved, lerr := LoadState(dir)
	require.NoError(t, lerr)
	assert.Equal(t, StatusError, saved.Status)
	assert.Equal(t, PhaseDone, saved.Phase)
	assert.Equal(t, "r1", saved.RunID)
	assert.Equal(t, "testdata/locate.md", saved.Tutorial)
	assert.NotContains(t, saved.FinalResult.Reason, "s3cr3t-value")
	assert.Contains(t, events, EventLoopComplete)
}

// One clip, rune-safe (issue 15: two byte-cutting clips split UTF-8).
func TestClip(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "héllo", Clip("héllo", 5))
	assert.Equal(t, "hé…", Clip("héllo", 3))
	assert.Equal(t, "héllo", Clip("héllo", 0), "no limit")
	s := "ééééé-ééééé" // 2-byte runes: a byte cut in the middle would split one
	out := ClipMiddle(s, 9)
	assert.True(t, utf8.ValidString(out), "%q", out)
	assert.Contains(t, out, "bytes omitted")
	assert.True(t, strings.HasPrefix(out, "ééé"), out)
	assert.True(t, strings.HasSuffix(out, "\né"), out)
	assert.Equal(t, "short", ClipMiddle("short", 9))
}
