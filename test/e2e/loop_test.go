//go:build e2e

// Package e2e runs the built smile-action binary on the real Docker Engine with the
// smile-lite image: whole runs, as a user runs them.
package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

var (
	binary   string
	repoRoot string
)

func TestMain(m *testing.M) {
	_, file, _, _ := runtime.Caller(0)
	repoRoot = filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	dir, err := os.MkdirTemp("", "smile-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "smile-action")
	build := exec.Command("go", "build", "-o", binary, "./cmd/smile-action")
	build.Dir = repoRoot
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build smile-action:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	code           int
	stdout, stderr string
}

// smile runs the binary in dir.
func smile(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return smileWith(t, dir, nil, args...)
}

type reportJSON struct {
	Meta struct {
		Status     string `json:"status"`
		Completed  bool   `json:"completed"`
		Iterations int    `json:"iterations"`
		Reason     string `json:"reason"`
	} `json:"meta"`
	Gaps []struct {
		Location struct {
			Line int `json:"line"`
		} `json:"location"`
		Problem      string `json:"problem"`
		SuggestedFix string `json:"suggestedFix"`
		Trigger      string `json:"trigger"`
		Class        string `json:"class"`
		AlsoAt       []int  `json:"alsoAt"`
	} `json:"gaps"`
}

func readReport(t *testing.T, out string) reportJSON {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "smile-report.json"))
	require.NoError(t, err)
	var r reportJSON
	require.NoError(t, json.Unmarshal(data, &r))
	for _, f := range []string{"smile-report.md", "smile-report.sarif", "smile-audit.log", loop.StateFile, loop.ScenarioFile} {
		assert.FileExists(t, filepath.Join(out, f))
	}
	return r
}

func TestWorkingTutorialCompletesInOneIteration(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	out := t.TempDir()
	res := smile(t, repoRoot, "run", "--config", "examples/hello/smile.json", "--output", out)
	require.Equal(t, 0, res.code)
	assert.Contains(t, res.stdout, "report: "+filepath.Join(out, "smile-report.md"), "prints where the report is")
	r := readReport(t, out)
	assert.Equal(t, "completed", r.Meta.Status)
	assert.Equal(t, 1, r.Meta.Iterations)
	assert.Empty(t, r.Gaps)
	assert.NoFileExists(t, filepath.Join(out, loop.LockFile))
}

func TestMissingToolIsAGapAtItsLine(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	out := t.TempDir()
	dir := filepath.Join(repoRoot, "test/e2e/testdata/missing-tool")
	res := smile(t, dir, "run", "--output", out)
	require.Equal(t, 1, res.code)
	r := readReport(t, out)
	require.Len(t, r.Gaps, 1, "one gap: the first use of jq")
	g := r.Gaps[0]
	assert.Equal(t, 12, g.Location.Line)
	assert.Equal(t, "missing_dependency", g.Class)
	assert.Equal(t, "missing_dependency", g.Trigger)
	assert.Empty(t, g.AlsoAt, "the Student installed jq as the fix says and went on: the later use works")
	assert.Contains(t, g.SuggestedFix, "jq")
	assert.Equal(t, "blocker", r.Meta.Status)
	assert.Contains(t, r.Meta.Reason, "deterministic")
}

func TestReplayedScenarioGapsAtTheNamedSteps(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	out := t.TempDir()
	dir := filepath.Join(repoRoot, "test/e2e/testdata/replay")
	res := smile(t, dir, "run", "--output", out)
	require.Equal(t, 0, res.code, "failOn never: a completed run passes")
	r := readReport(t, out)
	assert.Equal(t, "completed", r.Meta.Status)
	assert.Equal(t, 4, r.Meta.Iterations)
	var lines []int
	for _, g := range r.Gaps {
		lines = append(lines, g.Location.Line)
		assert.NotEmpty(t, g.SuggestedFix)
		assert.NotEmpty(t, g.Trigger, "every ask_mentor names its trigger")
	}
	assert.Equal(t, []int{3, 9, 13}, lines)

	// the run's own scenario.json replays to the same result
	out2 := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "smile.json")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`{"tutorial": %q, "llmProvider": "replay", "scenario": %q, "containerImage": "smile-lite:latest", "failOn": "never", "observe": {"enabled": false}}`,
		filepath.Join(dir, "tutorial.md"), filepath.Join(out, loop.ScenarioFile))), 0o644))
	res = smile(t, dir, "run", "--config", cfg, "--output", out2)
	require.Equal(t, 0, res.code)
	r2 := readReport(t, out2)
	assert.Equal(t, r.Meta.Iterations, r2.Meta.Iterations)
	assert.Len(t, r2.Gaps, 3)
}

func TestPersistentFailureEndsBounded(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	out := t.TempDir()
	res := smile(t, filepath.Join(repoRoot, "test/e2e/testdata/stall"), "run", "--output", out)
	require.Equal(t, 1, res.code)
	r := readReport(t, out)
	assert.Equal(t, "stalled", r.Meta.Status)
	assert.Equal(t, 3, r.Meta.Iterations, "stopped at the stall threshold, not maxIterations")
	var st loop.State
	data, err := os.ReadFile(filepath.Join(out, loop.StateFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &st))
	require.NotEmpty(t, st.Failures)
	assert.Equal(t, 3, st.Failures[len(st.Failures)-1].Count, "the failure history is in the state")
}

