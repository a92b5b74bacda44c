package ghaction_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"
	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
	"github.com/smile-loop/smile-loop/internal/golden"
	"github.com/smile-loop/smile-loop/internal/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// result writes report files into the workspace like a run does.
func result(t *testing.T, ws string) ghaction.Result {
	t.Helper()
	dir := filepath.Join(ws, "smile-output", "docs-a")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	var files []string
	for name, content := range map[string]string{
		"smile-report.md": "# Report for docs/a.md\n", "smile-report.json": `{"schemaVersion":1}`,
		"smile-report.sarif": `{"version":"2.1.0"}`, "smile-audit.log": "audit\n",
	} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		files = append(files, p)
	}
	g1 := gap(7, 0, "pip missing")
	g1.SuggestedFix = "Install pip with the token ghp_secretvalue123"
	r := run("docs/a.md", "blocker", false, g1, gap(20, 0, "outside the diff"))
	r.Markdown, r.Files = "# Report for docs/a.md\n", files
	return r
}

func publisher(t *testing.T, env *ghactiontest.Env, gh *ghaction.GitHub, arts *ghactiontest.Artifacts, out io.Writer) *ghaction.Publisher {
	t.Helper()
	in, err := ghaction.ReadInputs(func(string) string { return "" })
	require.NoError(t, err)
	in.FailOn = "high"
	ev, err := ghaction.ReadEvent(env.Getenv)
	require.NoError(t, err)
	gh.Event = ev
	p := &ghaction.Publisher{
		Action:    githubactions.New(githubactions.WithGetenv(env.Getenv), githubactions.WithWriter(out)),
		Getenv:    env.Getenv,
		GitHub:    gh,
		Inputs:    in,
		Event:     ev,
		Workspace: env.Workspace(),
		Log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		Redact:    func(s string) string { return strings.ReplaceAll(s, "ghp_secretvalue123", "***") },
	}
	if arts != nil {
		p.Artifacts = &ghaction.Artifacts{ResultsURL: arts.URL(), Token: arts.Token}
	}
	return p
}

func TestPublishOnPullRequest(t *testing.T) {
	t.Parallel()
	fake, gh := newGitHub(t)
	arts := ghactiontest.NewArtifacts(t)
	arts.Fail = 1 // one 503 from the results service, retried
	env := ghactiontest.NewEnv(t, "pull_request", ghactiontest.Fixture(t, "pull_request-opened.with-null-body.json"))
	var log bytes.Buffer
	p := publisher(t, env, gh, arts, &log)
	out, err := p.Publish(context.Background(), []ghaction.Result{result(t, env.Workspace())})
	require.NoError(t, err)
	assert.Empty(t, out.NotPosted)
	assert.Equal(t, ghaction.StatusFailed, out.Status)
	assert.Equal(t, 0, out.Annotated, "the check run carries the annotations")

	assert.Equal(t, map[string]string{
		"status": "failed", "gaps": "2",
		"report-json": "smile-output/docs-a/smile-report.json", "report-markdown": "smile-output/docs-a/smile-report.md",
		"report-sarif": "smile-output/docs-a/smile-report.sarif",
		"artifact-url": "https://github.com/Codertocat/Hello-World/actions/runs/1234/artifacts/4000",
	}, env.Outputs(t))
	summary := env.Summary(t)
	assert.Contains(t, summary, "| `docs/a.md` | ❌ failed | blocker | 2 |")
	assert.Contains(t, summary, "# Report for docs/a.md")
	assert.Equal(t, map[string]string{
		"smile-report.md": "# Report for docs/a.md\n", "smile-report.json": `{"schemaVersion":1}`,
		"smile-report.sarif": `{"version":"2.1.0"}`, "smile-audit.log": "audit\n",
	}, arts.Files(t, "smile-report"))

	comments, reviews, runs, _ := fake.Snapshot()
	require.Len(t, comments, 1)
	assert.Equal(t, 7, comments[0].GetLine())
	assert.True(t, golden.Render(t, comments[0].GetBody()).Shows("Install pip with the token ***"))
	assert.NotContains(t, comments[0].GetBody(), "ghp_secretvalue123")
	require.Len(t, reviews, 2, "the comments' review and the tutorial's summary review")
	assert.Contains(t, reviews[1].GetBody(), "outside the diff")
	require.Len(t, runs, 1)
	assert.Equal(t, "failure", runs[0].Conclusion)
	assert.Len(t, runs[0].Annotations, 2)
	assert.NotContains(t, log.String(), "ghp_secretvalue123")
}

