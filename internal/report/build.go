package report

import (
	"cmp"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/redact"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Limits of what the report keeps inline; the audit log keeps everything.
const (
	defaultMaxOutput = 4096 // bytes of a command's output in the JSON report
	evidenceLines    = 15   // lines of output kept as a gap's evidence
	evidenceBytes    = 1500
	quoteLines       = 10 // tutorial lines quoted in a gap's location
	quoteBytes       = 1000
	notesBytes       = 800 // mentor notes quoted as a suggested fix
)

// Build turns a run's state into the report. tut may be nil (re-rendering without the
// tutorial file): gaps then keep the lines recorded in the findings. Every string of the
// result is masked with opts.Secrets.
func Build(st *loop.State, tut *tutorial.Tutorial, opts Options) *Report {
	if st == nil {
		st = &loop.State{Status: loop.StatusError, FinalResult: &loop.FinalResult{Status: loop.StatusError, Reason: "no run state"}}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = defaultMaxOutput
	}
	red := redact.New(opts.Secrets...)
	now := opts.Now().UTC()

	r := &Report{SchemaVersion: SchemaVersion, redactor: red}
	r.Meta = buildMeta(st, tut, opts, now)
	r.Gaps = buildGaps(st, tut, opts.RuleFix)
	r.Timeline = buildTimeline(st, r.Gaps)
	r.AuditTrail = buildAudit(st, opts.MaxOutput)
	r.Coverage = buildCoverage(st)
	r.Meta.Tokens = sumTokens(r.AuditTrail.LLMCalls)

	// Mask every string, then derive what depends on the text (titles are already in).
	redactValue(reflect.ValueOf(r).Elem(), red)
	assignFingerprints(r.Meta.TutorialURI, r.Gaps)
	r.Recommendations = buildRecommendations(r)
	r.Meta.GapCounts = countGaps(r.Gaps)
	r.auditLog = red.String(renderAuditLog(st, r, opts))
	return r
}

func buildMeta(st *loop.State, tut *tutorial.Tutorial, opts Options, now time.Time) Meta {
	status := st.Status
	m := Meta{
		Tutorial:   st.Tutorial,
		RunID:      st.RunID,
		Iterations: st.Iteration,
		StartTime:  st.StartTime.UTC(),
		Timestamp:  now,
		Provider:   st.Config.LLMProvider,
		Runtime:    st.Config.LLMRuntime,
		FailOn:     st.Config.FailOn,
		Generator:  Generator{Name: "smile-loop", Version: opts.Version},
	}
	if m.Tutorial == "" && tut != nil {
		m.Tutorial = tut.Path
	}
	if fr := st.FinalResult; fr != nil {
		if fr.Status != "" {
			status = fr.Status
		}
		m.Reason, m.Summary = fr.Reason, fr.Summary
	}
	if status == "" {
		status = loop.StatusRunning
	}
	m.Status = string(status)
	m.Completed = status == loop.StatusCompleted
	if n := len(st.History); n > m.Iterations {
		m.Iterations = n
	}
	if m.Summary == "" && len(st.History) > 0 {
		if s := st.History[len(st.History)-1].Student; s != nil {
			m.Summary = s.Summary
		}
	}
	end := st.EndTime
	if end.IsZero() && status == loop.StatusRunning {
		end = now // interrupted: the run lasted until now
	}
	if end.IsZero() && len(st.History) > 0 {
		last := st.History[len(st.History)-1]
		end = cmp.Or(last.Ended, last.Started)
		if last.Mentor != nil && last.Mentor.Ended.After(end) {
			end = last.Mentor.Ended
		}
	}
	if !end.IsZero() {
		m.EndTime = end.UTC()
	}
	if !st.StartTime.IsZero() && end.After(st.StartTime) {
		d := end.Sub(st.StartTime)
		m.DurationMS = d.Milliseconds()
		m.Duration = int64(d / time.Second)
	}
	m.TutorialURI = tutorialURI(st.Tutorial, tut, opts)
	m.TutorialName = tutorialName(m.Tutorial, tut)
	return m
}

// tutorialURI is the tutorial's path relative to the repository root, slash-separated.
func tutorialURI(path string, tut *tutorial.Tutorial, opts Options) string {
	if opts.TutorialURI != "" {
		return filepath.ToSlash(opts.TutorialURI)
	}
	if path == "" && tut != nil {
		path = tut.Path
	}
	if path == "" {
		return ""
	}
	if opts.RepoRoot != "" {
		abs := path
		if tut != nil && tut.AbsPath != "" {
			abs = tut.AbsPath
		}
		if a, err := filepath.Abs(abs); err == nil {
			abs = a
		}
		root, err := filepath.Abs(opts.RepoRoot)
		if err == nil {
			if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return filepath.ToSlash(rel)
			}
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(path)), "./")
}

