package ghaction

import "strings"

// escapeReplacer neutralises what untrusted text (tutorial lines, LLM output) could do in
// GitHub-rendered Markdown: raw HTML and comments (including fake fingerprints),
// @mention pings and #references stay text.
var escapeReplacer = strings.NewReplacer(
	"&", "&amp;",
	"<", "&lt;",
	">", "&gt;",
	"@", "@\u200b",
)

// Escape makes untrusted text safe for a GitHub comment, check-run text or summary.
func Escape(s string) string { return escapeReplacer.Replace(s) }

// EscapeInline also flattens line breaks and table pipes, for a table cell or a title.
func EscapeInline(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(Escape(s), "|", `\|`)
}

// fence returns a code fence longer than any backtick run in s.
func fence(s string) string {
	n, run := 3, 0
	for _, r := range s {
		if r == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n)
}
