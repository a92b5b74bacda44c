package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
)

func baseOptions(t *testing.T, student *fakeStudent, mentor *fakeMentor) (Options, *fakeSandbox, *collector) {
	t.Helper()
	cfg := config.Default()
	cfg.MaxIterations = 5
	sb := &fakeSandbox{}
	ev := &collector{}
	return Options{Config: cfg, Tutorial: testTut(), Sandbox: sb, Student: student, Mentor: mentor, Events: ev, StateDir: t.TempDir()}, sb, ev
}

func ask(problem string) StudentResult {
	return StudentResult{StudentOutput: StudentOutput{Status: StudentAskMentor, CurrentStep: "Run", Problem: problem, QuestionForMentor: "what now?"}}
}

// letter names iteration n without digits (failure signatures ignore digits).
func letter(n int) string { return string(rune('a' + n)) }

func completed() StudentResult {
	return StudentResult{StudentOutput: StudentOutput{Status: StudentCompleted, Summary: "all done"}}
}

func TestRunCompletesInFirstIteration(t *testing.T) {
	t.Parallel()
	student := &fakeStudent{attempt: func(_ context.Context, task StudentTask) (StudentResult, error) {
		assert.Equal(t, 1, task.Iteration)
		assert.Contains(t, task.Prompt, "[Tutorial Content]")
		assert.Contains(t, task.Prompt, "npm install")
		assert.NotNil(t, task.Events)
		return completed(), nil
	}}
	o, sb, ev := baseOptions(t, student, &fakeMentor{advise: func(context.Context, MentorTask) (MentorResult, error) {
		t.Error("the mentor is not asked when the Student completes")
		return MentorResult{}, nil
	}})
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, StatusCompleted, st.Status)
	assert.Equal(t, PhaseDone, st.Phase)
	assert.Equal(t, 1, st.Iteration)
	require.Len(t, st.History, 1)
	assert.False(t, st.History[0].Ended.IsZero())
	assert.Equal(t, []bool{true}, sb.closed)
	assert.Zero(t, sb.resets)
	types := ev.types()
	assert.Equal(t, EventIterationStart, types[0])
	assert.Contains(t, types, EventStudentOutput)
	assert.Equal(t, EventLoopComplete, types[len(types)-1])
	for _, f := range []string{StateFile, ScenarioFile, filepath.Join(IterationsDir, "001.json")} {
		assert.FileExists(t, filepath.Join(o.StateDir, f))
	}
	assert.NoFileExists(t, filepath.Join(o.StateDir, LockFile), "the lock is released")
	loaded, err := LoadState(o.StateDir)
	require.NoError(t, err)
	assert.Equal(t, StatusCompleted, loaded.Status)
	assert.Equal(t, "the Student completed the tutorial", loaded.FinalResult.Reason)
}

func TestRunAccumulatesNotes(t *testing.T) {
	t.Parallel()
	var seen [][]string
	student := &fakeStudent{attempt: func(_ context.Context, task StudentTask) (StudentResult, error) {
		seen = append(seen, task.Notes)
		for _, n := range task.Notes {
			assert.Contains(t, task.Prompt, n, "notes reach the prompt (7.5)")
		}
		if task.Iteration == 3 {
			return completed(), nil
		}
		return ask(fmt.Sprintf("problem %d", task.Iteration)), nil
	}}
	mentor := &fakeMentor{advise: func(_ context.Context, task MentorTask) (MentorResult, error) {
		assert.Contains(t, task.Prompt, "[Student's Question]")
		return MentorResult{Notes: fmt.Sprintf("note %d", task.Iteration)}, nil
	}}
	o, sb, ev := baseOptions(t, student, mentor)
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, StatusCompleted, st.Status)
	assert.Equal(t, [][]string{nil, {"note 1"}, {"note 1", "note 2"}}, seen)
	assert.Equal(t, []string{"note 1", "note 2"}, st.MentorNotes)
	assert.Equal(t, 2, sb.resets, "reset between iterations")
	assert.Contains(t, ev.types(), EventMentorOutput)
	assert.Contains(t, ev.types(), EventTrigger)
}

