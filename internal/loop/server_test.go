package loop

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
)

func newTestServer(t *testing.T, onStop func()) (*Server, string) {
	t.Helper()
	s, err := NewServer(ServerOptions{Addr: "127.0.0.1", RunID: "run-1", OnStop: onStop, MaxBody: 1024})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, "http://" + s.Addr()
}

func call(t *testing.T, method, url, token, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return resp.StatusCode, out
}

func TestServerRefusesWideAddresses(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0", "0.0.0.0:0", "[::]:0", ""} {
		_, err := NewServer(ServerOptions{Addr: addr})
		assert.Error(t, err, addr)
	}
}

func TestServerAPI(t *testing.T) {
	t.Parallel()
	var stops atomic.Int32
	s, base := newTestServer(t, func() { stops.Add(1) })
	assert.Regexp(t, `^http://host\.docker\.internal:\d+$`, s.URL())
	assert.Len(t, s.Token(), 64)

	t.Run("token required", func(t *testing.T) {
		for _, tok := range []string{"", "wrong", s.Token() + "x"} {
			code, _ := call(t, "GET", base+"/api/status", tok, "")
			assert.Equal(t, http.StatusUnauthorized, code)
		}
	})

	code, body := call(t, "GET", base+"/api/status", s.Token(), "")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, map[string]any{"reason": "waiting"}, body["now"])
	assert.Nil(t, body["task"])

	s.SetTurn(TurnStudent, 1, &APITask{Prompt: "p", Tutorial: "# t", Notes: []string{"n"}, Behavior: config.Default().StudentBehavior})
	code, body = call(t, "GET", base+"/api/status", s.Token(), "")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, "student_turn", body["now"].(map[string]any)["reason"])
	assert.EqualValues(t, 1, body["iteration"])
	task := body["task"].(map[string]any)
	assert.Equal(t, "p", task["prompt"])
	assert.Equal(t, "# t", task["tutorial"])
	assert.Equal(t, []any{"n"}, task["notes"])
	assert.Equal(t, "low", task["behavior"].(map[string]any)["patienceLevel"])

	code, _ = call(t, "POST", base+"/api/mentor/result", s.Token(), "note")
	assert.Equal(t, http.StatusConflict, code, "not the mentor's turn")
	code, _ = call(t, "POST", base+"/api/student/result", s.Token(), strings.Repeat("x", 2000))
	assert.Equal(t, http.StatusRequestEntityTooLarge, code)
	code, _ = call(t, "POST", base+"/api/student/result", s.Token(), "")
	assert.Equal(t, http.StatusBadRequest, code)

	got := make(chan json.RawMessage, 1)
	go func() {
		raw, err := s.StudentResult(context.Background(), 1)
		assert.NoError(t, err)
		got <- raw
	}()
	result := `{"status":"completed"}`
	code, body = call(t, "POST", base+"/api/student/result", s.Token(), result)
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, true, body["ok"])
	select {
	case raw := <-got:
		assert.JSONEq(t, result, string(raw))
	case <-time.After(5 * time.Second):
		t.Fatal("StudentResult did not return")
	}
	code, body = call(t, "POST", base+"/api/student/result", s.Token(), result)
	assert.Equal(t, http.StatusOK, code, "a repeated identical post is harmless")
	assert.Equal(t, true, body["duplicate"])
	code, _ = call(t, "POST", base+"/api/student/result", s.Token(), `{"status":"ask_mentor"}`)
	assert.Equal(t, http.StatusConflict, code, "a different second result is refused")
	raw, err := s.StudentResult(context.Background(), 1)
	require.NoError(t, err)
	assert.JSONEq(t, result, string(raw), "the first result stays")

	s.SetTurn(TurnMentor, 1, &APITask{Prompt: "mentor prompt"})
	code, _ = call(t, "POST", base+"/api/mentor/result?iteration=1", s.Token(), "install node first")
	require.Equal(t, http.StatusOK, code)
	raw, err = s.MentorResult(context.Background(), 1)
	require.NoError(t, err)
	assert.Equal(t, "install node first", string(raw))

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = s.StudentResult(ctx, 2)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "a wrapper that never calls back (7.E1)")

	for range 2 {
		code, _ = call(t, "POST", base+"/api/stop", s.Token(), "")
		assert.Equal(t, http.StatusOK, code)
	}
	assert.Equal(t, int32(1), stops.Load())
}

// TestRunServesTheAPI drives a whole run through the wrapper API, as a wrapper would.
func TestRunServesTheAPI(t *testing.T) {
	t.Parallel()
	student := &fakeStudent{attempt: func(ctx context.Context, task StudentTask) (StudentResult, error) {
		require.NotNil(t, task.Callback)
		url := strings.Replace(task.Callback.URL(), "host.docker.internal", "127.0.0.1", 1)
		code, body := call(t, "GET", url+"/api/status", task.Callback.Token(), "")
		require.Equal(t, http.StatusOK, code)
		assert.Equal(t, "student_turn", body["now"].(map[string]any)["reason"])
		assert.Contains(t, body["task"].(map[string]any)["prompt"], "[Instruction]")
		go call(t, "POST", url+"/api/student/result", task.Callback.Token(), "```json\n{\"status\": \"completed\", \"summary\": \"ok\"}\n```")
		raw, err := task.Callback.StudentResult(ctx, task.Iteration)
		if err != nil {
			return StudentResult{}, err
		}
		out, err := ParseStudentOutput(string(raw))
		require.NoError(t, err)
		return StudentResult{StudentOutput: out}, nil
	}}
	o, _, _ := baseOptions(t, student, &fakeMentor{})
	o.ServeAPI = true
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, StatusCompleted, st.Status)
}

func TestRunStopThroughAPI(t *testing.T) {
	t.Parallel()
	student := &fakeStudent{attempt: func(ctx context.Context, task StudentTask) (StudentResult, error) {
		url := strings.Replace(task.Callback.URL(), "host.docker.internal", "127.0.0.1", 1)
		code, _ := call(t, "POST", url+"/api/stop", task.Callback.Token(), "")
		assert.Equal(t, http.StatusOK, code)
		_, err := task.Callback.StudentResult(ctx, task.Iteration)
		return StudentResult{}, err
	}}
	o, _, _ := baseOptions(t, student, &fakeMentor{})
	o.ServeAPI = true
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, StatusCancelled, st.Status)
	assert.Contains(t, st.FinalResult.Reason, "/api/stop")
}
