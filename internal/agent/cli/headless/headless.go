// Package headless knows how each LLM CLI runs without a terminal: its command line per
// role, how to install it, how its errors read, and the result a wrapper posts back. It
// is shared by the wrapper inside the container (wrappers/smile-wrapper) and the CLI
// runtime on the host (internal/agent/cli), and depends on the standard library only.
package headless

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
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
// Enforced with each pinned CLI's own permission mechanism (clis.json), not the prompt:
//
//   - claude: --disallowedTools removes tools from the model's tool list; --allowedTools
//     pre-approves tools so headless -p runs them without a prompt (denied otherwise).
//     Agent (formerly Task) is removed, so a sub-agent cannot bring removed tools back.
//     --setting-sources user: the tutorial's .claude/ settings, hooks and permission
//     rules are never loaded (code.claude.com/docs/en/cli-reference, settings).
//   - codex: the Student runs with --sandbox danger-full-access (the container is the
//     sandbox) and web_search="disabled". codex reads files only by running shell
//     commands, so a codex Mentor could not be research-only: the codex Mentor uses the
//     api runtime instead (see cli.New) and Command refuses to build it.
//   - gemini: headless mode denies every tool the non-interactive policy does not allow;
//     --allowed-tools approves the role's tools (policies/non-interactive.toml@v0.56.0),
//     and a system settings file (GEMINI_CLI_SYSTEM_SETTINGS_PATH) excludes the role's
//     forbidden tools from discovery (tools.exclude, merged by union, so a workspace
//     settings file cannot bring them back). --skip-trust: 0.56 refuses a headless run in
//     an untrusted folder (exit 55).
var (
	claudeStudentAllowed    = "Bash,Read,Write,Edit,Glob,Grep,NotebookEdit,TodoWrite"
	claudeStudentDisallowed = "WebSearch,WebFetch,Agent,Task"
	claudeMentorAllowed     = "Read,Glob,Grep,WebSearch,WebFetch"
	claudeMentorDisallowed  = "Bash,Write,Edit,NotebookEdit,Agent,Task,Monitor"
	geminiStudentAllowed    = "run_shell_command,read_file,read_many_files,write_file,replace,list_directory,glob,grep_search"
	geminiMentorAllowed     = "read_file,read_many_files,list_directory,glob,grep_search,google_web_search,web_fetch"
	geminiStudentExcluded   = []string{"google_web_search", "web_fetch"}
	geminiMentorExcluded    = []string{"run_shell_command", "write_file", "replace"}
)

// ErrNoCodexMentor: the codex CLI cannot be a research-only Mentor (it reads files only
// through shell commands); the codex Mentor runs in the api runtime.
var ErrNoCodexMentor = errors.New("the codex CLI reads files only by running shell commands, so it cannot be a research-only Mentor: the codex Mentor uses the api runtime")

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
	// Files are written before the run, and Env points the CLI at them (gemini's system
	// settings file). A file name is relative to a fresh directory the runner creates;
	// "{dir}" in an Env value is replaced with that directory.
	Files map[string][]byte
	Env   map[string]string
	// IsolatedCwd runs the CLI in that fresh directory, with its usual working directory
	// added to the readable ones: the gemini Mentor, so the tutorial's own .gemini/
	// settings and hooks (workspace settings come from the working directory) never load.
	IsolatedCwd bool
}

