package report

import (
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile-loop/internal/agent/none"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

func TestLocate(t *testing.T) {
	t.Parallel()
	tut := loadTutorial(t, "tutorial.md")
	plan := []loop.PlanStep{{ID: 1, Title: "Set up the database", StartLine: 18, EndLine: 24}}
	cmds := []loop.CommandRecord{{Command: "npm   test", Line: 38}, {Command: "ls", Line: 0}}
	tests := []struct {
		name     string
		f        loop.Finding
		tut      *tutorial.Tutorial
		found    bool
		line     int
		endLine  int
		source   string
		text     string
		headings []string
	}{
		{name: "recorded line", f: loop.Finding{Line: 20, Problem: "x"}, tut: tut, found: true, line: 20, endLine: 20, source: "finding",
			text: "Run the setup script to configure the database.", headings: []string{"Build a Todo API", "Install", "Linux"}},
		{name: "recorded range", f: loop.Finding{Line: 13, EndLine: 16}, tut: tut, found: true, line: 13, endLine: 16, source: "finding",
			text: "```bash\nnpm install\nnpm run build\n```"},
		{name: "line past the end is not trusted", f: loop.Finding{Line: 500}, tut: tut, found: false},
		{name: "partial quote", f: loop.Finding{Quote: "the setup script to configure"}, tut: tut, found: true, line: 20, source: "quote"},
		{name: "quote without markup", f: loop.Finding{Quote: "Install the dependencies"}, tut: tut, found: true, line: 11, source: "quote"},
		{name: "command recorded by the loop", f: loop.Finding{Step: "Test", Command: "npm test"}, tut: tut, found: true, line: 38, source: "command"},
		{name: "step heading with its command", f: loop.Finding{Step: "Install", Command: "npm run build"}, tut: tut, found: true, line: 15, source: "command"},
		{name: "step heading alone", f: loop.Finding{Step: "Prerequisites"}, tut: tut, found: true, line: 5, source: "step"},
		{name: "plan step", f: loop.Finding{Step: "Set up the database"}, tut: tut, found: true, line: 18, endLine: 24, source: "plan"},
		{name: "code block command", f: loop.Finding{Command: "./scripts/setup.sh"}, tut: tut, found: true, line: 23, source: "command", text: "./scripts/setup.sh"},
		{name: "console command without prompt", f: loop.Finding{Command: "npm start"}, tut: tut, found: true, line: 31, source: "command"},
		{name: "nothing matches", f: loop.Finding{Quote: "Deploy the cluster with kubectl apply", Step: "Deploy"}, tut: tut, found: false},
		{name: "no tutorial: recorded line kept", f: loop.Finding{Line: 12, Quote: "the quote"}, found: true, line: 12, endLine: 12, source: "finding", text: "the quote"},
		{name: "no tutorial, no line", f: loop.Finding{Quote: "the quote", Command: "npm test"}, found: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := cmds
			if tt.tut == nil {
				c = nil
			}
			// located once by the loop, rendered by the report
			l := loop.Locate(tt.tut, plan, c, tt.f)
			f := tt.f
			f.Line, f.EndLine, f.Located = l.Line, l.EndLine, l.Source
			loc := location(f, tt.tut)
			require.Equal(t, tt.found, loc.Found, "%+v", loc)
			if !tt.found {
				assert.Zero(t, loc.Line, "a location that was not found has no line")
				assert.Empty(t, loc.Text)
				return
			}
			assert.Equal(t, tt.line, loc.Line)
			assert.Equal(t, tt.source, loc.Source)
			if tt.endLine != 0 {
				assert.Equal(t, tt.endLine, loc.EndLine)
			}
			if tt.text != "" {
				assert.Equal(t, tt.text, loc.Text)
			}
			if tt.headings != nil {
				assert.Equal(t, tt.headings, loc.HeadingPath)
			}
		})
	}
}

