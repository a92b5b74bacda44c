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
//
// Prompt caching (docs.claude.com/en/docs/build-with-claude/prompt-caching): the
// request prefix is tools, then system, then messages; a cache_control breakpoint on a
// block caches the prefix up to it for 5 minutes, later requests read it at a tenth of
// the input price (usage.cache_read_input_tokens; writes cost 1.25x,
// cache_creation_input_tokens), at most 4 breakpoints per request. Every request marks
// the stable prefix (the last tool, the system prompt, the first user message: the
// tutorial prompt) and the newest message, so each step reads the history the previous
// step wrote instead of paying for it again.
type Anthropic struct {
	baseURL string
	auth    auth
	t       transport
	noCache bool // no cache_control breakpoints (the benchmark's baseline)
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
	// CacheControl marks a prompt-cache breakpoint (type "ephemeral": 5 minutes).
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type cacheControl struct {
	Type string `json:"type"`
}

var ephemeral = &cacheControl{Type: "ephemeral"}

type anthropicMessage struct {
	Role    string           `json:"role"`
	Content []anthropicBlock `json:"content"`
}

type anthropicTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

type anthropicRequest struct {
	Model     string             `json:"model"`
	MaxTokens int                `json:"max_tokens"`
	System    []anthropicBlock   `json:"system,omitempty"`
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
	in := anthropicRequest{Model: req.Model, MaxTokens: req.MaxTokens}
	if req.System != "" {
		in.System = []anthropicBlock{{Type: "text", Text: req.System}}
	}
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
	if !a.noCache {
		markCache(&in)
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

// markCache sets the four cache breakpoints: the last tool, the system prompt, the
// first user message and the last block of the newest message.
func markCache(in *anthropicRequest) {
	if n := len(in.Tools); n > 0 {
		in.Tools[n-1].CacheControl = ephemeral
	}
	if n := len(in.System); n > 0 {
		in.System[n-1].CacheControl = ephemeral
	}
	mark := func(m *anthropicMessage) {
		if n := len(m.Content); n > 0 {
			m.Content[n-1].CacheControl = ephemeral
		}
	}
	if len(in.Messages) > 0 {
		mark(&in.Messages[0])
		mark(&in.Messages[len(in.Messages)-1])
	}
}
