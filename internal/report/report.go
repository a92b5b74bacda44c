// Package report turns a run's state into the report: the model (Build), its renderings
// (Markdown, JSON, SARIF, audit log) and writing them (Write).
//
// Gaps. Every place the Student got stuck (a loop.Finding; the loop makes one from the
// Student's own ask_mentor/cannot_complete output when it recorded none) becomes a gap.
// The same gap seen in several iterations appears once with every iteration it was
// seen in.
//
// Findings. The loop completes every finding once (loop.CompleteFindings): its line
// (loop.Locate; a line is never invented), category, severity (critical for the
// finding that stopped the run) and suggested fix with its source (the Mentor's fix,
// its notes about the finding, else the deterministic Mentor's rules). The report
// renders those and never derives them again; a state.json written before findings
// were complete (or a run interrupted before its end) is completed on a copy the same
// way. Without the tutorial (re-rendering), only lines recorded in the findings are used.
//
// Fingerprint. sha256 of the tutorial's repository path, the category and the quoted
// tutorial text (else the Student's quote, command, step or problem), normalised; never
// the line number, so a gap keeps its fingerprint when lines above it change.
package report

import (
	"cmp"
	"fmt"
	"log/slog"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/redact"
)

// SchemaVersion versions smile-report.json; it changes when a field changes meaning or
// disappears (adding fields does not change it).
const SchemaVersion = 1

// File names written by Write.
const (
	MarkdownFile = "smile-report.md"
	JSONFile     = "smile-report.json"
	SARIFFile    = "smile-report.sarif"
	AuditFile    = "smile-audit.log"
)

// Severity of a gap.
type Severity string

// Severities, most severe first (the loop's, see loop.SeverityOf).
const (
	Critical Severity = loop.SeverityCritical
	High     Severity = loop.SeverityHigh
	Medium   Severity = loop.SeverityMedium
	Low      Severity = loop.SeverityLow
)

// Rank orders severities: critical 4 … low 1, unknown 0.
func (s Severity) Rank() int {
	switch s {
	case Critical:
		return 4
	case High:
		return 3
	case Medium:
		return 2
	case Low:
		return 1
	}
	return 0
}

// Category of a gap.
type Category string

// Categories (one SARIF rule each): the loop's (loop.Categorize).
const (
	MissingPrerequisite   Category = loop.CategoryMissingPrerequisite
	MissingStep           Category = loop.CategoryMissingStep
	CommandFailure        Category = loop.CategoryCommandFailure
	FailingCheck          Category = loop.CategoryFailingCheck
	EnvironmentAssumption Category = loop.CategoryEnvironmentAssumption
	AmbiguousInstruction  Category = loop.CategoryAmbiguousInstruction
	Other                 Category = loop.CategoryOther
)

// Categories lists every category in a stable order.
func Categories() []Category {
	var out []Category
	for _, c := range loop.Categories() {
		out = append(out, Category(c))
	}
	return out
}

// Options tune Build.
type Options struct {
	// Secrets are masked in every output (see redact.FromEnv).
	Secrets []string
	// RepoRoot is the repository root; SARIF and Meta.TutorialURI are relative to it.
	RepoRoot string
	// TutorialURI overrides the tutorial's repository-relative path.
	TutorialURI string
	// Now gives the report's timestamp (and the end of a run still marked running).
	Now func() time.Time
	// LogsDir is where full command outputs were saved. A CommandRecord.OutputPath is
	// read for the audit log only when it lies inside LogsDir (relative paths resolve
	// against it); "" reads none.
	LogsDir string
	// Version of smile-action, for the report's meta and the SARIF tool.
	Version string
	// MaxOutput caps each command output kept in the JSON and Markdown (default 4096
	// bytes); the full text is in the audit log.
	MaxOutput int
	// RuleFix writes the fix of a finding no Mentor fixed in a state the loop did not
	// complete (an older state.json, an interrupted run): cmd passes the deterministic
	// Mentor's rules (none.Fix), as it does to the loop.
	RuleFix loop.RuleFix
	// Logger receives warnings (an unreadable output file); nil discards them.
	Logger *slog.Logger
}

