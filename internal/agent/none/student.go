// Package none is the deterministic mode (llmProvider "none"): a Student that runs the
// tutorial's shell blocks in document order, as one terminal session, and records every
// failing command as a finding; and a rule-based Mentor that says what the tutorial is
// missing. No LLM, no token, the same result every time.
//
// How a deterministic run ends: the Student makes one pass over the whole tutorial and
// reports every gap it found. No gap: status completed (exit 0). Gaps: it asks the
// Mentor (ask_mentor, with the most specific enabled trigger) — or reports
// cannot_complete when every matching trigger is disabled — and the loop, seeing a
// SinglePass Student, ends the run as "blocker" with a reason naming the number of gaps
// right after the Mentor's notes: a second pass would repeat the first. The run exits 1.
package none

import (
	"context"
	"fmt"
	"log/slog"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Defaults of the deterministic Student.
const (
	DefaultGrace       = 3 * time.Second // a server still running after this is left in the background
	MaxCommands        = 500
	maxEvidence        = 600
	maxRecordedOutput  = 4000
	backgroundLogsPath = loop.LogsMount + "/background"
)

// Student runs the tutorial's shell blocks once, in order, in one terminal session.
type Student struct {
	// Grace is how long a server command may run before it is left in the background.
	Grace  time.Duration
	Logger *slog.Logger
}

var (
	_ loop.Student    = (*Student)(nil)
	_ loop.SinglePass = (*Student)(nil)
)

// SinglePass: the deterministic Student cannot use Mentor notes.
func (s *Student) SinglePass() bool { return true }

// action is one thing to do, in document order: run a command or write a file.
type action struct {
	block   tutorial.CodeBlock
	command *tutorial.Command // nil for a file
	file    string            // path to write (relative to the session's directory)
	appendF bool
	// ambiguous: a file is shown and the reader is told to create it, but not where
	ambiguous string
}

type session struct {
	s        *Student
	task     loop.StudentTask
	cwd      string
	res      loop.StudentResult
	rootCaus map[string]int // root-cause key → index in res.Findings
	bg       int
}

// Attempt runs the whole tutorial once.
func (s *Student) Attempt(ctx context.Context, task loop.StudentTask) (loop.StudentResult, error) {
	grace := s.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	ss := &session{s: s, task: task, cwd: loop.WorkMount, rootCaus: map[string]int{}}
	ss.res.Status = loop.StudentCompleted
	if task.Tutorial == nil || task.Tutorial.Map == nil {
		return ss.res, fmt.Errorf("deterministic student: no tutorial")
	}
	actions := plan(task.Tutorial)
	ss.res.Plan = planSteps(task.Tutorial, actions)
	if len(actions) == 0 {
		ss.res.Summary = "no actions required: the tutorial has no shell commands or files to create"
		ss.res.AttemptedActions = []string{"read the tutorial"}
		return ss.res, nil
	}
	events := task.Events
	if events == nil {
		events = loop.Discard
	}
	stepOf := map[int]int{} // block start line → plan position
	for i, p := range ss.res.Plan {
		stepOf[p.StartLine] = i + 1
	}
	lastStep := 0
	for _, a := range actions {
		if err := ctx.Err(); err != nil {
			return ss.finish(), err
		}
		if n := stepOf[a.block.StartLine]; n != lastStep && n > 0 {
			p := ss.res.Plan[n-1]
			events.Emit(loop.NewEvent(loop.EventStepStart, loop.StepData{Step: loop.StepLabel(n, len(ss.res.Plan), p.Title), Line: p.StartLine}))
			lastStep = n
		}
		var err error
		switch {
		case a.ambiguous != "":
			ss.ambiguous(a)
		case a.command != nil:
			if len(ss.res.Commands) >= MaxCommands {
				ss.res.AttemptedActions = append(ss.res.AttemptedActions, fmt.Sprintf("stopped after %d commands", MaxCommands))
				return ss.finish(), nil
			}
			err = ss.run(ctx, a, grace)
		default:
			err = ss.write(ctx, a)
		}
		if err != nil {
			return ss.finish(), err
		}
	}
	return ss.finish(), nil
}

// plan lists the actions of a tutorial in document order.
func plan(t *tutorial.Tutorial) []action {
	var out []action
	for _, cb := range t.Map.CodeBlocks() {
		if cb.Shell {
			for i := range cb.Commands {
				out = append(out, action{block: cb, command: &cb.Commands[i]})
			}
			continue
		}
		lead := leadText(t, cb)
		if file, appendF, ok := fileTarget(cb, lead); ok {
			out = append(out, action{block: cb, file: file, appendF: appendF})
		} else if reNamelessFile.MatchString(lead) {
			out = append(out, action{block: cb, ambiguous: lead})
		}
	}
	return out
}

func planSteps(t *tutorial.Tutorial, actions []action) []loop.PlanStep {
	var steps []loop.PlanStep
	seen := map[int]bool{}
	for _, a := range actions {
		if seen[a.block.StartLine] {
			continue
		}
		seen[a.block.StartLine] = true
		id := len(steps) + 1
		title := section(t, a.block.StartLine)
		switch {
		case a.file != "":
			title = joinTitle(title, "write "+a.file)
		case a.command != nil:
			title = joinTitle(title, "run "+firstLine(a.command.Text))
		default:
			title = joinTitle(title, "create a file")
		}
		step := loop.PlanStep{ID: id, Title: title, StartLine: a.block.StartLine, EndLine: max(a.block.EndLine, a.block.StartLine)}
		if id > 1 {
			step.DependsOn = []int{id - 1}
		}
		steps = append(steps, step)
	}
	return steps
}

func joinTitle(section, what string) string {
	if section == "" {
		return what
	}
	return section + ": " + what
}

func section(t *tutorial.Tutorial, line int) string {
	return strings.Join(t.Map.HeadingPath(line), " › ")
}

// run executes one command of a shell block in the session.
func (ss *session) run(ctx context.Context, a action, grace time.Duration) error {
	cmd := a.command
	timeout := time.Duration(max(ss.task.Behavior.TimeoutSeconds, 1)) * time.Second
	background := isServer(cmd.Text)
	// the prelude changes to the session's directory; starting in the work directory
	// keeps a command runnable when the tutorial removed the directory it was in
	req := loop.ExecRequest{Command: script(cmd.Text), Timeout: timeout}
	if background {
		ss.bg++
		logPath := fmt.Sprintf("%s-%d.log", backgroundLogsPath, ss.bg)
		g := int(max(grace/time.Second, 1))
		req.Command = backgroundScript(cmd.Text, logPath, g)
		req.Timeout = timeout + grace
	}
	start := time.Now()
	r, err := ss.task.Sandbox.Exec(ctx, req)
	if err != nil {
		return fmt.Errorf("run line %d: %w", cmd.StartLine, err)
	}
	if r.TimedOut && !background && reServing.MatchString(r.Stdout+r.Stderr) {
		// a server the heuristics did not know: it said it is serving, so start it again
		// in the background instead of reporting a timeout
		background = true
		ss.bg++
		logPath := fmt.Sprintf("%s-%d.log", backgroundLogsPath, ss.bg)
		req.Command = backgroundScript(cmd.Text, logPath, int(max(grace/time.Second, 1)))
		req.Timeout = timeout + grace
		if r, err = ss.task.Sandbox.Exec(ctx, req); err != nil {
			return fmt.Errorf("run line %d in the background: %w", cmd.StartLine, err)
		}
	}
	stderr, cwd := splitCwd(r.Stderr)
	if cwd != "" {
		ss.cwd = cwd
	}
	output := combine(r.Stdout, stderr)
	rec := loop.CommandRecord{
		Iteration:  ss.task.Iteration,
		Step:       section(ss.task.Tutorial, cmd.StartLine),
		Line:       cmd.StartLine,
		Command:    cmd.Text,
		ExitCode:   r.ExitCode,
		TimedOut:   r.TimedOut,
		Background: background && r.ExitCode == 0 && !r.TimedOut && strings.Contains(r.Stdout, "left running in the background"),
		Duration:   time.Since(start),
		Output:     tail(output, maxRecordedOutput),
		OutputPath: r.OutputPath,
	}
	failed := r.ExitCode != 0 || r.TimedOut
	if failed {
		rec.Class, rec.Summary = loop.Classify(cmd.Text, r.ExitCode, output, r.TimedOut)
	}
	ss.res.Commands = append(ss.res.Commands, rec)
	ss.res.CommandsRun = append(ss.res.CommandsRun, cmd.Text)
	verb := "ran"
	if rec.Background {
		verb = "started in the background"
	}
	ss.res.AttemptedActions = append(ss.res.AttemptedActions, fmt.Sprintf("line %d: %s `%s` (exit %d)", cmd.StartLine, verb, firstLine(cmd.Text), r.ExitCode))
	ss.task.Events.Emit(loop.NewEvent(loop.EventCommand, rec))
	ss.task.Events.Emit(loop.NewEvent(loop.EventStepEnd, loop.StepData{Step: firstLine(cmd.Text), Line: cmd.StartLine, OK: !failed}))
	if failed {
		ss.finding(rec, output)
	}
	return nil
}

// finding records a failing command, folding later consequences of one root cause
// (the same missing command or module, the same command failing the same way) into
// the first finding's AlsoAt.
func (ss *session) finding(rec loop.CommandRecord, output string) {
	key := rootCause(rec, output)
	if i, ok := ss.rootCaus[key]; ok {
		f := &ss.res.Findings[i]
		if rec.Line != f.Line {
			f.AlsoAt = append(f.AlsoAt, rec.Line)
		}
		return
	}
	d := loop.Decide(ss.task.Behavior, loop.Observation{Step: rec.Step, Class: rec.Class, Attempts: 1, NoRetry: true})
	f := loop.Finding{
		Step:      rec.Step,
		Quote:     rec.Command,
		Line:      rec.Line,
		EndLine:   endLine(ss.task.Tutorial, rec.Line),
		Problem:   problem(rec),
		Trigger:   d.Trigger,
		Class:     rec.Class,
		Command:   rec.Command,
		ExitCode:  rec.ExitCode,
		Output:    tail(output, maxEvidence),
		Iteration: ss.task.Iteration,
	}
	if d.Action == loop.ActionAskMentor {
		f.Question = fmt.Sprintf("Line %d fails: what does the tutorial leave out before it?", rec.Line)
	}
	ss.rootCaus[key] = len(ss.res.Findings)
	ss.res.Findings = append(ss.res.Findings, f)
	ss.task.Events.Emit(loop.NewEvent(loop.EventTrigger, loop.TriggerData{Trigger: d.Trigger, Step: rec.Step, Summary: d.Reason}))
}

func problem(rec loop.CommandRecord) string {
	if rec.TimedOut {
		return fmt.Sprintf("`%s` (line %d) did not finish within %s and was stopped", firstLine(rec.Command), rec.Line, rec.Duration.Round(time.Second))
	}
	return rec.Summary
}

func rootCause(rec loop.CommandRecord, output string) string {
	if rec.Class == loop.ClassMissingDependency {
		if _, name := loop.MissingDependency(rec.ExitCode, output); name != "" {
			return "dep:" + name
		}
	}
	return fmt.Sprintf("cmd:%s:%s", strings.TrimSpace(rec.Command), rec.Class)
}

func endLine(t *tutorial.Tutorial, line int) int {
	for _, cb := range t.Map.CodeBlocks() {
		for _, c := range cb.Commands {
			if c.StartLine == line {
				return c.EndLine
			}
		}
	}
	return line
}

// write writes a file block to the path the tutorial names.
func (ss *session) write(ctx context.Context, a action) error {
	p := a.file
	if !path.IsAbs(p) {
		p = path.Join(ss.cwd, p)
	}
	content := a.block.Content
	if !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	if a.appendF {
		old, err := ss.task.Sandbox.ReadFile(ctx, p, 1<<20)
		if err == nil && len(old) > 0 {
			content = string(old) + ensureNL(string(old)) + content
		}
	}
	dir := path.Dir(p)
	if _, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "mkdir -p " + shellQuote(dir), Timeout: 10 * time.Second}); err != nil {
		return fmt.Errorf("create directory for line %d: %w", a.block.StartLine, err)
	}
	if err := ss.task.Sandbox.WriteFile(ctx, p, []byte(content), 0o644); err != nil {
		if ctx.Err() != nil {
			return err
		}
		rec := loop.CommandRecord{Iteration: ss.task.Iteration, Step: section(ss.task.Tutorial, a.block.StartLine), Line: a.block.StartLine,
			Command: "write " + a.file, ExitCode: 1, Output: err.Error(), Class: loop.ClassToolingError, Summary: "could not write " + a.file + ": " + err.Error()}
		ss.res.Commands = append(ss.res.Commands, rec)
		ss.finding(rec, err.Error())
		return nil
	}
	ss.res.Files = append(ss.res.Files, loop.FileRecord{Iteration: ss.task.Iteration, Path: p, Size: int64(len(content))})
	ss.res.FilesCreated = append(ss.res.FilesCreated, p)
	ss.res.AttemptedActions = append(ss.res.AttemptedActions, fmt.Sprintf("line %d: wrote %s (%d bytes)", a.block.StartLine, p, len(content)))
	ss.task.Events.Emit(loop.NewEvent(loop.EventStepEnd, loop.StepData{Step: "write " + a.file, Line: a.block.StartLine, OK: true}))
	return nil
}