func TestRunEnds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		setup     func(o *Options)
		student   func(context.Context, StudentTask) (StudentResult, error)
		mentor    func(context.Context, MentorTask) (MentorResult, error)
		cancelAt  int
		want      Status
		reason    string
		wantErr   bool
		iteration int
	}{
		{
			name: "max iterations",
			student: func(_ context.Context, task StudentTask) (StudentResult, error) {
				return ask("different " + letter(task.Iteration)), nil
			},
			want: StatusMaxIterations, reason: "maxIterations (5)", iteration: 5,
		},
		{
			name: "blocker from the Student",
			student: func(context.Context, StudentTask) (StudentResult, error) {
				return StudentResult{StudentOutput: StudentOutput{Status: StudentCannotComplete, Reason: "needs a paid account"}}, nil
			},
			want: StatusBlocker, reason: "needs a paid account", iteration: 1,
		},
		{
			name:    "blocker from the Mentor",
			student: func(context.Context, StudentTask) (StudentResult, error) { return ask("x"), nil },
			mentor: func(context.Context, MentorTask) (MentorResult, error) {
				return MentorResult{Notes: "Only a paid service helps here.", Unresolvable: true}, nil
			},
			want: StatusBlocker, reason: "paid service", iteration: 1,
		},
		{
			name:    "mentor error is unresolvable",
			student: func(context.Context, StudentTask) (StudentResult, error) { return ask("x"), nil },
			mentor: func(context.Context, MentorTask) (MentorResult, error) {
				return MentorResult{}, errors.New("rate limited")
			},
			want: StatusBlocker, reason: "rate limited", iteration: 1,
		},
		{
			name:    "stalled",
			student: func(context.Context, StudentTask) (StudentResult, error) { return ask("npm: command not found"), nil },
			want:    StatusStalled, reason: "3 iterations in a row despite mentor notes (npm: command not found)", iteration: 3,
		},
		{
			name:  "timeout",
			setup: func(o *Options) { o.Config.Timeout = 1 },
			student: func(ctx context.Context, _ StudentTask) (StudentResult, error) {
				<-ctx.Done()
				return StudentResult{}, ctx.Err()
			},
			want: StatusTimeout, reason: "timeout of 1s", iteration: 1,
		},
		{
			name:  "wrapper never calls back (7.E1)",
			setup: func(o *Options) { o.IterationTimeout = 100 * time.Millisecond; o.MaxConsecutiveErrors = 1 },
			student: func(ctx context.Context, _ StudentTask) (StudentResult, error) {
				<-ctx.Done()
				return StudentResult{}, ctx.Err()
			},
			want: StatusError, reason: "per-iteration timeout", wantErr: true, iteration: 1,
		},
		{
			name: "agent errors end as error",
			student: func(context.Context, StudentTask) (StudentResult, error) {
				return StudentResult{}, errors.New("cli crashed")
			},
			want: StatusError, reason: "2 iterations in a row failed", wantErr: true, iteration: 2,
		},
		{
			name: "a missing CLI ends the run at once (4.E1)",
			student: func(context.Context, StudentTask) (StudentResult, error) {
				return StudentResult{}, missingCLI{}
			},
			want: StatusError, reason: "claude CLI is not installed", wantErr: true, iteration: 1,
		},
		{
			name: "unparseable output twice is an error (4.E3)",
			student: func(context.Context, StudentTask) (StudentResult, error) {
				return StudentResult{Raw: "I am done!", ParseError: "the output has no JSON object"}, nil
			},
			want: StatusError, reason: "could not be parsed", wantErr: true, iteration: 2,
		},
		{
			name: "cancelled",
			student: func(ctx context.Context, _ StudentTask) (StudentResult, error) {
				<-ctx.Done()
				return StudentResult{}, ctx.Err()
			},
			cancelAt: 1,
			want:     StatusCancelled, reason: "interrupted", iteration: 1,
		},
		{
			name: "sandbox does not start",
			setup: func(o *Options) {
				o.Sandbox.(*fakeSandbox).startFn = func(context.Context) error { return errors.New("docker is not running") }
			},
			student: func(context.Context, StudentTask) (StudentResult, error) { return completed(), nil },
			want:    StatusError, reason: "docker is not running", wantErr: true, iteration: 0,
		},
		{
			name: "reset fails twice: blocker (3.E4)",
			setup: func(o *Options) {
				o.Sandbox.(*fakeSandbox).resetFn = func(context.Context) error { return errors.New("container gone") }
			},
			student: func(context.Context, StudentTask) (StudentResult, error) { return ask("x"), nil },
			want:    StatusBlocker, reason: "could not be reset", iteration: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			student := tt.student
			if tt.cancelAt > 0 {
				student = func(c context.Context, task StudentTask) (StudentResult, error) {
					if task.Iteration == tt.cancelAt {
						cancel()
					}
					return tt.student(c, task)
				}
			}
			o, sb, ev := baseOptions(t, &fakeStudent{attempt: student}, &fakeMentor{advise: tt.mentor})
			if tt.setup != nil {
				tt.setup(&o)
			}
			st, err := Run(ctx, o)
			if tt.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
			require.NotNil(t, st)
			assert.Equal(t, tt.want, st.Status)
			require.NotNil(t, st.FinalResult)
			assert.Contains(t, st.FinalResult.Reason, tt.reason)
			assert.Equal(t, tt.iteration, st.Iteration)
			assert.Len(t, sb.closed, 1, "the sandbox is closed exactly once")
			types := ev.types()
			assert.Equal(t, EventLoopComplete, types[len(types)-1])
			loaded, lerr := LoadState(o.StateDir)
			require.NoError(t, lerr)
			assert.Equal(t, tt.want, loaded.Status, "the end is saved")
			assert.FileExists(t, filepath.Join(o.StateDir, ScenarioFile))
			for _, it := range loaded.History {
				assert.False(t, it.Ended.IsZero(), "iteration %d closed", it.Iteration)
			}
		})
	}
}

