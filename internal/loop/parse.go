package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// MaxStudentOutput bounds the text ParseStudentOutput looks at.
const MaxStudentOutput = 1 << 20

const (
	// maxKeyHits bounds the status-like keys examined, counted from the end of the text.
	maxKeyHits = 64
	// maxEnclosing bounds the opening braces tried before one status-like key.
	maxEnclosing = 16
)

// ErrStudentOutput is wrapped by every ParseStudentOutput error.
var ErrStudentOutput = errors.New("no Student result JSON found")

var (
	reFence = regexp.MustCompile("(?s)```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n(.*?)(?:```|$)")
	// reStatusKey finds the keys that can carry a verdict, quoted or bare.
	reStatusKey = regexp.MustCompile(`(?i)["']?\b(?:status|result|outcome|state)["']?\s*:`)
)

// ParseStudentOutput recovers the Student's JSON result (spec story 4) from what an LLM
// really emits: JSON inside code fences, prose before or after, trailing commas,
// comments, single quotes or Python literals, a truncated tail, snake_case keys, a
// string where a list belongs, or several objects. The verdict is a pure function of the
// text: among the objects found, the one shaped most like the spec's Student schema wins
// (see rank), and among equals the one that ends last; keys are read in a fixed
// precedence (status before result/outcome/state, currentStep before step), never in
// map order. When nothing usable is found it returns an error wrapping ErrStudentOutput;
// the caller keeps the raw text (4.E3).
func ParseStudentOutput(raw string) (StudentOutput, error) {
	c, err := parseStudent(raw)
	return c.out, err
}

// candidate is one object that yields a verdict, with where it sits in the text.
type candidate struct {
	out        StudentOutput
	m          map[string]any
	rank       int
	start, end int // byte span in the text; nested candidates share their container's span
	order      int // document order inside one decoded value
}

// better reports whether c beats d: a higher rank, then the later end, then the outer
// object (earlier start), then the later element of one decoded value.
func (c candidate) better(d candidate) bool {
	if c.rank != d.rank {
		return c.rank > d.rank
	}
	if c.end != d.end {
		return c.end > d.end
	}
	if c.start != d.start {
		return c.start < d.start
	}
	return c.order > d.order
}

func parseStudent(raw string) (candidate, error) {
	if len(raw) > MaxStudentOutput {
		raw = raw[len(raw)-MaxStudentOutput:] // the result comes last
	}
	text := strings.TrimSpace(strings.TrimPrefix(raw, "\ufeff"))
	if text == "" {
		return candidate{}, fmt.Errorf("%w: the output is empty", ErrStudentOutput)
	}
	var (
		best  candidate
		found bool
	)
	consider := func(cs []candidate) {
		for _, c := range cs {
			if !found || c.better(best) {
				best, found = c, true
			}
		}
	}
	var whole any
	if json.Unmarshal([]byte(text), &whole) == nil {
		consider(fromValue(whole, 0, len(text)))
	}
	for _, m := range reFence.FindAllStringSubmatchIndex(text, -1) {
		consider(decodeCandidate(text[m[4]:m[5]], m[4], m[5]))
	}
	consider(braceCandidates(text))
	if found {
		return best, nil
	}
	return candidate{}, fmt.Errorf("%w: %s", ErrStudentOutput, describeFailure(text))
}

// braceCandidates decodes the objects around the last status-like keys of the text,
// scanning from the end so a result after a long code listing is found, and trying
// enclosing braces outwards so a key inside a nested object still reaches its container.
func braceCandidates(text string) []candidate {
	hits := reStatusKey.FindAllStringIndex(text, -1)
	if len(hits) > maxKeyHits {
		hits = hits[len(hits)-maxKeyHits:]
	}
	ends := map[int]int{}
	decoded := map[int]bool{}
	var out []candidate
	for h := len(hits) - 1; h >= 0; h-- {
		key := hits[h][0]
		tried := 0
		for i := strings.LastIndexByte(text[:key], '{'); i >= 0 && tried < maxEnclosing; i = strings.LastIndexByte(text[:i], '{') {
			if !plausibleObjectStart(text[i+1:]) {
				continue
			}
			tried++
			end, ok := ends[i]
			if !ok {
				end, _ = matchBrace(text, i)
				ends[i] = end
			}
			if end <= key {
				continue // an earlier sibling, not a container of this key
			}
			yields, seen := decoded[i]
			if !seen {
				cs := decodeCandidate(text[i:end], i, end)
				yields = len(cs) > 0
				decoded[i] = yields
				out = append(out, cs...)
			}
			if yields {
				break // the innermost container of the key that is a result
			}
		}
	}
	return out
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

// decodeCandidate decodes s (found at start..end of the text) as Student results,
// repairing it when strict JSON fails.
func decodeCandidate(s string, start, end int) []candidate {
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		var ok bool
		if v, ok = repairAndDecode(s); !ok {
			return nil
		}
	}
	return fromValue(v, start, end)
}

