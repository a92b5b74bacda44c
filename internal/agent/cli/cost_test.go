package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
)

// codex and gemini report tokens but no cost: the call's cost is estimated from the
// price table; a cost the CLI reports (claude's total_cost_usd) is kept.
func TestLLMCallsEstimateCost(t *testing.T) {
	t.Parallel()
	calls := llmCalls("student", headless.Payload{Provider: "gemini"},
		headless.Summary{Model: "gemini-3.8-flash", InputTokens: 100_000, OutputTokens: 10_000}, "")
	require.Len(t, calls, 1)
	assert.InDelta(t, 0.1*0.75+0.01*3.75, calls[0].CostUSD, 1e-12)

	calls = llmCalls("student", headless.Payload{Provider: "claude"},
		headless.Summary{Model: "claude-sonnet-5-5", InputTokens: 100_000, OutputTokens: 10_000, CostUSD: 0.05}, "")
	assert.Equal(t, 0.05, calls[0].CostUSD)

	calls = llmCalls("student", headless.Payload{Provider: "codex"}, headless.Summary{Model: "my-llama", InputTokens: 10}, "")
	assert.Zero(t, calls[0].CostUSD, "no price, no estimate")
}
