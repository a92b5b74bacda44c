package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

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

// RenderAuditLog renders smile-audit.log in memory; Write streams it to its file
// instead (WriteAuditLog), which is what a long log needs.
func RenderAuditLog(r *Report) string {
	var b strings.Builder
	_ = WriteAuditLog(&b, r) // a strings.Builder does not fail
	return b.String()
}

// WriteAuditLog streams smile-audit.log to w, masked. A report built here (Build) writes
// the whole run with the full command outputs saved under Options.LogsDir, reading one
// at a time; a decoded report writes what its audit trail holds.
func WriteAuditLog(w io.Writer, r *Report) error {
	a := newAuditWriter(w, r.redactor)
	if r.state != nil {
		writeAuditLog(a, r.state, r, r.opts)
	} else {
		auditFromReport(a, r)
	}
	if err := a.flush(); err != nil {
		return fmt.Errorf("write audit log: %w", err)
	}
	return nil
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