// fromValue lists the Student results in a decoded value: the object itself, the
// elements of a list, or the objects one level inside a wrapper ({"result": {...}}),
// in document order (wrapper keys sorted, since a decoded map has no order).
func fromValue(v any, start, end int) []candidate {
	var out []candidate
	add := func(m map[string]any) bool {
		o, rank, ok := fromMap(m)
		if ok {
			out = append(out, candidate{out: o, m: m, rank: rank, start: start, end: end, order: len(out)})
		}
		return ok
	}
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			if m, ok := x.(map[string]any); ok {
				add(m)
			}
		}
	case map[string]any:
		if add(t) {
			break
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if m, ok := t[k].(map[string]any); ok {
				add(m)
			}
		}
	}
	return out
}

// Ranks of a candidate object; a higher rank wins whatever its position.
const (
	// rankLoose: "status" with a synonym value (done, failed, success…) and no other
	// schema field; API output such as {"status": "success"} looks like this.
	rankLoose = iota + 1
	// rankSynonymKey: a synonym key (result, outcome, state) with a valid value and at
	// least one other schema field.
	rankSynonymKey
	// rankStatusSynonym: "status" with a synonym value and at least one other schema field.
	rankStatusSynonym
	// rankSchema: "status" with one of the spec's three values (any case or separator).
	rankSchema
)

// verdictKeys are the keys that carry the status, in precedence order.
var verdictKeys = []string{"status", "result", "outcome", "state"}

// schemaKeys are the spec's Student output fields besides status, plus the loop's own
// (trigger, plan); a synonym-keyed object needs one of them to count as a result.
var schemaKeys = []string{"currentstep", "attemptedactions", "problem", "questionformentor", "reason", "summary", "filescreated", "commandsrun", "trigger", "plan"}

// fromMap reads m as a Student result with fixed key precedence and ranks it.
func fromMap(m map[string]any) (StudentOutput, int, bool) {
	status, key, canonical := "", "", false
	for _, k := range verdictKeys {
		if s, ok := field(m, k).(string); ok {
			if st := NormalizeStudentStatus(s); st != "" {
				status, key, canonical = st, k, isCanonicalStatus(s)
				break
			}
		}
	}
	if status == "" {
		return StudentOutput{}, 0, false
	}
	schema := false
	for _, k := range schemaKeys {
		if field(m, k) != nil {
			schema = true
			break
		}
	}
	var rank int
	switch {
	case key == "status" && canonical:
		rank = rankSchema
	case key == "status" && schema:
		rank = rankStatusSynonym
	case schema:
		rank = rankSynonymKey
	case key == "status":
		rank = rankLoose
	default:
		return StudentOutput{}, 0, false // {"state": "done"} alone is someone else's JSON
	}
	return StudentOutput{
		Status:            status,
		CurrentStep:       asString(field(m, "currentstep", "step")),
		AttemptedActions:  asStrings(field(m, "attemptedactions", "actions", "actionstaken")),
		Problem:           asString(field(m, "problem", "error")),
		QuestionForMentor: asString(field(m, "questionformentor", "question")),
		Reason:            asString(field(m, "reason")),
		Summary:           asString(field(m, "summary")),
		FilesCreated:      asStrings(field(m, "filescreated", "files")),
		CommandsRun:       asStrings(field(m, "commandsrun", "commands")),
	}, rank, true
}

// field returns the value of the first of names (normalised: lower case, no _ - or
// space) present in m; raw keys that normalise alike ("status", "Status") are taken in
// sorted order, so the answer never depends on map iteration.
func field(m map[string]any, names ...string) any {
	for _, name := range names {
		var keys []string
		for k := range m {
			if normKey(k) == name {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			if m[k] != nil {
				return m[k]
			}
		}
	}
	return nil
}

var keyNormalizer = strings.NewReplacer("_", "", "-", "", " ", "")

func normKey(k string) string { return keyNormalizer.Replace(strings.ToLower(k)) }

var statusNormalizer = strings.NewReplacer("-", "_", " ", "_")

func statusWord(s string) string {
	return statusNormalizer.Replace(strings.ToLower(strings.TrimSpace(s)))
}

// isCanonicalStatus: s is one of the spec's three statuses, in any case or separator.
func isCanonicalStatus(s string) bool {
	switch statusWord(s) {
	case StudentCompleted, StudentAskMentor, StudentCannotComplete, "askmentor", "cannotcomplete", "can_not_complete":
		return true
	}
	return false
}

// NormalizeStudentStatus maps the spellings models use onto the spec's three statuses;
// "" when s is none of them.
func NormalizeStudentStatus(s string) string {
	switch statusWord(s) {
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