// Report is the whole report; smile-report.json is its JSON encoding.
type Report struct {
	SchemaVersion   int              `json:"schemaVersion" jsonschema:"description=Version of this report format,minimum=1"`
	Meta            Meta             `json:"meta"`
	Gaps            []Gap            `json:"gaps" jsonschema:"description=Every gap found\\, in tutorial order (unlocated gaps last); empty when the tutorial passed"`
	Timeline        []TimelineEntry  `json:"timeline" jsonschema:"description=One entry per iteration\\, in order"`
	AuditTrail      AuditTrail       `json:"auditTrail"`
	Recommendations []Recommendation `json:"recommendations" jsonschema:"description=What to change in the tutorial\\, most important first"`
	Coverage        *Coverage        `json:"coverage,omitempty" jsonschema:"description=How much of the tutorial the last iteration exercised: what was run\\, written\\, skipped (and why) or could not be verified"`

	redactor *redact.Redactor
	state    *loop.State // the run the report was built from, for the audit log; nil when decoded
	opts     Options     // Build's options, for the audit log
}

// Coverage says how much of the tutorial was exercised (deterministic mode).
type Coverage struct {
	Blocks       int            `json:"blocks" jsonschema:"minimum=0,description=Code blocks in the tutorial"`
	Commands     int            `json:"commands" jsonschema:"minimum=0,description=Commands the tutorial shows"`
	Run          int            `json:"run" jsonschema:"minimum=0,description=Commands run"`
	Failed       int            `json:"failed" jsonschema:"minimum=0,description=Commands run that failed"`
	Files        int            `json:"files" jsonschema:"minimum=0,description=Files written from the tutorial's blocks"`
	Skipped      []CoverageNote `json:"skipped,omitempty" jsonschema:"description=Commands and blocks not run\\, with the reason (another system's tab\\, an alternative\\, output\\, a placeholder)"`
	Unverified   []CoverageNote `json:"unverified,omitempty" jsonschema:"description=Commands whose outcome says nothing about the tutorial (no network in the sandbox\\, or a step they depend on could not run)"`
	Heuristics   []CoverageNote `json:"heuristics,omitempty" jsonschema:"description=Decisions taken by a heuristic (an untagged block read as commands)"`
	Inconclusive string         `json:"inconclusive,omitempty" jsonschema:"description=Why the run cannot be called a pass although no gap was found"`
}

// CoverageNote is a tutorial line with a reason.
type CoverageNote struct {
	Line   int    `json:"line" jsonschema:"minimum=0"`
	Reason string `json:"reason"`
}

// Line is a one-line summary of the coverage.
func (c *Coverage) Line() string {
	if c == nil {
		return ""
	}
	return fmt.Sprintf("%d of %d command(s) run (%d failed), %d unverified, %d skipped, %d file(s) written", c.Run, c.Commands, c.Failed, len(c.Unverified), len(c.Skipped), c.Files)
}

