package observe

import (
	"fmt"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// Multi fans every event out to each emitter in turn; nil emitters are skipped.
func Multi(emitters ...loop.Emitter) loop.Emitter {
	var list []loop.Emitter
	for _, e := range emitters {
		if e != nil {
			list = append(list, e)
		}
	}
	return loop.EmitterFunc(func(e loop.Event) {
		for _, x := range list {
			x.Emit(e)
		}
	})
}

// oneLine collapses text to a single line of at most limit runes, so that text from a
// tutorial, a command or a model cannot start a line of its own (in the Actions log a line
// starting with "::" is a workflow command).
func oneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	return neutralize(loop.Clip(s, limit))
}

// block indents every line of multi-line text behind a fixed gutter.
func block(s string, limit int) string {
	s = loop.Clip(strings.TrimSpace(s), limit)
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = "    │ " + neutralize(strings.ReplaceAll(strings.TrimRight(l, " \t"), "\r", ""))
	}
	return strings.Join(lines, "\n")
}

// neutralize defuses the runner's legacy "##[command]" syntax, which it honours anywhere
// in a line.
func neutralize(s string) string { return strings.ReplaceAll(s, "##[", "#\u200b#[") }

// plainLine describes an event as one log line (plus an indented block for notes and
// summaries); ok is false for events not worth a line. Every line starts with fixed text.
func plainLine(e loop.Event) (line string, ok bool) {
	switch e.Type {
	case loop.EventIterationStart:
		if d, ok := decode[loop.IterationStartData](e.Data); ok {
			return fmt.Sprintf("iteration %d started", d.Iteration), true
		}
	case loop.EventPlanAccepted:
		if steps, ok := decodePlan(e.Data); ok {
			return fmt.Sprintf("plan accepted: %d steps", len(steps)), true
		}
	case loop.EventStepStart:
		if d, ok := decode[loop.StepData](e.Data); ok {
			return stepText(oneLine(d.Step, 120)) + at(d.Line), true
		}
	case loop.EventStepEnd:
		if d, ok := decode[loop.StepData](e.Data); ok {
			verdict := "step failed: "
			if d.OK {
				verdict = "step done: "
			}
			return verdict + oneLine(d.Step, 120) + at(d.Line), true
		}
	case loop.EventCommand:
		if d, ok := decode[loop.CommandRecord](e.Data); ok {
			return commandLine(d), true
		}
	case loop.EventTrigger:
		if d, ok := decode[loop.TriggerData](e.Data); ok {
			s := "stuck (" + string(d.Trigger) + ")"
			if d.Step != "" {
				s += " at " + oneLine(d.Step, 80)
			}
			if d.Summary != "" {
				s += ": " + oneLine(d.Summary, 200)
			}
			return s, true
		}
	case loop.EventGap:
		if d, ok := decode[loop.Finding](e.Data); ok {
			return gapLine(d), true
		}
	case loop.EventStudentOutput:
		if d, ok := decode[loop.StudentOutputData](e.Data); ok {
			s := "student: " + oneLine(d.Status, 40)
			if d.CurrentStep != "" {
				s += " at " + oneLine(d.CurrentStep, 80)
			}
			if d.Summary != "" {
				s += ": " + oneLine(d.Summary, 300)
			}
			return s, true
		}
	case loop.EventMentorOutput:
		if d, ok := decode[loop.MentorOutputData](e.Data); ok && d.Notes != "" {
			return "mentor notes:\n" + block(d.Notes, 4000), true
		}
	case loop.EventLoopComplete:
		if d, ok := decode[loop.LoopCompleteData](e.Data); ok {
			s := fmt.Sprintf("finished: %s after %d iteration%s", d.Status, d.Iterations, plural(d.Iterations))
			if d.Summary != "" {
				s += "\n" + block(d.Summary, 4000)
			}
			return s, true
		}
	case loop.EventError:
		if d, ok := decode[loop.ErrorData](e.Data); ok {
			return "error: " + oneLine(d.Message, 500), true
		}
	}
	return "", false
}

// stepText labels a step name, unless it is already a label such as "step 2 of 5: Install"
// (loop.StepLabel).
func stepText(name string) string {
	if len(name) > 5 && strings.EqualFold(name[:5], "step ") {
		return name
	}
	return "step: " + name
}

func commandLine(c loop.CommandRecord) string {
	s := "$ " + oneLine(c.Command, 160)
	switch {
	case c.TimedOut:
		s += " → timed out"
	case c.Background:
		s += " → running in background"
	default:
		s += fmt.Sprintf(" → exit %d", c.ExitCode)
	}
	if c.Duration > 0 {
		s += " (" + c.Duration.Round(100*time.Millisecond).String() + ")"
	}
	if c.Class != "" {
		s += " " + string(c.Class)
	}
	if c.Summary != "" {
		s += ": " + oneLine(c.Summary, 200)
	}
	return s + at(c.Line)
}

func gapLine(f loop.Finding) string {
	s := "gap"
	if f.Line > 0 {
		s += fmt.Sprintf(" at line %d", f.Line)
	}
	if f.Step != "" {
		s += " (" + oneLine(f.Step, 80) + ")"
	}
	return s + ": " + oneLine(f.Problem, 300)
}

func at(line int) string {
	if line <= 0 {
		return ""
	}
	return fmt.Sprintf(" [line %d]", line)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// gapKey identifies a gap across iterations.
func gapKey(f loop.Finding) string { return fmt.Sprintf("%d\x00%s\x00%s", f.Line, f.Step, f.Problem) }
