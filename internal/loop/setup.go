package loop

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// SetupTimeout bounds each setup command.
const SetupTimeout = 10 * time.Minute

// SetupError says a command of the configuration's setup list failed: the environment
// could not be prepared, which is never a gap of the tutorial (exit 3).
type SetupError struct {
	Index    int // 1-based
	Command  string
	ExitCode int
	TimedOut bool
	Output   string // its end
}

func (e *SetupError) Error() string {
	what := fmt.Sprintf("exited with %d", e.ExitCode)
	if e.TimedOut {
		what = fmt.Sprintf("did not finish within %s", SetupTimeout)
	}
	msg := fmt.Sprintf("setup command %d (`%s`) %s: the environment could not be prepared; fix the command in smile.json's setup list or use an image that already has what it installs", e.Index, e.Command, what)
	if e.Output != "" {
		msg += "\n" + e.Output
	}
	return msg
}

// EnvironmentUnavailable maps the error to exit code 3.
func (e *SetupError) EnvironmentUnavailable() bool { return true }

// runSetup runs the setup commands, in order, as the image's user, in the work directory
// of a fresh container: what the tutorial's declared prerequisites need before it starts.
func runSetup(ctx context.Context, sb Sandbox, cmds []string, events Emitter) error {
	for i, c := range cmds {
		if strings.TrimSpace(c) == "" {
			continue
		}
		start := time.Now()
		r, err := sb.Exec(ctx, ExecRequest{Command: "set -o pipefail; " + c, Timeout: SetupTimeout, Env: map[string]string{"DEBIAN_FRONTEND": "noninteractive"}})
		if err != nil {
			return fmt.Errorf("setup command %d: %w", i+1, err)
		}
		rec := CommandRecord{Step: "setup", Command: c, ExitCode: r.ExitCode, TimedOut: r.TimedOut, Duration: time.Since(start), OutputPath: r.OutputPath}
		events.Emit(NewEvent(EventCommand, rec))
		if r.ExitCode != 0 || r.TimedOut {
			out := strings.TrimSpace(r.Stdout + "\n" + r.Stderr)
			if len(out) > 1500 {
				out = "…" + out[len(out)-1500:]
			}
			return &SetupError{Index: i + 1, Command: c, ExitCode: r.ExitCode, TimedOut: r.TimedOut, Output: out}
		}
	}
	return nil
}
