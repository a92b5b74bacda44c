package loop

import (
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
)

// StateSchemaVersion versions state.json.
const StateSchemaVersion = 1

// Status of a run. Every end produces a report.
type Status string

// Run statuses: running, then one of the ends.
const (
	StatusRunning       Status = "running"
	StatusCompleted     Status = "completed"
	StatusMaxIterations Status = "max_iterations"
	StatusBlocker       Status = "blocker"
	StatusTimeout       Status = "timeout"
	StatusStalled       Status = "stalled"
	StatusCancelled     Status = "cancelled"
	StatusError         Status = "error"
	// StatusInconclusive: the Student found no gap but exercised too little of the
	// tutorial to say it works (no command ran, or most of it was skipped or could not be
	// checked); the report says why.
	StatusInconclusive Status = "inconclusive"
	// StatusBudgetExceeded: the LLM calls spent llm.budget (tokens or estimated USD).
	StatusBudgetExceeded Status = "budget_exceeded"
)

// Phase is where the state machine is.
type Phase string

// Phases of the state machine (spec story 7).
const (
	PhaseStart   Phase = "start"
	PhaseStudent Phase = "student"
	PhaseCheck   Phase = "check"
	PhaseMentor  Phase = "mentor"
	PhaseDone    Phase = "done"
)

// Student statuses (spec 4 output schema).
const (
	StudentCompleted      = "completed"
	StudentAskMentor      = "ask_mentor"
	StudentCannotComplete = "cannot_complete"
)

// Trigger is the stuck trigger that made the Student ask (spec 5).
type Trigger string

// Stuck triggers, most specific first (5.E1).
const (
	TriggerMissingDependency    Trigger = "missing_dependency"
	TriggerTimeout              Trigger = "timeout"
	TriggerAmbiguousInstruction Trigger = "ambiguous_instruction"
	TriggerMaxRetries           Trigger = "max_retries"
	TriggerCommandFailure       Trigger = "command_failure"
	TriggerNone                 Trigger = ""
)

// FailureClass classifies an observed failing command (DESIGN.md).
type FailureClass string

// Failure classes.
const (
	ClassMissingDependency FailureClass = "missing_dependency"
	ClassTimeout           FailureClass = "timeout"
	ClassTestFailure       FailureClass = "test_failure"
	ClassLintFailure       FailureClass = "lint_failure"
	ClassRuntimeError      FailureClass = "runtime_error"
	ClassCommandFailure    FailureClass = "command_failure"
	ClassToolingError      FailureClass = "tooling_error"
	ClassUnknown           FailureClass = "unknown"
)

// State is the orchestrator's persisted state (state.json), written after every transition.
type State struct {
	SchemaVersion int           `json:"schemaVersion"`
	RunID         string        `json:"runId"`
	Tutorial      string        `json:"tutorial"`
	Config        config.Config `json:"config"`
	Status        Status        `json:"status"`
	Phase         Phase         `json:"phase"`
	Iteration     int           `json:"iteration"` // the iteration in progress or last finished, 1-based
	StartTime     time.Time     `json:"startTime"`
	EndTime       time.Time     `json:"endTime,omitzero"`
	MentorNotes   []string      `json:"mentorNotes"`
	History       []Iteration   `json:"history"`
	// Failures counts, per step and failure signature, consecutive failing iterations (stall detection).
	Failures    []FailureStreak `json:"failures,omitempty"`
	Plan        []PlanStep      `json:"plan,omitempty"`
	FinalResult *FinalResult    `json:"finalResult"`
}

// Iteration is one finished (or, during a run, in-progress) iteration.
type Iteration struct {
	Iteration int            `json:"iteration"`
	Started   time.Time      `json:"started"`
	Ended     time.Time      `json:"ended,omitzero"`
	Student   *StudentResult `json:"studentResult,omitempty"`
	Mentor    *MentorRecord  `json:"mentorResult,omitempty"`
	Error     string         `json:"error,omitempty"`
	// PlanRejected lists why the plan the Student submitted in this iteration was refused.
	PlanRejected []string `json:"planRejected,omitempty"`
}

