package loop

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/redact"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Options configure one run of the loop.
type Options struct {
	Config   config.Config
	Tutorial *tutorial.Tutorial
	Sandbox  Sandbox
	Student  Student
	Mentor   Mentor
	Events   Emitter      // nil: Discard
	StateDir string       // state.json, iterations/, scenario.json, the lock; created when missing
	Logger   *slog.Logger // nil: discard
	// Resume continues the run saved in StateDir instead of starting a new one (7.E2).
	Resume bool
	// Resumed is the state to continue when the caller already loaded it (LoadState);
	// nil: Run loads it from StateDir.
	Resumed *State
	// RunID names the run; "" picks a random one (a resumed run keeps its own).
	RunID string
	// Secrets are masked ("***") in everything the loop saves or emits.
	Secrets []string
	// ServeAPI starts the wrapper HTTP API on the sandbox's HostAddr and hands it to the
	// agents as StudentTask.Callback / MentorTask.Callback.
	ServeAPI bool
	// IterationTimeout bounds one Student attempt and one Mentor answer (7.E1); 0 means
	// 20 × studentBehavior.timeoutSeconds, at least 5 minutes, never beyond the run timeout.
	IterationTimeout time.Duration
	// RuleFix writes the fix of a finding the Mentor left without one (cmd passes the
	// deterministic Mentor's rules, none.Fix); nil leaves it without a fix.
	RuleFix RuleFix
	// MaxConsecutiveErrors is how many iterations in a row may fail (agent error,
	// unparseable output) before the run ends as error; 0 means 2.
	MaxConsecutiveErrors int

	beforeIteration func(n int)   // tests: called before iteration n starts
	afterIteration  func(s State) // tests: a copy of the state after each finished iteration
}

// SinglePass is implemented by Students that cannot use Mentor notes (the deterministic
// Student runs the tutorial once, the same way every time). After such a Student asked
// and the Mentor answered, the run ends: a second pass would only repeat itself.
type SinglePass interface {
	SinglePass() bool
}

// ResumeError: there is nothing to resume in the state directory.
type ResumeError struct {
	Dir string
	Err error
}

func (e *ResumeError) Error() string {
	return fmt.Sprintf("nothing to resume in %s (%v); run without --resume to start a new run", e.Dir, e.Err)
}

func (e *ResumeError) Unwrap() error { return e.Err }

// InvalidInput marks the error as the user's to fix.
func (e *ResumeError) InvalidInput() bool { return true }

// maxRawOutput bounds the raw Student output kept when it could not be parsed.
const maxRawOutput = 64 << 10

// Causes that end a run early.
var (
	errRunTimeout       = errors.New("run timeout")
	errIterationTimeout = errors.New("iteration timeout")
	errStopped          = errors.New("stopped through POST /api/stop")
)

// Run drives the Student/Mentor loop of story 7 until one of its ends: completed,
// max_iterations, blocker, timeout, stalled, cancelled or error. The state is saved
// after every transition. It returns the final state whenever one exists (a report can
// be written for every end); err is set for setup failures (then the state may be nil)
// and for runs that ended in error, carrying the cause (a sandbox that would not start
// keeps its EnvironmentUnavailable mark).
func Run(ctx context.Context, o Options) (*State, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	o.defaults()
	if err := os.MkdirAll(o.StateDir, 0o755); err != nil {
		return nil, fmt.Errorf("create state directory %s: %w", o.StateDir, err)
	}
	r := &runner{o: o, log: o.Logger, mask: newMasker(o.Secrets)}
	var st *State
	if o.Resume {
		st = o.Resumed
		if st == nil {
			loaded, err := LoadState(o.StateDir)
			if err != nil {
				return nil, &ResumeError{Dir: o.StateDir, Err: err}
			}
			st = loaded
		}
		o.RunID = st.RunID
	}
	lock, err := AcquireLock(o.StateDir, o.RunID)
	if err != nil {
		return st, err
	}
	defer func() { _ = lock.Release() }()
	if st == nil {
		st = newState(o)
	}
	r.st = st
	if st.Status != StatusRunning {
		r.log.Info("run already finished; nothing to resume", "status", st.Status)
		return st, WriteScenario(o.StateDir, st)
	}
	if err := r.save(); err != nil {
		return st, err
	}
	err = r.run(ctx)
	return st, err
}

