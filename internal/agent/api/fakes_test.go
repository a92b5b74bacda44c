package api

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
)

// view is a provider-neutral reading of a wire request, decoded independently of the
// clients under test (plain maps), for the scripted models.
type view struct {
	System      string
	Texts       []string // every text, in order
	ToolResults []string // every tool result content, in order
	Assistant   int      // assistant turns so far
	Tools       []string
	Model       string
	MaxTokens   int      // the output limit the client asked for
	Reasoning   []string // Responses API: the encrypted reasoning items sent back
	Body        []byte
}

func (v view) has(s string) bool {
	for _, t := range append(append([]string{v.System}, v.Texts...), v.ToolResults...) {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

func (v view) lastResult() string {
	if len(v.ToolResults) == 0 {
		return ""
	}
	return v.ToolResults[len(v.ToolResults)-1]
}

// reply is what a scripted model answers.
type reply struct {
	Text  string
	Calls []call
}

type call struct {
	Name string
	Args map[string]any
}

func tool(name string, kv ...any) call {
	args := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	return call{Name: name, Args: args}
}

type brain func(v view) reply

// modelServer is an httptest server speaking one provider's wire format.
type modelServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []view
	// fail, when set, answers a request with an error status instead (n counts requests).
	fail func(n int, w http.ResponseWriter) bool
	// truncate, when set and true for a request, answers as the provider does when the
	// output limit is hit: its stop word, and the tool calls' arguments cut short.
	truncate func(v view) bool
	// known, when set, lists the models the provider serves; others get its real
	// "model not found" answer.
	known []string
	// usage, when set, replaces the usage the server reports (see fakeUsage).
	usage func(v view) fakeUsage
	// cache, when set, models Anthropic's prompt cache for the usage (cache_test.go).
	cache *promptCache
	sum   fakeUsage // the usage reported so far
}

// totals returns the usage the server reported so far.
func (m *modelServer) totals() fakeUsage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sum
}

// fakeUsage is the token accounting a fake reports for one request.
type fakeUsage struct{ In, CacheRead, CacheWrite, Out int }

func (m *modelServer) views() []view {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]view(nil), m.requests...)
}

func get(m map[string]any, k string) string { s, _ := m[k].(string); return s }
func list(m map[string]any, k string) []any { l, _ := m[k].([]any); return l }
func obj(x any) map[string]any              { o, _ := x.(map[string]any); return o }

func newModelServer(t *testing.T, provider string, b brain) *modelServer {
	t.Helper()
	m := newServer(provider, b)
	t.Cleanup(m.Close)
	return m
}

func newBenchServer(_ *testing.B, b brain) *modelServer { return newServer("anthropic", b) }

