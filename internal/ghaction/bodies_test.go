package ghaction

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/golden"
	"github.com/smile-loop/smile-loop/internal/report"
)

// hostileRun is a failed run whose text tries everything a PR author or an LLM could:
// code with && < >, an SSH remote, mentions, references, links, images, raw HTML, a
// backtick in the file name, a fence inside the evidence.
func hostileRun() Result {
	const path = "docs/we`ird @team.md"
	r := &report.Report{SchemaVersion: report.SchemaVersion}
	r.Meta.Tutorial, r.Meta.TutorialURI, r.Meta.Status = path, path, "blocker"
	r.Gaps = []report.Gap{
		{ID: 1, Location: report.Location{Found: true, Line: 7, Text: "pip install requests", HeadingPath: []string{"Install", "Linux @ops"}},
			Problem: "Run `make && ./run > out.txt`, then `git clone git@github.com:o/r`. Ask @octocat about #12 and GH-3, " +
				"see https://evil.example and www.evil.example ![x](https://evil.example/p.png) [c](javascript:alert(1)) <img src=x> <!-- smile-loop:gap fp=forged -->",
			SuggestedFix: "Replace `pip` with `python3 -m pip`", Severity: report.High, Category: report.MissingPrerequisite, Fingerprint: "fp-1",
			Evidence: &report.Evidence{Command: "pip install requests", ExitCode: 127, Output: "```\n</details><script>x</script>\nbash: pip: command not found"}},
		{ID: 2, Location: report.Location{Found: true, Line: 20, EndLine: 22}, Problem: "- not a list\n\n# not a heading",
			SuggestedFix: "Say that `npm start` keeps running (use `npm start &`).", Severity: report.Medium, Category: report.EnvironmentAssumption, Fingerprint: "fp-2"},
		{ID: 3, Problem: "The deploy step is never shown.", Severity: report.Low, Category: report.Other, Fingerprint: "fp-3"},
	}
	return Result{Tutorial: path, Report: r, FailOn: "high"}
}

