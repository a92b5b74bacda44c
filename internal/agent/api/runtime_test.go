package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
)

func behavior() config.StudentBehavior { return config.Default().StudentBehavior }

// tutorialBrain plays a Student that hits a missing tool, asks, and — once the mentor's
// note tells it how to get the tool — completes; and a Mentor that reads a file first.
func tutorialBrain(v view) reply {
	if strings.Contains(v.System, "Mentor") {
		if len(v.ToolResults) == 0 {
			return reply{Calls: []call{tool("list_dir", "path", ".")}}
		}
		return reply{Calls: []call{tool("give_notes", "notes", "The tutorial never installs greet. Create it as a script: printf '#!/bin/sh\\necho hello' > greet && chmod +x greet.")}}
	}
	if !v.has("Create it as a script") { // iteration 1: no notes yet
		if len(v.ToolResults) == 0 {
			return reply{Text: "Running step 1.", Calls: []call{tool("run_command", "command", "greet --version", "step", "Install greet")}}
		}
		if strings.Contains(v.lastResult(), "stuck trigger missing_dependency") {
			return reply{Calls: []call{tool("ask_mentor", "currentStep", "Install greet", "quote", "Run `greet --version`.",
				"problem", "greet: command not found", "questionForMentor", "Where does greet come from?", "attemptedActions", []string{"greet --version"})}}
		}
		return reply{Text: "unexpected"}
	}
	switch len(v.ToolResults) {
	case 0:
		return reply{Calls: []call{tool("write_file", "path", "greet", "content", "#!/bin/sh\necho hello\n")}}
	case 1:
		return reply{Calls: []call{tool("run_command", "command", "chmod +x greet && ./greet", "step", "Install greet")}}
	default:
		return reply{Calls: []call{tool("finish", "summary", "greet prints hello", "currentStep", "Install greet")}}
	}
}

func TestStudentAsksReceivesNotesAndCompletes(t *testing.T) {
	t.Parallel()
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			srv := newModelServer(t, provider, tutorialBrain)
			opts := Options{Client: clientFor(provider, srv.URL, RetryPolicy{}), Fast: "fast-m", Standard: "std-m", Powerful: "pow-m", ContextTokenBudget: 60000}
			sb := looptest.NewHostSandbox(t)
			ev := &looptest.Recorder{}
			ctx := context.Background()
			student, mentor := NewStudent(opts), NewMentor(opts)

			r1, err := student.Attempt(ctx, loop.StudentTask{Iteration: 1, Prompt: "Tutorial: run `greet --version`.", Behavior: behavior(), Sandbox: sb, Events: ev})
			require.NoError(t, err)
			assert.Equal(t, loop.StudentAskMentor, r1.Status)
			assert.Equal(t, loop.TriggerMissingDependency, r1.Trigger)
			assert.Equal(t, "Where does greet come from?", r1.QuestionForMentor)
			require.Len(t, r1.Commands, 1)
			assert.Equal(t, 127, r1.Commands[0].ExitCode)
			assert.Equal(t, loop.ClassMissingDependency, r1.Commands[0].Class)
			require.Len(t, r1.Findings, 1)
			assert.Equal(t, "Run `greet --version`.", r1.Findings[0].Quote)
			assert.Equal(t, "greet --version", r1.Findings[0].Command)
			assert.Equal(t, r1.Trigger, r1.Findings[0].Trigger, "the finding carries the attempt's trigger (loop.NewFinding at the end)")
			require.Len(t, r1.LLMCalls, 2)
			assert.Equal(t, "student", r1.LLMCalls[0].Agent)
			assert.Equal(t, "std-m", r1.LLMCalls[0].Model)
			assert.Positive(t, r1.LLMCalls[0].TokensIn)
			assert.Equal(t, 20, r1.LLMCalls[0].TokensOut)
			require.Len(t, ev.Events(), 2, "the command, then the trigger it fired")
			assert.Equal(t, loop.EventCommand, ev.Types()[0])
			assert.Equal(t, loop.EventTrigger, ev.Types()[1])

			m, err := mentor.Advise(ctx, loop.MentorTask{Iteration: 1, Prompt: "Student asks: Where does greet come from?", Student: r1, Sandbox: sb})
			require.NoError(t, err)
			assert.Contains(t, m.Notes, "Create it as a script")
			assert.False(t, m.Unresolvable)
			require.Len(t, m.LLMCalls, 2)
			assert.Equal(t, "pow-m", m.LLMCalls[0].Model)

			ev = &looptest.Recorder{}
			r2, err := student.Attempt(ctx, loop.StudentTask{Iteration: 2, Prompt: "Tutorial: run `greet --version`.\n\nMentor notes:\n" + m.Notes, Behavior: behavior(), Sandbox: sb, Events: ev})
			require.NoError(t, err)
			assert.Equal(t, loop.StudentCompleted, r2.Status)
			assert.Equal(t, "greet prints hello", r2.Summary)
			require.Len(t, r2.Commands, 1)
			assert.Equal(t, 0, r2.Commands[0].ExitCode)
			assert.Contains(t, r2.Commands[0].Output, "hello")
			require.Len(t, r2.Files, 1)
			assert.Equal(t, "/workspace/work/greet", r2.Files[0].Path)
			assert.Empty(t, r2.FilesCreated, "the Student's own list: the loop fills it from the observed files")

			// The wire requests carried the tools with their generated schemas and the
			// Mentor got only read-only tools.
			views := srv.views()
			assert.ElementsMatch(t, []string{"ask_mentor", "cannot_complete", "finish", "list_dir", "read_file", "run_command", "write_file"}, views[0].Tools)
			assert.ElementsMatch(t, []string{"fetch_url", "give_notes", "list_dir", "read_file"}, views[2].Tools)
			assert.Contains(t, views[3].lastResult(), "total", "the mentor saw the directory listing")
		})
	}
}

