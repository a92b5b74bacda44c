package redact

import (
	"bytes"
	"strings"
)

// Encoded forms of a secret wrapped over several lines (base64 -w 76, PEM), found
// through fixed-size pieces and masked whole.

// wrapWindow and wrapStride pick the pieces of an encoded form looked for before the
// slower search across line breaks: a line of at least wrapWindow+wrapStride-1
// characters of the form always holds one of them.
const (
	wrapWindow = 8
	wrapStride = 4
)

// unwrap masks the encoded forms split over lines (base64 -w 76, PEM's 64 columns),
// also when each line carries a quoting gutter.
// One pass over s finds the candidate forms through their pieces.
func (r *Redactor) unwrap(s string) string {
	if len(r.wrapped) == 0 || len(s) < wrapWindow || !strings.ContainsAny(s, "\r\n") {
		return s
	}
	// Regions of s around the pieces found: a form with a piece at i lies within
	// 2·len(form) of i even with a line break and gutter every 32 characters. Only the
	// regions are flattened, so memory stays proportional to what may be masked.
	type region struct {
		start, end int
		forms      map[int]bool
	}
	var regions []region
	for i := 0; i+wrapWindow <= len(s); i++ {
		for _, w := range r.windows[le64(s[i:i+wrapWindow])] {
			pad := 2*len(r.wrapped[w]) + 64
			start, end := max(0, i-pad), min(len(s), i+pad)
			if n := len(regions); n > 0 && start <= regions[n-1].end {
				regions[n-1].end = max(regions[n-1].end, end)
				regions[n-1].forms[w] = true
				continue
			}
			regions = append(regions, region{start: start, end: end, forms: map[int]bool{w: true}})
		}
	}
	var spans [][2]int
	for _, rg := range regions {
		var forms []string
		for w := range rg.forms {
			forms = append(forms, r.wrapped[w])
		}
		spans = append(spans, flatMatches(s, rg.start, rg.end, forms)...)
	}
	return replaceSpans(s, spans)
}

// flatMatches finds forms in s[start:end] with line breaks and the quoting gutter after
// each (no encoding's alphabet has these characters) left out, and returns their spans
// in s.
func flatMatches(s string, start, end int, forms []string) [][2]int {
	flat := make([]byte, 0, end-start)
	at := make([]int, 0, end-start) // at[k]: index in s of flat[k]
	for i := start; i < end; i++ {
		if s[i] != '\n' && s[i] != '\r' {
			flat = append(flat, s[i])
			at = append(at, i)
			continue
		}
		for i+1 < end && (s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '|' || s[i+1] == '>') {
			i++
		}
	}
	var spans [][2]int
	for _, w := range forms {
		for off := 0; ; {
			j := bytes.Index(flat[off:], []byte(w))
			if j < 0 {
				break
			}
			a, b := off+j, off+j+len(w)
			spans = append(spans, [2]int{at[a], at[b-1] + 1})
			off = b
		}
	}
	return spans
}

// le64 packs the 8 bytes of s into a map key without allocating.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
