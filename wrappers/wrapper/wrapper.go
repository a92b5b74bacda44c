// Package wrapper is smile-wrapper, the program that runs inside the learner container. It asks the orchestrator what
// to do (GET /api/status), runs the provider's CLI headless with machine-readable output
// and the role's tool permissions, retries rate-limit and auth failures with backoff,
// and posts the raw event stream, the shim's exit codes and any error back
// (POST /api/{student,mentor}/result). cmd wrappers/smile-wrapper is its static binary;
// any other static Linux binary can embed it by calling Run.
//
// Usage: smile-wrapper student|mentor
//
//	smile-wrapper print-shim      prints the exit-code shell shim (the image installs it)
//	smile-wrapper check ROLE      runs the CLI once as the wrapper would, without the
//	                              orchestrator, and fails if it refuses its command line
//	                              (the image's smoke test, images/smile-base/smoke.sh)
//
// Environment: SMILE_API_URL, SMILE_TOKEN or, with SMILE_TOKEN_STDIN=1, the token as the
// first line of standard input (how the runtime passes it: an environment can be read by
// every process of the same user, a consumed pipe cannot),
// SMILE_PROVIDER (claude, codex, gemini), optional SMILE_MODEL, SMILE_ADD_DIRS (more
// directories the CLI's file tools may read, comma-separated), SMILE_SHIM (exit-code
// shim, default /usr/local/lib/smile/shim.sh), SMILE_WORKDIR, SMILE_MAX_ATTEMPTS
// (default 4), SMILE_BACKOFF (initial backoff, default 10s), SMILE_CLI_TIMEOUT.
// With a key proxy: SMILE_PROXY_URL (the proxy, as the container reaches it),
// SMILE_PROXY_BASE_VAR and SMILE_PROXY_KEY_VARS (where the CLI reads its base URL and
// key) and the proxy's token as the second line of standard input; the CLI gets the
// wrapper's key gate instead (gate.go).
package wrapper

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
)

// maxStream keeps the posted body under the wrapper API's 1 MiB limit.
const maxStream = 700 << 10

// Run is the wrapper's main: args are "student", "mentor" or "print-shim"; it returns
// the process exit code (0, or headless.ExitUsage / ExitAPI / ExitMissingCLI).
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "print-shim" {
		_, _ = io.WriteString(stdout, headless.Shim)
		return 0
	}
	if len(args) >= 1 && args[0] == "check" {
		return check(ctx, args[1:], getenv, stdout, stderr)
	}
	// Before anything else: other processes of the container's user (the tutorial's) may
	// not read this process's memory, environment or file descriptors.
	hideFromSameUser()
	if getenv("SMILE_TOKEN") == "" && getenv("SMILE_TOKEN_STDIN") == "1" {
		tok, err := readToken(os.Stdin)
		if err != nil {
			fmt.Fprintln(stderr, "smile-wrapper:", err)
			return headless.ExitUsage
		}
		// With a key proxy, its token is the second line: it never enters an environment.
		var proxyTok string
		if getenv("SMILE_PROXY_URL") != "" {
			if proxyTok, err = readToken(os.Stdin); err != nil {
				fmt.Fprintln(stderr, "smile-wrapper: SMILE_PROXY_URL is set but the key proxy's token is missing:", err)
				return headless.ExitUsage
			}
		}
		outer := getenv
		getenv = func(k string) string {
			switch k {
			case "SMILE_TOKEN":
				return tok
			case "SMILE_PROXY_TOKEN":
				return proxyTok
			}
			return outer(k)
		}
	}
	return run(ctx, args, getenv, stderr)
}

// readToken reads the token line from r (at most 256 bytes, one byte at a time so that
// nothing after the line is consumed).
func readToken(r io.Reader) (string, error) {
	var b []byte
	one := make([]byte, 1)
	for len(b) < 256 {
		n, err := r.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				break
			}
			b = append(b, one[0])
		}
		if err != nil {
			break
		}
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", errors.New("SMILE_TOKEN_STDIN=1 but no token on standard input")
	}
	return tok, nil
}

type status struct {
	Now struct {
		Reason string `json:"reason"`
	} `json:"now"`
	Iteration int `json:"iteration"`
	Task      *struct {
		Prompt string `json:"prompt"`
	} `json:"task"`
}