func TestCategoryAndSeverity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    loop.Finding
		cat  Category
		sev  Severity
	}{
		{"missing dependency class", loop.Finding{Class: loop.ClassMissingDependency, Command: "jq .", ExitCode: 127}, MissingPrerequisite, High},
		{"missing dependency trigger", loop.Finding{Trigger: loop.TriggerMissingDependency}, MissingPrerequisite, High},
		{"not found in output", loop.Finding{Problem: "python3: command not found"}, MissingPrerequisite, High},
		{"missing file", loop.Finding{Class: loop.ClassRuntimeError, Command: "cat app.py", ExitCode: 1, Output: "cat: app.py: No such file or directory"}, MissingStep, High},
		{"plain failure", loop.Finding{Class: loop.ClassCommandFailure, Command: "make", ExitCode: 2, Output: "make: *** [all] Error 1"}, CommandFailure, High},
		{"failure without class", loop.Finding{Command: "make", ExitCode: 2}, CommandFailure, High},
		{"tests fail", loop.Finding{Class: loop.ClassTestFailure, Command: "pytest", ExitCode: 1}, FailingCheck, High},
		{"lint fails", loop.Finding{Class: loop.ClassLintFailure}, FailingCheck, High},
		{"timeout", loop.Finding{Class: loop.ClassTimeout}, EnvironmentAssumption, Medium},
		{"port in use", loop.Finding{Class: loop.ClassRuntimeError, Output: "Error: listen EADDRINUSE: address already in use :::3000"}, EnvironmentAssumption, Medium},
		{"permission", loop.Finding{Trigger: loop.TriggerCommandFailure, Problem: "Permission denied writing /usr/local/lib"}, EnvironmentAssumption, Medium},
		{"ambiguous trigger", loop.Finding{Trigger: loop.TriggerAmbiguousInstruction}, AmbiguousInstruction, Medium},
		{"question only", loop.Finding{Problem: "Stuck", Question: "Which directory?"}, AmbiguousInstruction, Medium},
		{"ambiguous wording", loop.Finding{Problem: "The Python version is not specified"}, AmbiguousInstruction, Medium},
		{"anything else", loop.Finding{Problem: "The screenshot shows a different UI"}, Other, Low},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := loop.Categorize(tt.f, "")
			assert.Equal(t, tt.cat, Category(c))
			assert.Equal(t, tt.sev, Severity(loop.SeverityOf(c)))
		})
	}
}

func TestBlockingGapIsCritical(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status loop.Status
		result string
		unres  bool
		want   Severity
	}{
		{"cannot_complete", loop.StatusBlocker, loop.StudentCannotComplete, false, Critical},
		{"mentor found no way", loop.StatusMaxIterations, loop.StudentAskMentor, true, Critical},
		{"stalled on it", loop.StatusStalled, loop.StudentAskMentor, false, Critical},
		{"resolved later", loop.StatusMaxIterations, loop.StudentAskMentor, false, High},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := baseState("testdata/tutorial.md", tt.status)
			st.History = []loop.Iteration{{Iteration: 1, Started: at(1),
				Student: &loop.StudentResult{StudentOutput: loop.StudentOutput{Status: tt.result, CurrentStep: "Install"},
					Findings: []loop.Finding{
						{Step: "Prerequisites", Problem: "no terminal named", Trigger: loop.TriggerAmbiguousInstruction},
						{Step: "Install", Command: "npm install", ExitCode: 127, Class: loop.ClassMissingDependency, Problem: "npm missing"},
					}},
				Mentor: &loop.MentorRecord{Notes: "n", Unresolvable: tt.unres}}}
			r := Build(st, loadTutorial(t, "tutorial.md"), Options{RuleFix: none.Fix, Now: fixedNow})
			require.Len(t, r.Gaps, 2)
			assert.Equal(t, Medium, r.Gaps[0].Severity, "only the finding that stopped the Student is critical")
			assert.Equal(t, tt.want, r.Gaps[1].Severity)
		})
	}
}

func TestDuplicatesMerge(t *testing.T) {
	t.Parallel()
	missing := loop.Finding{Step: "Install", Command: "npm install", ExitCode: 127, Class: loop.ClassMissingDependency,
		Problem: "npm: command not found", Output: "bash: npm: command not found"}
	cmd := []loop.CommandRecord{{Command: "npm install", Line: 14, ExitCode: 127, Output: "bash: npm: command not found"}}
	st := baseState("testdata/tutorial.md", loop.StatusMaxIterations)
	st.History = []loop.Iteration{
		{Iteration: 1, Student: &loop.StudentResult{StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor},
			Findings: []loop.Finding{missing}, Commands: cmd},
			Mentor: &loop.MentorRecord{Notes: "Install Node.js: apt-get install nodejs npm."}},
		// Same gap, worded differently, and the Mentor's fix this time.
		{Iteration: 2, Student: &loop.StudentResult{StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor},
			Findings: []loop.Finding{{Step: "Install deps", Command: "npm  install", ExitCode: 127, Class: loop.ClassMissingDependency, Problem: "Still no npm."}},
			Commands: cmd},
			Mentor: &loop.MentorRecord{Notes: "…", Fixes: []string{"List Node.js 20 under Prerequisites."}}},
		// No finding, only the Student's own output: the same gap again.
		{Iteration: 3, Student: &loop.StudentResult{StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor,
			CurrentStep: "Install", Problem: "npm is missing"}, Trigger: loop.TriggerMissingDependency, Commands: cmd}},
	}
	r := Build(st, loadTutorial(t, "tutorial.md"), Options{RuleFix: none.Fix, Now: fixedNow})
	require.Len(t, r.Gaps, 1, "%+v", r.Gaps)
	g := r.Gaps[0]
	assert.Equal(t, []int{1, 2, 3}, g.Iterations)
	assert.Equal(t, 14, g.Location.Line)
	assert.Equal(t, "List Node.js 20 under Prerequisites.", g.SuggestedFix, "the Mentor's own fix wins over notes")
	assert.Equal(t, loop.FixByMentor, g.FixSource)
	assert.Equal(t, "Missing prerequisite: npm is not available", g.Title)
	for _, e := range r.Timeline {
		assert.Equal(t, []int{1}, e.GapIDs)
	}
}