func TestPublishFromForkDegrades(t *testing.T) {
	t.Parallel()
	fake, gh := newGitHub(t)
	fake.ReadOnly = true
	env := ghactiontest.NewEnv(t, "pull_request", forkVariant(t, ghactiontest.Fixture(t, "pull_request-opened.payload.json")))
	// No ACTIONS_RUNTIME_TOKEN: the artifact cannot be uploaded either.
	var log bytes.Buffer
	p := publisher(t, env, gh, nil, &log)
	p.Artifacts = &ghaction.Artifacts{}
	out, err := p.Publish(context.Background(), []ghaction.Result{result(t, env.Workspace())})
	require.NoError(t, err)
	assert.Equal(t, 2, out.Annotated)
	require.Len(t, out.NotPosted, 3)
	assert.Contains(t, out.NotPosted[0], "ACTIONS_RUNTIME_TOKEN")
	assert.Contains(t, out.NotPosted[1], "could not post the check run: HTTP 403 Resource not accessible by integration")
	assert.Contains(t, out.NotPosted[2], "could not post the review: HTTP 403")

	l := log.String()
	assert.Contains(t, l, "::notice::pull request from a fork")
	assert.Contains(t, l, "::warning::could not post the check run: HTTP 403")
	assert.Contains(t, l, "::error endLine=7,file=docs/a.md,line=7,title=smile-loop%3A high gap::pip missing Suggested fix: Install pip with the token ***")
	assert.Contains(t, l, "::error endLine=20,file=docs/a.md,line=20,title=smile-loop%3A high gap::outside the diff")
	assert.NotContains(t, l, "ghp_secretvalue123")
	assert.Equal(t, "failed", env.Outputs(t)["status"])
	assert.Contains(t, env.Summary(t), "# Report for docs/a.md")
	assert.NotContains(t, env.Summary(t), "artifacts/")
}

func TestPublishNothingToTest(t *testing.T) {
	t.Parallel()
	_, gh := newGitHub(t)
	env := ghactiontest.NewEnv(t, "pull_request", ghactiontest.Fixture(t, "pull_request-synchronize.payload.json"))
	var log bytes.Buffer
	p := publisher(t, env, gh, nil, &log)
	out, err := p.Publish(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, ghaction.StatusNothing, out.Status)
	assert.Equal(t, "skipped", env.Outputs(t)["status"])
	assert.Equal(t, "0", env.Outputs(t)["gaps"])
	assert.Contains(t, env.Summary(t), "No tutorial to test")
}

func TestPublishArtifactNameTaken(t *testing.T) {
	t.Parallel()
	_, gh := newGitHub(t)
	arts := ghactiontest.NewArtifacts(t)
	env := ghactiontest.NewEnv(t, "push", ghactiontest.Fixture(t, "push-payload.json"))
	var log bytes.Buffer
	p := publisher(t, env, gh, arts, &log)
	_, err := p.Publish(context.Background(), []ghaction.Result{result(t, env.Workspace())})
	require.NoError(t, err)
	// A second job of the same run with the same artifact-name (a matrix without unique names).
	out, err := p.Publish(context.Background(), []ghaction.Result{result(t, env.Workspace())})
	require.NoError(t, err)
	require.NotEmpty(t, out.NotPosted)
	assert.Contains(t, out.NotPosted[0], "could not post the report artifact: create artifact smile-report: HTTP 409 already_exists")
	assert.Contains(t, env.Summary(t), "# Report for docs/a.md", "the summary is still written")
}

