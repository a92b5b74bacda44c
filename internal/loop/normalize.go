package loop

import (
	"errors"
	"fmt"
	"regexp"
)

// maxCommandOutput bounds the output kept per command in the state.
const maxCommandOutput = 4000

// normalize makes a Student result trustworthy for the rest of the run: a status the
// spec knows (recovering from the raw text if need be), secrets masked, every failing
// command classified, the stuck triggers enforced (5.S2, 5.E1), at least one finding
// naming its trigger and context for ask_mentor (5.S3), findings located in the
// tutorial and categorised (completeFinding), and a submitted plan validated.
func (r *runner) normalize(res StudentResult, it *Iteration) StudentResult {
	n := it.Iteration
	res = maskValue(r.mask, res)
	res.Status = NormalizeStudentStatus(res.Status)
	for i := range res.Commands {
		c := &res.Commands[i]
		c.Iteration = n
		if len(c.Output) > maxCommandOutput {
			c.Output = "…" + c.Output[len(c.Output)-maxCommandOutput:]
		}
		if (c.ExitCode != 0 || c.TimedOut) && c.Class == "" {
			c.Class, c.Summary = Classify(c.Command, c.ExitCode, c.Output, c.TimedOut)
		}
		if c.Line == 0 {
			c.Line, _ = commandLine(r.o.Tutorial, c.Command)
		}
	}
	for i := range res.Files {
		res.Files[i].Iteration = n
	}
	// The spec's lists, from what was observed when the Student did not write them.
	if len(res.CommandsRun) == 0 {
		for _, c := range res.Commands {
			res.CommandsRun = append(res.CommandsRun, c.Command)
		}
	}
	if len(res.FilesCreated) == 0 {
		for _, f := range res.Files {
			res.FilesCreated = append(res.FilesCreated, f.Path)
		}
	}
	if len(res.Plan) > 0 {
		lines := 0
		if r.o.Tutorial.Map != nil {
			lines = r.o.Tutorial.Map.LineCount()
		}
		if err := ValidatePlan(res.Plan, lines); err != nil {
			if pe, ok := errors.AsType[*PlanError](err); ok {
				it.PlanRejected = pe.Reasons
			}
			r.emit(EventError, ErrorData{Message: fmt.Sprintf("iteration %d: %v", n, err)})
		} else {
			r.st.Plan = res.Plan
			r.emit(EventPlanAccepted, map[string]any{"steps": res.Plan})
		}
	}
	switch res.Status {
	case StudentAskMentor:
		r.enforceTrigger(&res)
	}
	if res.Status != StudentCompleted && len(res.Findings) == 0 {
		res.Findings = []Finding{findingFromOutput(res)}
	}
	for i := range res.Findings {
		f := &res.Findings[i]
		f.Iteration = n
		if f.Trigger == "" && res.Status == StudentAskMentor {
			f.Trigger = res.Trigger
		}
		if f.Class == "" && f.Command != "" && f.ExitCode != 0 {
			f.Class, _ = Classify(f.Command, f.ExitCode, f.Output, false)
		}
		if f.Problem == "" {
			f.Problem = firstNonEmpty(res.Problem, res.Reason, "the Student got stuck here")
		}
		// What a Student must not decide for the loop (a replayed result keeps how its
		// line was found when that line exists).
		f.Severity, f.FixSource = "", ""
		if !lineIn(r.o.Tutorial, f.Line) {
			f.Located = ""
		}
		completeFinding(f, r.o.Tutorial, r.st.Plan, res.Commands)
	}
	return res
}

// enforceTrigger makes sure an ask_mentor names an enabled trigger: the one the Student
// gave, else the most specific one the evidence supports. A disabled trigger never
// escalates (5.S2): when no enabled trigger fits, the result becomes cannot_complete.
func (r *runner) enforceTrigger(res *StudentResult) {
	b := r.o.Config.StudentBehavior
	var candidates []Trigger
	if res.Trigger != "" {
		candidates = append(candidates, res.Trigger)
	}
	for _, f := range res.Findings {
		if f.Trigger != "" {
			candidates = append(candidates, f.Trigger)
		}
		if f.Class != "" {
			candidates = append(candidates, TriggerForClass(f.Class))
		}
	}
	var lastFail *CommandRecord
	for i := range res.Commands {
		if c := &res.Commands[i]; c.ExitCode != 0 || c.TimedOut {
			lastFail = c
		}
	}
	if lastFail != nil {
		candidates = append(candidates, TriggerForClass(lastFail.Class))
		if failedAttempts(res.Commands, lastFail.Command) >= max(b.MaxRetriesBeforeHelp, 1) {
			candidates = append(candidates, TriggerMaxRetries)
		}
	}
	if len(candidates) == 0 {
		candidates = append(candidates, inferTrigger(res))
	}
	best := TriggerNone
	for _, t := range candidates {
		if TriggerEnabled(b, t) && (best == TriggerNone || MoreSpecific(t, best)) {
			best = t
		}
	}
	if best == TriggerNone {
		res.Status = StudentCannotComplete
		res.Reason = firstNonEmpty(res.Reason, fmt.Sprintf("asked the mentor (%s) but %s is disabled: %s",
			candidates[0], toggleName(candidates[0]), firstNonEmpty(res.Problem, res.QuestionForMentor, "no details")))
		res.Trigger = TriggerNone
		return
	}
	res.Trigger = best
	if res.Problem == "" && lastFail != nil {
		res.Problem = firstNonEmpty(lastFail.Summary, fmt.Sprintf("`%s` exited %d", lastFail.Command, lastFail.ExitCode))
	}
}

var reMissingWords = regexp.MustCompile(`(?i)command not found|not installed|no module named|cannot find module|unable to locate package|missing dependency|is not recognized`)
var reTimeoutWords = regexp.MustCompile(`(?i)timed? ?out|took too long|never (?:finished|returned)|hangs?\b`)

// inferTrigger guesses the trigger of an ask_mentor without observed commands from
// its words.
func inferTrigger(res *StudentResult) Trigger {
	text := res.Problem + " " + res.QuestionForMentor
	switch {
	case reMissingWords.MatchString(text):
		return TriggerMissingDependency
	case reTimeoutWords.MatchString(text):
		return TriggerTimeout
	case regexp.MustCompile(`(?i)exit(?:ed)? (?:code|status)? ?[1-9]|error:|failed|traceback`).MatchString(text):
		return TriggerCommandFailure
	default:
		return TriggerAmbiguousInstruction
	}
}

func failedAttempts(cmds []CommandRecord, command string) int {
	n := 0
	for _, c := range cmds {
		if c.Command == command && (c.ExitCode != 0 || c.TimedOut) {
			n++
		}
	}
	return n
}

// findingFromOutput is the one finding of a Student that stopped without listing any.
func findingFromOutput(res StudentResult) Finding {
	var failed *CommandRecord
	for i := len(res.Commands) - 1; i >= 0; i-- {
		if c := &res.Commands[i]; c.ExitCode != 0 || c.TimedOut {
			failed = c
			break
		}
	}
	f := NewFinding(Observed{
		Step:     res.CurrentStep,
		Quote:    quoted(res.Problem),
		Problem:  firstNonEmpty(res.Problem, res.Reason, "the Student got stuck here"),
		Question: res.QuestionForMentor,
		Trigger:  res.Trigger,
		Failed:   failed,
	})
	if failed != nil {
		f.Line = failed.Line // the loop's record of where that command is in the tutorial
	}
	return f
}

var reQuoted = regexp.MustCompile("[\"“`']([^\"”`']{6,})[\"”`']")

func quoted(s string) string {
	if m := reQuoted.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}