// Abort ends a run that could not start (its agents or its sandbox could not be set
// up) the way every run ends: a new state, locked, ended as error with cause as the
// reason, saved with its scenario, and loop_complete emitted, so it gets a report like
// any other end. Only Config, Tutorial, StateDir, RunID, Secrets, Events and Logger are
// used. It returns the state (nil when the directory could not be locked or created)
// and cause, joined with what went wrong on the way.
func Abort(o Options, cause error) (*State, error) {
	o.defaults()
	if err := os.MkdirAll(o.StateDir, 0o755); err != nil {
		return nil, errors.Join(cause, fmt.Errorf("create state directory %s: %w", o.StateDir, err))
	}
	lock, err := AcquireLock(o.StateDir, o.RunID)
	if err != nil {
		return nil, errors.Join(cause, err)
	}
	defer func() { _ = lock.Release() }()
	r := &runner{o: o, log: o.Logger, mask: newMasker(o.Secrets)}
	r.st = newState(o)
	if err := r.end(StatusError, cause.Error()); err != nil {
		return r.st, errors.Join(cause, fmt.Errorf("save state: %w", err))
	}
	return r.st, cause
}

func newState(o Options) *State {
	path := ""
	if o.Tutorial != nil {
		path = o.Tutorial.Path
	}
	return &State{
		SchemaVersion: StateSchemaVersion,
		RunID:         o.RunID,
		Tutorial:      path,
		Config:        o.Config,
		Status:        StatusRunning,
		Phase:         PhaseStart,
		StartTime:     time.Now().UTC(),
		MentorNotes:   []string{},
		History:       []Iteration{},
	}
}

func (o *Options) check() error {
	var errs []error
	if o.Tutorial == nil {
		errs = append(errs, errors.New("loop: no tutorial"))
	}
	if o.Sandbox == nil {
		errs = append(errs, errors.New("loop: no sandbox"))
	}
	if o.Student == nil {
		errs = append(errs, errors.New("loop: no student"))
	}
	if o.Mentor == nil {
		errs = append(errs, errors.New("loop: no mentor"))
	}
	if o.StateDir == "" {
		errs = append(errs, errors.New("loop: no state directory"))
	}
	return errors.Join(errs...)
}

func (o *Options) defaults() {
	if o.Events == nil {
		o.Events = Discard
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.RunID == "" {
		o.RunID = NewRunID()
	}
	if o.Config.MaxIterations <= 0 {
		o.Config.MaxIterations = config.Default().MaxIterations
	}
	if o.Config.Timeout <= 0 {
		o.Config.Timeout = config.Default().Timeout
	}
	if o.Config.StallThreshold <= 0 {
		o.Config.StallThreshold = config.Default().StallThreshold
	}
	if o.IterationTimeout <= 0 {
		o.IterationTimeout = max(20*time.Duration(timeoutSeconds(o.Config.StudentBehavior))*time.Second, 5*time.Minute)
	}
	if o.MaxConsecutiveErrors <= 0 {
		o.MaxConsecutiveErrors = 2
	}
}

// NewRunID returns a random run id: the UTC time and 6 random hex digits.
func NewRunID() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b)
}

type runner struct {
	o      Options
	st     *State
	log    *slog.Logger
	mask   *masker
	server *Server

	resumeAtCheck bool // resumed with a saved Student result: continue at the check
	consecutive   int  // failed iterations in a row
}

