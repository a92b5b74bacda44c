package wrapper

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
)

// shim.sh is the readable copy of the shim the wrapper prints; it must not drift.
func TestShimFileIsCurrent(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("shim.sh")
	require.NoError(t, err)
	assert.Equal(t, headless.Shim, string(data), "regenerate with: go run ./wrappers/smile-wrapper print-shim > wrappers/wrapper/shim.sh")
}

// fakeAPI is the orchestrator's wrapper API: status first says waiting, then the turn.
type fakeAPI struct {
	mu     sync.Mutex
	polls  int
	posted []headless.Payload
	path   string
}

func (f *fakeAPI) handler(t *testing.T, role string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/api/status":
			f.polls++
			reason := role + "_turn"
			if f.polls == 1 {
				reason = "waiting"
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"now": map[string]any{"reason": reason}, "iteration": 4, "task": map[string]any{"prompt": "do it"}})
		case r.Method == http.MethodPost:
			var p headless.Payload
			body, _ := io.ReadAll(r.Body)
			require.NoError(t, json.Unmarshal(body, &p))
			f.posted = append(f.posted, p)
			f.path = r.URL.String()
			_, _ = io.WriteString(w, `{"ok":true}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}
}

// fakeCLI writes an executable script named like the provider's CLI.
func fakeCLI(t *testing.T, name, script string) string {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/bash\n"+script), 0o755))
	return dir
}

func envFunc(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestWrapperRunsTheCLIAndPostsItsStream(t *testing.T) {
	api := &fakeAPI{}
	srv := httptest.NewServer(api.handler(t, "student"))
	t.Cleanup(srv.Close)
	bin := fakeCLI(t, "claude", `printf '%s\n' "$@" > "$ARGS_OUT"; bash -c 'exit 4'; echo '{"type":"result","subtype":"success","is_error":false,"result":"{\"status\":\"completed\"}","usage":{"input_tokens":3,"output_tokens":2}}'`)
	argsOut := filepath.Join(t.TempDir(), "args")
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	t.Setenv("ARGS_OUT", argsOut)
	t.Setenv("SMILE_TOKEN", "tok") // must not reach the CLI
	shim := filepath.Join(t.TempDir(), "shim.sh")
	require.NoError(t, os.WriteFile(shim, []byte(headless.Shim), 0o644))
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"student"}, envFunc(map[string]string{
		"SMILE_API_URL": srv.URL, "SMILE_TOKEN": "tok", "SMILE_PROVIDER": "claude", "SMILE_SHIM": shim, "SMILE_WORKDIR": t.TempDir(),
	}), &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Len(t, api.posted, 1)
	p := api.posted[0]
	assert.Equal(t, "/api/student/result?iteration=4", api.path)
	assert.Equal(t, 4, p.Iteration)
	assert.Equal(t, "claude", p.Provider)
	assert.Contains(t, p.Stream, `"type":"result"`)
	assert.Nil(t, p.Error)
	require.Len(t, p.Commands, 1, "the shim saw the CLI's bash -c")
	assert.Equal(t, headless.ShimRecord{Command: "exit 4", ExitCode: 4, DurationMS: p.Commands[0].DurationMS}, p.Commands[0])
	args, err := os.ReadFile(argsOut)
	require.NoError(t, err)
	assert.Contains(t, string(args), "--disallowedTools\nWebSearch,WebFetch,Agent,Task")
	assert.Contains(t, string(args), "-p\ndo it")
}

func TestWrapperRetriesRateLimitsThenReportsTheError(t *testing.T) {
	api := &fakeAPI{}
	srv := httptest.NewServer(api.handler(t, "student"))
	t.Cleanup(srv.Close)
	bin := fakeCLI(t, "codex", `echo '{"type":"turn.failed","error":{"message":"exceeded retry limit, last status: 429 Too Many Requests"}}'; exit 1`)
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"student"}, envFunc(map[string]string{
		"SMILE_API_URL": srv.URL, "SMILE_TOKEN": "tok", "SMILE_PROVIDER": "codex", "SMILE_MAX_ATTEMPTS": "3", "SMILE_BACKOFF": "1ms",
	}), &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Len(t, api.posted, 1)
	p := api.posted[0]
	require.NotNil(t, p.Error)
	assert.Equal(t, headless.ErrRateLimit, p.Error.Kind)
	assert.Len(t, p.Attempts, 2)
	assert.Equal(t, 1, p.ExitCode)
}

func TestWrapperMissingCLI(t *testing.T) {
	api := &fakeAPI{}
	srv := httptest.NewServer(api.handler(t, "student"))
	t.Cleanup(srv.Close)
	t.Setenv("PATH", t.TempDir())
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"student"}, envFunc(map[string]string{"SMILE_API_URL": srv.URL, "SMILE_TOKEN": "tok", "SMILE_PROVIDER": "gemini"}), &stderr)
	assert.Equal(t, headless.ExitMissingCLI, code)
	assert.Contains(t, stderr.String(), headless.MissingCLIMarker+"gemini (install: npm install -g @google/gemini-cli")
	assert.Empty(t, api.posted)
}

func TestWrapperUsageAndAPIErrors(t *testing.T) {
	var stderr bytes.Buffer
	assert.Equal(t, headless.ExitUsage, run(context.Background(), []string{"teacher"}, envFunc(nil), &stderr))
	assert.Equal(t, headless.ExitUsage, run(context.Background(), []string{"student"}, envFunc(nil), &stderr))
	assert.Contains(t, stderr.String(), "SMILE_API_URL, SMILE_TOKEN and SMILE_PROVIDER must be set")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) }))
	t.Cleanup(srv.Close)
	stderr.Reset()
	assert.Equal(t, headless.ExitAPI, run(context.Background(), []string{"student"}, envFunc(map[string]string{"SMILE_API_URL": srv.URL, "SMILE_TOKEN": "bad", "SMILE_PROVIDER": "claude"}), &stderr))
	assert.Contains(t, stderr.String(), "GET /api/status: 401")
}

func TestTrimStreamKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString(`{"type":"assistant","n":` + strings.Repeat("1", 40) + "}\n")
	}
	b.WriteString(`{"type":"result","result":"final"}` + "\n")
	out, truncated := trimStream(b.String())
	assert.True(t, truncated)
	assert.LessOrEqual(t, len(out), maxStream)
	assert.True(t, strings.HasSuffix(out, `{"type":"result","result":"final"}`+"\n"))
	assert.True(t, strings.HasPrefix(out, `{"type":"assistant"`))
	small, truncated := trimStream("a\n")
	assert.False(t, truncated)
	assert.Equal(t, "a\n", small)
}

func TestWithoutSecrets(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{"PATH=/bin", "HOME=/h"}, withoutSecrets([]string{"PATH=/bin", "SMILE_TOKEN=x", "SMILE_API_URL=u", "HOME=/h"}))
}

func TestRunPrintShim(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	assert.Equal(t, 0, Run(context.Background(), []string{"print-shim"}, envFunc(nil), &out, &errb))
	assert.Equal(t, headless.Shim, out.String())
}

// gemini runs with a system settings file that excludes the role's forbidden tools (the
// Student's web tools, the Mentor's shell and write tools), and the Mentor runs in a
// fresh directory so the tutorial's own .gemini/ settings never load; its working
// directory stays readable through --include-directories.
func TestWrapperGivesGeminiItsSettingsAndAnIsolatedMentor(t *testing.T) {
	for _, tt := range []struct {
		role     string
		excluded []string
	}{
		{role: "student", excluded: []string{"google_web_search", "web_fetch"}},
		{role: "mentor", excluded: []string{"run_shell_command", "write_file", "replace"}},
	} {
		t.Run(tt.role, func(t *testing.T) {
			api := &fakeAPI{}
			srv := httptest.NewServer(api.handler(t, tt.role))
			t.Cleanup(srv.Close)
			out := t.TempDir()
			bin := fakeCLI(t, "gemini", `cp "$GEMINI_CLI_SYSTEM_SETTINGS_PATH" "$OUT/settings.json"; pwd > "$OUT/pwd"; printf '%s\n' "$@" > "$OUT/args"
echo '{"type":"result","timestamp":"t","status":"success","stats":{"input_tokens":1,"output_tokens":1}}'`)
			t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
			t.Setenv("OUT", out)
			work := t.TempDir()
			var stderr bytes.Buffer
			code := run(context.Background(), []string{tt.role}, envFunc(map[string]string{
				"SMILE_API_URL": srv.URL, "SMILE_TOKEN": "tok", "SMILE_PROVIDER": "gemini", "SMILE_WORKDIR": work, "SMILE_ADD_DIRS": "/elsewhere",
			}), &stderr)
			require.Equal(t, 0, code, stderr.String())
			var settings struct {
				Tools struct {
					Exclude []string `json:"exclude"`
				} `json:"tools"`
			}
			data, err := os.ReadFile(filepath.Join(out, "settings.json"))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &settings))
			assert.Equal(t, tt.excluded, settings.Tools.Exclude)
			pwd, _ := os.ReadFile(filepath.Join(out, "pwd"))
			args, _ := os.ReadFile(filepath.Join(out, "args"))
			if tt.role == "mentor" {
				assert.NotEqual(t, work, strings.TrimSpace(string(pwd)))
				assert.Contains(t, string(args), "--include-directories\n"+work+"\n")
			} else {
				assert.Equal(t, work, strings.TrimSpace(string(pwd)))
			}
			assert.Contains(t, string(args), "--skip-trust")
		})
	}
}

// `smile-wrapper check` runs the CLI once as the wrapper would and fails when the CLI
// refuses its command line, quoting the CLI's error.
func TestCheckFailsOnARefusedCommandLine(t *testing.T) {
	bin := fakeCLI(t, "codex", `echo "error: unexpected argument '--json' found" >&2; echo >&2; echo "Usage: codex exec [OPTIONS] [PROMPT]" >&2; exit 2`)
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), []string{"check", "student"}, envFunc(map[string]string{"SMILE_PROVIDER": "codex"}), &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "codex refused the command line the wrapper builds: error: unexpected argument '--json' found")
	var res CheckResult
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.Equal(t, "codex", res.Command[0])
	assert.Equal(t, 2, res.ExitCode)

	stdout.Reset()
	code = Run(context.Background(), []string{"check", "mentor"}, envFunc(map[string]string{"SMILE_PROVIDER": "codex"}), &stdout, &stderr)
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout.String(), `"skipped"`)
}
