// Package ghaction is Action mode: inputs and outputs, review comments, check run, step
// summary, artifact upload, discovery and scheduled audit issues.
package ghaction

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Result is one tutorial's run as Action mode publishes it. The command builds it from
// the run's report (FromReport) so this package stays independent of how runs happen.
type Result struct {
	Tutorial string // path relative to the repository root, slash-separated
	Status   string // the loop's end state ("completed", "max_iterations", …) or "error"
	Passed   bool   // the tutorial passed under the fail threshold
	Gaps     []Gap
	Markdown string   // the rendered Markdown report
	Files    []string // report files on disk (smile-report.md/.json/.sarif, smile-audit.log)
	Err      string   // why the run produced no report, "" when it did
}

// Gap is one stuck point of the Student, located in the tutorial.
type Gap struct {
	ID           string
	Path         string // tutorial path relative to the repository root
	Line         int    // first line (1-based)
	EndLine      int    // last line; 0 or Line for a single line
	Text         string // the tutorial's text at Line..EndLine
	Heading      string // heading path, "Install › Linux"
	Problem      string
	SuggestedFix string
	Severity     string // critical, high, medium, low
	Category     string
	Fingerprint  string // stable identity across runs; computed when empty
	Evidence     *Evidence
}

// Evidence is what the learner ran and saw at the gap (already redacted by the report).
type Evidence struct {
	Command  string
	ExitCode int
	Output   string // short; its end when long
}

// maxEvidenceLines and maxEvidenceBytes keep the evidence in a comment short.
const (
	maxEvidenceLines = 15
	maxEvidenceBytes = 1500
)

// text renders the evidence as a terminal transcript, clipped to its end.
func (e *Evidence) text() string {
	out := strings.TrimRight(e.Output, "\n")
	lines := strings.Split(out, "\n")
	if len(lines) > maxEvidenceLines {
		out = "…\n" + strings.Join(lines[len(lines)-maxEvidenceLines:], "\n")
	}
	if len(out) > maxEvidenceBytes {
		cut := out[len(out)-maxEvidenceBytes:]
		for len(cut) > 0 && !utf8.ValidString(cut) {
			cut = cut[1:]
		}
		out = "…" + cut
	}
	var b strings.Builder
	if e.Command != "" {
		b.WriteString("$ " + e.Command + "\n")
	}
	if out != "" {
		b.WriteString(out + "\n")
	}
	fmt.Fprintf(&b, "(exit %d)", e.ExitCode)
	return b.String()
}

// last returns the gap's last line.
func (g Gap) last() int {
	if g.EndLine > g.Line {
		return g.EndLine
	}
	return g.Line
}

// Severity ranks, highest first.
var severityRank = map[string]int{"critical": 4, "high": 3, "medium": 2, "low": 1}

// AtOrAbove reports whether severity is at or above the threshold failOn. "never" (or an
// unknown threshold) never matches.
func AtOrAbove(severity, failOn string) bool {
	t, ok := severityRank[failOn]
	if !ok {
		return false
	}
	return severityRank[severity] >= t
}
