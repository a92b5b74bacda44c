package api

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// The Student's tools: commands, files and the three ways to end an attempt.

func (a *attempt) registry() *Registry {
	return NewRegistry(
		NewTool("run_command", "Run a shell command in the container and get its exit code and output.", a.runCommand),
		NewTool("read_file", "Read a file in the container (up to 64 KiB).", a.readFile),
		NewTool("write_file", "Create or overwrite a file in the container.", a.writeFile),
		NewTool("list_dir", "List a directory in the container.", a.listDir),
		NewTool("finish", "End the attempt: the tutorial was followed successfully.", a.finish),
		NewTool("ask_mentor", "End the attempt and ask the mentor for help: you are stuck.", a.askMentor),
		NewTool("cannot_complete", "End the attempt: something outside your control blocks you.", a.cannotComplete),
	)
}

func (a *attempt) runCommand(ctx context.Context, args runCommandArgs) (string, error) {
	if strings.TrimSpace(args.Command) == "" {
		return "", errors.New("command is empty")
	}
	timeout := time.Duration(a.task.Behavior.TimeoutSeconds) * time.Second
	res, err := a.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: args.Command, Timeout: timeout})
	if err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	out := res.Stdout
	if res.Stderr != "" {
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		out += res.Stderr
	}
	rec := loop.CommandRecord{
		Iteration: a.task.Iteration, Step: args.Step, Command: args.Command, ExitCode: res.ExitCode,
		TimedOut: res.TimedOut, Duration: res.Duration, Output: loop.ClipMiddle(out, 4000), OutputPath: res.OutputPath,
	}
	rec.Class, rec.Summary = loop.Classify(args.Command, res.ExitCode, out, res.TimedOut)
	a.result.Commands = append(a.result.Commands, rec)
	a.task.Events.Emit(loop.NewEvent(loop.EventCommand, rec))
	text := fmt.Sprintf("exit code: %d\n%s", res.ExitCode, loop.ClipMiddle(out, 8000))
	if res.TimedOut {
		text = fmt.Sprintf("timed out after %s and was stopped\n%s", timeout, loop.ClipMiddle(out, 8000))
	}
	step := args.Step
	if step == "" {
		step = args.Command
	}
	if rec.Class == "" {
		a.retries.Succeed(step)
		a.pending = nil
		return text, nil
	}
	// A failure: apply the stuck triggers to what was observed (spec story 5).
	prev := a.pending
	a.lastFail = &a.result.Commands[len(a.result.Commands)-1]
	d := loop.Decide(a.task.Behavior, loop.Observation{Step: step, Class: rec.Class, Attempts: a.retries.Fail(step)})
	switch d.Action {
	case loop.ActionAskMentor:
		a.task.Events.Emit(loop.NewEvent(loop.EventTrigger, loop.TriggerData{Trigger: d.Trigger, Step: step, Summary: d.Reason}))
		a.pending = &d
		// 4.E4: a step that exceeds its timeout ends the attempt with ask_mentor; so does
		// a Student that keeps failing after a trigger already told it to ask.
		if rec.Class == loop.ClassTimeout || prev != nil {
			a.endAsk(step, rec, d.Trigger)
			return text, nil
		}
		text += "\n\n[smile-loop] stuck trigger " + string(d.Trigger) + " fired (" + d.Reason + "). Call ask_mentor now unless the tutorial itself tells you how to continue."
	case loop.ActionCannotComplete:
		a.pending = &d
		if prev != nil {
			a.endCannot(step, rec, d.Reason)
			return text, nil
		}
		text += "\n\n[smile-loop] " + d.Reason + ". If you cannot continue from the tutorial alone, call cannot_complete."
	}
	return text, errors.New(rec.Summary)
}

