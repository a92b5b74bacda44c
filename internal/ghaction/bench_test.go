package ghaction_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smile-loop/smile-loop/internal/ghaction"
)

func BenchmarkParsePatch(b *testing.B) {
	var sb strings.Builder
	for h := 0; h < 100; h++ {
		fmt.Fprintf(&sb, "@@ -%d,10 +%d,12 @@\n", h*20+1, h*22+1)
		for i := 0; i < 10; i++ {
			sb.WriteString(" context\n+added\n")
		}
	}
	patch := sb.String()
	b.SetBytes(int64(len(patch)))
	b.ReportAllocs()
	for b.Loop() {
		_ = ghaction.ParsePatch(patch)
	}
}

func BenchmarkCapMarkdown(b *testing.B) {
	md := strings.Repeat("| `docs/a.md` | ❌ failed | blocker | 2 |\n", 20000) // ~900 KB
	b.SetBytes(int64(len(md)))
	b.ReportAllocs()
	for b.Loop() {
		_ = ghaction.CapMarkdown(md, ghaction.MaxSummary, "https://example/artifact")
	}
}

func BenchmarkSummary(b *testing.B) {
	g := gap(7, 0, strings.Repeat("pip is missing <b>@x</b> `a && b` ", 20))
	results := onA(g, g, g, g, g, g, g, g, g, g)
	b.ReportAllocs()
	for b.Loop() {
		_ = ghaction.Summary(results)
	}
}
