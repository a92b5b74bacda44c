package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// MaxStudentOutput bounds the text ParseStudentOutput looks at.
const MaxStudentOutput = 1 << 20

// maxCandidates bounds the JSON candidates tried in one output.
const maxCandidates = 64

// ErrStudentOutput is wrapped by every ParseStudentOutput error.
var ErrStudentOutput = errors.New("no Student result JSON found")

var reFence = regexp.MustCompile("(?s)```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n(.*?)(?:```|$)")

// ParseStudentOutput recovers the Student's JSON result (spec story 4) from what an LLM
// really emits: JSON inside code fences, prose before or after, trailing commas,
// comments, single quotes or Python literals, a truncated tail, snake_case keys, a
// string where a list belongs, or several objects (the last one with a status wins).
// When nothing usable is found it returns an error wrapping ErrStudentOutput; the caller
// keeps the raw text (4.E3).
func ParseStudentOutput(raw string) (StudentOutput, error) {
	out, _, err := parseStudent(raw)
	return out, err
}

// ParseStudentResult is ParseStudentOutput for agent runtimes: it also takes the fields
// the loop understands beyond the spec's schema from the same object — "trigger" (the
// stuck trigger the Student names) and "plan" (its line-anchored plan) — and keeps the
// raw text with the reason when nothing could be recovered (4.E3).
func ParseStudentResult(raw string) (StudentResult, error) {
	out, m, err := parseStudent(raw)
	if err != nil {
		return StudentResult{Raw: raw, ParseError: err.Error()}, err
	}
	res := StudentResult{StudentOutput: out}
	for k, v := range m {
		switch normKey(k) {
		case "trigger":
			if t, ok := v.(string); ok {
				res.Trigger = Trigger(strings.ToLower(strings.TrimSpace(t)))
			}
		case "plan":
			if b, err := json.Marshal(v); err == nil {
				var plan []PlanStep
				if json.Unmarshal(b, &plan) == nil {
					res.Plan = plan
				}
			}
		}
	}
	return res, nil
}

func parseStudent(raw string) (StudentOutput, map[string]any, error) {
	if len(raw) > MaxStudentOutput {
		raw = raw[len(raw)-MaxStudentOutput:] // the result comes last
	}
	text := strings.TrimSpace(strings.TrimPrefix(raw, "\ufeff"))
	if text == "" {
		return StudentOutput{}, nil, fmt.Errorf("%w: the output is empty", ErrStudentOutput)
	}
	var whole any
	if json.Unmarshal([]byte(text), &whole) == nil {
		if out, m, ok := fromValue(whole); ok {
			return out, m, nil
		}
	}
	var (
		best   StudentOutput
		bestM  map[string]any
		found  bool
		bestAt = -1
	)
	consider := func(at int, s string) {
		if out, m, ok := decodeCandidate(s); ok && at >= bestAt {
			best, bestM, found, bestAt = out, m, true, at
		}
	}
	for _, m := range reFence.FindAllStringSubmatchIndex(text, -1) {
		consider(m[4], text[m[4]:m[5]])
	}
	tried := 0
	for i := 0; i < len(text) && tried < maxCandidates; i++ {
		if text[i] != '{' || !plausibleObjectStart(text[i+1:]) {
			continue
		}
		tried++
		end, closed := matchBrace(text, i)
		if out, m, ok := decodeCandidate(text[i:end]); ok {
			if i >= bestAt {
				best, bestM, found, bestAt = out, m, true, i
			}
			if closed {
				i = end - 1 // skip nested objects of an accepted one
			}
		}
	}
	if found {
		return best, bestM, nil
	}
	return StudentOutput{}, nil, fmt.Errorf("%w: %s", ErrStudentOutput, describeFailure(text))
}

func describeFailure(text string) string {
	switch {
	case !strings.Contains(text, "{"):
		return "the output has no JSON object"
	case !strings.Contains(strings.ToLower(text), "status"):
		return "no JSON object has a \"status\" field"
	default:
		return "no JSON object with a valid \"status\" (completed, ask_mentor, cannot_complete) could be recovered"
	}
}

