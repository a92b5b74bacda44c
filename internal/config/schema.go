package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
)

// SchemaID is the $id of the committed schema file; editors resolve "$schema" with it.
const SchemaID = "https://raw.githubusercontent.com/smile-loop/smile-loop/main/schema/smile.schema.json"

// SchemaPath is where the generated schema is committed, relative to the repository root.
const SchemaPath = "schema/smile.schema.json"

// Schema returns the JSON Schema of smile.json generated from the Go types. Nested objects
// are inlined (no $defs) so every field's description, default and limits sit in one place.
// Unknown fields are allowed: smile.json stays forward compatible (spec 1.E3).
func Schema() *jsonschema.Schema {
	r := &jsonschema.Reflector{
		DoNotReference:             true,
		AllowAdditionalProperties:  true,
		RequiredFromJSONSchemaTags: true, // nothing is required: every field has a default
		ExpandedStruct:             true,
	}
	s := r.Reflect(&Config{})
	s.ID = SchemaID
	s.Title = "smile.json"
	s.Description = "Configuration of smile-loop (smile-action). Every field is optional; absent fields take their defaults."
	return s
}

// JSONSchemaExtend adds the rules struct tags cannot express: a replay run needs a scenario.
func (Config) JSONSchemaExtend(s *jsonschema.Schema) {
	props := orderedmap.New[string, *jsonschema.Schema]()
	props.Set("llmProvider", &jsonschema.Schema{Const: ProviderReplay})
	s.If = &jsonschema.Schema{Properties: props, Required: []string{"llmProvider"}}
	s.Then = &jsonschema.Schema{Required: []string{"scenario"}}
}

// SchemaJSON is Schema as indented JSON with a trailing newline: the bytes of
// schema/smile.schema.json and of `smile-action schema config`.
func SchemaJSON() ([]byte, error) {
	raw, err := json.Marshal(Schema())
	if err != nil {
		return nil, fmt.Errorf("marshal config schema: %w", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("indent config schema: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// schemaNode is one property of the schema, with its dotted JSON path.
type schemaNode struct {
	path   string
	schema *jsonschema.Schema
}

var schemaIndex = sync.OnceValue(func() map[string]*jsonschema.Schema {
	idx := map[string]*jsonschema.Schema{"": Schema()}
	for _, n := range walkSchema(idx[""], "") {
		idx[n.path] = n.schema
	}
	return idx
})

// walkSchema lists every property below s in declaration order, depth first.
func walkSchema(s *jsonschema.Schema, prefix string) []schemaNode {
	if s == nil || s.Properties == nil {
		return nil
	}
	var out []schemaNode
	for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
		p := pair.Key
		if prefix != "" {
			p = prefix + "." + pair.Key
		}
		out = append(out, schemaNode{path: p, schema: pair.Value})
		out = append(out, walkSchema(pair.Value, p)...)
	}
	return out
}
