package ghaction

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/smile-loop/smile-loop/internal/report"
)

// Summary renders the step summary (also the check run's summary): an overview table,
// then each tutorial's report (an untrusted report: its gaps, escaped).
func Summary(results []Result) string {
	var b strings.Builder
	b.WriteString("# smile-loop tutorial check\n\n")
	if len(results) == 0 {
		b.WriteString("No tutorial to test: nothing matched the `tutorials` input")
		b.WriteString(" (on a pull request, only changed tutorials are tested).\n")
		return b.String()
	}
	b.WriteString("| Tutorial | Result | Status | Gaps |\n|---|---|---|---|\n")
	thresholds := map[string]bool{}
	for _, r := range results {
		verdict := "✅ passed"
		switch {
		case r.Err != "":
			verdict = "⚠️ error"
		case r.Failed():
			verdict = "❌ failed"
		}
		thresholds[threshold(r.FailOn)] = true
		fmt.Fprintf(&b, "| %s | %s | %s | %d |\n", codeCell(r.Tutorial), verdict, report.CellMD(r.Status()), len(r.gaps()))
	}
	if len(thresholds) == 1 {
		for t := range thresholds {
			if t == "never" {
				b.WriteString("\nFails only when a run does not complete (`fail-on: never`).\n")
			} else {
				fmt.Fprintf(&b, "\nFails on gaps of severity %s or above.\n", report.CodeSpanMD(t))
			}
		}
	}
	for _, r := range results {
		b.WriteString("\n---\n\n")
		switch {
		case r.Err != "":
			fmt.Fprintf(&b, "## %s\n\nThe run produced no report: %s\n", report.CodeSpanMD(r.Tutorial), report.InlineMD(r.Err))
		case r.Markdown != "":
			b.WriteString(strings.TrimSpace(r.Markdown) + "\n")
		default:
			fmt.Fprintf(&b, "## %s\n\n", report.CodeSpanMD(r.Tutorial))
			for _, g := range r.gaps() {
				b.WriteString(gapLine(g, "") + "\n")
			}
		}
	}
	return b.String()
}

// threshold names the severity threshold report.Failed applies for failOn.
func threshold(failOn string) string {
	if failOn == "never" || report.Severity(failOn).Rank() > 0 {
		return failOn
	}
	return string(report.High)
}

// codeCell renders a path as code in a table cell.
func codeCell(s string) string { return strings.ReplaceAll(report.CodeSpanMD(s), "|", `\|`) }

// CapMarkdown cuts md to at most limit bytes (GitHub counts the summary's size), at a
// line boundary, closing an open code fence and ending with a note that links to where
// the whole report is (link may be empty).
func CapMarkdown(md string, limit int, link string) string {
	if len(md) <= limit {
		return md
	}
	note := "\n\n---\n**Report truncated** to fit GitHub's limit."
	if link != "" {
		note += fmt.Sprintf(" The full report is in the [workflow artifact](%s).", link)
	} else {
		note += " The full report is in the workflow artifact `smile-report`."
	}
	note += "\n"
	budget := limit - len(note) - len("\n````````\n")
	if budget < 0 {
		budget = 0
	}
	cut := md[:budget]
	for !utf8.ValidString(cut) && len(cut) > 0 {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndex(cut, "\n"); i > 0 {
		cut = cut[:i]
	}
	if f := openFence(cut); f != "" {
		cut += "\n" + f
	}
	return cut + note
}

// openFence returns the fence that is still open at the end of md, "" when none.
func openFence(md string) string {
	open := ""
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 {
			continue
		}
		for _, ch := range []string{"`", "~"} {
			if !strings.HasPrefix(t, ch+ch+ch) {
				continue
			}
			n := len(t) - len(strings.TrimLeft(t, ch))
			f := strings.Repeat(ch, n)
			switch {
			case open == "":
				open = f
			case strings.HasPrefix(open, ch) && n >= len(open) && strings.TrimSpace(t[n:]) == "":
				open = ""
			}
		}
	}
	return open
}
