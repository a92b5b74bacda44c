package none

// Findings of the deterministic Student: how a root cause, a consequence or an
// unverifiable step is recorded, with its problem, concrete fix and evidence.

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// consequence folds a failure into the root it depends on.
func (ss *session) consequence(r int, rec loop.CommandRecord) {
	ss.failRoot = r
	rt := ss.roots[r]
	if rt.finding >= 0 {
		f := &ss.res.Findings[rt.finding]
		if rec.Line != f.Line && !containsInt(f.AlsoAt, rec.Line) {
			f.AlsoAt = append(f.AlsoAt, rec.Line)
		}
		return
	}
	ss.cov.Unverified = append(ss.cov.Unverified, loop.Note{Line: rec.Line, Reason: fmt.Sprintf("depends on line %d, which %s", rt.line, rt.why)})
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// unverified records a step whose failure says nothing about the tutorial.
func (ss *session) unverified(rec loop.CommandRecord, why string) int {
	ss.cov.Unverified = append(ss.cov.Unverified, loop.Note{Line: rec.Line, Reason: why})
	ss.roots = append(ss.roots, root{finding: -1, line: rec.Line, why: strings.SplitN(why, " (", 2)[0]})
	return len(ss.roots) - 1
}

// environment records an environment finding (not a fault of the tutorial).
func (ss *session) environment(rec loop.CommandRecord, output, problem, fix string) int {
	return ss.addFinding(rec, loop.Finding{Problem: problem, Fix: fix, Environment: true}, output)
}

// addFinding records a root-cause finding for a failed command and returns its root.
func (ss *session) addFinding(rec loop.CommandRecord, f loop.Finding, output string) int {
	d := loop.Decide(ss.task.Behavior, loop.Observation{Step: rec.Step, Class: rec.Class, Attempts: 1, NoRetry: true})
	f.Step, f.Quote, f.Line = rec.Step, rec.Command, rec.Line
	f.EndLine = endLine(ss.steps, rec.Line)
	f.Trigger, f.Class, f.Command, f.ExitCode = d.Trigger, rec.Class, rec.Command, rec.ExitCode
	f.Output = evidenceOf(output)
	f.Iteration = ss.task.Iteration
	if d.Action == loop.ActionAskMentor {
		f.Question = fmt.Sprintf("Line %d fails: what does the tutorial leave out before it?", rec.Line)
	}
	ss.res.Findings = append(ss.res.Findings, f)
	ss.roots = append(ss.roots, root{finding: len(ss.res.Findings) - 1, line: rec.Line})
	ss.task.Events.Emit(loop.NewEvent(loop.EventTrigger, loop.TriggerData{Trigger: d.Trigger, Step: rec.Step, Summary: d.Reason}))
	return len(ss.roots) - 1
}

// evidenceOf is the output quoted as evidence: its most informative line first, then
// its end.
func evidenceOf(output string) string {
	key := keyLine(output)
	t := tail(strings.TrimSpace(output), maxEvidence)
	if key == "" || strings.Contains(t, key) {
		return t
	}
	return key + "\n…\n" + t
}

func endLine(steps []step, line int) int {
	for _, s := range steps {
		if s.command != nil && s.command.StartLine == line {
			return s.command.EndLine
		}
	}
	return line
}

// failureProblem names what went wrong, quoting the most informative output line.
func failureProblem(rec loop.CommandRecord, output string) string {
	if rec.TimedOut {
		return fmt.Sprintf("`%s` (line %d) did not finish within %s and was stopped", firstLine(rec.Command), rec.Line, rec.Duration.Round(time.Second))
	}
	key := keyLine(output)
	if key == "" {
		return fmt.Sprintf("`%s` (line %d) failed with exit code %d and printed nothing", firstLine(rec.Command), rec.Line, rec.ExitCode)
	}
	if onlyWarnings(output) {
		// HTML Tidy 5.6 exits 1 when it printed warnings and 2 for errors
		return fmt.Sprintf("`%s` (line %d) exited with status %d after printing only warnings (%s)", firstLine(rec.Command), rec.Line, rec.ExitCode, key)
	}
	return fmt.Sprintf("`%s` (line %d) fails: %s", firstLine(rec.Command), rec.Line, key)
}

// reWarningLine: a line a program prints as a warning; reErrorWordOnly, one that says
// error or fatal.
var (
	reWarningLine   = regexp.MustCompile(`(?i)\bwarn(?:ing)?\b`)
	reErrorWordOnly = regexp.MustCompile(`(?i)\b(?:error|fatal)\b`)
)

// onlyWarnings: every line of output is a warning, and there is at least one.
func onlyWarnings(output string) bool {
	n := 0
	for _, l := range strings.Split(output, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if !reWarningLine.MatchString(l) || reErrorWordOnly.MatchString(l) {
			return false
		}
		n++
	}
	return n > 0
}

var (
	rePermission  = regexp.MustCompile(`(?i)permission denied|exists but is not an executable file`) // (fish's words)
	reGitIdentity = regexp.MustCompile(`(?i)please tell me who you are|author identity unknown|user\.email`)
	reNoFile      = regexp.MustCompile(`(?i)(?:can't open file|no such file or directory|cannot find|not found|does not exist)[^\n]*?['"‘]?([\w./-]+\.\w+)`)
)

// reSocketRoot: MariaDB refusing `root` to a user who is not the system's root (Debian
// authenticates it through the socket); reNoRole: PostgreSQL knowing no role for the user.
var (
	reSocketRoot = regexp.MustCompile(`ERROR 1698 \(28000\): Access denied for user 'root'@'localhost'`)
	reNoRole     = regexp.MustCompile(`FATAL:\s+role "([^"]+)" does not exist`)
)

// failureFix names the concrete change for a failed command.
func failureFix(rec loop.CommandRecord, output string) (string, *loop.Edit) {
	w := firstWord(rec.Command)
	switch {
	case rec.TimedOut:
		return fmt.Sprintf("say how long the command at line %d takes, or, if it is a server meant to keep running, say so and how to stop it", rec.Line), nil
	case reGitIdentity.MatchString(output):
		return fmt.Sprintf("before line %d, add `git config --global user.name \"Your Name\"` and `git config --global user.email you@example.com` (a fresh machine has no Git identity)", rec.Line),
			&loop.Edit{InsertBefore: []string{`git config --global user.name "Your Name"`, `git config --global user.email you@example.com`}}
	case rePermission.MatchString(output) && strings.Contains(w, "/") && !strings.HasPrefix(w, "/usr/") && !strings.HasPrefix(w, "/bin/"):
		script := strings.TrimPrefix(w, "./")
		return fmt.Sprintf("make the script executable after creating it: add `chmod +x %s` before line %d", script, rec.Line), &loop.Edit{InsertBefore: []string{"chmod +x " + script}}
	case rePermission.MatchString(output):
		return fmt.Sprintf("line %d needs permissions the reader may not have; say whether to use sudo or which permission to set", rec.Line), nil
	case reSocketRoot.MatchString(output) && !reSudo.MatchString(rec.Command):
		fix := fmt.Sprintf("Debian's MariaDB lets its `root` account in only from the system's root (unix_socket authentication): run line %d with sudo, or create a database user for the reader first", rec.Line)
		if cmd := strings.TrimSpace(rec.Command); !strings.Contains(cmd, "\n") {
			return fix, &loop.Edit{Replace: "sudo " + cmd}
		}
		return fix, nil
	}
	if m := reNoRole.FindStringSubmatch(output); m != nil && (m[1] == Learner || m[1] == "root") {
		return fmt.Sprintf("PostgreSQL on Debian starts with the `postgres` role only: before line %d, give the reader a role (`sudo -u postgres createuser --superuser \"$USER\"`), or run the command as postgres (`sudo -u postgres …`)", rec.Line),
			&loop.Edit{InsertBefore: []string{`sudo -u postgres createuser --superuser "$USER"`}}
	}
	if m := reNoFile.FindStringSubmatch(output); m != nil {
		return fmt.Sprintf("`%s` does not exist where line %d runs: add the step that creates it, or the missing `cd` into its directory, before line %d", m[1], rec.Line, rec.Line), nil
	}
	if rec.Class == loop.ClassTestFailure {
		return fmt.Sprintf("the tests at line %d fail when the tutorial is followed as written; check that the code shown earlier is complete and matches what the tests expect", rec.Line), nil
	}
	return fmt.Sprintf("line %d fails on a fresh Debian system with: %s — correct the command or add the step it needs before it", rec.Line, firstNonEmpty(keyLine(output), fmt.Sprintf("exit code %d", rec.ExitCode))), nil
}

// ambiguous records a file the reader is told to create without being told where.
func (ss *session) ambiguous(s step) {
	d := loop.Decide(ss.task.Behavior, loop.Observation{Ambiguous: true, Attempts: 1, NoRetry: true})
	line := s.block.StartLine
	f := loop.Finding{
		Step:      section(ss.task.Tutorial, line),
		Quote:     loop.Clip(s.lead, 200),
		Line:      line,
		EndLine:   s.block.EndLine,
		Problem:   fmt.Sprintf("the tutorial shows the content of a file (\"%s\") but never says its name or where to save it", loop.Clip(lastSentence(s.lead), 120)),
		Fix:       "name the file and its directory in the sentence before the block (for example \"save it as `/etc/…/name`\")",
		Question:  "Which file should this go into?",
		Trigger:   d.Trigger,
		Iteration: ss.task.Iteration,
	}
	ss.res.Findings = append(ss.res.Findings, f)
	ss.res.AttemptedActions = append(ss.res.AttemptedActions, fmt.Sprintf("line %d: could not tell where to save the file shown", line))
	ss.task.Events.Emit(loop.NewEvent(loop.EventTrigger, loop.TriggerData{Trigger: d.Trigger, Step: f.Step, Summary: d.Reason}))
}

// missingDir records a file the prose puts in a directory that does not exist.
func (ss *session) missingDir(s step) {
	d := loop.Decide(ss.task.Behavior, loop.Observation{Ambiguous: true, Attempts: 1, NoRetry: true})
	here := path.Base(ss.cwd)
	hint := similarDir(append(ss.dirs(context.Background()), here), s.dir)
	f := loop.Finding{
		Step:      section(ss.task.Tutorial, s.line),
		Quote:     loop.Clip(strings.TrimSpace(ss.task.Tutorial.Map.Line(s.line)), 200),
		Line:      s.line,
		Problem:   fmt.Sprintf("the tutorial says to create %s in the `%s` directory, but no step creates `%s`%s", s.file, s.dir, s.dir, hint),
		Fix:       fmt.Sprintf("name the directory the reader actually has%s", hint),
		Trigger:   d.Trigger,
		Iteration: ss.task.Iteration,
	}
	ss.res.Findings = append(ss.res.Findings, f)
}