func TestPublishCapsTheSummaryAndLinksTheArtifact(t *testing.T) {
	t.Parallel()
	_, gh := newGitHub(t)
	arts := ghactiontest.NewArtifacts(t)
	env := ghactiontest.NewEnv(t, "workflow_dispatch", ghactiontest.Fixture(t, "workflow_dispatch-payload.json"))
	var log bytes.Buffer
	p := publisher(t, env, gh, arts, &log)
	r := result(t, env.Workspace())
	r.Markdown = "# Report\n\n```text\n" + strings.Repeat("a long output line\n", 20000) + "```\n"
	out, err := p.Publish(context.Background(), []ghaction.Result{r})
	require.NoError(t, err)
	require.NotZero(t, out.ArtifactID)
	s := env.Summary(t)
	assert.LessOrEqual(t, len(s), ghaction.MaxSummary+1)
	assert.Contains(t, s, "**Report truncated** to fit GitHub's limit. The full report is in the [workflow artifact](https://github.com/Codertocat/Hello-World/actions/runs/1234/artifacts/4000).")
}

// publishStatus publishes res without GitHub and returns the status output.
func publishStatus(t *testing.T, res ghaction.Result) string {
	t.Helper()
	env := ghactiontest.NewEnv(t, "push", ghactiontest.Fixture(t, "push-payload.json"))
	p := publisher(t, env, &ghaction.GitHub{}, nil, io.Discard)
	p.GitHub, p.Inputs.CommentMode = nil, ghaction.ModeNone
	out, err := p.Publish(context.Background(), []ghaction.Result{res})
	require.NoError(t, err)
	return out.Status
}

// Fork fallback: failing gaps are errors, the rest warnings, most severe first then by
// line; GitHub shows 10 of each per step, so the log and summary count the rest.
func TestForkAnnotationsBySeverityWithinGitHubsDisplayLimit(t *testing.T) {
	t.Parallel()
	fake, gh := newGitHub(t)
	fake.ReadOnly = true
	env := ghactiontest.NewEnv(t, "pull_request", forkVariant(t, ghactiontest.Fixture(t, "pull_request-opened.payload.json")))
	var log bytes.Buffer
	p := publisher(t, env, gh, nil, &log)
	var gaps []report.Gap
	for i := 0; i < 30; i++ {
		g := gap(100-i, 0, fmt.Sprintf("p%d", i))
		g.Severity = []report.Severity{report.Low, report.Medium, report.High, report.Critical}[i%4]
		gaps = append(gaps, g)
	}
	gaps = append(gaps, report.Gap{Problem: "unlocated", Severity: report.Critical, Fingerprint: "u"})
	out, err := p.Publish(context.Background(), onA(gaps...))
	require.NoError(t, err)
	// The step's own two warnings (check run and review not posted) are among the 10.
	assert.Equal(t, 18, out.Annotated)

	var kinds []string
	var lines []int
	for _, l := range strings.Split(log.String(), "\n") {
		for _, k := range []string{"::error ", "::warning "} {
			if strings.HasPrefix(l, k) && strings.Contains(l, "title=smile-loop") {
				kinds = append(kinds, strings.TrimSpace(k))
				n := 0
				if _, err := fmt.Sscanf(l[strings.Index(l, ",line=")+6:], "%d", &n); err != nil {
					n = -1 // file-level: no line
				}
				lines = append(lines, n)
			}
		}
	}
	require.Len(t, kinds, 18)
	// 8 critical (one unlocated, first) and 7 high fail, 8 medium and 8 low do not:
	// 10 errors and 8 gap warnings shown, most severe first.
	assert.Equal(t, strings.Repeat("::error ", 10)+strings.Repeat("::warning ", 8), strings.Join(kinds, " ")+" ")
	assert.Equal(t, -1, lines[0], "the unlocated critical gap annotates the file, not line 1")
	assert.Equal(t, []int{73, 77, 81, 85, 89, 93, 97}, lines[1:8], "critical gaps by line")
	assert.Contains(t, log.String(), "::notice::GitHub shows at most 10 error and 10 warning annotations per step: 5 more failing and 8 more other gap(s)")
	assert.Contains(t, env.Summary(t), "5 more failing and 8 more other gap(s) are listed in this summary")
	seen := golden.Markdown(t, filepath.Join("testdata", "golden", "step-summary-fork.md"), env.Summary(t))
	assert.Empty(t, seen.Live())
	assert.True(t, seen.Shows("GitHub shows at most 10 error and 10 warning annotations per step: 5 more failing and 8 more other gap(s)"))
	assert.True(t, seen.HasCode("docs/a.md (line unknown)"))
}
