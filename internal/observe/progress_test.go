package observe_test

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/observe"
)

var t0 = time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)

func at(d time.Duration, typ loop.EventType, data any) loop.Event {
	return loop.Event{Type: typ, Time: t0.Add(d), Data: data}
}

// run is a short run: plan, two iterations, a gap, a mentor note, the end.
func run() []loop.Event {
	plan := []loop.PlanStep{{ID: 1, Title: "Install", StartLine: 3, EndLine: 8}, {ID: 2, Title: "Start the server", StartLine: 9, EndLine: 14}}
	gap := loop.Finding{Step: "Start the server", Line: 12, Problem: "npm: command not found", Command: "npm start", ExitCode: 127, Class: loop.ClassMissingDependency}
	return []loop.Event{
		at(0, loop.EventStateChange, loop.StateChangeData{Status: loop.StatusRunning, Phase: loop.PhaseStudent, Iteration: 1}),
		at(time.Second, loop.EventIterationStart, loop.IterationStartData{Iteration: 1, Timestamp: t0.Add(time.Second)}),
		at(2*time.Second, loop.EventPlanAccepted, map[string]any{"steps": plan}),
		at(3*time.Second, loop.EventStepStart, loop.StepData{Step: "Start the server", Line: 12}),
		at(4*time.Second, loop.EventCommand, loop.CommandRecord{Iteration: 1, Line: 12, Command: "npm start", ExitCode: 127, Duration: 1200 * time.Millisecond, Class: loop.ClassMissingDependency, Summary: "npm: command not found"}),
		at(5*time.Second, loop.EventGap, gap),
		at(6*time.Second, loop.EventMentorOutput, loop.MentorOutputData{Notes: "Install Node.js first:\n  apt-get install -y nodejs npm"}),
		at(7*time.Second, loop.EventIterationStart, loop.IterationStartData{Iteration: 2}),
		at(8*time.Second, loop.EventGap, gap), // the same gap again: one annotation
		at(65*time.Second, loop.EventLoopComplete, loop.LoopCompleteData{Status: loop.StatusMaxIterations, Summary: "1 gap found", Iterations: 2}),
	}
}

func TestTerminalPlainLines(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	term := observe.NewTerminal(&out, observe.TerminalOptions{TTY: false})
	for _, e := range run() {
		term.Emit(e)
	}
	want := `14:00:01 iteration 1 started
14:00:02 plan accepted: 2 steps
14:00:03 step: Start the server [line 12]
14:00:04 $ npm start → exit 127 (1.2s) missing_dependency: npm: command not found [line 12]
14:00:05 gap at line 12 (Start the server): npm: command not found
14:00:06 mentor notes:
    │ Install Node.js first:
    │   apt-get install -y nodejs npm
14:00:07 iteration 2 started
14:00:08 gap at line 12 (Start the server): npm: command not found
14:01:05 finished: max_iterations after 2 iterations
    │ 1 gap found
`
	assert.Equal(t, want, out.String())
	assert.NotContains(t, out.String(), "\r", "no cursor tricks outside a TTY")
}

func TestTerminalLiveLine(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	now := t0
	term := observe.NewTerminal(&out, observe.TerminalOptions{TTY: true, MaxIterations: 5, Tick: -1, Now: func() time.Time { return now }})
	events := run()
	for _, e := range events[:6] {
		now = e.Time
		term.Emit(e)
	}
	s := out.String()
	last := s[strings.LastIndex(s, "\r\x1b[2K"):]
	assert.Equal(t, "\r\x1b[2K● iteration 1/5 · step 2/2 Start the server · 5s · 1 gap", last)
	assert.Contains(t, s, "\r\x1b[2Kgap at line 12 (Start the server): npm: command not found\n", "notable events print above the live line")
	assert.NotContains(t, s, "14:00:0", "no timestamps in the live view")

	for _, e := range events[6:] {
		now = e.Time
		term.Emit(e)
	}
	assert.True(t, strings.HasSuffix(out.String(), "finished: max_iterations after 2 iterations\n    │ 1 gap found\n"), "the live line is gone at the end: %q", out.String())
	term.Emit(at(70*time.Second, loop.EventIterationStart, loop.IterationStartData{Iteration: 3}))
	assert.True(t, strings.HasSuffix(out.String(), "1 gap found\n"), "nothing after the end")
}

func TestTerminalRedactsAndTicks(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var out lockedBuffer
	out.mu = &mu
	term := observe.NewTerminal(&out, observe.TerminalOptions{
		TTY: true, Tick: 10 * time.Millisecond,
		Redact: func(s string) string { return strings.ReplaceAll(s, "hunter2", "***") },
	})
	defer term.Close()
	term.Emit(loop.NewEvent(loop.EventStepStart, loop.StepData{Step: "login with hunter2 please and wait for a very long time indeed"}))
	term.Emit(loop.NewEvent(loop.EventCommand, loop.CommandRecord{Command: "login -p hunter2", ExitCode: 1}))
	require.Eventually(t, func() bool { return strings.Count(out.String(), "● iteration") >= 4 }, 2*time.Second, 5*time.Millisecond,
		"the live line refreshes between events")
	assert.NotContains(t, out.String(), "hunter2")
	assert.NotContains(t, out.String(), "hunt", "redacted before being shortened")
}