func (r *runner) run(parent context.Context) error {
	st := r.st
	elapsed := r.prepareResume()
	remaining := time.Duration(r.o.Config.Timeout)*time.Second - elapsed
	runCtx, cancelRun := context.WithCancelCause(parent)
	defer cancelRun(nil)
	runCtx, cancelTimeout := context.WithTimeoutCause(runCtx, max(remaining, time.Millisecond), errRunTimeout)
	defer cancelTimeout()

	if err := r.o.Sandbox.Start(runCtx); err != nil {
		r.closeSandbox(false)
		if status, reason, ok := r.interrupted(parent, runCtx); ok {
			return r.end(status, reason)
		}
		_ = r.end(StatusError, "start the learner container: "+err.Error())
		return fmt.Errorf("start sandbox: %w", err)
	}
	if r.o.ServeAPI {
		srv, err := r.startServer(runCtx, func() { cancelRun(errStopped) })
		if err != nil {
			r.closeSandbox(false)
			_ = r.end(StatusError, "start the wrapper API: "+err.Error())
			return err
		}
		r.server = srv
		defer srv.Close()
	}
	if n := len(st.History); n > 0 && !r.resumeAtCheck {
		// resumed after the last iteration was saved but before the run's end was
		if status, reason, ok := r.afterMentor(st.History[n-1]); ok {
			return r.finish(status, reason)
		}
	}
	fresh := true // the container is clean: no reset before the first iteration of this process
	for {
		var (
			it  *Iteration
			res StudentResult
		)
		if r.resumeAtCheck {
			it = &st.History[len(st.History)-1]
			res = *it.Student
		} else {
			if st.Iteration >= r.o.Config.MaxIterations {
				return r.finish(StatusMaxIterations, fmt.Sprintf("reached maxIterations (%d) without completing the tutorial", r.o.Config.MaxIterations))
			}
			if r.o.beforeIteration != nil {
				r.o.beforeIteration(st.Iteration + 1)
			}
			it = r.beginIteration()
			if err := r.save(); err != nil {
				return r.failSave(err)
			}
			r.emit(EventIterationStart, IterationStartData{Iteration: it.Iteration, Timestamp: it.Started})
			r.emitState()
			if !fresh {
				if err := r.reset(runCtx); err != nil {
					if status, reason, ok := r.interrupted(parent, runCtx); ok {
						return r.finish(status, reason)
					}
					it.Error = err.Error()
					return r.finish(StatusBlocker, "the learner container could not be reset between iterations: "+err.Error())
				}
			}
			fresh = false
			var err error
			res, err = r.attempt(runCtx, it.Iteration)
			if status, reason, ok := r.interrupted(parent, runCtx); ok {
				it.Error = reason
				return r.finish(status, reason)
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
				it.Error = r.mask.str(err.Error())
				it.Ended = now()
				r.consecutive++
				r.emit(EventError, ErrorData{Message: fmt.Sprintf("iteration %d: %s", it.Iteration, it.Error)})
				if budgetExceeded(err) {
					kept := maskValue(r.mask, res) // its commands and calls stay in the report
					it.Student = &kept
					return r.finish(StatusBudgetExceeded, it.Error)
				}
				if environmentUnavailable(err) {
					// a missing CLI or credentials will not appear by retrying (4.E1)
					_ = r.finish(StatusError, it.Error)
					return fmt.Errorf("iteration %d: %w", it.Iteration, err)
				}
				if r.consecutive >= r.o.MaxConsecutiveErrors {
					_ = r.finish(StatusError, fmt.Sprintf("%d iterations in a row failed; last: %s", r.consecutive, it.Error))
					return fmt.Errorf("iteration %d: %w", it.Iteration, err)
				}
				if err := r.endIteration(it); err != nil {
					return r.failSave(err)
				}
				continue
			}
			r.consecutive = 0
			res = r.normalize(res, it)
			it.Student = &res
			r.updateStreak(res)
			st.Phase = PhaseCheck
			if err := r.save(); err != nil {
				return r.failSave(err)
			}
			r.emitStudent(res)
		}
		r.resumeAtCheck = false

		switch res.Status {
		case StudentCompleted:
			it.Ended = now()
			if res.Coverage != nil && res.Coverage.Inconclusive != "" {
				return r.finish(StatusInconclusive, res.Coverage.Inconclusive)
			}
			return r.finish(StatusCompleted, "the Student completed the tutorial")
		case StudentCannotComplete:
			it.Ended = now()
			return r.finish(StatusBlocker, "the Student cannot continue: "+firstNonEmpty(res.Reason, res.Problem, "no reason given"))
		}
		// ask_mentor
		if streak := r.currentStreak(); streak != nil && streak.Count >= r.o.Config.StallThreshold {
			it.Ended = now()
			// the Student's own words, not the normalised signature the streak compares
			return r.finish(StatusStalled, fmt.Sprintf("stalled: %q failed the same way %d iterations in a row despite mentor notes (%s)",
				streak.Step, streak.Count, firstNonEmpty(res.Problem, res.QuestionForMentor, streak.Signature)))
		}
		st.Phase = PhaseMentor
		if err := r.save(); err != nil {
			return r.failSave(err)
		}
		r.emitState()
		rec, err := r.advise(runCtx, it.Iteration, res)
		if status, reason, ok := r.interrupted(parent, runCtx); ok {
			it.Error = reason
			return r.finish(status, reason)
		}
		if err != nil {
			it.Error = r.mask.str("mentor: " + err.Error())
			it.Ended = now()
			r.emit(EventError, ErrorData{Message: it.Error})
			if budgetExceeded(err) {
				return r.finish(StatusBudgetExceeded, it.Error)
			}
			return r.finish(StatusBlocker, "the Mentor could not answer (treated as unresolvable, 6.E1): "+r.mask.str(err.Error()))
		}
		it.Mentor = rec
		fixFindings(it.Student.Findings, rec, r.o.RuleFix)
		st.MentorNotes = append(st.MentorNotes, rec.Notes)
		it.Ended = now()
		if err := r.endIteration(it); err != nil {
			return r.failSave(err)
		}
		r.emit(EventMentorOutput, MentorOutputData{Notes: rec.Notes})
		if status, reason, ok := r.afterMentor(*it); ok {
			return r.finish(status, reason)
		}
	}
}

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

