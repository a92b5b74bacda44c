package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smile-loop/smile-loop/internal/config"
)

// ModelsTable renders the default models and the price table as the README shows them
// (between <!-- models:start --> and <!-- models:end -->; a test keeps them equal).
func ModelsTable() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Defaults and prices as of %s (USD per million tokens; standard tier, short context).\n\n", PricesAsOf)
	b.WriteString("| `llmProvider` | `llm.models.fast` (compaction) | `llm.models.standard` (Student) | `llm.models.powerful` (Mentor) |\n|---|---|---|---|\n")
	for _, p := range []string{config.ProviderClaude, config.ProviderCodex, config.ProviderGemini} {
		m := defaultModels[p]
		fmt.Fprintf(&b, "| %s | `%s` | `%s` | `%s` |\n", p, m.Fast, m.Standard, m.Powerful)
	}
	b.WriteString("\n| model | input | cached input | cache write | output |\n|---|---|---|---|---|\n")
	names := make([]string, 0, len(prices))
	for n := range prices {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		p := prices[n]
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", n, usd(p.Input), usd(p.CachedRead), usd(p.CacheWrite), usd(p.Output))
	}
	return b.String()
}

func usd(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return "$" + s
}