func TestRunStallNeedsTheSameFailure(t *testing.T) {
	t.Parallel()
	problems := []string{"a failed", "a failed", "b failed", "a failed", "a failed", "a failed"}
	student := &fakeStudent{attempt: func(_ context.Context, task StudentTask) (StudentResult, error) {
		return ask(problems[task.Iteration-1]), nil
	}}
	o, _, _ := baseOptions(t, student, &fakeMentor{})
	o.Config.MaxIterations = 10
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, StatusStalled, st.Status)
	assert.Equal(t, 6, st.Iteration, "a different failure restarts the count")
	assert.Nil(t, st.History[5].Mentor, "no mentor call once stalled")
}

func TestRunTriggersAreEnforced(t *testing.T) {
	t.Parallel()
	failing := CommandRecord{Command: "npm install", ExitCode: 127, Output: "bash: npm: command not found"}
	tests := []struct {
		name    string
		mut     func(*config.StudentBehavior)
		result  StudentResult
		status  Status
		trigger Trigger
	}{
		{
			name:    "missing dependency inferred from the commands",
			result:  StudentResult{StudentOutput: StudentOutput{Status: "ask_mentor", CurrentStep: "Install the tools", QuestionForMentor: "where is npm?"}, Commands: []CommandRecord{failing}},
			status:  StatusMaxIterations,
			trigger: TriggerMissingDependency,
		},
		{
			name:    "disabled trigger never escalates (5.S2)",
			mut:     func(b *config.StudentBehavior) { b.AskOnMissingDependency = false },
			result:  StudentResult{StudentOutput: StudentOutput{Status: "ask_mentor", Problem: "npm missing"}, Trigger: TriggerMissingDependency, Commands: []CommandRecord{failing}},
			status:  StatusBlocker,
			trigger: TriggerNone,
		},
		{
			name:    "most specific of several (5.E1)",
			result:  StudentResult{StudentOutput: StudentOutput{Status: "ask_mentor", Problem: "x"}, Trigger: TriggerCommandFailure, Commands: []CommandRecord{failing}},
			status:  StatusMaxIterations,
			trigger: TriggerMissingDependency,
		},
		{
			name:    "no evidence: ambiguous instruction",
			result:  StudentResult{StudentOutput: StudentOutput{Status: "ask_mentor", CurrentStep: "Run", Problem: "which port?"}},
			status:  StatusMaxIterations,
			trigger: TriggerAmbiguousInstruction,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n := 0
			student := &fakeStudent{attempt: func(context.Context, StudentTask) (StudentResult, error) {
				n++
				r := tt.result
				r.Problem += fmt.Sprint(" ", n) // avoid the stall
				return r, nil
			}}
			o, _, ev := baseOptions(t, student, &fakeMentor{})
			o.Config.MaxIterations = 1
			if tt.mut != nil {
				tt.mut(&o.Config.StudentBehavior)
			}
			st, err := Run(context.Background(), o)
			require.NoError(t, err)
			assert.Equal(t, tt.status, st.Status, st.FinalResult.Reason)
			res := st.History[0].Student
			require.NotNil(t, res)
			assert.Equal(t, tt.trigger, res.Trigger)
			require.NotEmpty(t, res.Findings, "every stuck point is a finding")
			f := res.Findings[0]
			assert.NotEmpty(t, f.Problem)
			if tt.trigger != TriggerNone {
				assert.Equal(t, tt.trigger, f.Trigger, "the finding names its trigger (5.S3)")
				assert.Contains(t, ev.types(), EventTrigger)
				assert.Positive(t, f.Line, "located in the tutorial")
			}
			for _, c := range res.Commands {
				assert.Equal(t, ClassMissingDependency, c.Class)
				assert.Equal(t, 6, c.Line)
			}
		})
	}
}