func TestKillAndResume(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	out := t.TempDir()
	dir := filepath.Join(repoRoot, "test/e2e/testdata/slow")
	cmd, waited, _ := startSlow(t, out)

	// one loop per output directory (7.E3)
	second := smile(t, dir, "run", "--output", out)
	assert.Equal(t, 2, second.code)
	assert.Contains(t, second.stderr, fmt.Sprintf("pid %d", cmd.Process.Pid), "names the running one")

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	<-waited
	assert.FileExists(t, filepath.Join(out, loop.LockFile), "a kill -9 leaves its lock behind")

	res := smile(t, dir, "run", "--output", out, "--resume")
	require.Equal(t, 0, res.code)
	r := readReport(t, out)
	assert.Equal(t, "completed", r.Meta.Status)
	var st loop.State
	data, err := os.ReadFile(filepath.Join(out, loop.StateFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &st))
	require.Len(t, st.History, 1, "the interrupted iteration is redone, not duplicated")
	assert.Equal(t, 1, st.History[0].Iteration)
	assert.Equal(t, loop.StudentCompleted, st.History[0].Student.Status)
	assert.NoFileExists(t, filepath.Join(out, loop.LockFile))
}

// startSlow starts a run of the slow tutorial and returns once the Student is inside
// its slow command.
func startSlow(t *testing.T, out string) (*exec.Cmd, chan error, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(binary, "run", "--output", out)
	cmd.Dir = filepath.Join(repoRoot, "test/e2e/testdata/slow")
	cmd.Env = append(os.Environ(), "CI=true")
	// the run writes while this goroutine polls: the buffers must be safe for both
	var stdout, errb lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &errb
	require.NoError(t, cmd.Start())
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		require.True(t, time.Now().Before(deadline), "the run never reached the slow step: %s", errb.String())
		data, err := os.ReadFile(filepath.Join(out, loop.StateFile))
		var st loop.State
		if err == nil && json.Unmarshal(data, &st) == nil && st.Phase == loop.PhaseStudent {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(3 * time.Second)
	return cmd, waited, &stdout
}

func TestInterruptEndsCancelledWithReport(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	out := t.TempDir()
	cmd, waited, stdout := startSlow(t, out)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	select {
	case err := <-waited:
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, 1, ee.ExitCode())
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("Ctrl-C did not end the run")
	}
	r := readReport(t, out)
	assert.Equal(t, "cancelled", r.Meta.Status)
	assert.Contains(t, stdout.String(), "smile-report.md")
	assert.NoFileExists(t, filepath.Join(out, loop.LockFile))
}

// Kill -9 during iteration 2 of a multi-iteration run (while its container is being
// reset); --resume keeps iteration 1 as it was, redoes iteration 2 and finishes.
func TestKillDuringSecondIterationAndResume(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	dir := filepath.Join(repoRoot, "test/e2e/testdata/stall")
	// catch the run between saving the start of iteration 2 and its Student answer (the
	// container reset); the window is short, so a missed one is tried again
	catch := func(out string) (loop.State, bool) {
		cmd := exec.Command(binary, "run", "--output", out)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CI=true")
		require.NoError(t, cmd.Start())
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		deadline := time.Now().Add(2 * time.Minute)
		for time.Now().Before(deadline) {
			var st loop.State
			data, err := os.ReadFile(filepath.Join(out, loop.StateFile))
			if err == nil && json.Unmarshal(data, &st) == nil && st.Iteration == 2 && st.Phase == loop.PhaseStudent {
				require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
				<-waited
				return st, true
			}
			select {
			case <-waited:
				return st, false
			default:
			}
			time.Sleep(10 * time.Millisecond)
		}
		_ = cmd.Process.Kill()
		<-waited
		return loop.State{}, false
	}
	var (
		before loop.State
		out    string
		caught bool
	)
	for try := 0; try < 3 && !caught; try++ {
		out = t.TempDir()
		before, caught = catch(out)
	}
	require.True(t, caught, "never caught the run inside iteration 2")
	require.Len(t, before.History, 2)
	require.NotNil(t, before.History[0].Mentor, "iteration 1 was finished when the orchestrator died")

	res := smile(t, dir, "run", "--output", out, "--resume")
	require.Equal(t, 1, res.code)
	var st loop.State
	data, err := os.ReadFile(filepath.Join(out, loop.StateFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &st))
	assert.Equal(t, loop.StatusStalled, st.Status)
	assert.Equal(t, before.RunID, st.RunID)
	require.Len(t, st.History, 3, "every iteration exactly once")
	for i, it := range st.History {
		assert.Equal(t, i+1, it.Iteration)
	}
	assert.True(t, before.History[0].Started.Equal(st.History[0].Started), "iteration 1 is not redone")
	assert.Len(t, st.MentorNotes, 2)
	r := readReport(t, out)
	assert.Equal(t, "stalled", r.Meta.Status)
}

// lockedBuffer is a bytes.Buffer that a running process writes to while a test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