func tutorialName(path string, tut *tutorial.Tutorial) string {
	if tut != nil && tut.Map != nil {
		var first string
		for _, b := range tut.Map.Blocks() {
			if b.Kind != tutorial.KindHeading {
				continue
			}
			t := headingText(b.Text)
			if b.Level == 1 && t != "" {
				return t
			}
			if first == "" {
				first = t
			}
		}
		if first != "" {
			return first
		}
	}
	if path == "" {
		return "tutorial"
	}
	return filepath.Base(path)
}

// headingText strips ATX markers and Setext underlines from a heading's source.
func headingText(s string) string {
	s = strings.TrimSpace(s)
	if line, rest, ok := strings.Cut(s, "\n"); ok && strings.Trim(strings.TrimSpace(rest), "=-") == "" {
		s = line
	}
	s = strings.TrimLeft(s, "#")
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, "#")
	return strings.TrimSpace(s)
}

func buildTimeline(st *loop.State, gaps []Gap) []TimelineEntry {
	out := make([]TimelineEntry, 0, len(st.History))
	for _, it := range st.History {
		e := TimelineEntry{Iteration: it.Iteration, Started: it.Started.UTC(), Error: it.Error}
		if !it.Ended.IsZero() {
			e.Ended = it.Ended.UTC()
			if it.Ended.After(it.Started) {
				e.DurationMS = it.Ended.Sub(it.Started).Milliseconds()
			}
		}
		if s := it.Student; s != nil {
			e.Result = s.Status
			e.CurrentStep = s.CurrentStep
			e.Problem = cmp.Or(s.Problem, s.Reason)
			e.Trigger = string(s.Trigger)
			e.Commands = len(s.Commands)
			for _, c := range s.Commands {
				if c.ExitCode != 0 || c.TimedOut {
					e.FailedCommands++
				}
			}
			e.Actions = actionSummary(s)
		}
		if e.Result == "" {
			e.Result = "incomplete"
			if it.Error != "" {
				e.Result = "error"
			}
		}
		if e.Actions == "" {
			e.Actions = "no result recorded"
		}
		if m := it.Mentor; m != nil {
			e.MentorNotes = strings.TrimSpace(m.Notes)
			e.Unresolvable = m.Unresolvable
		}
		for _, g := range gaps {
			if slices.Contains(g.Iterations, it.Iteration) {
				e.GapIDs = append(e.GapIDs, g.ID)
			}
		}
		out = append(out, e)
	}
	return out
}

func actionSummary(s *loop.StudentResult) string {
	var parts []string
	if s.Summary != "" {
		parts = append(parts, strings.TrimRight(strings.TrimSpace(s.Summary), "."))
	} else if n := len(s.AttemptedActions); n > 0 {
		shown := s.AttemptedActions[:min(n, 5)]
		txt := strings.Join(shown, "; ")
		if n > len(shown) {
			txt += fmt.Sprintf("; and %d more", n-len(shown))
		}
		parts = append(parts, txt)
	}
	failed := 0
	for _, c := range s.Commands {
		if c.ExitCode != 0 || c.TimedOut {
			failed++
		}
	}
	if s.Summary == "" && (len(s.Commands) > 0 || len(parts) == 0) {
		parts = append(parts, fmt.Sprintf("ran %d command%s (%d failed), created %d file%s",
			len(s.Commands), plural(len(s.Commands)), failed, len(s.Files), plural(len(s.Files))))
	}
	return strings.Join(parts, "; ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func buildAudit(st *loop.State, maxOutput int) AuditTrail {
	a := AuditTrail{Commands: []CommandEntry{}, Files: []FileEntry{}, LLMCalls: []LLMCallEntry{}}
	addCalls := func(iter int, calls []loop.LLMCall) {
		for _, c := range calls {
			a.LLMCalls = append(a.LLMCalls, LLMCallEntry{Iteration: iter, Agent: c.Agent, Provider: c.Provider,
				Model: c.Model, TokensIn: c.TokensIn, CachedIn: c.CachedTokensIn, TokensOut: c.TokensOut,
				DurationMS: c.Duration.Milliseconds(), CostUSD: c.CostUSD, Error: c.Error})
		}
	}
	for _, it := range st.History {
		if s := it.Student; s != nil {
			for _, c := range s.Commands {
				out, cut := truncateMiddle(c.Output, maxOutput)
				a.Commands = append(a.Commands, CommandEntry{
					Iteration: cmp.Or(c.Iteration, it.Iteration), Step: c.Step, Line: c.Line, Command: c.Command,
					ExitCode: c.ExitCode, TimedOut: c.TimedOut, Background: c.Background,
					DurationMS: c.Duration.Milliseconds(), Class: string(c.Class),
					Summary: commandSummary(c), Output: out, OutputTruncated: cut || c.OutputPath != "" && len(c.Output) >= maxOutput,
				})
			}
			for _, f := range s.Files {
				a.Files = append(a.Files, FileEntry{Iteration: cmp.Or(f.Iteration, it.Iteration), Path: f.Path, Size: f.Size})
			}
			addCalls(it.Iteration, s.LLMCalls)
		}
		if m := it.Mentor; m != nil {
			addCalls(it.Iteration, m.LLMCalls)
		}
	}
	return a
}

// commandSummary is one line about a command's outcome.
func commandSummary(c loop.CommandRecord) string {
	if s := oneLine(c.Summary); s != "" {
		return s
	}
	switch {
	case c.TimedOut:
		return "timed out"
	case c.Background:
		return "left running in the background"
	}
	lines := nonEmptyLines(c.Output)
	if len(lines) == 0 {
		if c.ExitCode == 0 {
			return "ok, no output"
		}
		return fmt.Sprintf("exit %d, no output", c.ExitCode)
	}
	if c.ExitCode != 0 {
		return loop.Clip(lines[len(lines)-1], 160) // errors are at the end
	}
	return loop.Clip(lines[0], 160)
}

// redactValue masks every settable string reachable from v.
func redactValue(v reflect.Value, r *redact.Redactor) {
	if r.Empty() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			redactValue(v.Elem(), r)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				redactValue(f, r)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			redactValue(v.Index(i), r)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(r.String(v.String()))
		}
	}
}

