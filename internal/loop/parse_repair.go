package loop

import (
	"encoding/json"
	"strconv"
	"strings"
)

// matchBrace returns the end (exclusive) of the object starting at s[i], string-aware;
// closed is false when the text ends first (a truncated tail).
func matchBrace(s string, i int) (end int, closed bool) {
	depth, inStr, esc := 0, byte(0), false
	for j := i; j < len(s); j++ {
		c := s[j]
		if inStr != 0 {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == inStr:
				inStr = 0
			}
			continue
		}
		switch c {
		case '"':
			inStr = c
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1, true
			}
		}
	}
	return len(s), false
}

// repairAndDecode fixes what LLMs get wrong in JSON, then closes a truncated tail,
// cutting back one member at a time when the cut landed mid-value.
func repairAndDecode(s string) (any, bool) {
	fixed := repair(s)
	for range 40 {
		closedText, commas := closeTruncated(fixed)
		var v any
		if err := json.Unmarshal([]byte(closedText), &v); err == nil {
			return v, true
		}
		if len(commas) == 0 {
			return nil, false
		}
		fixed = fixed[:commas[len(commas)-1]]
	}
	return nil, false
}

var smartQuotes = strings.NewReplacer("\u201c", `"`, "\u201d", `"`, "\u2018", `'`, "\u2019", `'`)

// repair rewrites, outside strings: comments removed, single-quoted strings turned into
// JSON strings, Python/JS literals (True, False, None, undefined) into JSON ones, and
// trailing commas dropped.
func repair(s string) string {
	if !strings.Contains(s, `"`) {
		s = smartQuotes.Replace(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			j, _ := skipString(s, i, '"')
			b.WriteString(s[i:j])
			i = j - 1
		case c == '\'':
			j, closed := skipString(s, i, '\'')
			inner := s[i+1 : j]
			if closed {
				inner = s[i+1 : j-1]
			}
			inner = strings.ReplaceAll(inner, `\'`, `'`)
			q, _ := json.Marshal(inner)
			b.Write(q)
			i = j - 1
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			i--
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += end + 3
			}
		case c == ',':
			rest := strings.TrimLeft(s[i+1:], " \t\r\n")
			if rest != "" && (rest[0] == '}' || rest[0] == ']') {
				continue // trailing comma
			}
			b.WriteByte(c)
		case isIdentStart(c):
			j := i
			for j < len(s) && (isIdentStart(s[j]) || (s[j] >= '0' && s[j] <= '9')) {
				j++
			}
			word := s[i:j]
			switch word {
			case "True":
				word = "true"
			case "False":
				word = "false"
			case "None", "undefined", "NaN":
				word = "null"
			case "true", "false", "null":
			default:
				// a bare key (JS object literal): quote it when a colon follows
				if rest := strings.TrimLeft(s[j:], " \t"); strings.HasPrefix(rest, ":") {
					word = strconv.Quote(word)
				}
			}
			b.WriteString(word)
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isIdentStart(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// skipString returns the index just after the string starting at s[i] with quote q, or
// len(s) when it is not closed.
func skipString(s string, i int, q byte) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1, true
		}
	}
	return len(s), false
}

// closeTruncated closes an open string, drops a dangling comma, colon or key and closes
// every open array and object. commas are the positions of member-separating commas,
// where the text may be cut back if the result still does not decode.
func closeTruncated(s string) (string, []int) {
	var (
		stack  []byte
		commas []int
		inStr  bool
		esc    bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			commas = append(commas, i)
		}
	}
	out := s
	if inStr {
		if esc {
			out = out[:len(out)-1]
		}
		out += `"`
	}
	out = strings.TrimRight(out, " \t\r\n")
	for strings.HasSuffix(out, ",") {
		out = strings.TrimRight(out[:len(out)-1], " \t\r\n")
	}
	if strings.HasSuffix(out, ":") {
		out += "null"
	}
	var b strings.Builder
	b.WriteString(out)
	for i := len(stack) - 1; i >= 0; i-- {
		b.WriteByte(stack[i])
	}
	return b.String(), commas
}
