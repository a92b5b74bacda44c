package report

import (
	"strings"
)

// Markdown safety (9.S4). Text from the tutorial or an LLM reaches Markdown that GitHub
// renders only through these functions:
//   - mdText: inline text; every character with Markdown meaning is backslash-escaped,
//     < > & become entities (no raw HTML, no entity tricks), line breaks become spaces
//     (tables and list items cannot break), and @name, #123, GH-123 get a zero-width
//     joiner so GitHub links no one and no issue.
//   - codeSpan: a code span whose backtick fence is longer than any backtick run inside.
//   - fence: a fenced block whose fence is longer than any backtick run inside, so the
//     text cannot close it.

const zwj = "\u200d" // zero-width joiner: breaks @mention and #reference autolinks

// mdText escapes s as one line of inline Markdown text.
func mdText(s string) string {
	s = oneLine(clean(s))
	var b strings.Builder
	b.Grow(len(s) + 8)
	rs := []rune(s)
	for i, r := range rs {
		next := rune(0)
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '[', ']', '|', '~', '$', '!', '{', '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '@':
			b.WriteRune(r)
			if isWordRune(next) {
				b.WriteString(zwj)
			}
		case '#':
			b.WriteByte('\\')
			b.WriteRune(r)
			if next >= '0' && next <= '9' {
				b.WriteString(zwj)
			}
		case '-':
			// GH-123 is an issue reference too.
			if i >= 2 && (rs[i-1] == 'H' || rs[i-1] == 'h') && (rs[i-2] == 'G' || rs[i-2] == 'g') && next >= '0' && next <= '9' {
				b.WriteString(zwj)
			}
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

// codeSpan renders s as one line of inline code. In a table cell, pipes are escaped
// (GitHub splits cells before parsing code spans).
func codeSpan(s string, inTable bool) string {
	s = oneLine(clean(s))
	if s == "" {
		return ""
	}
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return ticks + s + ticks
}

// fence renders s as a fenced code block (ending with a newline).
func fence(s, info string) string {
	s = strings.TrimRight(clean(s), "\n")
	ticks := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	return ticks + info + "\n" + s + "\n" + ticks + "\n"
}

// clean normalises line endings and drops characters that have no place in a report.
func clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r':
			return '\n'
		case r < 0x20 || r == 0x7f:
			return -1
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return -1 // bidirectional overrides would make the text read differently than it is
		}
		return r
	}, s)
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}
