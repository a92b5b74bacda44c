// Package looptest holds the test doubles every agent's tests share: a loop.Sandbox
// over a directory on the host and a recorder of events. The real engine runs in the
// sandbox package's and the e2e tests.
package looptest

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// HostSandbox is a loop.Sandbox on the host. Absolute container paths live under Root
// (/workspace/work is Root/workspace/work, the commands' directory); a relative path is
// relative to the work directory. Commands run with bash and see container paths
// rewritten to host paths; each request is kept (Requests).
type HostSandbox struct {
	Root string

	mu   sync.Mutex
	reqs []loop.ExecRequest
}

var _ loop.Sandbox = (*HostSandbox)(nil)

// NewHostSandbox is a HostSandbox over a fresh temporary directory, with the work and
// tutorial mounts created.
func NewHostSandbox(t testing.TB) *HostSandbox {
	t.Helper()
	h := &HostSandbox{Root: t.TempDir()}
	for _, d := range []string{loop.WorkMount, loop.TutorialMount} {
		if err := os.MkdirAll(h.Path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// Path is the host path of container path p.
func (h *HostSandbox) Path(p string) string {
	if !filepath.IsAbs(p) {
		return filepath.Join(h.WorkDir(), p)
	}
	return filepath.Join(h.Root, p)
}

// WorkDir is the host directory of /workspace/work.
func (h *HostSandbox) WorkDir() string { return filepath.Join(h.Root, loop.WorkMount) }

// Requests are the commands run so far.
func (h *HostSandbox) Requests() []loop.ExecRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]loop.ExecRequest(nil), h.reqs...)
}

func (h *HostSandbox) rewrite(s string) string {
	return strings.NewReplacer("/workspace/", h.Root+"/workspace/", "/tmp/smile", h.Root+"/tmp/smile").Replace(s)
}

// Start does nothing: the directory is there.
func (h *HostSandbox) Start(context.Context) error { return nil }

// Exec runs req.Command with bash in the work directory. As the real sandbox
// (sandbox.Docker.Exec): a command past req.Timeout is killed and reported as timed out
// (exit 124); a cancelled ctx kills it and returns ctx.Err().
func (h *HostSandbox) Exec(ctx context.Context, req loop.ExecRequest) (loop.ExecResult, error) {
	h.mu.Lock()
	h.reqs = append(h.reqs, req)
	h.mu.Unlock()
	run := ctx
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		run, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(run, "bash", "-c", h.rewrite(req.Command))
	cmd.Dir = h.WorkDir()
	cmd.Stdin = bytes.NewReader(req.Stdin)
	cmd.Env = append(os.Environ(), "TMPDIR="+h.Root)
	for k, v := range req.Env {
		cmd.Env = append(cmd.Env, k+"="+h.rewrite(v))
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	res := loop.ExecResult{Stdout: out.String(), Stderr: errb.String(), Duration: time.Since(start)}
	if ctx.Err() != nil {
		return res, ctx.Err() // the caller gave up, as the real sandbox reports it
	}
	if run.Err() != nil {
		res.TimedOut, res.ExitCode = true, 124
		return res, nil
	}
	if ee, ok := err.(*exec.ExitError); ok {
		res.ExitCode = ee.ExitCode()
	} else if err != nil {
		return res, err
	}
	return res, nil
}

// WriteFile writes a file at container path p. The real sandbox copies it in whole
// (a tar stream to the Docker Engine), so nothing can run it half-written; here the
// write holds syscall.ForkLock, so that no command a parallel test starts is forked
// while the file is open for writing, which would make running it fail with "Text file
// busy" (ETXTBSY, golang/go#22315).
func (h *HostSandbox) WriteFile(_ context.Context, p string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(h.Path(p)), 0o755); err != nil {
		return err
	}
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	return os.WriteFile(h.Path(p), data, mode)
}

// ReadFile reads at most limit bytes of the file at container path p.
func (h *HostSandbox) ReadFile(_ context.Context, p string, limit int64) ([]byte, error) {
	f, err := os.Open(h.Path(p))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// Reset does nothing: tests that need a clean directory take a new sandbox.
func (h *HostSandbox) Reset(context.Context) error { return nil }

// HostAddr is the loopback address.
func (h *HostSandbox) HostAddr(context.Context) (string, error) { return "127.0.0.1", nil }

// Close does nothing.
func (h *HostSandbox) Close(context.Context, bool) error { return nil }

// Recorder is a loop.Emitter that keeps every event, safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	events []loop.Event
}

var _ loop.Emitter = (*Recorder)(nil)

// Emit keeps e.
func (r *Recorder) Emit(e loop.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// Events are the events so far, in order.
func (r *Recorder) Events() []loop.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]loop.Event(nil), r.events...)
}

// Types are the events' types, in order.
func (r *Recorder) Types() []loop.EventType {
	var out []loop.EventType
	for _, e := range r.Events() {
		out = append(out, e.Type)
	}
	return out
}