func TestTerminalStepLabels(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	term := observe.NewTerminal(&out, observe.TerminalOptions{TTY: true, Tick: -1, Now: func() time.Time { return t0 }})
	term.Emit(at(0, loop.EventStepStart, loop.StepData{Step: "step 2 of 5: Install", Line: 7}))
	assert.Equal(t, "\r\x1b[2K● iteration – · step 2 of 5: Install · 0s · 0 gaps", out.String())

	out.Reset()
	plain := observe.NewTerminal(&out, observe.TerminalOptions{})
	plain.Emit(at(0, loop.EventStepStart, loop.StepData{Step: "step 2 of 5: Install", Line: 7}))
	plain.Emit(at(0, loop.EventStepStart, loop.StepData{Step: "Configure", Line: 9}))
	assert.Equal(t, "14:00:00 step 2 of 5: Install [line 7]\n14:00:00 step: Configure [line 9]\n", out.String())
}

func TestIsTTY(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, observe.IsTTY(f, env()), "a regular file is not a terminal")
	assert.False(t, observe.IsTTY(f, env("CI", "true")))
}

func TestActionsLog(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	log := observe.NewActionsLog(&out, observe.ActionsLogOptions{File: "docs/quick start.md"})
	for _, e := range run() {
		log.Emit(e)
	}
	log.Close()
	want := `::group::Iteration 1
plan accepted: 2 steps
step: Start the server [line 12]
$ npm start → exit 127 (1.2s) missing_dependency: npm: command not found [line 12]
gap at line 12 (Start the server): npm: command not found
::warning file=docs/quick start.md,line=12,title=Tutorial gap%3A Start the server::npm: command not found%0ACommand: npm start (exit 127)%0AClass: missing_dependency
mentor notes:
    │ Install Node.js first:
    │   apt-get install -y nodejs npm
::endgroup::
::group::Iteration 2
gap at line 12 (Start the server): npm: command not found
::endgroup::
finished: max_iterations after 2 iterations
    │ 1 gap found
`
	assert.Equal(t, want, out.String())
}

func TestActionsLogWithoutGapAnnotations(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	log := observe.NewActionsLog(&out, observe.ActionsLogOptions{File: "docs/a.md", NoGapAnnotations: true})
	for _, e := range run() {
		log.Emit(e)
	}
	log.Close()
	assert.NotContains(t, out.String(), "::warning", "the publisher annotates the de-duplicated report instead")
	assert.Contains(t, out.String(), "::group::Iteration 1")
	assert.Contains(t, out.String(), "gap at line 12 (Start the server)", "gaps are still listed in the log")
}

func TestActionsLogEscapesAndCannotBeInjected(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	log := observe.NewActionsLog(&out, observe.ActionsLogOptions{
		File:   "docs/a,b:c.md",
		Redact: func(s string) string { return strings.ReplaceAll(s, "s3cret", "***") },
	})
	log.Emit(loop.NewEvent(loop.EventIterationStart, loop.IterationStartData{Iteration: 1}))
	log.Emit(loop.NewEvent(loop.EventCommand, loop.CommandRecord{
		Command: "echo hi\n::error::injected\n  ::add-mask::x", ExitCode: 1,
		Summary: "##[error]legacy\r\n::stop-commands::tok",
	}))
	log.Emit(loop.NewEvent(loop.EventMentorOutput, loop.MentorOutputData{Notes: "line one\n::set-output name=x::y\n\t::warning::z"}))
	log.Emit(loop.NewEvent(loop.EventGap, loop.Finding{
		Step: "Step 3: build, then run", Line: 7, EndLine: 9,
		Problem: "100% broken:\r\nsee s3cret, then ::error::x",
	}))
	log.Emit(loop.NewEvent(loop.EventError, loop.ErrorData{Message: "docker: gone\nreally"}))
	log.Close()

	var commands []string
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			commands = append(commands, line)
		}
		assert.NotContains(t, line, "##[", "legacy command syntax is defused")
	}
	assert.Equal(t, []string{
		"::group::Iteration 1",
		"::warning endLine=9,file=docs/a%2Cb%3Ac.md,line=7,title=Tutorial gap%3A Step 3%3A build%2C then run::100%25 broken:%0D%0Asee ***, then ::error::x",
		"::error::smile-loop: docker: gone%0Areally",
		"::endgroup::",
	}, commands, "only our own workflow commands, escaped")
	assert.NotContains(t, out.String(), "s3cret")
}

type lockedBuffer struct {
	mu *sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
