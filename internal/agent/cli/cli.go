// Package cli is the CLI runtime (llmRuntime "cli", the spec's default): the Student and
// the Mentor are the provider's own CLI (claude, codex, gemini) running headless inside
// the learner container, driven by smile-wrapper, which reports back through the
// loop's wrapper API. This package turns what the wrapper posts into the loop's
// StudentResult and MentorResult.
package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// File is a file copied into the container before each run (the wrapper, a CLI).
type File struct {
	HostPath string // read from the host; or Data
	Data     []byte
	Name     string // file name under Options.InstallDir/bin
}

// Options configure the CLI runtime.
type Options struct {
	Provider     string // claude, codex, gemini
	StudentModel string // "" lets the CLI choose
	MentorModel  string
	// Wrapper is the wrapper command in the container (default "smile-wrapper", on the
	// PATH of the smile-base image).
	Wrapper string
	// InstallDir is where the runtime puts the shim and Install files in the container
	// (default /tmp/smile); its bin/ goes first on the PATH.
	InstallDir string
	Install    []File
	// Env is extra environment for the wrapper and the CLI (tests point the CLI at a
	// fake API with it). Never a real key: the key proxy's token reaches the wrapper on
	// its standard input.
	Env map[string]string
	// Timeout bounds one run of the wrapper (default 30m); ResultWait bounds the wait
	// for its posted result after it exits (default 15s).
	Timeout    time.Duration
	ResultWait time.Duration
	// MaxAttempts and Backoff tune the wrapper's retries of rate limits and auth errors
	// (defaults 4 and 10s).
	MaxAttempts int
	Backoff     time.Duration
	Logger      *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Wrapper == "" {
		o.Wrapper = "smile-wrapper"
	}
	if o.InstallDir == "" {
		o.InstallDir = "/tmp/smile"
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Minute
	}
	if o.ResultWait <= 0 {
		o.ResultWait = 15 * time.Second
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 4
	}
	if o.Backoff <= 0 {
		o.Backoff = 10 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// MissingCLIError: the provider's CLI is not installed in the learner image (4.E1).
type MissingCLIError struct {
	CLI     string
	Install string
	Image   string // when known
}

func (e *MissingCLIError) Error() string {
	return fmt.Sprintf("the %s CLI is not installed in the learner container: %s; or set llmRuntime \"api\" to call the provider's API from the orchestrator", e.CLI, e.Install)
}

// EnvironmentUnavailable marks the error for exit code 3.
func (e *MissingCLIError) EnvironmentUnavailable() bool { return true }

// WrapperError: the wrapper could not run or report (not the LLM's fault).
type WrapperError struct {
	ExitCode int
	Stderr   string
}

func (e *WrapperError) Error() string {
	return fmt.Sprintf("smile-wrapper failed in the container (exit %d): %s", e.ExitCode, strings.TrimSpace(e.Stderr))
}

// EnvironmentUnavailable: a wrapper that cannot run means the image is not usable.
func (e *WrapperError) EnvironmentUnavailable() bool { return e.ExitCode == 126 || e.ExitCode == 127 }

// Student runs the provider's CLI as the Student.
type Student struct {
	opts  Options
	proxy *proxy // set by New: the key-holding proxy, started on first use
}

// Mentor runs the provider's CLI as the Mentor, with read and web tools only.
type Mentor struct {
	opts  Options
	proxy *proxy
}

var (
	_ loop.Student = (*Student)(nil)
	_ loop.Mentor  = (*Mentor)(nil)
)

// NewStudent returns the CLI runtime's Student.
func NewStudent(opts Options) *Student { return &Student{opts: opts.withDefaults()} }

// NewMentor returns the CLI runtime's Mentor.
func NewMentor(opts Options) *Mentor { return &Mentor{opts: opts.withDefaults()} }

// runWrapper installs the shim (and any Install files), runs the wrapper for role and
// returns what it posted.
func runWrapper(ctx context.Context, o Options, px *proxy, sb loop.Sandbox, cb loop.Callback, role string, iteration int, model string) (headless.Payload, error) {
	var p headless.Payload
	if cb == nil {
		return p, errors.New("cli runtime: the loop serves no wrapper API (task.Callback is nil)")
	}
	if sb == nil {
		return p, errors.New("cli runtime: task has no sandbox")
	}
	shim := path.Join(o.InstallDir, "shim.sh")
	if err := sb.WriteFile(ctx, shim, []byte(headless.Shim), 0o644); err != nil {
		return p, fmt.Errorf("install exit-code shim: %w", err)
	}
	// Login shells (claude's Bash tool runs bash -l) read /etc/profile.d, not BASH_ENV.
	// Best effort: an image where this cannot be written still gets BASH_ENV.
	_ = sb.WriteFile(ctx, "/etc/profile.d/zz-smile-shim.sh", []byte(`[ -n "${SMILE_CMDLOG:-}" ] && [ -r `+shim+` ] && . `+shim+"\n"), 0o644)
	for _, f := range o.Install {
		data := f.Data
		if data == nil {
			var err error
			if data, err = os.ReadFile(f.HostPath); err != nil {
				return p, fmt.Errorf("install %s: %w", f.Name, err)
			}
		}
		if err := sb.WriteFile(ctx, path.Join(o.InstallDir, "bin", f.Name), data, 0o755); err != nil {
			return p, fmt.Errorf("install %s in the container: %w", f.Name, err)
		}
	}
	env := map[string]string{
		"SMILE_API_URL": cb.URL(),
		// The turn's token goes on the wrapper's standard input, not in its environment,
		// which the tutorial's processes (same user) could read.
		"SMILE_TOKEN_STDIN":  "1",
		"SMILE_PROVIDER":     o.Provider,
		"SMILE_SHIM":         shim,
		"SMILE_MAX_ATTEMPTS": fmt.Sprint(o.MaxAttempts),
		"SMILE_BACKOFF":      o.Backoff.String(),
		"SMILE_WORKDIR":      loop.WorkMount,
		"SMILE_ADD_DIRS":     loop.TutorialMount,
		// The CLI stops a little before the wrapper is killed, so its partial stream is
		// still posted.
		"SMILE_CLI_TIMEOUT": max(o.Timeout-30*time.Second, o.Timeout*9/10).String(),
	}
	if role == headless.RoleMentor {
		// The Mentor starts among the tutorial's files and may read the Student's work.
		env["SMILE_WORKDIR"], env["SMILE_ADD_DIRS"] = loop.TutorialMount, loop.WorkMount
	}
	if model != "" {
		env["SMILE_MODEL"] = model
	}
	for k, v := range o.Env {
		env[k] = v
	}
	stdin := cb.Token() + "\n"
	if px != nil {
		// The wrapper gets the proxy's address in its environment and the run token on
		// its standard input; the CLI gets only the wrapper's key gate and a placeholder,
		// so nothing the tutorial's commands can read lets them spend the run's budget.
		penv, tok, err := px.env(ctx, sb)
		if err != nil {
			return p, err
		}
		for k, v := range penv {
			env[k] = v
		}
		stdin += tok + "\n"
	}
	res, err := sb.Exec(ctx, loop.ExecRequest{
		Command: fmt.Sprintf(`PATH=%s/bin:"$PATH" exec %s %s`, o.InstallDir, o.Wrapper, role),
		Env:     env,
		Stdin:   []byte(stdin),
		Timeout: o.Timeout,
	})
	if err != nil {
		return p, fmt.Errorf("run smile-wrapper: %w", err)
	}
	if res.ExitCode != 0 {
		all := res.Stderr + "\n" + res.Stdout
		if i := strings.Index(all, headless.MissingCLIMarker); i >= 0 {
			return p, &MissingCLIError{CLI: o.Provider, Install: headless.Install(o.Provider)}
		}
		if res.ExitCode == 127 && strings.Contains(all, o.Wrapper) {
			return p, &WrapperError{ExitCode: 127, Stderr: "smile-wrapper is not installed in the image: use the smile-base image or llmRuntime \"api\""}
		}
		if res.TimedOut {
			return p, fmt.Errorf("smile-wrapper did not finish within %s", o.Timeout)
		}
		return p, &WrapperError{ExitCode: res.ExitCode, Stderr: loop.ClipMiddle(res.Stderr, 2000)}
	}
	wctx, cancel := context.WithTimeout(ctx, o.ResultWait)
	defer cancel()
	var raw json.RawMessage
	if role == headless.RoleStudent {
		raw, err = cb.StudentResult(wctx, iteration)
	} else {
		raw, err = cb.MentorResult(wctx, iteration)
	}
	if err != nil {
		return p, fmt.Errorf("wait for the wrapper's %s result: %w", role, err)
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("decode the wrapper's %s result: %w", role, err)
	}
	return p, nil
}

// llmCalls turns a payload into the audit trail's calls: one per failed, retried run and
// one for the final run, each with its tokens, duration and cost where its stream gave
// them (a retried run is billed too).
func llmCalls(agent string, p headless.Payload, sum headless.Summary, model string) []loop.LLMCall {
	var calls []loop.LLMCall
	for _, a := range p.Attempts {
		calls = append(calls, loop.LLMCall{Agent: agent, Provider: p.Provider, Model: cmp.Or(a.Model, model),
			TokensIn: a.InputTokens, TokensOut: a.OutputTokens, CostUSD: a.CostUSD,
			Duration: time.Duration(a.DurationMS) * time.Millisecond, Error: a.Kind + ": " + a.Message})
	}
	c := loop.LLMCall{Agent: agent, Provider: p.Provider, Model: cmp.Or(sum.Model, model),
		TokensIn: sum.InputTokens, TokensOut: sum.OutputTokens, CostUSD: sum.CostUSD,
		Duration: time.Duration(firstPositive(sum.DurationMS, p.DurationMS)) * time.Millisecond}
	if p.Error != nil {
		c.Error = p.Error.Kind + ": " + p.Error.Message
	}
	calls = append(calls, c)
	for i := range calls { // codex and gemini report no cost: estimate it from the price table
		if calls[i].CostUSD == 0 {
			calls[i].CostUSD, _ = provider.Cost(calls[i].Model, provider.Usage{Input: calls[i].TokensIn, Output: calls[i].TokensOut})
		}
	}
	return calls
}

func firstPositive(v ...int64) int64 {
	for _, x := range v {
		if x > 0 {
			return x
		}
	}
	return 0
}
