package report

import (
	"regexp"
	"strings"
)

// Markdown safety (9.S4). Text from the tutorial or an LLM reaches Markdown that GitHub
// renders (the report, PR comments, review bodies, check runs, the step summary, audit
// issues) only through these functions. Escaping depends on the context:
//   - outside code (InlineMD, ParagraphsMD): every character with Markdown meaning is
//     backslash-escaped, < > & become entities (no raw HTML, no entity tricks), line
//     breaks become spaces, and @name, #123, GH-123, http://, www. get a zero-width
//     joiner so GitHub links no one, no issue and no address;
//   - inside code (the text's own `code spans`, CodeSpanMD, FenceMD): nothing is
//     escaped, the fence is made longer than any backtick run inside instead, so
//     `make && ./run > out` and `git@github.com:o/r` read and copy as written.

const zwj = "\u200d" // zero-width joiner: breaks @mention, #reference and autolinks

// InlineMD escapes untrusted s as one line of inline Markdown. Code spans in s stay
// code spans with their content literal; the rest is inert text.
func InlineMD(s string) string { return inline(s, false) }

// CellMD is InlineMD for a GFM table cell: pipes are escaped inside code too (GitHub
// splits cells before it parses code spans).
func CellMD(s string) string { return inline(s, true) }

// ParagraphsMD escapes untrusted s as Markdown paragraphs: blank lines separate
// paragraphs, each paragraph is one line of InlineMD that cannot start a block (list,
// heading, quote, fence, thematic break).
func ParagraphsMD(s string) string {
	var out []string
	for _, p := range paraSep.Split(strings.TrimSpace(clean(s)), -1) {
		p = inline(p, false)
		if p == "" {
			continue
		}
		if m := orderedStart.FindStringSubmatchIndex(p); m != nil {
			p = p[:m[2]] + `\` + p[m[2]:]
		} else if strings.ContainsRune("-+=", rune(p[0])) {
			p = `\` + p
		}
		out = append(out, p)
	}
	return strings.Join(out, "\n\n")
}

var (
	paraSep      = regexp.MustCompile(`\n[ \t]*\n\s*`)
	orderedStart = regexp.MustCompile(`^[0-9]{1,9}([.)])`)
)

// CodeSpanMD renders s as one line of inline code whose content reads literally.
func CodeSpanMD(s string) string { return codeSpan(s, false) }

// FenceMD renders s as a fenced code block that s cannot close (ends with a newline).
func FenceMD(s, info string) string { return fence(s, info) }

// mdText escapes s as one line of inline Markdown text.
func mdText(s string) string { return inline(s, false) }

// inline splits s into code spans (as CommonMark finds them: a backtick run closed by a
// run of the same length) and text, and renders each for its context.
func inline(s string, inTable bool) string {
	s = oneLine(clean(s))
	var b strings.Builder
	b.Grow(len(s) + 8)
	text := 0 // start of the pending text
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := runAt(s, i)
		end := closingRun(s, i+n, n)
		if end < 0 {
			i += n // unmatched: literal backticks, escaped as text
			continue
		}
		content := s[i+n : end]
		if c := spanContent(content); strings.TrimSpace(c) != "" {
			b.WriteString(escapeText(s[text:i]))
			b.WriteString(codeSpan(c, inTable))
			text = end + n
		}
		i = end + n
	}
	b.WriteString(escapeText(s[text:]))
	return b.String()
}

// runAt is the length of the backtick run starting at i.
func runAt(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// closingRun finds the next backtick run of exactly n from i; -1 when none.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		m := runAt(s, i)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// spanContent strips the one space CommonMark strips from each side of a code span.
func spanContent(c string) string {
	if len(c) >= 2 && c[0] == ' ' && c[len(c)-1] == ' ' && strings.TrimSpace(c) != "" {
		return c[1 : len(c)-1]
	}
	return c
}

// escapeText makes s inert text.
func escapeText(s string) string {
	var b strings.Builder
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
		case ':':
			// scheme://host is an autolink on GitHub.
			b.WriteRune(r)
			if next == '/' && i+2 < len(rs) && rs[i+2] == '/' {
				b.WriteString(zwj)
			}
		case '.':
			// www.example.com is an autolink too.
			if i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www") && (i == 3 || !isWordRune(rs[i-4])) {
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
