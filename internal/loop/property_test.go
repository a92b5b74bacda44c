package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"
	"time"

	"github.com/stretchr/testify/require"
)

// outcomes is a random sequence of Student/Mentor outcomes, one per iteration.
type outcomes struct {
	Steps   []outcome
	CrashAt int // iteration during which the orchestrator "dies" (1-based)
}

type outcome struct {
	Student      string // completed, ask_mentor, cannot_complete, error
	Problem      string
	Unresolvable bool
}

// Generate implements quick.Generator.
func (outcomes) Generate(r *rand.Rand, _ int) reflect.Value {
	n := 1 + r.Intn(8)
	o := outcomes{CrashAt: 1 + r.Intn(n)}
	statuses := []string{StudentAskMentor, StudentAskMentor, StudentAskMentor, StudentCompleted, StudentCannotComplete, "error"}
	for range n {
		o.Steps = append(o.Steps, outcome{
			Student:      statuses[r.Intn(len(statuses))],
			Problem:      []string{"npm: command not found", "tests fail", "which port?"}[r.Intn(3)],
			Unresolvable: r.Intn(10) == 0,
		})
	}
	return reflect.ValueOf(o)
}

func (o outcomes) student(n int) (StudentResult, error) {
	if n > len(o.Steps) {
		return completed(), nil
	}
	s := o.Steps[n-1]
	if s.Student == "error" {
		return StudentResult{}, fmt.Errorf("agent failed in iteration %d", n)
	}
	return StudentResult{StudentOutput: StudentOutput{Status: s.Student, CurrentStep: "step", Problem: s.Problem, Reason: s.Problem}}, nil
}

func (o outcomes) mentor(n int) MentorResult {
	u := n <= len(o.Steps) && o.Steps[n-1].Unresolvable
	return MentorResult{Notes: fmt.Sprintf("note %d", n), Unresolvable: u}
}

func stateJSON(st State) string {
	for i := range st.History { // wall-clock fields differ between runs
		st.History[i].Started, st.History[i].Ended = st.History[i].Started.UTC().Truncate(0), st.History[i].Ended.UTC().Truncate(0)
	}
	b, _ := json.Marshal(st)
	return string(b)
}

// scrubTimes zeroes what legitimately differs between two runs of the same outcomes.
func scrubTimes(st State) State {
	st = cloneState(&st)
	st.StartTime, st.EndTime, st.RunID = time.Time{}, time.Time{}, ""
	st.FinalResult = nil
	for i := range st.History {
		it := &st.History[i]
		it.Started, it.Ended = time.Time{}, time.Time{}
		if it.Mentor != nil {
			it.Mentor.Started, it.Mentor.Ended = time.Time{}, time.Time{}
		}
	}
	return st
}

// TestPropertyStatePersistence: for random Student/Mentor outcome sequences, (1) the
// state after iteration i is exactly the state loaded from disk before iteration i+1,
// and (2) a run that dies during any iteration and is resumed ends with the same history
// as the uninterrupted run, every iteration exactly once.
func TestPropertyStatePersistence(t *testing.T) {
	t.Parallel()
	prop := func(o outcomes) bool {
		dir := t.TempDir()
		var after []State
		var crashDir string
		var mismatch string
		opts := Options{
			Tutorial: testTut(),
			Sandbox:  &fakeSandbox{},
			StateDir: dir,
			Student: &fakeStudent{attempt: func(_ context.Context, task StudentTask) (StudentResult, error) {
				if task.Iteration == o.CrashAt && crashDir == "" {
					crashDir = crashCopy(t, dir)
				}
				return o.student(task.Iteration)
			}},
			Mentor: &fakeMentor{advise: func(_ context.Context, task MentorTask) (MentorResult, error) {
				return o.mentor(task.Iteration), nil
			}},
			MaxConsecutiveErrors: 3,
		}
		opts.Config.MaxIterations = 6
		opts.Config.StallThreshold = 3
		opts.afterIteration = func(s State) { after = append(after, s) }
		opts.beforeIteration = func(n int) {
			if n < 2 || len(after) == 0 {
				return
			}
			loaded, err := LoadState(dir)
			if err != nil {
				mismatch = err.Error()
				return
			}
			if got, want := stateJSON(*loaded), stateJSON(after[len(after)-1]); got != want {
				mismatch = fmt.Sprintf("before iteration %d:\nloaded %s\nafter  %s", n, got, want)
			}
		}
		full, _ := Run(context.Background(), opts)
		if mismatch != "" {
			t.Log(mismatch)
			return false
		}
		if crashDir == "" { // the run ended before the crash point
			return true
		}
		resumeOpts := opts
		resumeOpts.StateDir, resumeOpts.Resume, resumeOpts.Sandbox = crashDir, true, &fakeSandbox{}
		resumeOpts.beforeIteration, resumeOpts.afterIteration = nil, nil
		crashDir = "done"
		resumed, _ := Run(context.Background(), resumeOpts)
		if resumed == nil {
			t.Log("resume returned no state")
			return false
		}
		a, b := scrubTimes(*full), scrubTimes(*resumed)
		if !reflect.DeepEqual(a, b) {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			t.Logf("resumed run differs:\nfull    %s\nresumed %s", ja, jb)
			return false
		}
		for i := range a.History {
			if a.History[i].Iteration != i+1 || b.History[i].Iteration != i+1 {
				t.Log("iterations out of order")
				return false
			}
		}
		return true
	}
	require.NoError(t, quick.Check(prop, &quick.Config{MaxCount: 60}))
}
