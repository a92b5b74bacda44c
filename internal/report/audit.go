package report

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/redact"
)

// maxOutputFile caps a saved command output read into the audit log.
const maxOutputFile = 8 << 20

// maxAuditOutputs caps all saved outputs copied into one audit log: its disk quota. The
// log is streamed to its file (WriteAuditLog), so memory holds one command's output
// (at most maxOutputFile) at a time, however long the log.
const maxAuditOutputs = 64 << 20

// auditWriter streams the audit log to w, masking each piece before it is written. A
// piece is a header line or a whole block (one command's full output is one block), so
// a secret is masked in every form redact knows, line wraps included, within a block.
type auditWriter struct {
	w      *bufio.Writer
	red    *redact.Redactor
	err    error  // the first write error; later writes are skipped
	budget int64  // bytes of saved outputs the log may still take (maxAuditOutputs)
	buf    []byte // reused for reading saved outputs
}

func newAuditWriter(w io.Writer, red *redact.Redactor) *auditWriter {
	return &auditWriter{w: bufio.NewWriterSize(w, 64<<10), red: red, budget: maxAuditOutputs}
}

// printf writes one masked piece.
func (a *auditWriter) printf(format string, args ...any) {
	a.raw(a.red.String(fmt.Sprintf(format, args...)))
}

// raw writes s as it is (s is masked or holds no free text).
func (a *auditWriter) raw(s string) {
	if a.err == nil {
		_, a.err = a.w.WriteString(s)
	}
}

func (a *auditWriter) flush() error {
	if a.err == nil {
		a.err = a.w.Flush()
	}
	return a.err
}

// block writes a labelled, indented block of free text, masked whole.
func (a *auditWriter) block(label, text string) {
	a.blockBytes(label, []byte(text))
}

// blockBytes is block for text held as bytes (a saved output); note, when not empty,
// ends the block as one more line (where an output was cut and why).
func (a *auditWriter) blockBytes(label string, text []byte, note ...string) {
	text = bytes.TrimRight(text, "\n")
	if len(bytes.TrimSpace(text)) == 0 && len(note) == 0 {
		return
	}
	text = a.red.Bytes(text)
	a.raw("[" + label + "]\n")
	for l := range bytes.Lines(text) {
		a.raw("  | ")
		if a.err == nil {
			_, a.err = a.w.Write(bytes.TrimRight(l, "\n"))
		}
		a.raw("\n")
	}
	for _, n := range note {
		a.raw("  | " + a.red.String(n) + "\n")
	}
}

// writeAuditLog streams smile-audit.log: everything the run did, in order, with full
// command outputs (read from their saved files when available), masked.
func writeAuditLog(a *auditWriter, st *loop.State, r *Report, opts Options) {
	m := r.Meta
	a.printf("smile-loop audit log (report schema %d)\n", SchemaVersion)
	a.printf("run:       %s\n", m.RunID)
	a.printf("tutorial:  %s\n", m.Tutorial)
	a.printf("provider:  %s (%s)\n", m.Provider, m.Runtime)
	a.printf("started:   %s\n", stamp(st.StartTime))
	a.printf("ended:     %s\n", stamp(m.EndTime))
	a.printf("status:    %s\n", m.Status)
	if m.Reason != "" {
		a.printf("reason:    %s\n", m.Reason)
	}
	for _, it := range st.History {
		a.printf("\n=== iteration %d  started %s  ended %s ===\n", it.Iteration, stamp(it.Started), stamp(it.Ended))
		if it.Error != "" {
			a.printf("[error] %s\n", it.Error)
		}
		if s := it.Student; s != nil {
			writeStudent(a, it, s, opts)
		}
		if mr := it.Mentor; mr != nil {
			a.printf("\n[mentor] started %s ended %s unresolvable=%t\n", stamp(mr.Started), stamp(mr.Ended), mr.Unresolvable)
			a.block("notes", mr.Notes)
			for i, f := range mr.Fixes {
				a.block(fmt.Sprintf("fix %d", i+1), f)
			}
			for _, c := range mr.LLMCalls {
				writeCall(a, c)
			}
		}
	}
	a.printf("\n=== end: %s ===\n", m.Status)
	if m.Summary != "" {
		a.block("summary", m.Summary)
	}
	for _, n := range st.MentorNotes {
		a.block("accumulated mentor note", n)
	}
}

