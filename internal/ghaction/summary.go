package ghaction

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

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