func TestRunTruncatesLongNotesAndMasksSecrets(t *testing.T) {
	t.Parallel()
	const secret = "sk-test-1234567890"
	student := &fakeStudent{attempt: func(_ context.Context, task StudentTask) (StudentResult, error) {
		if task.Iteration == 2 {
			return completed(), nil
		}
		return ask("the key " + secret + " was refused"), nil
	}}
	mentor := &fakeMentor{advise: func(context.Context, MentorTask) (MentorResult, error) {
		return MentorResult{Notes: strings.Repeat("word ", 5000) + secret}, nil
	}}
	o, _, ev := baseOptions(t, student, mentor)
	o.Secrets = []string{secret}
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	require.Len(t, st.MentorNotes, 1)
	assert.LessOrEqual(t, len(st.MentorNotes[0]), MaxNoteChars+100, "6.E2")
	assert.Contains(t, st.MentorNotes[0], "truncated")
	data, err := os.ReadFile(filepath.Join(o.StateDir, StateFile))
	require.NoError(t, err)
	assert.NotContains(t, string(data), secret)
	assert.Contains(t, string(data), "***")
	for _, e := range ev.events {
		b, _ := json.Marshal(e)
		assert.NotContains(t, string(b), secret)
	}
}

func TestRunPlan(t *testing.T) {
	t.Parallel()
	good := []PlanStep{{ID: 1, Title: "Install", StartLine: 5, EndLine: 7}, {ID: 2, Title: "Run", StartLine: 9, EndLine: 13, DependsOn: []int{1}}}
	bad := []PlanStep{{ID: 1, Title: "Install", StartLine: 5, EndLine: 700}}
	student := &fakeStudent{attempt: func(_ context.Context, task StudentTask) (StudentResult, error) {
		r := ask("x" + letter(task.Iteration))
		r.Plan = bad
		if task.Iteration == 2 {
			r = completed()
			r.Plan = good
		}
		return r, nil
	}}
	o, _, ev := baseOptions(t, student, &fakeMentor{})
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, good, st.Plan)
	require.NotEmpty(t, st.History[0].PlanRejected)
	assert.Contains(t, st.History[0].PlanRejected[0], "tutorial has 13 lines")
	assert.Contains(t, ev.types(), EventPlanAccepted)
}

func TestRunSinglePassEndsAfterMentor(t *testing.T) {
	t.Parallel()
	student := &fakeStudent{singlePass: true, attempt: func(context.Context, StudentTask) (StudentResult, error) {
		r := ask("npm missing")
		r.Findings = []Finding{{Line: 6, Problem: "npm missing", Class: ClassMissingDependency}, {Line: 12, Problem: "start fails"}}
		return r, nil
	}}
	o, _, _ := baseOptions(t, student, &fakeMentor{advise: func(_ context.Context, task MentorTask) (MentorResult, error) {
		return MentorResult{Notes: "install npm", Fixes: []string{"add npm", "fix start"}}, nil
	}})
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, StatusBlocker, st.Status)
	assert.Contains(t, st.FinalResult.Reason, "deterministic mode")
	assert.Contains(t, st.FinalResult.Reason, "2 gap(s)")
	assert.Equal(t, 1, st.Iteration)
	assert.Equal(t, []string{"add npm", "fix start"}, st.History[0].Mentor.Fixes)
}

func TestRunRejectsConcurrentRun(t *testing.T) {
	t.Parallel()
	entered := make(chan struct{})
	release := make(chan struct{})
	student := &fakeStudent{attempt: func(context.Context, StudentTask) (StudentResult, error) {
		close(entered)
		<-release
		return completed(), nil
	}}
	o, _, _ := baseOptions(t, student, &fakeMentor{})
	done := make(chan error, 1)
	go func() { _, err := Run(context.Background(), o); done <- err }()
	<-entered
	o2 := o
	o2.Sandbox = &fakeSandbox{}
	_, err := Run(context.Background(), o2)
	var le *LockedError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, os.Getpid(), le.Holder.PID)
	assert.Contains(t, err.Error(), fmt.Sprintf("pid %d", os.Getpid()))
	assert.True(t, le.InvalidInput())
	close(release)
	require.NoError(t, <-done)
}

// crashCopy copies a state directory as a kill -9 would leave it (without this
// process's lock, which a real crash would leave behind for a dead pid).
func crashCopy(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	require.NoError(t, os.CopyFS(to, os.DirFS(from)))
	require.NoError(t, os.Remove(filepath.Join(to, LockFile)))
	return to
}

