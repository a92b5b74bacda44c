package loop

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/smile-loop/smile-loop/internal/config"
)

func behavior(mut func(*config.StudentBehavior)) config.StudentBehavior {
	b := config.Default().StudentBehavior
	if mut != nil {
		mut(&b)
	}
	return b
}

func TestDecide(t *testing.T) {
	t.Parallel()
	allOff := func(b *config.StudentBehavior) {
		b.AskOnMissingDependency, b.AskOnAmbiguousInstruction, b.AskOnCommandFailure, b.AskOnTimeout = false, false, false, false
	}
	tests := []struct {
		name    string
		b       config.StudentBehavior
		o       Observation
		action  Action
		trigger Trigger
	}{
		{"missing dependency asks at once", behavior(nil), Observation{Class: ClassMissingDependency, Attempts: 1}, ActionAskMentor, TriggerMissingDependency},
		{"missing dependency disabled retries", behavior(func(b *config.StudentBehavior) { b.AskOnMissingDependency = false }), Observation{Class: ClassMissingDependency, Attempts: 1}, ActionRetry, ""},
		{"missing dependency disabled, out of attempts: cannot_complete (5.6)", behavior(func(b *config.StudentBehavior) { b.AskOnMissingDependency = false }), Observation{Class: ClassMissingDependency, Attempts: 3}, ActionCannotComplete, ""},
		{"missing dependency disabled never max_retries (5.S2)", behavior(func(b *config.StudentBehavior) { b.AskOnMissingDependency = false }), Observation{Class: ClassMissingDependency, Attempts: 9}, ActionCannotComplete, ""},
		{"timeout", behavior(nil), Observation{Class: ClassTimeout, Attempts: 1}, ActionAskMentor, TriggerTimeout},
		{"timeout disabled", behavior(func(b *config.StudentBehavior) { b.AskOnTimeout = false }), Observation{Class: ClassTimeout, Attempts: 1, NoRetry: true}, ActionCannotComplete, ""},
		{"ambiguous", behavior(nil), Observation{Ambiguous: true, Attempts: 1}, ActionAskMentor, TriggerAmbiguousInstruction},
		{"ambiguous disabled", behavior(func(b *config.StudentBehavior) { b.AskOnAmbiguousInstruction = false }), Observation{Ambiguous: true, Attempts: 1}, ActionRetry, ""},
		{"low patience: command failure at first failure", behavior(nil), Observation{Class: ClassCommandFailure, Attempts: 1}, ActionAskMentor, TriggerCommandFailure},
		{"medium patience: retries once", behavior(func(b *config.StudentBehavior) { b.PatienceLevel = "medium" }), Observation{Class: ClassTestFailure, Attempts: 1}, ActionRetry, ""},
		{"medium patience: asks at two", behavior(func(b *config.StudentBehavior) { b.PatienceLevel = "medium" }), Observation{Class: ClassTestFailure, Attempts: 2}, ActionAskMentor, TriggerCommandFailure},
		{"high patience: retries until max", behavior(func(b *config.StudentBehavior) { b.PatienceLevel = "high" }), Observation{Class: ClassRuntimeError, Attempts: 2}, ActionRetry, ""},
		{"max retries wins over command failure (5.E1)", behavior(func(b *config.StudentBehavior) { b.PatienceLevel = "high" }), Observation{Class: ClassRuntimeError, Attempts: 3}, ActionAskMentor, TriggerMaxRetries},
		{"max retries 1", behavior(func(b *config.StudentBehavior) { b.MaxRetriesBeforeHelp = 1; b.PatienceLevel = "high" }), Observation{Class: ClassCommandFailure, Attempts: 1}, ActionAskMentor, TriggerMaxRetries},
		{"command failure disabled", behavior(func(b *config.StudentBehavior) { b.AskOnCommandFailure = false }), Observation{Class: ClassCommandFailure, Attempts: 3}, ActionCannotComplete, ""},
		{"no retry decides now", behavior(func(b *config.StudentBehavior) { b.PatienceLevel = "high" }), Observation{Class: ClassCommandFailure, Attempts: 1, NoRetry: true}, ActionAskMentor, TriggerCommandFailure},
		{"all disabled (5.E3)", behavior(allOff), Observation{Class: ClassCommandFailure, Attempts: 3}, ActionCannotComplete, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := Decide(tt.b, tt.o)
			assert.Equal(t, tt.action, d.Action, d.Reason)
			assert.Equal(t, tt.trigger, d.Trigger)
			assert.NotEmpty(t, d.Reason)
			if d.Trigger != "" {
				assert.Contains(t, d.Reason, string(d.Trigger), "every escalation names its trigger (5.S3)")
			}
		})
	}
}

func TestPatienceObservablyChangesAsking(t *testing.T) {
	t.Parallel()
	first := map[string]int{}
	for _, p := range []string{"low", "medium", "high"} {
		b := behavior(func(b *config.StudentBehavior) { b.PatienceLevel = p; b.MaxRetriesBeforeHelp = 4 })
		for a := 1; a <= 10; a++ {
			if Decide(b, Observation{Class: ClassCommandFailure, Attempts: a}).Action == ActionAskMentor {
				first[p] = a
				break
			}
		}
	}
	assert.Equal(t, map[string]int{"low": 1, "medium": 2, "high": 4}, first)
}

func TestRetries(t *testing.T) {
	t.Parallel()
	var r Retries
	assert.Equal(t, 1, r.Fail("a"))
	assert.Equal(t, 2, r.Fail("a"))
	assert.Equal(t, 1, r.Fail("b"))
	r.Succeed("a")
	assert.Equal(t, 0, r.Attempts("a"))
	assert.True(t, MoreSpecific(TriggerMissingDependency, TriggerCommandFailure))
	assert.True(t, MoreSpecific(TriggerMaxRetries, TriggerCommandFailure))
}
