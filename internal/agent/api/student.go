package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// Options configure the native runtime's Student and Mentor.
type Options struct {
	Client Client // the provider API (required)
	// Models per tier: Fast compacts, Standard plays the Student, Powerful the Mentor.
	Fast, Standard, Powerful string
	MaxSteps                 int           // tool calls per Student attempt (default 60)
	MaxConsecutiveErrors     int           // failing tool calls or API errors in a row (default 5)
	ContextTokenBudget       int           // tokens above which the middle is summarised (0: never)
	CallTimeout              time.Duration // per model call (default 5m)
	// MaxTokens is the output limit of one call per tier (defaults as in config.Default).
	MaxTokens config.TierTokens
	// Meter counts every call against llm.budget; share one per run (nil: no budget).
	Meter  *provider.Meter
	Logger *slog.Logger
	// NoWeb takes fetch_url away from the Mentor; AllowPrivateFetch lets it reach
	// non-public addresses (tests only).
	NoWeb             bool
	AllowPrivateFetch bool
}

func (o Options) withDefaults() Options {
	if o.MaxSteps <= 0 {
		o.MaxSteps = 60
	}
	if o.MaxConsecutiveErrors <= 0 {
		o.MaxConsecutiveErrors = 5
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 5 * time.Minute
	}
	def := config.Default().LLM.MaxOutputTokens
	if o.MaxTokens.Fast <= 0 {
		o.MaxTokens.Fast = def.Fast
	}
	if o.MaxTokens.Standard <= 0 {
		o.MaxTokens.Standard = def.Standard
	}
	if o.MaxTokens.Powerful <= 0 {
		o.MaxTokens.Powerful = def.Powerful
	}
	if o.Fast == "" {
		o.Fast = o.Standard
	}
	if o.Powerful == "" {
		o.Powerful = o.Standard
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Student is the native-runtime Student: it drives the model and runs its tool calls in
// the sandbox, observing every command first-hand.
type Student struct{ opts Options }

var _ loop.Student = (*Student)(nil)

// NewStudent returns a Student over opts.Client.
func NewStudent(opts Options) *Student { return &Student{opts: opts.withDefaults()} }

const studentSystem = `You are the Student in smile-loop, working through a tutorial in a Linux container.
Act only through the tools. Run every command with run_command (working directory /workspace/work).
When you are done call exactly one of: finish (the tutorial worked), ask_mentor (you are stuck:
name the step, quote the tutorial text, say what you tried and ask one specific question), or
cannot_complete (something outside your control blocks you, e.g. a paid service).
A final answer written as the JSON result object instead of a tool call also ends the attempt.
There is no web access; the tutorial and the mentor notes are your only sources.`

// Student tool arguments. Their JSON Schemas are generated from these types.
type (
	runCommandArgs struct {
		Command string `json:"command" jsonschema:"description=Shell command run with bash -lc in /workspace/work unless it changes directory"`
		Step    string `json:"step,omitempty" jsonschema:"description=The tutorial step this command belongs to (its heading or a short name)"`
	}
	readFileArgs struct {
		Path string `json:"path" jsonschema:"description=File path; relative paths are under /workspace/work"`
	}
	writeFileArgs struct {
		Path    string `json:"path" jsonschema:"description=File path; relative paths are under /workspace/work"`
		Content string `json:"content" jsonschema:"description=Full new content of the file"`
	}
	listDirArgs struct {
		Path string `json:"path,omitempty" jsonschema:"description=Directory; empty means /workspace/work"`
	}
	finishArgs struct {
		Summary          string   `json:"summary" jsonschema:"description=What was accomplished"`
		CurrentStep      string   `json:"currentStep,omitempty" jsonschema:"description=The last step completed"`
		AttemptedActions []string `json:"attemptedActions,omitempty" jsonschema:"description=Actions taken"`
		FilesCreated     []string `json:"filesCreated,omitempty"`
	}
	askMentorArgs struct {
		CurrentStep       string   `json:"currentStep" jsonschema:"description=The step you are stuck on"`
		Quote             string   `json:"quote,omitempty" jsonschema:"description=The tutorial text that is missing context or unclear\\, quoted exactly"`
		Problem           string   `json:"problem" jsonschema:"description=What went wrong\\, with the error message"`
		QuestionForMentor string   `json:"questionForMentor" jsonschema:"description=One specific question"`
		AttemptedActions  []string `json:"attemptedActions,omitempty" jsonschema:"description=What you tried"`
		Ambiguous         bool     `json:"ambiguous,omitempty" jsonschema:"description=True when the instruction itself cannot be interpreted"`
	}
	cannotCompleteArgs struct {
		CurrentStep string `json:"currentStep" jsonschema:"description=The step that cannot be completed"`
		Reason      string `json:"reason" jsonschema:"description=Why you cannot continue"`
		Problem     string `json:"problem,omitempty"`
	}
)

// attempt is the state of one Student iteration.
type attempt struct {
	opts     Options
	task     loop.StudentTask
	result   loop.StudentResult
	done     bool
	retries  loop.Retries
	pending  *loop.Decision // a trigger fired and the model has not escalated yet
	lastFail *loop.CommandRecord
	quote    string // the tutorial text the Student quoted when it asked the Mentor
	files    map[string]int
}

// Attempt implements loop.Student.
func (s *Student) Attempt(ctx context.Context, task loop.StudentTask) (loop.StudentResult, error) {
	if task.Sandbox == nil {
		return loop.StudentResult{}, errors.New("api student: task has no sandbox")
	}
	if task.Events == nil {
		task.Events = loop.Discard
	}
	a := &attempt{opts: s.opts, task: task, files: map[string]int{}}
	conv := &conversation{
		client: s.opts.Client, agent: "student", model: s.opts.Standard, tier: tierStandard, system: studentSystem,
		tools: a.registry(), maxTokens: s.opts.MaxTokens.Standard, callTimeout: s.opts.CallTimeout, meter: s.opts.Meter,
		msgs: []Message{{Role: RoleUser, Parts: []Part{{Text: task.Prompt}}}},
	}
	if s.opts.ContextTokenBudget > 0 {
		conv.compactor = &compactor{client: s.opts.Client, model: s.opts.Fast, budget: s.opts.ContextTokenBudget, maxTokens: s.opts.MaxTokens.Fast, meter: s.opts.Meter}
	}
	res, err := a.run(ctx, conv)
	res.LLMCalls = conv.calls
	return res, err
}

func (a *attempt) run(ctx context.Context, conv *conversation) (loop.StudentResult, error) {
	consecutive := 0
	steps := 0
	for {
		if err := ctx.Err(); err != nil {
			return a.finalise(), err
		}
		resp, err := conv.next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return a.finalise(), ctx.Err()
			}
			if fatal(err) {
				return a.finalise(), err // a refused key or a wrong model: the run ends (exit 2/3)
			}
			// Retries already happened in the transport (4.E2): the provider is not
			// answering, which the loop treats as an unresolvable blocker.
			return a.blocker(err), nil
		}
		calls := resp.Message.ToolCalls()
		if len(calls) == 0 {
			if out, perr := parseStudentText(resp.Message.Text()); perr == nil {
				a.result.StudentOutput = out
				return a.finalise(), nil
			}
			consecutive++
			if consecutive >= a.opts.MaxConsecutiveErrors {
				return a.stop(fmt.Sprintf("the model answered %d times in a row without a tool call or valid result JSON", consecutive)), nil
			}
			conv.reply(Part{Text: "Use the tools: run_command to act, then finish, ask_mentor or cannot_complete to end the attempt."})
			continue
		}
		results, err := conv.callTools(ctx, calls, &steps, &consecutive, func() bool { return a.done })
		if err != nil {
			return a.finalise(), err
		}
		conv.reply(results...)
		switch {
		case a.done:
			return a.finalise(), nil
		case steps >= a.opts.MaxSteps:
			return a.stop(fmt.Sprintf("step limit reached: %d tool calls without finishing (llm.maxSteps)", steps)), nil
		case consecutive >= a.opts.MaxConsecutiveErrors:
			return a.stop(fmt.Sprintf("%d failing tool calls in a row (llm.maxConsecutiveErrors)", consecutive)), nil
		}
	}
}

