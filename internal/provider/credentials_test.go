package provider

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestResolveTakesTheFirstUsableVariable(t *testing.T) {
	t.Parallel()
	claude, ok := Lookup(config.ProviderClaude)
	require.True(t, ok)
	c, err := claude.Resolve(config.RuntimeAPI, env("CLAUDE_CODE_OAUTH_TOKEN", "o", "ANTHROPIC_AUTH_TOKEN", "t"))
	require.Nil(t, err)
	assert.Equal(t, Credential{Var: "ANTHROPIC_AUTH_TOKEN", Kind: KindToken, Value: "t"}, c)
	c, err = claude.Resolve(config.RuntimeCLI, env("CLAUDE_CODE_OAUTH_TOKEN", " o ", "ANTHROPIC_API_KEY", ""))
	require.Nil(t, err)
	assert.Equal(t, Credential{Var: "CLAUDE_CODE_OAUTH_TOKEN", Kind: KindOAuth, Value: "o"}, c)
	_, err = claude.Resolve(config.RuntimeAPI, env("CLAUDE_CODE_OAUTH_TOKEN", "o"))
	require.NotNil(t, err)
	assert.Equal(t, []string{"CLAUDE_CODE_OAUTH_TOKEN"}, err.CLIOnly)
	assert.Equal(t, []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"}, err.Env)
	assert.True(t, err.EnvironmentUnavailable())
}

func TestApplyPutsEachKindWhereItTravels(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		provider, name string
		kind           Kind
		want           http.Header
	}{
		{config.ProviderClaude, "key", KindAPIKey, http.Header{"X-Api-Key": {"v"}}},
		{config.ProviderClaude, "gateway", KindToken, http.Header{"Authorization": {"Bearer v"}}},
		{config.ProviderClaude, "oauth", KindOAuth, http.Header{"Authorization": {"Bearer v"}, "Anthropic-Beta": {"oauth-2025-04-20"}}},
		{config.ProviderCodex, "key", KindAPIKey, http.Header{"Authorization": {"Bearer v"}}},
		{config.ProviderGemini, "key", KindAPIKey, http.Header{"X-Goog-Api-Key": {"v"}}},
	} {
		spec, _ := Lookup(tt.provider)
		h := http.Header{}
		Credential{Kind: tt.kind, Value: "v"}.Apply(spec, h)
		assert.Equal(t, tt.want, h, tt.provider+" "+tt.name)
	}
	h := http.Header{}
	spec, _ := Lookup(config.ProviderCodex)
	Credential{}.Apply(spec, h)
	assert.Empty(t, h, "no key for a local OpenAI-compatible server")
}

func TestSecretVarsCoverTheTable(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
		"OPENAI_API_KEY", "CODEX_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"}, SecretVars())
	ok, _ := Usable(config.ProviderNone, config.RuntimeCLI, env())
	assert.True(t, ok, "none needs no credential")
	ok, why := Usable(config.ProviderGemini, config.RuntimeCLI, env())
	assert.False(t, ok)
	assert.Contains(t, why, "GEMINI_API_KEY or GOOGLE_API_KEY")
}

func TestMeterEndsPastEitherLimit(t *testing.T) {
	t.Parallel()
	m := NewMeter(config.Budget{MaxTokens: 1000})
	_, err := m.Add("claude-sonnet-5-5", Usage{Input: 600, Output: 300})
	require.NoError(t, err)
	require.NoError(t, m.Check())
	_, err = m.Add("claude-sonnet-5-5", Usage{Input: 100, Output: 1})
	var be *BudgetError
	require.ErrorAs(t, err, &be)
	assert.True(t, be.BudgetExceeded())
	assert.Contains(t, err.Error(), "past llm.budget.maxTokens 1000")
	assert.ErrorIs(t, m.Check(), err, "every later call is refused")

	m = NewMeter(config.Budget{MaxUSD: 0.01})
	usd, err := m.Add("gpt-6.2-sol", Usage{Input: 4000, Output: 100}) // 0.008 + 0.001
	require.NoError(t, err)
	assert.InDelta(t, 0.009, usd, 1e-12)
	_, err = m.Add("gpt-6.2-sol", Usage{Input: 1000})
	require.ErrorAs(t, err, &be)
	assert.Contains(t, err.Error(), "llm.budget.maxUSD 0.01")
	var up *UnpricedError
	require.ErrorAs(t, m.Priced("my-llama"), &up)
	assert.True(t, up.InvalidInput())
	assert.NoError(t, NewMeter(config.Budget{MaxTokens: 5}).Priced("my-llama"), "a token budget needs no price")
}
