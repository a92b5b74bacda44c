package observe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// maxString bounds every string an observer receives (command output, notes): longer
// strings keep their head and tail around a marker.
const maxString = 4096

// encoder turns events into the JSON observers receive, with every string value passed
// through the redaction function first and then bounded. Redacting before bounding
// matters: a secret cut in half would no longer match the redactor.
type encoder struct {
	redact func(string) string
}

// encode marshals v and rewrites every string value in it (object keys are left alone:
// they are field names). It scans the JSON once instead of building a tree: encoding runs
// on the loop's goroutine, so it has to be cheap.
func (c encoder) encode(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal event: %w", err)
	}
	return c.rewrite(raw), nil
}

// rewrite passes every string value of compact JSON (as json.Marshal writes it) through
// text. Outside string literals JSON has no quote characters, so a quote always opens a
// literal, and a literal followed by ':' is a key.
func (c encoder) rewrite(raw []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for j < len(raw) && raw[j] != '"' {
			if raw[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
		if j >= len(raw) {
			break // not valid JSON; leave the rest alone
		}
		if j+1 < len(raw) && raw[j+1] == ':' {
			i = j // an object key: a field name, left alone
			continue
		}
		var s string
		if escaped {
			if err := json.Unmarshal(raw[i:j+1], &s); err != nil {
				i = j
				continue
			}
		} else {
			s = string(raw[i+1 : j])
		}
		if ns := c.text(s); ns != s {
			if out == nil {
				out = make([]byte, 0, len(raw))
			}
			q, _ := json.Marshal(ns)
			out = append(append(out, raw[last:i]...), q...)
			last = j + 1
		}
		i = j
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// event returns e with its payload redacted (as a generic JSON tree), for writers that
// format text from it. Without a redaction function e is returned as it is.
func (c encoder) event(e loop.Event) loop.Event {
	if c.redact == nil || e.Data == nil {
		return e
	}
	raw, err := json.Marshal(e.Data)
	if err != nil {
		e.Data = nil
		return e
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		e.Data = nil
		return e
	}
	e.Data = c.walk(tree)
	return e
}

func (c encoder) walk(v any) any {
	switch t := v.(type) {
	case string:
		return c.text(t)
	case []any:
		for i := range t {
			t[i] = c.walk(t[i])
		}
		return t
	case map[string]any:
		for k, x := range t {
			t[k] = c.walk(x)
		}
		return t
	default:
		return v
	}
}

// text redacts then bounds one string.
func (c encoder) text(s string) string {
	if c.redact != nil {
		s = c.redact(s)
	}
	return bound(s, maxString)
}

// bound keeps at most limit bytes of s: its head and tail, cut on rune boundaries.
func bound(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	const marker = "\n… (truncated) …\n"
	half := (limit - len(marker)) / 2
	head, tail := half, len(s)-half
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + marker + s[tail:]
}
