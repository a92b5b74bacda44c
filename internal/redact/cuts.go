package redact

import (
	"slices"
	"strings"
)

// The piece of a secret a cut ("…") left at either side of the cut point.

// ellipsis marks where a text was cut ("…", as clip, capture and truncate write it).
const ellipsis = "…"

// cuts masks the piece of a raw secret that a cut left next to a cut point: either side
// of an ellipsis (spaces and line breaks skipped).
func (r *Redactor) cuts(s string) string {
	if len(r.raw) == 0 {
		return s
	}
	if !strings.Contains(s, ellipsis) {
		return s
	}
	var before, after []int // cut points: text ends before / starts after
	for off := 0; ; {
		j := strings.Index(s[off:], ellipsis)
		if j < 0 {
			break
		}
		p := off + j
		b := p
		for b > 0 && strings.ContainsRune(" \t\r\n", rune(s[b-1])) {
			b--
		}
		a := p + len(ellipsis)
		for a < len(s) && strings.ContainsRune(" \t\r\n", rune(s[a])) {
			a++
		}
		before, after = append(before, b), append(after, a)
		off = p + len(ellipsis)
	}
	var spans [][2]int
	for _, sec := range r.raw {
		for _, p := range before {
			if k := cutPrefix(s[max(0, p-len(sec)+1):p], sec); k > 0 {
				spans = append(spans, [2]int{p - k, p})
			}
		}
		for _, p := range after {
			if k := cutSuffix(s[p:min(len(s), p+len(sec)-1)], sec); k > 0 {
				spans = append(spans, [2]int{p, p + k})
			}
		}
	}
	return replaceSpans(s, spans)
}

// cutPrefix is the length of the longest proper prefix of sec (at least minPartial
// bytes) that text ends with, 0 when none.
func cutPrefix(text, sec string) int {
	if len(sec) <= minPartial {
		return 0
	}
	head := sec[:minPartial]
	for off := 0; ; {
		j := strings.Index(text[off:], head)
		if j < 0 {
			return 0
		}
		q := off + j
		if k := len(text) - q; k < len(sec) && text[q:] == sec[:k] {
			return k
		}
		off = q + 1
	}
}

// cutSuffix is the length of the longest proper suffix of sec (at least minPartial
// bytes) that text starts with, 0 when none.
func cutSuffix(text, sec string) int {
	if len(text) < minPartial || len(sec) <= minPartial {
		return 0
	}
	head := text[:minPartial]
	for off := 1; off < len(sec); {
		j := strings.Index(sec[off:], head)
		if j < 0 {
			return 0
		}
		q := off + j
		if k := len(sec) - q; k <= len(text) && text[:k] == sec[q:] {
			return k
		}
		off = q + 1
	}
	return 0
}

// replaceSpans replaces each [start,end) span of s (overlaps merged) with Mask.
func replaceSpans(s string, spans [][2]int) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		start, end := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] <= end; i++ {
			end = max(end, spans[i][1])
		}
		if start < last {
			start = last
		}
		b.WriteString(s[last:start])
		b.WriteString(Mask)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
