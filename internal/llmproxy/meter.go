package llmproxy

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// The key proxy sees every request the CLI makes, so it keeps llm.budget for the cli
// runtime: it reads the usage of each answer (JSON or server-sent events) into the run's
// meter, and once the budget is spent it refuses further calls with an error the CLI
// does not retry. The usage shapes, per provider:
//   - Anthropic Messages: usage{input_tokens, cache_read_input_tokens,
//     cache_creation_input_tokens, output_tokens}; streamed, message_start carries the
//     input side and each message_delta the output so far
//     (docs.claude.com/en/docs/build-with-claude/streaming).
//   - OpenAI Responses (codex): response.completed carries response.usage{input_tokens,
//     input_tokens_details.cached_tokens, output_tokens}; Chat Completions: usage{
//     prompt_tokens, prompt_tokens_details.cached_tokens, completion_tokens}.
//   - Gemini: every chunk's usageMetadata{promptTokenCount, cachedContentTokenCount,
//     candidatesTokenCount, thoughtsTokenCount}, the last one complete.

// overBudget answers a call made after the budget was spent, in the provider's error
// format and with a status its CLI does not retry (claude and gemini stop on 403; codex
// stops on 429 insufficient_quota).
func (p *Proxy) overBudget(w http.ResponseWriter, err error) {
	p.opts.Logger.Warn("llm proxy: refused a call past the run's budget", "err", err)
	msg, _ := json.Marshal("smile-loop llm proxy: " + err.Error())
	w.Header().Set("Content-Type", "application/json")
	switch p.opts.Provider {
	case config.ProviderCodex:
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"message":` + string(msg) + `,"type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`))
	case config.ProviderGemini:
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"error":{"code":403,"message":` + string(msg) + `,"status":"PERMISSION_DENIED"}}`))
	default:
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"type":"error","error":{"type":"permission_error","message":` + string(msg) + `}}`))
	}
}

// requestModel reads the model a request names: the body's "model", or Gemini's path
// (/v1beta/models/{model}:generateContent).
func requestModel(r *http.Request) string {
	if i := strings.Index(r.URL.Path, "/models/"); i >= 0 {
		m := r.URL.Path[i+len("/models/"):]
		if j := strings.IndexByte(m, ':'); j >= 0 {
			return m[:j]
		}
	}
	if r.Body == nil {
		return ""
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20)) // a short read forwards what was read
	_ = r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	var v struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(body, &v)
	return v.Model
}

// usageTap reads an answer as it streams to the CLI and adds its usage to the meter
// when the body ends.
type usageTap struct {
	io.ReadCloser
	provider string
	meter    *provider.Meter
	model    string // from the request; the answer's own model name wins
	line     []byte
	once     sync.Once
	// usage seen so far; for OpenAI and Gemini in includes the cached part, for
	// Anthropic it does not
	in, cacheRead, cacheWrite, out int
}

const maxTapLine = 4 << 20

func (t *usageTap) Read(b []byte) (int, error) {
	n, err := t.ReadCloser.Read(b)
	for _, c := range b[:n] {
		if c == '\n' {
			t.scan(t.line)
			t.line = t.line[:0]
			continue
		}
		if len(t.line) < maxTapLine {
			t.line = append(t.line, c)
		}
	}
	if err == io.EOF {
		t.finish()
	}
	return n, err
}

func (t *usageTap) Close() error {
	t.finish()
	return t.ReadCloser.Close()
}

// finish adds the answer's usage to the meter, once.
func (t *usageTap) finish() {
	t.once.Do(func() {
		t.scan(t.line)
		u := provider.Usage{Input: t.in, CachedRead: t.cacheRead, CacheWrite: t.cacheWrite, Output: t.out}
		if t.provider == config.ProviderClaude {
			u.Input = t.in + t.cacheRead + t.cacheWrite
		}
		if u.Input+u.Output > 0 {
			_, _ = t.meter.Add(t.model, u)
		}
	})
}

// usageDoc is the union of the usage shapes above.
type usageDoc struct {
	Model    string     `json:"model"`
	Usage    *usageBody `json:"usage"`
	Message  *usageDoc  `json:"message"`  // Anthropic message_start
	Response *usageDoc  `json:"response"` // OpenAI response.completed
	Gemini   *struct {
		Prompt   int `json:"promptTokenCount"`
		Cached   int `json:"cachedContentTokenCount"`
		Output   int `json:"candidatesTokenCount"`
		Thoughts int `json:"thoughtsTokenCount"`
	} `json:"usageMetadata"`
	ModelVersion string `json:"modelVersion"`
}

type cachedDetail struct {
	CachedTokens int `json:"cached_tokens"`
}

type usageBody struct {
	InputTokens         int          `json:"input_tokens"`
	CacheRead           int          `json:"cache_read_input_tokens"`
	CacheWrite          int          `json:"cache_creation_input_tokens"`
	OutputTokens        int          `json:"output_tokens"`
	InputTokensDetails  cachedDetail `json:"input_tokens_details"`
	PromptTokens        int          `json:"prompt_tokens"`
	CompletionTokens    int          `json:"completion_tokens"`
	PromptTokensDetails cachedDetail `json:"prompt_tokens_details"`
}

// scan reads one line of an answer: a whole JSON body or an SSE "data:" line.
func (t *usageTap) scan(line []byte) {
	line = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(line), []byte("data:")))
	if len(line) == 0 || line[0] != '{' || !bytes.Contains(line, []byte(`sage`)) {
		return
	}
	var d usageDoc
	if json.Unmarshal(line, &d) != nil {
		return
	}
	for _, x := range []*usageDoc{&d, d.Message, d.Response} {
		if x != nil {
			t.take(x)
		}
	}
	if g := d.Gemini; g != nil {
		t.in, t.cacheRead, t.out = g.Prompt, g.Cached, g.Output+g.Thoughts // thinking is billed as output
	}
	if d.ModelVersion != "" {
		t.model = d.ModelVersion
	}
}

func (t *usageTap) take(d *usageDoc) {
	if d.Model != "" {
		t.model = d.Model
	}
	u := d.Usage
	if u == nil {
		return
	}
	switch t.provider {
	case config.ProviderClaude:
		if u.InputTokens > 0 || u.CacheRead > 0 || u.CacheWrite > 0 {
			t.in, t.cacheRead, t.cacheWrite = u.InputTokens, u.CacheRead, u.CacheWrite
		}
		if u.OutputTokens > 0 {
			t.out = u.OutputTokens // message_delta counts the output so far
		}
	case config.ProviderCodex:
		if u.InputTokens > 0 {
			t.in, t.cacheRead = u.InputTokens, u.InputTokensDetails.CachedTokens
		}
		if u.PromptTokens > 0 {
			t.in, t.cacheRead = u.PromptTokens, u.PromptTokensDetails.CachedTokens
		}
		t.out = max(t.out, u.OutputTokens, u.CompletionTokens)
	}
}
