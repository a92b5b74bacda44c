package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// largeLogState: n commands whose saved full outputs are 4 MiB each under logs.
func largeLogState(t testing.TB, logs string, n int) *loop.State {
	st := baseState("testdata/tutorial.md", loop.StatusCompleted)
	line := strings.Repeat("x", 63) + "\n"
	chunk := []byte(strings.Repeat(line, (4<<20)/len(line)-16)) // 4 MiB with the end line
	res := &loop.StudentResult{StudentOutput: loop.StudentOutput{Status: loop.StudentCompleted}}
	for i := range n {
		p := filepath.Join(logs, fmt.Sprintf("run-%04d.log", i))
		require.NoError(t, os.WriteFile(p, append(chunk, fmt.Sprintf("END OF OUTPUT %d %s\n", i, canary)...), 0o600))
		res.Commands = append(res.Commands, loop.CommandRecord{Iteration: 1, Command: fmt.Sprintf("make step-%d", i), Output: "…tail", OutputPath: p})
	}
	st.History = []loop.Iteration{{Iteration: 1, Started: at(0), Ended: at(60), Student: res}}
	return st
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// sampler is a file writer that records the live heap (after a collection) every 4 MiB
// written: what the audit log holds in memory while it is written.
type sampler struct {
	w          io.Writer
	written    int64
	next, peak uint64
}

func (s *sampler) Write(p []byte) (int, error) {
	s.written += int64(len(p))
	if uint64(s.written) >= s.next {
		s.next += 4 << 20
		s.peak = max(s.peak, liveHeap())
	}
	return s.w.Write(p)
}

// The audit log of a long run (18 commands of 4 MiB saved output: more than its 64 MiB
// quota of full outputs) is streamed to its file: the live heap while it is written stays
// far below the log's size (it holds one command's output at a time; the log built in
// memory held all of it, 75 MiB live for 64 MiB of outputs), the full outputs are in the
// file, masked, and the commands past the quota say where their output stays.
func TestAuditLogIsStreamedWithBoundedMemory(t *testing.T) {
	logs := t.TempDir()
	r := Build(largeLogState(t, logs, 18), nil, Options{LogsDir: logs, Now: fixedNow, Secrets: []string{canary}})
	f, err := os.Create(filepath.Join(t.TempDir(), AuditFile))
	require.NoError(t, err)
	defer f.Close()
	base := liveHeap()
	s := &sampler{w: f, next: 4 << 20}
	require.NoError(t, WriteAuditLog(s, r))
	peak := s.peak - min(s.peak, base)
	t.Logf("audit log %d MiB written; live heap above the report while writing: %d MiB at most", s.written>>20, peak>>20)
	require.Greater(t, s.written, int64(maxAuditOutputs), "the log holds the 64 MiB of outputs")
	assert.Less(t, peak, uint64(s.written)/2, "the log is not held in memory while written")

	data, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	log := string(data)
	for i := range 16 {
		assert.True(t, strings.Contains(log, fmt.Sprintf("END OF OUTPUT %d ***", i)), "output %d is in the log, masked", i)
	}
	assert.False(t, strings.Contains(log, canary))
	assert.False(t, strings.Contains(log, "END OF OUTPUT 16"), "the 17th output is cut at the quota")
	assert.True(t, strings.Contains(log, "bytes: the audit log keeps at most 8 MiB per command and 64 MiB in all; the whole output is in run-0016.log]"))
	assert.Contains(t, log[len(log)-2000:], "the audit log already holds 64 MiB of full outputs, its quota; this command's full output stays in run-0017.log")
}

// BenchmarkWriteAuditLog streams the audit log of 16 commands with 4 MiB saved outputs
// each (64 MiB) to a file; B/op is what it allocates (one output's buffer is reused).
func BenchmarkWriteAuditLog(b *testing.B) {
	logs := b.TempDir()
	r := Build(largeLogState(b, logs, 16), nil, Options{LogsDir: logs, Now: fixedNow, Secrets: []string{canary}})
	path := filepath.Join(b.TempDir(), AuditFile)
	b.ReportAllocs()
	for b.Loop() {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteAuditLog(f, r); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
