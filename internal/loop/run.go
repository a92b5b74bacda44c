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
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
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

	// While the phases run (phases.go):
	parent context.Context // the caller's: cancelled means the run was interrupted
	ctx    context.Context // the run's: also ends on its timeout or POST /api/stop
	stop   func()          // stops the run (POST /api/stop)
	fresh  bool            // the container is clean: no reset before the next iteration
	it     *Iteration      // the iteration in progress
	err    error           // what Run returns once the run is done
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
