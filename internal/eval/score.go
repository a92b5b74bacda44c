package eval

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Reported is one gap a run reported: its tutorial line, its text (problem, fix and
// evidence together) and whether it was classed as an environment limitation.
type Reported struct {
	Line        int
	Text        string
	Environment bool
}

// Verdict says how one reported gap was scored.
type Verdict string

// Verdicts of a reported gap.
const (
	Found          Verdict = "found"           // it found an expected gap
	EnvironmentOK  Verdict = "environment"     // on an environment line and classed as one
	FoldMissed     Verdict = "not folded"      // a consequence reported on its own
	FlaggedWrongly Verdict = "must not flag"   // on a line that must not be flagged
	EnvAsFault     Verdict = "env as fault"    // on an environment line but blamed on the tutorial
	Unmatched      Verdict = "matches nothing" // anything else
)

// Scored is a reported gap with its verdict.
type Scored struct {
	Reported
	Verdict Verdict
	Gap     int // index of the expected gap it found or should have been folded into, -1 when none
}

// Score is the outcome of one tutorial.
type Score struct {
	Expected int // expected gaps
	Found    int
	Reported int
	Correct  int // found an expected gap or correctly classed as environment
	Scored   []Scored
	Missed   []ExpectedGap
}

// FalsePositives is the number of reported gaps that were wrong.
func (s Score) FalsePositives() int { return s.Reported - s.Correct }

// region is an inclusive line range.
type region struct{ start, end int }

func (r region) has(line int) bool { return line >= r.start && line <= r.end }

// regions finds, for each marker, the region the corpus format defines: the code block
// holding the marker's line, or the marker's line plus the code block right after it
// when the next non-blank line opens one.
type regions struct {
	lines  []string
	blocks []region // code blocks: fenced or indented (goldmark) and Hugo/Jekyll highlight pairs
}

var (
	// Hugo {{< highlight >}} pairs, and Jekyll's {% highlight %} … {% endhighlight %},
	// which Markdown parsers see as paragraphs in the same way
	reHugoOpen  = regexp.MustCompile(`^\s*(?:\{\{[<%]|\{%-?)\s*highlight\b`)
	reHugoClose = regexp.MustCompile(`^\s*(?:\{\{[<%]\s*/\s*highlight\s*[>%]\}\}|\{%-?\s*endhighlight\s*-?%\})`)
)

func newRegions(path string, raw []byte) (*regions, error) {
	t, err := tutorial.Parse(path, raw)
	if err != nil {
		return nil, err
	}
	r := &regions{lines: strings.Split(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n")}
	for _, cb := range t.Map.CodeBlocks() {
		r.blocks = append(r.blocks, region{cb.StartLine, max(cb.EndLine, cb.StartLine)})
	}
	open := 0
	for i, l := range r.lines {
		switch {
		case open == 0 && reHugoOpen.MatchString(l):
			open = i + 1
		case open > 0 && reHugoClose.MatchString(l):
			r.blocks = append(r.blocks, region{open, i + 1})
			open = 0
		}
	}
	return r, nil
}

func (r *regions) blockAt(line int) (region, bool) {
	best, ok := region{}, false
	for _, b := range r.blocks {
		// the innermost block wins (a Hugo pair may hold a fenced block)
		if b.has(line) && (!ok || b.end-b.start < best.end-best.start) {
			best, ok = b, true
		}
	}
	return best, ok
}

// of returns the region of a marker (line 0 when the marker is absent).
func (r *regions) of(marker string) region {
	line := 0
	for i, l := range r.lines {
		if strings.Contains(l, marker) {
			line = i + 1
			break
		}
	}
	if line == 0 {
		// a marker spanning lines: locate by offset
		text := strings.Join(r.lines, "\n")
		if i := strings.Index(text, marker); i >= 0 {
			line = strings.Count(text[:i], "\n") + 1
		} else {
			return region{}
		}
	}
	if b, ok := r.blockAt(line); ok {
		return b
	}
	reg := region{line, line}
	for n := line + 1; n <= len(r.lines); n++ {
		if strings.TrimSpace(r.lines[n-1]) == "" {
			continue
		}
		for _, b := range r.blocks {
			if b.start == n {
				reg.end = b.end
			}
		}
		break
	}
	return reg
}

// ScoreCase scores the gaps a run reported on one tutorial against its labels.
func ScoreCase(c Case, raw []byte, reported []Reported) (Score, error) {
	rg, err := newRegions(c.Tutorial, raw)
	if err != nil {
		return Score{}, err
	}
	exp := c.Expected
	s := Score{Expected: len(exp.Gaps), Reported: len(reported)}
	gapRegion := make([]region, len(exp.Gaps))
	for i, g := range exp.Gaps {
		gapRegion[i] = rg.of(g.Marker)
	}
	// can[r] lists the expected gaps reported gap r may find
	can := make([][]int, len(reported))
	for ri, rep := range reported {
		for gi, g := range exp.Gaps {
			if rep.Line > 0 && gapRegion[gi].has(rep.Line) &&
				(g.Mentions == "" || strings.Contains(strings.ToLower(rep.Text), strings.ToLower(g.Mentions))) {
				can[ri] = append(can[ri], gi)
			}
		}
	}
	match := bipartite(can)
	s.Scored = make([]Scored, len(reported))
	for ri, rep := range reported {
		sc := Scored{Reported: rep, Gap: -1}
		if gi, ok := match.byReport[ri]; ok {
			sc.Verdict, sc.Gap = Found, gi
		} else {
			sc.Verdict, sc.Gap = rg.classify(exp, match, rep)
		}
		if sc.Verdict == Found || sc.Verdict == EnvironmentOK {
			s.Correct++
		}
		s.Scored[ri] = sc
	}
	for gi, g := range exp.Gaps {
		if _, ok := match.byGap[gi]; ok {
			s.Found++
		} else {
			s.Missed = append(s.Missed, g)
		}
	}
	return s, nil
}

// classify scores a reported gap that found no expected gap.
func (r *regions) classify(exp Expected, m matching, rep Reported) (Verdict, int) {
	if rep.Line <= 0 {
		return Unmatched, -1
	}
	for gi, g := range exp.Gaps {
		if _, found := m.byGap[gi]; !found {
			continue
		}
		for _, a := range g.AlsoAt {
			if r.of(a).has(rep.Line) {
				return FoldMissed, gi
			}
		}
	}
	// an environment-classed report on a line labelled environment is what the label
	// asks for, even where the same block also holds a line that must not be flagged
	// (a command and its output in one block)
	if rep.Environment {
		for _, mk := range exp.Environment {
			if r.of(mk.Marker).has(rep.Line) {
				return EnvironmentOK, -1
			}
		}
	}
	for _, mk := range exp.MustNotFlag {
		if r.of(mk.Marker).has(rep.Line) {
			return FlaggedWrongly, -1
		}
	}
	for _, mk := range exp.Environment {
		if r.of(mk.Marker).has(rep.Line) {
			if rep.Environment {
				return EnvironmentOK, -1
			}
			return EnvAsFault, -1
		}
	}
	return Unmatched, -1
}

type matching struct {
	byReport map[int]int
	byGap    map[int]int
}

// bipartite finds a maximum matching of reported gaps to expected gaps (augmenting
// paths), so two faults on one line are both found by two reports.
func bipartite(can [][]int) matching {
	m := matching{byReport: map[int]int{}, byGap: map[int]int{}}
	var try func(r int, seen map[int]bool) bool
	try = func(r int, seen map[int]bool) bool {
		for _, g := range can[r] {
			if seen[g] {
				continue
			}
			seen[g] = true
			if other, taken := m.byGap[g]; !taken || try(other, seen) {
				m.byGap[g], m.byReport[r] = r, g
				return true
			}
		}
		return false
	}
	for r := range can {
		try(r, map[int]bool{})
	}
	return m
}
