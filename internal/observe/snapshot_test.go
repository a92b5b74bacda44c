package observe

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
)

func TestSnapshotApply(t *testing.T) {
	t.Parallel()
	plan := []loop.PlanStep{{ID: 1, Title: "Install", StartLine: 3, EndLine: 8}, {ID: 2, Title: "Run", StartLine: 9, EndLine: 14}}
	tests := []struct {
		name   string
		events []loop.Event
		check  func(t *testing.T, s Snapshot)
	}{
		{
			name: "typed, pointer and map payloads are all understood",
			events: []loop.Event{
				loop.NewEvent(loop.EventIterationStart, &loop.IterationStartData{Iteration: 3}),
				loop.NewEvent(loop.EventStateChange, map[string]any{"status": "running", "phase": "check", "iteration": 3}),
				loop.NewEvent(loop.EventMentorOutput, loop.MentorOutputData{Notes: "n"}),
			},
			check: func(t *testing.T, s Snapshot) {
				assert.Equal(t, 3, s.Iteration)
				assert.Equal(t, loop.PhaseCheck, s.Phase)
				assert.Equal(t, []string{"n"}, s.MentorNotes)
			},
		},
		{
			name: "raw JSON payloads (as the loop's secret masking leaves them)",
			events: []loop.Event{
				{Type: loop.EventIterationStart, Data: json.RawMessage(`{"iteration":2,"timestamp":"2026-11-22T14:00:00Z"}`)},
				{Type: loop.EventCommand, Data: json.RawMessage(`{"iteration":2,"command":"npm i","exitCode":1}`)},
				{Type: loop.EventGap, Data: json.RawMessage(`not json`)},
			},
			check: func(t *testing.T, s Snapshot) {
				assert.Equal(t, 2, s.Iteration)
				require.Len(t, s.Commands, 1)
				assert.Equal(t, 1, s.Commands[0].ExitCode)
				assert.Empty(t, s.Gaps)
			},
		},
		{
			name: "plan progress by step title, by line, and from the student's output",
			events: []loop.Event{
				loop.NewEvent(loop.EventPlanAccepted, plan),
				loop.NewEvent(loop.EventStepStart, loop.StepData{Step: "something else", Line: 10}),
			},
			check: func(t *testing.T, s Snapshot) {
				assert.Equal(t, 2, s.PlanStep, "line 10 is in step 2")
				s.apply(loop.NewEvent(loop.EventStudentOutput, loop.StudentOutputData{Status: "ask_mentor", CurrentStep: "Install"}), 50)
				assert.Equal(t, 1, s.PlanStep)
				assert.Equal(t, "Install", s.CurrentStep)
			},
		},
		{
			name: "a new iteration clears the current step",
			events: []loop.Event{
				loop.NewEvent(loop.EventStepStart, loop.StepData{Step: "Run", Line: 10}),
				loop.NewEvent(loop.EventIterationStart, loop.IterationStartData{Iteration: 2}),
			},
			check: func(t *testing.T, s Snapshot) {
				assert.Empty(t, s.CurrentStep)
				assert.Zero(t, s.CurrentLine)
				assert.False(t, s.IterationStart.IsZero(), "falls back to the event time")
			},
		},
		{
			name: "the same gap in a later iteration is one gap",
			events: []loop.Event{
				loop.NewEvent(loop.EventGap, loop.Finding{Line: 4, Problem: "p", Iteration: 1}),
				loop.NewEvent(loop.EventGap, loop.Finding{Line: 4, Problem: "p", Iteration: 2}),
				loop.NewEvent(loop.EventGap, loop.Finding{Line: 9, Problem: "q", Iteration: 2}),
			},
			check: func(t *testing.T, s Snapshot) {
				require.Len(t, s.Gaps, 2)
				assert.Equal(t, 2, s.Gaps[0].Iteration)
			},
		},
		{
			name:   "loop_complete ends the run",
			events: []loop.Event{loop.NewEvent(loop.EventLoopComplete, loop.LoopCompleteData{Status: loop.StatusBlocker, Iterations: 4, Summary: "s"})},
			check: func(t *testing.T, s Snapshot) {
				assert.Equal(t, loop.StatusBlocker, s.Status)
				assert.Equal(t, loop.PhaseDone, s.Phase)
				assert.Equal(t, 4, s.Iteration)
				assert.False(t, s.EndTime.IsZero())
			},
		},
		{
			name:   "unreadable payloads change nothing",
			events: []loop.Event{loop.NewEvent(loop.EventIterationStart, "nonsense"), loop.NewEvent(loop.EventCommand, nil)},
			check: func(t *testing.T, s Snapshot) {
				assert.Zero(t, s.Iteration)
				assert.Zero(t, s.CommandsTotal)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSnapshot(HubOptions{}, time.Now())
			for _, e := range tc.events {
				s.apply(e, 50)
			}
			tc.check(t, s)
		})
	}
}

func TestSnapshotKeepsRecentCommands(t *testing.T) {
	t.Parallel()
	s := newSnapshot(HubOptions{}, time.Now())
	for i := range 237 {
		s.apply(loop.NewEvent(loop.EventCommand, loop.CommandRecord{Line: i}), 50)
	}
	v := s.view(50)
	assert.Equal(t, 237, v.CommandsTotal)
	require.Len(t, v.Commands, 50)
	assert.Equal(t, 187, v.Commands[0].Line)
	assert.Equal(t, 236, v.Commands[49].Line)
	assert.LessOrEqual(t, len(s.Commands), 100, "bounded inside too")

	v.Commands[0].Line = -1
	assert.Equal(t, 187, s.view(50).Commands[0].Line, "a view is a copy")
}
