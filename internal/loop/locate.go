package loop

import (
	"slices"
	"strings"

	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// How a finding's line was found (Finding.Located).
const (
	LocatedByAgent   = "finding" // the agent gave the line
	LocatedByCommand = "command" // the failing command's line among the code blocks
	LocatedByQuote   = "quote"   // the text the Student quoted
	LocatedByStep    = "step"    // the step the Student named
	LocatedByPlan    = "plan"    // the step of the Student's accepted plan
	LocatedNowhere   = "none"    // no line fits: a line is never invented
)

// Location is where a finding is in the tutorial: lines and how they were found.
type Location struct {
	Line    int
	EndLine int
	Source  string // one of the Located… constants
}

// Found reports whether the location names a line.
func (l Location) Found() bool { return l.Line > 0 }

// Locate finds the tutorial lines a finding is about. The order, most precise first:
// the line the agent gave (when it exists in the tutorial); the failing command among
// the code blocks (else its first line anywhere in the text); the quoted text; the line
// the loop recorded when it saw that command run; the step's heading (or, when the
// step's section shows the failing command, that command's line) or its words; the
// step of the accepted plan; a code-block command that contains the failing one. Without
// the tutorial (re-rendering) only the agent's and the recorded lines count. This is the
// only place a finding's line is decided.
func Locate(tut *tutorial.Tutorial, plan []PlanStep, cmds []CommandRecord, f Finding) Location {
	var m *tutorial.LineMap
	if tut != nil {
		m = tut.Map
	}
	valid := func(n int) bool { return n >= 1 && (m == nil || n <= m.LineCount()) }
	at := func(line, end int, source string) Location {
		if end < line || !valid(end) {
			end = line
		}
		return Location{Line: line, EndLine: end, Source: source}
	}
	if valid(f.Line) {
		return at(f.Line, f.EndLine, LocatedByAgent)
	}
	cmd := NormCommand(f.Command)
	if m != nil && cmd != "" {
		if l, e := commandLine(tut, f.Command); valid(l) {
			return at(l, e, LocatedByCommand)
		}
	}
	if m != nil && strings.TrimSpace(f.Quote) != "" {
		if l, e := textLines(tut, f.Quote); valid(l) {
			return at(l, e, LocatedByQuote)
		}
	}
	if cmd != "" {
		for _, r := range cmds {
			if NormCommand(r.Command) == cmd && valid(r.Line) {
				return at(r.Line, r.Line, LocatedByCommand)
			}
		}
	}
	if m != nil && strings.TrimSpace(f.Step) != "" {
		if loc, ok := m.Locate(strings.TrimSpace(f.Step)); ok && valid(loc.Line) {
			// The step's own command, when it is in the step's section, is more precise.
			if cmd != "" {
				if l, e, ok := codeLine(m, cmd, loc.Line); ok {
					return at(l, e, LocatedByCommand)
				}
			}
			return at(loc.Line, loc.EndLine, LocatedByStep)
		}
		if l, e := textLines(tut, f.Step); valid(l) {
			return at(l, e, LocatedByStep)
		}
	}
	if p, ok := planStep(plan, f.Step); ok && valid(p.StartLine) {
		if cmd != "" && m != nil {
			if l, e, ok := codeLine(m, cmd, p.StartLine); ok && l <= max(p.EndLine, p.StartLine) {
				return at(l, e, LocatedByCommand)
			}
		}
		return at(p.StartLine, p.EndLine, LocatedByPlan)
	}
	if cmd != "" && m != nil {
		if l, e, ok := codeLine(m, cmd, 1); ok {
			return at(l, e, LocatedByCommand)
		}
	}
	return Location{Source: LocatedNowhere}
}

// lineIn reports whether line n exists in the tutorial.
func lineIn(tut *tutorial.Tutorial, n int) bool {
	return n >= 1 && (tut == nil || tut.Map == nil || n <= tut.Map.LineCount())
}

// textLines finds quoted or named text: through the line map, else by its parts.
func textLines(tut *tutorial.Tutorial, q string) (int, int) {
	q = strings.TrimSpace(q)
	if loc, ok := tut.Map.Locate(q); ok && loc.Line > 0 {
		return loc.Line, max(loc.EndLine, loc.Line)
	}
	for _, needle := range needles(q) {
		if l := findLine(tut, needle); l > 0 {
			return l, l
		}
	}
	return 0, 0
}

// commandLine finds the line of a command among the tutorial's code blocks, else the
// first line of its text anywhere in the tutorial.
func commandLine(tut *tutorial.Tutorial, command string) (int, int) {
	command = strings.TrimSpace(command)
	if tut == nil || tut.Map == nil || command == "" {
		return 0, 0
	}
	for _, cb := range tut.Map.CodeBlocks() {
		for _, c := range cb.Commands {
			if strings.TrimSpace(c.Text) == command {
				return c.StartLine, c.EndLine
			}
		}
	}
	if l := findLine(tut, firstLine(command)); l > 0 {
		return l, l
	}
	return 0, 0
}

// codeLine finds the first code-block command at or after line from matching cmd
// (normalised): exactly, else by containment. Commands under a different section than
// from's are skipped when from > 1.
func codeLine(m *tutorial.LineMap, cmd string, from int) (int, int, bool) {
	var loose []tutorial.Command
	section := m.HeadingPath(from)
	for _, b := range m.CodeBlocks() {
		for _, c := range b.Commands {
			if c.StartLine < from || from > 1 && !hasPrefix(m.HeadingPath(c.StartLine), section) {
				continue
			}
			n := NormCommand(c.Text)
			if n == cmd {
				return c.StartLine, c.EndLine, true
			}
			if len(n) >= 4 && (strings.Contains(cmd, n) || strings.Contains(n, cmd)) {
				loose = append(loose, c)
			}
		}
	}
	if len(loose) > 0 {
		return loose[0].StartLine, loose[0].EndLine, true
	}
	return 0, 0, false
}

func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// NormCommand normalises a shell command for comparisons: prompt, line continuations
// and spacing removed.
func NormCommand(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "$ ")
	s = strings.ReplaceAll(s, "\\\n", " ")
	return strings.Join(strings.Fields(s), " ")
}

