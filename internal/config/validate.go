package config

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"

	units "github.com/docker/go-units"
	invopop "github.com/invopop/jsonschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// minMemory is the smallest memory limit the Docker Engine accepts.
const minMemory = 6 * 1024 * 1024

// compiled is the schema compiled once for validation: the committed schema, the editor's
// schema and the loader's rules are one and the same.
var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	raw, err := SchemaJSON()
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		return nil, fmt.Errorf("decode config schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, doc); err != nil {
		return nil, fmt.Errorf("add config schema: %w", err)
	}
	s, err := c.Compile(SchemaID)
	if err != nil {
		return nil, fmt.Errorf("compile config schema: %w", err)
	}
	return s, nil
})

// validateDocument checks a decoded smile.json against the schema and returns every
// problem, sorted by path.
func validateDocument(doc any) []Problem {
	s, err := compiled()
	if err != nil {
		return []Problem{{Message: "internal error: " + err.Error()}}
	}
	err = s.Validate(doc)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Problem{{Message: err.Error()}}
	}
	var problems []Problem
	seen := map[string]bool{}
	for _, leaf := range leaves(ve) {
		p := describe(doc, leaf)
		if key := p.Path + "\x00" + p.Message; !seen[key] {
			seen[key] = true
			problems = append(problems, p)
		}
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Path < problems[j].Path })
	return problems
}

// leaves returns the innermost causes of a validation error: one per actual problem.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// describe turns one schema violation into a Problem that says what is wrong, what is
// allowed and how to fix it.
func describe(doc any, ve *jsonschema.ValidationError) Problem {
	path := strings.Join(ve.InstanceLocation, ".")
	val, _ := lookup(doc, ve.InstanceLocation)
	p := Problem{Path: path, Value: jsonText(val)}
	field := schemaIndex()[path]
	fallback := " or remove the field to use the default" + defaultText(field)
	if path == "" {
		fallback = ""
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Type:
		p.Message = fmt.Sprintf("%s is %s, but it must be %s; %s", p.Value, article(k.Got), strings.Join(articles(k.Want), " or "), typeFix(k.Want, val)) + fallback
	case *kind.Enum:
		allowed := make([]string, len(k.Want))
		for i, w := range k.Want {
			allowed[i] = jsonText(w)
		}
		p.Message = fmt.Sprintf("%s is not allowed; allowed values are %s", p.Value, strings.Join(allowed, ", "))
		if s, ok := val.(string); ok {
			for _, w := range k.Want {
				if ws, _ := w.(string); strings.EqualFold(ws, strings.TrimSpace(s)) {
					p.Message += fmt.Sprintf(" (values are lower-case: write %q)", ws)
				}
			}
		}
		p.Message += "; set one of them" + fallback
	case *kind.Minimum:
		p.Message = fmt.Sprintf("%s is too small; the minimum is %s; set a number of at least %s", p.Value, ratText(k.Want), ratText(k.Want)) + fallback
	case *kind.ExclusiveMinimum:
		p.Message = fmt.Sprintf("%s is too small; it must be greater than %s", p.Value, ratText(k.Want)) + "; set a larger number" + fallback
	case *kind.Maximum:
		p.Message = fmt.Sprintf("%s is too large; the maximum is %s; set a number of at most %s", p.Value, ratText(k.Want), ratText(k.Want)) + fallback
	case *kind.MinLength:
		p.Message = "must not be empty; set a value" + fallback
	case *kind.Pattern:
		if path == "container.memory" {
			p.Message = fmt.Sprintf("%s is not a Docker memory size; write a number with a unit such as \"512m\" or \"2g\"", p.Value) + fallback
		} else {
			p.Message = fmt.Sprintf("%s does not match the pattern %s", p.Value, k.Want) + fallback
		}
	case *kind.Required:
		// Only the replay rule requires a field.
		missing := slices.Clone(k.Missing)
		sort.Strings(missing)
		for i, m := range missing {
			if path != "" {
				missing[i] = path + "." + m
			}
		}
		p.Path, p.Value = strings.Join(missing, ", "), ""
		p.Message = "is missing; llmProvider \"replay\" replays a recorded scenario: add \"scenario\": \"path/to/scenario.json\" or choose another llmProvider"
	default:
		p.Message = fmt.Sprintf("%s: %s", p.Value, ve.ErrorKind)
	}
	return p
}

// semanticProblems are the checks the schema cannot express.
func (c Config) semanticProblems() []Problem {
	var out []Problem
	if b, err := units.RAMInBytes(c.Container.Memory); err == nil && b < minMemory {
		out = append(out, Problem{Path: "container.memory", Value: jsonText(c.Container.Memory),
			Message: fmt.Sprintf("%q is below Docker's minimum of 6m; set at least \"6m\" (\"2g\" is the default)", c.Container.Memory)})
	}
	if c.LLMProvider == ProviderReplay && c.Scenario != "" {
		if _, err := os.Stat(c.Scenario); err != nil {
			out = append(out, Problem{Path: "scenario", Value: jsonText(c.Scenario),
				Message: fmt.Sprintf("scenario file %q not found; the path is relative to the current directory", c.Scenario)})
		}
	}
	return out
}

// lookup returns the value at a JSON path of a decoded document.
func lookup(doc any, path []string) (any, bool) {
	cur := doc
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// jsonText renders a value as compact JSON, shortened when long.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if s := string(b); len(s) <= 60 {
		return s
	} else if strings.HasPrefix(s, "{") {
		return "{…}"
	} else if strings.HasPrefix(s, "[") {
		return "[…]"
	} else {
		return s[:57] + "…"
	}
}

func defaultText(s *invopop.Schema) string {
	if s == nil || s.Default == nil {
		return ""
	}
	return " (" + jsonText(s.Default) + ")"
}

func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(3)
}

func article(t string) string {
	switch t {
	case "integer", "object", "array":
		return "an " + t
	case "null":
		return "null"
	default:
		return "a " + t
	}
}

func articles(ts []string) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = article(t)
	}
	return out
}

// typeFix says how to write a value of the wanted JSON type.
func typeFix(want []string, got any) string {
	s, quoted := got.(string)
	switch {
	case slices.Contains(want, "integer"):
		if quoted {
			return fmt.Sprintf("write a whole number without quotes (%s, not %q),", strings.TrimSpace(s), s)
		}
		return "write a whole number without quotes such as 10,"
	case slices.Contains(want, "number"):
		return "write a number without quotes such as 1.5,"
	case slices.Contains(want, "boolean"):
		return "write true or false without quotes,"
	case slices.Contains(want, "string"):
		return "write the value in double quotes,"
	case slices.Contains(want, "object"):
		return "write an object such as {\"key\": value}"
	}
	return "change the value,"
}
