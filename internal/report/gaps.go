package report

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// occurrence is one finding in one iteration, with what the loop knew around it.
type occurrence struct {
	f         loop.Finding
	iter      int
	index     int // position among the iteration's findings
	fix       string
	fixSource string
	loc       Location
	category  Category
	severity  Severity
	evidence  *Evidence
	key       string
}

func buildGaps(st *loop.State, tut *tutorial.Tutorial, ruleFix loop.RuleFix) []Gap {
	occs := collect(st, tut, ruleFix)
	byKey := map[string]*Gap{}
	var order []string
	for i := range occs {
		o := &occs[i]
		g, ok := byKey[o.key]
		if !ok {
			g = &Gap{
				Location: o.loc, Problem: o.problem(), Severity: o.severity, Category: o.category,
				RuleID: RuleID(o.category), Trigger: string(o.f.Trigger), Class: string(o.f.Class),
				Step: o.f.Step, Question: o.f.Question, Evidence: o.evidence, AlsoAt: o.f.AlsoAt,
				SuggestedFix: o.fix, FixSource: o.fixSource,
				FixVerified: o.f.FixVerified, FixEvidence: o.f.FixEvidence, Suggestion: verifiedSuggestion(o.f),
			}
			byKey[o.key] = g
			order = append(order, o.key)
		} else {
			mergeInto(g, o)
		}
		if !slices.Contains(g.Iterations, o.iter) {
			g.Iterations = append(g.Iterations, o.iter)
		}
	}
	gaps := make([]Gap, 0, len(order))
	for _, k := range order {
		g := byKey[k]
		slices.Sort(g.Iterations)
		g.Title = gapTitle(g)
		gaps = append(gaps, *g)
	}
	// Tutorial order; unlocated gaps last, by first iteration.
	slices.SortStableFunc(gaps, func(a, b Gap) int {
		if a.Location.Found != b.Location.Found {
			if a.Location.Found {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.Location.Line, b.Location.Line), cmp.Compare(a.Iterations[0], b.Iterations[0]))
	})
	for i := range gaps {
		gaps[i].ID = i + 1
	}
	return gaps
}

func (o *occurrence) problem() string {
	return strings.TrimSpace(cmp.Or(o.f.Problem, o.f.Question, "The Student got stuck here."))
}

// mergeInto folds a later occurrence of the same gap into g.
func mergeInto(g *Gap, o *occurrence) {
	if o.severity.Rank() > g.Severity.Rank() {
		g.Severity = o.severity
	}
	if rank(o.fixSource) >= rank(g.FixSource) && o.fix != "" {
		g.SuggestedFix, g.FixSource = o.fix, o.fixSource
	}
	if g.Evidence == nil {
		g.Evidence = o.evidence
	}
	g.Trigger = cmp.Or(g.Trigger, string(o.f.Trigger))
	g.Class = cmp.Or(g.Class, string(o.f.Class))
	g.Step = cmp.Or(g.Step, o.f.Step)
	g.Question = cmp.Or(g.Question, o.f.Question)
	for _, l := range o.f.AlsoAt {
		if !slices.Contains(g.AlsoAt, l) {
			g.AlsoAt = append(g.AlsoAt, l)
		}
	}
	slices.Sort(g.AlsoAt)
	if !g.Location.Found && o.loc.Found {
		g.Location = o.loc
	}
}

func rank(fixSource string) int {
	switch fixSource {
	case loop.FixByMentor:
		return 3
	case loop.FixByMentorNotes:
		return 2
	case loop.FixByRule:
		return 1
	}
	return 0
}

// collect lists every finding of every iteration as the loop completed it. A state
// written before findings were complete (or a run interrupted before its end) is
// completed here, the same way the loop does (loop.CompleteFindings), on a copy.
func collect(st *loop.State, tut *tutorial.Tutorial, ruleFix loop.RuleFix) []occurrence {
	st = withCompleteFindings(st, tut, ruleFix)
	var out []occurrence
	for hi, it := range st.History {
		s := it.Student
		if s == nil {
			continue
		}
		for i, f := range s.Findings {
			o := occurrence{f: f, iter: cmp.Or(it.Iteration, f.Iteration, hi+1), index: i,
				category: Category(f.Category), severity: Severity(f.Severity),
				fix: f.Fix, fixSource: f.FixSource}
			o.evidence = evidence(f, s.Commands)
			o.loc = location(f, tut)
			o.key = dedupeKey(o)
			out = append(out, o)
		}
	}
	return out
}

// withCompleteFindings is st with every finding completed, st itself when nothing was
// missing.
func withCompleteFindings(st *loop.State, tut *tutorial.Tutorial, ruleFix loop.RuleFix) *loop.State {
	cp := *st
	cp.History = slices.Clone(st.History)
	for i := range cp.History {
		if s := cp.History[i].Student; s != nil {
			sc := *s
			sc.Findings = slices.Clone(s.Findings)
			cp.History[i].Student = &sc
		}
	}
	loop.CompleteFindings(&cp, tut, ruleFix)
	return &cp
}

