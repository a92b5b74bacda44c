// Package ghaction is Action mode: inputs and outputs, review comments, check run, step
// summary, artifact upload, discovery and scheduled audit issues.
//
// It publishes report.Report as it is: which run failed is the report's answer
// (Report.Failed under the threshold the trusted side chose), and the gaps are the
// report's gaps. The types here describe GitHub objects and the job's inputs only.
package ghaction

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/smile-loop/smile-loop/internal/report"
)

// Result is one tutorial's run to publish: its report and the threshold it is judged by.
type Result struct {
	Tutorial string         // path relative to the repository root, slash-separated
	Report   *report.Report // nil when the run produced no report
	// FailOn is the threshold the trusted side decided (inputs, smile.json); never the
	// one an untrusted artifact claims.
	FailOn   string
	Markdown string   // the rendered report ("" for an untrusted report: its gaps are listed instead)
	Files    []string // report files on disk (smile-report.md/.json/.sarif, smile-audit.log)
	Err      string   // why the run produced no report, "" when it did
	// Untrusted marks a report read from another run's artifact (report-dir): no
	// suggestion blocks are built from its text.
	Untrusted bool
}

// Failed reports whether the run fails the job: no report, or report.Failed.
func (r Result) Failed() bool { return r.Err != "" || r.Report.Failed(r.FailOn) }

// Status is the run's end state, "error" without a report.
func (r Result) Status() string {
	if r.Err != "" || r.Report == nil {
		return "error"
	}
	return r.Report.Meta.Status
}

// gaps returns the report's gaps on the tutorial's file.
func (r Result) gaps() []fileGap {
	if r.Report == nil {
		return nil
	}
	out := make([]fileGap, 0, len(r.Report.Gaps))
	for _, g := range r.Report.Gaps {
		out = append(out, fileGap{Path: r.Tutorial, Gap: g, untrusted: r.Untrusted})
	}
	return out
}

// FromReport prepares one run's report for publishing. tutorial is the
// repository-relative path the run was asked to test (used when the report has no
// tutorialUri); failOn is the effective threshold.
func FromReport(tutorial string, r *report.Report, files report.Files, failOn string) Result {
	res := Result{Tutorial: filepath.ToSlash(tutorial), Report: r, FailOn: failOn}
	if r == nil {
		res.Err = "the run produced no report"
		return res
	}
	if r.Meta.TutorialURI != "" {
		if p, ok := cleanRepoPath(r.Meta.TutorialURI); ok {
			res.Tutorial = p
		}
	}
	res.Markdown = report.RenderMarkdown(r)
	for _, f := range []string{files.Markdown, files.JSON, files.SARIF, files.Audit} {
		if f != "" {
			res.Files = append(res.Files, f)
		}
	}
	return res
}

// fileGap is a report gap on its tutorial file: what a review comment, annotation or
// list item is about.
type fileGap struct {
	Path string
	report.Gap
	untrusted bool
}

// line is the gap's first line, 0 when it could not be located.
func (g fileGap) line() int {
	if g.Location.Found && g.Location.Line > 0 {
		return g.Location.Line
	}
	return 0
}

// last returns the gap's last line.
func (g fileGap) last() int {
	if l := g.line(); l > 0 && g.Location.EndLine > l {
		return g.Location.EndLine
	}
	return g.line()
}

// failing reports whether the gap alone fails the run under failOn.
func (g fileGap) failing(failOn string) bool { return g.Severity.Fails(failOn) }

func (g fileGap) id() string { return fmt.Sprintf("G%d", g.ID) }

func (g fileGap) heading() string { return strings.Join(g.Location.HeadingPath, " › ") }

// maxEvidenceLines and maxEvidenceBytes keep the evidence in a comment short.
const (
	maxEvidenceLines = 15
	maxEvidenceBytes = 1500
)

// evidenceText renders the evidence as a terminal transcript, clipped to its end; ""
// when there is none.
func evidenceText(e *report.Evidence) string {
	if e == nil || e.Command == "" && e.Output == "" {
		return ""
	}
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