func TestSuggestedFixSources(t *testing.T) {
	t.Parallel()
	st := baseState("testdata/tutorial.md", loop.StatusCompleted)
	st.History = []loop.Iteration{{Iteration: 1, Student: &loop.StudentResult{
		StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor},
		Findings: []loop.Finding{
			{Command: "jq .name package.json", ExitCode: 127, Class: loop.ClassMissingDependency, Output: "bash: jq: command not found"},
			{Quote: "Run the setup script", Trigger: loop.TriggerAmbiguousInstruction, Problem: "Which setup script?"},
			{Command: "make deploy", ExitCode: 2, Class: loop.ClassCommandFailure, Problem: "make deploy fails"},
		}},
		Mentor: &loop.MentorRecord{Fixes: []string{"Add jq to the prerequisites: apt-get install jq."},
			Notes: "1. jq is missing.\n2. The setup script is scripts/setup.sh; say so in the Linux section.\n"}}}
	r := Build(st, loadTutorial(t, "tutorial.md"), Options{RuleFix: none.Fix, Now: fixedNow})
	require.Len(t, r.Gaps, 3)
	byCat := map[Category]Gap{}
	for _, g := range r.Gaps {
		byCat[g.Category] = g
	}
	assert.Equal(t, loop.FixByMentor, byCat[MissingPrerequisite].FixSource)
	assert.Equal(t, loop.FixByMentorNotes, byCat[AmbiguousInstruction].FixSource)
	assert.Contains(t, byCat[AmbiguousInstruction].SuggestedFix, "scripts/setup.sh")
	assert.NotContains(t, byCat[AmbiguousInstruction].SuggestedFix, "jq is missing", "only the part of the notes about this gap")
	assert.Equal(t, loop.FixByRule, byCat[CommandFailure].FixSource)
	assert.Contains(t, byCat[CommandFailure].SuggestedFix, `"make deploy"`)
	assert.False(t, byCat[CommandFailure].Location.Found, "make deploy is nowhere in the tutorial")
	for _, g := range r.Gaps {
		assert.NotEmpty(t, g.SuggestedFix, "9.S1: every gap has a fix")
	}
}

func TestFingerprintIgnoresLineShifts(t *testing.T) {
	t.Parallel()
	raw, err := readFile("testdata/tutorial.md")
	require.NoError(t, err)
	shifted, err := tutorial.Parse("testdata/tutorial.md", append([]byte("<!-- new intro -->\n\nSome new text.\n\n"), raw...))
	require.NoError(t, err)
	before := Build(gapsState(), loadTutorial(t, "tutorial.md"), Options{RuleFix: none.Fix, Now: fixedNow, RepoRoot: "."})
	st := gapsState()
	for i := range st.History {
		for j := range st.History[i].Student.Findings {
			if f := &st.History[i].Student.Findings[j]; f.Line > 0 {
				f.Line += 4
			}
		}
		for j := range st.History[i].Student.Commands {
			if c := &st.History[i].Student.Commands[j]; c.Line > 0 {
				c.Line += 4
			}
		}
	}
	after := Build(st, shifted, Options{RuleFix: none.Fix, Now: fixedNow, RepoRoot: "."})
	require.Equal(t, len(before.Gaps), len(after.Gaps))
	seen := map[string]bool{}
	for i := range before.Gaps {
		b, a := before.Gaps[i], after.Gaps[i]
		if b.Location.Found {
			assert.Equal(t, b.Location.Line+4, a.Location.Line, b.Title)
		}
		assert.Equal(t, b.Fingerprint, a.Fingerprint, b.Title)
		assert.False(t, seen[b.Fingerprint], "fingerprints are unique in a report")
		seen[b.Fingerprint] = true
	}
	other := Build(gapsState(), loadTutorial(t, "tutorial.md"), Options{RuleFix: none.Fix, Now: fixedNow, TutorialURI: "docs/other.md"})
	assert.NotEqual(t, before.Gaps[0].Fingerprint, other.Gaps[0].Fingerprint, "the tutorial path is part of the fingerprint")
}

