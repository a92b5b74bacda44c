package none

import (
	"context"
	"fmt"
	"strings"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Proven fixes: a finding whose fix is a concrete change (an install step, a chmod, a
// missing cd) is checked by applying the change to a copy of the tutorial's steps and
// following them again in a fresh container, to the end of the affected section. The
// finding is then marked FixVerified true (the step works), false (it still fails the
// same way), or left unmarked with the evidence when the step now fails for another
// reason the fix cannot address (the network, another missing tool).

// MaxVerifiedFixes bounds the re-runs of one attempt.
const MaxVerifiedFixes = 5

func (ss *session) verifyFixes(ctx context.Context) {
	if ss.noVerify || ss.s.SkipFixChecks {
		return
	}
	n := 0
	proven := map[int]loop.Edit{} // the fixes proven so far, by line: a reader applies them all
	for i := range ss.res.Findings {
		f := &ss.res.Findings[i]
		if f.Edit == nil || len(f.Edit.InsertBefore) == 0 && f.Edit.Replace == "" || f.Environment || f.Line <= 0 {
			continue
		}
		if n == MaxVerifiedFixes || ctx.Err() != nil {
			f.FixEvidence = fmt.Sprintf("not checked: only the first %d fixes of a run are re-run", MaxVerifiedFixes)
			continue
		}
		n++
		edit := *f.Edit
		if ss.verify(ctx, i, proven) {
			proven[f.Line] = edit
		}
	}
}

// verify re-runs the steps with f's fix inserted before its line, or with its line
// replaced by the fix's new text.
// Earlier fixes already proven are applied too, as the reader would have.
func (ss *session) verify(ctx context.Context, i int, proven map[int]loop.Edit) bool {
	f := &ss.res.Findings[i]
	at := -1
	for i, s := range ss.steps {
		if s.kind == runStep && s.line == f.Line {
			at = i
			break
		}
	}
	if at < 0 {
		f.FixEvidence = "not checked: the fix is not before a command"
		return false
	}
	if err := ss.task.Sandbox.Reset(ctx); err != nil {
		f.FixEvidence = "not checked: a fresh container could not be had: " + err.Error()
		return false
	}
	end := sectionEnd(ss.task.Tutorial, f.Line)
	var steps []step
	replace := len(f.Edit.InsertBefore) == 0
	for i, s := range ss.steps {
		edit, ok := proven[s.line]
		if i == at {
			edit, ok = *f.Edit, true
		}
		if ok && s.kind == runStep && s.line > 0 {
			if len(edit.InsertBefore) == 0 {
				cmd := *s.command
				cmd.Text = edit.Replace
				s.command = &cmd
			}
			for _, c := range edit.InsertBefore {
				cmd := &tutorial.Command{Text: c, StartLine: s.line, EndLine: s.line}
				steps = append(steps, step{kind: runStep, block: s.block, command: cmd, line: 0})
			}
		}
		if s.line > end {
			break
		}
		steps = append(steps, s)
	}
	re := newSession(ss.s, ss.task, ss.grace)
	re.steps, re.pre, re.noVerify, re.user, re.login, re.rootExec, re.home = steps, ss.pre, true, ss.user, ss.login, ss.rootExec, ss.home
	re.task.Events = loop.Discard
	re.prepare(ctx)
	for i, s := range steps {
		if ctx.Err() != nil {
			return false
		}
		switch s.kind {
		case fileStep:
			_ = re.write(ctx, s)
		case runStep:
			re.beforeRun(ctx, s)
			_ = re.run(ctx, i, s)
		}
	}
	fix := strings.Join(f.Edit.InsertBefore, "; ")
	added := fmt.Sprintf("with `%s` added before line %d", fix, f.Line)
	want := f.Command
	if replace {
		fix, want = f.Edit.Replace, f.Edit.Replace
		added = fmt.Sprintf("with line %d changed to `%s`", f.Line, fix)
	}
	var got *loop.CommandRecord
	for i := range re.res.Commands {
		if c := &re.res.Commands[i]; c.Line == f.Line && c.Command == want {
			got = c
		}
	}
	for i := range re.res.Commands {
		if c := re.res.Commands[i]; !replace && c.Command == f.Edit.InsertBefore[0] && (c.ExitCode != 0 || c.TimedOut) {
			no := false
			f.FixVerified = &no
			f.FixEvidence = fmt.Sprintf("with `%s` added before line %d, the added step itself fails (exit %d): %s", fix, f.Line, c.ExitCode, firstNonEmpty(keyLine(c.Output), "no output"))
			return false
		}
	}
	if rc, ok := ss.rechecks[i]; ok {
		// the command worked all along: what it prints is what the fix is to change
		got = nil
		for k := range re.res.Commands {
			if c := &re.res.Commands[k]; c.Line == rc.line && c.Command == rc.command {
				got = c
			}
		}
		switch {
		case got == nil:
			f.FixEvidence = fmt.Sprintf("not checked: %s, line %d was not reached", added, rc.line)
		case got.ExitCode == 0 && rc.ok(got.Output):
			yes := true
			f.FixVerified = &yes
			f.Edit.Replace = ss.replacement(f)
			f.FixEvidence = fmt.Sprintf("%s, `%s` printed what the tutorial shows in a fresh container", added, firstLine(got.Command))
		default:
			no := false
			f.FixVerified = &no
			f.FixEvidence = fmt.Sprintf("%s, `%s` still does not print what the tutorial shows: %s", added, firstLine(got.Command), firstNonEmpty(keyLine(got.Output), fmt.Sprintf("exit %d", got.ExitCode)))
		}
		return f.FixVerified != nil && *f.FixVerified
	}
	switch {
	case got == nil:
		f.FixEvidence = fmt.Sprintf("not checked: %s, line %d was not reached", added, f.Line)
	case got.ExitCode == 0 && !got.TimedOut:
		yes := true
		f.FixVerified = &yes
		f.Edit.Replace = ss.replacement(f)
		f.FixEvidence = fmt.Sprintf("%s, `%s` worked (exit 0) in a fresh container", added, firstLine(got.Command))
	case samePro(f, got):
		no := false
		f.FixVerified = &no
		f.FixEvidence = fmt.Sprintf("%s, `%s` still fails the same way: %s", added, firstLine(got.Command), firstNonEmpty(keyLine(got.Output), fmt.Sprintf("exit %d", got.ExitCode)))
	default:
		f.FixEvidence = fmt.Sprintf("not proven: %s, `%s` gets past this problem but fails for another reason (%s)", added, firstLine(got.Command), firstNonEmpty(keyLine(got.Output), fmt.Sprintf("exit %d", got.ExitCode)))
	}
	return f.FixVerified != nil && *f.FixVerified
}

// samePro reports whether a re-run command failed with the finding's own problem.
func samePro(f *loop.Finding, got *loop.CommandRecord) bool {
	if f.Class == loop.ClassMissingDependency {
		_, want := loop.MissingDependency(f.ExitCode, f.Output)
		_, have := loop.MissingDependency(got.ExitCode, got.Output)
		return want != "" && want == have
	}
	if f.Class == "" {
		return false
	}
	return got.Class == f.Class && keyLine(got.Output) == keyLine(f.Output)
}

// sectionEnd is the last line of the section holding line (the line before the next
// heading of the same or a higher level), or the tutorial's last line.
func sectionEnd(t *tutorial.Tutorial, line int) int {
	level := 0
	for _, b := range t.Map.Blocks() {
		if b.Kind == tutorial.KindHeading && b.StartLine <= line {
			level = b.Level
		}
	}
	for _, b := range t.Map.Blocks() {
		if b.Kind == tutorial.KindHeading && b.StartLine > line && (level == 0 || b.Level <= level) {
			return b.StartLine - 1
		}
	}
	return t.Map.LineCount()
}

// replacement is the new text of the finding's lines with the fix inserted before them,
// in the block's own style (indent, "$ " prompts): what a reviewer can commit as a
// suggestion.
func (ss *session) replacement(f *loop.Finding) string {
	m := ss.task.Tutorial.Map
	end := max(f.EndLine, f.Line)
	first := m.OriginalLine(f.Line)
	indent := first[:len(first)-len(strings.TrimLeft(first, " \t"))]
	prefix := ""
	if strings.HasPrefix(strings.TrimLeft(first, " \t"), "$ ") {
		prefix = "$ "
	}
	if len(f.Edit.InsertBefore) == 0 {
		return indent + prefix + f.Edit.Replace
	}
	var lines []string
	for _, c := range f.Edit.InsertBefore {
		lines = append(lines, indent+prefix+c)
	}
	for n := f.Line; n <= end; n++ {
		lines = append(lines, m.OriginalLine(n))
	}
	return strings.Join(lines, "\n")
}

// A recheck proves the fix of a finding about what a command printed (it did not fail):
// the command at line, re-run with the fix, must print what the tutorial shows.
type recheck struct {
	line    int
	command string
	ok      func(output string) bool
}
