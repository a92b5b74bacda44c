package loop

import (
	"fmt"

	"github.com/smile-loop/smile-loop/internal/config"
)

// Action is what a Student should do after a failure, as the stuck triggers decide.
type Action string

// Actions after a failure.
const (
	ActionRetry          Action = "retry"           // keep trying: no enabled trigger fired yet
	ActionAskMentor      Action = "ask_mentor"      // a trigger fired
	ActionCannotComplete Action = "cannot_complete" // out of attempts and the matching trigger is disabled (5.6, 5.E3)
)

// Observation is one failed attempt at a step, as seen by the trigger rules.
type Observation struct {
	Step      string
	Class     FailureClass // "" when no command failed (an instruction the Student could not interpret)
	Ambiguous bool         // the Student could not interpret the instruction
	Attempts  int          // failed attempts at this step so far, this one included (≥1)
	// NoRetry: the Student will not try again (the deterministic Student runs each
	// command once), so the rules decide now instead of waiting for more attempts.
	NoRetry bool
}

// Decision is the outcome of the trigger rules for one observation.
type Decision struct {
	Action  Action
	Trigger Trigger // set when Action is ask_mentor
	Reason  string  // one line naming the trigger and why it fired (or why none could)
}

// PatienceAttempts is how many failed attempts at a step the Student makes before a
// command failure makes it ask, for a patience level (spec 4, patience level effects):
// low asks at the first failure, medium after two, high only at maxRetriesBeforeHelp.
func PatienceAttempts(b config.StudentBehavior) int {
	limit := max(b.MaxRetriesBeforeHelp, 1)
	switch b.PatienceLevel {
	case "high":
		return limit
	case "medium":
		return min(2, limit)
	default:
		return 1
	}
}

// Decide applies the stuck triggers of the spec (story 5) to one failed attempt.
//
//   - missing_dependency, timeout and ambiguous_instruction fire at once when enabled:
//     retrying cannot help.
//   - a failing command fires command_failure once the patience level's attempts are
//     used up (low: the first failure) when askOnCommandFailure is enabled;
//   - max_retries fires when maxRetriesBeforeHelp attempts failed, for a failure whose
//     own trigger is enabled.
//
// A disabled trigger never escalates its kind of failure (5.S2): the Student retries,
// and past maxRetriesBeforeHelp (or at once with NoRetry) it reports cannot_complete
// (5.6, 5.E3). When several triggers fire, the most specific wins (5.E1), in the order
// of the Trigger constants.
func Decide(b config.StudentBehavior, o Observation) Decision {
	attempts := max(o.Attempts, 1)
	limit := max(b.MaxRetriesBeforeHelp, 1)
	exhausted := attempts >= limit || o.NoRetry
	var kindEnabled bool
	var kindTrigger Trigger
	switch {
	case o.Class == ClassMissingDependency:
		kindEnabled, kindTrigger = b.AskOnMissingDependency, TriggerMissingDependency
	case o.Class == ClassTimeout:
		kindEnabled, kindTrigger = b.AskOnTimeout, TriggerTimeout
	case o.Ambiguous || o.Class == "":
		kindEnabled, kindTrigger = b.AskOnAmbiguousInstruction, TriggerAmbiguousInstruction
	default:
		kindEnabled, kindTrigger = b.AskOnCommandFailure, TriggerCommandFailure
	}
	step := o.Step
	if step == "" {
		step = "this step"
	}
	if !kindEnabled {
		if exhausted {
			return Decision{Action: ActionCannotComplete, Reason: fmt.Sprintf("%s failed %s after %d attempt(s) and %s is disabled",
				step, describeKind(o), attempts, toggleName(kindTrigger))}
		}
		return Decision{Action: ActionRetry, Reason: fmt.Sprintf("%s is disabled; attempt %d of %d", toggleName(kindTrigger), attempts, limit)}
	}
	fired := kindTrigger
	if kindTrigger == TriggerCommandFailure {
		switch {
		case attempts >= limit && !o.NoRetry:
			fired = TriggerMaxRetries // more specific than command_failure (5.E1)
		case attempts >= PatienceAttempts(b) || o.NoRetry:
			fired = TriggerCommandFailure
		default:
			return Decision{Action: ActionRetry, Reason: fmt.Sprintf("patience %s: attempt %d of %d before asking", patience(b), attempts, PatienceAttempts(b))}
		}
	}
	return Decision{Action: ActionAskMentor, Trigger: fired, Reason: fmt.Sprintf("%s: %s %s (attempt %d)", fired, step, describeKind(o), attempts)}
}

// TriggerEnabled reports whether behaviour b lets the Student escalate with t.
func TriggerEnabled(b config.StudentBehavior, t Trigger) bool {
	switch t {
	case TriggerMissingDependency:
		return b.AskOnMissingDependency
	case TriggerTimeout:
		return b.AskOnTimeout
	case TriggerAmbiguousInstruction:
		return b.AskOnAmbiguousInstruction
	case TriggerCommandFailure:
		return b.AskOnCommandFailure
	case TriggerMaxRetries:
		return true // a number, not a toggle; Decide only fires it for enabled kinds
	}
	return false
}

// MoreSpecific reports whether trigger a is more specific than b (5.E1).
func MoreSpecific(a, b Trigger) bool { return triggerRank(a) < triggerRank(b) }

func triggerRank(t Trigger) int {
	for i, x := range []Trigger{TriggerMissingDependency, TriggerTimeout, TriggerAmbiguousInstruction, TriggerMaxRetries, TriggerCommandFailure} {
		if t == x {
			return i
		}
	}
	return 99
}

// TriggerForClass is the trigger a failure class escalates with.
func TriggerForClass(c FailureClass) Trigger {
	switch c {
	case ClassMissingDependency:
		return TriggerMissingDependency
	case ClassTimeout:
		return TriggerTimeout
	case "":
		return TriggerAmbiguousInstruction
	default:
		return TriggerCommandFailure
	}
}

func toggleName(t Trigger) string {
	switch t {
	case TriggerMissingDependency:
		return "askOnMissingDependency"
	case TriggerTimeout:
		return "askOnTimeout"
	case TriggerAmbiguousInstruction:
		return "askOnAmbiguousInstruction"
	default:
		return "askOnCommandFailure"
	}
}

func describeKind(o Observation) string {
	switch {
	case o.Class == ClassMissingDependency:
		return "hit a missing dependency"
	case o.Class == ClassTimeout:
		return "timed out"
	case o.Ambiguous || o.Class == "":
		return "could not be interpreted"
	default:
		return fmt.Sprintf("failed (%s)", o.Class)
	}
}

func patience(b config.StudentBehavior) string {
	if b.PatienceLevel == "" {
		return "low"
	}
	return b.PatienceLevel
}

// Retries counts consecutive failed attempts per step, for maxRetriesBeforeHelp.
type Retries struct{ n map[string]int }

// Fail records a failed attempt at step and returns the attempts so far.
func (r *Retries) Fail(step string) int {
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[step]++
	return r.n[step]
}

// Succeed resets the count of step.
func (r *Retries) Succeed(step string) { delete(r.n, step) }

// Attempts returns the failed attempts at step so far.
func (r *Retries) Attempts(step string) int { return r.n[step] }