func TestRecommendations(t *testing.T) {
	t.Parallel()
	st := baseState("testdata/tutorial.md", loop.StatusMaxIterations)
	st.FinalResult.Reason = "10 iterations used"
	st.History = []loop.Iteration{{Iteration: 1, Student: &loop.StudentResult{
		StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor},
		Findings: []loop.Finding{
			{Problem: "The screenshot is outdated", Line: 3},
			{Command: "npm start", Class: loop.ClassTimeout},
			{Command: "npm install", ExitCode: 127, Class: loop.ClassMissingDependency, Output: "npm: command not found"},
			{Command: "./scripts/setup.sh", ExitCode: 127, Class: loop.ClassMissingDependency, Output: "./scripts/setup.sh: line 2: psql: command not found"},
		}}}}
	r := Build(st, loadTutorial(t, "tutorial.md"), Options{RuleFix: none.Fix, Now: fixedNow})
	require.Len(t, r.Gaps, 4)
	require.Len(t, r.Recommendations, 4)
	// Both missing prerequisites in one recommendation, first (high, earliest line).
	assert.Equal(t, High, r.Recommendations[0].Severity)
	assert.ElementsMatch(t, []int{2, 3}, r.Recommendations[0].GapIDs)
	assert.Contains(t, r.Recommendations[0].Text, "npm, psql")
	assert.Contains(t, r.Recommendations[1].Text, "ended as max_iterations")
	assert.Empty(t, r.Recommendations[1].GapIDs)
	assert.Equal(t, Medium, r.Recommendations[2].Severity)
	assert.Equal(t, Low, r.Recommendations[3].Severity)
	for i, rec := range r.Recommendations {
		assert.Equal(t, i+1, rec.Priority)
	}
}

func TestFailed(t *testing.T) {
	t.Parallel()
	clean := buildFixture(t, "clean")
	gaps := buildFixture(t, "gaps") // completed; high, medium and low gaps
	hostile := buildFixture(t, "hostile")
	tests := []struct {
		name   string
		r      *Report
		failOn string
		want   bool
	}{
		{"clean never fails", clean, "low", false},
		{"high gap at high", gaps, "high", true},
		{"high gap at critical", gaps, "critical", false},
		{"low gap at low", gaps, "low", true},
		{"never", gaps, "never", false},
		{"unknown means high", gaps, "bogus", true},
		{"empty means high", gaps, "", true},
		{"incomplete run fails even with never", hostile, "never", true},
		{"nil report fails", nil, "never", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.r.Failed(tt.failOn))
		})
	}
}

func TestNoGapsSaysSo(t *testing.T) {
	t.Parallel()
	md := RenderMarkdown(buildFixture(t, "clean"))
	assert.Contains(t, md, "**No gaps found.**")
	assert.NotContains(t, md, "## Gaps Identified", "9.E1: no gaps section")
	for _, h := range []string{"## Summary", "## Timeline", "## Audit Trail", "### Commands Executed", "### Files Created", "### LLM Calls", "## Recommendations"} {
		assert.Contains(t, md, h)
	}

	st := baseState("testdata/tutorial.md", loop.StatusTimeout)
	st.FinalResult.Reason = "run timeout of 1800s reached"
	st.History = []loop.Iteration{{Iteration: 1, Started: at(0), Error: "wrapper never called back"}}
	r := Build(st, nil, Options{RuleFix: none.Fix, Now: fixedNow})
	md = RenderMarkdown(r)
	assert.Contains(t, md, "The run ended as timeout before the Student completed the tutorial.")
	assert.NotContains(t, md, "## Gaps Identified")
	assert.Contains(t, md, "wrapper never called back")
	assert.True(t, r.Failed("never"))
}

func TestBuildEdgeStates(t *testing.T) {
	t.Parallel()
	t.Run("nil state", func(t *testing.T) {
		t.Parallel()
		r := Build(nil, nil, Options{RuleFix: none.Fix})
		assert.Equal(t, "error", r.Meta.Status)
		js, err := RenderJSON(r)
		require.NoError(t, err)
		validateReportJSON(t, js)
	})
	t.Run("cancelled mid-iteration", func(t *testing.T) {
		t.Parallel()
		st := baseState("testdata/tutorial.md", loop.StatusRunning)
		st.FinalResult = nil
		st.History = []loop.Iteration{{Iteration: 1, Started: at(5)}}
		r := Build(st, loadTutorial(t, "tutorial.md"), Options{RuleFix: none.Fix, Now: fixedNow})
		assert.Equal(t, "running", r.Meta.Status)
		assert.Equal(t, "incomplete", r.Timeline[0].Result)
		assert.Equal(t, int64(30*60), r.Meta.Duration)
		js, err := RenderJSON(r)
		require.NoError(t, err)
		validateReportJSON(t, js)
		sarif, err := RenderSARIF(r)
		require.NoError(t, err)
		validateSARIF(t, sarif)
	})
}