// interrupted says whether the run must end now because it was cancelled (Ctrl-C),
// stopped through the API or ran out of time.
func (r *runner) interrupted(parent, runCtx context.Context) (Status, string, bool) {
	switch {
	case parent.Err() != nil:
		return StatusCancelled, "the run was interrupted (cancelled)", true
	case runCtx.Err() == nil:
		return "", "", false
	case errors.Is(context.Cause(runCtx), errStopped):
		return StatusCancelled, "stopped through POST /api/stop", true
	default:
		return StatusTimeout, fmt.Sprintf("the run exceeded its timeout of %ds", r.o.Config.Timeout), true
	}
}

// finish ends the run with status, closing the sandbox per policy.
func (r *runner) finish(status Status, reason string) error {
	err := r.end(status, reason)
	r.closeSandbox(status == StatusCompleted)
	return err
}

func (r *runner) closeSandbox(succeeded bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.o.Sandbox.Close(ctx, succeeded); err != nil {
		r.log.Warn("close sandbox", "err", err)
	}
}

// end records the final result, saves state, iteration record and scenario, and emits
// loop_complete.
func (r *runner) end(status Status, reason string) error {
	st := r.st
	if r.server != nil {
		r.server.setTurn(TurnDone, st.Iteration, nil)
	}
	if n := len(st.History); n > 0 {
		last := &st.History[n-1]
		if last.Ended.IsZero() {
			last.Ended = now()
		}
	}
	st.Status = status
	st.Phase = PhaseDone
	st.EndTime = now()
	st.FinalResult = &FinalResult{Status: status, Reason: r.mask.str(reason), Summary: r.summary(status)}
	CompleteFindings(st, r.o.Tutorial, r.o.RuleFix)
	err := r.save()
	if n := len(st.History); n > 0 {
		if ierr := SaveIteration(r.o.StateDir, st.History[n-1]); ierr != nil {
			r.log.Warn("write iteration record", "err", ierr)
		}
		if r.o.afterIteration != nil {
			r.o.afterIteration(cloneState(st))
		}
	}
	if serr := WriteScenario(r.o.StateDir, st); serr != nil {
		r.log.Warn("write scenario", "err", serr)
	}
	r.emitState()
	r.emit(EventLoopComplete, LoopCompleteData{Status: status, Summary: st.FinalResult.Summary, Iterations: st.Iteration})
	return err
}