// Meta describes the run.
type Meta struct {
	Tutorial     string     `json:"tutorial" jsonschema:"description=Tutorial path as given to the run"`
	TutorialURI  string     `json:"tutorialUri,omitempty" jsonschema:"description=Tutorial path relative to the repository root\\, with forward slashes"`
	TutorialName string     `json:"tutorialName" jsonschema:"description=The tutorial's first heading or its file name"`
	RunID        string     `json:"runId,omitempty"`
	Status       string     `json:"status" jsonschema:"description=How the run ended,enum=completed,enum=max_iterations,enum=blocker,enum=timeout,enum=stalled,enum=cancelled,enum=error,enum=running,enum=inconclusive,enum=budget_exceeded"`
	Completed    bool       `json:"completed" jsonschema:"description=The Student completed the tutorial"`
	Reason       string     `json:"reason,omitempty" jsonschema:"description=Why the run ended that way"`
	Summary      string     `json:"summary,omitempty" jsonschema:"description=The Student's or the loop's summary of the run"`
	Iterations   int        `json:"iterations" jsonschema:"minimum=0"`
	Duration     int64      `json:"duration" jsonschema:"description=Run duration in whole seconds,minimum=0"`
	DurationMS   int64      `json:"durationMs" jsonschema:"description=Run duration in milliseconds,minimum=0"`
	StartTime    time.Time  `json:"startTime,omitzero"`
	EndTime      time.Time  `json:"endTime,omitzero"`
	Timestamp    time.Time  `json:"timestamp" jsonschema:"description=When the report was generated"`
	Provider     string     `json:"provider,omitempty" jsonschema:"description=llmProvider of the run"`
	Runtime      string     `json:"runtime,omitempty" jsonschema:"description=llmRuntime of the run"`
	FailOn       string     `json:"failOn,omitempty" jsonschema:"description=failOn of the run's configuration"`
	GapCounts    GapCounts  `json:"gapCounts"`
	Generator    Generator  `json:"generator"`
	Tokens       TokenTotal `json:"tokens"`
}

// GapCounts counts gaps per severity.
type GapCounts struct {
	Total    int `json:"total" jsonschema:"minimum=0"`
	Critical int `json:"critical" jsonschema:"minimum=0"`
	High     int `json:"high" jsonschema:"minimum=0"`
	Medium   int `json:"medium" jsonschema:"minimum=0"`
	Low      int `json:"low" jsonschema:"minimum=0"`
}

// Generator names the tool that wrote the report.
type Generator struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// TokenTotal sums the LLM calls of the run, in total and per agent.
type TokenTotal struct {
	In      int     `json:"in" jsonschema:"description=Input tokens\\, cached ones included,minimum=0"`
	Cached  int     `json:"cached,omitempty" jsonschema:"description=Input tokens read from the provider's prompt cache (part of in),minimum=0"`
	Out     int     `json:"out" jsonschema:"minimum=0"`
	CostUSD float64 `json:"costUsd,omitempty" jsonschema:"description=Estimated from smile-loop's dated price table,minimum=0"`
	// ByAgent splits the totals by agent (student, mentor, compaction), in that order.
	ByAgent []AgentTokens `json:"byAgent,omitempty"`
}

// AgentTokens are the token totals of one agent.
type AgentTokens struct {
	Agent   string  `json:"agent"`
	Calls   int     `json:"calls" jsonschema:"minimum=0"`
	In      int     `json:"in" jsonschema:"minimum=0"`
	Cached  int     `json:"cached,omitempty" jsonschema:"minimum=0"`
	Out     int     `json:"out" jsonschema:"minimum=0"`
	CostUSD float64 `json:"costUsd,omitempty" jsonschema:"minimum=0"`
}