// --- small text helpers ---

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func nonEmptyLines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if t := strings.TrimSpace(l); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// truncateMiddle keeps the head and the (more telling) tail of a long text.
func truncateMiddle(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	head := validPrefix(s[:n/4])
	tail := validSuffix(s[len(s)-(n-n/4):])
	return fmt.Sprintf("%s\n… [%d bytes cut; full output in %s] …\n%s", head, len(s)-len(head)-len(tail), AuditFile, tail), true
}

// tailLines keeps the last lines of s within limits (errors come last).
func tailLines(s string, lines, bytes int) string {
	s = strings.TrimRight(s, "\n ")
	all := strings.Split(s, "\n")
	cut := false
	if len(all) > lines {
		all, cut = all[len(all)-lines:], true
	}
	out := strings.Join(all, "\n")
	if len(out) > bytes {
		out, cut = validSuffix(out[len(out)-bytes:]), true
	}
	if cut {
		out = "…\n" + out
	}
	return out
}

func validPrefix(s string) string {
	for len(s) > 0 && !utf8ValidEnd(s) {
		s = s[:len(s)-1]
	}
	return s
}

func validSuffix(s string) string {
	for len(s) > 0 && (s[0]&0xC0) == 0x80 {
		s = s[1:]
	}
	return s
}

func utf8ValidEnd(s string) bool {
	// Walk back over continuation bytes to the lead byte and check the sequence is complete.
	i := len(s) - 1
	for i >= 0 && (s[i]&0xC0) == 0x80 {
		i--
	}
	if i < 0 {
		return false
	}
	need := 1
	switch b := s[i]; {
	case b < 0x80:
		need = 1
	case b&0xE0 == 0xC0:
		need = 2
	case b&0xF0 == 0xE0:
		need = 3
	case b&0xF8 == 0xF0:
		need = 4
	}
	return len(s)-i >= need
}

// buildCoverage is the coverage of the last iteration whose Student reported one.
func buildCoverage(st *loop.State) *Coverage {
	for i := len(st.History) - 1; i >= 0; i-- {
		s := st.History[i].Student
		if s == nil || s.Coverage == nil {
			continue
		}
		c := s.Coverage
		notes := func(ns []loop.Note) []CoverageNote {
			out := make([]CoverageNote, 0, len(ns))
			for _, n := range ns {
				out = append(out, CoverageNote{Line: n.Line, Reason: n.Reason})
			}
			return out
		}
		return &Coverage{Blocks: c.Blocks, Commands: c.Commands, Run: c.Run, Failed: c.Failed, Files: c.Files,
			Skipped: notes(c.Skipped), Unverified: notes(c.Unverified), Heuristics: notes(c.Heuristics), Inconclusive: c.Inconclusive}
	}
	return nil
}
