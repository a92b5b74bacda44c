package headless

import (
	"encoding/json"
	"strings"
)

// Summary is what a CLI's event stream says about a run.
type Summary struct {
	Model        string
	FinalText    string // the last answer of the model (the Student's JSON, the Mentor's notes)
	Tools        []ToolUse
	InputTokens  int
	OutputTokens int
	CostUSD      float64
	DurationMS   int64
	Error        *RunError // the run failed, as the stream reports it
	Events       int       // JSON lines read
}

// ToolUse is one tool call of the CLI's model, with its result when seen.
type ToolUse struct {
	ID       string
	Name     string // the CLI's tool name (Bash, command_execution, run_shell_command, Write, …)
	Command  string // shell command, for shell tools
	Path     string // file written, for write tools
	Output   string
	ExitCode *int // when the stream gives it (codex); else from the shim
	Failed   bool
	Done     bool // a result was seen
}

// ParseStream reads a CLI's JSONL stream. Unknown lines and event types are skipped, so a
// newer CLI with more events still parses.
//
// Formats, as documented and as recorded from the CLIs:
//   - claude --output-format stream-json --verbose: {"type":"system","subtype":"init",
//     "model",…}, {"type":"assistant","message":{content:[text|tool_use{id,name,input}]}},
//     {"type":"user","message":{content:[tool_result{tool_use_id,content,is_error}]}},
//     {"type":"result","subtype","is_error","result","duration_ms","total_cost_usd",
//     "usage":{input_tokens,output_tokens,cache_*}}.
//   - codex exec --json: thread.started, turn.started, item.started/item.completed with
//     item{id,type: command_execution{command,aggregated_output,exit_code,status} |
//     file_change{changes[{path,kind}]} | agent_message{text} | reasoning},
//     turn.completed{usage{input_tokens,cached_input_tokens,output_tokens}},
//     turn.failed{error{message}}, error{message} (codex-rs/exec/src/exec_events.rs).
//   - gemini --output-format stream-json: init{session_id,model}, message{role,content,
//     delta}, tool_use{tool_name,tool_id,parameters}, tool_result{tool_id,status,output,
//     error}, error{severity,message}, result{status,error,stats{input_tokens,
//     output_tokens,duration_ms,tool_calls}} (gemini-cli docs/cli/headless.md).
func ParseStream(provider, stream string) Summary {
	p := &parser{byID: map[string]int{}}
	for _, line := range strings.Split(stream, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var ev map[string]any
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		p.s.Events++
		switch provider {
		case Claude:
			p.claude(ev)
		case Codex:
			p.codex(ev)
		case Gemini:
			p.gemini(ev)
		}
	}
	if provider == Codex && p.codexErr != nil {
		p.s.Error = p.codexErr
	}
	if provider == Gemini && p.s.FinalText == "" {
		p.s.FinalText = strings.TrimSpace(p.text.String())
	}
	return p.s
}

type parser struct {
	s        Summary
	byID     map[string]int
	text     strings.Builder // gemini: assistant text since the last tool call
	codexErr *RunError
}

func str(m map[string]any, k string) string  { s, _ := m[k].(string); return s }
func num(m map[string]any, k string) float64 { f, _ := m[k].(float64); return f }
func mp(x any) map[string]any                { m, _ := x.(map[string]any); return m }
func arr(m map[string]any, k string) []any   { a, _ := m[k].([]any); return a }

func (p *parser) tool(t ToolUse) *ToolUse {
	if i, ok := p.byID[t.ID]; ok && t.ID != "" {
		return &p.s.Tools[i]
	}
	p.s.Tools = append(p.s.Tools, t)
	p.byID[t.ID] = len(p.s.Tools) - 1
	return &p.s.Tools[len(p.s.Tools)-1]
}

func (p *parser) result(id string) *ToolUse {
	if i, ok := p.byID[id]; ok {
		return &p.s.Tools[i]
	}
	return nil
}

