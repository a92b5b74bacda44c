package loop

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Fix sources (Finding.FixSource), best first.
const (
	FixByMentor      = "mentor"       // the Mentor's fix for that finding
	FixByMentorNotes = "mentor_notes" // the part of the Mentor's notes about the finding
	FixByRule        = "rule"         // the rule-based Mentor's fix (Options.RuleFix)
)

// maxNotesFix bounds the Mentor's notes quoted as a finding's fix.
const maxNotesFix = 800

// RuleFix writes the rule-based fix of a finding no Mentor fixed (the deterministic
// Mentor's rules, internal/agent/none.Fix); nil leaves such findings without a fix.
type RuleFix func(Finding) string

// CompleteFindings finishes every finding of st, in one place, for any agent: a Student
// that stopped without listing any gets one from its output; each is located once
// (Locate), categorised with a severity (an environment limitation is low, the finding
// that stopped the run critical), and given its fix and the fix's source (the Mentor's
// fix, else its notes about the finding, else ruleFix). What a finding already has is
// kept, so calling it again changes nothing: the loop calls it at the
// end of a run (a Student result is located and categorised as it comes in, its fixes
// are given when the Mentor has answered); the report calls it for a state.json
// written before findings were complete. tut may be nil (only recorded lines are then used).
func CompleteFindings(st *State, tut *tutorial.Tutorial, ruleFix RuleFix) {
	ended := st.Status
	if st.FinalResult != nil && st.FinalResult.Status != "" {
		ended = st.FinalResult.Status
	}
	last := len(st.History) - 1
	for hi := range st.History {
		it := &st.History[hi]
		s := it.Student
		if s == nil {
			continue
		}
		if len(s.Findings) == 0 && s.Status != StudentCompleted &&
			(s.Problem != "" || s.Reason != "" || s.QuestionForMentor != "" || s.CurrentStep != "") {
			s.Findings = []Finding{findingFromOutput(*s)}
		}
		plan := st.Plan
		if len(s.Plan) > 0 {
			plan = s.Plan
		}
		for i := range s.Findings {
			completeFinding(&s.Findings[i], tut, plan, s.Commands)
		}
		fixFindings(s.Findings, it.Mentor, ruleFix)
		stopped := s.Status == StudentCannotComplete || it.Mentor != nil && it.Mentor.Unresolvable ||
			hi == last && (ended == StatusBlocker || ended == StatusStalled)
		if stopped && len(s.Findings) > 0 {
			if f := &s.Findings[blockingFinding(s)]; !f.Environment {
				f.Severity = SeverityCritical
			}
		}
	}
}

// completeFinding locates and categorises one finding.
func completeFinding(f *Finding, tut *tutorial.Tutorial, plan []PlanStep, cmds []CommandRecord) {
	if f.Located == "" {
		loc := Locate(tut, plan, cmds, *f)
		f.Line, f.EndLine, f.Located = loc.Line, loc.EndLine, loc.Source
	}
	if f.Severity == "" {
		f.Category = Categorize(*f, recordedOutput(*f, cmds))
		f.Severity = SeverityOf(f.Category)
		if f.Environment {
			// a limitation of the environment, not a fault of the tutorial
			f.Category, f.Severity = CategoryEnvironmentAssumption, SeverityLow
		}
	}
}

// blockingFinding is the finding that stopped the Student: the one on its current
// step, else its last.
func blockingFinding(s *StudentResult) int {
	b := len(s.Findings) - 1
	for i, f := range s.Findings {
		if s.CurrentStep != "" && normWords(f.Step) == normWords(s.CurrentStep) {
			b = i
		}
	}
	return b
}

// recordedOutput is the output the loop recorded for a finding's command when the
// finding quotes none: a failing run first.
func recordedOutput(f Finding, cmds []CommandRecord) string {
	if f.Output != "" || f.Command == "" {
		return ""
	}
	c := NormCommand(f.Command)
	for _, failing := range []bool{true, false} {
		for _, r := range cmds {
			if NormCommand(r.Command) == c && (r.ExitCode != 0 || r.TimedOut) == failing && r.Output != "" {
				return r.Output
			}
		}
	}
	return ""
}

// fixFindings gives each finding without one its fix: the Mentor's entry for it, else
// the part of the Mentor's notes about it, else the rule-based fix.
func fixFindings(fs []Finding, m *MentorRecord, ruleFix RuleFix) {
	for i := range fs {
		f := &fs[i]
		if f.FixSource != "" {
			continue
		}
		if fix, src := mentorFix(m, i, len(fs), *f); fix != "" {
			f.Fix, f.FixSource = fix, src
			continue
		}
		if ruleFix != nil {
			if fix := strings.TrimSpace(ruleFix(*f)); fix != "" {
				f.Fix, f.FixSource = fix, FixByRule
			}
		}
	}
}

// mentorFix is the Mentor's fix for finding i of n: its own Fixes entry, else the part
// of its notes about this finding (all the notes when there is one finding).
func mentorFix(m *MentorRecord, i, n int, f Finding) (string, string) {
	if m == nil {
		return "", ""
	}
	if i < len(m.Fixes) && strings.TrimSpace(m.Fixes[i]) != "" {
		return strings.TrimSpace(m.Fixes[i]), FixByMentor
	}
	notes := strings.TrimSpace(m.Notes)
	if notes == "" {
		return "", ""
	}
	_, tool := MissingDependency(f.ExitCode, f.Output+"\n"+f.Problem)
	words := keywords(f.Command + " " + f.Step + " " + f.Quote + " " + f.Problem + " " + tool)
	best, bestScore := "", 0
	for _, c := range splitNotes(notes) {
		lc := strings.ToLower(c)
		score := 0
		for _, w := range words {
			if strings.Contains(lc, w) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	if best == "" && n == 1 {
		best = notes
	}
	if best == "" {
		return "", ""
	}
	return "Explain in the tutorial what the Mentor had to tell the Student: " + Clip(strings.Join(strings.Fields(best), " "), maxNotesFix), FixByMentorNotes
}

var reBullet = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+`)

// splitNotes cuts mentor notes into paragraphs and list items.
func splitNotes(notes string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
			cur = nil
		}
	}
	for l := range strings.Lines(notes) {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			flush()
		case reBullet.MatchString(l):
			flush()
			cur = append(cur, reBullet.ReplaceAllString(l, ""))
		default:
			cur = append(cur, t)
		}
	}
	flush()
	return out
}

var stopWords = map[string]bool{"the": true, "and": true, "for": true, "with": true, "this": true, "that": true,
	"from": true, "not": true, "was": true, "run": true, "found": true, "command": true, "step": true, "tutorial": true}

func keywords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}) {
		w = strings.Trim(w, ".-_")
		if len(w) >= 3 && !stopWords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// normWords lower-cases and collapses white space and Markdown emphasis.
func normWords(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("`", "", "*", "", "_", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}