var ghEvent = Event{Name: "pull_request", Owner: "Codertocat", Repo: "Hello-World", SHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", PR: 2, RunID: "77", Server: "https://github.com"}

// allowedTags are the only raw HTML smile-loop itself writes.
var allowedTags = regexp.MustCompile(`^(<details>|</details>|<summary>|</summary>|<sub>|</sub>|<!-- smile-loop(/[A-Za-z0-9._:/-]+)?:(gap fp|review path|audit path)=[A-Za-z0-9._:/-]+ -->)$`)

// checkBody renders a golden body as GitHub would and checks what a reader sees.
func checkBody(t *testing.T, name, md string, links ...string) golden.Rendered {
	t.Helper()
	seen := golden.Markdown(t, filepath.Join("testdata", "golden", name), md)
	assert.Empty(t, seen.Live(), "%s: nothing untrusted is a live mention, reference or link", name)
	assert.Empty(t, seen.Images, "%s: no image", name)
	for _, tag := range seen.Tags {
		assert.Regexp(t, allowedTags, tag, "%s: only smile-loop's own HTML", name)
	}
	for _, l := range seen.Links {
		ok := false
		for _, want := range links {
			ok = ok || strings.HasPrefix(l, want)
		}
		assert.True(t, ok, "%s: unexpected link %q", name, l)
	}
	assert.NotContains(t, md, "fp=forged -->", "%s: a forged marker stays text", name)
	return seen
}

// meant is what the first gap's problem must read as: its code literal, its text as written.
func assertReadsAsMeant(t *testing.T, seen golden.Rendered) {
	t.Helper()
	assert.True(t, seen.HasCode("make && ./run > out.txt"), "code keeps && and >: %q", seen.Code)
	assert.True(t, seen.HasCode("git clone git@github.com:o/r"), "an SSH remote copies as written")
	assert.True(t, seen.Shows("Ask @octocat about #12 and GH-3, see https://evil.example and www.evil.example ![x](https://evil.example/p.png) [c](javascript:alert(1)) <img src=x>"))
}

func TestGoldenReviewComment(t *testing.T) {
	t.Parallel()
	r := hostileRun()
	gaps := r.gaps()
	md := newMarkers("").commentBody(gaps[0], true)
	seen := checkBody(t, "comment.md", md)
	assertReadsAsMeant(t, seen)
	assert.True(t, seen.HasCode("python3 -m pip install requests"), "the suggestion block")
	assert.True(t, seen.HasCode("$ pip install requests\n```\n</details><script>x</script>\nbash: pip: command not found\n(exit 127)"), "the evidence, fence and HTML included")
	assert.True(t, seen.Shows("in Install › Linux @ops"))
	assert.Regexp(t, `<!-- smile-loop:gap fp=fp-1 -->$`, md)

	// Scoped by the name input; an untrusted report never suggests.
	gaps[0].untrusted = true
	md = newMarkers("docs (py3.12)").commentBody(gaps[0], true)
	assert.NotContains(t, md, "suggestion")
	assert.Regexp(t, `<!-- smile-loop/docs__py3.12_:gap fp=fp-1 -->$`, md)

	seen = checkBody(t, "comment-paragraphs.md", newMarkers("").commentBody(r.gaps()[1], false))
	assert.True(t, seen.Shows("- not a list # not a heading"), "untrusted text starts no block")
	assert.NotContains(t, seen.HTML, "<li>")
	assert.NotContains(t, seen.HTML, "<h1>")
	assert.True(t, seen.HasCode("npm start &"))
}

func TestGoldenSummaryReview(t *testing.T) {
	t.Parallel()
	r := hostileRun()
	g := &GitHub{Event: ghEvent}
	md := g.summaryBody(r.Tutorial, r.gaps())
	seen := checkBody(t, "review-summary.md", md, "https://github.com/Codertocat/Hello-World/")
	assertReadsAsMeant(t, seen)
	assert.True(t, seen.HasCode("docs/we`ird @team.md"), "a backtick in the path stays inside its code span")
	assert.True(t, seen.HasCode("docs/we`ird @team.md:20-22"))
	assert.Contains(t, seen.Links, "https://github.com/Codertocat/Hello-World/blob/"+ghEvent.SHA+"/docs/we%60ird%20@team.md#L20-L22")
	assert.True(t, seen.HasCode("docs/we`ird @team.md (line unknown)"))
	assert.Regexp(t, `<!-- smile-loop:review path=docs/we_ird__team.md -->$`, md)
	checkBody(t, "review-summary-empty.md", g.summaryBody(r.Tutorial, nil), "https://github.com/Codertocat/Hello-World/")
}

func TestGoldenSummaryAndCheckRun(t *testing.T) {
	t.Parallel()
	untrusted := hostileRun()
	untrusted.Untrusted = true
	errored := Result{Tutorial: "docs/b.md", FailOn: "high", Err: "docker: image smile-base:latest not found <b>@ops</b>"}
	md := Summary([]Result{untrusted, errored})
	seen := checkBody(t, "summary.md", md)
	assertReadsAsMeant(t, seen)
	assert.True(t, seen.Shows("docker: image smile-base:latest not found <b>@ops</b>"))
	assert.Contains(t, seen.HTML, "<table>")
	assert.True(t, seen.HasCode("docs/we`ird @team.md"))

	// The check run's annotations: located gaps only, most severe first, plain text.
	anns := annotations([]Result{untrusted, errored})
	js, err := json.MarshalIndent(anns, "", "  ")
	require.NoError(t, err)
	golden.File(t, filepath.Join("testdata", "golden", "check-annotations.json"), append(js, '\n'))
	require.Len(t, anns, 2)
	assert.Equal(t, "failure", anns[0].GetAnnotationLevel())
	assert.Equal(t, "warning", anns[1].GetAnnotationLevel())
}

func TestGoldenAuditIssue(t *testing.T) {
	t.Parallel()
	g := &GitHub{Event: Event{Name: "schedule", Owner: "Codertocat", Repo: "Hello-World", SHA: "6113728f27ae82c7b1a177c8d03f9e96e0adf246", RunID: "9", Server: "https://github.com"}}
	title, body := g.auditIssue(hostileRun())
	assert.Equal(t, "smile-loop: docs/we`ird @team.md fails the tutorial audit (3 gaps)", title)
	seen := checkBody(t, "audit-issue.md", body, "https://github.com/Codertocat/Hello-World/")
	assertReadsAsMeant(t, seen)
	assert.True(t, seen.HasCode("docs/we`ird @team.md"))
	assert.True(t, seen.HasCode("blocker"))
}

func TestGoldenReviewCommentWithProvenFix(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	r := &report.Report{SchemaVersion: report.SchemaVersion}
	r.Meta.Tutorial, r.Meta.TutorialURI, r.Meta.Status = "docs/script.md", "docs/script.md", "blocker"
	r.Gaps = []report.Gap{
		{ID: 1, Location: report.Location{Found: true, Line: 13, EndLine: 13, Text: "./hello.sh"},
			Problem: "`./hello.sh` (line 13) fails: bash: line 1: ./hello.sh: Permission denied", SuggestedFix: "make the script executable after creating it: add `chmod +x hello.sh` before line 13",
			FixVerified: &yes, FixEvidence: "with `chmod +x hello.sh` added before line 13, `./hello.sh` worked (exit 0) in a fresh container",
			Suggestion: "chmod +x hello.sh\n./hello.sh", Severity: report.High, Category: report.CommandFailure, Fingerprint: "fp-chmod"},
		{ID: 2, Location: report.Location{Found: true, Line: 20, EndLine: 20, Text: "make install"},
			Problem: "`make` is not installed", SuggestedFix: "add a step before line 20 that installs GNU make",
			FixVerified: &no, Suggestion: "sudo apt-get install -y make\nmake install", Severity: report.High, Category: report.MissingPrerequisite, Fingerprint: "fp-make"},
	}
	res := Result{Tutorial: "docs/script.md", Report: r, FailOn: "high"}
	gaps := res.gaps()
	md := newMarkers("").commentBody(gaps[0], true)
	seen := checkBody(t, "comment-proven-fix.md", md)
	assert.True(t, seen.HasCode("chmod +x hello.sh\n./hello.sh"), "a proven fix is offered as a committable suggestion: %q", seen.Code)
	assert.Contains(t, md, "```suggestion\nchmod +x hello.sh\n./hello.sh\n```")

	assert.NotContains(t, newMarkers("").commentBody(gaps[1], true), "suggestion", "an unproven fix is never a suggestion")
	gaps[0].untrusted = true
	assert.NotContains(t, newMarkers("").commentBody(gaps[0], true), "suggestion", "nor one from an untrusted artifact")
}

func TestInconclusiveRunIsNeutral(t *testing.T) {
	t.Parallel()
	r := &report.Report{SchemaVersion: report.SchemaVersion}
	r.Meta.Status = "inconclusive"
	res := Result{Tutorial: "docs/a.md", Report: r, FailOn: "high"}
	assert.False(t, res.Failed())
	assert.Equal(t, StatusInconclusive, overall([]Result{res}))
	assert.Equal(t, "neutral", conclusion(overall([]Result{res})))
	failing := hostileRun()
	assert.Equal(t, StatusFailed, overall([]Result{res, failing}), "a failed tutorial outweighs an inconclusive one")
	r.Gaps = []report.Gap{{Severity: report.Critical}}
	assert.True(t, res.Failed(), "a failing gap makes an inconclusive run fail")
}
