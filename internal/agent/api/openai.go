package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// OpenAI Chat Completions (POST {base}/chat/completions, Authorization: Bearer; messages
// with tool_calls [{id, type:function, function{name, arguments}}] and role "tool"
// answers with tool_call_id; usage.prompt_tokens/completion_tokens). Any
// OpenAI-compatible server (vLLM, Ollama) speaks the same format.
// https://platform.openai.com/docs/api-reference/chat/create

// DefaultOpenAIURL is the API base URL including /v1 (OPENAI_BASE_URL overrides it).
const DefaultOpenAIURL = provider.OpenAIURL

// OpenAI is a client of OpenAI's Chat Completions or Responses API, or of a compatible
// server (Chat Completions).
type OpenAI struct {
	baseURL string
	auth    auth
	t       transport
	api     string // llm.api: chat, responses, or "" to choose per model (usesResponses)
}

// WithAPI sets llm.api ("", chat or responses) and returns the client.
func (o *OpenAI) WithAPI(api string) *OpenAI {
	o.api = api
	return o
}

// usesResponses decides the API of a call: llm.api when set; otherwise the Responses
// API for OpenAI's own URL (GPT-6 calls functions only there) and for *-codex models,
// Chat Completions for compatible servers.
func (o *OpenAI) usesResponses(model string) bool {
	switch o.api {
	case APIChat:
		return false
	case APIResponses:
		return true
	}
	return o.baseURL == DefaultOpenAIURL || strings.HasSuffix(model, "-codex")
}

// NewOpenAI returns a client for baseURL ("" means DefaultOpenAIURL). key may be empty
// for local servers that need none.
func NewOpenAI(baseURL, key string, hc *http.Client, retry RetryPolicy) *OpenAI {
	if baseURL == "" {
		baseURL = DefaultOpenAIURL
	}
	return &OpenAI{
		baseURL: strings.TrimRight(baseURL, "/"),
		auth:    apiKey(config.ProviderCodex, key),
		t:       transport{provider: "openai", http: hc, retry: retry},
	}
}

// Provider implements Client.
func (o *OpenAI) Provider() string { return "openai" }

type openAIFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type openAIToolCall struct {
	ID       string             `json:"id"`
	Type     string             `json:"type"`
	Function openAIFunctionCall `json:"function"`
}

type openAIMessage struct {
	Role       string           `json:"role"`
	Content    *string          `json:"content"`
	ToolCalls  []openAIToolCall `json:"tool_calls,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
}

type openAITool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

type openAIRequest struct {
	Model     string          `json:"model"`
	Messages  []openAIMessage `json:"messages"`
	Tools     []openAITool    `json:"tools,omitempty"`
	MaxTokens int             `json:"max_completion_tokens,omitempty"`
}

type openAIResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message      openAIMessage `json:"message"`
		FinishReason string        `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

func strPtr(s string) *string { return &s }

// Complete implements Client.
func (o *OpenAI) Complete(ctx context.Context, req Request) (Response, error) {
	if o.usesResponses(req.Model) {
		return o.completeResponses(ctx, req)
	}
	in := openAIRequest{Model: req.Model, MaxTokens: req.MaxTokens}
	if req.System != "" {
		in.Messages = append(in.Messages, openAIMessage{Role: "system", Content: strPtr(req.System)})
	}
	for _, m := range req.Messages {
		if m.Role == RoleAssistant {
			om := openAIMessage{Role: "assistant"}
			if t := m.Text(); t != "" {
				om.Content = strPtr(t)
			}
			for _, c := range m.ToolCalls() {
				args := string(c.Args)
				if args == "" {
					args = "{}"
				}
				om.ToolCalls = append(om.ToolCalls, openAIToolCall{ID: c.ID, Type: "function", Function: openAIFunctionCall{Name: c.Name, Arguments: args}})
			}
			in.Messages = append(in.Messages, om)
			continue
		}
		// A user message: tool results become "tool" messages, then any text.
		var text []string
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				content := p.ToolResult.Content
				if p.ToolResult.IsError {
					content = "ERROR: " + content
				}
				in.Messages = append(in.Messages, openAIMessage{Role: "tool", ToolCallID: p.ToolResult.CallID, Content: strPtr(content)})
			} else if p.Text != "" {
				text = append(text, p.Text)
			}
		}
		if len(text) > 0 {
			in.Messages = append(in.Messages, openAIMessage{Role: "user", Content: strPtr(strings.Join(text, "\n"))})
		}
	}
	for _, t := range req.Tools {
		var ot openAITool
		ot.Type = "function"
		ot.Function.Name, ot.Function.Description, ot.Function.Parameters = t.Name, t.Description, t.Schema
		in.Tools = append(in.Tools, ot)
	}
	h := http.Header{}
	o.auth.apply(h)
	var out openAIResponse
	if err := o.t.postJSON(ctx, o.baseURL+"/chat/completions", h, in, &out); err != nil {
		return Response{}, err
	}
	resp := Response{
		Message: Message{Role: RoleAssistant},
		Model:   out.Model,
		Usage: Usage{InputTokens: out.Usage.PromptTokens, CachedInputTokens: out.Usage.PromptTokensDetails.CachedTokens,
			OutputTokens: out.Usage.CompletionTokens},
	}
	if len(out.Choices) == 0 {
		return resp, &APIError{Provider: "openai", Status: http.StatusBadGateway, Message: "answer has no choices"}
	}
	ch := out.Choices[0]
	resp.StopReason = ch.FinishReason
	resp.Truncated = ch.FinishReason == "length"
	if ch.Message.Content != nil && *ch.Message.Content != "" {
		resp.Message.Parts = append(resp.Message.Parts, Part{Text: *ch.Message.Content})
	}
	for _, c := range ch.Message.ToolCalls {
		resp.Message.Parts = append(resp.Message.Parts, Part{ToolCall: &ToolCall{ID: c.ID, Name: c.Function.Name, Args: json.RawMessage(c.Function.Arguments)}})
	}
	return resp, nil
}
