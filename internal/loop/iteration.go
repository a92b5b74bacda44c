package loop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// afterMentor says whether the run ends after a finished iteration whose Mentor
// answered: an unresolvable blocker, or a single-pass Student.
func (r *runner) afterMentor(it Iteration) (Status, string, bool) {
	if it.Mentor == nil || it.Student == nil {
		return "", "", false
	}
	switch {
	case it.Mentor.Unresolvable:
		return StatusBlocker, "the Mentor found no way forward: " + firstLine(it.Mentor.Notes), true
	case r.singlePass():
		return StatusBlocker, singlePassReason(*it.Student), true
	}
	return "", "", false
}

// singlePassReason explains the end of a deterministic run with gaps.
func singlePassReason(res StudentResult) string {
	n := len(res.Findings)
	return fmt.Sprintf("deterministic mode ran the tutorial once and found %d gap(s); a deterministic Student cannot use mentor notes, so the run stops after one pass (fix the gaps and run again)", n)
}

func (r *runner) singlePass() bool {
	sp, ok := r.o.Student.(SinglePass)
	return ok && sp.SinglePass()
}

// prepareResume turns a saved running state into one the loop can continue, and returns
// the time the run already spent (its timeout budget keeps counting from there).
func (r *runner) prepareResume() time.Duration {
	st := r.st
	var elapsed time.Duration
	if n := len(st.History); n > 0 && st.History[n-1].Ended.IsZero() {
		last := &st.History[n-1]
		if last.Student != nil && last.Student.Status != "" && (st.Phase == PhaseCheck || st.Phase == PhaseMentor) {
			r.resumeAtCheck = true // the Student's answer is saved; continue at the check
		} else {
			st.History = st.History[:n-1] // redo the interrupted iteration from scratch
		}
	}
	for _, it := range st.History {
		if !it.Ended.IsZero() {
			elapsed += it.Ended.Sub(it.Started)
		}
	}
	st.Iteration = len(st.History)
	r.consecutive = 0 // failed iterations in a row count across a restart
	for i := len(st.History) - 1; i >= 0; i-- {
		it := st.History[i]
		if it.Ended.IsZero() || it.Error == "" || (it.Student != nil && NormalizeStudentStatus(it.Student.Status) != "") {
			break
		}
		r.consecutive++
	}
	if len(st.History) > 0 && !r.resumeAtCheck {
		st.Phase = PhaseStart
	}
	return elapsed
}

func (r *runner) beginIteration() *Iteration {
	st := r.st
	st.Iteration++
	st.History = append(st.History, Iteration{Iteration: st.Iteration, Started: now()})
	st.Phase = PhaseStudent
	return &st.History[len(st.History)-1]
}

func (r *runner) endIteration(it *Iteration) error {
	if err := r.save(); err != nil {
		return err
	}
	if err := SaveIteration(r.o.StateDir, *it); err != nil {
		r.log.Warn("write iteration record", "err", err)
	}
	if r.o.afterIteration != nil {
		r.o.afterIteration(cloneState(r.st))
	}
	return nil
}

func (r *runner) reset(ctx context.Context) error {
	err := r.o.Sandbox.Reset(ctx)
	if err == nil || ctx.Err() != nil {
		return err
	}
	r.log.Warn("container reset failed; retrying once", "err", err)
	if err2 := r.o.Sandbox.Reset(ctx); err2 != nil {
		return fmt.Errorf("reset container: %w (retry: %v)", err, err2)
	}
	return nil
}

// attempt runs the Student for iteration n under the per-iteration timeout.
func (r *runner) attempt(runCtx context.Context, n int) (StudentResult, error) {
	st := r.st
	ctx, cancel := context.WithTimeoutCause(runCtx, r.o.IterationTimeout, errIterationTimeout)
	defer cancel()
	rec := &recordingEmitter{next: r.emitter()}
	task := StudentTask{
		RunID:     st.RunID,
		Iteration: n,
		Tutorial:  r.o.Tutorial,
		Prompt:    StudentPrompt(r.o.Tutorial, st.MentorNotes, r.o.Config.StudentBehavior),
		Notes:     append([]string(nil), st.MentorNotes...),
		Behavior:  r.o.Config.StudentBehavior,
		Sandbox:   r.o.Sandbox,
		Events:    rec,
	}
	if r.server != nil {
		task.Callback = r.server
		r.server.setTurn(TurnStudent, n, &APITask{Prompt: task.Prompt, Tutorial: r.o.Tutorial.Body, Notes: task.Notes, Behavior: task.Behavior})
		defer r.server.setTurn(TurnWaiting, n, nil)
	}
	if err := runSetup(ctx, r.o.Sandbox, r.o.Config.Setup, r.emitter()); err != nil {
		return StudentResult{}, err
	}
	res, err := r.o.Student.Attempt(ctx, task)
	if err == nil && ctx.Err() != nil && runCtx.Err() == nil && errors.Is(context.Cause(ctx), errIterationTimeout) {
		err = context.Cause(ctx)
	}
	if err != nil && errors.Is(context.Cause(ctx), errIterationTimeout) && runCtx.Err() == nil {
		return res, fmt.Errorf("no Student result within the per-iteration timeout of %s (7.E1): %w", r.o.IterationTimeout, err)
	}
	if err == nil && !rec.commands.Load() {
		for _, c := range res.Commands { // a Student that did not report commands as they ran
			r.emit(EventCommand, c)
		}
	}
	return res, err
}

