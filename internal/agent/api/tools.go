package api

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/invopop/jsonschema"
)

// Tool is one function the model may call. Its parameter schema is generated from the
// Go type of its arguments with invopop/jsonschema, so the schema and the decoding
// can never disagree.
type Tool struct {
	Spec ToolSpec
	run  func(ctx context.Context, args json.RawMessage) (string, error)
}

// NewTool makes a tool whose arguments decode into T.
func NewTool[T any](name, description string, fn func(ctx context.Context, args T) (string, error)) Tool {
	return Tool{
		Spec: ToolSpec{Name: name, Description: description, Schema: schemaOf[T]()},
		run: func(ctx context.Context, raw json.RawMessage) (string, error) {
			var args T
			if len(raw) == 0 || string(raw) == "null" {
				raw = json.RawMessage(`{}`)
			}
			dec := json.NewDecoder(strings.NewReader(string(raw)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&args); err != nil {
				return "", fmt.Errorf("invalid arguments for %s: %w (expected schema: %s)", name, err, schemaOf[T]())
			}
			return fn(ctx, args)
		},
	}
}

func schemaOf[T any]() json.RawMessage {
	r := jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true}
	var zero T
	s := r.Reflect(&zero)
	s.Version = ""
	s.ID = ""
	data, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("tool schema: %v", err)) // a programming error in a tool type
	}
	return data
}

// Registry is a set of tools by name.
type Registry struct {
	tools map[string]Tool
}

// NewRegistry makes a registry of tools.
func NewRegistry(tools ...Tool) *Registry {
	r := &Registry{tools: map[string]Tool{}}
	for _, t := range tools {
		r.tools[t.Spec.Name] = t
	}
	return r
}

// Specs lists the tools for a model request, sorted by name.
func (r *Registry) Specs() []ToolSpec {
	specs := make([]ToolSpec, 0, len(r.tools))
	for _, t := range r.tools {
		specs = append(specs, t.Spec)
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs
}

// Call runs one tool call. Every failure — unknown tool, bad arguments, the tool's own
// error — comes back as an error result for the model, never as a crash.
func (r *Registry) Call(ctx context.Context, call ToolCall) ToolResult {
	res := ToolResult{CallID: call.ID, Name: call.Name}
	t, ok := r.tools[call.Name]
	if !ok {
		names := make([]string, 0, len(r.tools))
		for n := range r.tools {
			names = append(names, n)
		}
		sort.Strings(names)
		res.IsError = true
		res.Content = fmt.Sprintf("unknown tool %q; available tools: %s", call.Name, strings.Join(names, ", "))
		return res
	}
	out, err := safeRun(ctx, t, call.Args)
	if err != nil {
		res.IsError = true
		res.Content = err.Error()
		if out != "" {
			res.Content = out + "\n" + err.Error()
		}
		return res
	}
	res.Content = out
	return res
}

func safeRun(ctx context.Context, t Tool, args json.RawMessage) (out string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("tool %s failed: %v", t.Spec.Name, p)
		}
	}()
	return t.run(ctx, args)
}
