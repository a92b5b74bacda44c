package loop_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// A tutorial's process in the learner container, as the wrapper's own user and as root,
// cannot read the turn's token from the running wrapper: it is not in the environment,
// and the wrapper is non-dumpable (no /proc/PID/{environ,fd,mem} without
// CAP_SYS_PTRACE). A control process shows the same reads work on an ordinary process.
func TestWrapperTokenHiddenFromTutorialProcesses(t *testing.T) {
	image := sandboxtest.RequireImage(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "smile-wrapper")
	build := exec.Command("go", "build", "-o", bin, "../../wrappers/smile-wrapper")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	data, err := os.ReadFile(bin)
	require.NoError(t, err)

	dir := t.TempDir()
	sb, err := sandbox.New(ctx, sandbox.Options{Image: image, RunID: "api-hidden", TutorialDir: t.TempDir(),
		WorkDir: filepath.Join(dir, "work"), LogsDir: filepath.Join(dir, "logs"), ResetStrategy: sandbox.ResetRecreate})
	require.NoError(t, err)
	require.NoError(t, sb.Start(ctx))
	t.Cleanup(func() { _ = sb.Close(context.Background(), true) })
	require.NoError(t, sb.WriteFile(ctx, "/usr/local/bin/smile-wrapper", data, 0o755))
	addr, err := sb.HostAddr(ctx)
	require.NoError(t, err)
	srv, err := loop.NewServer(loop.ServerOptions{Addr: addr, RunID: "api-hidden"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	// The Mentor's turn: a Student wrapper waits (polls) for its own turn meanwhile.
	srv.SetTurn(loop.TurnMentor, 1, &loop.APITask{Prompt: "m"})
	token := srv.Token()

	done := make(chan loop.ExecResult, 1)
	go func() {
		res, _ := sb.Exec(ctx, loop.ExecRequest{
			Command: "exec smile-wrapper student",
			Env:     map[string]string{"SMILE_API_URL": srv.URL(), "SMILE_PROVIDER": "claude", "SMILE_TOKEN_STDIN": "1"},
			Stdin:   []byte(token + "\n"),
			User:    "1000",
			Timeout: 2 * time.Minute,
		})
		done <- res
	}()
	control, err := sb.Exec(ctx, loop.ExecRequest{Command: "(env CONTROL_SECRET=visible-to-same-user sleep 120 >/dev/null 2>&1 &)", User: "1000", Timeout: 10 * time.Second})
	require.NoError(t, err)
	require.Equal(t, 0, control.ExitCode)

	attack := `for i in $(seq 50); do p=$(pgrep -f '^smile-wrapper student' | head -n1); [ -n "$p" ] && break; sleep 0.2; done
echo "wrapper pid=$p"
c=$(pgrep -f '^sleep 120' | head -n1)
tr '\0' '\n' </proc/$c/environ | grep CONTROL_SECRET
for f in environ cmdline fd/0 fd/1 fd/2; do cat /proc/$p/$f 2>&1 | tr '\0' ' '; echo; done
head -c 65536 /proc/$p/mem 2>&1 | head -c 200; echo
ls -l /proc/$p/fd/ 2>&1`
	for _, user := range []string{"1000", "0"} {
		res, err := sb.Exec(ctx, loop.ExecRequest{Command: attack, User: user, Timeout: 30 * time.Second})
		require.NoError(t, err)
		all := res.Stdout + res.Stderr
		assert.Contains(t, all, "wrapper pid=", user)
		assert.NotContains(t, all, "wrapper pid=\n", "the wrapper is running")
		if user == "1000" {
			assert.Contains(t, all, "CONTROL_SECRET=visible-to-same-user", "the reads work on an ordinary process of the same user")
		}
		assert.NotContains(t, all, token, "user %s read the wrapper's token", user)
		assert.Contains(t, all, "Permission denied", user)
	}

	// The wrapper was still polling GET /api/status with the token it read from stdin
	// (a refused token ends it at once). When the turn ends, its token stops working.
	select {
	case res := <-done:
		t.Fatalf("the wrapper ended early: %s", res.Stderr)
	default:
	}
	srv.SetTurn(loop.TurnDone, 1, nil)
	select {
	case res := <-done:
		assert.Contains(t, res.Stderr, "401", "a turn's token dies with its turn")
	case <-ctx.Done():
		t.Fatal("the wrapper did not end")
	}
}
