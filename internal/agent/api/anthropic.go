package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// Anthropic Messages API (POST /v1/messages, headers x-api-key and anthropic-version;
// content blocks text / tool_use / tool_result; usage.input_tokens/output_tokens).
// https://docs.anthropic.com/en/api/messages

// DefaultAnthropicURL is the Messages API base URL (ANTHROPIC_BASE_URL overrides it).
const DefaultAnthropicURL = provider.AnthropicURL

const anthropicVersion = "2023-06-01"

// Anthropic is a client of the Anthropic Messages API.
type Anthropic struct {
	baseURL string
	auth    auth
	t       transport
}

// NewAnthropic returns a client for baseURL ("" means DefaultAnthropicURL).
func NewAnthropic(baseURL, key string, hc *http.Client, retry RetryPolicy) *Anthropic {
	if baseURL == "" {
		baseURL = DefaultAnthropicURL
	}
	return &Anthropic{
		baseURL: strings.TrimRight(baseURL, "/"),
		auth:    apiKey(config.ProviderClaude, key),
		t:       transport{provider: "anthropic", http: hc, retry: retry},
	}
}

// Provider implements Client.
func (a *Anthropic) Provider() string { return "anthropic" }

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   any             `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type anthropicMessage struct {
	Role    string           `json:"role"`
	Content []anthropicBlock `json:"content"`
}

type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type anthropicRequest struct {
	Model     string             `json:"model"`
	MaxTokens int                `json:"max_tokens"`
	System    string             `json:"system,omitempty"`
	Messages  []anthropicMessage `json:"messages"`
	Tools     []anthropicTool    `json:"tools,omitempty"`
}

type anthropicResponse struct {
	Model      string           `json:"model"`
	Content    []anthropicBlock `json:"content"`
	StopReason string           `json:"stop_reason"`
	Usage      struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// Complete implements Client.
func (a *Anthropic) Complete(ctx context.Context, req Request) (Response, error) {
	in := anthropicRequest{Model: req.Model, MaxTokens: req.MaxTokens, System: req.System}
	if in.MaxTokens <= 0 {
		in.MaxTokens = 4096
	}
	for _, m := range req.Messages {
		am := anthropicMessage{Role: m.Role}
		for _, p := range m.Parts {
			switch {
			case p.ToolCall != nil:
				args := p.ToolCall.Args
				if len(args) == 0 {
					args = json.RawMessage(`{}`)
				}
				am.Content = append(am.Content, anthropicBlock{Type: "tool_use", ID: p.ToolCall.ID, Name: p.ToolCall.Name, Input: args})
			case p.ToolResult != nil:
				am.Content = append(am.Content, anthropicBlock{Type: "tool_result", ToolUseID: p.ToolResult.CallID, Content: p.ToolResult.Content, IsError: p.ToolResult.IsError})
			case p.Text != "":
				am.Content = append(am.Content, anthropicBlock{Type: "text", Text: p.Text})
			}
		}
		in.Messages = append(in.Messages, am)
	}
	for _, t := range req.Tools {
		in.Tools = append(in.Tools, anthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.Schema})
	}
	h := http.Header{}
	a.auth.apply(h)
	h.Set("anthropic-version", anthropicVersion)
	var out anthropicResponse
	if err := a.t.postJSON(ctx, a.baseURL+"/v1/messages", h, in, &out); err != nil {
		return Response{}, err
	}
	resp := Response{
		Message:    Message{Role: RoleAssistant},
		StopReason: out.StopReason,
		Truncated:  out.StopReason == "max_tokens",
		Model:      out.Model,
		Usage: Usage{
			InputTokens:       out.Usage.InputTokens + out.Usage.CacheCreationInputTokens + out.Usage.CacheReadInputTokens,
			CachedInputTokens: out.Usage.CacheReadInputTokens,
			CacheWriteTokens:  out.Usage.CacheCreationInputTokens,
			OutputTokens:      out.Usage.OutputTokens,
		},
	}
	for _, b := range out.Content {
		switch b.Type {
		case "text":
			resp.Message.Parts = append(resp.Message.Parts, Part{Text: b.Text})
		case "tool_use":
			resp.Message.Parts = append(resp.Message.Parts, Part{ToolCall: &ToolCall{ID: b.ID, Name: b.Name, Args: b.Input}})
		}
	}
	return resp, nil
}