func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) int {
	if len(args) != 1 || (args[0] != headless.RoleStudent && args[0] != headless.RoleMentor) {
		fmt.Fprintln(stderr, "usage: smile-wrapper student|mentor")
		return headless.ExitUsage
	}
	role := args[0]
	api, token, provider := strings.TrimRight(getenv("SMILE_API_URL"), "/"), getenv("SMILE_TOKEN"), getenv("SMILE_PROVIDER")
	if api == "" || token == "" || provider == "" {
		fmt.Fprintln(stderr, "smile-wrapper: SMILE_API_URL, SMILE_TOKEN and SMILE_PROVIDER must be set (the smile-loop runtime sets them)")
		return headless.ExitUsage
	}
	c := &client{api: api, token: token, http: &http.Client{Timeout: 30 * time.Second}}
	st, err := c.waitTurn(ctx, role)
	if err != nil {
		fmt.Fprintln(stderr, "smile-wrapper:", err)
		return headless.ExitAPI
	}
	inv, err := headless.Command(provider, role, st.Task.Prompt, getenv("SMILE_MODEL"))
	if err != nil {
		fmt.Fprintln(stderr, "smile-wrapper:", err)
		return headless.ExitUsage
	}
	if dirs := getenv("SMILE_ADD_DIRS"); dirs != "" {
		inv = headless.AddDirs(inv, provider, strings.Split(dirs, ","))
	}
	path, err := exec.LookPath(inv.Name)
	if err != nil {
		// 4.E1: name the missing CLI and how to get it.
		fmt.Fprintf(stderr, "%s%s (install: %s)\n", headless.MissingCLIMarker, inv.Name, headless.Install(provider))
		return headless.ExitMissingCLI
	}
	p := runCLI(ctx, path, inv, provider, role, getenv)
	p.Iteration = st.Iteration
	if err := c.post(ctx, role, st.Iteration, p); err != nil {
		fmt.Fprintln(stderr, "smile-wrapper:", err)
		return headless.ExitAPI
	}
	return 0
}

// runCLI runs the CLI and returns the payload of the last run. A failed run is run again
// (exponential backoff with jitter, 4.E2, 6.E1) only when it did nothing: a provider rate
// limit, auth or network failure before any tool call. A run that had started working
// is never repeated in the container it changed: its evidence is the result. Every
// retried run's tokens and cost go into Attempts.
func runCLI(ctx context.Context, path string, inv headless.Invocation, provider, role string, getenv func(string) string) headless.Payload {
	maxAttempts := atoi(getenv("SMILE_MAX_ATTEMPTS"), 4)
	bo := backoff.NewExponentialBackOff()
	bo.InitialInterval = duration(getenv("SMILE_BACKOFF"), 10*time.Second)
	bo.MaxInterval = 2 * time.Minute
	bo.RandomizationFactor = 0.5
	bo.MaxElapsedTime = 0
	bo.Reset()
	var attempts []headless.Attempt
	for n := 1; ; n++ {
		p, sum := runOnce(ctx, path, inv, provider, role, getenv)
		p.Attempts = attempts
		didNothing := len(sum.Tools) == 0 && len(p.Commands) == 0
		if p.Error == nil || !headless.Retryable(p.Error.Kind) || !didNothing || n >= maxAttempts || ctx.Err() != nil {
			return p
		}
		wait := bo.NextBackOff()
		attempts = append(attempts, headless.Attempt{ExitCode: p.ExitCode, Kind: p.Error.Kind, Message: p.Error.Message, Waited: wait,
			Model: sum.Model, InputTokens: sum.InputTokens, OutputTokens: sum.OutputTokens, CostUSD: sum.CostUSD,
			DurationMS: max(sum.DurationMS, p.DurationMS)})
		select {
		case <-ctx.Done():
			return p
		case <-time.After(wait):
		}
	}
}