// needles are the parts of a step name worth searching for: the whole, text in quotes
// or backticks, and what follows "Step 3:".
func needles(s string) []string {
	out := []string{s}
	for _, m := range reQuoted.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	if i := strings.Index(s, ":"); i > 0 && i < len(s)-4 {
		out = append(out, s[i+1:])
	}
	if i := strings.Index(s, " ("); i > 4 {
		out = append(out, s[:i])
	}
	return out
}

var markup = strings.NewReplacer("#", "", "*", "", "_", "", "`", "", ">", "", "$ ", "")

// findLine returns the first line containing needle, ignoring case and inline markup;
// headings win over other lines.
func findLine(tut *tutorial.Tutorial, needle string) int {
	needle = strings.ToLower(strings.Join(strings.Fields(markup.Replace(needle)), " "))
	if len([]rune(needle)) < 4 {
		return 0
	}
	first := 0
	for i := 1; i <= tut.Map.LineCount(); i++ {
		raw := tut.Map.Line(i)
		line := strings.ToLower(strings.Join(strings.Fields(markup.Replace(raw)), " "))
		if strings.Contains(line, needle) {
			if strings.HasPrefix(strings.TrimSpace(raw), "#") {
				return i
			}
			if first == 0 {
				first = i
			}
		}
	}
	return first
}

// planStep finds a step the Student named in its plan.
func planStep(plan []PlanStep, step string) (PlanStep, bool) {
	step = strings.ToLower(strings.TrimSpace(step))
	if step == "" {
		return PlanStep{}, false
	}
	for _, p := range plan {
		title := strings.ToLower(strings.TrimSpace(p.Title))
		if title != "" && (strings.Contains(step, title) || strings.Contains(title, step)) {
			return p, true
		}
	}
	return PlanStep{}, false
}