func TestLongOutputsTruncated(t *testing.T) {
	t.Parallel()
	st := cleanState()
	long := strings.Repeat("line of build output\n", 2000) + "FINAL ERROR LINE\n"
	st.History[0].Student.Commands[0].Output = long
	st.History[0].Student.Commands[0].Duration = time.Second
	r := Build(st, nil, Options{RuleFix: none.Fix, Now: fixedNow, MaxOutput: 1000})
	c := r.AuditTrail.Commands[0]
	assert.True(t, c.OutputTruncated)
	assert.Less(t, len(c.Output), 1200)
	assert.Contains(t, c.Output, "FINAL ERROR LINE", "the end of an output is kept")
	assert.Contains(t, c.Output, AuditFile)
	audit := RenderAuditLog(r)
	assert.Equal(t, 2000, strings.Count(audit, "line of build output"), "9.E2: the audit log has the full output")
	assert.Contains(t, audit, "FINAL ERROR LINE")
}

func TestTutorialURI(t *testing.T) {
	t.Parallel()
	tut := loadTutorial(t, "tutorial.md")
	assert.Equal(t, "internal/report/testdata/tutorial.md", tutorialURI("testdata/tutorial.md", tut, Options{RuleFix: none.Fix, RepoRoot: "../.."}))
	assert.Equal(t, "testdata/tutorial.md", tutorialURI("./testdata/tutorial.md", nil, Options{RuleFix: none.Fix}))
	assert.Equal(t, "docs/x.md", tutorialURI("testdata/tutorial.md", tut, Options{RuleFix: none.Fix, TutorialURI: "docs/x.md"}))
	assert.Equal(t, "testdata/tutorial.md", tutorialURI("testdata/tutorial.md", tut, Options{RuleFix: none.Fix, RepoRoot: "/nonexistent/elsewhere"}), "outside the root: as given")
	assert.Equal(t, "my%20docs/a%23b.md", sarifURI("my docs/a#b.md"))
}

// The report renders the loop's findings as they are: location, category, severity and
// fix are the loop's, never derived again (issue 15).
func TestReportRendersCompletedFindings(t *testing.T) {
	t.Parallel()
	st := baseState("testdata/tutorial.md", loop.StatusMaxIterations)
	st.History = []loop.Iteration{{Iteration: 1, Started: at(1),
		Student: &loop.StudentResult{StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor},
			Findings: []loop.Finding{{Quote: "Run the setup script to configure the database.", Command: "./scripts/setup.sh",
				ExitCode: 1, Class: loop.ClassTestFailure, Problem: "p", Line: 20, EndLine: 20, Located: loop.LocatedByQuote,
				Category: loop.CategoryOther, Severity: loop.SeverityLow, Fix: "the loop's fix", FixSource: loop.FixByMentorNotes}}}}}
	r := Build(st, loadTutorial(t, "tutorial.md"), Options{Now: fixedNow})
	require.Len(t, r.Gaps, 1)
	g := r.Gaps[0]
	assert.Equal(t, []any{20, "quote", Other, Low, "the loop's fix", loop.FixByMentorNotes},
		[]any{g.Location.Line, g.Location.Source, g.Category, g.Severity, g.SuggestedFix, g.FixSource})

	// The same finding from an older state.json (not completed) is completed the loop's
	// way: the failing command's line first.
	f := &st.History[0].Student.Findings[0]
	*f = loop.Finding{Quote: f.Quote, Command: f.Command, ExitCode: 1, Class: loop.ClassTestFailure, Problem: "p"}
	r = Build(st, loadTutorial(t, "tutorial.md"), Options{Now: fixedNow, RuleFix: none.Fix})
	require.Len(t, r.Gaps, 1)
	assert.Equal(t, 23, r.Gaps[0].Location.Line)
	assert.Equal(t, FailingCheck, r.Gaps[0].Category)
	assert.Equal(t, loop.FixByRule, r.Gaps[0].FixSource)
	assert.Empty(t, st.History[0].Student.Findings[0].Located, "Build does not change the state it renders")
}
