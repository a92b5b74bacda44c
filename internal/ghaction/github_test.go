package ghaction_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
	"github.com/smile-loop/smile-loop/internal/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	token   = "ghs_faketoken"
	headSHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
)

// docsPatch: docs/a.md lines 1-8 and 40-44 are in the diff.
const docsPatch = "@@ -1,6 +1,8 @@\n # Install\n \n-Run:\n+Run these:\n+\n ```bash\n pip install requests\n+python app.py\n ```\n@@ -38,3 +40,5 @@ ## Use\n text 40\n+curl localhost:8080\n+echo done\n text 43\n text 44"

var fastRetry = ghaction.RetryPolicy{MaxRetries: 3, MaxWait: 3 * time.Second, MaxElapsed: 10 * time.Second, Initial: 10 * time.Millisecond}

func newGitHub(t *testing.T) (*ghactiontest.GitHub, *ghaction.GitHub) {
	t.Helper()
	fake := ghactiontest.NewGitHub(t, "Codertocat", "Hello-World", token)
	fake.AddPR(2, headSHA, map[string]string{"docs/a.md": docsPatch, "src/main.go": "@@ -1 +1 @@\n-a\n+b"})
	fake.AddFile(headSHA, "docs/a.md", "# Install\n\nRun these:\n\n```bash\npip install requests\npython app.py\n```\n")
	c, err := ghaction.NewClient(token, fake.URL(), fastRetry, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	ev := ghaction.Event{Name: "pull_request", Owner: "Codertocat", Repo: "Hello-World", SHA: headSHA, PR: 2, RunID: "77", Server: "https://github.com"}
	return fake, &ghaction.GitHub{Client: c, Event: ev, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// gap is a located high gap (line 0: not located).
func gap(line, end int, problem string) report.Gap {
	return report.Gap{Location: report.Location{Found: line > 0, Line: line, EndLine: end}, Problem: problem, SuggestedFix: "Say so.",
		Severity: report.High, Category: report.MissingPrerequisite, Fingerprint: fmt.Sprintf("fp-%s", strings.ReplaceAll(problem, " ", "-"))}
}

// run is a report of tutorial with gaps (numbered in order), judged under fail-on high.
func run(tutorial, status string, completed bool, gaps ...report.Gap) ghaction.Result {
	r := &report.Report{SchemaVersion: report.SchemaVersion}
	r.Meta.Tutorial, r.Meta.TutorialURI, r.Meta.Status, r.Meta.Completed = tutorial, tutorial, status, completed
	for i, g := range gaps {
		g.ID = i + 1
		r.Gaps = append(r.Gaps, g)
	}
	return ghaction.Result{Tutorial: tutorial, Report: r, FailOn: "high"}
}

// onA is a failed run of docs/a.md with gaps.
func onA(gaps ...report.Gap) []ghaction.Result {
	return []ghaction.Result{run("docs/a.md", "blocker", false, gaps...)}
}

func TestReviewAnchorsOnDiffAndRerunsDoNotPileUp(t *testing.T) {
	t.Parallel()
	fake, gh := newGitHub(t)
	ctx := context.Background()
	files, err := gh.ChangedFiles(ctx)
	require.NoError(t, err)
	require.Len(t, files, 2)

	gaps := []report.Gap{
		gap(7, 0, "pip missing"),          // in diff
		gap(6, 8, "code block broken"),    // multi-line in diff: start 6 < line 8
		gap(41, 42, "server not started"), // multi-line in the second hunk
		gap(20, 22, "outside the diff"),   // not in the diff → summary review
		{Problem: "unlocated", Severity: report.Low, Fingerprint: "fp-unlocated"},
	}
	gaps[0].Location.Text, gaps[0].SuggestedFix = "pip install requests", "Replace `pip` with `python3 -m pip`"
	out, err := gh.Review(ctx, onA(gaps...), files, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Equal(t, 3, out.Created)
	assert.Equal(t, []int{2}, out.Outside)
	assert.Equal(t, 1, out.Summaries)
	assert.Empty(t, out.Problems)

	comments, reviews, _, _ := fake.Snapshot()
	require.Len(t, comments, 3)
	byLine := map[int]*github.PullRequestComment{}
	for _, c := range comments {
		byLine[c.GetLine()] = c
	}
	assert.Nil(t, byLine[7].StartLine)
	assert.Contains(t, byLine[7].GetBody(), "```suggestion\npython3 -m pip install requests\n```")
	assert.Equal(t, 6, byLine[8].GetStartLine())
	assert.Equal(t, 41, byLine[42].GetStartLine())
	assert.NotContains(t, byLine[8].GetBody(), "suggestion")
	require.Len(t, reviews, 2, "one review with the comments, one summary review of the tutorial")
	body := reviews[1].GetBody()
	assert.Contains(t, body, "[`docs/a.md:20-22`](https://github.com/Codertocat/Hello-World/blob/"+headSHA+"/docs/a.md#L20-L22)")
	assert.Contains(t, body, "`docs/a.md (line unknown)`")

	// Re-run with the same gaps: nothing new is posted.
	before := len(fake.Requests)
	out, err = gh.Review(ctx, onA(gaps...), files, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Equal(t, ghaction.ReviewOutcome{Unchanged: 3, Outside: []int{2}}, out)
	assert.Equal(t, 2, fake.Count("POST", "/reviews"), "no new review")
	assert.Zero(t, fake.Count("PUT", "/reviews/"+fmt.Sprint(reviews[1].GetID())), "the unchanged summary is left alone")
	assert.Greater(t, len(fake.Requests), before)

	// Another matrix job testing another tutorial leaves these comments alone.
	out, err = gh.Review(ctx, []ghaction.Result{run("docs/b.md", "completed", true)}, files, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Zero(t, out.Deleted)
	comments, _, _, _ = fake.Snapshot()
	assert.Len(t, comments, 3)

	// Someone replies to the line-42 comment; then a run where the pip gap changed its
	// fix, the code-block gap is gone, the server gap is gone (but has a reply).
	fake.AddComment(&github.PullRequestComment{Body: github.String("We'll fix it"), InReplyTo: github.Int64(byLine[42].GetID()), Path: github.String("docs/a.md"), Line: github.Int(42)})
	gaps2 := []report.Gap{gaps[0], gaps[3]}
	gaps2[0].SuggestedFix = "Install pip first with apt-get install python3-pip."
	out, err = gh.Review(ctx, onA(gaps2...), files, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Equal(t, 1, out.Updated)
	assert.Equal(t, 1, out.Deleted)
	assert.Equal(t, 1, out.KeptReplied)
	assert.Equal(t, 0, out.Created)
	assert.Equal(t, 1, out.Summaries, "the outside set changed: the summary review is edited")
	assert.Equal(t, 1, fake.Count("PUT", "/reviews/"+fmt.Sprint(reviews[1].GetID())))
	assert.Equal(t, 2, fake.Count("POST", "/reviews"), "still no new review")
	comments, reviews, _, _ = fake.Snapshot()
	assert.NotContains(t, reviews[1].GetBody(), "unlocated")
	assert.Contains(t, reviews[1].GetBody(), "outside the diff")
	assert.Len(t, comments, 3) // updated pip + replied server + the reply
	for _, c := range comments {
		if c.GetLine() == 7 {
			assert.Contains(t, c.GetBody(), "apt-get install python3-pip")
			assert.NotContains(t, c.GetBody(), "suggestion")
		}
	}
	_ = reviews
}

func TestReviewBatchesOf30AndRefusedComments(t *testing.T) {
	t.Parallel()
	fake, gh := newGitHub(t)
	ctx := context.Background()
	// 65 gaps on diff lines (all on lines 1..8 / 40..44, different fingerprints).
	lines := []int{1, 2, 3, 4, 5, 6, 7, 8, 40, 41, 42, 43, 44}
	var gaps []report.Gap
	for i := 0; i < 48; i++ {
		gaps = append(gaps, gap(lines[i%len(lines)], 0, fmt.Sprintf("problem %d", i)))
	}
	files, err := gh.ChangedFiles(ctx)
	require.NoError(t, err)
	// A file list where GitHub and smile-loop disagree: smile-loop believes line 30 is
	// in the diff, GitHub refuses it with 422.
	lying := append([]ghaction.PRFile(nil), files...)
	lying[0].Hunks = append(ghaction.Hunks{{30, 30}}, lying[0].Hunks...)
	gaps = append(gaps, gap(30, 0, "refused by github"))
	out, err := gh.Review(ctx, onA(gaps...), lying, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Equal(t, 48, out.Created)
	assert.Equal(t, 1, out.Refused)
	require.Len(t, out.Problems, 1)
	assert.Contains(t, out.Problems[0], "HTTP 422")
	assert.Contains(t, out.Problems[0], "Line could not be resolved")
	for _, r := range fake.Requests {
		if r.Method == "POST" && strings.HasSuffix(r.Path, "/reviews") {
			var req struct{ Comments []json.RawMessage }
			require.NoError(t, json.Unmarshal(r.Body, &req))
			assert.LessOrEqual(t, len(req.Comments), ghaction.MaxCommentsPerReview)
		}
	}
	_, reviews, _, _ := fake.Snapshot()
	assert.Contains(t, reviews[len(reviews)-1].GetBody(), "refused by github")
}

func TestCheckRunAnnotationsInBatchesOf50(t *testing.T) {
	t.Parallel()
	fake, gh := newGitHub(t)
	var gaps []report.Gap
	for i := 0; i < 120; i++ {
		g := gap(i+1, 0, fmt.Sprintf("p%d", i))
		g.Severity = []report.Severity{report.Critical, report.High, report.Medium, report.Low}[i%4]
		gaps = append(gaps, g)
	}
	id, err := gh.PostCheck(context.Background(), ghaction.CheckRun{Name: "smile-loop", Conclusion: "failure", Title: "t", Summary: strings.Repeat("x", 70000), Results: onA(gaps...)})
	require.NoError(t, err)
	_, _, runs, _ := fake.Snapshot()
	require.Len(t, runs, 1)
	assert.Equal(t, id, runs[0].ID)
	assert.Equal(t, "failure", runs[0].Conclusion)
	assert.Equal(t, headSHA, runs[0].HeadSHA)
	require.Len(t, runs[0].Annotations, 120)
	assert.Equal(t, 1, fake.Count("POST", "/check-runs"))
	assert.Equal(t, 2, fake.Count("PATCH", fmt.Sprintf("/check-runs/%d", id)))
	levels := map[string]int{}
	for _, a := range runs[0].Annotations {
		levels[a.GetAnnotationLevel()]++
	}
	assert.Equal(t, map[string]int{"failure": 60, "warning": 30, "notice": 30}, levels)
	assert.LessOrEqual(t, len(runs[0].Summary), ghaction.MaxSummary)
}

func TestRetriesRateLimitsAndServerErrors(t *testing.T) {
	tests := []struct {
		name  string
		fails []ghactiontest.Failure
		ok    bool
	}{
		{"429 with Retry-After", []ghactiontest.Failure{ghactiontest.RateLimited}, true},
		{"secondary rate limit 403 with retry-after", []ghactiontest.Failure{ghactiontest.Secondary}, true},
		{"primary rate limit 403", []ghactiontest.Failure{{Status: 403, Message: "API rate limit exceeded",
			Header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": fmt.Sprint(time.Now().Add(time.Second).Unix())}}}, true},
		{"5xx twice", []ghactiontest.Failure{ghactiontest.BadGateway, ghactiontest.BadGateway}, true},
		{"5xx beyond the bound", []ghactiontest.Failure{ghactiontest.BadGateway, ghactiontest.BadGateway, ghactiontest.BadGateway, ghactiontest.BadGateway, ghactiontest.BadGateway}, false},
		{"read-only token is not retried", []ghactiontest.Failure{ghactiontest.ReadOnly}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake, gh := newGitHub(t)
			fake.FailNext("POST /check-runs", tt.fails...)
			_, err := gh.PostCheck(context.Background(), ghaction.CheckRun{Name: "smile-loop", Conclusion: "success", Title: "t", Summary: "s"})
			if tt.ok {
				require.NoError(t, err)
				assert.Equal(t, len(tt.fails)+1, fake.Count("POST", "/check-runs"))
				return
			}
			require.Error(t, err)
			if tt.fails[0].Status == 403 {
				assert.Equal(t, 1, fake.Count("POST", "/check-runs"))
				assert.Contains(t, ghaction.Why(err), "HTTP 403 Resource not accessible by integration")
				assert.Contains(t, ghaction.Why(err), "fork")
			} else {
				assert.Equal(t, fastRetry.MaxRetries+1, fake.Count("POST", "/check-runs"))
				assert.Contains(t, ghaction.Why(err), "HTTP 502")
			}
		})
	}
}

func TestAuditIssues(t *testing.T) {
	t.Parallel()
	fake, gh := newGitHub(t)
	gh.Event = ghaction.Event{Name: "schedule", Owner: "Codertocat", Repo: "Hello-World", SHA: "abc", RunID: "9", Server: "https://github.com"}
	ctx := context.Background()
	failing := run("docs/a.md", "blocker", false, gap(3, 0, "pip missing"))
	passing := run("docs/b.md", "completed", true)

	out, err := gh.Audit(ctx, []ghaction.Result{failing, passing})
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/a.md"}, out.Opened)
	out, err = gh.Audit(ctx, []ghaction.Result{failing, passing})
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/a.md"}, out.Unchanged)
	failing = run("docs/a.md", "blocker", false, gap(3, 0, "pip missing"), gap(5, 0, "port busy"))
	out, err = gh.Audit(ctx, []ghaction.Result{failing})
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/a.md"}, out.Updated)
	_, _, _, issues := fake.Snapshot()
	require.Len(t, issues, 1)
	assert.Equal(t, "smile-loop: docs/a.md fails the tutorial audit (2 gaps)", issues[0].GetTitle())
	assert.Contains(t, issues[0].GetBody(), "port busy")

	out, err = gh.Audit(ctx, []ghaction.Result{run("docs/a.md", "completed", true)})
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/a.md"}, out.Closed)
	_, _, _, issues = fake.Snapshot()
	assert.Equal(t, "closed", issues[0].GetState())
	assert.Len(t, fake.IssueComments[1], 1)
}

// docsPatch's added lines are 3-4, 7 and 41-42; context lines 1-2, 5-6, 8, 40, 43-44.
func TestFilterModes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gaps := []report.Gap{
		gap(7, 0, "on an added line"),
		gap(2, 0, "on a context line"),
		gap(20, 0, "elsewhere in the changed file"),
		{Problem: "unlocated", Severity: report.Low, Fingerprint: "fp-unlocated"},
	}
	tests := []struct {
		mode                 string
		inline, file, listed int
		wantInlineLines      []int
	}{
		{ghaction.FilterAdded, 1, 0, 3, []int{7}},
		{ghaction.FilterContext, 2, 0, 2, []int{2, 7}},
		{ghaction.FilterFile, 2, 1, 1, []int{2, 7}},
		{ghaction.FilterNone, 2, 1, 1, []int{2, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			fake, gh := newGitHub(t)
			files, err := gh.ChangedFiles(ctx)
			require.NoError(t, err)
			out, err := gh.Review(ctx, onA(gaps...), files, tt.mode)
			require.NoError(t, err)
			assert.Empty(t, out.Problems)
			assert.Equal(t, tt.inline+tt.file, out.Created)
			assert.Equal(t, tt.file, out.FileComments)
			assert.Equal(t, []int{tt.listed}, out.Outside, "the rest is listed in the summary review")
			comments, reviews, _, _ := fake.Snapshot()
			var lines []int
			fileComments := 0
			for _, c := range comments {
				if c.GetSubjectType() == "file" {
					fileComments++
					assert.Nil(t, c.Line)
					assert.Contains(t, c.GetBody(), "elsewhere in the changed file")
					continue
				}
				lines = append(lines, c.GetLine())
			}
			assert.ElementsMatch(t, tt.wantInlineLines, lines)
			assert.Equal(t, tt.file, fileComments)
			require.NotEmpty(t, reviews)
			assert.Contains(t, reviews[len(reviews)-1].GetBody(), "unlocated", "every gap reaches the summary review or a comment")

			// A re-run leaves the file comment alone too.
			out, err = gh.Review(ctx, onA(gaps...), files2(t, gh), tt.mode)
			require.NoError(t, err)
			assert.Equal(t, tt.inline+tt.file, out.Unchanged)
			assert.Zero(t, out.Created+out.Deleted+out.Summaries)
		})
	}
}

func files2(t *testing.T, gh *ghaction.GitHub) []ghaction.PRFile {
	t.Helper()
	files, err := gh.ChangedFiles(context.Background())
	require.NoError(t, err)
	return files
}

// Two jobs with different names keep their own comments; a comment carrying the marker
// but written by someone else is never edited or deleted.
func TestNameScopesAndAuthorsOwnComments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake, gh := newGitHub(t)
	files := files2(t, gh)
	gh.Name = "py312"
	_, err := gh.Review(ctx, onA(gap(7, 0, "pip missing")), files, ghaction.FilterContext)
	require.NoError(t, err)

	other := *gh
	other.Name = "py313"
	out, err := other.Review(ctx, onA(gap(3, 0, "venv missing")), files, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Zero(t, out.Deleted, "another name's comment is not outdated")
	comments, _, _, _ := fake.Snapshot()
	require.Len(t, comments, 2)

	// The PR author plants a comment with py312's marker for a gap that no longer exists.
	forged := fake.AddComment(&github.PullRequestComment{Path: github.String("docs/a.md"), Line: github.Int(4),
		Body: github.String("click here <!-- smile-loop/py312:gap fp=fp-old -->"), User: &github.User{Login: github.String("mallory")}})
	out, err = gh.Review(ctx, onA(gap(7, 0, "pip missing")), files, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Zero(t, out.Deleted, "someone else's comment is not smile-loop's, whatever marker it carries")
	assert.Equal(t, 1, out.Unchanged)
	assert.Zero(t, fake.Count("DELETE", fmt.Sprintf("/pulls/comments/%d", forged)))
	assert.Equal(t, 1, fake.Count("GET", "/user"), "the token's account is looked up once")
}

// A personal token's comments are recognised by its own login (GET /user).
func TestOwnCommentsOfAPersonalToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake, gh := newGitHub(t)
	fake.Login, fake.UserToken = "docs-bot", true
	files := files2(t, gh)
	_, err := gh.Review(ctx, onA(gap(7, 0, "pip missing")), files, ghaction.FilterContext)
	require.NoError(t, err)
	out, err := gh.Review(ctx, onA(), files, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Equal(t, 1, out.Deleted)
	assert.Equal(t, "docs-bot", gh.Login)
}

func TestCommentCapPerRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake, gh := newGitHub(t)
	lines := []int{1, 2, 3, 4, 5, 6, 7, 8, 40, 41, 42, 43, 44}
	var gaps []report.Gap
	for i := 0; i < ghaction.MaxCommentsPerRun+7; i++ {
		gaps = append(gaps, gap(lines[i%len(lines)], 0, fmt.Sprintf("problem %d", i)))
	}
	out, err := gh.Review(ctx, onA(gaps...), files2(t, gh), ghaction.FilterContext)
	require.NoError(t, err)
	assert.Equal(t, ghaction.MaxCommentsPerRun, out.Created)
	assert.Equal(t, 7, out.OverCap)
	assert.Equal(t, []int{7}, out.Outside)
	_, reviews, _, _ := fake.Snapshot()
	assert.Contains(t, reviews[len(reviews)-1].GetBody(), "problem 56")
}

// On pull_request the checkout is the merge commit; comments target the head commit.
// When the base branch moved and changed the tutorial above a gap, the gap's line is
// the head's.
func TestGapLinesComeFromTheHeadCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake, gh := newGitHub(t)
	head := "# Install\n\nRun these:\n\n```bash\npip install requests\npython app.py\n```\n"
	fake.AddFile(headSHA, "docs/a.md", head)
	// The run saw the merge commit, where the base added three lines at the top.
	moved := gap(10, 0, "python missing")
	moved.Location.Text = "python app.py"
	span := gap(8, 9, "block broken")
	span.Location.Text = "pip install requests\npython app.py"
	gone := gap(4, 0, "base-only line")
	gone.Location.Text = "This line exists only on the base branch."
	same := gap(3, 0, "unchanged place")
	same.Location.Text = "Run these:"
	results, problems := gh.AtHead(ctx, onA(moved, span, gone, same))
	require.Empty(t, problems)
	got := results[0].Report.Gaps
	assert.Equal(t, 7, got[0].Location.Line)
	assert.Equal(t, [2]int{6, 7}, [2]int{got[1].Location.Line, got[1].Location.EndLine})
	assert.False(t, got[2].Location.Found, "text not at head: listed, never commented on a wrong line")
	assert.Equal(t, 3, got[3].Location.Line)
	assert.Equal(t, 10, onA(moved)[0].Report.Gaps[0].Location.Line, "the run's own report is left as it is")

	out, err := gh.Review(ctx, results, files2(t, gh), ghaction.FilterContext)
	require.NoError(t, err)
	comments, _, _, _ := fake.Snapshot()
	var lines []int
	for _, c := range comments {
		lines = append(lines, c.GetLine())
	}
	assert.ElementsMatch(t, []int{7, 7, 3}, lines)
	assert.Equal(t, []int{1}, out.Outside)

	// Unknown at head (e.g. the file is new on another ref): the checkout's lines stay.
	other := run("docs/new.md", "blocker", false, moved)
	_, problems = gh.AtHead(ctx, []ghaction.Result{other})
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0], "HTTP 404")
}

func TestCheckRunAnnotationCapKeepsTheMostSevere(t *testing.T) {
	t.Parallel()
	fake, gh := newGitHub(t)
	var gaps []report.Gap
	for i := 0; i < ghaction.MaxAnnotationsPerRun+60; i++ {
		g := gap(i+1, 0, fmt.Sprintf("p%d", i))
		g.Severity = report.Low
		if i%5 == 0 {
			g.Severity = report.Critical
		}
		gaps = append(gaps, g)
	}
	_, err := gh.PostCheck(context.Background(), ghaction.CheckRun{Name: "smile-loop", Conclusion: "failure", Title: "t", Summary: "s", Results: onA(gaps...)})
	require.NoError(t, err)
	_, _, runs, _ := fake.Snapshot()
	require.Len(t, runs[0].Annotations, ghaction.MaxAnnotationsPerRun)
	failures := 0
	for _, a := range runs[0].Annotations {
		if a.GetAnnotationLevel() == "failure" {
			failures++
		}
	}
	assert.Equal(t, (ghaction.MaxAnnotationsPerRun+60)/5, failures, "every critical gap is annotated")
}

func TestAuditIssueCapAndAuthor(t *testing.T) {
	t.Parallel()
	fake, gh := newGitHub(t)
	gh.Event = ghaction.Event{Name: "schedule", Owner: "Codertocat", Repo: "Hello-World", SHA: "abc", RunID: "9", Server: "https://github.com"}
	ctx := context.Background()
	var results []ghaction.Result
	for i := 0; i < ghaction.MaxIssuesPerRun+2; i++ {
		results = append(results, run(fmt.Sprintf("docs/t%02d.md", i), "blocker", false, gap(3, 0, "pip missing")))
	}
	out, err := gh.Audit(ctx, results)
	require.NoError(t, err)
	assert.Len(t, out.Opened, ghaction.MaxIssuesPerRun)
	assert.Equal(t, []string{"docs/t10.md", "docs/t11.md"}, out.OverCap)

	// Someone else's issue that copies the marker is never closed by smile-loop.
	fake.Issues = append(fake.Issues, &github.Issue{Number: github.Int(len(fake.Issues) + 1), State: github.String("open"), Title: github.String("x"),
		Body: github.String("<!-- smile-loop:audit path=docs/passing.md -->"), User: &github.User{Login: github.String("mallory")}})
	out, err = gh.Audit(ctx, []ghaction.Result{run("docs/passing.md", "completed", true)})
	require.NoError(t, err)
	assert.Empty(t, out.Closed)
}

// A run that produced no report has no verdict: its earlier comments and summary stay.
func TestErroredRunLeavesItsCommentsAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake, gh := newGitHub(t)
	files := files2(t, gh)
	_, err := gh.Review(ctx, onA(gap(7, 0, "pip missing"), gap(20, 0, "outside")), files, ghaction.FilterContext)
	require.NoError(t, err)
	out, err := gh.Review(ctx, []ghaction.Result{{Tutorial: "docs/a.md", FailOn: "high", Err: "docker daemon not reachable"}}, files, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Zero(t, out.Deleted+out.Summaries)
	comments, reviews, _, _ := fake.Snapshot()
	assert.Len(t, comments, 1)
	assert.Contains(t, reviews[len(reviews)-1].GetBody(), "outside")
}

// A GitHub App's installation token cannot call GET /user; GraphQL's viewer names it.
func TestOwnCommentsOfAnAppToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake, gh := newGitHub(t)
	fake.Login = "docs-app[bot]"
	files := files2(t, gh)
	_, err := gh.Review(ctx, onA(gap(7, 0, "pip missing")), files, ghaction.FilterContext)
	require.NoError(t, err)
	out, err := gh.Review(ctx, onA(), files, ghaction.FilterContext)
	require.NoError(t, err)
	assert.Equal(t, 1, out.Deleted)
	assert.Equal(t, "docs-app[bot]", gh.Login)
	assert.Equal(t, 1, fake.Count("POST", "/graphql"))
}
