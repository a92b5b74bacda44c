package report

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// maxOutputFile caps a saved command output read into the audit log.
const maxOutputFile = 8 << 20

// maxAuditOutputs caps all saved outputs read into one audit log (the log is built in
// memory): a tutorial that prints without end cannot exhaust the orchestrator's memory.
const maxAuditOutputs = 64 << 20

// renderAuditLog is smile-audit.log: everything the run did, in order, with full
// command outputs (read from their saved files when available). The caller masks it.
func renderAuditLog(st *loop.State, r *Report, opts Options) string {
	var b strings.Builder
	m := r.Meta
	fmt.Fprintf(&b, "smile-loop audit log (report schema %d)\n", SchemaVersion)
	fmt.Fprintf(&b, "run:       %s\n", m.RunID)
	fmt.Fprintf(&b, "tutorial:  %s\n", m.Tutorial)
	fmt.Fprintf(&b, "provider:  %s (%s)\n", m.Provider, m.Runtime)
	fmt.Fprintf(&b, "started:   %s\n", stamp(st.StartTime))
	fmt.Fprintf(&b, "ended:     %s\n", stamp(m.EndTime))
	fmt.Fprintf(&b, "status:    %s\n", m.Status)
	if m.Reason != "" {
		fmt.Fprintf(&b, "reason:    %s\n", m.Reason)
	}
	budget := int64(maxAuditOutputs)
	for _, it := range st.History {
		fmt.Fprintf(&b, "\n=== iteration %d  started %s  ended %s ===\n", it.Iteration, stamp(it.Started), stamp(it.Ended))
		if it.Error != "" {
			fmt.Fprintf(&b, "[error] %s\n", it.Error)
		}
		if s := it.Student; s != nil {
			writeStudent(&b, it, s, opts, &budget)
		}
		if mr := it.Mentor; mr != nil {
			fmt.Fprintf(&b, "\n[mentor] started %s ended %s unresolvable=%t\n", stamp(mr.Started), stamp(mr.Ended), mr.Unresolvable)
			writeBlock(&b, "notes", mr.Notes)
			for i, f := range mr.Fixes {
				writeBlock(&b, fmt.Sprintf("fix %d", i+1), f)
			}
			for _, c := range mr.LLMCalls {
				writeCall(&b, c)
			}
		}
	}
	fmt.Fprintf(&b, "\n=== end: %s ===\n", m.Status)
	if m.Summary != "" {
		writeBlock(&b, "summary", m.Summary)
	}
	for _, n := range st.MentorNotes {
		writeBlock(&b, "accumulated mentor note", n)
	}
	return b.String()
}

func writeStudent(b *strings.Builder, it loop.Iteration, s *loop.StudentResult, opts Options, budget *int64) {
	fmt.Fprintf(b, "[student] status=%s", s.Status)
	if s.CurrentStep != "" {
		fmt.Fprintf(b, " step=%q", s.CurrentStep)
	}
	if s.Trigger != "" {
		fmt.Fprintf(b, " trigger=%s", s.Trigger)
	}
	b.WriteByte('\n')
	writeBlock(b, "problem", s.Problem)
	writeBlock(b, "question for mentor", s.QuestionForMentor)
	writeBlock(b, "reason", s.Reason)
	writeBlock(b, "summary", s.Summary)
	for _, a := range s.AttemptedActions {
		fmt.Fprintf(b, "[action] %s\n", a)
	}
	for _, p := range s.Plan {
		fmt.Fprintf(b, "[plan] %d. %s (lines %d-%d)\n", p.ID, p.Title, p.StartLine, p.EndLine)
	}
	for i, c := range s.Commands {
		fmt.Fprintf(b, "\n[command %d] iteration=%d", i+1, cmp.Or(c.Iteration, it.Iteration))
		if c.Line > 0 {
			fmt.Fprintf(b, " line=%d", c.Line)
		}
		fmt.Fprintf(b, " exit=%d duration=%s", c.ExitCode, c.Duration.Round(time.Millisecond))
		if c.TimedOut {
			b.WriteString(" timed-out")
		}
		if c.Background {
			b.WriteString(" background")
		}
		if c.Class != "" {
			fmt.Fprintf(b, " class=%s", c.Class)
		}
		if c.Step != "" {
			fmt.Fprintf(b, " step=%q", c.Step)
		}
		b.WriteByte('\n')
		for l := range strings.Lines(c.Command) {
			b.WriteString("$ " + strings.TrimRight(l, "\n") + "\n")
		}
		out := c.Output
		if c.OutputPath != "" && *budget <= 0 {
			out += fmt.Sprintf("\n[smile-loop: the audit log already holds %d MiB of full outputs, its quota; this command's full output stays in %s]", maxAuditOutputs>>20, filepath.Base(c.OutputPath))
		} else if full, ok := readOutput(c.OutputPath, opts, budget); ok {
			out = full
		}
		writeBlock(b, "output", out)
	}
	for _, f := range s.Files {
		fmt.Fprintf(b, "[file] %s (%d bytes)\n", f.Path, f.Size)
	}
	for _, f := range s.Findings {
		fmt.Fprintf(b, "[finding] line=%d step=%q class=%s trigger=%s command=%q\n", f.Line, f.Step, f.Class, f.Trigger, f.Command)
		writeBlock(b, "finding problem", f.Problem)
	}
	for _, c := range s.LLMCalls {
		writeCall(b, c)
	}
	if s.Raw != "" {
		writeBlock(b, "raw student output", s.Raw)
	}
	if s.ParseError != "" {
		fmt.Fprintf(b, "[parse error] %s\n", s.ParseError)
	}
}

