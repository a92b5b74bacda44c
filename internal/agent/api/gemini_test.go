package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Gemini returns a thoughtSignature with function calls that must come back verbatim
// in the next request.
func TestGeminiThoughtSignatureRoundTrips(t *testing.T) {
	t.Parallel()
	var second map[string]any
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		body, _ := io.ReadAll(r.Body)
		if n == 2 {
			_ = json.Unmarshal(body, &second)
		}
		_, _ = io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"list_dir","args":{}},"thoughtSignature":"c2lnbmF0dXJl"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":1}}`)
	}))
	t.Cleanup(srv.Close)
	g := NewGemini(srv.URL, "k", nil, RetryPolicy{})
	resp, err := g.Complete(context.Background(), Request{Model: "gemini-2.5-pro", Messages: []Message{{Role: RoleUser, Parts: []Part{{Text: "hi"}}}}})
	require.NoError(t, err)
	calls := resp.Message.ToolCalls()
	require.Len(t, calls, 1)
	assert.Equal(t, "c2lnbmF0dXJl", calls[0].Signature)
	_, err = g.Complete(context.Background(), Request{Model: "gemini-2.5-pro", Messages: []Message{
		{Role: RoleUser, Parts: []Part{{Text: "hi"}}},
		resp.Message,
		{Role: RoleUser, Parts: []Part{{ToolResult: &ToolResult{CallID: calls[0].ID, Name: "list_dir", Content: "a b"}}}},
	}})
	require.NoError(t, err)
	contents := second["contents"].([]any)
	modelPart := contents[1].(map[string]any)["parts"].([]any)[0].(map[string]any)
	assert.Equal(t, "c2lnbmF0dXJl", modelPart["thoughtSignature"])
	fr := contents[2].(map[string]any)["parts"].([]any)[0].(map[string]any)["functionResponse"].(map[string]any)
	assert.Equal(t, "list_dir", fr["name"])
	assert.Equal(t, map[string]any{"output": "a b"}, fr["response"])
}

// A prompt Gemini blocks comes back with promptFeedback.blockReason and no candidates
// (ai.google.dev/api/generate-content#PromptFeedback): the reason is kept and the call
// is not retried.
func TestGeminiBlockedPromptKeepsTheReason(t *testing.T) {
	t.Parallel()
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		_, _ = io.WriteString(w, `{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":12,"totalTokenCount":12},"modelVersion":"gemini-3.8-flash"}`)
	}))
	t.Cleanup(srv.Close)
	_, err := NewGemini(srv.URL, "k", nil, RetryPolicy{Sleep: (&sleeper{}).sleep}).Complete(context.Background(),
		Request{Model: "gemini-3.8-flash", Messages: []Message{{Role: RoleUser, Parts: []Part{{Text: "hi"}}}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "PROHIBITED_CONTENT")
	assert.Equal(t, 1, n)
}
