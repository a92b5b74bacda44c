package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// OpenAI Responses API (POST {base}/responses): instructions plus an input list of
// messages, function_call and function_call_output items; tools as {type: function,
// name, description, parameters}; the answer's output lists reasoning, function_call and
// message items; usage.input_tokens (cached ones in input_tokens_details.cached_tokens)
// and output_tokens; status "incomplete" with incomplete_details.reason
// "max_output_tokens" when the output limit cut the answer.
// https://platform.openai.com/docs/api-reference/responses/create
// GPT-6 models call functions only through it, and *-codex models are served only here
// ("This model is only supported in v1/responses").
//
// store is false (nothing kept at OpenAI); the reasoning items come back encrypted
// (include reasoning.encrypted_content) and travel with the next request, so the model
// keeps its reasoning across tool calls.

// APIs an OpenAI client can speak (llm.api).
const (
	APIChat      = "chat"
	APIResponses = "responses"
)

type responsesRequest struct {
	Model           string            `json:"model"`
	Instructions    string            `json:"instructions,omitempty"`
	Input           []json.RawMessage `json:"input"`
	Tools           []responsesTool   `json:"tools,omitempty"`
	MaxOutputTokens int               `json:"max_output_tokens,omitempty"`
	Store           bool              `json:"store"`
	Include         []string          `json:"include,omitempty"`
}

type responsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

type responsesItem struct {
	Type    string `json:"type"`
	Role    string `json:"role,omitempty"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content,omitempty"`
	CallID    string `json:"call_id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

type responsesResponse struct {
	Model             string `json:"model"`
	Status            string `json:"status"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Output []json.RawMessage `json:"output"`
	Usage  struct {
		InputTokens        int `json:"input_tokens"`
		InputTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"input_tokens_details"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

func rawJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// completeResponses sends req through the Responses API.
func (o *OpenAI) completeResponses(ctx context.Context, req Request) (Response, error) {
	in := responsesRequest{Model: req.Model, Instructions: req.System, MaxOutputTokens: req.MaxTokens,
		Include: []string{"reasoning.encrypted_content"}}
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			switch {
			case len(p.Opaque) > 0:
				in.Input = append(in.Input, p.Opaque)
			case p.ToolCall != nil:
				args := string(p.ToolCall.Args)
				if args == "" {
					args = "{}"
				}
				in.Input = append(in.Input, rawJSON(map[string]string{"type": "function_call", "call_id": p.ToolCall.ID, "name": p.ToolCall.Name, "arguments": args}))
			case p.ToolResult != nil:
				out := p.ToolResult.Content
				if p.ToolResult.IsError {
					out = "ERROR: " + out
				}
				in.Input = append(in.Input, rawJSON(map[string]string{"type": "function_call_output", "call_id": p.ToolResult.CallID, "output": out}))
			case p.Text != "":
				kind := "input_text"
				if m.Role == RoleAssistant {
					kind = "output_text"
				}
				in.Input = append(in.Input, rawJSON(map[string]any{"type": "message", "role": m.Role,
					"content": []map[string]string{{"type": kind, "text": p.Text}}}))
			}
		}
	}
	for _, t := range req.Tools {
		in.Tools = append(in.Tools, responsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.Schema})
	}
	h := http.Header{}
	o.auth.apply(h)
	var out responsesResponse
	if err := o.t.postJSON(ctx, o.baseURL+"/responses", h, in, &out); err != nil {
		return Response{}, err
	}
	resp := Response{
		Message: Message{Role: RoleAssistant}, Model: out.Model, StopReason: out.Status,
		Usage: Usage{InputTokens: out.Usage.InputTokens, CachedInputTokens: out.Usage.InputTokensDetails.CachedTokens, OutputTokens: out.Usage.OutputTokens},
	}
	if out.Status == "failed" && out.Error != nil { // a 200 answer that says the response failed
		return resp, &APIError{Provider: "openai", Status: http.StatusBadGateway, Type: out.Error.Code, Message: out.Error.Message}
	}
	if d := out.IncompleteDetails; out.Status == "incomplete" && d != nil {
		resp.StopReason = d.Reason
		resp.Truncated = d.Reason == "max_output_tokens"
	}
	for _, raw := range out.Output {
		var it responsesItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return resp, fmt.Errorf("openai api: decode output item: %w", err)
		}
		switch it.Type {
		case "reasoning":
			resp.Message.Parts = append(resp.Message.Parts, Part{Opaque: raw})
		case "function_call":
			resp.Message.Parts = append(resp.Message.Parts, Part{ToolCall: &ToolCall{ID: it.CallID, Name: it.Name, Args: json.RawMessage(it.Arguments)}})
		case "message":
			var text []string
			for _, c := range it.Content {
				if c.Type == "output_text" && c.Text != "" {
					text = append(text, c.Text)
				}
			}
			if len(text) > 0 {
				resp.Message.Parts = append(resp.Message.Parts, Part{Text: strings.Join(text, "\n")})
			}
		}
	}
	return resp, nil
}
