//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/api"
	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/provider"
	"github.com/smile-loop/smile-loop/internal/report"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// anthropicTurn is what the scripted Anthropic model does for one request: answer with
// tool calls (cut off when truncated), or an error status with a body and headers.
type anthropicTurn struct {
	calls     []map[string]any
	truncated bool // stop_reason max_tokens, the last string argument cut in half
	status    int
	body      string
	headers   map[string]string
}

// scriptedAnthropic serves the Messages API: each request gets the next turn of script
// (the last one repeats); it records each request's max_tokens. Usage is 3,000 input
// and 200 output tokens per answer.
func scriptedAnthropic(t *testing.T, script func(n int, maxTokens int, results []string) anthropicTurn) (*httptest.Server, func() []int) {
	var (
		mu     sync.Mutex
		n      int
		limits []int
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			MaxTokens int `json:"max_tokens"`
			Messages  []struct {
				Content []struct {
					Type    string `json:"type"`
					Content string `json:"content"`
				} `json:"content"`
			} `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &req) != nil || r.Header.Get("x-api-key") != "k" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
			return
		}
		var results []string
		for _, m := range req.Messages {
			for _, c := range m.Content {
				if c.Type == "tool_result" {
					results = append(results, c.Content)
				}
			}
		}
		mu.Lock()
		n++
		cur := n
		limits = append(limits, req.MaxTokens)
		mu.Unlock()
		turn := script(cur, req.MaxTokens, results)
		for k, v := range turn.headers {
			w.Header().Set(k, v)
		}
		if turn.status != 0 {
			w.WriteHeader(turn.status)
			_, _ = io.WriteString(w, turn.body)
			return
		}
		var content []any
		for i, c := range turn.calls {
			input := c["input"].(map[string]any)
			if turn.truncated && i == len(turn.calls)-1 {
				cut := map[string]any{}
				for k, v := range input {
					if s, ok := v.(string); ok {
						v = s[:len(s)/2]
					}
					cut[k] = v
				}
				input = cut
			}
			content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", cur, i), "name": c["name"], "input": input})
		}
		stop := "tool_use"
		if turn.truncated {
			stop = "max_tokens"
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": fmt.Sprintf("msg_%d", cur), "type": "message", "role": "assistant",
			"model": "claude-sonnet-5-5", "content": content, "stop_reason": stop,
			"usage": map[string]any{"input_tokens": 3000, "output_tokens": 200}})
	}))
	t.Cleanup(srv.Close)
	return srv, func() []int { mu.Lock(); defer mu.Unlock(); return append([]int(nil), limits...) }
}

func toolCall(name string, kv ...any) map[string]any {
	in := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		in[kv[i].(string)] = kv[i+1]
	}
	return map[string]any{"name": name, "input": in}
}

func nativeConfig() config.Config {
	cfg := config.Default()
	cfg.LLMProvider, cfg.LLMRuntime, cfg.MaxIterations = config.ProviderClaude, config.RuntimeAPI, 2
	return cfg
}

// TestNativeRuntimeTruncatedToolCallIsNotRun: an answer cut off at the output limit
// carries a command and a half-written file; neither reaches the container. The request
// goes again with twice the room, and only the complete answer is acted on.
func TestNativeRuntimeTruncatedToolCallIsNotRun(t *testing.T) {
	sandboxtest.RequireDocker(t)
	e := newLLMEnv(t, "native-truncated", "# Notes\n\nWrite notes.txt with four lines, then show it.\n")
	content := "line one\nline two\nline three\nline four\n"
	model, limits := scriptedAnthropic(t, func(_ int, maxTokens int, results []string) anthropicTurn {
		switch {
		case len(results) == 0 && maxTokens < 2000:
			return anthropicTurn{truncated: true, calls: []map[string]any{
				toolCall("run_command", "command", "touch TRUNCATED-RAN", "step", "Write"),
				toolCall("write_file", "path", "notes.txt", "content", content)}}
		case len(results) == 0:
			return anthropicTurn{calls: []map[string]any{toolCall("write_file", "path", "notes.txt", "content", content)}}
		case len(results) == 1:
			return anthropicTurn{calls: []map[string]any{toolCall("run_command", "command", "ls; cat notes.txt", "step", "Show")}}
		default:
			return anthropicTurn{calls: []map[string]any{toolCall("finish", "summary", "notes written")}}
		}
	})
	opts := api.Options{Client: api.NewAnthropic(model.URL, "k", nil, api.RetryPolicy{}), Standard: "claude-sonnet-5-5", Powerful: "claude-opus-5-5",
		MaxTokens: config.TierTokens{Standard: 1000}}
	st := e.run(t, nativeConfig(), api.NewStudent(opts), api.NewMentor(opts))
	assert.Equal(t, loop.StatusCompleted, st.Status)
	res := st.History[0].Student
	require.NotNil(t, res)
	require.Len(t, res.Commands, 1, "the cut-off run_command never ran")
	out := res.Commands[0].Output
	assert.NotContains(t, out, "TRUNCATED-RAN")
	assert.Contains(t, out, content, "the file holds the complete content")
	assert.Equal(t, []int{1000, 2000, 2000, 2000}, limits())
	require.NotEmpty(t, res.LLMCalls)
	assert.Contains(t, res.LLMCalls[0].Error, "cut off at 1000 output tokens (max_tokens)")
}

// TestNativeRuntimeBudgetExceededEndsTheRun: llm.budget.maxTokens 7,000 at 3,200 tokens
// per call: the third call crosses it, its commands never run, and the run ends as
// budget_exceeded with a report that shows the spend.
func TestNativeRuntimeBudgetExceededEndsTheRun(t *testing.T) {
	sandboxtest.RequireDocker(t)
	e := newLLMEnv(t, "native-budget", "# Loop\n\nRun `echo step` until told otherwise.\n")
	model, _ := scriptedAnthropic(t, func(n int, _ int, _ []string) anthropicTurn {
		return anthropicTurn{calls: []map[string]any{toolCall("run_command", "command", fmt.Sprintf("echo step-%d", n), "step", "Loop")}}
	})
	cfg := nativeConfig()
	cfg.LLM.Budget.MaxTokens = 7000
	opts := api.Options{Client: api.NewAnthropic(model.URL, "k", nil, api.RetryPolicy{}), Standard: "claude-sonnet-5-5", Powerful: "claude-opus-5-5",
		Meter: provider.NewMeter(cfg.LLM.Budget)}
	st := e.run(t, cfg, api.NewStudent(opts), api.NewMentor(opts))
	assert.Equal(t, loop.StatusBudgetExceeded, st.Status)
	require.NotNil(t, st.FinalResult)
	assert.Contains(t, st.FinalResult.Reason, "llm.budget.maxTokens 7000")
	require.Len(t, st.History, 1)
	var ran []string
	for _, c := range st.History[0].Student.Commands {
		ran = append(ran, strings.TrimSpace(c.Output))
	}
	assert.Equal(t, []string{"step-1", "step-2"}, ran, "the crossing call's command never ran")

	r := report.Build(st, e.tut, report.Options{})
	assert.Equal(t, "budget_exceeded", r.Meta.Status)
	assert.False(t, r.Meta.Completed)
	assert.Equal(t, 9000, r.Meta.Tokens.In)
	assert.InDelta(t, 3*(3000*2e-6+200*10e-6), r.Meta.Tokens.CostUSD, 1e-9)
}

// TestNativeRuntimeRetryDelaysAreHonoured: a 429 with retry-after and a 529 overload
// come first; the client waits what the provider asked (recorded by an injected sleeper,
// not slept), then the run completes.
func TestNativeRuntimeRetryDelaysAreHonoured(t *testing.T) {
	sandboxtest.RequireDocker(t)
	e := newLLMEnv(t, "native-retry", "# Hi\n\nRun `echo hi`.\n")
	model, _ := scriptedAnthropic(t, func(n int, _ int, results []string) anthropicTurn {
		switch {
		case n == 1:
			return anthropicTurn{status: http.StatusTooManyRequests, headers: map[string]string{"retry-after": "7", "Content-Type": "application/json"},
				body: `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 30,000 input tokens per minute."},"request_id":"req_1"}`}
		case n == 2:
			return anthropicTurn{status: 529, headers: map[string]string{"Content-Type": "application/json"},
				body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_2"}`}
		case len(results) == 0:
			return anthropicTurn{calls: []map[string]any{toolCall("run_command", "command", "echo hi", "step", "Hi")}}
		default:
			return anthropicTurn{calls: []map[string]any{toolCall("finish", "summary", "said hi")}}
		}
	})
	var (
		mu    sync.Mutex
		waits []time.Duration
	)
	sleep := func(_ context.Context, d time.Duration) error {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, d)
		return nil
	}
	opts := api.Options{Client: api.NewAnthropic(model.URL, "k", nil, api.RetryPolicy{InitialInterval: 3 * time.Second, Sleep: sleep}),
		Standard: "claude-sonnet-5-5", Powerful: "claude-opus-5-5"}
	st := e.run(t, nativeConfig(), api.NewStudent(opts), api.NewMentor(opts))
	assert.Equal(t, loop.StatusCompleted, st.Status)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, waits, 2)
	assert.Equal(t, 7*time.Second, waits[0], "retry-after: 7 was honoured")
	assert.GreaterOrEqual(t, waits[1], 1500*time.Millisecond, "the 529 waited the backoff (3s ± 50%)")
}
