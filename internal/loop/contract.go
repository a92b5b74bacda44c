// Package loop is the orchestrator: the Student/Mentor state machine, stuck triggers,
// failure classes, stall detection, persistence and the wrapper HTTP API.
package loop

import (
	"context"
	"encoding/json"
	"os"
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Paths inside the learner container (spec, story 3).
const (
	TutorialMount = "/workspace/tutorial" // read-only
	WorkMount     = "/workspace/work"     // the Student's working directory
	LogsMount     = "/workspace/logs"
)

// Sandbox is the learner's environment: one container the loop resets between iterations.
type Sandbox interface {
	// Start creates and starts the container; ready to Exec when it returns.
	Start(ctx context.Context) error
	// Exec runs a command in the container. A command that fails or times out is not an
	// error: its ExecResult says so. err is for the sandbox itself failing.
	Exec(ctx context.Context, req ExecRequest) (ExecResult, error)
	// WriteFile writes a file inside the container (path absolute or relative to WorkMount).
	WriteFile(ctx context.Context, path string, data []byte, mode os.FileMode) error
	// ReadFile reads at most limit bytes of a file inside the container.
	ReadFile(ctx context.Context, path string, limit int64) ([]byte, error)
	// Reset brings the container back to a clean slate for the next iteration.
	Reset(ctx context.Context) error
	// HostAddr is the address the orchestrator should listen on so that the container
	// reaches it as host.docker.internal (never wider than needed).
	HostAddr(ctx context.Context) (string, error)
	// Close stops the container, keeping or removing it per the container.keepOn* policy.
	// Mounted directories always persist.
	Close(ctx context.Context, succeeded bool) error
}

// ExecRequest is one command to run in the sandbox.
type ExecRequest struct {
	Command string            // run through `bash -lc` (sh -c when bash is missing)
	Dir     string            // working directory; "" means WorkMount
	Env     map[string]string // extra environment for this command only
	Timeout time.Duration     // 0 means no per-command timeout (the ctx still applies)
	Stdin   []byte
	User    string // "" means the image's default user
}

// ExecResult is what a command did.
type ExecResult struct {
	ExitCode  int
	Stdout    string // bounded; the full text is at OutputPath
	Stderr    string
	Truncated bool
	TimedOut  bool // killed (with its process tree) after Timeout
	Duration  time.Duration
	// OutputPath is the host path of the full output under the logs directory, "" when not kept.
	OutputPath string
}

// Student follows the tutorial for one iteration.
type Student interface {
	Attempt(ctx context.Context, task StudentTask) (StudentResult, error)
}

// Mentor answers a stuck Student.
type Mentor interface {
	Advise(ctx context.Context, task MentorTask) (MentorResult, error)
}

// StudentTask is everything a Student gets for one iteration (spec 4.1).
type StudentTask struct {
	RunID     string
	Iteration int
	Tutorial  *tutorial.Tutorial
	Prompt    string   // the rendered Student prompt (spec structure)
	Notes     []string // accumulated mentor notes, oldest first
	Behavior  config.StudentBehavior
	Sandbox   Sandbox
	Events    Emitter  // finer events as they happen (commands, steps); never nil
	Callback  Callback // the wrapper API of this run; nil when the loop serves none
}

// MentorTask is everything a Mentor gets (spec 6.1).
type MentorTask struct {
	RunID     string
	Iteration int
	Tutorial  *tutorial.Tutorial
	Prompt    string // the rendered Mentor prompt (spec structure)
	Student   StudentResult
	Notes     []string // notes given in earlier iterations
	Events    Emitter
	Sandbox   Sandbox  // the Mentor may read files there; it must not change anything
	Callback  Callback // nil when the loop serves no wrapper API
}

// MentorResult is the Mentor's answer: plain-text notes (spec 6 output format).
type MentorResult struct {
	Notes string
	// Fixes, when set, holds one suggested tutorial fix per Finding of the Student result
	// (same order); the rule-based Mentor fills it, LLM Mentors may leave it empty.
	Fixes []string
	// Unresolvable: the Mentor found no way forward (6.E3) or only a paid service (6.E4).
	Unresolvable bool
	LLMCalls     []LLMCall
}

// Emitter receives loop events. Implementations must not block the loop.
type Emitter interface {
	Emit(Event)
}

// EmitterFunc adapts a function to Emitter.
type EmitterFunc func(Event)

// Emit calls f.
func (f EmitterFunc) Emit(e Event) { f(e) }

// Discard is an Emitter that drops every event.
var Discard Emitter = EmitterFunc(func(Event) {})

// Callback is the wrapper HTTP API as an agent runtime sees it: where wrappers inside the
// container reach the orchestrator, with which token, and what they posted back.
type Callback interface {
	// URL is the API's base URL as seen from inside the container
	// (http://host.docker.internal:PORT).
	URL() string
	// Token is the run's bearer token; pass it to wrappers through ExecRequest.Env only.
	Token() string
	// StudentResult blocks until a wrapper posts POST /api/student/result for iteration,
	// and returns the raw body.
	StudentResult(ctx context.Context, iteration int) (json.RawMessage, error)
	// MentorResult blocks until a wrapper posts POST /api/mentor/result for iteration.
	MentorResult(ctx context.Context, iteration int) (json.RawMessage, error)
}