func ensureNL(s string) string {
	if strings.HasSuffix(s, "\n") {
		return ""
	}
	return "\n"
}

// ambiguous records a file the reader is told to create without being told where.
func (ss *session) ambiguous(a action) {
	d := loop.Decide(ss.task.Behavior, loop.Observation{Ambiguous: true, Attempts: 1, NoRetry: true})
	line := a.block.StartLine
	f := loop.Finding{
		Step:      section(ss.task.Tutorial, line),
		Quote:     clip(a.ambiguous, 200),
		Line:      line,
		EndLine:   a.block.EndLine,
		Problem:   "the tutorial shows a file to create but does not say its name or where to save it",
		Question:  "Which file should this code go into?",
		Trigger:   d.Trigger,
		Iteration: ss.task.Iteration,
	}
	ss.res.Findings = append(ss.res.Findings, f)
	ss.res.AttemptedActions = append(ss.res.AttemptedActions, fmt.Sprintf("line %d: could not tell where to save the file shown", line))
	ss.task.Events.Emit(loop.NewEvent(loop.EventTrigger, loop.TriggerData{Trigger: d.Trigger, Step: f.Step, Summary: d.Reason}))
}

// finish sets the status from the findings: none → completed; otherwise ask_mentor with
// the most specific trigger, or cannot_complete when no enabled trigger fired.
func (ss *session) finish() loop.StudentResult {
	r := &ss.res
	nCmd, nFile := len(r.Commands), len(r.Files)
	if len(r.Findings) == 0 {
		r.Status = loop.StudentCompleted
		r.Summary = fmt.Sprintf("ran %d command(s) and wrote %d file(s); every step worked", nCmd, nFile)
		return *r
	}
	best := loop.TriggerNone
	for _, f := range r.Findings {
		if f.Trigger != loop.TriggerNone && (best == loop.TriggerNone || loop.MoreSpecific(f.Trigger, best)) {
			best = f.Trigger
		}
	}
	first := r.Findings[0]
	r.CurrentStep = firstNonEmpty(first.Step, fmt.Sprintf("line %d", first.Line))
	r.Problem = first.Problem
	if len(r.Findings) > 1 {
		r.Problem += fmt.Sprintf(" (and %d more gap(s))", len(r.Findings)-1)
	}
	r.Summary = fmt.Sprintf("ran %d command(s) and wrote %d file(s); %d gap(s) found", nCmd, nFile, len(r.Findings))
	if best == loop.TriggerNone {
		r.Status = loop.StudentCannotComplete
		r.Reason = r.Problem + " — the matching stuck triggers are disabled"
		return *r
	}
	r.Status = loop.StudentAskMentor
	r.Trigger = best
	r.QuestionForMentor = fmt.Sprintf("What is the tutorial missing? %d step(s) failed; the first at line %d.", len(r.Findings), first.Line)
	return *r
}

