package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// The report totals tokens overall and per agent (student, mentor, compaction first),
// cached input apart, and the audit log records the cached part of each call.
func TestTokensPerAgentWithCachedInput(t *testing.T) {
	t.Parallel()
	calls := []LLMCallEntry{
		{Agent: "mentor", TokensIn: 5000, CachedIn: 4000, TokensOut: 300, CostUSD: 0.0031},
		{Agent: "student", TokensIn: 12000, CachedIn: 9000, TokensOut: 800, CostUSD: 0.0125},
		{Agent: "compaction", TokensIn: 3000, TokensOut: 400, CostUSD: 0.0005},
		{Agent: "student", TokensIn: 15000, CachedIn: 12000, TokensOut: 900, CostUSD: 0.0140},
	}
	got := sumTokens(calls)
	assert.Equal(t, 35000, got.In)
	assert.Equal(t, 25000, got.Cached)
	assert.Equal(t, 2400, got.Out)
	assert.InDelta(t, 0.0301, got.CostUSD, 1e-9)
	assert.Equal(t, []AgentTokens{
		{Agent: "student", Calls: 2, In: 27000, Cached: 21000, Out: 1700, CostUSD: 0.0265},
		{Agent: "mentor", Calls: 1, In: 5000, Cached: 4000, Out: 300, CostUSD: 0.0031},
		{Agent: "compaction", Calls: 1, In: 3000, Out: 400, CostUSD: 0.0005},
	}, got.ByAgent)
	assert.Equal(t, "35,000 in (25,000 cached), 2,400 out, ≈ $0.0301; student 27,000 in (21,000 cached), 1,700 out, ≈ $0.0265; "+
		"mentor 5,000 in (4,000 cached), 300 out, ≈ $0.0031; compaction 3,000 in, 400 out, ≈ $0.0005", got.Line())

	var b strings.Builder
	a := newAuditWriter(&b, nil)
	writeCall(a, loop.LLMCall{Agent: "student", Provider: "anthropic", Model: "claude-sonnet-5-5", TokensIn: 12000, CachedTokensIn: 9000, TokensOut: 800})
	require.NoError(t, a.flush())
	assert.Contains(t, b.String(), "tokens-in=12000 tokens-out=800")
	assert.Contains(t, b.String(), "cached-in=9000")
}
