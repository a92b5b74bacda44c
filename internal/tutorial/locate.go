package tutorial

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Locate thresholds: how much of the quote must be found, and how much of the located
// text a short quote must cover (so "install" alone does not land on any line using it).
const (
	minCoverage      = 0.6
	minShortDensity  = 0.5
	shortQuoteTokens = 3
)

// locBlock is a leaf block prepared for Locate: its words with their lines.
type locBlock struct {
	kind   BlockKind
	tokens []string
	lines  []int // line of each token
	set    map[string]bool
}

type token struct {
	word   string
	weight float64
}

// stopWords weigh little: a quote matching only them is not a match.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "and": true, "or": true, "in": true,
	"on": true, "is": true, "it": true, "be": true, "for": true, "with": true, "this": true,
	"that": true, "you": true, "your": true, "then": true, "as": true, "at": true, "by": true,
	"from": true, "if": true, "are": true, "we": true, "will": true, "can": true, "s": true, "t": true,
	// the Student's own narration around a quote
	"i": true, "was": true, "my": true, "me": true, "says": true, "said": true, "step": true, "section": true,
}

var (
	linkDest = regexp.MustCompile(`\]\([^)]*\)|\]\[[^\]]*\]`)
	htmlTag  = regexp.MustCompile(`</?[A-Za-z][^>]*>`)
)