// leadText is the source of the paragraph right above a block (markup kept, so paths
// in backticks survive), falling back to the map's plain lead.
func leadText(t *tutorial.Tutorial, cb tutorial.CodeBlock) string {
	var lines []string
	for n := cb.StartLine - 1; n >= 1 && len(lines) < 6; n-- {
		l := strings.TrimSpace(t.Map.Line(n))
		if l == "" {
			if len(lines) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") || strings.HasPrefix(l, "#") {
			break
		}
		lines = append([]string{l}, lines...)
	}
	if len(lines) == 0 {
		return cb.Lead
	}
	return strings.Join(lines, " ")
}

var (
	// a verb telling the reader to put the block into a file; the path must follow it in
	// the same sentence
	reWriteVerb = regexp.MustCompile(`(?i)\b(create|save|write|add|put|paste|place|copy|edit|update|open|replace|change|modify|append)\b`)
	// "Create a file with this content:" without saying which
	reNamelessFile = regexp.MustCompile(`(?i)\b(create|save|put|paste|write)\b[^.:]*\bfile\b`)
	reAppend       = regexp.MustCompile(`(?i)\b(append|add\b[^.]*?\b(?:to|at the end of))\b`)
	rePathTick     = regexp.MustCompile("`([^`\\s]+)`")
	reInfoFile     = regexp.MustCompile(`(?:title|filename|file|name)=["']?([^"'\s}]+)`)
	knownNames     = map[string]bool{"Dockerfile": true, "Makefile": true, "Procfile": true, "Gemfile": true, "Vagrantfile": true, "Justfile": true, "Caddyfile": true, "Jenkinsfile": true, ".env": true}
)

