package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// maxTableRows caps each audit table in the Markdown; the JSON and the audit log keep all.
const maxTableRows = 200

// RenderMarkdown renders the report as GitHub-flavoured Markdown (smile-report.md, the
// step summary). All text from the tutorial, the Student and the Mentor is escaped.
func RenderMarkdown(r *Report) string {
	var b strings.Builder
	m := r.Meta
	fmt.Fprintf(&b, "# SMILE Loop Report: %s\n\n", mdText(m.TutorialName))

	b.WriteString("## Summary\n\n")
	fmt.Fprintf(&b, "- **Status**: %s %s\n", statusIcon(r), mdText(m.Status))
	fmt.Fprintf(&b, "- **Iterations**: %d\n", m.Iterations)
	fmt.Fprintf(&b, "- **Duration**: %s\n", humanDuration(time.Duration(m.DurationMS)*time.Millisecond))
	fmt.Fprintf(&b, "- **Tutorial**: %s\n", codeSpan(cmpStr(m.TutorialURI, m.Tutorial), false))
	if c := m.GapCounts; c.Total > 0 {
		fmt.Fprintf(&b, "- **Gaps**: %d (%s)\n", c.Total, severityCounts(c))
	} else {
		b.WriteString("- **Gaps**: none\n")
	}
	if m.Tokens.In+m.Tokens.Out > 0 {
		fmt.Fprintf(&b, "- **LLM tokens**: %s\n", m.Tokens.Line())
	}
	if c := r.Coverage; c != nil {
		fmt.Fprintf(&b, "- **Coverage**: %s\n", mdText(c.Line()))
	}
	b.WriteString("\n" + verdict(r) + "\n\n")

	if len(r.Gaps) > 0 {
		b.WriteString("## Gaps Identified\n\n")
		for _, g := range r.Gaps {
			writeGap(&b, g)
		}
	}

	writeCoverage(&b, r.Coverage)

	b.WriteString("## Timeline\n\n")
	if len(r.Timeline) == 0 {
		b.WriteString("No iteration ran.\n\n")
	}
	for _, e := range r.Timeline {
		writeIteration(&b, e)
	}

	b.WriteString("## Audit Trail\n\n")
	writeCommands(&b, r.AuditTrail.Commands)
	writeFiles(&b, r.AuditTrail.Files)
	writeCalls(&b, r.AuditTrail.LLMCalls)

	b.WriteString("## Recommendations\n\n")
	if len(r.Recommendations) == 0 {
		b.WriteString("None: the Student completed the tutorial without getting stuck.\n")
	}
	for _, rec := range r.Recommendations {
		fmt.Fprintf(&b, "%d. **%s**: %s", rec.Priority, rec.Severity, mdText(rec.Text))
		if len(rec.GapIDs) > 0 {
			fmt.Fprintf(&b, " (%s)", gapRefs(rec.GapIDs))
		}
		b.WriteByte('\n')
	}
	return r.redactor.String(b.String())
}

func statusIcon(r *Report) string {
	switch {
	case r.Meta.Completed && len(r.Gaps) == 0:
		return "✅"
	case r.Meta.Completed:
		return "⚠️"
	}
	return "❌"
}

func verdict(r *Report) string {
	m := r.Meta
	n := len(r.Gaps)
	switch {
	case m.Completed && n == 0:
		return "**No gaps found.** The Student completed the tutorial without help."
	case m.Completed:
		return fmt.Sprintf("The Student completed the tutorial, but got stuck on the way: **%d gap%s** found.", n, plural(n))
	}
	s := fmt.Sprintf("**The run ended as %s before the Student completed the tutorial.**", mdText(m.Status))
	if m.Reason != "" {
		s += " " + mdText(m.Reason)
	}
	if n == 0 {
		s += " No gap was recorded; see the timeline and the audit trail."
	}
	return s
}

func severityCounts(c GapCounts) string {
	var parts []string
	for _, x := range []struct {
		n    int
		name string
	}{{c.Critical, "critical"}, {c.High, "high"}, {c.Medium, "medium"}, {c.Low, "low"}} {
		if x.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", x.n, x.name))
		}
	}
	return strings.Join(parts, ", ")
}

