// Command fakecli stands in for the claude, codex and gemini CLIs in tests (installed
// under those names). It behaves as the version pinned in images/smile-base, as recorded
// in internal/agent/cli/headless/clis.json: it parses its command line with that
// version's accepted flags and refuses anything else exactly as the real CLI does (same
// message, stream, help and exit code), refuses a headless gemini run in an untrusted
// folder, and emits that version's stream events. It really runs the commands it
// "decides" on with bash -c, so the exit-code shim and the container see real processes.
// No model is involved:
//
//   - the Student runs the prompt's "FIX$ cmd" lines (mentor notes) and then its
//     "$ cmd" lines (the tutorial), stopping at the first failure with ask_mentor;
//   - the Mentor answers notes naming the failed command, plus "FIX$ cmd" when the
//     prompt (the tutorial) carries "FAKECLI:MENTOR_FIX=cmd";
//   - "FAKECLI:RATE_LIMIT=N" in the prompt fails the first N runs with a rate limit;
//     "FAKECLI:AUTH" always fails authentication at the API (401);
//     "FAKECLI:NOAUTH" exits before any work as the CLI does with no credentials;
//     "FAKECLI:WORK_THEN_FAIL" runs the first command, then fails with a rate limit;
//   - when the provider's base-URL variable is set it first calls that URL with the
//     key variable, as the real CLI would (the key-isolation test points it at the proxy).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
)

var (
	name   string
	out    = json.NewEncoder(os.Stdout)
	nextID int
)

func emit(v any) { _ = out.Encode(v) }

func id(prefix string) string { nextID++; return fmt.Sprintf("%s_%02d", prefix, nextID) }

func main() {
	name = filepath.Base(os.Args[0])
	args := os.Args[1:]
	if p := os.Getenv("FAKECLI_ARGS"); p != "" {
		if f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			_ = json.NewEncoder(f).Encode(append([]string{name}, args...))
			f.Close()
		}
	}
	spec, ok := headless.Spec(name)
	if !ok {
		fmt.Fprintf(os.Stderr, "fakecli: installed as %q, not claude, codex or gemini\n", name)
		os.Exit(2)
	}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-v" || args[0] == "-V") {
		// claude: "2.1.240 (Claude Code)"; codex (clap): "codex-cli 0.148.0"; gemini: "0.56.0".
		switch name {
		case "claude":
			fmt.Println(spec.Version + " (Claude Code)")
		case "codex":
			fmt.Println("codex-cli " + spec.Version)
		default:
			fmt.Println(spec.Version)
		}
		return
	}
	// FAKECLI_CHOICES=--flag=a,b narrows a flag's choices to an older version's (gemini
	// 0.9.0: --output-format text,json), to show how the runtime reports a refusal.
	if o := os.Getenv("FAKECLI_CHOICES"); o != "" {
		flag, list, _ := strings.Cut(o, "=")
		for i := range spec.Flags {
			if spec.Flags[i].Name == flag {
				spec.Flags[i].Choices = strings.Split(list, ",")
			}
		}
	}
	parsed, rej := spec.Parse(args)
	if rej != nil {
		exit(spec, *rej)
	}
	for _, f := range spec.Flags {
		if f.Deprecated != "" && parsed.Has(f.Name) && spec.Parser == "clap" {
			fmt.Fprintln(os.Stderr, f.Deprecated)
		}
	}
	if name == "gemini" && !parsed.Has("--skip-trust") && os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") != "true" {
		r, _ := spec.ExitFor(headless.ExitUntrustedWorkspace, nil)
		exit(spec, r)
	}
	prompt, mentor := readPrompt(parsed)
	if prompt == "" {
		fmt.Fprintf(os.Stderr, "%s: no prompt\n", name)
		os.Exit(42)
	}
	if strings.Contains(prompt, "FAKECLI:NOAUTH") {
		noAuth(spec)
	}
	start := time.Now()
	header()
	if msg := failure(prompt); msg != "" {
		fail(msg, start)
	}
	if mentor {
		notes := "NOTES: the tutorial assumes a tool it never installs. " + lastFailed(prompt)
		if i := strings.Index(prompt, "FAKECLI:MENTOR_FIX="); i >= 0 {
			fix, _, _ := strings.Cut(prompt[i+len("FAKECLI:MENTOR_FIX="):], "\n")
			fix, _, _ = strings.Cut(fix, "-->")
			notes += "\nFIX$ " + strings.TrimSpace(fix)
		}
		finish(notes, start, 1)
		return
	}
	var cmds []string
	for _, prefix := range []string{"FIX$ ", "$ "} {
		for _, line := range strings.Split(prompt, "\n") {
			if c, ok := strings.CutPrefix(strings.TrimSpace(line), prefix); ok {
				cmds = append(cmds, c)
			}
		}
	}
	var run []string
	for _, c := range cmds {
		run = append(run, c)
		rc, output := shell(c)
		if strings.Contains(prompt, "FAKECLI:WORK_THEN_FAIL") {
			countRun()
			fail("429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit", start)
		}
		if rc != 0 {
			res, _ := json.Marshal(map[string]any{
				"status": "ask_mentor", "currentStep": c, "attemptedActions": run,
				"problem":           fmt.Sprintf("`%s` failed with exit code %d: %s", c, rc, strings.TrimSpace(output)),
				"questionForMentor": fmt.Sprintf("How do I get `%s` to work?", c), "commandsRun": run,
			})
			finish("I am stuck.\n```json\n"+string(res)+"\n```", start, len(run))
			return
		}
	}
	res, _ := json.Marshal(map[string]any{"status": "completed", "summary": fmt.Sprintf("ran %d commands", len(run)), "commandsRun": run})
	finish("```json\n"+string(res)+"\n```", start, len(run))
}