// fileTarget finds the file a non-shell block should be written to.
func fileTarget(cb tutorial.CodeBlock, lead string) (file string, appendF bool, ok bool) {
	if m := reInfoFile.FindStringSubmatch(cb.Info); m != nil && looksLikePath(m[1]) {
		return m[1], false, true
	}
	for _, sentence := range sentences(lead) {
		v := reWriteVerb.FindStringIndex(sentence)
		if v == nil {
			continue
		}
		for _, m := range rePathTick.FindAllStringSubmatchIndex(sentence, -1) {
			if p := sentence[m[2]:m[3]]; m[0] > v[0] && looksLikePath(p) {
				return p, reAppend.MatchString(sentence), true
			}
		}
	}
	return "", false, false
}

// sentences splits text at ". ", "! ", "? " and ": " (paths keep their dots).
func sentences(text string) []string { return reSentenceEnd.Split(text, -1) }

var reSentenceEnd = regexp.MustCompile(`[.!?:]\s+`)

func looksLikePath(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") || strings.ContainsAny(s, "$*?<>|;&(){}=\"'") || strings.HasSuffix(s, "/") {
		return false
	}
	base := path.Base(s)
	if knownNames[base] {
		return true
	}
	if strings.HasPrefix(s, "http") {
		return false
	}
	dot := strings.LastIndexByte(base, '.')
	return dot >= 0 && dot < len(base)-1 && !strings.Contains(base[dot+1:], " ")
}

func combine(stdout, stderr string) string {
	stdout, stderr = strings.TrimRight(stdout, "\n"), strings.TrimRight(stderr, "\n")
	switch {
	case stdout == "":
		return stderr
	case stderr == "":
		return stdout
	}
	return stdout + "\n" + stderr
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