// words splits text into lower-case words of letters and digits: Markdown markup,
// punctuation and spacing disappear, so "**Run** the `setup` script" and
// "Run the setup script" give the same words. Link destinations and HTML tags go first.
func words(s string, prose bool) []string {
	if prose {
		s = linkDest.ReplaceAllString(s, " ")
		s = htmlTag.ReplaceAllString(s, " ")
	}
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func (m *LineMap) buildIndex() {
	for _, b := range m.blocks {
		var first, last int
		prose := true
		switch b.Kind {
		case KindHeading, KindParagraph, KindHTML, KindTable:
			first, last = b.StartLine, b.EndLine
		case KindFencedCode, KindIndentedCode, KindHTMLCode:
			prose = false
			first, last = b.StartLine, b.EndLine
			if b.Kind == KindFencedCode {
				first++
				if last > first && isFence(m.Line(last)) {
					last--
				}
			}
		default:
			continue
		}
		lb := locBlock{kind: b.Kind, set: map[string]bool{}}
		for n := first; n <= last; n++ {
			for _, w := range words(m.Line(n), prose) {
				lb.tokens = append(lb.tokens, w)
				lb.lines = append(lb.lines, n)
				lb.set[w] = true
			}
		}
		if len(lb.tokens) > 0 {
			m.index = append(m.index, lb)
		}
	}
}

func isFence(l string) bool {
	t := strings.TrimSpace(strings.TrimLeft(l, " \t>"))
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// Locate finds the best place for a quote of the tutorial, as a Student would give it:
// with or without Markdown markup, with different spacing, or only part of a sentence
// (a heading title finds the heading). ok is false when nothing matches well enough.
// When the quote fits several places equally well, the first in the document wins; use
// LocateAll to choose among them.
func (m *LineMap) Locate(quote string) (loc Location, ok bool) {
	all := m.LocateAll(quote)
	if len(all) == 0 {
		return Location{}, false
	}
	return all[0], true
}

// LocateAll returns every place that matches the quote well enough (at most one per
// block), best first; equal scores keep document order.
func (m *LineMap) LocateAll(quote string) []Location {
	m.once.Do(m.buildIndex)
	q := quoteTokens(quote)
	if len(q) == 0 {
		return nil
	}
	var total float64
	content := 0
	for _, t := range q {
		total += t.weight
		if t.weight == 1 {
			content++
		}
	}
	var out []Location
	for _, b := range m.index {
		if !sharesContent(q, b) || presentWeight(q, b) < minCoverage*total {
			continue // cannot reach the coverage: skip the alignment
		}
		matched, s, e, ok := align(q, b.tokens)
		if !ok {
			continue
		}
		cover := matched / total
		if cover < minCoverage {
			continue
		}
		first, last := b.lines[s], b.lines[e]
		lineTokens := 0
		for _, l := range b.lines {
			if l >= first && l <= last {
				lineTokens++
			}
		}
		density := float64(countMatched(q, b.tokens[s:e+1])) / float64(max(lineTokens, 1))
		if content < shortQuoteTokens && density < minShortDensity {
			continue
		}
		lines := make([]string, 0, last-first+1)
		for n := first; n <= last; n++ {
			lines = append(lines, m.Line(n))
		}
		out = append(out, Location{Line: first, EndLine: last, Text: strings.Join(lines, "\n"),
			Score: min(0.85*cover+0.15*density, 1)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score+1e-9 })
	return out
}

func quoteTokens(quote string) []token {
	ws := words(quote, true)
	if len(ws) > 200 {
		ws = ws[:200]
	}
	out := make([]token, len(ws))
	for i, w := range ws {
		out[i] = token{word: w, weight: 1}
		if stopWords[w] {
			out[i].weight = 0.25
		}
	}
	return out
}

func sharesContent(q []token, b locBlock) bool {
	any := false
	for _, t := range q {
		if b.set[t.word] {
			if t.weight == 1 {
				return true
			}
			any = true
		}
	}
	// A quote of stop words only ("it is on the") may still match a block of them.
	for _, t := range q {
		if t.weight == 1 {
			return false
		}
	}
	return any
}

// presentWeight bounds what an alignment with b can match: the weight of the quote's
// words that occur in b at all.
func presentWeight(q []token, b locBlock) float64 {
	var w float64
	for _, t := range q {
		if b.set[t.word] {
			w += t.weight
		}
	}
	return w
}

func countMatched(q []token, span []string) int {
	in := map[string]int{}
	for _, w := range span {
		in[w]++
	}
	n := 0
	for _, t := range q {
		if in[t.word] > 0 {
			in[t.word]--
			n++
		}
	}
	return n
}

// align is a local alignment (Smith–Waterman) of the quote's words against a block's
// words: matches earn the word's weight, words the Student left out or changed and extra
// words in the text cost a little. It returns the matched weight and the block word range
// of the best alignment.
func align(q []token, b []string) (matched float64, start, end int, ok bool) {
	const gapText, gapQuote, mismatch = 0.3, 0.4, 0.5
	type cell struct {
		h, m  float64
		start int
	}
	prev := make([]cell, len(b)+1)
	cur := make([]cell, len(b)+1)
	var best cell
	bestEnd := -1
	for i := 1; i <= len(q); i++ {
		cur[0] = cell{}
		w := q[i-1].weight
		for j := 1; j <= len(b); j++ {
			c := cell{}
			// diagonal: match or changed word
			d := prev[j-1]
			if q[i-1].word == b[j-1] {
				st := d.start
				if d.h == 0 {
					st = j - 1
				}
				c = cell{h: d.h + w, m: d.m + w, start: st}
			} else if d.h > 0 {
				if v := d.h - mismatch*w; v > c.h {
					c = cell{h: v, m: d.m, start: d.start}
				}
			}
			if up := prev[j]; up.h > 0 { // a quote word not in the text
				if v := up.h - gapQuote*w; v > c.h {
					c = cell{h: v, m: up.m, start: up.start}
				}
			}
			if left := cur[j-1]; left.h > 0 { // a text word not in the quote
				if v := left.h - gapText; v > c.h {
					c = cell{h: v, m: left.m, start: left.start}
				}
			}
			cur[j] = c
			if c.h > best.h && q[i-1].word == b[j-1] {
				best, bestEnd = c, j-1
			}
		}
		prev, cur = cur, prev
	}
	if bestEnd < 0 {
		return 0, 0, 0, false
	}
	return best.m, best.start, bestEnd, true
}