// readPrompt takes the prompt where each real CLI does: claude's -p is a switch and the
// prompt is positional (stdin without one); codex exec takes the positional ("-" reads
// stdin); gemini's -p takes a value, appended to stdin when there is any. The role
// shows in the permission flags.
func readPrompt(p headless.Parsed) (prompt string, mentor bool) {
	switch name {
	case "claude":
		mentor = strings.Contains(strings.Join(p.Values["--disallowedTools"], ","), "Bash")
	case "codex":
		mentor = p.Value("--sandbox") == "read-only"
	case "gemini":
		prompt = p.Value("--prompt")
		mentor = !strings.Contains(strings.Join(p.Values["--allowed-tools"], ","), "run_shell_command")
	}
	if len(p.Positional) > 0 && name != "gemini" {
		prompt = p.Positional[len(p.Positional)-1]
	}
	if prompt == "-" || (prompt == "" && name == "claude") || name == "gemini" {
		if data, err := io.ReadAll(os.Stdin); err == nil && len(data) > 0 {
			if prompt == "-" {
				prompt = ""
			}
			prompt = string(data) + "\n" + prompt
		}
	}
	return prompt, mentor
}

// exit ends the process as the pinned CLI does on a refused command line: its message
// (and, for yargs, the help after it) on its stream, its exit code.
func exit(spec headless.CLISpec, r headless.Rejection) {
	w := os.Stderr
	if r.Stream == "stdout" {
		w = os.Stdout
	}
	fmt.Fprintln(w, r.Text)
	if r.Help {
		fmt.Fprint(w, spec.Help())
	}
	os.Exit(r.ExitCode)
}

// noAuth exits as the CLI does without credentials, before any work.
func noAuth(spec headless.CLISpec) {
	r, _ := spec.ExitFor(headless.ExitMissingAuth, map[string]string{"settings": "/home/learner/.gemini/settings.json"})
	switch name {
	case "claude":
		header()
		emit(map[string]any{"type": "result", "subtype": "success", "is_error": true, "duration_ms": 0, "num_turns": 1,
			"result": r.Text, "session_id": "s-1", "total_cost_usd": 0, "usage": map[string]any{"input_tokens": 0, "output_tokens": 0}})
		os.Exit(r.ExitCode)
	case "codex":
		header()
		emit(map[string]any{"type": "error", "message": r.Text})
		emit(map[string]any{"type": "turn.failed", "error": map[string]any{"message": r.Text}})
		os.Exit(r.ExitCode)
	}
	exit(spec, r)
}

func lastFailed(prompt string) string {
	for _, line := range strings.Split(prompt, "\n") {
		if strings.Contains(line, "failed with exit code") {
			return "The failing step was: " + strings.TrimSpace(line)
		}
	}
	return "Install it first."
}