// Gap is one problem of the tutorial.
type Gap struct {
	ID           int       `json:"id" jsonschema:"description=1-based\\, unique in this report,minimum=1"`
	Title        string    `json:"title"`
	Location     Location  `json:"location"`
	Problem      string    `json:"problem"`
	SuggestedFix string    `json:"suggestedFix"`
	FixSource    string    `json:"fixSource" jsonschema:"description=Where the suggested fix comes from,enum=mentor,enum=mentor_notes,enum=rule"`
	Severity     Severity  `json:"severity" jsonschema:"enum=critical,enum=high,enum=medium,enum=low"`
	Category     Category  `json:"category" jsonschema:"enum=missing prerequisite,enum=missing step,enum=command failure,enum=failing check,enum=environment assumption,enum=ambiguous instruction,enum=other"`
	RuleID       string    `json:"ruleId" jsonschema:"description=Stable id of the category (the SARIF rule)"`
	Trigger      string    `json:"trigger,omitempty" jsonschema:"description=Stuck trigger that made the Student ask"`
	Class        string    `json:"class,omitempty" jsonschema:"description=Failure class of the failing command"`
	Step         string    `json:"step,omitempty" jsonschema:"description=The step as the Student named it"`
	Question     string    `json:"question,omitempty" jsonschema:"description=The Student's question for the Mentor"`
	Iterations   []int     `json:"iterations" jsonschema:"description=Every iteration the gap was seen in"`
	Evidence     *Evidence `json:"evidence,omitempty"`
	AlsoAt       []int     `json:"alsoAt,omitempty" jsonschema:"description=Later lines failing from the same root cause"`
	FixVerified  *bool     `json:"fixVerified,omitempty" jsonschema:"description=Set when the fix was applied to a copy of the tutorial and re-run in a fresh container: true when the step then worked"`
	FixEvidence  string    `json:"fixEvidence,omitempty" jsonschema:"description=What the re-run with the fix applied showed"`
	Suggestion   string    `json:"suggestion,omitempty" jsonschema:"description=The gap's lines (location line to endLine) rewritten with the fix applied; set only when the fix was verified\\, so a reviewer can commit it as a suggestion"`
	Fingerprint  string    `json:"fingerprint" jsonschema:"description=Stable across re-runs and line shifts: tutorial path\\, category and the quoted text (or command\\, step\\, problem)"`
}

// Location is where a gap is in the tutorial.
type Location struct {
	Found       bool     `json:"found" jsonschema:"description=False when the location could not be determined (line and text are then empty)"`
	Line        int      `json:"line,omitempty" jsonschema:"minimum=1"`
	EndLine     int      `json:"endLine,omitempty" jsonschema:"minimum=1"`
	Text        string   `json:"text,omitempty" jsonschema:"description=The tutorial line(s) at that place"`
	HeadingPath []string `json:"headingPath,omitempty" jsonschema:"description=Headings enclosing the line\\, outermost first"`
	Source      string   `json:"source,omitempty" jsonschema:"description=How the line was found,enum=finding,enum=quote,enum=step,enum=plan,enum=command"`
	Quote       string   `json:"quote,omitempty" jsonschema:"description=What the Student quoted or named (when it differs from text); all there is when the location was not found"`
}

// Evidence is the failing command behind a gap.
type Evidence struct {
	Command  string `json:"command,omitempty"`
	ExitCode int    `json:"exitCode"`
	Output   string `json:"output,omitempty" jsonschema:"description=Short output (its end when long)"`
}

// TimelineEntry is one iteration.
type TimelineEntry struct {
	Iteration      int       `json:"iteration" jsonschema:"minimum=1"`
	Started        time.Time `json:"started,omitzero"`
	Ended          time.Time `json:"ended,omitzero"`
	DurationMS     int64     `json:"durationMs" jsonschema:"minimum=0"`
	Result         string    `json:"result" jsonschema:"description=The Student's status (completed\\, ask_mentor\\, cannot_complete)\\, or error/incomplete"`
	CurrentStep    string    `json:"currentStep,omitempty"`
	Actions        string    `json:"actions" jsonschema:"description=Summary of what the Student did"`
	Problem        string    `json:"problem,omitempty"`
	Trigger        string    `json:"trigger,omitempty"`
	Commands       int       `json:"commands" jsonschema:"minimum=0"`
	FailedCommands int       `json:"failedCommands" jsonschema:"minimum=0"`
	MentorNotes    string    `json:"mentorNotes,omitempty"`
	Unresolvable   bool      `json:"unresolvable,omitempty"`
	Error          string    `json:"error,omitempty"`
	GapIDs         []int     `json:"gapIds,omitempty"`
}