func runOnce(ctx context.Context, path string, inv headless.Invocation, provider, role string, getenv func(string) string) (headless.Payload, headless.Summary) {
	p := headless.Payload{Provider: provider, Role: role}
	logFile, err := os.CreateTemp("", "smile-cmdlog-*")
	if err == nil {
		logFile.Close()
		defer os.Remove(logFile.Name())
	}
	if t := duration(getenv("SMILE_CLI_TIMEOUT"), 0); t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	dir := getenv("SMILE_WORKDIR")
	if dir == "" {
		dir = "/workspace/work"
	}
	if _, err := os.Stat(dir); err != nil {
		dir = ""
	}
	runDir, env, err := prepare(inv, withoutSecrets(os.Environ()))
	if err != nil {
		p.ExitCode = -1
		p.Error = &headless.RunError{Kind: headless.ErrOther, Message: err.Error()}
		return p, headless.Summary{}
	}
	if runDir != "" {
		defer os.RemoveAll(runDir)
	}
	args := inv.Args
	if inv.IsolatedCwd && runDir != "" {
		if dir != "" {
			args = headless.AddDirs(headless.Invocation{Args: args}, provider, []string{dir}).Args
		}
		dir = runDir
	}
	cmd := exec.CommandContext(ctx, path, args...)
	if inv.Stdin != "" {
		cmd.Stdin = strings.NewReader(inv.Stdin)
	}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	cmd.Dir = dir
	if logFile != nil {
		env = append(env, "SMILE_CMDLOG="+logFile.Name())
	}
	shim := getenv("SMILE_SHIM")
	if shim == "" {
		shim = "/usr/local/lib/smile/shim.sh"
	}
	if _, err := os.Stat(shim); err == nil {
		env = append(env, "BASH_ENV="+shim)
	}
	var g *gate
	if u := getenv("SMILE_PROXY_URL"); u != "" {
		if g, err = startGate(u, getenv("SMILE_PROXY_TOKEN"), newProcTable()); err != nil {
			p.ExitCode = -1
			p.Error = &headless.RunError{Kind: headless.ErrOther, Message: err.Error()}
			return p, headless.Summary{}
		}
		env = g.env(env, getenv("SMILE_PROXY_BASE_VAR"), strings.Fields(getenv("SMILE_PROXY_KEY_VARS")))
	}
	cmd.Env = env
	var stdout bytes.Buffer
	stderr := &tail{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	start := time.Now()
	runErr := cmd.Start()
	if runErr == nil {
		if g != nil {
			g.started(cmd.Process.Pid, installOf(path))
		}
		runErr = cmd.Wait()
	}
	if g != nil {
		if refused := g.Close(); refused != "" {
			fmt.Fprintln(stderr, refused)
		}
	}
	p.DurationMS = time.Since(start).Milliseconds()
	var ee *exec.ExitError
	switch {
	case errors.As(runErr, &ee):
		p.ExitCode = ee.ExitCode()
	case runErr != nil:
		p.ExitCode = -1
	}
	stream := stdout.String()
	p.Stream, p.Truncated = trimStream(stream)
	p.Stderr = stderr.String()
	if logFile != nil {
		if data, err := os.ReadFile(logFile.Name()); err == nil {
			p.Commands = headless.ParseShimLog(string(data))
		}
	}
	sum := headless.ParseStream(provider, stream)
	if sum.Error != nil {
		p.Error = sum.Error
	} else if p.ExitCode != 0 {
		// The CLI's own error: it precedes any help text (yargs prints help after it), and
		// a CLI that is not logged in may say so on stdout.
		msg := headless.ErrorLines(p.Stderr)
		if msg == "" && sum.Events == 0 {
			msg = headless.ErrorLines(stream)
		}
		if msg == "" {
			msg = fmt.Sprintf("%s exited with code %d", provider, p.ExitCode)
		}
		kind := headless.ClassifyError(msg)
		if ctx.Err() != nil {
			msg = fmt.Sprintf("%s was stopped after SMILE_CLI_TIMEOUT: %s", provider, msg)
			kind = headless.ErrOther
		}
		p.Error = &headless.RunError{Kind: kind, Message: msg}
	}
	return p, sum
}

// prepare writes the invocation's files into a fresh directory and returns it with the
// CLI's environment (the invocation's variables, "{dir}" replaced).
func prepare(inv headless.Invocation, env []string) (string, []string, error) {
	if len(inv.Files) == 0 && len(inv.Env) == 0 && !inv.IsolatedCwd {
		return "", env, nil
	}
	dir, err := os.MkdirTemp("", "smile-cli-*")
	if err != nil {
		return "", nil, fmt.Errorf("create the CLI's settings directory: %w", err)
	}
	for name, data := range inv.Files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			os.RemoveAll(dir)
			return "", nil, fmt.Errorf("create the CLI's %s: %w", filepath.Dir(name), err)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			os.RemoveAll(dir)
			return "", nil, fmt.Errorf("write the CLI's %s: %w", name, err)
		}
	}
	keys := make([]string, 0, len(inv.Env))
	for k := range inv.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+strings.ReplaceAll(inv.Env[k], "{dir}", dir))
	}
	return dir, env, nil
}

