package api

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Each fake reads the wire request into a provider-neutral view, independently of the
// clients under test (plain maps).

func viewAnthropic(req map[string]any, body []byte) view {
	v := view{System: get(req, "system"), Model: get(req, "model"), Body: body}
	for _, b := range list(req, "system") { // system as a string or as text blocks
		v.System += get(obj(b), "text")
	}
	for _, tl := range list(req, "tools") {
		v.Tools = append(v.Tools, get(obj(tl), "name"))
	}
	for _, mm := range list(req, "messages") {
		msg := obj(mm)
		if get(msg, "role") == "assistant" {
			v.Assistant++
		}
		for _, bb := range list(msg, "content") {
			blk := obj(bb)
			switch get(blk, "type") {
			case "text":
				v.Texts = append(v.Texts, get(blk, "text"))
			case "tool_result":
				v.ToolResults = append(v.ToolResults, get(blk, "content"))
			}
		}
	}
	return v
}

func viewOpenAI(req map[string]any, body []byte) view {
	v := view{Model: get(req, "model"), Body: body}
	for _, tl := range list(req, "tools") {
		v.Tools = append(v.Tools, get(obj(obj(tl)["function"]), "name"))
	}
	for _, mm := range list(req, "messages") {
		msg := obj(mm)
		switch get(msg, "role") {
		case "system":
			v.System = get(msg, "content")
		case "assistant":
			v.Assistant++
		case "tool":
			v.ToolResults = append(v.ToolResults, get(msg, "content"))
		case "user":
			v.Texts = append(v.Texts, get(msg, "content"))
		}
	}
	return v
}

// viewResponses reads a Responses API request: a run of assistant items (reasoning,
// function calls, assistant messages) is one assistant turn.
func viewResponses(req map[string]any, body []byte) view {
	v := view{System: get(req, "instructions"), Model: get(req, "model"), Body: body}
	for _, tl := range list(req, "tools") {
		v.Tools = append(v.Tools, get(obj(tl), "name"))
	}
	inAssistant := false
	for _, ii := range list(req, "input") {
		it := obj(ii)
		assistant := false
		switch get(it, "type") {
		case "reasoning":
			assistant = true
			v.Reasoning = append(v.Reasoning, get(it, "encrypted_content"))
		case "function_call":
			assistant = true
		case "function_call_output":
			v.ToolResults = append(v.ToolResults, get(it, "output"))
		case "message":
			if get(it, "role") == "assistant" {
				assistant = true
				break
			}
			for _, c := range list(it, "content") {
				v.Texts = append(v.Texts, get(obj(c), "text"))
			}
		}
		if assistant && !inAssistant {
			v.Assistant++
		}
		inAssistant = assistant
	}
	return v
}

func viewGemini(req map[string]any, body []byte) view {
	v := view{Body: body}
	if si := obj(req["systemInstruction"]); si != nil {
		for _, p := range list(si, "parts") {
			v.System += get(obj(p), "text")
		}
	}
	for _, tl := range list(req, "tools") {
		for _, d := range list(obj(tl), "functionDeclarations") {
			v.Tools = append(v.Tools, get(obj(d), "name"))
		}
	}
	for _, cc := range list(req, "contents") {
		c := obj(cc)
		if get(c, "role") == "model" {
			v.Assistant++
		}
		for _, pp := range list(c, "parts") {
			p := obj(pp)
			if t := get(p, "text"); t != "" {
				v.Texts = append(v.Texts, t)
			}
			if fr := obj(p["functionResponse"]); fr != nil {
				resp := obj(fr["response"])
				v.ToolResults = append(v.ToolResults, get(resp, "output")+get(resp, "error"))
			}
		}
	}
	return v
}

func num(m map[string]any, k string) float64 { f, _ := m[k].(float64); return f }

// truncateReply cuts every string argument of the calls in half: what a model that hit
// its output limit mid-call leaves.
func truncateReply(r reply) reply {
	out := reply{Text: r.Text[:len(r.Text)/2]}
	for _, c := range r.Calls {
		args := map[string]any{}
		for k, v := range c.Args {
			if s, ok := v.(string); ok {
				v = s[:len(s)/2]
			}
			args[k] = v
		}
		out.Calls = append(out.Calls, call{Name: c.Name, Args: args})
	}
	return out
}

// serveModelNotFound answers as each provider does for a model it does not serve
// (bodies in testdata/errors, with the requested name).
func serveModelNotFound(w http.ResponseWriter, provider, model string) {
	file, old := "anthropic-404-model.json", "claude-opus-4-1"
	switch provider {
	case "openai", "responses":
		file, old = "openai-404-model.json", "gpt-5-mini-2025"
	case "gemini":
		file, old = "gemini-404-model.json", "gemini-1.5-pro"
	}
	body, err := os.ReadFile(filepath.Join("testdata", "errors", file))
	if err != nil {
		panic(err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte(strings.ReplaceAll(string(body), old, model)))
}

// serveError answers with one of the real provider error bodies in testdata/errors
// (see its README for the sources) and the given headers.
func serveError(w http.ResponseWriter, status int, file string, headers map[string]string) {
	body, err := os.ReadFile(filepath.Join("testdata", "errors", file))
	if err != nil {
		panic(err)
	}
	for k, v := range headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
