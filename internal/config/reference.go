package config

import (
	"fmt"
	"strings"

	invopop "github.com/invopop/jsonschema"
)

// README markers around the generated configuration reference.
const (
	ReferenceStart = "<!-- config-reference:start -->"
	ReferenceEnd   = "<!-- config-reference:end -->"
)

// Reference renders the configuration reference of README.md from the JSON Schema: one
// table row per field with its type, default, allowed values and description.
func Reference() string {
	root := schemaIndex()[""]
	var b strings.Builder
	b.WriteString("<!-- generated from schema/smile.schema.json by `go test ./internal/config -run TestReadmeReference -update`; do not edit -->\n\n")
	b.WriteString("| Field | Type | Default | Allowed values | Description |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for _, n := range walkSchema(root, "") {
		s := n.schema
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", n.path, cell(s.Type), defaultCell(s), allowedCell(s), cell(s.Description))
	}
	if root.If != nil && root.Then != nil && root.If.Properties != nil {
		for pair := root.If.Properties.Oldest(); pair != nil; pair = pair.Next() {
			if pair.Value.Const != nil {
				fmt.Fprintf(&b, "\n%s required when `%s` is `%s`.\n", codeList(root.Then.Required), pair.Key, jsonText(pair.Value.Const))
			}
		}
	}
	b.WriteString("\nUnknown fields are ignored, so newer files work with older versions; a near-miss of a known field (`maxIteration`, `studentBehaviour`) earns a warning naming the intended one. `smile-action validate` checks a file and the tutorial it names.\n")
	return b.String()
}

func codeList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	verb := " is"
	if len(q) > 1 {
		verb = " are"
	}
	return strings.Join(q, ", ") + verb
}

func defaultCell(s *invopop.Schema) string {
	if s.Default == nil {
		return ""
	}
	return "`" + cell(jsonText(s.Default)) + "`"
}

func allowedCell(s *invopop.Schema) string {
	var parts []string
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = "`" + cell(fmt.Sprint(v)) + "`"
		}
		parts = append(parts, strings.Join(vals, ", "))
	}
	if s.Minimum != "" {
		parts = append(parts, "≥ "+string(s.Minimum))
	}
	if s.ExclusiveMinimum != "" {
		parts = append(parts, "> "+string(s.ExclusiveMinimum))
	}
	if s.Maximum != "" {
		parts = append(parts, "≤ "+string(s.Maximum))
	}
	if s.MinLength != nil && *s.MinLength > 0 {
		parts = append(parts, "non-empty")
	}
	switch {
	case s.Pattern != "" && len(s.Examples) > 0:
		ex := make([]string, len(s.Examples))
		for i, e := range s.Examples {
			ex[i] = "`" + cell(fmt.Sprint(e)) + "`"
		}
		parts = append(parts, "like "+strings.Join(ex, ", "))
	case s.Pattern != "":
		parts = append(parts, "matches `"+cell(s.Pattern)+"`")
	}
	return strings.Join(parts, "; ")
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// ReplaceReference returns readme with the text between the reference markers replaced by
// Reference(); ok is false when the markers are missing.
func ReplaceReference(readme string) (string, bool) {
	start := strings.Index(readme, ReferenceStart)
	end := strings.Index(readme, ReferenceEnd)
	if start < 0 || end < start {
		return readme, false
	}
	head := readme[:start+len(ReferenceStart)]
	return head + "\n" + Reference() + readme[end:], true
}