// stop ends an attempt the model did not end itself: a stuck Student asks the Mentor.
func (a *attempt) stop(why string) loop.StudentResult {
	trigger := loop.TriggerMaxRetries
	problem := why
	if a.pending != nil && a.pending.Trigger != "" {
		trigger = a.pending.Trigger
	}
	if a.lastFail != nil {
		problem = why + "; last failure: " + a.lastFail.Summary
	}
	a.result.StudentOutput = loop.StudentOutput{
		Status: loop.StudentAskMentor, CurrentStep: a.currentStep(), Problem: problem,
		QuestionForMentor: "The attempt was stopped by smile-loop's bounds; what is missing to get past this step?",
	}
	a.result.Trigger = trigger
	return a.finalise()
}

func (a *attempt) blocker(err error) loop.StudentResult {
	a.result.StudentOutput = loop.StudentOutput{
		Status: loop.StudentCannotComplete, CurrentStep: a.currentStep(),
		Reason:  "the LLM provider kept failing: " + err.Error(),
		Problem: err.Error(),
	}
	return a.finalise()
}

func (a *attempt) currentStep() string {
	if a.lastFail != nil && a.lastFail.Step != "" {
		return a.lastFail.Step
	}
	if n := len(a.result.Commands); n > 0 {
		if s := a.result.Commands[n-1].Step; s != "" {
			return s
		}
		return a.result.Commands[n-1].Command
	}
	return ""
}