func writeStudent(a *auditWriter, it loop.Iteration, s *loop.StudentResult, opts Options) {
	var h strings.Builder
	fmt.Fprintf(&h, "[student] status=%s", s.Status)
	if s.CurrentStep != "" {
		fmt.Fprintf(&h, " step=%q", s.CurrentStep)
	}
	if s.Trigger != "" {
		fmt.Fprintf(&h, " trigger=%s", s.Trigger)
	}
	a.printf("%s\n", h.String())
	a.block("problem", s.Problem)
	a.block("question for mentor", s.QuestionForMentor)
	a.block("reason", s.Reason)
	a.block("summary", s.Summary)
	for _, act := range s.AttemptedActions {
		a.printf("[action] %s\n", act)
	}
	for _, p := range s.Plan {
		a.printf("[plan] %d. %s (lines %d-%d)\n", p.ID, p.Title, p.StartLine, p.EndLine)
	}
	for i, c := range s.Commands {
		h.Reset()
		fmt.Fprintf(&h, "\n[command %d] iteration=%d", i+1, cmp.Or(c.Iteration, it.Iteration))
		if c.Line > 0 {
			fmt.Fprintf(&h, " line=%d", c.Line)
		}
		fmt.Fprintf(&h, " exit=%d duration=%s", c.ExitCode, c.Duration.Round(time.Millisecond))
		if c.TimedOut {
			h.WriteString(" timed-out")
		}
		if c.Background {
			h.WriteString(" background")
		}
		if c.Class != "" {
			fmt.Fprintf(&h, " class=%s", c.Class)
		}
		if c.Step != "" {
			fmt.Fprintf(&h, " step=%q", c.Step)
		}
		h.WriteByte('\n')
		for l := range strings.Lines(c.Command) {
			h.WriteString("$ " + strings.TrimRight(l, "\n") + "\n")
		}
		a.printf("%s", h.String())
		writeOutput(a, c, opts)
	}
	for _, f := range s.Files {
		a.printf("[file] %s (%d bytes)\n", f.Path, f.Size)
	}
	for _, f := range s.Findings {
		a.printf("[finding] line=%d step=%q class=%s trigger=%s command=%q\n", f.Line, f.Step, f.Class, f.Trigger, f.Command)
		a.block("finding problem", f.Problem)
	}
	for _, c := range s.LLMCalls {
		writeCall(a, c)
	}
	if s.Raw != "" {
		a.block("raw student output", s.Raw)
	}
	if s.ParseError != "" {
		a.printf("[parse error] %s\n", s.ParseError)
	}
}

// writeOutput writes a command's output: its saved full output when readable and the
// log's quota allows, else the output the record holds.
func writeOutput(a *auditWriter, c loop.CommandRecord, opts Options) {
	if c.OutputPath != "" && a.budget <= 0 {
		a.block("output", c.Output+fmt.Sprintf("\n[smile-loop: the audit log already holds %d MiB of full outputs, its quota; this command's full output stays in %s]", maxAuditOutputs>>20, filepath.Base(c.OutputPath)))
		return
	}
	limit := min(int64(maxOutputFile), a.budget)
	data, ok := readOutput(c.OutputPath, opts, a.buf[:0], limit+1)
	if !ok {
		a.block("output", c.Output)
		return
	}
	a.buf = data[:0] // reused for the next output
	a.budget -= int64(len(data))
	if int64(len(data)) > limit {
		a.blockBytes("output", data[:limit], fmt.Sprintf("… [output cut at %d bytes: the audit log keeps at most 8 MiB per command and %d MiB in all; the whole output is in %s]", limit, maxAuditOutputs>>20, filepath.Base(c.OutputPath)))
		return
	}
	a.blockBytes("output", data)
}

func writeCall(a *auditWriter, c loop.LLMCall) {
	var h strings.Builder
	fmt.Fprintf(&h, "[llm] agent=%s provider=%s model=%s tokens-in=%d tokens-out=%d duration=%s",
		c.Agent, c.Provider, c.Model, c.TokensIn, c.TokensOut, c.Duration.Round(time.Millisecond))
	if c.CachedTokensIn > 0 {
		fmt.Fprintf(&h, " cached-in=%d", c.CachedTokensIn)
	}
	if c.CostUSD > 0 {
		fmt.Fprintf(&h, " cost-usd=%.6f", c.CostUSD)
	}
	if c.Error != "" {
		fmt.Fprintf(&h, " error=%q", c.Error)
	}
	a.printf("%s\n", h.String())
}

// readOutput reads at most max bytes of a saved full output into buf, when the file
// lies inside opts.LogsDir. The file is
// opened through an os.Root on the logs directory: a path or link leading outside it is
// refused by the open itself, so a link swapped in after a check cannot win a race, and
// a final symbolic link is not followed at all.
func readOutput(path string, opts Options, buf []byte, max int64) ([]byte, bool) {
	if path == "" || opts.LogsDir == "" {
		return nil, false
	}
	logs, err := filepath.Abs(opts.LogsDir)
	if err != nil {
		return nil, false
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
		return nil, false
	}
	root, err := os.OpenRoot(logs)
	if err != nil {
		warn("read command output", err)
		return nil, false
	}
	defer root.Close()
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		warn("read command output", err)
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		warn("command output is not a regular file; not read", err)
		return nil, false
	}
	b := bytes.NewBuffer(buf)
	if _, err := b.ReadFrom(io.LimitReader(f, max)); err != nil {
		warn("read command output", err)
		return nil, false
	}
	return b.Bytes(), true
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// auditFromReport writes an audit log from a report alone (a report decoded from JSON).
func auditFromReport(a *auditWriter, r *Report) {
	a.printf("smile-loop audit log (from the report; full outputs unavailable)\ntutorial: %s\nstatus: %s\n", r.Meta.Tutorial, r.Meta.Status)
	for _, c := range r.AuditTrail.Commands {
		a.printf("\n[command] iteration=%d line=%d exit=%d duration=%dms\n$ %s\n", c.Iteration, c.Line, c.ExitCode, c.DurationMS, c.Command)
		a.block("output", c.Output)
	}
	for _, f := range r.AuditTrail.Files {
		a.printf("[file] iteration=%d %s (%d bytes)\n", f.Iteration, f.Path, f.Size)
	}
	for _, c := range r.AuditTrail.LLMCalls {
		a.printf("[llm] iteration=%d agent=%s provider=%s model=%s tokens-in=%d cached-in=%d tokens-out=%d duration=%dms\n",
			c.Iteration, c.Agent, c.Provider, c.Model, c.TokensIn, c.CachedIn, c.TokensOut, c.DurationMS)
	}
}
