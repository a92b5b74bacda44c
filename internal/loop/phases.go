package loop

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// phase is what the loop does in one phase of the state machine and the phases it may
// go to next.
type phase struct {
	do   func(*runner) Phase
	next []Phase
}

// phases is the state machine of DESIGN.md, in one table: START → STUDENT → CHECK →
// MENTOR → STUDENT …, each phase able to end the run (DONE). A Student attempt that
// failed is retried (STUDENT → STUDENT); a resumed run whose Student result was saved
// continues at its check (START → CHECK).
var phases = map[Phase]phase{
	PhaseStart:   {(*runner).start, []Phase{PhaseStudent, PhaseCheck, PhaseDone}},
	PhaseStudent: {(*runner).student, []Phase{PhaseCheck, PhaseStudent, PhaseDone}},
	PhaseCheck:   {(*runner).check, []Phase{PhaseMentor, PhaseDone}},
	PhaseMentor:  {(*runner).mentor, []Phase{PhaseStudent, PhaseDone}},
}

// run drives the phases from START until the run is done and returns what ended it
// (nil for an end that is not an error of its own).
func (r *runner) run(parent context.Context) error {
	elapsed := r.prepareResume()
	remaining := time.Duration(r.o.Config.Timeout)*time.Second - elapsed
	runCtx, cancelRun := context.WithCancelCause(parent)
	defer cancelRun(nil)
	runCtx, cancelTimeout := context.WithTimeoutCause(runCtx, max(remaining, time.Millisecond), errRunTimeout)
	defer cancelTimeout()
	r.parent, r.ctx, r.stop, r.fresh = parent, runCtx, func() { cancelRun(errStopped) }, true
	defer func() {
		if r.server != nil {
			r.server.Close()
		}
	}()

	for current := PhaseStart; current != PhaseDone; {
		p := phases[current]
		next := p.do(r)
		if !slices.Contains(p.next, next) {
			_ = r.finish(StatusError, fmt.Sprintf("internal error: no transition from %s to %s", current, next))
			return fmt.Errorf("loop: no transition from %s to %s", current, next)
		}
		current = next
	}
	return r.err
}

// done ends the phases with err as Run's error.
func (r *runner) done(err error) Phase {
	r.err = err
	return PhaseDone
}

// ended ends the run with status (closing the sandbox per policy) and the phases.
func (r *runner) ended(status Status, reason string) Phase {
	return r.done(r.finish(status, reason))
}

// interruptedEnd ends the run when it was cancelled, stopped or timed out; the reason
// is also the iteration's error when one is in progress.
func (r *runner) interruptedEnd(recordOnIteration bool) (Phase, bool) {
	status, reason, ok := r.interrupted(r.parent, r.ctx)
	if !ok {
		return "", false
	}
	if recordOnIteration && r.it != nil {
		r.it.Error = reason
	}
	return r.ended(status, reason), true
}

// start brings up the sandbox (and the wrapper API), then continues a resumed run where
// it stopped.
func (r *runner) start() Phase {
	st := r.st
	if err := r.o.Sandbox.Start(r.ctx); err != nil {
		r.closeSandbox(false)
		if status, reason, ok := r.interrupted(r.parent, r.ctx); ok {
			return r.done(r.end(status, reason))
		}
		_ = r.end(StatusError, "start the learner container: "+err.Error())
		return r.done(fmt.Errorf("start sandbox: %w", err))
	}
	if r.o.ServeAPI {
		srv, err := r.startServer(r.ctx, r.stop)
		if err != nil {
			r.closeSandbox(false)
			_ = r.end(StatusError, "start the wrapper API: "+err.Error())
			return r.done(err)
		}
		r.server = srv
	}
	n := len(st.History)
	if r.resumeAtCheck {
		r.resumeAtCheck = false
		r.it = &st.History[n-1]
		return PhaseCheck
	}
	if n > 0 {
		// resumed after the last iteration was saved but before the run's end was
		if status, reason, ok := r.afterMentor(st.History[n-1]); ok {
			return r.ended(status, reason)
		}
	}
	return PhaseStudent
}

