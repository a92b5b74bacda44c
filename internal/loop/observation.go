package loop

import "strings"

// Observed is what a Student saw when it stopped short of the end, as an agent
// reports it: the Student's own words and the failing command it ran. NewFinding makes
// it the finding the loop completes (CompleteFindings); agents do not assemble findings.
type Observed struct {
	Step      string // the step the Student was on
	Quote     string // the tutorial text it quoted
	Problem   string // what went wrong, in its words
	Question  string // what it asked the Mentor
	Trigger   Trigger
	Iteration int
	// Failed is the failing command the Student ran last; nil when none, or when the
	// failure was not a command's (a CLI's own error is not the tutorial's command).
	Failed *CommandRecord
}

// maxObservedOutput bounds the failing command's output a new finding quotes (head and
// tail kept: the error is usually at the end).
const maxObservedOutput = 600

// NewFinding is the one constructor of a Student's finding from what it observed: the
// api and cli runtimes call it, and so does the loop for a Student result without one.
// Location, category, severity and fix are left to CompleteFindings.
func NewFinding(o Observed) Finding {
	f := Finding{Step: o.Step, Quote: o.Quote, Problem: o.Problem, Question: o.Question, Trigger: o.Trigger, Iteration: o.Iteration}
	if c := o.Failed; c != nil {
		f.Class, f.Command, f.ExitCode, f.Output = c.Class, c.Command, c.ExitCode, ClipMiddle(strings.TrimSpace(c.Output), maxObservedOutput)
	}
	return f
}
