package api

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Responses API client keeps the model's encrypted reasoning across tool calls:
// each answer's reasoning item travels back with the next request.
func TestResponsesSendsReasoningBack(t *testing.T) {
	t.Parallel()
	srv := newModelServer(t, "responses", func(v view) reply {
		if len(v.ToolResults) == 0 {
			return reply{Calls: []call{tool("run_command", "command", "echo hi")}}
		}
		return reply{Calls: []call{tool("finish", "summary", "done")}}
	})
	res, err := NewStudent(Options{Client: clientFor("responses", srv.URL, RetryPolicy{}), Standard: "gpt-6.2-sol"}).Attempt(context.Background(), studentTask(t))
	require.NoError(t, err)
	assert.Equal(t, "done", res.Summary)
	views := srv.views()
	require.Len(t, views, 2)
	assert.Empty(t, views[0].Reasoning)
	assert.Equal(t, []string{"gAAAA-reasoning-1"}, views[1].Reasoning)
	assert.Equal(t, []string{"exit code: 0\nhi\n"}, views[1].ToolResults)
}

// llm.api decides; left empty, OpenAI's own URL and *-codex models take the Responses
// API and a compatible server (vLLM, Ollama) Chat Completions.
func TestOpenAIChoosesItsAPI(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		base, api, model string
		want             bool
	}{
		{base: "", model: "gpt-6.2-sol", want: true},
		{base: "https://api.openai.com/v1/", model: "gpt-6-luna", want: true},
		{base: "http://localhost:11434/v1", model: "llama3", want: false},
		{base: "http://localhost:8000/v1", model: "gpt-6.1-codex", want: true},
		{base: "", api: APIChat, model: "gpt-6.2-sol", want: false},
		{base: "http://localhost:8000/v1", api: APIResponses, model: "llama3", want: true},
	} {
		o := NewOpenAI(tt.base, "k", nil, RetryPolicy{}).WithAPI(tt.api)
		assert.Equal(t, tt.want, o.usesResponses(tt.model), "%+v", tt)
	}
}
