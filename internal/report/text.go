package report

import (
	"fmt"
	"strings"
)

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func nonEmptyLines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if t := strings.TrimSpace(l); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// truncateMiddle keeps the head and the (more telling) tail of a long text.
func truncateMiddle(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	head := validPrefix(s[:n/4])
	tail := validSuffix(s[len(s)-(n-n/4):])
	return fmt.Sprintf("%s\n… [%d bytes cut; full output in %s] …\n%s", head, len(s)-len(head)-len(tail), AuditFile, tail), true
}

// tailLines keeps the last lines of s within limits (errors come last).
func tailLines(s string, lines, bytes int) string {
	s = strings.TrimRight(s, "\n ")
	all := strings.Split(s, "\n")
	cut := false
	if len(all) > lines {
		all, cut = all[len(all)-lines:], true
	}
	out := strings.Join(all, "\n")
	if len(out) > bytes {
		out, cut = validSuffix(out[len(out)-bytes:]), true
	}
	if cut {
		out = "…\n" + out
	}
	return out
}

func validPrefix(s string) string {
	for len(s) > 0 && !utf8ValidEnd(s) {
		s = s[:len(s)-1]
	}
	return s
}

func validSuffix(s string) string {
	for len(s) > 0 && (s[0]&0xC0) == 0x80 {
		s = s[1:]
	}
	return s
}

func utf8ValidEnd(s string) bool {
	// Walk back over continuation bytes to the lead byte and check the sequence is complete.
	i := len(s) - 1
	for i >= 0 && (s[i]&0xC0) == 0x80 {
		i--
	}
	if i < 0 {
		return false
	}
	need := 1
	switch b := s[i]; {
	case b < 0x80:
		need = 1
	case b&0xE0 == 0xC0:
		need = 2
	case b&0xF0 == 0xE0:
		need = 3
	case b&0xF8 == 0xF0:
		need = 4
	}
	return len(s)-i >= need
}
