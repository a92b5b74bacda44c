package report

import (
	"slices"
	"strconv"
	"strings"
)

// sumTokens totals the LLM calls, overall and per agent (student, mentor, compaction,
// then any other in name order), costs rounded to a millionth of a dollar.
func sumTokens(calls []LLMCallEntry) TokenTotal {
	var t TokenTotal
	idx := map[string]int{}
	for _, c := range calls {
		t.In += c.TokensIn
		t.Cached += c.CachedIn
		t.Out += c.TokensOut
		t.CostUSD += c.CostUSD
		i, ok := idx[c.Agent]
		if !ok {
			i = len(t.ByAgent)
			idx[c.Agent] = i
			t.ByAgent = append(t.ByAgent, AgentTokens{Agent: c.Agent})
		}
		a := &t.ByAgent[i]
		a.Calls++
		a.In += c.TokensIn
		a.Cached += c.CachedIn
		a.Out += c.TokensOut
		a.CostUSD += c.CostUSD
	}
	rank := func(agent string) int {
		if i := slices.Index([]string{"student", "mentor", "compaction"}, agent); i >= 0 {
			return i
		}
		return 3
	}
	slices.SortStableFunc(t.ByAgent, func(a, b AgentTokens) int {
		if d := rank(a.Agent) - rank(b.Agent); d != 0 {
			return d
		}
		if a.Agent < b.Agent {
			return -1
		}
		if a.Agent > b.Agent {
			return 1
		}
		return 0
	})
	t.CostUSD = roundUSD(t.CostUSD)
	for i := range t.ByAgent {
		t.ByAgent[i].CostUSD = roundUSD(t.ByAgent[i].CostUSD)
	}
	return t
}

func roundUSD(v float64) float64 { return float64(int64(v*1e6+0.5)) / 1e6 }

// Line is the one-line token summary the report and the step summary show:
// "12,340 in (8,000 cached), 1,200 out, ≈ $0.0312; student 10,000 in …".
func (t TokenTotal) Line() string {
	s := tokenPart(t.In, t.Cached, t.Out, t.CostUSD)
	if len(t.ByAgent) > 1 {
		for _, a := range t.ByAgent {
			s += "; " + a.Agent + " " + tokenPart(a.In, a.Cached, a.Out, a.CostUSD)
		}
	}
	return s
}

func tokenPart(in, cached, out int, usd float64) string {
	s := thousands(in) + " in"
	if cached > 0 {
		s += " (" + thousands(cached) + " cached)"
	}
	s += ", " + thousands(out) + " out"
	if usd > 0 {
		s += ", ≈ $" + trimUSD(usd)
	}
	return s
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// trimUSD shows four decimals, without trailing zeros.
func trimUSD(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}
