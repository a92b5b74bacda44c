package report

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Fix sources, best first.
const (
	fixMentor      = "mentor"
	fixMentorNotes = "mentor_notes"
	fixRule        = "rule"
)

// occurrence is one finding in one iteration, with what the loop knew around it.
type occurrence struct {
	f         loop.Finding
	iter      int
	index     int // position among the iteration's findings (for MentorRecord.Fixes)
	blocking  bool
	fix       string
	fixSource string
	loc       Location
	category  Category
	severity  Severity
	evidence  *Evidence
	key       string
}

func buildGaps(st *loop.State, tut *tutorial.Tutorial) []Gap {
	occs := collect(st, tut)
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
		if g.SuggestedFix == "" {
			g.SuggestedFix, g.FixSource = ruleFix(g), fixRule
		}
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
	case fixMentor:
		return 3
	case fixMentorNotes:
		return 2
	case fixRule:
		return 1
	}
	return 0
}

// collect lists every finding of every iteration, located, classified and with its fix.
func collect(st *loop.State, tut *tutorial.Tutorial) []occurrence {
	var out []occurrence
	plan := st.Plan
	ended := loop.Status("")
	if st.FinalResult != nil {
		ended = st.FinalResult.Status
	}
	ended = cmp.Or(ended, st.Status)
	lastIter := len(st.History) - 1
	for hi, it := range st.History {
		s := it.Student
		if s == nil {
			continue
		}
		findings := s.Findings
		if len(findings) == 0 && s.Status != loop.StudentCompleted &&
			(s.Problem != "" || s.Reason != "" || s.QuestionForMentor != "" || s.CurrentStep != "") {
			findings = []loop.Finding{fromOutput(s)}
		}
		if len(findings) == 0 {
			continue
		}
		p := plan
		if len(s.Plan) > 0 {
			p = s.Plan
		}
		// The finding that stopped the Student: the one on its current step, else the last.
		blocker := len(findings) - 1
		for i, f := range findings {
			if s.CurrentStep != "" && norm(f.Step) == norm(s.CurrentStep) {
				blocker = i
			}
		}
		stopped := s.Status == loop.StudentCannotComplete || it.Mentor != nil && it.Mentor.Unresolvable ||
			hi == lastIter && (ended == loop.StatusBlocker || ended == loop.StatusStalled)
		for i, f := range findings {
			o := occurrence{f: f, iter: cmp.Or(it.Iteration, f.Iteration, hi+1), index: i,
				blocking: stopped && i == blocker}
			o.evidence = evidence(f, s.Commands)
			o.loc = locate(f, tut, p, s.Commands)
			o.category = categorize(f, o.evidence)
			o.severity = severityOf(o.category)
			if f.Category != "" && slices.Contains(Categories(), Category(f.Category)) {
				o.category = Category(f.Category)
				o.severity = severityOf(o.category)
			}
			if f.Environment {
				// a limitation of the environment, not a fault of the tutorial
				o.category, o.severity = EnvironmentAssumption, Low
			} else if o.blocking {
				o.severity = Critical
			}
			o.fix, o.fixSource = mentorFix(it.Mentor, i, len(findings), f)
			o.key = dedupeKey(o)
			out = append(out, o)
		}
	}
	return out
}

// fromOutput turns a Student's ask_mentor/cannot_complete output without findings into one.
func fromOutput(s *loop.StudentResult) loop.Finding {
	f := loop.Finding{Step: s.CurrentStep, Problem: cmp.Or(s.Problem, s.Reason), Question: s.QuestionForMentor, Trigger: s.Trigger}
	switch s.Trigger {
	case loop.TriggerAmbiguousInstruction:
		return f
	}
	// The last failing command is the evidence of a command-related stop.
	for i := len(s.Commands) - 1; i >= 0; i-- {
		c := s.Commands[i]
		if c.ExitCode != 0 || c.TimedOut {
			f.Command, f.ExitCode, f.Output, f.Class, f.Line = c.Command, c.ExitCode, c.Output, c.Class, c.Line
			break
		}
	}
	return f
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
				if normCmd(c.Command) == normCmd(f.Command) && (c.ExitCode != 0 || c.TimedOut) == failing && e.Output == "" {
					e.Output = c.Output
					e.ExitCode = cmp.Or(e.ExitCode, c.ExitCode)
				}
			}
		}
	}
	e.Output = tailLines(e.Output, evidenceLines, evidenceBytes)
	return e
}