func evidence(f loop.Finding, cmds []loop.CommandRecord) *Evidence {
	if f.Command == "" {
		return nil
	}
	e := &Evidence{Command: f.Command, ExitCode: f.ExitCode, Output: f.Output}
	if e.Output == "" {
		// The recorded run of that command: a failing one first.
		for _, failing := range []bool{true, false} {
			for _, c := range cmds {
				if loop.NormCommand(c.Command) == loop.NormCommand(f.Command) && (c.ExitCode != 0 || c.TimedOut) == failing && e.Output == "" {
					e.Output = c.Output
					e.ExitCode = cmp.Or(e.ExitCode, c.ExitCode)
				}
			}
		}
	}
	e.Output = tailLines(e.Output, evidenceLines, evidenceBytes)
	return e
}

// location renders where the loop located a finding: its lines, their text and
// headings, and what the Student quoted when it differs.
func location(f loop.Finding, tut *tutorial.Tutorial) Location {
	var m *tutorial.LineMap
	if tut != nil {
		m = tut.Map
	}
	quote := strings.TrimSpace(cmp.Or(f.Quote, f.Step))
	if f.Line < 1 || m != nil && f.Line > m.LineCount() {
		return Location{Found: false, Quote: loop.Clip(quote, quoteBytes)}
	}
	end := f.EndLine
	if end < f.Line || m != nil && end > m.LineCount() {
		end = f.Line
	}
	l := Location{Found: true, Line: f.Line, EndLine: end, Source: f.Located}
	if m != nil {
		var b strings.Builder
		for n := f.Line; n <= end && n < f.Line+quoteLines; n++ {
			if n > f.Line {
				b.WriteByte('\n')
			}
			b.WriteString(m.Line(n))
		}
		l.Text = loop.Clip(b.String(), quoteBytes)
		l.HeadingPath = m.HeadingPath(f.Line)
	} else {
		l.Text = loop.Clip(strings.TrimSpace(f.Quote), quoteBytes)
	}
	if quote != "" && norm(quote) != norm(l.Text) {
		l.Quote = loop.Clip(quote, quoteBytes)
	}
	return l
}

// RuleID is the stable id of a category (the SARIF rule id).
func RuleID(c Category) string {
	return "smile/" + strings.ReplaceAll(string(c), " ", "-")
}

func (g *Gap) tool() string {
	text := g.Problem
	if g.Evidence != nil {
		text = g.Evidence.Output + "\n" + text
	}
	_, name := loop.MissingDependency(127, text) // the category already says it is missing
	return name
}

// gapTitle is a short title: the category and what it is about.
func gapTitle(g *Gap) string {
	label := strings.ToUpper(string(g.Category[:1])) + string(g.Category[1:])
	if g.Category == MissingPrerequisite {
		if t := g.tool(); t != "" {
			return fmt.Sprintf("%s: %s is not available", label, t)
		}
	}
	subject := firstSentence(g.Problem)
	if subject == "" && g.Evidence != nil {
		subject = oneLine(g.Evidence.Command)
	}
	return label + ": " + loop.Clip(subject, 90)
}

func firstSentence(s string) string {
	s = oneLine(s)
	for i := 0; i < len(s)-1; i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' {
			return s[:i]
		}
	}
	return strings.TrimRight(s, ".")
}

// dedupeKey identifies "the same gap": same lines and category, or, unlocated, the
// same category and the same quote/command/step/problem.
func dedupeKey(o occurrence) string {
	if o.loc.Found {
		return fmt.Sprintf("L%d|%s", o.loc.Line, o.category)
	}
	return string(o.category) + "|" + norm(cmp.Or(o.f.Quote, loop.NormCommand(o.f.Command), o.f.Step, o.f.Problem))
}

// assignFingerprints sets each gap's fingerprint: a hash of the tutorial, the category
// and the quoted text (no line numbers), with a counter when two gaps share them.
func assignFingerprints(tutorialURI string, gaps []Gap) {
	seen := map[string]int{}
	for i := range gaps {
		g := &gaps[i]
		text := g.Location.Text
		if text == "" {
			text = g.Location.Quote
		}
		if text == "" && g.Evidence != nil {
			text = g.Evidence.Command
		}
		text = cmp.Or(text, g.Step, g.Problem)
		base := tutorialURI + "\x00" + string(g.Category) + "\x00" + norm(text)
		seen[base]++
		if n := seen[base]; n > 1 {
			base += fmt.Sprintf("\x00%d", n)
		}
		sum := sha256.Sum256([]byte(base))
		g.Fingerprint = hex.EncodeToString(sum[:12])
	}
}

func countGaps(gaps []Gap) GapCounts {
	c := GapCounts{Total: len(gaps)}
	for _, g := range gaps {
		switch g.Severity {
		case Critical:
			c.Critical++
		case High:
			c.High++
		case Medium:
			c.Medium++
		case Low:
			c.Low++
		}
	}
	return c
}

// norm lower-cases and collapses white space and Markdown emphasis for comparisons.
func norm(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("`", "", "*", "", "_", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// verifiedSuggestion is the finding's rewritten lines, only when its fix was proven.
func verifiedSuggestion(f loop.Finding) string {
	if f.FixVerified == nil || !*f.FixVerified || f.Edit == nil {
		return ""
	}
	return f.Edit.Replace
}
