// Package api is the native LLM runtime (llmRuntime "api"): the orchestrator calls the
// provider's HTTP API itself, runs the model's tool calls in the sandbox and observes
// every command first-hand. It implements loop.Student and loop.Mentor.
package api

import (
	"context"
	"encoding/json"
)

// Roles of a conversation message. Tool results travel in user messages, as in the
// Anthropic Messages API; each client maps them to its own wire format.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one turn of the conversation in a provider-neutral form.
type Message struct {
	Role  string `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one piece of a message: text, a tool call (assistant) or a tool result (user).
type Part struct {
	Text       string      `json:"text,omitempty"`
	ToolCall   *ToolCall   `json:"toolCall,omitempty"`
	ToolResult *ToolResult `json:"toolResult,omitempty"`
	// Opaque is a provider item that must travel back unchanged (OpenAI Responses'
	// encrypted reasoning); other providers ignore it.
	Opaque json.RawMessage `json:"opaque,omitempty"`
}

// ToolCall is the model asking to run a tool.
type ToolCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
	// Signature is an opaque provider token that must travel back with the call
	// (Gemini's thoughtSignature).
	Signature string `json:"signature,omitempty"`
}

// ToolResult is what a tool returned, sent back to the model.
type ToolResult struct {
	CallID  string `json:"callId"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"isError,omitempty"`
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string
	Description string
	Schema      json.RawMessage // JSON Schema of the arguments object
}

// Request is one model call.
type Request struct {
	Model     string
	System    string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int
}

// Usage is the token accounting of one call. InputTokens counts every input token,
// cached ones included; CachedInputTokens is the part read from the provider's prompt
// cache (billed at a fraction) and CacheWriteTokens the part written to it.
type Usage struct {
	InputTokens       int
	CachedInputTokens int
	CacheWriteTokens  int
	OutputTokens      int
}

// Response is the model's answer to one call.
type Response struct {
	Message    Message
	StopReason string // the provider's own word (end_turn, length, MAX_TOKENS…)
	// Truncated: the answer stopped at the output limit (Anthropic stop_reason
	// max_tokens, OpenAI finish_reason length or Responses status incomplete with
	// max_output_tokens, Gemini finishReason MAX_TOKENS). Its text is partial and its
	// tool calls may have cut-off arguments: never run them.
	Truncated bool
	Usage     Usage
	Model     string
}

// Client is one provider's chat API with tool calling.
type Client interface {
	// Provider names the provider for the audit trail (anthropic, openai, gemini).
	Provider() string
	Complete(ctx context.Context, req Request) (Response, error)
}

// Text joins the text parts of a message.
func (m Message) Text() string {
	var s string
	for _, p := range m.Parts {
		if p.Text != "" {
			if s != "" {
				s += "\n"
			}
			s += p.Text
		}
	}
	return s
}

// ToolCalls returns the tool calls of a message.
func (m Message) ToolCalls() []ToolCall {
	var calls []ToolCall
	for _, p := range m.Parts {
		if p.ToolCall != nil {
			calls = append(calls, *p.ToolCall)
		}
	}
	return calls
}

// size is a rough character count of the message, for token estimates.
func (m Message) size() int {
	n := 0
	for _, p := range m.Parts {
		n += len(p.Text)
		if p.ToolCall != nil {
			n += len(p.ToolCall.Name) + len(p.ToolCall.Args) + 16
		}
		if p.ToolResult != nil {
			n += len(p.ToolResult.Content) + 16
		}
	}
	return n
}
