package report

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"
)

// SchemaID is the $id of the report's JSON Schema.
const SchemaID = "https://github.com/smile-loop/smile-loop/schema/report.schema.json"

// RenderJSON renders smile-report.json (indented, no HTML escaping, newline-terminated).
func RenderJSON(r *Report) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("encode report: %w", err)
	}
	return r.redactor.Bytes(buf.Bytes()), nil
}

// RenderAuditLog renders smile-audit.log.
func RenderAuditLog(r *Report) string {
	if r.auditLog != "" {
		return r.auditLog
	}
	return r.redactor.String(auditFromReport(r))
}

// Decode reads a report from its JSON (smile-report.json).
func Decode(data []byte) (*Report, error) {
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decode report: %w", err)
	}
	return &r, nil
}

// JSONSchema is the JSON Schema of smile-report.json, generated from the Go types
// (committed as schema/report.schema.json; `smile-action schema report` prints it).
func JSONSchema() ([]byte, error) {
	ref := jsonschema.Reflector{}
	s := ref.Reflect(&Report{})
	s.ID = SchemaID
	s.Title = "smile-loop report"
	s.Description = "smile-report.json: the gaps a simulated learner found in a Markdown tutorial, the timeline of the run, its audit trail and recommendations."
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode report schema: %w", err)
	}
	return append(out, '\n'), nil
}