func writeGap(b *strings.Builder, g Gap) {
	fmt.Fprintf(b, "### Gap %d: %s\n\n", g.ID, mdText(g.Title))
	var after []string // blocks that follow the list
	l := g.Location
	switch {
	case !l.Found && l.Quote != "":
		fmt.Fprintf(b, "- **Location**: could not be determined; the Student referred to %s\n", codeSpan(loop.Clip(l.Quote, 200), false))
	case !l.Found:
		b.WriteString("- **Location**: could not be determined\n")
	default:
		lines := fmt.Sprintf("Line %d", l.Line)
		if l.EndLine > l.Line {
			lines = fmt.Sprintf("Lines %d-%d", l.Line, l.EndLine)
		}
		if len(l.HeadingPath) > 0 {
			parts := make([]string, len(l.HeadingPath))
			for i, h := range l.HeadingPath {
				parts[i] = mdText(h)
			}
			lines += " (" + strings.Join(parts, " › ") + ")"
		}
		text := strings.TrimSpace(l.Text)
		switch {
		case text == "":
			fmt.Fprintf(b, "- **Location**: %s\n", lines)
		case strings.Contains(text, "\n"):
			fmt.Fprintf(b, "- **Location**: %s, quoted below\n", lines)
			after = append(after, "**Tutorial text**:\n\n"+fence(l.Text, "markdown"))
		default:
			fmt.Fprintf(b, "- **Location**: %s - %s\n", lines, codeSpan(loop.Clip(text, 300), false))
		}
	}
	fmt.Fprintf(b, "- **Severity**: %s · **Category**: %s\n", g.Severity, mdText(string(g.Category)))
	fmt.Fprintf(b, "- **Seen in iteration%s**: %s\n", plural(len(g.Iterations)), joinInts(g.Iterations))
	if g.Trigger != "" || g.Class != "" {
		var parts []string
		if g.Trigger != "" {
			parts = append(parts, "**Trigger**: "+mdText(g.Trigger))
		}
		if g.Class != "" {
			parts = append(parts, "**Failure class**: "+mdText(g.Class))
		}
		fmt.Fprintf(b, "- %s\n", strings.Join(parts, " · "))
	}
	if g.Step != "" {
		fmt.Fprintf(b, "- **Step**: %s\n", mdText(loop.Clip(g.Step, 300)))
	}
	writeField(b, &after, "Problem", g.Problem)
	writeField(b, &after, "Suggested Fix", g.SuggestedFix)
	if g.Question != "" && g.Question != g.Problem {
		writeField(b, &after, "Question for the Mentor", g.Question)
	}
	if len(g.AlsoAt) > 0 {
		fmt.Fprintf(b, "- **Also at lines**: %s\n", joinInts(g.AlsoAt))
	}
	if g.FixVerified == nil && g.FixEvidence != "" {
		writeField(b, &after, "Fix verified", "not proven: "+strings.TrimPrefix(strings.TrimPrefix(g.FixEvidence, "not proven: "), "not checked: "))
	}
	if g.FixVerified != nil {
		verdict := "no, the step still failed with the fix applied"
		if *g.FixVerified {
			verdict = "yes, the step worked with the fix applied in a fresh container"
		}
		fmt.Fprintf(b, "- **Fix verified**: %s\n", verdict)
		if g.FixEvidence != "" {
			writeField(b, &after, "Fix evidence", g.FixEvidence)
		}
	}
	if e := g.Evidence; e != nil && e.Command != "" {
		ev := fmt.Sprintf("**Evidence**: %s exited with %d", codeSpan(loop.Clip(e.Command, 300), false), e.ExitCode)
		if strings.TrimSpace(e.Output) != "" {
			ev += ":\n\n" + fence(e.Output, "text")
		} else {
			ev += ".\n"
		}
		after = append(after, ev)
	}
	b.WriteByte('\n')
	for _, a := range after {
		b.WriteString(a)
		b.WriteByte('\n')
	}
}

// writeField writes a list field; multi-line text goes in a block after the list.
func writeField(b *strings.Builder, after *[]string, label, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	if strings.Contains(text, "\n") {
		fmt.Fprintf(b, "- **%s**: see below\n", label)
		*after = append(*after, fmt.Sprintf("**%s**:\n\n%s", label, fence(loop.Clip(text, 4000), "text")))
		return
	}
	fmt.Fprintf(b, "- **%s**: %s\n", label, mdText(loop.Clip(text, 2000)))
}

func writeIteration(b *strings.Builder, e TimelineEntry) {
	fmt.Fprintf(b, "### Iteration %d\n\n", e.Iteration)
	if !e.Started.IsZero() {
		fmt.Fprintf(b, "- **Started**: %s\n", e.Started.Format(time.RFC3339))
	}
	if e.DurationMS > 0 {
		fmt.Fprintf(b, "- **Duration**: %s\n", humanDuration(time.Duration(e.DurationMS)*time.Millisecond))
	}
	fmt.Fprintf(b, "- **Student Actions**: %s\n", mdText(loop.Clip(e.Actions, 1000)))
	res := mdText(e.Result)
	if e.Trigger != "" {
		res += " (trigger: " + mdText(e.Trigger) + ")"
	}
	fmt.Fprintf(b, "- **Result**: %s\n", res)
	if e.CurrentStep != "" {
		fmt.Fprintf(b, "- **Step**: %s\n", mdText(loop.Clip(e.CurrentStep, 300)))
	}
	if e.Problem != "" {
		fmt.Fprintf(b, "- **Problem**: %s\n", mdText(loop.Clip(e.Problem, 1000)))
	}
	if e.Error != "" {
		fmt.Fprintf(b, "- **Error**: %s\n", mdText(loop.Clip(e.Error, 1000)))
	}
	if len(e.GapIDs) > 0 {
		fmt.Fprintf(b, "- **Gaps**: %s\n", joinInts(e.GapIDs))
	}
	if e.MentorNotes != "" {
		label := "Mentor Notes"
		if e.Unresolvable {
			label += " (no way forward found)"
		}
		fmt.Fprintf(b, "- **%s**:\n\n%s", label, indent(fence(loop.Clip(e.MentorNotes, 4000), "text"), "  "))
	}
	b.WriteByte('\n')
}

