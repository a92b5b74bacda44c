//go:build e2e

package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

type sandboxEnv struct {
	d          *sandbox.Docker
	work, logs string
	runID      string
}

// startSandbox starts a learner container on the real engine; it is closed (as a
// success) at cleanup unless the test closed it.
func startSandbox(t *testing.T, mutate func(*sandbox.Options)) *sandboxEnv {
	t.Helper()
	image := sandboxtest.RequireImage(t)
	root := t.TempDir()
	e := &sandboxEnv{work: filepath.Join(root, "work"), logs: filepath.Join(root, "logs"),
		runID: "e2e-" + strings.ToLower(strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()))}
	require.NoError(t, os.MkdirAll(filepath.Join(root, "tutorial"), 0o755))
	o := sandbox.Options{Image: image, RunID: e.runID, TutorialDir: filepath.Join(root, "tutorial"),
		WorkDir: e.work, LogsDir: e.logs, Memory: "512m", CPUs: 1}
	if mutate != nil {
		mutate(&o)
	}
	ctx := context.Background()
	d, err := sandbox.New(ctx, o)
	require.NoError(t, err)
	require.NoError(t, d.Start(ctx))
	e.d = d
	t.Cleanup(func() { _ = d.Close(context.Background(), true) })
	return e
}

func (e *sandboxEnv) exec(t *testing.T, cmd string, timeout time.Duration) loop.ExecResult {
	t.Helper()
	res, err := e.d.Exec(context.Background(), loop.ExecRequest{Command: cmd, Timeout: timeout})
	require.NoError(t, err)
	return res
}

func dockerPS(t *testing.T, filter string) []string {
	t.Helper()
	out, err := exec.Command("docker", "ps", "-aq", "--no-trunc", "--filter", filter).Output()
	require.NoError(t, err)
	return strings.Fields(string(out))
}

func TestSandboxRunawayCommandsEndTheStepNotTheMachine(t *testing.T) {
	e := startSandbox(t, func(o *sandbox.Options) { o.PidsLimit = 64; o.Memory = "64m" })

	t.Run("memory hog", func(t *testing.T) {
		res := e.exec(t, "head -c 400m /dev/zero | tail >/dev/null", 60*time.Second)
		assert.NotEqual(t, 0, res.ExitCode, "the OOM killer ends the command")
		assert.False(t, res.TimedOut)
		assert.Equal(t, "alive\n", e.exec(t, "echo alive", 30*time.Second).Stdout)
	})
	t.Run("fork bomb", func(t *testing.T) {
		start := time.Now()
		res := e.exec(t, `bomb() { bomb | bomb & }; bomb; sleep 600`, 3*time.Second)
		assert.True(t, res.TimedOut)
		assert.Less(t, time.Since(start), 60*time.Second)
		assert.Equal(t, "alive\n", e.exec(t, "echo alive", 30*time.Second).Stdout)
		ps := e.exec(t, "ps -eo args", 30*time.Second).Stdout
		assert.NotContains(t, ps, "bomb", "no process of the bomb survives")
	})
}

func TestSandboxDiskFullIsDiskError(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tiny tmpfs needs root")
	}
	small := filepath.Join(t.TempDir(), "small")
	require.NoError(t, os.MkdirAll(small, 0o755))
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", small).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", small).Run() })
	e := startSandbox(t, func(o *sandbox.Options) { o.WorkDir = small })
	err := e.d.WriteFile(context.Background(), "big.bin", make([]byte, 1<<20), 0o644)
	var de *sandbox.DiskError
	require.True(t, errors.As(err, &de), "%v", err)
	assert.Contains(t, err.Error(), "disk full")
	assert.Contains(t, err.Error(), "docker system prune")
}

func TestSandboxClosePolicy(t *testing.T) {
	tests := []struct {
		name                  string
		succeeded             bool
		keepFail, keepSuccess bool
		kept                  bool
	}{
		{name: "failure kept by default", succeeded: false, keepFail: true, kept: true},
		{name: "failure removed", succeeded: false, keepFail: false, kept: false},
		{name: "success removed by default", succeeded: true, kept: false},
		{name: "success kept", succeeded: true, keepSuccess: true, kept: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := startSandbox(t, func(o *sandbox.Options) {
				o.KeepOnFailure, o.KeepOnSuccess, o.ResetStrategy = tt.keepFail, tt.keepSuccess, sandbox.ResetSpare
			})
			e.exec(t, "echo result >/workspace/work/out.txt; echo log >/workspace/logs/l.txt", 30*time.Second)
			id := e.d.ContainerID()
			require.NoError(t, e.d.Close(context.Background(), tt.succeeded))
			left := dockerPS(t, "label="+sandbox.LabelRun+"="+e.runID)
			if tt.kept {
				t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", id).Run() })
				assert.Equal(t, []string{id}, left, "only the learner container is kept, never the spare")
			} else {
				assert.Empty(t, left)
			}
			for _, f := range []string{filepath.Join(e.work, "out.txt"), filepath.Join(e.logs, sandbox.LearnerLogs, "l.txt")} {
				_, err := os.Stat(f)
				assert.NoError(t, err, "mounted directories persist")
			}
		})
	}
}

// The capabilities kept (sandbox.Capabilities) are enough for root in the learner to
// install Debian packages, with and without sudo, which is what tutorials ask for.
func TestSandboxAptGetInstallsAsRoot(t *testing.T) {
	e := startSandbox(t, nil)
	if res := e.exec(t, "curl -sS -o /dev/null --max-time 10 http://deb.debian.org/debian/dists/bookworm/Release", 30*time.Second); res.ExitCode != 0 {
		t.Skipf("deb.debian.org unreachable from the container: %s", res.Stderr)
	}
	res := e.exec(t, "apt-get update -qq && apt-get install -y -qq --no-install-recommends jq >/dev/null && "+
		"sudo apt-get install -y -qq --no-install-recommends tree >/dev/null && jq --version && tree --version | cut -c1-4", 5*time.Minute)
	require.Equal(t, 0, res.ExitCode, res.Stdout+res.Stderr)
	assert.Equal(t, "jq-1.6\ntree\n", res.Stdout)
	assert.NotContains(t, res.Stderr, "Operation not permitted")
}
