package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/api"
	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
	"github.com/smile-loop/smile-loop/internal/provider"
)

func TestNewRoutesTheCLIThroughTheKeyHoldingProxy(t *testing.T) {
	t.Parallel()
	const key = "sk-ant-real-key-for-test"
	var calls atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != key {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		calls.Add(1)
		_, _ = io.WriteString(w, `{}`)
	}))
	t.Cleanup(up.Close)
	env := map[string]string{"ANTHROPIC_API_KEY": key, "ANTHROPIC_BASE_URL": up.URL}
	cfg := config.Default()
	s, m, err := New(cfg, func(k string) string { return env[k] }, Options{Install: fakeInstall("claude")})
	require.NoError(t, err)
	s.proxy.containerHost = "127.0.0.1" // the host sandbox is the host itself
	cm, ok := m.(*Mentor)
	require.True(t, ok, "the claude Mentor is the claude CLI")
	require.Same(t, s.proxy, cm.proxy)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })

	sb := looptest.NewHostSandbox(t)
	apiSrv := newAPI(t)
	apiSrv.SetTurn(loop.TurnStudent, 1, &loop.APITask{Prompt: "$ env\n"})
	r, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "$ env\n", Sandbox: sb, Callback: apiSrv})
	require.NoError(t, err)
	assert.Equal(t, loop.StudentCompleted, r.Status, r.Reason)
	assert.EqualValues(t, 1, calls.Load(), "the fake CLI reached the provider through the proxy")
	require.Len(t, r.Commands, 1)
	assert.Contains(t, r.Commands[0].Output, "PATH=", "the command printed its environment")
	assert.NotContains(t, r.Commands[0].Output, s.Secrets()[0], "the CLI's commands do not inherit the proxy's run token")
	assert.NotContains(t, r.Commands[0].Output, "ANTHROPIC_BASE_URL", "nor its address")
	assert.NotContains(t, r.Commands[0].Output, key)
	for _, req := range sb.Requests() {
		for k, v := range req.Env {
			assert.NotContains(t, v, key, k)
		}
	}
}

// The codex CLI reads files only through a shell: its Mentor is the api runtime's, which
// has no tool that writes or runs anything.
func TestNewCodexMentorIsTheAPIRuntime(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.LLMProvider = config.ProviderCodex
	env := map[string]string{"OPENAI_API_KEY": "sk-test"}
	s, m, err := New(cfg, func(k string) string { return env[k] }, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	assert.IsType(t, &api.Mentor{}, m)
	assert.Equal(t, config.ProviderCodex, s.opts.Provider)
}

func TestNewWithoutAKeyIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.LLMProvider = config.ProviderCodex
	_, _, err := New(cfg, func(string) string { return "" }, Options{})
	var ce *api.CredentialsError
	require.ErrorAs(t, err, &ce)
	assert.True(t, ce.EnvironmentUnavailable())
	assert.Contains(t, err.Error(), "OPENAI_API_KEY")
}

// Issue 15: with only a Claude subscription token the cli runtime runs (the key proxy
// presents the token; see llmproxy's TestProxyPresentsEachCredentialKind) while the api
// runtime refuses with an error naming what to set; before, both refused.
func TestNewWithOnlyAClaudeOAuthToken(t *testing.T) {
	t.Parallel()
	getenv := func(k string) string {
		if k == "CLAUDE_CODE_OAUTH_TOKEN" {
			return "sk-ant-oat01-test"
		}
		return ""
	}
	cfg := config.Default()
	cfg.LLMProvider = config.ProviderClaude
	s, _, err := New(cfg, getenv, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	assert.Equal(t, "sk-ant-oat01-test", s.proxy.opts.Key)
	assert.Equal(t, provider.KindOAuth, s.proxy.opts.KeyKind)

	cfg.LLMRuntime = config.RuntimeAPI
	_, _, err = api.New(cfg, getenv, nil)
	var ce *api.CredentialsError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), "CLAUDE_CODE_OAUTH_TOKEN is set but authenticates only the provider's CLI")
}

// The cli runtime keeps one budget meter per run: the key proxy's, which the codex
// Mentor (the api runtime's) shares; once spent, the agents report it to the loop.
func TestNewSharesOneBudgetMeter(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.LLMProvider = config.ProviderCodex
	cfg.LLM.Budget.MaxTokens = 1000
	s, m, err := New(cfg, func(k string) string { return map[string]string{"OPENAI_API_KEY": "k"}[k] }, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	require.NoError(t, s.proxy.overBudget())
	_, err = s.proxy.opts.Meter.Add("gpt-6.2-sol", provider.Usage{Input: 1500})
	require.Error(t, err)
	var be *provider.BudgetError
	require.ErrorAs(t, s.proxy.overBudget(), &be)
	_, err = m.Advise(context.Background(), loop.MentorTask{Prompt: "p"})
	require.ErrorAs(t, err, &be, "the codex Mentor spends from the same meter")
}
