package ghaction

import (
	"strconv"
	"strings"
)

// Hunks are the new-file line ranges of one file's diff that GitHub accepts review
// comments on (side RIGHT): every added or context line of a hunk.
type Hunks [][2]int // inclusive [first, last] per hunk, in order

// ParsePatch reads the unified diff of one file (the `patch` field of pulls/{n}/files)
// and returns its hunks' new-file line ranges.
func ParsePatch(patch string) Hunks {
	hs, _ := parsePatch(patch)
	return hs
}

// parsePatch returns the hunks' new-file line ranges and the runs of added lines (for
// filter-mode added: a run never crosses a hunk).
func parsePatch(patch string) (hs, added Hunks) {
	cur, first, last := 0, 0, -1
	flush := func() {
		if last >= first && first > 0 {
			hs = append(hs, [2]int{first, last})
		}
		first, last = 0, -1
	}
	addStart, addEnd := 0, -1
	flushAdded := func() {
		if addEnd >= addStart && addStart > 0 {
			added = append(added, [2]int{addStart, addEnd})
		}
		addStart, addEnd = 0, -1
	}
	for _, l := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			flush()
			flushAdded()
			cur = hunkStart(l)
			first = cur
		case cur == 0:
		case strings.HasPrefix(l, "-"), strings.HasPrefix(l, `\`):
			// removed lines and "\ No newline at end of file" have no new-file line
		default: // "+", " " or an empty context line
			if strings.HasPrefix(l, "+") {
				if addStart == 0 {
					addStart = cur
				}
				addEnd = cur
			} else {
				flushAdded()
			}
			last = cur
			cur++
		}
	}
	flush()
	flushAdded()
	return hs, added
}

// hunkStart reads c from "@@ -a,b +c,d @@ …".
func hunkStart(header string) int {
	i := strings.Index(header, "+")
	if i < 0 {
		return 0
	}
	rest := header[i+1:]
	end := strings.IndexAny(rest, ", ")
	if end < 0 {
		return 0
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil {
		return 0
	}
	return n
}

// hunk returns the index of the hunk holding line, or -1.
func (hs Hunks) hunk(line int) int {
	for i, h := range hs {
		if line >= h[0] && line <= h[1] {
			return i
		}
	}
	return -1
}

// Anchor places a gap's lines on the diff: line is the comment's line (its last line),
// start its first line when the comment spans several lines (0 otherwise). ok is false
// when no line of the gap is in the diff.
func (hs Hunks) Anchor(first, last int) (start, line int, ok bool) {
	if last < first {
		last = first
	}
	// The longest run of the gap's lines inside one hunk, preferring the last lines.
	for end := last; end >= first; end-- {
		i := hs.hunk(end)
		if i < 0 {
			continue
		}
		s := first
		if s < hs[i][0] {
			s = hs[i][0]
		}
		if s < end {
			return s, end, true
		}
		return 0, end, true
	}
	return 0, 0, false
}