// AuditTrail is everything the run did (9.S2).
type AuditTrail struct {
	Commands []CommandEntry `json:"commands"`
	Files    []FileEntry    `json:"files"`
	LLMCalls []LLMCallEntry `json:"llmCalls"`
}

// CommandEntry is one command the Student ran.
type CommandEntry struct {
	Iteration       int    `json:"iteration" jsonschema:"minimum=0"`
	Step            string `json:"step,omitempty"`
	Line            int    `json:"line,omitempty" jsonschema:"minimum=1"`
	Command         string `json:"command"`
	ExitCode        int    `json:"exitCode"`
	TimedOut        bool   `json:"timedOut,omitempty"`
	Background      bool   `json:"background,omitempty"`
	DurationMS      int64  `json:"durationMs" jsonschema:"minimum=0"`
	Class           string `json:"class,omitempty"`
	Summary         string `json:"summary" jsonschema:"description=One line about the output"`
	Output          string `json:"output,omitempty" jsonschema:"description=Output\\, truncated when long (see outputTruncated)"`
	OutputTruncated bool   `json:"outputTruncated,omitempty" jsonschema:"description=The full output is in smile-audit.log"`
}

// FileEntry is one file the Student created.
type FileEntry struct {
	Iteration int    `json:"iteration" jsonschema:"minimum=0"`
	Path      string `json:"path"`
	Size      int64  `json:"size" jsonschema:"minimum=0"`
}

// LLMCallEntry is one model call.
type LLMCallEntry struct {
	Iteration  int     `json:"iteration" jsonschema:"minimum=0"`
	Agent      string  `json:"agent"`
	Provider   string  `json:"provider"`
	Model      string  `json:"model,omitempty"`
	TokensIn   int     `json:"tokensIn" jsonschema:"minimum=0"`
	CachedIn   int     `json:"cachedTokensIn,omitempty" jsonschema:"minimum=0"`
	TokensOut  int     `json:"tokensOut" jsonschema:"minimum=0"`
	DurationMS int64   `json:"durationMs" jsonschema:"minimum=0"`
	CostUSD    float64 `json:"costUsd,omitempty" jsonschema:"minimum=0"`
	Error      string  `json:"error,omitempty"`
}

// Recommendation is one prioritised change to the tutorial.
type Recommendation struct {
	Priority int      `json:"priority" jsonschema:"description=1 is the most important,minimum=1"`
	Severity Severity `json:"severity" jsonschema:"enum=critical,enum=high,enum=medium,enum=low"`
	Text     string   `json:"text"`
	GapIDs   []int    `json:"gapIds" jsonschema:"description=The gaps this recommendation fixes"`
}

// Failed reports whether the run fails the job: it did not complete, or it has a gap
// at or above failOn (see Severity.Fails).
func (r *Report) Failed(failOn string) bool {
	if r == nil || !r.Meta.Completed && r.Meta.Status != "inconclusive" {
		return true
	}
	for _, g := range r.Gaps {
		if g.Severity.Fails(failOn) {
			return true
		}
	}
	return false
}

// Inconclusive reports whether the run found no gap at or above failOn but exercised too
// little of the tutorial to call it a pass (status inconclusive; the Coverage says why).
func (r *Report) Inconclusive(failOn string) bool {
	return r != nil && r.Meta.Status == "inconclusive" && !r.Failed(failOn)
}

// Fails reports whether a gap of severity s fails a run under the threshold failOn
// (critical, high, medium, low): s is at or above it. "never" fails no gap; an unknown
// or empty threshold means high. This is the one rule for pass/fail.
func (s Severity) Fails(failOn string) bool {
	if failOn == "never" {
		return false
	}
	threshold := Severity(failOn).Rank()
	if threshold == 0 {
		threshold = High.Rank()
	}
	return s.Rank() >= threshold
}

func cmpSeverity(a, b Severity) int { return cmp.Compare(b.Rank(), a.Rank()) }
