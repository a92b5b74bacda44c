package loop_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// TestWrapperAPIFromContainer talks to the wrapper API with curl from inside a real
// learner container, through host.docker.internal, as the wrappers do.
func TestWrapperAPIFromContainer(t *testing.T) {
	image := sandboxtest.RequireImage(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	sb, err := sandbox.New(ctx, sandbox.Options{Image: image, RunID: "api-test", TutorialDir: t.TempDir(),
		WorkDir: filepath.Join(dir, "work"), LogsDir: filepath.Join(dir, "logs")})
	require.NoError(t, err)
	require.NoError(t, sb.Start(ctx))
	t.Cleanup(func() { _ = sb.Close(context.Background(), true) })

	addr, err := sb.HostAddr(ctx)
	require.NoError(t, err)
	srv, err := loop.NewServer(loop.ServerOptions{Addr: addr, RunID: "api-test"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	assert.NotContains(t, srv.Addr(), "0.0.0.0", "never wider than the container needs")
	srv.SetTurn(loop.TurnStudent, 1, &loop.APITask{Prompt: "follow it", Tutorial: "# T", Notes: []string{}, Behavior: config.Default().StudentBehavior})

	curl := func(args string) (string, int) {
		res, err := sb.Exec(ctx, loop.ExecRequest{
			Command: `curl -sS -o /tmp/body -w '%{http_code}' ` + args + ` ; echo; cat /tmp/body`,
			Env:     map[string]string{"SMILE_API": srv.URL(), "SMILE_TOKEN": srv.Token()},
			Timeout: 30 * time.Second,
		})
		require.NoError(t, err)
		require.Equal(t, 0, res.ExitCode, res.Stderr)
		code, body, _ := strings.Cut(res.Stdout, "\n")
		n, err := strconv.Atoi(strings.TrimSpace(code))
		require.NoError(t, err, res.Stdout)
		return body, n
	}

	body, code := curl(`"$SMILE_API/api/status"`)
	assert.Equal(t, 401, code, body)
	body, code = curl(`-H "Authorization: Bearer wrong" "$SMILE_API/api/status"`)
	assert.Equal(t, 401, code, body)

	body, code = curl(`-H "Authorization: Bearer $SMILE_TOKEN" "$SMILE_API/api/status"`)
	require.Equal(t, 200, code, body)
	var st loop.APIStatus
	require.NoError(t, json.Unmarshal([]byte(body), &st))
	assert.Equal(t, loop.TurnStudent, st.Now.Reason)
	assert.Equal(t, 1, st.Iteration)
	require.NotNil(t, st.Task)
	assert.Equal(t, "follow it", st.Task.Prompt)

	got := make(chan json.RawMessage, 1)
	go func() {
		raw, err := srv.StudentResult(ctx, 1)
		assert.NoError(t, err)
		got <- raw
	}()
	post := `-H "Authorization: Bearer $SMILE_TOKEN" --data-binary '{"status":"completed","summary":"ok"}' "$SMILE_API/api/student/result"`
	body, code = curl(post)
	require.Equal(t, 200, code, body)
	select {
	case raw := <-got:
		assert.JSONEq(t, `{"status":"completed","summary":"ok"}`, string(raw))
	case <-ctx.Done():
		t.Fatal("the result never arrived")
	}
	body, code = curl(post)
	assert.Equal(t, 200, code, "a repeated identical post is harmless: %s", body)
	assert.Contains(t, body, `"duplicate":true`)

	_, err = sb.Exec(ctx, loop.ExecRequest{Command: "head -c 2000000 /dev/zero > /tmp/big", Timeout: 30 * time.Second})
	require.NoError(t, err)
	body, code = curl(`-H "Authorization: Bearer $SMILE_TOKEN" --data-binary @/tmp/big "$SMILE_API/api/mentor/result"`)
	assert.Equal(t, 413, code, "a body over the limit is refused: %s", body)
}
