package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// buildRecommendations orders what to change: by severity, then by position in the
// tutorial. Missing prerequisites are gathered into one recommendation (one
// prerequisites section fixes them all); every other gap gets its own.
func buildRecommendations(r *Report) []Recommendation {
	type rec struct {
		Recommendation
		line int
	}
	var recs []rec
	lineOf := func(g Gap) int {
		if g.Location.Found {
			return g.Location.Line
		}
		return int(^uint(0) >> 1)
	}
	var prereq []Gap
	for _, g := range r.Gaps {
		if g.Category == MissingPrerequisite && g.FixSource == loop.FixByRule {
			prereq = append(prereq, g)
			continue
		}
		recs = append(recs, rec{Recommendation{Severity: g.Severity, GapIDs: []int{g.ID},
			Text: where(g) + g.SuggestedFix}, lineOf(g)})
	}
	switch len(prereq) {
	case 0:
	case 1:
		g := prereq[0]
		recs = append(recs, rec{Recommendation{Severity: g.Severity, GapIDs: []int{g.ID}, Text: where(g) + g.SuggestedFix}, lineOf(g)})
	default:
		var tools []string
		ids := []int{}
		sev, first := Low, lineOf(prereq[0])
		for _, g := range prereq {
			ids = append(ids, g.ID)
			if t := g.tool(); t != "" && !slices.Contains(tools, t) {
				tools = append(tools, t)
			}
			if g.Severity.Rank() > sev.Rank() {
				sev = g.Severity
			}
			first = min(first, lineOf(g))
		}
		text := "Add a prerequisites section near the top of the tutorial listing every tool the steps need, with install commands"
		if len(tools) > 0 {
			text += ": " + strings.Join(tools, ", ")
		}
		recs = append(recs, rec{Recommendation{Severity: sev, GapIDs: ids, Text: text + "."}, first})
	}
	// A run that ended early for a reason other than its gaps (timeout, iterations used
	// up, error, cancelled) left part of the tutorial untested: say so.
	if !r.Meta.Completed && (len(r.Gaps) == 0 || r.Meta.Status != "blocker" && r.Meta.Status != "stalled") {
		text := fmt.Sprintf("The run ended as %s before the Student finished the tutorial", r.Meta.Status)
		if r.Meta.Reason != "" {
			text += " (" + strings.TrimRight(oneLine(r.Meta.Reason), ".") + ")"
		}
		if len(r.Gaps) > 0 {
			text += "; the steps after the last gap were not tested. Fix the gaps above and run smile-loop again."
		} else {
			text += "; see the timeline and smile-audit.log, then run smile-loop again."
		}
		recs = append(recs, rec{Recommendation{Severity: High, GapIDs: []int{}, Text: text}, int(^uint(0) >> 1)})
	}
	slices.SortStableFunc(recs, func(a, b rec) int {
		return cmp.Or(cmpSeverity(a.Severity, b.Severity), cmp.Compare(a.line, b.line))
	})
	out := make([]Recommendation, len(recs))
	for i, x := range recs {
		x.Priority = i + 1
		out[i] = x.Recommendation
	}
	return out
}

func where(g Gap) string {
	if !g.Location.Found {
		return "Location unknown: "
	}
	s := fmt.Sprintf("Line %d", g.Location.Line)
	if g.Location.EndLine > g.Location.Line {
		s = fmt.Sprintf("Lines %d-%d", g.Location.Line, g.Location.EndLine)
	}
	if len(g.Location.HeadingPath) > 0 {
		s += " (" + strings.Join(g.Location.HeadingPath, " › ") + ")"
	}
	return s + ": "
}