func TestRunResumeAfterCrash(t *testing.T) {
	t.Parallel()
	for _, crashAt := range []string{"student", "mentor"} {
		t.Run(crashAt, func(t *testing.T) {
			t.Parallel()
			var snapshot string
			var calls atomic.Int32
			outcome := func(n int) StudentResult {
				if n == 4 {
					return completed()
				}
				return ask("problem " + letter(n))
			}
			var dir string
			student := &fakeStudent{attempt: func(_ context.Context, task StudentTask) (StudentResult, error) {
				calls.Add(1)
				if crashAt == "student" && task.Iteration == 3 && snapshot == "" {
					snapshot = crashCopy(t, dir)
				}
				return outcome(task.Iteration), nil
			}}
			mentor := &fakeMentor{advise: func(_ context.Context, task MentorTask) (MentorResult, error) {
				if crashAt == "mentor" && task.Iteration == 2 && snapshot == "" {
					snapshot = crashCopy(t, dir)
				}
				return MentorResult{Notes: fmt.Sprint("note ", task.Iteration)}, nil
			}}
			o, _, _ := baseOptions(t, student, mentor)
			dir = o.StateDir
			full, err := Run(context.Background(), o)
			require.NoError(t, err)
			require.NotEmpty(t, snapshot)

			o.StateDir = snapshot
			o.Resume = true
			o.Sandbox = &fakeSandbox{}
			calls.Store(0)
			resumed, err := Run(context.Background(), o)
			require.NoError(t, err)
			assert.Equal(t, full.RunID, resumed.RunID)
			assert.Equal(t, StatusCompleted, resumed.Status)
			assert.Equal(t, full.MentorNotes, resumed.MentorNotes)
			require.Len(t, resumed.History, 4, "every iteration exactly once")
			for i, it := range resumed.History {
				assert.Equal(t, i+1, it.Iteration)
				assert.Equal(t, full.History[i].Student.StudentOutput, it.Student.StudentOutput)
			}
			if crashAt == "mentor" {
				assert.Equal(t, int32(2), calls.Load(), "the saved Student answer of iteration 2 is not asked again")
			}
		})
	}
}

func TestResumeNothing(t *testing.T) {
	t.Parallel()
	o, _, _ := baseOptions(t, &fakeStudent{}, &fakeMentor{})
	o.Resume = true
	_, err := Run(context.Background(), o)
	var re *ResumeError
	require.ErrorAs(t, err, &re)
	assert.True(t, re.InvalidInput())
}

// A crash between saving the last iteration and saving the run's end: resume ends the
// run the way it would have ended, without another iteration.
func TestResumeAfterLastIterationSaved(t *testing.T) {
	t.Parallel()
	o, _, _ := baseOptions(t, &fakeStudent{attempt: func(context.Context, StudentTask) (StudentResult, error) {
		t.Error("no new iteration")
		return completed(), nil
	}}, &fakeMentor{})
	started := time.Now().UTC().Add(-time.Minute)
	res := ask("x")
	st := &State{SchemaVersion: StateSchemaVersion, RunID: "r1", Status: StatusRunning, Phase: PhaseMentor, Iteration: 1, StartTime: started,
		MentorNotes: []string{"only a paid plan works"},
		History: []Iteration{{Iteration: 1, Started: started, Ended: started.Add(time.Second), Student: &res,
			Mentor: &MentorRecord{Notes: "only a paid plan works", Unresolvable: true}}}}
	require.NoError(t, SaveState(o.StateDir, st))
	o.Resume = true
	got, err := Run(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, StatusBlocker, got.Status)
	assert.Len(t, got.History, 1)
	assert.Equal(t, "r1", got.RunID)
}

func TestFindingsLocatedThroughThePlan(t *testing.T) {
	t.Parallel()
	plan := []PlanStep{{ID: 1, Title: "Prepare the toolchain", StartLine: 3, EndLine: 7}, {ID: 2, Title: "Launch", StartLine: 9, EndLine: 13}}
	student := &fakeStudent{attempt: func(_ context.Context, task StudentTask) (StudentResult, error) {
		r := ask("it broke")
		r.CurrentStep = "Launch"
		r.Plan = plan
		return r, nil
	}}
	o, _, _ := baseOptions(t, student, &fakeMentor{})
	o.Config.MaxIterations = 1
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	f := st.History[0].Student.Findings[0]
	assert.Equal(t, 9, f.Line, "the step the Student named, through its plan")
	assert.Equal(t, 13, f.EndLine)
}

// missingCLI is an agent error that says the environment lacks something.
type missingCLI struct{}

func (missingCLI) Error() string                { return "the claude CLI is not installed in the image" }
func (missingCLI) EnvironmentUnavailable() bool { return true }
