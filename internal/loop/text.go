package loop

import (
	"fmt"
	"unicode/utf8"
)

// Clip shortens s to at most n runes, marking the cut with an ellipsis; n <= 0 means no
// limit. It is the one clip of the product: it never splits a UTF-8 sequence.
func Clip(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// ClipMiddle keeps the head (two thirds) and the tail of s within about n bytes, saying
// how much was left out; cuts fall on rune boundaries. For outputs whose end matters
// (errors come last) under a byte budget (an LLM's context).
func ClipMiddle(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	head := n * 2 / 3
	tail := len(s) - (n - head)
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + fmt.Sprintf("\n… [%d bytes omitted] …\n", tail-head) + s[tail:]
}