func (a *attempt) endAsk(step string, rec loop.CommandRecord, trigger loop.Trigger) {
	a.result.StudentOutput = loop.StudentOutput{
		Status: loop.StudentAskMentor, CurrentStep: step, Problem: rec.Summary,
		QuestionForMentor: fmt.Sprintf("`%s` failed (%s). What does the tutorial leave out here?", rec.Command, rec.Class),
	}
	a.result.Trigger = trigger
	a.done = true
}

func (a *attempt) endCannot(step string, rec loop.CommandRecord, reason string) {
	a.result.StudentOutput = loop.StudentOutput{Status: loop.StudentCannotComplete, CurrentStep: step, Problem: rec.Summary, Reason: reason}
	a.done = true
}

func containerPath(p string) string {
	if p == "" {
		return loop.WorkMount
	}
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(loop.WorkMount, p)
}

func (a *attempt) readFile(ctx context.Context, args readFileArgs) (string, error) {
	data, err := a.task.Sandbox.ReadFile(ctx, containerPath(args.Path), 64<<10)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", args.Path, err)
	}
	return string(data), nil
}

func (a *attempt) writeFile(ctx context.Context, args writeFileArgs) (string, error) {
	p := containerPath(args.Path)
	if !strings.HasPrefix(p, "/workspace/") {
		// Outside the workspace the sandbox would copy as root, bypassing the learner's
		// own permissions (security review #12); a shell command runs as the learner.
		return "", fmt.Errorf("write_file writes only under /workspace (got %s); for other paths run a shell command such as `sudo tee %s`", p, p)
	}
	if err := a.task.Sandbox.WriteFile(ctx, p, []byte(args.Content), 0o644); err != nil {
		return "", fmt.Errorf("write %s: %w", args.Path, err)
	}
	rec := loop.FileRecord{Iteration: a.task.Iteration, Path: p, Size: int64(len(args.Content))}
	if i, ok := a.files[p]; ok {
		a.result.Files[i] = rec
	} else {
		a.files[p] = len(a.result.Files)
		a.result.Files = append(a.result.Files, rec)
	}
	return fmt.Sprintf("wrote %d bytes to %s", len(args.Content), p), nil
}

func listCommand(p string) string {
	return "ls -la -- '" + strings.ReplaceAll(containerPath(p), "'", `'\''`) + "'"
}

func (a *attempt) listDir(ctx context.Context, args listDirArgs) (string, error) {
	res, err := a.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: listCommand(args.Path), Timeout: 30 * time.Second})
	if err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	if res.ExitCode != 0 {
		return "", fmt.Errorf("list %s: %s", args.Path, strings.TrimSpace(res.Stderr))
	}
	return loop.ClipMiddle(res.Stdout, 8000), nil
}

func (a *attempt) finish(_ context.Context, args finishArgs) (string, error) {
	a.result.StudentOutput = loop.StudentOutput{
		Status: loop.StudentCompleted, Summary: args.Summary, CurrentStep: args.CurrentStep,
		AttemptedActions: args.AttemptedActions, FilesCreated: args.FilesCreated,
	}
	a.done = true
	return "attempt finished", nil
}

func (a *attempt) askMentor(_ context.Context, args askMentorArgs) (string, error) {
	a.result.StudentOutput = loop.StudentOutput{
		Status: loop.StudentAskMentor, CurrentStep: args.CurrentStep, Problem: args.Problem,
		QuestionForMentor: args.QuestionForMentor, AttemptedActions: args.AttemptedActions,
	}
	switch {
	case args.Ambiguous:
		a.result.Trigger = loop.TriggerAmbiguousInstruction
	case a.pending != nil && a.pending.Trigger != "":
		a.result.Trigger = a.pending.Trigger
	}
	a.quote = args.Quote
	a.done = true
	return "question sent to the mentor", nil
}

func (a *attempt) cannotComplete(_ context.Context, args cannotCompleteArgs) (string, error) {
	a.result.StudentOutput = loop.StudentOutput{Status: loop.StudentCannotComplete, CurrentStep: args.CurrentStep, Reason: args.Reason, Problem: args.Problem}
	a.done = true
	return "attempt ended", nil
}
