//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/api"
	"github.com/smile-loop/smile-loop/internal/agent/cli"
	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
	"github.com/smile-loop/smile-loop/internal/tutorial"
	wrapperpkg "github.com/smile-loop/smile-loop/wrappers/wrapper"
)

// llmBins builds smile-wrapper and the fake CLIs as static Linux binaries for the
// learner container.
func llmBins(t *testing.T) (wrapper, fake string) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	dir := t.TempDir()
	for _, b := range []struct{ pkg, out string }{
		{"./wrappers/smile-wrapper", "smile-wrapper"},
		{"./internal/agent/cli/testdata/fakecli", "fakecli"},
	} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, b.out), b.pkg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "build %s: %s", b.pkg, out)
	}
	return filepath.Join(dir, "smile-wrapper"), filepath.Join(dir, "fakecli")
}

type llmEnv struct {
	sb       *sandbox.Docker
	tut      *tutorial.Tutorial
	stateDir string
}

func newLLMEnv(t *testing.T, name, markdown string) *llmEnv {
	t.Helper()
	image := sandboxtest.RequireImage(t)
	root := t.TempDir()
	tutDir := filepath.Join(root, "tutorial")
	require.NoError(t, os.MkdirAll(tutDir, 0o755))
	path := filepath.Join(tutDir, "tutorial.md")
	require.NoError(t, os.WriteFile(path, []byte(markdown), 0o644))
	tut, err := tutorial.Load(path)
	require.NoError(t, err)
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{
		Image: image, RunID: "e2e-llm-" + name, TutorialDir: tutDir,
		WorkDir: filepath.Join(root, "work"), LogsDir: filepath.Join(root, "logs"),
		Memory: "512m", CPUs: 1,
	})
	require.NoError(t, err) // loop.Run starts it
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = sb.Close(cctx, true)
	})
	return &llmEnv{sb: sb, tut: tut, stateDir: filepath.Join(root, "state")}
}

func (e *llmEnv) run(t *testing.T, cfg config.Config, s loop.Student, m loop.Mentor, secrets ...string) *loop.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, err := loop.Run(ctx, loop.Options{Config: cfg, Tutorial: e.tut, Sandbox: e.sb, Student: s, Mentor: m,
		StateDir: e.stateDir, ServeAPI: true, Secrets: secrets})
	require.NoError(t, err)
	require.NotNil(t, st)
	return st
}

// llmCanary is a fake provider key. The tutorial greps for it with a bracket expression, so
// the tutorial text itself never contains it.
const llmCanary = "sk-canary-7f3e9a41c0ffee"

// leakPattern matches llmCanary without containing it.
const leakPattern = "sk-canary-7f3e[9]a41c0ffee"