// withoutSecrets drops the wrapper's own credentials from the CLI's environment: the CLI
// talks to the provider (through the proxy), never to the orchestrator.
func withoutSecrets(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if strings.HasPrefix(kv, "SMILE_TOKEN=") || strings.HasPrefix(kv, "SMILE_API_URL=") || strings.HasPrefix(kv, "SMILE_PROXY_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// trimStream keeps the head and the tail of a long stream (the tail holds the result).
func trimStream(s string) (string, bool) {
	if len(s) <= maxStream {
		return s, false
	}
	lines := strings.SplitAfter(s, "\n")
	var head, tailPart []string
	size := 0
	for i := 0; i < len(lines) && i < 20 && size+len(lines[i]) < maxStream/4; i++ {
		head = append(head, lines[i])
		size += len(lines[i])
	}
	start := len(lines)
	for i := len(lines) - 1; i >= len(head) && size+len(lines[i]) < maxStream; i-- {
		start = i
		size += len(lines[i])
	}
	tailPart = lines[start:]
	return strings.Join(head, "") + strings.Join(tailPart, ""), true
}

type tail struct {
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.buf) }

func atoi(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil && n > 0 {
		return n
	}
	return def
}

func duration(s string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return d
	}
	return def
}

type client struct {
	api, token string
	http       *http.Client
}

func (c *client) do(ctx context.Context, method, path string, body []byte) ([]byte, int, error) {
	var lastErr error
	for i := 0; i < 5; i++ {
		req, err := http.NewRequestWithContext(ctx, method, c.api+path, bytes.NewReader(body))
		if err != nil {
			return nil, 0, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			select {
			case <-ctx.Done():
				return nil, 0, ctx.Err()
			case <-time.After(time.Duration(i+1) * 500 * time.Millisecond):
			}
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		return data, resp.StatusCode, nil
	}
	return nil, 0, fmt.Errorf("orchestrator API unreachable at %s: %w", c.api, lastErr)
}

// waitTurn polls /api/status until it is the role's turn (at most a minute).
func (c *client) waitTurn(ctx context.Context, role string) (status, error) {
	want := role + "_turn"
	deadline := time.Now().Add(time.Minute)
	for {
		data, code, err := c.do(ctx, http.MethodGet, "/api/status", nil)
		if err != nil {
			return status{}, err
		}
		if code != http.StatusOK {
			return status{}, fmt.Errorf("GET /api/status: %d %s", code, strings.TrimSpace(string(data)))
		}
		var st status
		if err := json.Unmarshal(data, &st); err != nil {
			return status{}, fmt.Errorf("GET /api/status: %w", err)
		}
		switch {
		case st.Now.Reason == want && st.Task != nil && st.Task.Prompt != "":
			return st, nil
		case st.Now.Reason == "done":
			return status{}, errors.New("the loop is done; nothing to run")
		case time.Now().After(deadline):
			return status{}, fmt.Errorf("waited a minute for %s, the loop says %q", want, st.Now.Reason)
		}
		select {
		case <-ctx.Done():
			return status{}, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func (c *client) post(ctx context.Context, role string, iteration int, p headless.Payload) error {
	body, err := json.Marshal(p)
	if err != nil {
		return err
	}
	data, code, err := c.do(ctx, http.MethodPost, fmt.Sprintf("/api/%s/result?iteration=%d", role, iteration), body)
	if err != nil {
		return err
	}
	if code != http.StatusOK {
		return fmt.Errorf("POST /api/%s/result: %d %s", role, code, strings.TrimSpace(string(data)))
	}
	return nil
}
