// Package headless knows how each LLM CLI runs without a terminal: its command line per
// role, how to install it, how its errors read, and the result a wrapper posts back. It
// is shared by the wrapper inside the container (wrappers/smile-wrapper) and the CLI
// runtime on the host (internal/agent/cli), and depends on the standard library only.
package headless

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Roles a CLI plays.
const (
	RoleStudent = "student"
	RoleMentor  = "mentor"
)

// Providers (the llmProvider values with a CLI).
const (
	Claude = "claude"
	Codex  = "codex"
	Gemini = "gemini"
)

// Exit codes of the wrapper besides the CLI's own.
const (
	ExitMissingCLI = 127 // the provider's CLI is not installed in the image
	ExitUsage      = 2   // wrong invocation or environment of the wrapper
	ExitAPI        = 3   // the wrapper API refused or was unreachable
)

// MissingCLIMarker starts the wrapper's stderr line when the CLI is missing.
const MissingCLIMarker = "smile-wrapper: missing CLI: "

// Tool permissions per CLI and role. The Student has no web tools (spec 4.5, 4.S1); the
// Mentor may read and search the web but not write files or run commands (story 6).
// Enforced with each CLI's own permission flags, not only through the prompt:
//
//   - claude: --disallowedTools removes tools from the model's tool list; --allowedTools
//     pre-approves tools so headless -p runs them without a prompt (denied otherwise).
//     Task is removed too, so a sub-agent cannot bring the removed tools back.
//     (docs.anthropic.com/en/docs/claude-code/cli-reference, iam#tool-specific-permission-rules)
//   - codex: the Student runs with --sandbox danger-full-access, because codex's own
//     Landlock/seccomp sandbox fails inside Docker and the container is the sandbox;
//     web search stays off (tools.web_search=false). The Mentor runs with
//     --sandbox read-only: it can look but every write is refused.
//     (developers.openai.com/codex/cli/reference, codex-rs/exec)
//   - gemini: headless mode denies every tool that is not approved; --allowed-tools lists
//     the approved ones (google-gemini/gemini-cli#9114, docs/cli/headless.md).
var (
	claudeStudentAllowed    = "Bash,Read,Write,Edit,MultiEdit,Glob,Grep,LS,TodoWrite"
	claudeStudentDisallowed = "WebSearch,WebFetch,Task"
	claudeMentorAllowed     = "Read,Glob,Grep,LS,WebSearch,WebFetch"
	claudeMentorDisallowed  = "Bash,Write,Edit,MultiEdit,NotebookEdit,Task"
	geminiStudentAllowed    = "run_shell_command,read_file,read_many_files,write_file,replace,list_directory,glob,search_file_content"
	geminiMentorAllowed     = "read_file,read_many_files,list_directory,glob,search_file_content,google_web_search,web_fetch"
)

// MaxArgPrompt is the longest prompt passed as a command-line argument. Linux refuses a
// single argument over 128 KiB (MAX_ARG_STRLEN) and a tutorial may have 100 KiB, so a
// longer prompt goes through standard input, which each CLI reads in headless mode.
const MaxArgPrompt = 64 << 10

// stdinNote is gemini's -p value when the prompt comes on stdin (gemini appends -p to
// the standard input).
const stdinNote = "Follow the instructions given above."

// Invocation is how to run a CLI headless.
type Invocation struct {
	Name  string
	Args  []string
	Stdin string // the prompt, when too long for an argument
}