// llmUpstream is the "provider": it accepts only the real key, which only the proxy has.
func llmUpstream(t *testing.T) (*httptest.Server, *sync.Map) {
	seen := &sync.Map{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("x-api-key") + r.Header.Get("x-goog-api-key") + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if key != llmCanary {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"message":"invalid key"}}`)
			return
		}
		// A body the tutorial forged is recorded as such: it must never get here.
		if body, _ := io.ReadAll(r.Body); strings.Contains(string(body), "FORGED") {
			seen.Store("FORGED "+r.URL.Path, true)
		} else {
			seen.Store(r.URL.Path, true)
		}
		_, _ = io.WriteString(w, `{}`)
	}))
	t.Cleanup(srv.Close)
	return srv, seen
}

// leakTutorial prints the environment of every process in the container and greps its
// whole filesystem for the key (failing when found).
const leakTutorial = "# Leak check\n\n$ env\n$ cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | sort -u\n" +
	"$ ! grep -rIl --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev '" + leakPattern + "' / 2>/dev/null\n"

// TestLeakTutorialDetectsAKeyInTheContainer is the negative control of the isolation
// test: the same tutorial, with the key handed to the CLI, sees it.
func TestLeakTutorialDetectsAKeyInTheContainer(t *testing.T) {
	sandboxtest.RequireDocker(t)
	wrapper, fake := llmBins(t)
	e := newLLMEnv(t, "leak-control", leakTutorial)
	opts := cli.Options{Provider: config.ProviderClaude, Env: map[string]string{"ANTHROPIC_API_KEY": llmCanary},
		Install: []cli.File{{HostPath: wrapper, Name: "smile-wrapper"}, {HostPath: fake, Name: "claude"}}}
	cfg := config.Default()
	cfg.MaxIterations = 1
	st := e.run(t, cfg, cli.NewStudent(opts), cli.NewMentor(opts))
	require.NotEmpty(t, st.History)
	res := st.History[0].Student
	require.NotNil(t, res)
	require.NotEmpty(t, res.Commands)
	assert.Contains(t, res.Commands[0].Output, llmCanary, "a key in the CLI's environment shows up")
}

// TestCLIKeyNeverEntersTheContainer runs a tutorial that prints the environment of every
// process and greps the whole filesystem for the provider key, with each CLI (fake,
// speaking the real stream formats) reaching the provider only through the proxy.
func TestCLIKeyNeverEntersTheContainer(t *testing.T) {
	sandboxtest.RequireDocker(t)
	wrapper, fake := llmBins(t)
	for _, provider := range []string{config.ProviderClaude, config.ProviderCodex, config.ProviderGemini} {
		t.Run(provider, func(t *testing.T) {
			// Positive control: the tutorial's pattern does match the key.
			require.Regexp(t, leakPattern, llmCanary)
			e := newLLMEnv(t, "leak-"+provider, leakTutorial)
			up, seen := llmUpstream(t)
			// The orchestrator's environment holds the key and the provider URL; cli.New
			// starts the key-holding proxy on the sandbox's HostAddr at the first attempt.
			// The upstream is on loopback, reachable only from the orchestrator.
			env := map[string]string{
				"ANTHROPIC_API_KEY": llmCanary, "ANTHROPIC_BASE_URL": up.URL,
				"OPENAI_API_KEY": llmCanary, "OPENAI_BASE_URL": up.URL + "/v1",
				"GEMINI_API_KEY": llmCanary, "GOOGLE_GEMINI_BASE_URL": up.URL,
			}
			cfg := config.Default()
			cfg.LLMProvider, cfg.MaxIterations = provider, 2
			student, mentor, err := cli.New(cfg, func(k string) string { return env[k] },
				cli.Options{Install: []cli.File{{HostPath: wrapper, Name: "smile-wrapper"}, {HostPath: fake, Name: provider}}})
			require.NoError(t, err)
			t.Cleanup(func() { _ = student.Close() })
			token := student.Secrets()[0]
			// The canary is deliberately not given to the loop as a secret to mask: a
			// leak must show up in the outputs, not be hidden as ***.
			st := e.run(t, cfg, student, mentor)

			require.NotEmpty(t, st.History)
			res := st.History[0].Student
			require.NotNil(t, res)
			assert.Equal(t, loop.StatusCompleted, st.Status, "grep found no key and the CLI reached the provider: %+v", res)
			require.Len(t, res.Commands, 3)
			envOut := res.Commands[0].Output + res.Commands[1].Output
			assert.NotContains(t, envOut, token, "the run token is in no process's environment: only the wrapper holds it")
			assert.Contains(t, envOut, "="+wrapperpkg.GatePlaceholder, "the CLI's key is the gate's placeholder")
			assert.Regexp(t, `_BASE_URL=http://127\.0\.0\.1:\d+`, envOut, "the CLI's base URL is the wrapper's key gate")
			assert.NotContains(t, envOut, "host.docker.internal:", "the key proxy's address is the wrapper's alone")
			for _, c := range res.Commands {
				assert.Equal(t, 0, c.ExitCode, c.Command)
				assert.NotContains(t, c.Output, llmCanary)
			}
			n := 0
			seen.Range(func(any, any) bool { n++; return true })
			assert.Positive(t, n, "the provider saw the real key, added by the proxy")
			data, err := json.Marshal(st)
			require.NoError(t, err)
			assert.NotContains(t, string(data), llmCanary)
		})
	}
}