func indent(s, prefix string) string {
	var b strings.Builder
	for l := range strings.Lines(s) {
		if strings.TrimSpace(l) == "" {
			b.WriteString(l)
			continue
		}
		b.WriteString(prefix + l)
	}
	return b.String()
}

func writeCommands(b *strings.Builder, cmds []CommandEntry) {
	b.WriteString("### Commands Executed\n\n")
	if len(cmds) == 0 {
		b.WriteString("None.\n\n")
		return
	}
	b.WriteString("| Iteration | Line | Command | Exit Code | Duration | Output Summary |\n")
	b.WriteString("|---:|---:|---|---:|---:|---|\n")
	for i, c := range cmds {
		if i == maxTableRows {
			fmt.Fprintf(b, "\n%d more commands are in `%s` and `%s`.\n", len(cmds)-maxTableRows, JSONFile, AuditFile)
			break
		}
		line := ""
		if c.Line > 0 {
			line = strconv.Itoa(c.Line)
		}
		exit := strconv.Itoa(c.ExitCode)
		switch {
		case c.TimedOut:
			exit += " (timed out)"
		case c.Background:
			exit = "running"
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s |\n", c.Iteration, line, codeSpan(loop.Clip(c.Command, 120), true),
			exit, humanDuration(time.Duration(c.DurationMS)*time.Millisecond), cell(loop.Clip(c.Summary, 160)))
	}
	fmt.Fprintf(b, "\nFull command outputs are in `%s`.\n\n", AuditFile)
}

func writeFiles(b *strings.Builder, files []FileEntry) {
	b.WriteString("### Files Created\n\n")
	if len(files) == 0 {
		b.WriteString("None.\n\n")
		return
	}
	b.WriteString("| Iteration | Path | Size |\n|---:|---|---:|\n")
	for i, f := range files {
		if i == maxTableRows {
			fmt.Fprintf(b, "\n%d more files are in `%s`.\n", len(files)-maxTableRows, JSONFile)
			break
		}
		fmt.Fprintf(b, "| %d | %s | %s |\n", f.Iteration, codeSpan(loop.Clip(f.Path, 160), true), humanSize(f.Size))
	}
	b.WriteByte('\n')
}

func writeCalls(b *strings.Builder, calls []LLMCallEntry) {
	b.WriteString("### LLM Calls\n\n")
	if len(calls) == 0 {
		b.WriteString("None.\n\n")
		return
	}
	b.WriteString("| Iteration | Agent | Provider | Model | Tokens In | Tokens Out | Duration |\n|---:|---|---|---|---:|---:|---:|\n")
	var in, out int
	var dur int64
	for i, c := range calls {
		in += c.TokensIn
		out += c.TokensOut
		dur += c.DurationMS
		if i >= maxTableRows {
			continue
		}
		agent := cell(c.Agent)
		if c.Error != "" {
			agent += " (failed: " + cell(loop.Clip(c.Error, 80)) + ")"
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s | %d | %d | %s |\n", c.Iteration, agent, cell(c.Provider), cell(c.Model),
			c.TokensIn, c.TokensOut, humanDuration(time.Duration(c.DurationMS)*time.Millisecond))
	}
	fmt.Fprintf(b, "| **total** | %d call%s | | | %d | %d | %s |\n\n", len(calls), plural(len(calls)), in, out,
		humanDuration(time.Duration(dur)*time.Millisecond))
}

// cell is escaped text for a table cell.
func cell(s string) string { return CellMD(s) }

func gapRefs(ids []int) string {
	if len(ids) == 1 {
		return fmt.Sprintf("gap %d", ids[0])
	}
	return "gaps " + joinInts(ids)
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

func humanDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

func humanSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}

// writeCoverage lists what the run did not exercise, so a pass is never mistaken for a
// full check.
func writeCoverage(b *strings.Builder, c *Coverage) {
	if c == nil {
		return
	}
	b.WriteString("## Coverage\n\n")
	fmt.Fprintf(b, "%d code block(s); %s.\n\n", c.Blocks, mdText(c.Line()))
	if c.Inconclusive != "" {
		fmt.Fprintf(b, "**Inconclusive:** %s\n\n", mdText(c.Inconclusive))
	}
	for _, part := range []struct {
		title string
		notes []CoverageNote
	}{{"Skipped", c.Skipped}, {"Not verified", c.Unverified}, {"Read by a heuristic", c.Heuristics}} {
		if len(part.notes) == 0 {
			continue
		}
		fmt.Fprintf(b, "### %s\n\n", part.title)
		for i, n := range part.notes {
			if i == maxCoverageNotes {
				fmt.Fprintf(b, "- … and %d more (see smile-report.json)\n", len(part.notes)-i)
				break
			}
			fmt.Fprintf(b, "- line %d: %s\n", n.Line, mdText(loop.Clip(n.Reason, 200)))
		}
		b.WriteByte('\n')
	}
}

const maxCoverageNotes = 30
