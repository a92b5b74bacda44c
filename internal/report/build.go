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
	r.state, r.opts = st, opts // the audit log is streamed when written (WriteAuditLog)
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