// failure decides whether this run fails like a provider error, and calls the base URL.
func failure(prompt string) string {
	if strings.Contains(prompt, "FAKECLI:AUTH") {
		return "401 authentication_error: invalid x-api-key"
	}
	if i := strings.Index(prompt, "FAKECLI:RATE_LIMIT="); i >= 0 {
		n, _ := strconv.Atoi(strings.Fields(prompt[i+len("FAKECLI:RATE_LIMIT="):])[0])
		if countRun() < n {
			return "429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit"
		}
	}
	return callProvider()
}

// countRun counts this run in a file under TMPDIR and returns the runs before it.
func countRun() int {
	counter := filepath.Join(os.TempDir(), "fakecli-"+name+"-runs")
	data, _ := os.ReadFile(counter)
	runs, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	_ = os.WriteFile(counter, []byte(strconv.Itoa(runs+1)), 0o644)
	return runs
}

// callProvider does one request the way the real CLI reaches its API, with the
// environment the runtime gave it.
func callProvider() string {
	var url string
	req := func(u string) *http.Request {
		r, _ := http.NewRequest(http.MethodPost, u, bytes.NewReader([]byte(`{"model":"fake"}`)))
		return r
	}
	var r *http.Request
	switch name {
	case "claude":
		if url = os.Getenv("ANTHROPIC_BASE_URL"); url == "" {
			return ""
		}
		r = req(url + "/v1/messages")
		r.Header.Set("x-api-key", os.Getenv("ANTHROPIC_API_KEY"))
	case "codex":
		if url = os.Getenv("OPENAI_BASE_URL"); url == "" {
			return ""
		}
		r = req(url + "/responses")
		r.Header.Set("Authorization", "Bearer "+os.Getenv("OPENAI_API_KEY"))
	case "gemini":
		if url = os.Getenv("GOOGLE_GEMINI_BASE_URL"); url == "" {
			return ""
		}
		r = req(url + "/v1beta/models/fake:streamGenerateContent")
		r.Header.Set("x-goog-api-key", os.Getenv("GEMINI_API_KEY"))
	default:
		return ""
	}
	resp, err := (&http.Client{Timeout: 20 * time.Second}).Do(r)
	if err != nil {
		return "connection error: " + err.Error()
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Sprintf("%d from the API at %s", resp.StatusCode, url)
	}
	return ""
}

func shell(c string) (int, string) {
	cmd := exec.Command("bash", "-c", c)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	id := begin(c)
	err := cmd.Run()
	rc := 0
	if ee, ok := err.(*exec.ExitError); ok {
		rc = ee.ExitCode()
	} else if err != nil {
		rc = 127
	}
	end(id, c, rc, b.String())
	return rc, b.String()
}

func usage() map[string]any {
	return map[string]any{"input_tokens": 12, "cache_creation_input_tokens": 1500, "cache_read_input_tokens": 3000, "output_tokens": 250}
}

func begin(c string) string {
	switch name {
	case "claude":
		tid := id("toolu")
		emit(map[string]any{"type": "assistant", "session_id": "s-1", "parent_tool_use_id": nil, "message": map[string]any{
			"id": id("msg"), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
			"content":     []any{map[string]any{"type": "tool_use", "id": tid, "name": "Bash", "input": map[string]any{"command": c, "description": "Run the tutorial step"}}},
			"stop_reason": nil, "usage": usage()}})
		return tid
	case "codex":
		iid := id("item")
		emit(map[string]any{"type": "item.started", "item": map[string]any{"id": iid, "type": "command_execution", "command": "bash -lc '" + strings.ReplaceAll(c, "'", `'\''`) + "'", "aggregated_output": "", "exit_code": nil, "status": "in_progress"}})
		return iid
	default:
		tid := fmt.Sprintf("run_shell_command-%d-%d", time.Now().UnixMilli(), nextID)
		nextID++
		emit(map[string]any{"type": "tool_use", "timestamp": ts(), "tool_name": "run_shell_command", "tool_id": tid, "parameters": map[string]any{"command": c, "description": "tutorial step"}})
		return tid
	}
}