// Command returns the CLI invocation for a headless run with machine-readable output:
// claude -p … --output-format stream-json --verbose; codex exec --json …;
// gemini -p … --output-format stream-json.
func Command(provider, role, prompt, model string) (Invocation, error) {
	if role != RoleStudent && role != RoleMentor {
		return Invocation{}, fmt.Errorf("unknown role %q", role)
	}
	long := len(prompt) > MaxArgPrompt
	inv := Invocation{Name: provider}
	if long {
		inv.Stdin = prompt
	}
	var args []string
	switch provider {
	case Claude:
		// -p (--print) is a switch; the prompt is the positional argument, or stdin.
		args = []string{"-p"}
		if !long {
			args = append(args, prompt)
		}
		args = append(args, "--output-format", "stream-json", "--verbose")
		if role == RoleStudent {
			args = append(args, "--permission-mode", "acceptEdits", "--allowedTools", claudeStudentAllowed, "--disallowedTools", claudeStudentDisallowed)
		} else {
			args = append(args, "--permission-mode", "default", "--allowedTools", claudeMentorAllowed, "--disallowedTools", claudeMentorDisallowed)
		}
	case Codex:
		args = []string{"exec", "--json", "--skip-git-repo-check"}
		if role == RoleStudent {
			args = append(args, "--sandbox", "danger-full-access", "-c", "tools.web_search=false")
		} else {
			args = append(args, "--sandbox", "read-only", "-c", "tools.web_search=true")
		}
		if model != "" {
			args = append(args, "--model", model)
		}
		// The prompt is the positional argument; "-" reads it from stdin.
		p := prompt
		if long {
			p = "-"
		}
		inv.Args = append(args, "--", p)
		return inv, nil
	case Gemini:
		p := prompt
		if long {
			p = stdinNote
		}
		args = []string{"-p", p, "--output-format", "stream-json"}
		if role == RoleStudent {
			args = append(args, "--allowed-tools", geminiStudentAllowed)
		} else {
			args = append(args, "--allowed-tools", geminiMentorAllowed)
		}
	default:
		return Invocation{}, fmt.Errorf("llmProvider %q has no CLI runtime: use claude, codex or gemini", provider)
	}
	if model != "" {
		args = append(args, "--model", model)
	}
	inv.Args = args
	return inv, nil
}

// AddDirs lets the CLI's file tools reach directories besides its working directory
// (claude --add-dir, gemini --include-directories; both confine file tools to the
// workspace otherwise). codex reads through shell commands and needs no flag.
func AddDirs(inv Invocation, provider string, dirs []string) Invocation {
	if len(dirs) == 0 {
		return inv
	}
	args := append([]string(nil), inv.Args...)
	switch provider {
	case Claude:
		for _, d := range dirs {
			args = append(args, "--add-dir", d)
		}
	case Gemini:
		args = append(args, "--include-directories", strings.Join(dirs, ","))
	case Codex:
		return inv
	}
	inv.Args = args
	return inv
}

// Install says how to get a provider's CLI.
func Install(provider string) string {
	switch provider {
	case Claude:
		return "npm install -g @anthropic-ai/claude-code (or use the smile-base image)"
	case Codex:
		return "npm install -g @openai/codex (or use the smile-base image)"
	case Gemini:
		return "npm install -g @google/gemini-cli (or use the smile-base image)"
	}
	return "use llmProvider claude, codex or gemini"
}

// Error kinds of a failed CLI run.
const (
	ErrRateLimit = "rate_limit"
	ErrAuth      = "auth"
	ErrOther     = "error"
)

var (
	reRate = regexp.MustCompile(`(?i)\b429\b|\b529\b|rate[ _-]?limit|too many requests|resource_exhausted|overloaded|quota exceeded|exceeded retry limit`)
	reAuth = regexp.MustCompile(`(?i)\b401\b|\b403\b|unauthori[sz]ed|authentication_error|invalid api key|invalid x-api-key|api key not valid|permission_denied|please run /login|incorrect api key`)
)

// ClassifyError names the kind of a provider error message: rate limit, auth or other.
func ClassifyError(msg string) string {
	switch {
	case reRate.MatchString(msg):
		return ErrRateLimit
	case reAuth.MatchString(msg):
		return ErrAuth
	}
	return ErrOther
}

