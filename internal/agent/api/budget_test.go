package api

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// The native runtime stops at llm.budget: the call that crosses it is recorded with its
// cost, its answer is not acted on, no further call is made, and the Mentor sharing the
// meter is refused too.
func TestNativeRuntimeStopsAtTheBudget(t *testing.T) {
	t.Parallel()
	srv := newModelServer(t, "anthropic", func(view) reply {
		return reply{Calls: []call{tool("run_command", "command", "echo step")}}
	})
	srv.usage = func(view) fakeUsage { return fakeUsage{In: 3000, Out: 200} }
	meter := provider.NewMeter(config.Budget{MaxTokens: 10_000})
	opts := Options{Client: clientFor("anthropic", srv.URL, RetryPolicy{}), Standard: "claude-sonnet-5-5", Powerful: "claude-opus-5-5", Meter: meter}
	res, err := NewStudent(opts).Attempt(context.Background(), studentTask(t))
	var be *provider.BudgetError
	require.True(t, errors.As(err, &be), "%v", err)
	assert.Contains(t, err.Error(), "llm.budget.maxTokens 10000")
	require.Len(t, res.LLMCalls, 4, "3 x 3200 tokens fit, the 4th crosses 10000")
	assert.Len(t, res.Commands, 3, "the answer of the crossing call was not run")
	assert.InDelta(t, 3000*2e-6+200*10e-6, res.LLMCalls[0].CostUSD, 1e-12, "Sonnet 5.5: $2 in, $10 out per million")
	assert.Len(t, srv.views(), 4)

	_, err = NewMentor(opts).Advise(context.Background(), loop.MentorTask{Prompt: "p"})
	require.True(t, errors.As(err, &be))
	assert.Len(t, srv.views(), 4, "the spent budget refuses the Mentor before any call")
	tokens, usd := meter.Spent()
	assert.Equal(t, 12_800, tokens)
	assert.InDelta(t, 4*0.008, usd, 1e-12)
}

// A USD budget needs a price for every model it may call.
func TestUSDBudgetRefusesUnpricedModels(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.LLMProvider, cfg.LLMRuntime = config.ProviderCodex, config.RuntimeAPI
	cfg.LLM.BaseURL = "http://127.0.0.1:1/v1"
	cfg.LLM.Models.Standard = "my-llama"
	cfg.LLM.Budget.MaxUSD = 1
	_, _, err := New(cfg, func(string) string { return "" }, nil)
	var up *provider.UnpricedError
	require.ErrorAs(t, err, &up)
	assert.Equal(t, "my-llama", up.Model)
}
