package loop

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l, err := AcquireLock(dir, "run-a")
	require.NoError(t, err)
	_, err = AcquireLock(dir, "run-b")
	var le *LockedError
	require.ErrorAs(t, err, &le)
	assert.Contains(t, err.Error(), "run-a")
	assert.Contains(t, err.Error(), "--output")
	require.NoError(t, l.Release())
	l2, err := AcquireLock(dir, "run-b")
	require.NoError(t, err)
	require.NoError(t, l2.Release())
}

func TestLockTakesOverStaleLock(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	dead := cmd.Process.Pid // reaped: no process with this pid now (barring reuse)
	host, _ := os.Hostname()
	dir := t.TempDir()
	data, _ := json.Marshal(LockInfo{PID: dead, Host: host, Started: time.Now().Add(-time.Hour), RunID: "crashed"})
	require.NoError(t, os.WriteFile(filepath.Join(dir, LockFile), data, 0o644))
	l, err := AcquireLock(dir, "new")
	require.NoError(t, err)
	assert.Equal(t, os.Getpid(), l.Info().PID)
	require.NoError(t, l.Release())
}

func TestLockOtherHostIsRespected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, _ := json.Marshal(LockInfo{PID: 1, Host: "elsewhere", Started: time.Now()})
	require.NoError(t, os.WriteFile(filepath.Join(dir, LockFile), data, 0o644))
	_, err := AcquireLock(dir, "new")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "elsewhere")
}

func TestSaveStateKeepsPrevious(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := &State{SchemaVersion: StateSchemaVersion, Iteration: 1, Status: StatusRunning}
	require.NoError(t, SaveState(dir, st))
	st.Iteration = 2
	require.NoError(t, SaveState(dir, st))
	prev, _, err := readStateFile(filepath.Join(dir, StatePrevFile), true)
	require.NoError(t, err)
	assert.Equal(t, 1, prev.Iteration)
	// a torn state.json falls back to the previous copy
	require.NoError(t, os.WriteFile(filepath.Join(dir, StateFile), []byte(`{"schemaVers`), 0o644))
	got, err := LoadState(dir)
	require.NoError(t, err)
	assert.Equal(t, 1, got.Iteration)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), ".tmp-", "no temp files left behind")
	}
}

func BenchmarkSaveState(b *testing.B) {
	dir := b.TempDir()
	st := &State{SchemaVersion: StateSchemaVersion, MentorNotes: []string{"n"}}
	for i := range 10 {
		st.History = append(st.History, Iteration{Iteration: i + 1, Student: &StudentResult{StudentOutput: StudentOutput{Status: "ask_mentor", Problem: "p"}}})
	}
	for b.Loop() {
		if err := SaveState(dir, st); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLockTakesOverReusedPid(t *testing.T) {
	t.Parallel()
	other := exec.Command("sleep", "30")
	require.NoError(t, other.Start())
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	start, ok := processStart(other.Process.Pid)
	require.True(t, ok)
	assert.WithinDuration(t, time.Now(), start, 5*time.Second)

	host, _ := os.Hostname()
	dir := t.TempDir()
	write := func(started time.Time) {
		data, _ := json.Marshal(LockInfo{PID: other.Process.Pid, Host: host, Started: started})
		require.NoError(t, os.WriteFile(filepath.Join(dir, LockFile), data, 0o644))
	}
	write(time.Now()) // the live holder
	_, err := AcquireLock(dir, "new")
	require.Error(t, err, "a live holder keeps its lock")
	write(time.Now().Add(-time.Hour)) // taken long before this process started: pid reused
	l, err := AcquireLock(dir, "new")
	require.NoError(t, err)
	require.NoError(t, l.Release())
}