// Command returns the CLI invocation for a headless run with machine-readable output:
// claude -p … --output-format stream-json --verbose; codex exec --json …;
// gemini -p … --output-format stream-json. Every command line it builds is accepted by
// the pinned CLI (clis.json; TestCommandLinesAreAcceptedByThePinnedCLIs).
func Command(provider, role, prompt, model string) (Invocation, error) {
	if role != RoleStudent && role != RoleMentor {
		return Invocation{}, fmt.Errorf("unknown role %q", role)
	}
	// A prompt that starts with "-" would be read as an option (commander, yargs): it
	// goes through stdin like a long one.
	long := len(prompt) > MaxArgPrompt || strings.HasPrefix(prompt, "-")
	inv := Invocation{Name: provider}
	if long {
		inv.Stdin = prompt
	}
	var args []string
	switch provider {
	case Claude:
		// -p (--print) is a switch; the prompt is the positional argument, or stdin. It
		// comes first: --allowedTools and --add-dir are variadic and would swallow it.
		args = []string{"-p"}
		if !long {
			args = append(args, prompt)
		}
		args = append(args, "--output-format", "stream-json", "--verbose", "--setting-sources", "user")
		if role == RoleStudent {
			args = append(args, "--permission-mode", "acceptEdits", "--allowedTools", claudeStudentAllowed, "--disallowedTools", claudeStudentDisallowed)
		} else {
			// --bare: no hooks at all (not even managed ones the Student could write with
			// sudo); a fresh CLAUDE_CONFIG_DIR: no user settings the Student wrote.
			args = append(args, "--bare", "--permission-mode", "default", "--allowedTools", claudeMentorAllowed, "--disallowedTools", claudeMentorDisallowed)
			inv.Files = map[string][]byte{"claude-config/.keep": nil}
			inv.Env = map[string]string{"CLAUDE_CONFIG_DIR": "{dir}/claude-config"}
		}
	case Codex:
		if role == RoleMentor {
			return Invocation{}, ErrNoCodexMentor
		}
		args = []string{"exec", "--json", "--skip-git-repo-check", "--sandbox", "danger-full-access", "-c", `web_search="disabled"`}
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
		args = []string{"-p", p, "--output-format", "stream-json", "--skip-trust"}
		exclude := geminiStudentExcluded
		if role == RoleStudent {
			args = append(args, "--allowed-tools", geminiStudentAllowed)
		} else {
			args = append(args, "--allowed-tools", geminiMentorAllowed)
			exclude = geminiMentorExcluded
			inv.IsolatedCwd = true
		}
		// System settings win over user and workspace ones; hooksConfig.enabled=false
		// runs no hook from any settings file (settingsSchema.ts@v0.56.0).
		settings, _ := json.Marshal(map[string]any{
			"tools":       map[string]any{"exclude": exclude},
			"hooksConfig": map[string]any{"enabled": false},
			"privacy":     map[string]any{"usageStatisticsEnabled": false},
		})
		inv.Files = map[string][]byte{"gemini-settings.json": settings}
		inv.Env = map[string]string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "{dir}/gemini-settings.json"}
		if role == RoleMentor {
			// A fresh home: no user settings or extensions the Student wrote (paths.ts).
			inv.Files["gemini-home/.keep"] = nil
			inv.Env["GEMINI_CLI_HOME"] = "{dir}/gemini-home"
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
// First it announces the shell to the wrapper's key gate (SMILE_GATE), from the shell's
// own process through bash's /dev/tcp and before any startup file the tutorial may have
// written: the gate then never lets this process, or what it execs, use the model. Then
// it unsets SMILE_PROXY_VARS (the gate's address and placeholder key): the CLI needs
// them, the commands it runs for the tutorial must not inherit them.
const Shim = `# smile-loop exit-code shim (sourced; records bash -c commands and their exit codes)
if [ -n "${SMILE_GATE:-}" ] && [ -n "${BASH_VERSION:-}" ]; then
  eval 'if exec {__smile_fd}<>"/dev/tcp/${SMILE_GATE%:*}/${SMILE_GATE##*:}"; then
    printf "GET /.smile/shell HTTP/1.0\r\n\r\n" >&"$__smile_fd"; read -r -t 5 __smile_l <&"$__smile_fd"; exec {__smile_fd}>&-
  fi' 2>/dev/null
  unset __smile_fd __smile_l
fi
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

// Attempt is one failed run that the wrapper retried (it had made no tool call), with
// what it cost: its tokens and USD count in the audit trail like the final run's.
type Attempt struct {
	ExitCode     int           `json:"exitCode"`
	Kind         string        `json:"kind"`
	Message      string        `json:"message"`
	Waited       time.Duration `json:"waited"`
	Model        string        `json:"model,omitempty"`
	InputTokens  int           `json:"inputTokens,omitempty"`
	OutputTokens int           `json:"outputTokens,omitempty"`
	CostUSD      float64       `json:"costUsd,omitempty"`
	DurationMS   int64         `json:"durationMs,omitempty"`
}

// RunError is the provider's failure as the CLI reported it.
type RunError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}