func writeCall(b *strings.Builder, c loop.LLMCall) {
	fmt.Fprintf(b, "[llm] agent=%s provider=%s model=%s tokens-in=%d tokens-out=%d duration=%s",
		c.Agent, c.Provider, c.Model, c.TokensIn, c.TokensOut, c.Duration.Round(time.Millisecond))
	if c.CachedTokensIn > 0 {
		fmt.Fprintf(b, " cached-in=%d", c.CachedTokensIn)
	}
	if c.CostUSD > 0 {
		fmt.Fprintf(b, " cost-usd=%.6f", c.CostUSD)
	}
	if c.Error != "" {
		fmt.Fprintf(b, " error=%q", c.Error)
	}
	b.WriteByte('\n')
}

// writeBlock writes a labelled, indented block of free text.
func writeBlock(b *strings.Builder, label, text string) {
	text = strings.TrimRight(text, "\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	fmt.Fprintf(b, "[%s]\n", label)
	for l := range strings.Lines(text) {
		b.WriteString("  | " + strings.TrimRight(l, "\n") + "\n")
	}
}

// readOutput reads a saved full output when it lies inside opts.LogsDir. The file is
// opened through an os.Root on the logs directory: a path or link leading outside it is
// refused by the open itself, so a link swapped in after a check cannot win a race, and
// a final symbolic link is not followed at all.
func readOutput(path string, opts Options, budget *int64) (string, bool) {
	if path == "" || opts.LogsDir == "" {
		return "", false
	}
	logs, err := filepath.Abs(opts.LogsDir)
	if err != nil {
		return "", false
	}
	rel := path
	if filepath.IsAbs(path) {
		if rel, err = filepath.Rel(logs, path); err != nil {
			rel = path
		}
	}
	warn := func(msg string, err error) {
		if opts.Logger != nil {
			opts.Logger.Warn(msg, "path", path, "err", err)
		}
	}
	if !filepath.IsLocal(rel) {
		warn("command output outside the logs directory not read", nil)
		return "", false
	}
	root, err := os.OpenRoot(logs)
	if err != nil {
		warn("read command output", err)
		return "", false
	}
	defer root.Close()
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		warn("read command output", err)
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		warn("command output is not a regular file; not read", err)
		return "", false
	}
	limit := min(int64(maxOutputFile), *budget)
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", false
	}
	*budget -= int64(len(data))
	if int64(len(data)) > limit {
		data = append(data[:limit], fmt.Appendf(nil, "\n… [output cut at %d bytes: the audit log keeps at most 8 MiB per command and %d MiB in all; the whole output is in %s]", limit, maxAuditOutputs>>20, filepath.Base(path))...)
	}
	return string(data), true
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// auditFromReport renders an audit log from a report alone (a report decoded from JSON).
func auditFromReport(r *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "smile-loop audit log (from the report; full outputs unavailable)\ntutorial: %s\nstatus: %s\n", r.Meta.Tutorial, r.Meta.Status)
	for _, c := range r.AuditTrail.Commands {
		fmt.Fprintf(&b, "\n[command] iteration=%d line=%d exit=%d duration=%dms\n$ %s\n", c.Iteration, c.Line, c.ExitCode, c.DurationMS, c.Command)
		writeBlock(&b, "output", c.Output)
	}
	for _, f := range r.AuditTrail.Files {
		fmt.Fprintf(&b, "[file] iteration=%d %s (%d bytes)\n", f.Iteration, f.Path, f.Size)
	}
	for _, c := range r.AuditTrail.LLMCalls {
		fmt.Fprintf(&b, "[llm] iteration=%d agent=%s provider=%s model=%s tokens-in=%d cached-in=%d tokens-out=%d duration=%dms\n",
			c.Iteration, c.Agent, c.Provider, c.Model, c.TokensIn, c.CachedIn, c.TokensOut, c.DurationMS)
	}
	return b.String()
}
