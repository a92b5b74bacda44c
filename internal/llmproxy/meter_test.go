package llmproxy

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// Streamed answers as each provider sends them (event names and usage fields from
// docs.claude.com streaming, platform.openai.com Responses streaming events, and
// ai.google.dev streamGenerateContent with alt=sse); each bills 1,500 input tokens
// (500 of them cache reads) and 200 output tokens.
var streams = map[string]struct{ path, body string }{
	config.ProviderClaude: {"/v1/messages", "event: message_start\n" +
		`data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-5-5","content":[],"stop_reason":null,"usage":{"input_tokens":1000,"cache_read_input_tokens":500,"cache_creation_input_tokens":0,"output_tokens":1}}}` + "\n\n" +
		"event: content_block_delta\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}` + "\n\n" +
		"event: message_delta\n" + `data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":200}}` + "\n\n" +
		"event: message_stop\n" + `data: {"type":"message_stop"}` + "\n\n"},
	config.ProviderCodex: {"/v1/responses", "event: response.created\n" +
		`data: {"type":"response.created","response":{"id":"resp_1","model":"gpt-6.2-sol","status":"in_progress","usage":null}}` + "\n\n" +
		"event: response.output_text.delta\n" + `data: {"type":"response.output_text.delta","delta":"hi"}` + "\n\n" +
		"event: response.completed\n" + `data: {"type":"response.completed","response":{"id":"resp_1","model":"gpt-6.2-sol","status":"completed","usage":{"input_tokens":1500,"input_tokens_details":{"cached_tokens":500},"output_tokens":200,"output_tokens_details":{"reasoning_tokens":120},"total_tokens":1700}}}` + "\n\n"},
	config.ProviderGemini: {"/v1beta/models/gemini-3.8-flash:streamGenerateContent", `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"h"}]}}],"usageMetadata":{"promptTokenCount":1500,"cachedContentTokenCount":500,"candidatesTokenCount":20,"totalTokenCount":1520},"modelVersion":"gemini-3.8-flash"}` + "\r\n\r\n" +
		`data: {"candidates":[{"content":{"role":"model","parts":[{"text":"i"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1500,"cachedContentTokenCount":500,"candidatesTokenCount":80,"thoughtsTokenCount":120,"totalTokenCount":1700},"modelVersion":"gemini-3.8-flash"}` + "\r\n\r\n"},
}

// The key proxy keeps the cli runtime's budget: it reads each streamed answer's usage
// into the run's meter, and once the budget is spent refuses further calls in the
// provider's own error format, with a status the CLI does not retry.
func TestProxyMetersAnswersAndStopsPastTheBudget(t *testing.T) {
	t.Parallel()
	for name, s := range streams {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			calls := 0
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls++
				w.Header().Set("Content-Type", "text/event-stream")
				var out io.Writer = w
				if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") { // as the real APIs do when asked
					w.Header().Set("Content-Encoding", "gzip")
					gz := gzip.NewWriter(w)
					defer gz.Close()
					out = gz
				}
				for _, part := range strings.SplitAfter(s.body, "\n") { // arrives in pieces
					_, _ = io.WriteString(out, part)
					if gz, ok := out.(*gzip.Writer); ok {
						_ = gz.Flush()
					}
					w.(http.Flusher).Flush()
				}
			}))
			t.Cleanup(up.Close)
			meter := provider.NewMeter(config.Budget{MaxTokens: 3000})
			p, err := Start(context.Background(), "127.0.0.1", Options{Provider: name, Upstream: up.URL, Key: "REAL", Token: "run-token", Meter: meter})
			require.NoError(t, err)
			t.Cleanup(func() { _ = p.Close() })
			post := func() (int, string) {
				req, _ := http.NewRequest(http.MethodPost, p.BaseURL("127.0.0.1")+s.path, strings.NewReader(`{"model":"claude-sonnet-5-5","stream":true}`))
				req.Header.Set("Authorization", "Bearer run-token")
				req.Header.Set("x-api-key", "run-token")
				req.Header.Set("x-goog-api-key", "run-token")
				req.Header.Set("Accept-Encoding", "gzip") // as the CLIs' HTTP clients send it
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				defer resp.Body.Close()
				var rd io.Reader = resp.Body
				if resp.Header.Get("Content-Encoding") == "gzip" {
					gz, err := gzip.NewReader(resp.Body)
					require.NoError(t, err)
					rd = gz
				}
				b, _ := io.ReadAll(rd)
				return resp.StatusCode, string(b)
			}
			code, body := post()
			require.Equal(t, http.StatusOK, code)
			assert.Equal(t, s.body, body, "the stream reaches the CLI unchanged")
			tokens, usd := meter.Spent()
			assert.Equal(t, 1700, tokens)
			assert.Greater(t, usd, 0.0)
			code, _ = post()
			require.Equal(t, http.StatusOK, code, "the call that crosses the budget completes")
			require.Error(t, meter.Check())
			code, body = post()
			assert.Contains(t, body, "budget is spent")
			switch name {
			case config.ProviderCodex:
				assert.Equal(t, http.StatusTooManyRequests, code)
				assert.Contains(t, body, `"code":"insufficient_quota"`)
			default:
				assert.Equal(t, http.StatusForbidden, code)
			}
			assert.Equal(t, 2, calls, "the refused call never reached the provider")
		})
	}
}
