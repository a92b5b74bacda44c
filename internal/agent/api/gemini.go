package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// Gemini API generateContent (POST {base}/v1beta/models/{model}:generateContent, header
// x-goog-api-key; contents[{role user|model, parts[text|functionCall{name,args}|
// functionResponse{name,response}]}], tools[{functionDeclarations}], systemInstruction;
// usageMetadata.promptTokenCount/candidatesTokenCount).
// https://ai.google.dev/api/generate-content

// DefaultGeminiURL is the Gemini API base URL (GOOGLE_GEMINI_BASE_URL overrides it).
const DefaultGeminiURL = provider.GeminiURL

// Gemini is a client of the Gemini API.
type Gemini struct {
	baseURL string
	auth    auth
	t       transport
}

// NewGemini returns a client for baseURL ("" means DefaultGeminiURL).
func NewGemini(baseURL, key string, hc *http.Client, retry RetryPolicy) *Gemini {
	if baseURL == "" {
		baseURL = DefaultGeminiURL
	}
	return &Gemini{
		baseURL: strings.TrimRight(baseURL, "/"),
		auth:    apiKey(config.ProviderGemini, key),
		t:       transport{provider: "gemini", http: hc, retry: retry},
	}
}

// Provider implements Client.
func (g *Gemini) Provider() string { return "gemini" }

type geminiPart struct {
	Text             string                  `json:"text,omitempty"`
	ThoughtSignature string                  `json:"thoughtSignature,omitempty"`
	FunctionCall     *geminiFunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *geminiFunctionResponse `json:"functionResponse,omitempty"`
}

type geminiFunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

type geminiFunctionResponse struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

type geminiContent struct {
	Role  string       `json:"role,omitempty"`
	Parts []geminiPart `json:"parts"`
}

type geminiFunctionDeclaration struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type geminiRequest struct {
	SystemInstruction *geminiContent  `json:"systemInstruction,omitempty"`
	Contents          []geminiContent `json:"contents"`
	Tools             []struct {
		FunctionDeclarations []geminiFunctionDeclaration `json:"functionDeclarations"`
	} `json:"tools,omitempty"`
	GenerationConfig struct {
		MaxOutputTokens int `json:"maxOutputTokens,omitempty"`
	} `json:"generationConfig"`
}

type geminiResponse struct {
	Candidates []struct {
		Content      geminiContent `json:"content"`
		FinishReason string        `json:"finishReason"`
	} `json:"candidates"`
	UsageMetadata struct {
		PromptTokenCount        int `json:"promptTokenCount"`
		CachedContentTokenCount int `json:"cachedContentTokenCount"`
		CandidatesTokenCount    int `json:"candidatesTokenCount"`
		ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
	} `json:"usageMetadata"`
	ModelVersion   string `json:"modelVersion"`
	PromptFeedback struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
}

// geminiSchema removes the JSON Schema keywords the Gemini API's OpenAPI subset rejects.
func geminiSchema(raw json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	var clean func(any) any
	clean = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			for _, k := range []string{"$schema", "$id", "additionalProperties"} {
				delete(t, k)
			}
			for k, vv := range t {
				t[k] = clean(vv)
			}
		case []any:
			for i := range t {
				t[i] = clean(t[i])
			}
		}
		return x
	}
	out, err := json.Marshal(clean(v))
	if err != nil {
		return raw
	}
	return out
}

// Complete implements Client.
func (g *Gemini) Complete(ctx context.Context, req Request) (Response, error) {
	var in geminiRequest
	in.GenerationConfig.MaxOutputTokens = req.MaxTokens
	if req.System != "" {
		in.SystemInstruction = &geminiContent{Parts: []geminiPart{{Text: req.System}}}
	}
	for _, m := range req.Messages {
		gc := geminiContent{Role: "user"}
		if m.Role == RoleAssistant {
			gc.Role = "model"
		}
		for _, p := range m.Parts {
			switch {
			case p.ToolCall != nil:
				gc.Parts = append(gc.Parts, geminiPart{ThoughtSignature: p.ToolCall.Signature,
					FunctionCall: &geminiFunctionCall{ID: p.ToolCall.ID, Name: p.ToolCall.Name, Args: p.ToolCall.Args}})
			case p.ToolResult != nil:
				resp := map[string]any{"output": p.ToolResult.Content}
				if p.ToolResult.IsError {
					resp = map[string]any{"error": p.ToolResult.Content}
				}
				gc.Parts = append(gc.Parts, geminiPart{FunctionResponse: &geminiFunctionResponse{ID: p.ToolResult.CallID, Name: p.ToolResult.Name, Response: resp}})
			case p.Text != "":
				gc.Parts = append(gc.Parts, geminiPart{Text: p.Text})
			}
		}
		in.Contents = append(in.Contents, gc)
	}
	if len(req.Tools) > 0 {
		decls := make([]geminiFunctionDeclaration, 0, len(req.Tools))
		for _, t := range req.Tools {
			decls = append(decls, geminiFunctionDeclaration{Name: t.Name, Description: t.Description, Parameters: geminiSchema(t.Schema)})
		}
		in.Tools = append(in.Tools, struct {
			FunctionDeclarations []geminiFunctionDeclaration `json:"functionDeclarations"`
		}{decls})
	}
	h := http.Header{}
	g.auth.apply(h)
	u := fmt.Sprintf("%s/v1beta/models/%s:generateContent", g.baseURL, url.PathEscape(req.Model))
	var out geminiResponse
	if err := g.t.postJSON(ctx, u, h, in, &out); err != nil {
		return Response{}, err
	}
	resp := Response{
		Message: Message{Role: RoleAssistant},
		Model:   out.ModelVersion,
		// thinking is billed as output (ai.google.dev/gemini-api/docs/thinking#pricing)
		Usage: Usage{InputTokens: out.UsageMetadata.PromptTokenCount, CachedInputTokens: out.UsageMetadata.CachedContentTokenCount,
			OutputTokens: out.UsageMetadata.CandidatesTokenCount + out.UsageMetadata.ThoughtsTokenCount},
	}
	if resp.Model == "" {
		resp.Model = req.Model
	}
	if len(out.Candidates) == 0 {
		if r := out.PromptFeedback.BlockReason; r != "" { // the prompt itself was refused: asking again cannot help
			return resp, &APIError{Provider: "gemini", Status: http.StatusBadRequest, Type: "promptFeedback.blockReason " + r,
				Message: "Gemini blocked the prompt (" + r + ")"}
		}
		return resp, &APIError{Provider: "gemini", Status: http.StatusBadGateway, Message: "answer has no candidates"}
	}
	c := out.Candidates[0]
	resp.StopReason = c.FinishReason
	resp.Truncated = c.FinishReason == "MAX_TOKENS"
	for i, p := range c.Content.Parts {
		switch {
		case p.FunctionCall != nil:
			id := p.FunctionCall.ID
			if id == "" {
				id = fmt.Sprintf("%s-%d", p.FunctionCall.Name, i) // older models give no ids
			}
			resp.Message.Parts = append(resp.Message.Parts, Part{ToolCall: &ToolCall{ID: id, Name: p.FunctionCall.Name, Args: p.FunctionCall.Args, Signature: p.ThoughtSignature}})
		case p.Text != "":
			resp.Message.Parts = append(resp.Message.Parts, Part{Text: p.Text})
		}
	}
	return resp, nil
}
