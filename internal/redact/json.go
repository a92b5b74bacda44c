package redact

import (
	"bytes"
	"encoding/json"
)

// Masking a JSON document's decoded strings.

// JSON masks every string (keys included) of a JSON document and returns it re-encoded;
// masking the decoded strings, not the encoded text, also finds what JSON escaping hides
// (a wrapped encoding's line breaks are "\n" in the text). Data that is not JSON is
// masked as text.
func (r *Redactor) JSON(data []byte) []byte {
	if r.Empty() {
		return data
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return r.Bytes(data)
	}
	out, err := json.Marshal(r.walk(v))
	if err != nil {
		return r.Bytes(data)
	}
	return out
}

func (r *Redactor) walk(v any) any {
	switch x := v.(type) {
	case string:
		return r.String(x)
	case []any:
		for i := range x {
			x[i] = r.walk(x[i])
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[r.String(k)] = r.walk(val)
		}
		return out
	}
	return v
}