func end(tid, c string, rc int, output string) {
	switch name {
	case "claude":
		emit(map[string]any{"type": "user", "session_id": "s-1", "parent_tool_use_id": nil, "message": map[string]any{"role": "user",
			"content": []any{map[string]any{"tool_use_id": tid, "type": "tool_result", "content": output, "is_error": rc != 0}}}})
	case "codex":
		status := "completed"
		if rc != 0 {
			status = "failed"
		}
		emit(map[string]any{"type": "item.completed", "item": map[string]any{"id": tid, "type": "command_execution", "command": "bash -lc '" + strings.ReplaceAll(c, "'", `'\''`) + "'", "aggregated_output": output, "exit_code": rc, "status": status}})
	default:
		// gemini's shell tool reports success and puts the exit code in its output text.
		emit(map[string]any{"type": "tool_result", "timestamp": ts(), "tool_id": tid, "status": "success", "output": output})
	}
}

func ts() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

func header() {
	switch name {
	case "claude":
		emit(map[string]any{"type": "system", "subtype": "init", "cwd": mustWd(), "session_id": "s-1", "model": "claude-sonnet-4-5-20250929",
			"tools": []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "LS"}, "permissionMode": "acceptEdits", "apiKeySource": "ANTHROPIC_API_KEY"})
	case "codex":
		emit(map[string]any{"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"})
		emit(map[string]any{"type": "turn.started"})
	default:
		emit(map[string]any{"type": "init", "timestamp": ts(), "session_id": "g-1", "model": "gemini-2.5-pro"})
	}
}

func mustWd() string { wd, _ := os.Getwd(); return wd }

func finish(text string, start time.Time, turns int) {
	ms := time.Since(start).Milliseconds()
	switch name {
	case "claude":
		emit(map[string]any{"type": "assistant", "session_id": "s-1", "parent_tool_use_id": nil, "message": map[string]any{
			"id": id("msg"), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
			"content": []any{map[string]any{"type": "text", "text": text}}, "usage": usage()}})
		emit(map[string]any{"type": "result", "subtype": "success", "is_error": false, "duration_ms": ms, "duration_api_ms": ms, "num_turns": turns + 1,
			"result": text, "session_id": "s-1", "total_cost_usd": 0.0123, "usage": usage()})
	case "codex":
		emit(map[string]any{"type": "item.completed", "item": map[string]any{"id": id("item"), "type": "agent_message", "text": text}})
		emit(map[string]any{"type": "turn.completed", "usage": map[string]any{"input_tokens": 4500, "cached_input_tokens": 3000, "output_tokens": 250}})
	default:
		half := len(text) / 2
		emit(map[string]any{"type": "message", "timestamp": ts(), "role": "assistant", "content": text[:half], "delta": true})
		emit(map[string]any{"type": "message", "timestamp": ts(), "role": "assistant", "content": text[half:], "delta": true})
		emit(map[string]any{"type": "result", "timestamp": ts(), "status": "success",
			"stats": map[string]any{"total_tokens": 4750, "input_tokens": 4500, "output_tokens": 250, "cached": 3000, "input": 1500, "duration_ms": ms, "tool_calls": turns,
				"models": map[string]any{"gemini-2.5-pro": map[string]any{"total_tokens": 4750, "input_tokens": 4500, "output_tokens": 250, "cached": 3000, "input": 1500}}}})
	}
}

func fail(msg string, start time.Time) {
	ms := time.Since(start).Milliseconds()
	switch name {
	case "claude":
		emit(map[string]any{"type": "result", "subtype": "success", "is_error": true, "duration_ms": ms, "num_turns": 1,
			"result": "API Error: " + msg, "session_id": "s-1", "total_cost_usd": 0, "usage": map[string]any{"input_tokens": 0, "output_tokens": 0}})
	case "codex":
		emit(map[string]any{"type": "error", "message": "unexpected status " + msg})
		emit(map[string]any{"type": "turn.failed", "error": map[string]any{"message": "unexpected status " + msg}})
	default:
		emit(map[string]any{"type": "result", "timestamp": ts(), "status": "error", "error": map[string]any{"type": "FatalAuthenticationError", "message": "[API Error: " + msg + "]"},
			"stats": map[string]any{"total_tokens": 0, "input_tokens": 0, "output_tokens": 0, "cached": 0, "input": 0, "duration_ms": ms, "tool_calls": 0, "models": map[string]any{}}})
	}
	os.Exit(1)
}