func (r *runner) summary(status Status) string {
	gaps := 0
	for _, it := range r.st.History {
		if it.Student != nil {
			gaps += len(it.Student.Findings)
		}
	}
	s := fmt.Sprintf("%s after %d iteration(s)", status, r.st.Iteration)
	if gaps > 0 {
		s += fmt.Sprintf("; %d stuck point(s) recorded", gaps)
	}
	return s
}

func (r *runner) failSave(err error) error {
	r.emit(EventError, ErrorData{Message: "save state: " + err.Error()})
	r.closeSandbox(false)
	return fmt.Errorf("save state: %w", err)
}

func (r *runner) save() error {
	return SaveState(r.o.StateDir, r.st)
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
	return clip(b.String(), n)
}

func (r *runner) emitter() Emitter {
	if r.mask.empty() {
		return r.o.Events
	}
	return EmitterFunc(func(e Event) { r.o.Events.Emit(r.mask.event(e)) })
}

func (r *runner) emit(t EventType, data any) { r.emitter().Emit(NewEvent(t, data)) }

func (r *runner) emitState() {
	r.emit(EventStateChange, StateChangeData{Status: r.st.Status, Phase: r.st.Phase, Iteration: r.st.Iteration})
}

func (r *runner) emitStudent(res StudentResult) {
	r.emitState()
	r.emit(EventStudentOutput, StudentOutputData{Status: res.Status, Summary: res.Summary, CurrentStep: res.CurrentStep})
	if res.Status == StudentAskMentor {
		r.emit(EventTrigger, TriggerData{Trigger: res.Trigger, Step: res.CurrentStep, Summary: firstNonEmpty(res.Problem, res.QuestionForMentor)})
	}
	for _, f := range res.Findings {
		r.emit(EventGap, f)
	}
}

// recordingEmitter notes whether the Student reported commands itself.
type recordingEmitter struct {
	next     Emitter
	commands atomic.Bool
}

func (e *recordingEmitter) Emit(ev Event) {
	if ev.Type == EventCommand {
		e.commands.Store(true)
	}
	e.next.Emit(ev)
}

// masker is the run's redact.Redactor: the one masker of the product, for state,
// iteration records, scenario and events.
type masker struct{ r *redact.Redactor }

func newMasker(secrets []string) *masker { return &masker{r: redact.New(secrets...)} }

func (m *masker) empty() bool { return m.r.Empty() }

func (m *masker) str(s string) string { return m.r.String(s) }

// maskValue masks every string of v through a JSON round trip into a value of the same
// type.
func maskValue[T any](m *masker, v T) T {
	if m.r.Empty() {
		return v
	}
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out T
	if err := json.Unmarshal(m.r.JSON(data), &out); err != nil {
		return v
	}
	return out
}

func (m *masker) event(e Event) Event {
	if m.r.Empty() || e.Data == nil {
		return e
	}
	data, err := json.Marshal(e.Data)
	if err != nil {
		return e
	}
	e.Data = json.RawMessage(m.r.JSON(data))
	return e
}

func cloneState(st *State) State {
	data, _ := json.Marshal(st)
	var out State
	_ = json.Unmarshal(data, &out)
	return out
}

func now() time.Time { return time.Now().UTC() }

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// environmentUnavailable reports whether err says the environment lacks something the
// run needs (an LLM CLI, credentials, Docker): retrying the iteration cannot help.
func environmentUnavailable(err error) bool {
	var env interface{ EnvironmentUnavailable() bool }
	return errors.As(err, &env) && env.EnvironmentUnavailable()
}
