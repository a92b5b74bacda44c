package cli

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
	"github.com/smile-loop/smile-loop/internal/loop"
)

// Attempt implements loop.Student.
func (s *Student) Attempt(ctx context.Context, task loop.StudentTask) (loop.StudentResult, error) {
	p, err := runWrapper(ctx, s.opts, s.proxy, task.Sandbox, task.Callback, headless.RoleStudent, task.Iteration, s.opts.StudentModel)
	if err != nil {
		return loop.StudentResult{}, err
	}
	events := task.Events
	if events == nil {
		events = loop.Discard
	}
	res := studentResult(p, task.Iteration, s.opts.StudentModel, events)
	return res, s.proxy.overBudget()
}

// studentResult builds the loop's StudentResult from what the wrapper posted.
func studentResult(p headless.Payload, iteration int, model string, events loop.Emitter) loop.StudentResult {
	sum := headless.ParseStream(p.Provider, p.Stream)
	var r loop.StudentResult
	r.LLMCalls = llmCalls("student", p, sum, model)
	r.Commands = commands(sum.Tools, p.Commands, iteration)
	for _, c := range r.Commands {
		events.Emit(loop.NewEvent(loop.EventCommand, c))
	}
	seen := map[string]bool{}
	for _, t := range sum.Tools {
		if t.Path != "" && !seen[t.Path] {
			seen[t.Path] = true
			r.Files = append(r.Files, loop.FileRecord{Iteration: iteration, Path: t.Path})
		}
	}
	if p.Error != nil {
		// 4.E2: the wrapper already retried; the provider's message makes the blocker.
		r.Status = loop.StudentCannotComplete
		r.Reason = fmt.Sprintf("the %s CLI failed (%s) after %d attempt(s): %s", p.Provider, p.Error.Kind, len(p.Attempts)+1, p.Error.Message)
		r.Problem = p.Error.Message
		r.Raw = loop.ClipMiddle(sum.FinalText, 4000)
	} else {
		out, err := loop.ParseStudentOutput(sum.FinalText)
		if err != nil {
			// 4.E3: keep the raw output; the loop treats the attempt as an error.
			r.Raw = loop.ClipMiddle(cmp.Or(sum.FinalText, p.Stream), 8000)
			r.ParseError = err.Error()
		} else {
			r.StudentOutput = out
		}
	}
	var lastFail *loop.CommandRecord
	for i := range r.Commands {
		if r.Commands[i].Class != "" {
			lastFail = &r.Commands[i]
		}
	}
	if r.Status == loop.StudentAskMentor {
		r.Trigger = loop.TriggerAmbiguousInstruction
		if lastFail != nil {
			r.Trigger = loop.TriggerForClass(lastFail.Class)
		}
	}
	if r.Status == loop.StudentAskMentor || r.Status == loop.StudentCannotComplete {
		failed := lastFail
		if p.Error != nil {
			failed = nil // the CLI's own error is not the tutorial's failing command
		}
		r.Findings = []loop.Finding{loop.NewFinding(loop.Observed{
			Step: r.CurrentStep, Problem: cmp.Or(r.Problem, r.Reason), Question: r.QuestionForMentor,
			Trigger: r.Trigger, Iteration: iteration, Failed: failed,
		})}
	}
	return r
}

var reGeminiExit = regexp.MustCompile(`(?m)^Exit Code: (-?\d+)`)

// commands pairs the stream's shell tool calls with exit codes: from the stream where it
// has them (codex), else from the shim's records (claude, gemini), else from the tool's
// output text (gemini prints "Exit Code: N").
func commands(tools []headless.ToolUse, shim []headless.ShimRecord, iteration int) []loop.CommandRecord {
	used := make([]bool, len(shim))
	var out []loop.CommandRecord
	for _, t := range tools {
		if t.Command == "" {
			continue
		}
		cmd := unwrapShell(t.Command)
		rec := loop.CommandRecord{Iteration: iteration, Command: cmd, Output: loop.ClipMiddle(t.Output, 4000), ExitCode: -1}
		switch {
		case t.ExitCode != nil:
			rec.ExitCode = *t.ExitCode
		default:
			for i, s := range shim {
				if !used[i] && shimMatches(s.Command, cmd) {
					used[i] = true
					rec.ExitCode = s.ExitCode
					rec.Duration = msDuration(s.DurationMS)
					break
				}
			}
			if rec.ExitCode == -1 {
				if m := reGeminiExit.FindStringSubmatch(t.Output); m != nil {
					rec.ExitCode, _ = strconv.Atoi(m[1])
				} else if t.Done && !t.Failed {
					rec.ExitCode = 0
				}
			}
		}
		rec.Class, rec.Summary = loop.Classify(cmd, rec.ExitCode, t.Output, false)
		out = append(out, rec)
	}
	return out
}

// shimMatches reports whether the string bash ran contains cmd, as written or quoted the
// way CLIs embed it (claude's Bash tool wraps the command in its own eval '…').
func shimMatches(ran, cmd string) bool {
	return strings.Contains(ran, cmd) ||
		strings.Contains(ran, strings.ReplaceAll(cmd, "'", `'\''`)) ||
		strings.Contains(ran, strings.ReplaceAll(cmd, "'", `'"'"'`)) ||
		strings.Contains(ran, strings.ReplaceAll(cmd, `"`, `\"`))
}

// unwrapShell turns codex's `bash -lc 'cmd'` back into the command the model wrote.
func unwrapShell(c string) string {
	for _, pre := range []string{"bash -lc ", "/bin/bash -lc ", "bash -c ", "sh -c "} {
		if rest, ok := strings.CutPrefix(c, pre); ok && len(rest) >= 2 && rest[0] == '\'' && rest[len(rest)-1] == '\'' {
			return strings.ReplaceAll(rest[1:len(rest)-1], `'\''`, `'`)
		}
	}
	return c
}