// MentorRecord is a Mentor answer as kept in the history.
type MentorRecord struct {
	Notes        string    `json:"notes"`
	Fixes        []string  `json:"fixes,omitempty"`
	Unresolvable bool      `json:"unresolvable,omitempty"`
	LLMCalls     []LLMCall `json:"llmCalls,omitempty"`
	Started      time.Time `json:"started"`
	Ended        time.Time `json:"ended"`
}

// FinalResult is how the run ended.
type FinalResult struct {
	Status  Status `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// FailureStreak counts consecutive iterations failing on Step with the same Signature.
type FailureStreak struct {
	Step      string `json:"step"`
	Signature string `json:"signature"`
	Count     int    `json:"count"`
}

// StudentOutput is the Student's JSON exactly as the spec defines it (story 4).
type StudentOutput struct {
	Status            string   `json:"status"`
	CurrentStep       string   `json:"currentStep,omitempty"`
	AttemptedActions  []string `json:"attemptedActions,omitempty"`
	Problem           string   `json:"problem,omitempty"`
	QuestionForMentor string   `json:"questionForMentor,omitempty"`
	Reason            string   `json:"reason,omitempty"`
	Summary           string   `json:"summary,omitempty"`
	FilesCreated      []string `json:"filesCreated,omitempty"`
	CommandsRun       []string `json:"commandsRun,omitempty"`
}

// StudentResult is the Student's output plus what the loop observed during the attempt.
type StudentResult struct {
	StudentOutput
	Trigger  Trigger         `json:"trigger,omitempty"` // the stuck trigger behind ask_mentor
	Findings []Finding       `json:"findings,omitempty"`
	Commands []CommandRecord `json:"commands,omitempty"`
	Files    []FileRecord    `json:"files,omitempty"`
	LLMCalls []LLMCall       `json:"llmCalls,omitempty"`
	Plan     []PlanStep      `json:"plan,omitempty"`
	Coverage *Coverage       `json:"coverage,omitempty"`
	// Raw is the Student's raw output when it was not clean JSON; ParseError says why recovery failed.
	Raw        string `json:"raw,omitempty"`
	ParseError string `json:"parseError,omitempty"`
}

// Finding is one place the Student got stuck, with what the loop knows of it. Agents
// fill what they observed; the loop completes it (CompleteFindings: location, category,
// severity, fix) and the report renders it as a gap. A Student that stops at the first
// problem has one, the deterministic Student has one per failing root cause.
type Finding struct {
	Step    string `json:"step,omitempty"`  // the step as the Student named it
	Quote   string `json:"quote,omitempty"` // tutorial text the Student quoted
	Line    int    `json:"line,omitempty"`  // tutorial line; agents may leave it 0, the loop locates it (Locate)
	EndLine int    `json:"endLine,omitempty"`
	// Located says how the loop found Line (LocatedByAgent, …; LocatedNowhere when no
	// line fits); "" in a state.json written before findings were complete.
	Located   string       `json:"located,omitempty"`
	Problem   string       `json:"problem"`
	Question  string       `json:"question,omitempty"`
	Trigger   Trigger      `json:"trigger,omitempty"`
	Class     FailureClass `json:"class,omitempty"`
	Command   string       `json:"command,omitempty"`
	ExitCode  int          `json:"exitCode,omitempty"`
	Output    string       `json:"output,omitempty"` // short evidence
	AlsoAt    []int        `json:"alsoAt,omitempty"` // later lines failing from the same root cause
	Iteration int          `json:"iteration,omitempty"`
	// Environment: the finding is a limitation of the environment (a declared
	// prerequisite the image lacks, no systemd, no Docker Engine), not a fault of the
	// tutorial.
	Environment bool `json:"environment,omitempty"`
	// Category is one of Categories: the agent may choose it ("missing step", …), else
	// the loop derives it (Categorize).
	Category string `json:"category,omitempty"`
	// Severity is set by the loop: SeverityOf the category, low for an environment
	// limitation, critical for the finding that stopped the run.
	Severity string `json:"severity,omitempty"`
	// Fix is the concrete change to the tutorial: the agent may propose it; once the
	// Mentor answered (or the run ended) the loop sets the fix and FixSource
	// (FixByMentor, FixByMentorNotes, FixByRule).
	Fix       string `json:"fix,omitempty"`
	FixSource string `json:"fixSource,omitempty"`
	// Edit is the fix as a change to the tutorial, when it is one: lines to insert before
	// Line (InsertBefore) or a replacement for Line (Replace). Proven fixes apply it.
	Edit *Edit `json:"edit,omitempty"`
	// FixVerified is set once the fix was applied to a copy of the tutorial and re-run in
	// a fresh container: true when the step then worked; FixEvidence says what was seen.
	FixVerified *bool  `json:"fixVerified,omitempty"`
	FixEvidence string `json:"fixEvidence,omitempty"`
}

// Edit is a concrete change to the tutorial's text.
type Edit struct {
	InsertBefore []string `json:"insertBefore,omitempty"` // shell lines to add before the finding's line
	Replace      string   `json:"replace,omitempty"`      // the line's new text
}

// Coverage says how much of the tutorial a Student exercised: what it ran, wrote and
// skipped, and why.
type Coverage struct {
	Blocks       int    `json:"blocks"`   // code blocks in the tutorial
	Commands     int    `json:"commands"` // commands the tutorial shows
	Run          int    `json:"run"`      // commands run
	Failed       int    `json:"failed"`   // of those, failed
	Files        int    `json:"files"`    // files written from the tutorial's blocks
	Skipped      []Note `json:"skipped,omitempty"`
	Unverified   []Note `json:"unverified,omitempty"` // run, but their outcome says nothing (no network, a failed step before)
	Heuristics   []Note `json:"heuristics,omitempty"` // decisions taken by a heuristic (untagged blocks read as commands)
	Inconclusive string `json:"inconclusive,omitempty"`
}

// Note is a line of the tutorial with a reason.
type Note struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// CommandRecord is one command the Student ran, as observed.
type CommandRecord struct {
	Iteration  int           `json:"iteration"`
	Step       string        `json:"step,omitempty"`
	Line       int           `json:"line,omitempty"` // tutorial line of the command, when known
	Command    string        `json:"command"`
	ExitCode   int           `json:"exitCode"`
	TimedOut   bool          `json:"timedOut,omitempty"`
	Background bool          `json:"background,omitempty"` // left running (a server)
	Duration   time.Duration `json:"duration"`
	Output     string        `json:"output,omitempty"` // bounded combined output
	OutputPath string        `json:"outputPath,omitempty"`
	Class      FailureClass  `json:"class,omitempty"` // set when the command failed
	Summary    string        `json:"summary,omitempty"`
}

// FileRecord is a file the Student created.
type FileRecord struct {
	Iteration int    `json:"iteration"`
	Path      string `json:"path"`
	Size      int64  `json:"size"`
}

// LLMCall is one call to a model.
type LLMCall struct {
	Agent    string `json:"agent"` // student, mentor, compaction
	Provider string `json:"provider"`
	Model    string `json:"model,omitempty"`
	TokensIn int    `json:"tokensIn"` // every input token, cached ones included
	// CachedTokensIn is the part of TokensIn read from the provider's prompt cache.
	CachedTokensIn int           `json:"cachedTokensIn,omitempty"`
	TokensOut      int           `json:"tokensOut"`
	Duration       time.Duration `json:"duration"`
	CostUSD        float64       `json:"costUsd,omitempty"`
	Error          string        `json:"error,omitempty"`
}

// PlanStep is one step of the Student's reading of the tutorial, anchored to lines.
type PlanStep struct {
	ID        int    `json:"id"`
	Title     string `json:"title"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	DependsOn []int  `json:"dependsOn,omitempty"`
}