// finalise fills what the loop observed into the result: the trigger, and what the
// Student observed as its finding (loop.NewFinding).
func (a *attempt) finalise() loop.StudentResult {
	r := &a.result
	if r.Status == loop.StudentAskMentor && r.Trigger == "" {
		switch {
		case a.pending != nil && a.pending.Trigger != "":
			r.Trigger = a.pending.Trigger
		case a.lastFail != nil:
			r.Trigger = loop.TriggerForClass(a.lastFail.Class)
		default:
			r.Trigger = loop.TriggerAmbiguousInstruction
		}
	}
	if r.Status != loop.StudentCompleted && r.Status != "" && len(r.Findings) == 0 {
		r.Findings = []loop.Finding{loop.NewFinding(loop.Observed{
			Step: r.CurrentStep, Quote: a.quote, Problem: cmp.Or(r.Problem, r.Reason), Question: r.QuestionForMentor,
			Trigger: r.Trigger, Iteration: a.task.Iteration, Failed: a.lastFail,
		})}
	}
	return *r
}

// parseStudentText reads a Student result the model wrote as text instead of calling a
// tool, with the loop's JSON recovery (4.E3).
func parseStudentText(text string) (loop.StudentOutput, error) {
	if strings.TrimSpace(text) == "" {
		return loop.StudentOutput{}, errors.New("empty answer")
	}
	return loop.ParseStudentOutput(text)
}

// fatal reports an API error no later call can get past: a refused key or exhausted
// quota (EnvironmentUnavailable), an unknown model (InvalidInput) or a spent budget.
func fatal(err error) bool {
	var be *provider.BudgetError
	if errors.As(err, &be) {
		return true
	}
	var env interface{ EnvironmentUnavailable() bool }
	if errors.As(err, &env) && env.EnvironmentUnavailable() {
		return true
	}
	var inv interface{ InvalidInput() bool }
	return errors.As(err, &inv) && inv.InvalidInput()
}
