package provider

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
)

var update = flag.Bool("update", false, "rewrite the README's models table")

// Every default model has a price, so a USD budget works with the defaults.
func TestDefaultModelsHavePrices(t *testing.T) {
	t.Parallel()
	for _, p := range []string{config.ProviderClaude, config.ProviderCodex, config.ProviderGemini} {
		m := DefaultModels(p)
		for _, name := range []string{m.Fast, m.Standard, m.Powerful} {
			require.NotEmpty(t, name, p)
			_, ok := PriceOf(name)
			assert.True(t, ok, "%s has no price", name)
		}
	}
}

func TestCost(t *testing.T) {
	t.Parallel()
	// 1M input of which 600k cache reads and 100k cache writes, 10k output, on Sonnet 5.5:
	// 300k x $2 + 600k x $0.20 + 100k x $2.50 + 10k x $10 = 0.60 + 0.12 + 0.25 + 0.10
	usd, ok := Cost("claude-sonnet-5-5", Usage{Input: 1_000_000, CachedRead: 600_000, CacheWrite: 100_000, Output: 10_000})
	require.True(t, ok)
	assert.InDelta(t, 1.07, usd, 1e-9)
	_, ok = Cost("my-local-llama", Usage{Input: 1})
	assert.False(t, ok)
}

func TestPriceOfSnapshotsTakesTheLongestBase(t *testing.T) {
	t.Parallel()
	p, ok := PriceOf("claude-opus-5-5-20261001")
	require.True(t, ok)
	assert.Equal(t, prices["claude-opus-5-5"], p)
	p, ok = PriceOf("models/gemini-3.8-flash")
	require.True(t, ok)
	assert.Equal(t, prices["gemini-3.8-flash"], p)
}

func TestMaxOutputOf(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 65536, MaxOutputOf("gemini-3.8-flash"))
	assert.Equal(t, 64000, MaxOutputOf("claude-haiku-4-5-20251001"))
	assert.Equal(t, 128000, MaxOutputOf("claude-sonnet-5-5"))
	assert.Equal(t, 0, MaxOutputOf("llama3"))
}

// The README's tables are what ModelsTable and CredentialsTable render:
// go test ./internal/provider -run TestReadmeTables -update after changing a table.
func TestReadmeTables(t *testing.T) {
	file := filepath.Join("..", "..", "README.md")
	for _, tt := range []struct{ name, want string }{{"models", ModelsTable()}, {"credentials", CredentialsTable()}} {
		raw, err := os.ReadFile(file)
		require.NoError(t, err)
		start, end := "<!-- "+tt.name+":start -->\n", "<!-- "+tt.name+":end -->"
		s := strings.Index(string(raw), start)
		e := strings.Index(string(raw), end)
		require.True(t, s >= 0 && e > s, "README.md needs the markers %q and %q", start, end)
		if *update {
			out := string(raw[:s+len(start)]) + tt.want + string(raw[e:])
			require.NoError(t, os.WriteFile(file, []byte(out), 0o644))
			continue
		}
		assert.Equal(t, tt.want, string(raw[s+len(start):e]), "run go test ./internal/provider -run TestReadmeTables -update")
	}
}