// TestCLIRuntimeCompleteRun: the fake CLI Student gets stuck on a missing tool, asks, the
// fake CLI Mentor's notes carry the fix, and the next attempt completes — on the real
// engine, through the loop and its wrapper API.
func TestCLIRuntimeCompleteRun(t *testing.T) {
	sandboxtest.RequireDocker(t)
	wrapper, fake := llmBins(t)
	md := "# Greet\n<!-- FAKECLI:MENTOR_FIX=printf '#!/bin/sh\\necho hello 1.0\\n' > greet && chmod +x greet -->\n\n$ echo setting up\n$ ./greet --version\n"
	e := newLLMEnv(t, "cli-complete", md)
	opts := cli.Options{Provider: config.ProviderClaude, Install: []cli.File{{HostPath: wrapper, Name: "smile-wrapper"}, {HostPath: fake, Name: "claude"}}}
	cfg := config.Default()
	cfg.MaxIterations = 3
	cfg.Container.KeepWork = true
	st := e.run(t, cfg, cli.NewStudent(opts), cli.NewMentor(opts))
	assert.Equal(t, loop.StatusCompleted, st.Status)
	require.Len(t, st.History, 2)
	first := st.History[0]
	require.NotNil(t, first.Student)
	assert.Equal(t, loop.StudentAskMentor, first.Student.Status)
	require.Len(t, first.Student.Commands, 2)
	assert.Equal(t, 127, first.Student.Commands[1].ExitCode, "the shim recorded the exit code claude's stream hides")
	assert.Equal(t, loop.ClassMissingDependency, first.Student.Commands[1].Class)
	require.NotNil(t, first.Mentor)
	assert.Contains(t, first.Mentor.Notes, "FIX$ printf")
	assert.Equal(t, loop.StudentCompleted, st.History[1].Student.Status)
}