func (p *parser) claude(ev map[string]any) {
	switch str(ev, "type") {
	case "system":
		if m := str(ev, "model"); m != "" {
			p.s.Model = m
		}
	case "assistant":
		msg := mp(ev["message"])
		if m := str(msg, "model"); m != "" && p.s.Model == "" {
			p.s.Model = m
		}
		for _, c := range arr(msg, "content") {
			b := mp(c)
			switch str(b, "type") {
			case "text":
				if t := strings.TrimSpace(str(b, "text")); t != "" {
					p.s.FinalText = t
				}
			case "tool_use":
				in := mp(b["input"])
				p.tool(ToolUse{ID: str(b, "id"), Name: str(b, "name"), Command: str(in, "command"), Path: firstOf(str(in, "file_path"), str(in, "notebook_path"))})
			}
		}
	case "user":
		for _, c := range arr(mp(ev["message"]), "content") {
			b := mp(c)
			if str(b, "type") != "tool_result" {
				continue
			}
			if t := p.result(str(b, "tool_use_id")); t != nil {
				t.Output, t.Done = contentText(b["content"]), true
				t.Failed, _ = b["is_error"].(bool)
			}
		}
	case "result":
		if r := str(ev, "result"); r != "" {
			p.s.FinalText = r
		}
		u := mp(ev["usage"])
		p.s.InputTokens = int(num(u, "input_tokens") + num(u, "cache_creation_input_tokens") + num(u, "cache_read_input_tokens"))
		p.s.OutputTokens = int(num(u, "output_tokens"))
		p.s.CostUSD = num(ev, "total_cost_usd")
		p.s.DurationMS = int64(num(ev, "duration_ms"))
		if isErr, _ := ev["is_error"].(bool); isErr || strings.HasPrefix(str(ev, "subtype"), "error") {
			msg := firstOf(str(ev, "result"), str(ev, "subtype"))
			p.s.Error = &RunError{Kind: ClassifyError(msg), Message: msg}
		}
	}
}

// contentText flattens a tool_result content: a string or a list of text blocks.
func contentText(c any) string {
	switch v := c.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, x := range v {
			if t := str(mp(x), "text"); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

func (p *parser) codex(ev map[string]any) {
	switch str(ev, "type") {
	case "item.started", "item.updated", "item.completed":
		it := mp(ev["item"])
		done := str(ev, "type") == "item.completed"
		// item.type today; item.item_type in the first --json releases.
		switch firstOf(str(it, "type"), str(it, "item_type")) {
		case "command_execution":
			t := p.tool(ToolUse{ID: str(it, "id"), Name: "command_execution", Command: str(it, "command")})
			if done {
				t.Done = true
				t.Output = str(it, "aggregated_output")
				if rc, ok := it["exit_code"].(float64); ok {
					code := int(rc)
					t.ExitCode = &code
					t.Failed = code != 0
				}
				if str(it, "status") == "failed" {
					t.Failed = true
				}
			}
		case "file_change":
			if !done {
				return
			}
			for i, ch := range arr(it, "changes") {
				c := mp(ch)
				if str(c, "kind") == "delete" {
					continue
				}
				p.tool(ToolUse{ID: str(it, "id") + "#" + string(rune('0'+i)), Name: "file_change", Path: str(c, "path"), Done: true})
			}
		case "agent_message":
			if done {
				if t := strings.TrimSpace(str(it, "text")); t != "" {
					p.s.FinalText = t
				}
			}
		}
	case "turn.completed":
		u := mp(ev["usage"])
		p.s.InputTokens += int(num(u, "input_tokens"))
		p.s.OutputTokens += int(num(u, "output_tokens"))
		p.codexErr = nil
	case "turn.failed":
		msg := str(mp(ev["error"]), "message")
		p.codexErr = &RunError{Kind: ClassifyError(msg), Message: msg}
	case "error":
		if msg := str(ev, "message"); msg != "" {
			p.codexErr = &RunError{Kind: ClassifyError(msg), Message: msg}
		}
	case "thread.started":
	}
}

func (p *parser) gemini(ev map[string]any) {
	switch str(ev, "type") {
	case "init":
		p.s.Model = str(ev, "model")
	case "message":
		if str(ev, "role") != "assistant" {
			return
		}
		if d, _ := ev["delta"].(bool); !d {
			p.text.Reset()
		}
		p.text.WriteString(str(ev, "content"))
	case "tool_use":
		if t := strings.TrimSpace(p.text.String()); t != "" {
			p.s.FinalText = t
		}
		p.text.Reset()
		params := mp(ev["parameters"])
		p.tool(ToolUse{ID: str(ev, "tool_id"), Name: str(ev, "tool_name"), Command: str(params, "command"),
			Path: firstOf(str(params, "file_path"), str(params, "absolute_path"))})
	case "tool_result":
		if t := p.result(str(ev, "tool_id")); t != nil {
			t.Done = true
			t.Output = firstOf(str(ev, "output"), str(mp(ev["error"]), "message"))
			t.Failed = str(ev, "status") == "error"
		}
	case "error":
		if str(ev, "severity") == "error" {
			msg := str(ev, "message")
			p.s.Error = &RunError{Kind: ClassifyError(msg), Message: msg}
		}
	case "result":
		if t := strings.TrimSpace(p.text.String()); t != "" {
			p.s.FinalText = t
		}
		st := mp(ev["stats"])
		p.s.InputTokens = int(num(st, "input_tokens"))
		p.s.OutputTokens = int(num(st, "output_tokens"))
		p.s.DurationMS = int64(num(st, "duration_ms"))
		if str(ev, "status") == "error" {
			e := mp(ev["error"])
			msg := firstOf(str(e, "message"), str(e, "type"), "gemini reported an error")
			p.s.Error = &RunError{Kind: ClassifyError(msg), Message: msg}
		}
	}
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