// plausibleObjectStart: after '{' comes a key, a quote or the end of an object.
func plausibleObjectStart(rest string) bool {
	rest = strings.TrimLeft(rest, " \t\r\n")
	if rest == "" {
		return false
	}
	c := rest[0]
	return c == '"' || c == '\'' || c == '}' || c == '/' || c == 0xE2 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
}

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

// decodeCandidate decodes s as a Student result, repairing it when strict JSON fails.
func decodeCandidate(s string) (StudentOutput, map[string]any, bool) {
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return StudentOutput{}, nil, false
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		var ok bool
		if v, ok = repairAndDecode(s); !ok {
			return StudentOutput{}, nil, false
		}
	}
	return fromValue(v)
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

// fromValue maps a decoded JSON value onto StudentOutput, leniently.
func fromValue(v any) (StudentOutput, map[string]any, bool) {
	switch t := v.(type) {
	case []any: // a list of results: the last one with a status
		for i := len(t) - 1; i >= 0; i-- {
			if out, m, ok := fromValue(t[i]); ok {
				return out, m, true
			}
		}
		return StudentOutput{}, nil, false
	case map[string]any:
		out, ok := fromMap(t)
		if ok {
			return out, t, true
		}
		for _, inner := range t { // {"result": {...}}
			if m, isMap := inner.(map[string]any); isMap {
				if out, ok := fromMap(m); ok {
					return out, m, true
				}
			}
		}
	}
	return StudentOutput{}, nil, false
}

func fromMap(m map[string]any) (StudentOutput, bool) {
	var out StudentOutput
	for k, v := range m {
		switch normKey(k) {
		case "status", "result", "outcome", "state":
			if s, ok := v.(string); ok && out.Status == "" {
				out.Status = NormalizeStudentStatus(s)
			}
		case "currentstep", "step":
			out.CurrentStep = asString(v)
		case "attemptedactions", "actions", "actionstaken":
			out.AttemptedActions = asStrings(v)
		case "problem", "error":
			out.Problem = asString(v)
		case "questionformentor", "question":
			out.QuestionForMentor = asString(v)
		case "reason":
			out.Reason = asString(v)
		case "summary":
			out.Summary = asString(v)
		case "filescreated", "files":
			out.FilesCreated = asStrings(v)
		case "commandsrun", "commands":
			out.CommandsRun = asStrings(v)
		}
	}
	return out, out.Status != ""
}

func normKey(k string) string {
	k = strings.ToLower(k)
	return strings.NewReplacer("_", "", "-", "", " ", "").Replace(k)
}

// NormalizeStudentStatus maps the spellings models use onto the spec's three statuses;
// "" when s is none of them.
func NormalizeStudentStatus(s string) string {
	switch strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(s))) {
	case "completed", "complete", "done", "success", "succeeded", "finished":
		return StudentCompleted
	case "ask_mentor", "askmentor", "ask", "ask_for_help", "needs_help", "need_help", "help", "stuck":
		return StudentAskMentor
	case "cannot_complete", "cannotcomplete", "can_not_complete", "cant_complete", "blocked", "blocker", "failed", "unable_to_complete":
		return StudentCannotComplete
	}
	return ""
}

func asString(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case []any:
		return strings.Join(asStrings(t), "; ")
	case float64, bool:
		return fmt.Sprint(t)
	default:
		b, _ := json.Marshal(t)
		return string(b)
	}
}

func asStrings(v any) []string {
	switch t := v.(type) {
	case nil:
		return nil
	case []any:
		out := make([]string, 0, len(t))
		for _, x := range t {
			if s := asString(x); s != "" {
				out = append(out, s)
			}
		}
		return out
	case string:
		if t == "" {
			return nil
		}
		return []string{t}
	default:
		return []string{asString(t)}
	}
}