// student runs one Student attempt in a fresh (or reset) container and normalises its
// result; a failed attempt is retried up to MaxConsecutiveErrors.
func (r *runner) student() Phase {
	st := r.st
	if st.Iteration >= r.o.Config.MaxIterations {
		return r.ended(StatusMaxIterations, fmt.Sprintf("reached maxIterations (%d) without completing the tutorial", r.o.Config.MaxIterations))
	}
	if r.o.beforeIteration != nil {
		r.o.beforeIteration(st.Iteration + 1)
	}
	it := r.beginIteration()
	r.it = it
	if err := r.save(); err != nil {
		return r.done(r.failSave(err))
	}
	r.emit(EventIterationStart, IterationStartData{Iteration: it.Iteration, Timestamp: it.Started})
	r.emitState()
	if !r.fresh {
		if err := r.reset(r.ctx); err != nil {
			if next, ok := r.interruptedEnd(false); ok {
				return next
			}
			it.Error = err.Error()
			return r.ended(StatusBlocker, "the learner container could not be reset between iterations: "+err.Error())
		}
	}
	r.fresh = false
	res, err := r.attempt(r.ctx, it.Iteration)
	if next, ok := r.interruptedEnd(true); ok {
		return next
	}
	if err == nil && NormalizeStudentStatus(res.Status) == "" {
		err = fmt.Errorf("the Student's output could not be parsed: %s", orDefault(res.ParseError, "no status"))
		kept := maskValue(r.mask, res) // the raw text stays in the history and audit log (4.E3)
		if len(kept.Raw) > maxRawOutput {
			kept.Raw = kept.Raw[:maxRawOutput] + "\n[… truncated]"
		}
		it.Student = &kept
	}
	if err != nil {
		return r.failedAttempt(res, err)
	}
	r.consecutive = 0
	res = r.normalize(res, it)
	it.Student = &res
	r.updateStreak(res)
	st.Phase = PhaseCheck
	if err := r.save(); err != nil {
		return r.done(r.failSave(err))
	}
	r.emitStudent(res)
	return PhaseCheck
}

// failedAttempt records a Student attempt that returned an error: the run ends when
// the budget is spent, the environment lacks something, or too many failed in a row;
// otherwise the next iteration retries.
func (r *runner) failedAttempt(res StudentResult, err error) Phase {
	it := r.it
	it.Error = r.mask.str(err.Error())
	it.Ended = now()
	r.consecutive++
	r.emit(EventError, ErrorData{Message: fmt.Sprintf("iteration %d: %s", it.Iteration, it.Error)})
	switch {
	case budgetExceeded(err):
		kept := maskValue(r.mask, res) // its commands and calls stay in the report
		it.Student = &kept
		return r.ended(StatusBudgetExceeded, it.Error)
	case environmentUnavailable(err):
		// a missing CLI or credentials will not appear by retrying (4.E1)
		_ = r.finish(StatusError, it.Error)
		return r.done(fmt.Errorf("iteration %d: %w", it.Iteration, err))
	case r.consecutive >= r.o.MaxConsecutiveErrors:
		_ = r.finish(StatusError, fmt.Sprintf("%d iterations in a row failed; last: %s", r.consecutive, it.Error))
		return r.done(fmt.Errorf("iteration %d: %w", it.Iteration, err))
	}
	if err := r.endIteration(it); err != nil {
		return r.done(r.failSave(err))
	}
	return PhaseStudent
}

// check decides what the Student's result means: completed (or inconclusive), a
// blocker, a stall, or a question for the Mentor.
func (r *runner) check() Phase {
	it := r.it
	res := *it.Student
	switch res.Status {
	case StudentCompleted:
		it.Ended = now()
		if res.Coverage != nil && res.Coverage.Inconclusive != "" {
			return r.ended(StatusInconclusive, res.Coverage.Inconclusive)
		}
		return r.ended(StatusCompleted, "the Student completed the tutorial")
	case StudentCannotComplete:
		it.Ended = now()
		return r.ended(StatusBlocker, "the Student cannot continue: "+firstNonEmpty(res.Reason, res.Problem, "no reason given"))
	}
	// ask_mentor
	if streak := r.currentStreak(); streak != nil && streak.Count >= r.o.Config.StallThreshold {
		it.Ended = now()
		// the Student's own words, not the normalised signature the streak compares
		return r.ended(StatusStalled, fmt.Sprintf("stalled: %q failed the same way %d iterations in a row despite mentor notes (%s)",
			streak.Step, streak.Count, firstNonEmpty(res.Problem, res.QuestionForMentor, streak.Signature)))
	}
	r.st.Phase = PhaseMentor
	if err := r.save(); err != nil {
		return r.done(r.failSave(err))
	}
	r.emitState()
	return PhaseMentor
}

// mentor asks the Mentor, keeps its notes for the next attempt and gives the findings
// their fixes; the run ends when the Mentor sees no way forward or the Student cannot
// use notes.
func (r *runner) mentor() Phase {
	it := r.it
	rec, err := r.advise(r.ctx, it.Iteration, *it.Student)
	if next, ok := r.interruptedEnd(true); ok {
		return next
	}
	if err != nil {
		it.Error = r.mask.str("mentor: " + err.Error())
		it.Ended = now()
		r.emit(EventError, ErrorData{Message: it.Error})
		if budgetExceeded(err) {
			return r.ended(StatusBudgetExceeded, it.Error)
		}
		return r.ended(StatusBlocker, "the Mentor could not answer (treated as unresolvable, 6.E1): "+r.mask.str(err.Error()))
	}
	it.Mentor = rec
	fixFindings(it.Student.Findings, rec, r.o.RuleFix)
	r.st.MentorNotes = append(r.st.MentorNotes, rec.Notes)
	it.Ended = now()
	if err := r.endIteration(it); err != nil {
		return r.done(r.failSave(err))
	}
	r.emit(EventMentorOutput, MentorOutputData{Notes: rec.Notes})
	if status, reason, ok := r.afterMentor(*it); ok {
		return r.ended(status, reason)
	}
	return PhaseStudent
}