// locate finds a finding's tutorial lines; see the package documentation for the order.
func locate(f loop.Finding, tut *tutorial.Tutorial, plan []loop.PlanStep, cmds []loop.CommandRecord) Location {
	var m *tutorial.LineMap
	if tut != nil {
		m = tut.Map
	}
	quote := strings.TrimSpace(cmp.Or(f.Quote, f.Step))
	valid := func(n int) bool { return n >= 1 && (m == nil || n <= m.LineCount()) }
	at := func(line, end int, source string) Location {
		if end < line || !valid(end) {
			end = line
		}
		l := Location{Found: true, Line: line, EndLine: end, Source: source}
		if m != nil {
			var b strings.Builder
			for n := line; n <= end && n < line+quoteLines; n++ {
				if n > line {
					b.WriteByte('\n')
				}
				b.WriteString(m.Line(n))
			}
			l.Text = clip(b.String(), quoteBytes)
			l.HeadingPath = m.HeadingPath(line)
		} else {
			l.Text = clip(strings.TrimSpace(f.Quote), quoteBytes)
		}
		if quote != "" && norm(quote) != norm(l.Text) {
			l.Quote = clip(quote, quoteBytes)
		}
		return l
	}
	if valid(f.Line) {
		return at(f.Line, f.EndLine, "finding")
	}
	if m != nil {
		if q := strings.TrimSpace(f.Quote); q != "" {
			if loc, ok := m.Locate(q); ok && valid(loc.Line) {
				return at(loc.Line, loc.EndLine, "quote")
			}
		}
	}
	// A failing command the loop saw run at a known line is more precise than a step name.
	c := normCmd(f.Command)
	if c != "" {
		for _, r := range cmds {
			if normCmd(r.Command) == c && valid(r.Line) {
				return at(r.Line, r.Line, "command")
			}
		}
	}
	if m != nil {
		if s := strings.TrimSpace(f.Step); s != "" {
			if loc, ok := m.Locate(s); ok && valid(loc.Line) {
				// The step's own command, when it is in the step's section, is more precise.
				if c != "" {
					if line, end, ok := codeLine(m, c, loc.Line); ok {
						return at(line, end, "command")
					}
				}
				return at(loc.Line, loc.EndLine, "step")
			}
		}
	}
	if f.Step != "" {
		for _, p := range plan {
			if norm(p.Title) == norm(f.Step) && valid(p.StartLine) {
				if c != "" && m != nil {
					if line, end, ok := codeLine(m, c, p.StartLine); ok && line <= max(p.EndLine, p.StartLine) {
						return at(line, end, "command")
					}
				}
				return at(p.StartLine, p.EndLine, "plan")
			}
		}
	}
	if c != "" && m != nil {
		if line, end, ok := codeLine(m, c, 1); ok {
			return at(line, end, "command")
		}
	}
	return Location{Found: false, Quote: clip(quote, quoteBytes)}
}

