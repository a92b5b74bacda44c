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

// CredentialsTable renders the credential table as the README shows it (between
// <!-- credentials:start --> and <!-- credentials:end -->; a test keeps them equal).
func CredentialsTable() string {
	var b strings.Builder
	b.WriteString("| `llmProvider` | credential variables (first set wins) | sent as | base URL variable (default) |\n|---|---|---|---|\n")
	for _, s := range specs {
		var vars []string
		for _, v := range s.Vars {
			d := "`" + v.Name + "`"
			switch {
			case v.CLIOnly:
				d += " (" + string(v.Kind) + ", `cli` runtime only)"
			case v.Kind != KindAPIKey:
				d += " (" + string(v.Kind) + ")"
			}
			vars = append(vars, d)
		}
		sent := "`" + s.KeyHeader + "`"
		if s.KeyHeader == "Authorization" {
			sent = "`Authorization: Bearer`"
		}
		if s.Provider == config.ProviderClaude {
			sent += "; tokens as `Authorization: Bearer` (OAuth adds `anthropic-beta: oauth-2025-04-20`)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | `%s` (%s) |\n", s.Provider, strings.Join(vars, ", "), sent, s.BaseURLVar, s.DefaultURL)
	}
	return b.String()
}