func TestToolSchemasAreGeneratedFromTypes(t *testing.T) {
	t.Parallel()
	var s struct {
		Type       string                    `json:"type"`
		Required   []string                  `json:"required"`
		Properties map[string]map[string]any `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(schemaOf[runCommandArgs](), &s))
	assert.Equal(t, "object", s.Type)
	assert.Equal(t, []string{"command"}, s.Required)
	assert.Equal(t, "string", s.Properties["command"]["type"])
	assert.NotContains(t, string(schemaOf[runCommandArgs]()), "$schema")
	assert.NotContains(t, string(geminiSchema(schemaOf[runCommandArgs]())), "additionalProperties")
}

func TestToolErrorsGoBackToTheModel(t *testing.T) {
	t.Parallel()
	r := NewRegistry(NewTool("boom", "panics", func(context.Context, listDirArgs) (string, error) { panic("kaboom") }))
	tests := []struct {
		name string
		call ToolCall
		want string
	}{
		{name: "unknown tool", call: ToolCall{ID: "1", Name: "rm_rf"}, want: `unknown tool "rm_rf"; available tools: boom`},
		{name: "bad arguments", call: ToolCall{ID: "2", Name: "boom", Args: json.RawMessage(`{"path": 3}`)}, want: "invalid arguments for boom"},
		{name: "unknown argument", call: ToolCall{ID: "3", Name: "boom", Args: json.RawMessage(`{"file": "x"}`)}, want: "unknown field"},
		{name: "panic", call: ToolCall{ID: "4", Name: "boom", Args: json.RawMessage(`{}`)}, want: "tool boom failed: kaboom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := r.Call(context.Background(), tt.call)
			assert.True(t, res.IsError)
			assert.Contains(t, res.Content, tt.want)
			assert.Equal(t, tt.call.ID, res.CallID)
		})
	}
}

func TestBoundsStopAModelThatNeverEnds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		brain   brain
		want    string
		wantReq int
	}{
		{name: "max steps", brain: func(view) reply { return reply{Calls: []call{tool("run_command", "command", "true")}} }, want: "step limit reached: 6 tool calls", wantReq: 6},
		{name: "consecutive tool errors", brain: func(view) reply { return reply{Calls: []call{tool("teleport")}} }, want: "3 failing tool calls in a row", wantReq: 3},
		{name: "text without tools", brain: func(view) reply { return reply{Text: "I am thinking."} }, want: "3 times in a row without a tool call", wantReq: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newModelServer(t, "anthropic", tt.brain)
			s := NewStudent(Options{Client: clientFor("anthropic", srv.URL, RetryPolicy{}), Standard: "m", MaxSteps: 6, MaxConsecutiveErrors: 3})
			res, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "p", Behavior: behavior(), Sandbox: looptest.NewHostSandbox(t)})
			require.NoError(t, err)
			assert.Equal(t, loop.StudentAskMentor, res.Status)
			assert.Contains(t, res.Problem, tt.want)
			assert.Len(t, srv.views(), tt.wantReq)
			if tt.name == "consecutive tool errors" {
				assert.Contains(t, srv.views()[1].lastResult(), `unknown tool "teleport"`)
			}
		})
	}
}

func TestCancellationIsCheckedAfterEachToolCall(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	srv := newModelServer(t, "openai", func(view) reply {
		return reply{Calls: []call{tool("run_command", "command", "true"), tool("run_command", "command", "true")}}
	})
	sb := &cancellingSandbox{HostSandbox: looptest.NewHostSandbox(t), cancel: cancel}
	s := NewStudent(Options{Client: clientFor("openai", srv.URL, RetryPolicy{}), Standard: "m"})
	res, err := s.Attempt(ctx, loop.StudentTask{Iteration: 1, Prompt: "p", Behavior: behavior(), Sandbox: sb})
	require.ErrorIs(t, err, context.Canceled)
	assert.Len(t, res.Commands, 1, "the second call of the same turn never ran")
	assert.Len(t, srv.views(), 1)
}

type cancellingSandbox struct {
	*looptest.HostSandbox
	cancel func()
}

func (c *cancellingSandbox) Exec(ctx context.Context, req loop.ExecRequest) (loop.ExecResult, error) {
	res, err := c.HostSandbox.Exec(ctx, req)
	c.cancel()
	return res, err
}

func TestStuckTriggersFireFromObservedResults(t *testing.T) {
	t.Parallel()
	failing := func(v view) reply {
		return reply{Calls: []call{tool("run_command", "command", "ls /nonexistent-dir", "step", "List")}}
	}
	tests := []struct {
		name        string
		brain       brain
		behave      func(*config.StudentBehavior)
		wantStatus  string
		wantTrigger loop.Trigger
		wantCmds    int
	}{
		{name: "command failure with low patience asks after the notice", brain: failing, wantStatus: loop.StudentAskMentor, wantTrigger: loop.TriggerCommandFailure, wantCmds: 2},
		{name: "trigger disabled ends in cannot_complete", brain: failing, behave: func(b *config.StudentBehavior) { b.AskOnCommandFailure = false; b.MaxRetriesBeforeHelp = 2 },
			wantStatus: loop.StudentCannotComplete, wantCmds: 3},
		{name: "timeout asks at once (4.E4)", brain: func(view) reply { return reply{Calls: []call{tool("run_command", "command", "sleep 5")}} },
			behave: func(b *config.StudentBehavior) { b.TimeoutSeconds = 1 }, wantStatus: loop.StudentAskMentor, wantTrigger: loop.TriggerTimeout, wantCmds: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newModelServer(t, "anthropic", tt.brain)
			b := behavior()
			if tt.behave != nil {
				tt.behave(&b)
			}
			s := NewStudent(Options{Client: clientFor("anthropic", srv.URL, RetryPolicy{}), Standard: "m"})
			res, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "p", Behavior: b, Sandbox: looptest.NewHostSandbox(t)})
			require.NoError(t, err)
			assert.Equal(t, tt.wantStatus, res.Status)
			assert.Equal(t, tt.wantTrigger, res.Trigger)
			assert.Len(t, res.Commands, tt.wantCmds)
			require.Len(t, res.Findings, 1)
			assert.NotEmpty(t, res.Findings[0].Class)
		})
	}
}

func TestRateLimitRetryAfterIsWaitedOut(t *testing.T) {
	t.Parallel()
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			srv := newModelServer(t, provider, func(view) reply { return reply{Calls: []call{tool("finish", "summary", "done")}} })
			srv.fail = func(n int, w http.ResponseWriter) bool {
				if n > 1 {
					return false
				}
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
				fmt.Fprint(w, `{"error":{"type":"rate_limit_error","message":"slow down"}}`)
				return true
			}
			var sl sleeper
			s := NewStudent(Options{Client: clientFor(provider, srv.URL, RetryPolicy{InitialInterval: time.Millisecond, Sleep: sl.sleep}), Standard: "m"})
			res, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "p", Behavior: behavior(), Sandbox: looptest.NewHostSandbox(t)})
			require.NoError(t, err)
			assert.Equal(t, loop.StudentCompleted, res.Status)
			assert.Equal(t, []time.Duration{time.Second}, sl.got(), "Retry-After: 1 was honoured")
		})
	}
}

func TestPersistentProviderErrorsBecomeABlocker(t *testing.T) {
	t.Parallel()
	var slept []time.Duration
	srv := newModelServer(t, "anthropic", func(view) reply { return reply{Text: "never"} })
	srv.fail = func(n int, w http.ResponseWriter) bool {
		w.WriteHeader(529)
		fmt.Fprint(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
		return true
	}
	pol := RetryPolicy{MaxAttempts: 4, InitialInterval: 100 * time.Millisecond, Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	s := NewStudent(Options{Client: clientFor("anthropic", srv.URL, pol), Standard: "m"})
	res, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "p", Behavior: behavior(), Sandbox: looptest.NewHostSandbox(t)})
	require.NoError(t, err)
	assert.Equal(t, loop.StudentCannotComplete, res.Status)
	assert.Contains(t, res.Reason, "overloaded_error: Overloaded")
	require.Len(t, slept, 3)
	// exponential backoff: cenkalti/backoff v5's multiplier 1.5 with the ±50 % jitter the
	// transport sets, so wait i lies within [0.5, 1.5] × 100 ms × 1.5^i (the bands of
	// waits 0 and 2 overlap: comparing the two draws would fail now and then)
	base := 100 * time.Millisecond
	for i, d := range slept {
		assert.GreaterOrEqual(t, d, base/2, "wait %d", i)
		assert.LessOrEqual(t, d, base*3/2, "wait %d", i)
		base = base * 3 / 2
	}
	require.Len(t, res.LLMCalls, 1)
	assert.Contains(t, res.LLMCalls[0].Error, "Overloaded")

	// Mentor (6.E1): the notes say the mentor could not be consulted and mark the blocker.
	m, err := NewMentor(Options{Client: clientFor("anthropic", srv.URL, pol), Standard: "m"}).Advise(context.Background(), loop.MentorTask{Prompt: "p"})
	require.NoError(t, err)
	assert.True(t, m.Unresolvable)
	assert.Contains(t, m.Notes, "Overloaded")
}

func TestAuthErrorCarriesTheProviderMessage(t *testing.T) {
	t.Parallel()
	srv := newModelServer(t, "openai", func(view) reply { return reply{} })
	c := NewOpenAI(srv.URL+"/v1", "wrong", nil, RetryPolicy{MaxAttempts: 2, Sleep: func(context.Context, time.Duration) error { return nil }})
	_, err := c.Complete(context.Background(), Request{Model: "m"})
	var apiErr *APIError
	require.True(t, errors.As(err, &apiErr))
	assert.True(t, apiErr.Auth())
	assert.Contains(t, apiErr.Message, "Incorrect API key provided")
	assert.Equal(t, "invalid_request_error", apiErr.Type)
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   string
		want time.Duration
	}{
		{name: "seconds", in: "7", want: 7 * time.Second},
		{name: "fraction", in: "0.5", want: 500 * time.Millisecond},
		{name: "http date", in: now.Add(90 * time.Second).Format(http.TimeFormat), want: 90 * time.Second},
		{name: "past date", in: now.Add(-time.Minute).Format(http.TimeFormat), want: 0},
		{name: "garbage", in: "soon", want: 0},
		{name: "empty", in: "", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, parseRetryAfter(tt.in, now))
		})
	}
}

// longBrain runs many commands with large outputs, then finishes; as compaction model
// it writes a summary under the fixed headings.
func longBrain(steps int) brain {
	var mu sync.Mutex
	n := 0
	return func(v view) reply {
		if strings.Contains(v.System, "You compress") {
			return reply{Text: "## Goal\n- follow the tutorial\n## Progress so far\n- ran commands\n## Commands and results\n- yes x: exit 0\n## Files\n- none\n## Open problems\n- none"}
		}
		mu.Lock()
		n++
		cur := n
		mu.Unlock()
		if cur > steps {
			return reply{Calls: []call{tool("finish", "summary", fmt.Sprintf("ran %d commands", steps))}}
		}
		return reply{Calls: []call{tool("run_command", "command", "head -c 6000 /dev/zero | tr '\\0' x", "step", fmt.Sprintf("step %d", cur))}}
	}
}

func TestCompactionKeepsTheRunGoingPastTheBudget(t *testing.T) {
	t.Parallel()
	srv := newModelServer(t, "anthropic", longBrain(30))
	s := NewStudent(Options{Client: clientFor("anthropic", srv.URL, RetryPolicy{}), Fast: "fast-m", Standard: "std-m", ContextTokenBudget: 8000})
	res, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "THE TUTORIAL PROMPT", Behavior: behavior(), Sandbox: looptest.NewHostSandbox(t)})
	require.NoError(t, err)
	assert.Equal(t, loop.StudentCompleted, res.Status)
	assert.Equal(t, "ran 30 commands", res.Summary)

	var compactions, peak int
	for _, c := range res.LLMCalls {
		if c.Agent == "compaction" {
			compactions++
			assert.Equal(t, "fast-m", c.Model)
		} else {
			peak = max(peak, c.TokensIn)
		}
	}
	assert.Positive(t, compactions)
	assert.LessOrEqual(t, peak, 8000+4000, "student calls stay near the budget (one turn of growth)")
	views := srv.views()
	last := views[len(views)-1]
	assert.Equal(t, "THE TUTORIAL PROMPT", last.Texts[0], "the first message is kept")
	assert.True(t, last.has("[smile-loop: earlier steps of this attempt, summarised"))
	for _, h := range summaryHeadings {
		assert.True(t, last.has(h))
	}
}

func TestSplitNeverSeparatesToolCallsFromResults(t *testing.T) {
	t.Parallel()
	msgs := []Message{{Role: RoleUser, Parts: []Part{{Text: "prompt"}}}}
	for i := range 10 {
		id := fmt.Sprint(i)
		msgs = append(msgs,
			Message{Role: RoleAssistant, Parts: []Part{{ToolCall: &ToolCall{ID: id, Name: "run_command"}}}},
			Message{Role: RoleUser, Parts: []Part{{ToolResult: &ToolResult{CallID: id, Content: "ok"}}}})
	}
	head, middle, tail, ok := split(msgs)
	require.True(t, ok)
	assert.Len(t, head, 3, "the second message's results stay with it")
	assert.Equal(t, RoleAssistant, tail[0].Role)
	assert.GreaterOrEqual(t, len(tail), 4)
	assert.Equal(t, len(msgs), len(head)+len(middle)+len(tail))
}

func TestResolveEndpoint(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name     string
		provider string
		llm      config.LLM
		getenv   func(string) string
		wantURL  string
		runtime  string
		wantKey  string
		wantVar  string
		wantErr  string
	}{
		{name: "claude", provider: "claude", getenv: env("ANTHROPIC_API_KEY", "a"), wantURL: DefaultAnthropicURL, wantKey: "a"},
		{name: "claude base url env", provider: "claude", getenv: env("ANTHROPIC_API_KEY", "a", "ANTHROPIC_BASE_URL", "http://x"), wantURL: "http://x", wantKey: "a"},
		{name: "config wins", provider: "claude", llm: config.LLM{BaseURL: "http://cfg"}, getenv: env("ANTHROPIC_API_KEY", "a", "ANTHROPIC_BASE_URL", "http://x"), wantURL: "http://cfg", wantKey: "a"},
		{name: "codex", provider: "codex", getenv: env("OPENAI_API_KEY", "o"), wantURL: DefaultOpenAIURL, wantKey: "o"},
		{name: "codex local server needs no key", provider: "codex", getenv: env("OPENAI_BASE_URL", "http://localhost:11434/v1"), wantURL: "http://localhost:11434/v1"},
		{name: "gemini google key", provider: "gemini", getenv: env("GOOGLE_API_KEY", "g"), wantURL: DefaultGeminiURL, wantKey: "g"},
		{name: "gemini key first", provider: "gemini", getenv: env("GEMINI_API_KEY", "g1", "GOOGLE_API_KEY", "g2", "GOOGLE_GEMINI_BASE_URL", "http://gg"), wantURL: "http://gg", wantKey: "g1"},
		{name: "missing key", provider: "claude", getenv: env(), wantErr: "set ANTHROPIC_API_KEY"},
		{name: "missing gemini key", provider: "gemini", getenv: env(), wantErr: "set GEMINI_API_KEY or GOOGLE_API_KEY"},
		{name: "no api", provider: "none", getenv: env(), wantErr: "has no LLM API"},
		{name: "gateway token", provider: "claude", getenv: env("ANTHROPIC_AUTH_TOKEN", "t", "ANTHROPIC_BASE_URL", "http://gw"), wantURL: "http://gw", wantKey: "t", wantVar: "ANTHROPIC_AUTH_TOKEN"},
		{name: "api key before token", provider: "claude", getenv: env("ANTHROPIC_AUTH_TOKEN", "t", "ANTHROPIC_API_KEY", "a"), wantURL: DefaultAnthropicURL, wantKey: "a", wantVar: "ANTHROPIC_API_KEY"},
		{name: "oauth only, api runtime", provider: "claude", getenv: env("CLAUDE_CODE_OAUTH_TOKEN", "o"),
			wantErr: "CLAUDE_CODE_OAUTH_TOKEN is set but authenticates only the provider's CLI"},
		{name: "oauth only, cli runtime", provider: "claude", runtime: config.RuntimeCLI, getenv: env("CLAUDE_CODE_OAUTH_TOKEN", "o"), wantURL: DefaultAnthropicURL, wantKey: "o", wantVar: "CLAUDE_CODE_OAUTH_TOKEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rt := tt.runtime
			if rt == "" {
				rt = config.RuntimeAPI
			}
			ep, err := ResolveEndpoint(tt.provider, rt, tt.llm, tt.getenv)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				var ce *CredentialsError
				if errors.As(err, &ce) {
					assert.True(t, ce.EnvironmentUnavailable())
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantURL, ep.BaseURL)
			assert.Equal(t, tt.wantKey, ep.Credential.Value)
			if tt.wantVar != "" {
				assert.Equal(t, tt.wantVar, ep.Credential.Var)
			}
		})
	}
}

func TestOptionsForUsesTiersOverProviderDefaults(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.LLMProvider = config.ProviderGemini
	cfg.LLM.Models.Standard = "gemini-custom"
	o := OptionsFor(cfg, nil)
	assert.Equal(t, "gemini-3.5-flash-lite", o.Fast)
	assert.Equal(t, "gemini-custom", o.Standard)
	assert.Equal(t, "gemini-3.8-flash", o.Powerful)
	assert.Equal(t, config.TierTokens{Fast: 16000, Standard: 32000, Powerful: 32000}, o.MaxTokens)
	assert.Equal(t, 60, o.MaxSteps)
	assert.Equal(t, 60000, o.ContextTokenBudget)
}

func TestAJSONAnswerEndsTheAttempt(t *testing.T) {
	t.Parallel()
	srv := newModelServer(t, "openai", func(view) reply {
		return reply{Text: "Done.\n```json\n{\"status\": \"completed\", \"summary\": \"nothing to run\",}\n```"}
	})
	s := NewStudent(Options{Client: clientFor("openai", srv.URL, RetryPolicy{}), Standard: "m"})
	res, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "p", Behavior: behavior(), Sandbox: looptest.NewHostSandbox(t)})
	require.NoError(t, err)
	assert.Equal(t, loop.StudentCompleted, res.Status)
	assert.Equal(t, "nothing to run", res.Summary, "recovered despite the trailing comma")
}