// codeLine finds the first code-block command at or after line from matching cmd:
// exactly, else by containment. Commands under a different section than from's are
// skipped when from > 1.
func codeLine(m *tutorial.LineMap, cmd string, from int) (int, int, bool) {
	var loose []tutorial.Command
	section := m.HeadingPath(from)
	for _, b := range m.CodeBlocks() {
		for _, c := range b.Commands {
			if c.StartLine < from || from > 1 && !hasPrefix(m.HeadingPath(c.StartLine), section) {
				continue
			}
			n := normCmd(c.Text)
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

var (
	reMissingStep = regexp.MustCompile(`(?i)no such file or directory|does not exist|cannot access|can't cd|not a git repository|enoent|could not open requirements file|no such container|not initialized`)
	reEnvironment = regexp.MustCompile(`(?i)permission denied|eacces|could not resolve host|temporary failure in name resolution|network is unreachable|connection refused|address already in use|eaddrinuse|no space left|must be run as root|are you root|operation not permitted`)
	reAmbiguous   = regexp.MustCompile(`(?i)\b(ambiguous|unclear|not clear|doesn't say|does not say|not specified|unspecified|which (?:one|version|file|directory)|not explained)\b`)
	reMissingDep  = regexp.MustCompile(`(?i)command not found|: not found\b|no module named|cannot find module|executable file not found|is not installed|not installed`)
)

// categorize derives a gap's category from the failure class, the trigger and the text.
func categorize(f loop.Finding, e *Evidence) Category {
	text := f.Problem + "\n" + f.Output
	if e != nil {
		text += "\n" + e.Output
	}
	byText := func(def Category) Category {
		switch {
		case reMissingStep.MatchString(text):
			return MissingStep
		case reEnvironment.MatchString(text):
			return EnvironmentAssumption
		}
		return def
	}
	switch f.Class {
	case loop.ClassMissingDependency:
		return MissingPrerequisite
	case loop.ClassTestFailure, loop.ClassLintFailure:
		return FailingCheck
	case loop.ClassTimeout:
		return EnvironmentAssumption
	case loop.ClassRuntimeError, loop.ClassCommandFailure, loop.ClassToolingError, loop.ClassUnknown:
		return byText(CommandFailure)
	}
	switch f.Trigger {
	case loop.TriggerMissingDependency:
		return MissingPrerequisite
	case loop.TriggerTimeout:
		return EnvironmentAssumption
	case loop.TriggerAmbiguousInstruction:
		return AmbiguousInstruction
	case loop.TriggerCommandFailure, loop.TriggerMaxRetries:
		return byText(CommandFailure)
	}
	switch {
	case reMissingDep.MatchString(text):
		return MissingPrerequisite
	case f.Command != "" && f.ExitCode != 0:
		return byText(CommandFailure)
	case reMissingStep.MatchString(text):
		return MissingStep
	case reEnvironment.MatchString(text):
		return EnvironmentAssumption
	case f.Question != "" || reAmbiguous.MatchString(f.Problem):
		return AmbiguousInstruction
	}
	return Other
}

func severityOf(c Category) Severity {
	switch c {
	case MissingPrerequisite, MissingStep, CommandFailure, FailingCheck:
		return High
	case EnvironmentAssumption, AmbiguousInstruction:
		return Medium
	}
	return Low
}

// RuleID is the stable id of a category (the SARIF rule id).
func RuleID(c Category) string {
	return "smile/" + strings.ReplaceAll(string(c), " ", "-")
}

// mentorFix is the Mentor's fix for finding i of n: its own Fixes entry, else the part
// of its notes about this finding.
func mentorFix(m *loop.MentorRecord, i, n int, f loop.Finding) (string, string) {
	if m == nil {
		return "", ""
	}
	if i < len(m.Fixes) && strings.TrimSpace(m.Fixes[i]) != "" {
		return strings.TrimSpace(m.Fixes[i]), fixMentor
	}
	notes := strings.TrimSpace(m.Notes)
	if notes == "" {
		return "", ""
	}
	chunks := splitNotes(notes)
	words := keywords(f.Command + " " + f.Step + " " + f.Quote + " " + f.Problem + " " + missingTool(f.Output+"\n"+f.Problem))
	best, bestScore := "", 0
	for _, c := range chunks {
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
	return "Explain in the tutorial what the Mentor had to tell the Student: " + clip(oneLine(best), notesBytes), fixMentorNotes
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

var reTool = []*regexp.Regexp{
	regexp.MustCompile(`(?m)(?:^|[\s:])([A-Za-z0-9_.+-]+): (?:command )?not found`),
	regexp.MustCompile(`command not found: ([A-Za-z0-9_.+-]+)`),
	regexp.MustCompile(`No module named '?([A-Za-z0-9_.]+)'?`),
	regexp.MustCompile(`Cannot find module '([^']+)'`),
	regexp.MustCompile(`exec: "([^"]+)": executable file not found`),
}

// missingTool names the program or module a "not found" output is about, "" when none.
func missingTool(out string) string {
	for _, re := range reTool {
		if m := re.FindStringSubmatch(out); m != nil {
			return m[1]
		}
	}
	return ""
}

// ruleFix is the suggested fix when the Mentor gave none.
func ruleFix(g *Gap) string {
	where := "before this step"
	if g.Location.Found {
		where = fmt.Sprintf("before line %d", g.Location.Line)
	}
	cmdText := ""
	if g.Evidence != nil {
		cmdText = oneLine(g.Evidence.Command)
	}
	switch g.Category {
	case MissingPrerequisite:
		if t := g.tool(); t != "" {
			return fmt.Sprintf("List %q as a prerequisite %s and show how to install it (with the version the tutorial expects).", t, where)
		}
		return fmt.Sprintf("Add a prerequisites section %s naming every tool this step needs and how to install it.", where)
	case MissingStep:
		if cmdText != "" {
			return fmt.Sprintf("Add the step that creates what %q expects (file, directory or project) %s.", clip(cmdText, 80), where)
		}
		return fmt.Sprintf("Add the missing step %s: the tutorial uses something it never creates.", where)
	case CommandFailure:
		if cmdText != "" {
			return fmt.Sprintf("Run %q in a fresh environment and fix it, or document what it needs to succeed (it exited with %d).", clip(cmdText, 80), g.Evidence.ExitCode)
		}
		return "Check this step in a fresh environment and fix the instruction or document what it needs."
	case FailingCheck:
		return "Fix the code shown before this check so that it passes in a fresh environment, or say which failures are expected."
	case EnvironmentAssumption:
		if g.Class == string(loop.ClassTimeout) || g.Trigger == string(loop.TriggerTimeout) {
			return "Say how long this step takes, or that it keeps running (start it in the background or a second terminal) and how to tell it is ready."
		}
		return "State the environment this step assumes (permissions, network access, free ports, operating system) and how to provide it."
	case AmbiguousInstruction:
		return "Rewrite the instruction so it says exactly what to run or change: the command, the file name and the expected result."
	}
	return "Clarify this part of the tutorial: " + clip(oneLine(g.Problem), 200)
}

func (g *Gap) tool() string {
	text := g.Problem
	if g.Evidence != nil {
		text = g.Evidence.Output + "\n" + text
	}
	return missingTool(text)
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
	return label + ": " + clip(subject, 90)
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
	return string(o.category) + "|" + norm(cmp.Or(o.f.Quote, normCmd(o.f.Command), o.f.Step, o.f.Problem))
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

// normCmd normalises a shell command for comparisons: prompt and spacing removed.
func normCmd(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "$ ")
	s = strings.ReplaceAll(s, "\\\n", " ")
	return strings.Join(strings.Fields(s), " ")
}

// verifiedSuggestion is the finding's rewritten lines, only when its fix was proven.
func verifiedSuggestion(f loop.Finding) string {
	if f.FixVerified == nil || !*f.FixVerified || f.Edit == nil {
		return ""
	}
	return f.Edit.Replace
}