// nativeModel is a scripted model behind the Anthropic Messages wire format.
func nativeModel(t *testing.T, brain func(system string, texts, results []string) map[string]any) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			System   []struct{ Text string } `json:"system"` // text blocks (the client marks a cache breakpoint)
			Messages []struct {
				Role    string `json:"role"`
				Content []struct {
					Type    string `json:"type"`
					Text    string `json:"text"`
					Content string `json:"content"`
				} `json:"content"`
			} `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil || r.Header.Get("x-api-key") != "k" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		var texts, results []string
		for _, m := range req.Messages {
			for _, c := range m.Content {
				switch c.Type {
				case "text":
					texts = append(texts, c.Text)
				case "tool_result":
					results = append(results, c.Content)
				}
			}
		}
		var system string
		for _, b := range req.System {
			system += b.Text
		}
		call := brain(system, texts, results)
		content := []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", len(results)), "name": call["name"], "input": call["input"]}}
		_ = json.NewEncoder(w).Encode(map[string]any{"type": "message", "role": "assistant", "model": "scripted", "content": content,
			"stop_reason": "tool_use", "usage": map[string]any{"input_tokens": len(body) / 4, "output_tokens": 30}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestNativeRuntimeCompleteRun: the api runtime drives a scripted model whose tool calls
// run in the real container: stuck on a missing command, asks, the Mentor (read-only
// tools) answers, the next attempt writes the tool and completes.
func TestNativeRuntimeCompleteRun(t *testing.T) {
	sandboxtest.RequireDocker(t)
	md := "# Greet\n\nRun:\n\n```bash\ngreet --version\n```\n"
	e := newLLMEnv(t, "native-complete", md)
	model := nativeModel(t, func(system string, texts, results []string) map[string]any {
		all := strings.Join(texts, "\n")
		switch {
		case strings.Contains(system, "Mentor"):
			if len(results) == 0 {
				return map[string]any{"name": "read_file", "input": map[string]any{"path": "/workspace/tutorial/tutorial.md"}}
			}
			return map[string]any{"name": "give_notes", "input": map[string]any{"notes": "MENTOR-FIX: greet is never installed; create /workspace/work/greet as a shell script that echoes its version."}}
		case !strings.Contains(all, "MENTOR-FIX"):
			if len(results) == 0 {
				return map[string]any{"name": "run_command", "input": map[string]any{"command": "greet --version", "step": "Run greet"}}
			}
			return map[string]any{"name": "ask_mentor", "input": map[string]any{"currentStep": "Run greet", "quote": "greet --version", "problem": results[0], "questionForMentor": "Where is greet?"}}
		case len(results) == 0:
			return map[string]any{"name": "write_file", "input": map[string]any{"path": "greet", "content": "#!/bin/sh\necho greet 1.0\n"}}
		case len(results) == 1:
			return map[string]any{"name": "run_command", "input": map[string]any{"command": "chmod +x greet && PATH=$PWD:$PATH greet --version", "step": "Run greet"}}
		default:
			return map[string]any{"name": "finish", "input": map[string]any{"summary": "greet works"}}
		}
	})
	opts := api.Options{Client: api.NewAnthropic(model.URL, "k", nil, api.RetryPolicy{}), Standard: "s", Powerful: "p", Fast: "f", ContextTokenBudget: 60000}
	cfg := config.Default()
	cfg.LLMRuntime, cfg.MaxIterations = config.RuntimeAPI, 3
	cfg.Container.KeepWork = true
	st := e.run(t, cfg, api.NewStudent(opts), api.NewMentor(opts))
	assert.Equal(t, loop.StatusCompleted, st.Status)
	require.Len(t, st.History, 2)
	first := st.History[0].Student
	require.NotNil(t, first)
	assert.Equal(t, loop.StudentAskMentor, first.Status)
	require.Len(t, first.Commands, 1)
	assert.Equal(t, 127, first.Commands[0].ExitCode)
	assert.Equal(t, loop.TriggerMissingDependency, first.Trigger)
	assert.Contains(t, st.History[0].Mentor.Notes, "MENTOR-FIX")
	second := st.History[1].Student
	assert.Equal(t, loop.StudentCompleted, second.Status)
	require.Len(t, second.Commands, 1)
	assert.Contains(t, second.Commands[0].Output, "greet 1.0")
	assert.Equal(t, []string{"/workspace/work/greet"}, second.FilesCreated)
}

// TestCLIRefusedFlagEndsTheRunWithTheCLIError: a CLI that refuses the wrapper's command
// line (the fake gemini narrowed to 0.9.0's --output-format choices, which lacked
// stream-json) fails the run on the real engine, and the blocker quotes the CLI's own
// error, not the help text printed after it; the refusal is not retried.
func TestCLIRefusedFlagEndsTheRunWithTheCLIError(t *testing.T) {
	sandboxtest.RequireDocker(t)
	wrapper, fake := llmBins(t)
	e := newLLMEnv(t, "cli-refused-flag", "# Greet\n\n$ echo hello\n")
	opts := cli.Options{Provider: config.ProviderGemini, MaxAttempts: 3, Backoff: time.Millisecond,
		Env:     map[string]string{"FAKECLI_CHOICES": "--output-format=text,json"},
		Install: []cli.File{{HostPath: wrapper, Name: "smile-wrapper"}, {HostPath: fake, Name: "gemini"}}}
	cfg := config.Default()
	cfg.LLMProvider, cfg.MaxIterations = config.ProviderGemini, 2
	st := e.run(t, cfg, cli.NewStudent(opts), cli.NewMentor(opts))
	assert.NotEqual(t, loop.StatusCompleted, st.Status)
	require.NotEmpty(t, st.History)
	res := st.History[0].Student
	require.NotNil(t, res)
	assert.Equal(t, "Invalid values:\n  Argument: output-format, Given: \"stream-json\", Choices: \"text\", \"json\"", res.Problem)
	assert.Contains(t, res.Reason, "failed (usage) after 1 attempt(s)")
	assert.Len(t, res.LLMCalls, 1, "a refused command line is not retried")
	assert.Empty(t, res.Commands)
}
