package wrapper

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
)

// CheckPrompt is the prompt of `smile-wrapper check`.
const CheckPrompt = "Reply with the single word OK."

// CheckResult is what `smile-wrapper check` prints: the command line it ran and how the
// CLI ended.
type CheckResult struct {
	Provider string             `json:"provider"`
	Role     string             `json:"role"`
	Version  string             `json:"pinnedVersion"`
	Command  []string           `json:"command,omitempty"`
	Skipped  string             `json:"skipped,omitempty"`
	ExitCode int                `json:"exitCode"`
	Error    *headless.RunError `json:"error,omitempty"`
	Events   int                `json:"events"`
}

// check runs the provider's CLI once exactly as the wrapper runs it for role (the same
// command line, settings files and environment), without the orchestrator: the CLI talks
// to whatever endpoint its environment names (the image smoke test's fake API). It prints
// a CheckResult and fails (exit 1) when the CLI refused its command line.
func check(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) != 1 || (args[0] != headless.RoleStudent && args[0] != headless.RoleMentor) {
		fmt.Fprintln(stderr, "usage: smile-wrapper check student|mentor (SMILE_PROVIDER names the CLI)")
		return headless.ExitUsage
	}
	role, provider := args[0], getenv("SMILE_PROVIDER")
	res := CheckResult{Provider: provider, Role: role}
	if s, ok := headless.Spec(provider); ok {
		res.Version = s.Version
	}
	inv, err := headless.Command(provider, role, CheckPrompt, getenv("SMILE_MODEL"))
	if errors.Is(err, headless.ErrNoCodexMentor) {
		res.Skipped = err.Error()
		return printCheck(stdout, stderr, res, 0)
	}
	if err != nil {
		fmt.Fprintln(stderr, "smile-wrapper:", err)
		return headless.ExitUsage
	}
	if dirs := getenv("SMILE_ADD_DIRS"); dirs != "" {
		inv = headless.AddDirs(inv, provider, strings.Split(dirs, ","))
	}
	res.Command = append([]string{inv.Name}, inv.Args...)
	path, err := exec.LookPath(inv.Name)
	if err != nil {
		fmt.Fprintf(stderr, "%s%s (install: %s)\n", headless.MissingCLIMarker, inv.Name, headless.Install(provider))
		return headless.ExitMissingCLI
	}
	p, sum := runOnce(ctx, path, inv, provider, role, getenv)
	res.ExitCode, res.Error, res.Events = p.ExitCode, p.Error, sum.Events
	code := 0
	if p.Error != nil && p.Error.Kind == headless.ErrUsage {
		fmt.Fprintf(stderr, "smile-wrapper: %s refused the command line the wrapper builds: %s\n", provider, p.Error.Message)
		code = 1
	}
	return printCheck(stdout, stderr, res, code)
}

func printCheck(stdout, stderr io.Writer, res CheckResult, code int) int {
	data, err := json.Marshal(res)
	if err != nil {
		fmt.Fprintln(stderr, "smile-wrapper:", err)
		return headless.ExitUsage
	}
	fmt.Fprintln(stdout, string(data))
	return code
}