func newServer(provider string, b brain) *modelServer {
	m := &modelServer{}
	n := 0
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m.mu.Lock()
		n++
		cur := n
		m.mu.Unlock()
		if m.fail != nil && m.fail(cur, w) {
			return
		}
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"error":{"message":"bad json"}}`, 400)
			return
		}
		var v view
		v.Body = body
		switch provider {
		case "anthropic":
			if r.URL.Path != "/v1/messages" || r.Header.Get("x-api-key") != "test-key" || r.Header.Get("anthropic-version") == "" {
				serveError(w, 401, "anthropic-401.json", nil)
				return
			}
			v = viewAnthropic(req, body)
			v.MaxTokens = int(num(req, "max_tokens"))
		case "openai":
			if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer test-key" {
				serveError(w, 401, "openai-401.json", nil)
				return
			}
			v = viewOpenAI(req, body)
			v.MaxTokens = int(num(req, "max_completion_tokens"))
		case "responses":
			if r.URL.Path != "/v1/responses" || r.Header.Get("Authorization") != "Bearer test-key" {
				serveError(w, 401, "openai-401.json", nil)
				return
			}
			v = viewResponses(req, body)
			v.MaxTokens = int(num(req, "max_output_tokens"))
		case "gemini":
			if !strings.HasPrefix(r.URL.Path, "/v1beta/models/") || !strings.HasSuffix(r.URL.Path, ":generateContent") || r.Header.Get("x-goog-api-key") != "test-key" {
				serveError(w, 400, "gemini-400-api-key-invalid.json", nil)
				return
			}
			v = viewGemini(req, body)
			v.Model = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1beta/models/"), ":generateContent")
			v.MaxTokens = int(num(obj(req["generationConfig"]), "maxOutputTokens"))
		}
		if m.known != nil && !slices.Contains(m.known, v.Model) {
			serveModelNotFound(w, provider, v.Model)
			return
		}
		m.mu.Lock()
		m.requests = append(m.requests, v)
		m.mu.Unlock()
		rep := b(v)
		inTok, outTok := len(body)/4, 20
		u := fakeUsage{In: inTok, Out: outTok}
		if m.usage != nil {
			u = m.usage(v)
		}
		if m.cache != nil && provider == "anthropic" {
			u = m.cache.usage(req)
		}
		m.mu.Lock()
		m.sum.In, m.sum.CacheRead, m.sum.CacheWrite, m.sum.Out = m.sum.In+u.In, m.sum.CacheRead+u.CacheRead, m.sum.CacheWrite+u.CacheWrite, m.sum.Out+u.Out
		m.mu.Unlock()
		cut := m.truncate != nil && m.truncate(v)
		if cut {
			rep = truncateReply(rep)
		}
		w.Header().Set("Content-Type", "application/json")
		switch provider {
		case "anthropic":
			var content []any
			if rep.Text != "" {
				content = append(content, map[string]any{"type": "text", "text": rep.Text})
			}
			stop := "end_turn"
			for i, c := range rep.Calls {
				content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", cur, i), "name": c.Name, "input": c.Args})
				stop = "tool_use"
			}
			if cut {
				stop = "max_tokens"
			}
			// usage.input_tokens excludes the cached part (docs.claude.com prompt caching)
			_ = json.NewEncoder(w).Encode(map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": v.Model,
				"content": content, "stop_reason": stop, "usage": map[string]any{"input_tokens": u.In - u.CacheRead - u.CacheWrite,
					"cache_read_input_tokens": u.CacheRead, "cache_creation_input_tokens": u.CacheWrite, "output_tokens": u.Out}})
		case "openai":
			msg := map[string]any{"role": "assistant", "content": nil}
			if rep.Text != "" {
				msg["content"] = rep.Text
			}
			finish := "stop"
			var tcs []any
			for i, c := range rep.Calls {
				args, _ := json.Marshal(c.Args)
				if cut { // arguments arrive as a string cut mid-way
					args = args[:len(args)/2]
				}
				tcs = append(tcs, map[string]any{"id": fmt.Sprintf("call_%d_%d", cur, i), "type": "function", "function": map[string]any{"name": c.Name, "arguments": string(args)}})
				finish = "tool_calls"
			}
			if cut {
				finish = "length"
			}
			if tcs != nil {
				msg["tool_calls"] = tcs
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "model": v.Model,
				"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
				"usage": map[string]any{"prompt_tokens": u.In, "completion_tokens": u.Out, "total_tokens": u.In + u.Out,
					"prompt_tokens_details": map[string]any{"cached_tokens": u.CacheRead}}})
		case "responses":
			output := []any{map[string]any{"type": "reasoning", "id": fmt.Sprintf("rs_%d", cur), "summary": []any{},
				"encrypted_content": fmt.Sprintf("gAAAA-reasoning-%d", cur)}}
			for i, c := range rep.Calls {
				args, _ := json.Marshal(c.Args)
				if cut {
					args = args[:len(args)/2]
				}
				output = append(output, map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d_%d", cur, i),
					"call_id": fmt.Sprintf("call_%d_%d", cur, i), "name": c.Name, "arguments": string(args), "status": "completed"})
			}
			if rep.Text != "" {
				output = append(output, map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", cur), "role": "assistant", "status": "completed",
					"content": []any{map[string]any{"type": "output_text", "text": rep.Text, "annotations": []any{}}}})
			}
			status, details := "completed", any(nil)
			if cut {
				status, details = "incomplete", map[string]any{"reason": "max_output_tokens"}
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"id": fmt.Sprintf("resp_%d", cur), "object": "response", "model": v.Model,
				"status": status, "incomplete_details": details, "output": output,
				"usage": map[string]any{"input_tokens": u.In, "input_tokens_details": map[string]any{"cached_tokens": u.CacheRead},
					"output_tokens": u.Out, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": u.In + u.Out}})
		case "gemini":
			var parts []any
			if rep.Text != "" {
				parts = append(parts, map[string]any{"text": rep.Text})
			}
			for _, c := range rep.Calls {
				parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": c.Args}})
			}
			finish := "STOP"
			if cut {
				finish = "MAX_TOKENS"
			}
			_ = json.NewEncoder(w).Encode(map[string]any{
				"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": finish, "index": 0}},
				"usageMetadata": map[string]any{"promptTokenCount": u.In, "cachedContentTokenCount": u.CacheRead,
					"candidatesTokenCount": u.Out, "totalTokenCount": u.In + u.Out},
				"modelVersion": v.Model})
		}
	}))
	return m
}

// clientFor returns the client under test for a provider's fake server.
func clientFor(provider, url string, retry RetryPolicy) Client {
	switch provider {
	case "anthropic":
		return NewAnthropic(url, "test-key", nil, retry)
	case "openai":
		return NewOpenAI(url+"/v1", "test-key", nil, retry)
	case "responses":
		return NewOpenAI(url+"/v1", "test-key", nil, retry).WithAPI(APIResponses)
	default:
		return NewGemini(url, "test-key", nil, retry)
	}
}

// providers are the wire formats under test; "responses" is OpenAI's Responses API.
var providers = []string{"anthropic", "openai", "responses", "gemini"}

// studentTask is a first-iteration task over a fresh host sandbox.
func studentTask(t *testing.T) loop.StudentTask {
	return loop.StudentTask{Iteration: 1, Prompt: "p", Behavior: behavior(), Sandbox: looptest.NewHostSandbox(t)}
}