func (r *runner) advise(runCtx context.Context, n int, res StudentResult) (*MentorRecord, error) {
	ctx, cancel := context.WithTimeoutCause(runCtx, r.o.IterationTimeout, errIterationTimeout)
	defer cancel()
	task := MentorTask{
		RunID:     r.st.RunID,
		Iteration: n,
		Tutorial:  r.o.Tutorial,
		Prompt:    MentorPrompt(r.o.Tutorial, res),
		Student:   res,
		Notes:     append([]string(nil), r.st.MentorNotes...),
		Events:    r.emitter(),
		Sandbox:   r.o.Sandbox,
	}
	if r.server != nil {
		task.Callback = r.server
		r.server.setTurn(TurnMentor, n, &APITask{Prompt: task.Prompt, Tutorial: r.o.Tutorial.Body, Notes: task.Notes, Behavior: r.o.Config.StudentBehavior})
		defer r.server.setTurn(TurnWaiting, n, nil)
	}
	started := now()
	mres, err := r.o.Mentor.Advise(ctx, task)
	if err != nil {
		if errors.Is(context.Cause(ctx), errIterationTimeout) && runCtx.Err() == nil {
			return nil, fmt.Errorf("no Mentor answer within the per-iteration timeout of %s (7.E1): %w", r.o.IterationTimeout, err)
		}
		return nil, err
	}
	fixes := make([]string, len(mres.Fixes))
	for i, f := range mres.Fixes {
		fixes[i] = r.mask.str(f)
	}
	return &MentorRecord{
		Notes:        r.mask.str(TruncateNote(mres.Notes)),
		Fixes:        fixes,
		Unresolvable: mres.Unresolvable,
		LLMCalls:     mres.LLMCalls,
		Started:      started,
		Ended:        now(),
	}, nil
}

// updateStreak counts consecutive iterations failing on the same step the same way.
func (r *runner) updateStreak(res StudentResult) {
	st := r.st
	if res.Status != StudentAskMentor {
		return
	}
	step, sig := failureSignature(res)
	if n := len(st.Failures); n > 0 && st.Failures[n-1].Step == step && st.Failures[n-1].Signature == sig {
		st.Failures[n-1].Count++
		return
	}
	st.Failures = append(st.Failures, FailureStreak{Step: step, Signature: sig, Count: 1})
	if len(st.Failures) > 100 {
		st.Failures = st.Failures[len(st.Failures)-100:]
	}
}

// currentStreak is the streak the last iteration belongs to.
func (r *runner) currentStreak() *FailureStreak {
	if n := len(r.st.Failures); n > 0 {
		return &r.st.Failures[n-1]
	}
	return nil
}

// failureSignature is the step and a normalised description of how it failed.
func failureSignature(res StudentResult) (step, sig string) {
	step = normalizeText(res.CurrentStep, 120)
	if len(res.Findings) > 0 {
		f := res.Findings[0]
		if step == "" {
			step = normalizeText(firstNonEmpty(f.Step, fmt.Sprint(f.Line)), 120)
		}
		return step, normalizeText(fmt.Sprintf("%s %s %s", f.Class, f.Command, f.Problem), 160)
	}
	return step, normalizeText(string(res.Trigger)+" "+firstNonEmpty(res.Problem, res.Reason), 160)
}

// normalizeText lower-cases, collapses white space and blanks digits, so that the same
// failure with another pid, port or timestamp keeps its signature.
func normalizeText(s string, n int) string {
	var b strings.Builder
	for _, c := range strings.ToLower(strings.Join(strings.Fields(s), " ")) {
		if c >= '0' && c <= '9' {
			c = '#'
		}
		b.WriteRune(c)
	}
	return Clip(b.String(), n)
}