// Retryable reports whether an error kind is worth retrying (4.E2, 6.E1).
func Retryable(kind string) bool { return kind == ErrRateLimit || kind == ErrAuth }

// ShimRecord is one command the exit-code shim saw: the string bash ran with -c, its
// exit code and duration.
type ShimRecord struct {
	Command    string `json:"command"`
	ExitCode   int    `json:"exitCode"`
	DurationMS int64  `json:"durationMs"`
}

// ParseShimLog reads the shim's log: one "rc<TAB>ms<TAB>base64(command)" line per command.
func ParseShimLog(data string) []ShimRecord {
	var out []ShimRecord
	for _, line := range strings.Split(data, "\n") {
		f := strings.Split(strings.TrimSpace(line), "\t")
		if len(f) != 3 {
			continue
		}
		rc, err1 := strconv.Atoi(f[0])
		ms, _ := strconv.ParseInt(f[1], 10, 64)
		cmd, err2 := base64.StdEncoding.DecodeString(f[2])
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, ShimRecord{Command: string(cmd), ExitCode: rc, DurationMS: ms})
	}
	return out
}

// Shim is the exit-code shell shim. The wrapper points BASH_ENV at it (non-interactive
// shells such as gemini's `bash -c`) and the image sources it from /etc/profile.d (login
// shells such as claude's Bash tool), with SMILE_CMDLOG set only for the CLI it runs.
// Every top-level `bash -c` then appends its command and exit code to the log, which
// gives exit codes for CLIs whose streams hide them (claude, gemini).
//
// It also unsets SMILE_PROXY_VARS (the key proxy's base URL and run token): the CLI
// needs them, the commands it runs for the tutorial must not inherit them.
const Shim = `# smile-loop exit-code shim (sourced; records bash -c commands and their exit codes)
if [ -n "${SMILE_PROXY_VARS:-}" ]; then unset $SMILE_PROXY_VARS SMILE_PROXY_VARS; fi
if [ -n "${SMILE_CMDLOG:-}" ] && [ -n "${BASH_EXECUTION_STRING:-}" ] && [ -z "${__SMILE_SHIM_ACTIVE:-}" ]; then
  export __SMILE_SHIM_ACTIVE=1
  __smile_t0=$(date +%s%N 2>/dev/null || echo 0)
  __smile_record() {
    __smile_rc=$?
    __smile_t1=$(date +%s%N 2>/dev/null || echo 0)
    printf '%s\t%s\t%s\n' "$__smile_rc" "$(( (__smile_t1 - __smile_t0) / 1000000 ))" \
      "$(printf '%s' "$BASH_EXECUTION_STRING" | base64 -w0 2>/dev/null)" >> "$SMILE_CMDLOG" 2>/dev/null
    return $__smile_rc
  }
  trap __smile_record EXIT
fi
`

// Payload is what the wrapper posts to /api/{student,mentor}/result.
type Payload struct {
	Provider   string       `json:"provider"`
	Role       string       `json:"role"`
	Iteration  int          `json:"iteration"`
	ExitCode   int          `json:"exitCode"`
	DurationMS int64        `json:"durationMs"`
	Stream     string       `json:"stream"`           // the CLI's stdout: its JSON event stream
	Stderr     string       `json:"stderr,omitempty"` // tail of stderr
	Commands   []ShimRecord `json:"commands,omitempty"`
	Attempts   []Attempt    `json:"attempts,omitempty"` // failed runs retried before this one
	Error      *RunError    `json:"error,omitempty"`    // set when the final run failed
	Truncated  bool         `json:"truncated,omitempty"`
}

// Attempt is one failed run that the wrapper retried.
type Attempt struct {
	ExitCode int           `json:"exitCode"`
	Kind     string        `json:"kind"`
	Message  string        `json:"message"`
	Waited   time.Duration `json:"waited"`
}

// RunError is the provider's failure as the CLI reported it.
type RunError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}
