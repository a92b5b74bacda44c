package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
	rpt "github.com/smile-loop/smile-loop/internal/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	testToken = "ghs_actiontoken"
	prHead    = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	docPatch  = "@@ -1,3 +1,6 @@\n # Hello\n \n+Install:\n+\n+```bash\n+pip install requests\n"
)

// actionEnv is a runner environment for Action mode against the fakes.
func actionEnv(t *testing.T, event, payload string) (*ghactiontest.Env, *ghactiontest.GitHub, *ghactiontest.Artifacts) {
	t.Helper()
	env := ghactiontest.NewEnv(t, event, payload)
	gh := ghactiontest.NewGitHub(t, "Codertocat", "Hello-World", testToken)
	arts := ghactiontest.NewArtifacts(t)
	env.Set("GITHUB_API_URL", gh.URL())
	env.Set("INPUT_GITHUB-TOKEN", testToken)
	env.Set("ACTIONS_RESULTS_URL", arts.URL())
	env.Set("ACTIONS_RUNTIME_TOKEN", arts.Token)
	for _, f := range []string{"docs/hello.md", "docs/other.md", "README.md"} {
		p := filepath.Join(env.Workspace(), f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("# Hello\n\nInstall:\n\n```bash\npip install requests\n```\n"), 0o644))
	}
	return env, gh, arts
}

// stubRun is a tutorial runner for runWith: it writes report files like a run and
// returns a result with one gap on line 6 of each tutorial.
func stubRun(t *testing.T, seen *[]actionRun) seams {
	t.Helper()
	var mu sync.Mutex
	return seams{runOne: func(_ context.Context, _ *env, r actionRun) ghaction.Result {
		mu.Lock()
		*seen = append(*seen, r)
		mu.Unlock()
		require.NoError(t, os.MkdirAll(r.OutputDir, 0o755))
		var files []string
		for _, n := range []string{"smile-report.md", "smile-report.json", "smile-report.sarif", "smile-audit.log"} {
			p := filepath.Join(r.OutputDir, n)
			require.NoError(t, os.WriteFile(p, []byte(n+" of "+r.Tutorial), 0o644))
			files = append(files, p)
		}
		rep := &rpt.Report{SchemaVersion: rpt.SchemaVersion}
		rep.Meta.Tutorial, rep.Meta.TutorialURI, rep.Meta.Status = r.Tutorial, r.Tutorial, "blocker"
		rep.Gaps = []rpt.Gap{{ID: 1, Location: rpt.Location{Found: true, Line: 6, Text: "pip install requests"}, Problem: "pip: command not found",
			SuggestedFix: "Replace `pip` with `python3 -m pip`", Severity: rpt.High, Category: rpt.MissingPrerequisite}}
		return ghaction.Result{Tutorial: r.Tutorial, Report: rep, FailOn: r.Config.FailOn, Markdown: "## " + r.Tutorial + "\n", Files: files}
	}}
}

func TestDiscover(t *testing.T) {
	t.Parallel()
	t.Run("pull request: changed tutorials only", func(t *testing.T) {
		t.Parallel()
		env, gh, _ := actionEnv(t, "pull_request", ghactiontest.Fixture(t, "pull_request-opened.payload.json"))
		gh.AddPR(2, prHead, map[string]string{"docs/hello.md": docPatch, "src/main.go": "@@ -1 +1 @@\n-a\n+b", "docs/deleted.md": "@@ -1 +0,0 @@\n-x"})
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"discover"}, env.Getenv, &out, &errb)
		require.Equal(t, exitOK, code, errb.String())
		assert.Equal(t, `{"include":[{"tutorial":"docs/hello.md"}]}`+"\n", out.String())
		assert.Equal(t, `{"include":[{"tutorial":"docs/hello.md"}]}`, env.Outputs(t)["matrix"])
	})
	t.Run("schedule: every match", func(t *testing.T) {
		t.Parallel()
		sched := filepath.Join(t.TempDir(), "schedule.json")
		require.NoError(t, os.WriteFile(sched, []byte(`{"schedule":"17 3 * * *"}`), 0o644))
		env, _, _ := actionEnv(t, "schedule", sched)
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"discover", "--tutorials", "docs/**/*.md,*.md"}, env.Getenv, &out, &errb)
		require.Equal(t, exitOK, code, errb.String())
		assert.JSONEq(t, `{"include":[{"tutorial":"README.md"},{"tutorial":"docs/hello.md"},{"tutorial":"docs/other.md"}]}`, out.String())
	})
	t.Run("action input command: discover", func(t *testing.T) {
		t.Parallel()
		env, _, _ := actionEnv(t, "workflow_dispatch", ghactiontest.Fixture(t, "workflow_dispatch-payload.json"))
		env.Set("INPUT_COMMAND", "discover")
		var out, errb bytes.Buffer
		code := run(context.Background(), nil, env.Getenv, &out, &errb)
		require.Equal(t, exitOK, code, errb.String())
		assert.Equal(t, `{"include":[{"tutorial":"docs/hello.md"},{"tutorial":"docs/other.md"}]}`, env.Outputs(t)["matrix"])
	})
}

func TestActionModeOnPullRequest(t *testing.T) {
	t.Parallel()
	env, gh, arts := actionEnv(t, "pull_request", ghactiontest.Fixture(t, "pull_request-synchronize.payload.json"))
	gh.AddPR(2, prHead, map[string]string{"docs/hello.md": docPatch})
	env.Set("INPUT_LLM-PROVIDER", "claude") // no ANTHROPIC_API_KEY: falls back to none
	var seen []actionRun
	stub := stubRun(t, &seen)
	var out, errb bytes.Buffer
	code := runWith(context.Background(), nil, env.Getenv, &out, &errb, stub)
	assert.Equal(t, exitFailed, code, "a high gap fails the step\n%s\n%s", out.String(), errb.String())

	require.Len(t, seen, 1)
	assert.Equal(t, "docs/hello.md", seen[0].Tutorial)
	assert.Equal(t, "none", seen[0].Config.LLMProvider)
	assert.Equal(t, filepath.Join(env.Workspace(), "smile-output", "docs-hello"), seen[0].OutputDir)
	log := out.String()
	assert.Contains(t, log, "::notice::no credentials for llm-provider claude; running the deterministic mode")
	assert.Contains(t, log, "smile-loop: testing docs/hello.md")
	assert.Contains(t, log, "::add-mask::"+testToken)
	assert.NotContains(t, strings.ReplaceAll(log, "::add-mask::"+testToken, ""), testToken)

	comments, reviews, runs, _ := gh.Snapshot()
	require.Len(t, comments, 1)
	assert.Equal(t, 6, comments[0].GetLine())
	assert.Contains(t, comments[0].GetBody(), "```suggestion\npython3 -m pip install requests\n```")
	assert.Len(t, reviews, 1)
	require.Len(t, runs, 1)
	assert.Equal(t, "failure", runs[0].Conclusion)
	assert.Equal(t, prHead, runs[0].HeadSHA)

	outputs := env.Outputs(t)
	assert.Equal(t, "failed", outputs["status"])
	assert.Equal(t, "1", outputs["gaps"])
	assert.Equal(t, "smile-output/docs-hello/smile-report.json", outputs["report-json"])
	files := arts.Files(t, "smile-report")
	assert.Equal(t, "smile-report.json of docs/hello.md", files["smile-report.json"])
	var rec ghaction.EventRecord
	require.NoError(t, json.Unmarshal([]byte(files[ghaction.EventFile]), &rec))
	assert.Equal(t, ghaction.EventRecord{Repository: "Codertocat/Hello-World", PR: 2, HeadSHA: prHead}, rec)
	assert.Contains(t, env.Summary(t), "## docs/hello.md")

	// The fork-safe pair: a workflow_run job posts the downloaded artifact as data.
	t.Run("report-dir from workflow_run", func(t *testing.T) {
		t.Parallel()
		postEnv, postGH, _ := actionEnv(t, "workflow_run", writeJSON(t, map[string]any{
			"action": "completed", "workflow_run": map[string]any{"head_sha": prHead, "event": "pull_request"},
			"repository": map[string]any{"full_name": "Codertocat/Hello-World"}}))
		postGH.AddPR(2, prHead, map[string]string{"docs/hello.md": docPatch})
		dir := filepath.Join(postEnv.Workspace(), "smile-report")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, ghaction.EventFile), []byte(files[ghaction.EventFile]), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "smile-report.json"), []byte(`{"meta":{"tutorialUri":"docs/hello.md","status":"blocker"},
			"gaps":[{"id":1,"location":{"found":true,"line":6,"text":"pip install requests"},"problem":"pip: command not found <b>@team</b>","severity":"high","fingerprint":"f1"}]}`), 0o644))
		evil := filepath.Join(dir, "evil")
		require.NoError(t, os.MkdirAll(evil, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(evil, "smile-report.json"), []byte(`{"meta":{"tutorialUri":".github/workflows/ci.yml","status":"blocker"},
			"gaps":[{"id":1,"location":{"found":true,"line":1,"text":"x"},"problem":"p","severity":"high"}]}`), 0o644))
		postEnv.Set("INPUT_REPORT-DIR", "smile-report")
		var out, errb bytes.Buffer
		code := runWith(context.Background(), nil, postEnv.Getenv, &out, &errb, stub)
		require.Equal(t, exitOK, code, "%s\n%s", out.String(), errb.String())
		assert.Contains(t, out.String(), "::warning::report-dir: ignoring the report about .github/workflows/ci.yml")
		comments, _, runs, _ := postGH.Snapshot()
		require.Len(t, comments, 1)
		assert.Equal(t, 6, comments[0].GetLine())
		assert.NotContains(t, comments[0].GetBody(), "<b>")
		assert.NotContains(t, comments[0].GetBody(), "@team")
		require.Len(t, runs, 1)
		assert.Equal(t, prHead, runs[0].HeadSHA)
	})

	// Without the event record nothing ties an artifact to the pull request's head.
	t.Run("report-dir without its event record is refused", func(t *testing.T) {
		t.Parallel()
		postEnv, postGH, _ := actionEnv(t, "workflow_run", ghactiontest.Fixture(t, "workflow_run-completed.payload.json"))
		postGH.AddPR(2, prHead, map[string]string{"docs/hello.md": docPatch})
		dir := filepath.Join(postEnv.Workspace(), "smile-report")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "smile-report.json"), []byte(`{"meta":{"tutorialUri":"docs/hello.md","status":"blocker"},
			"gaps":[{"id":1,"location":{"found":true,"line":6},"problem":"p","severity":"high"}]}`), 0o644))
		postEnv.Set("INPUT_REPORT-DIR", "smile-report")
		var out, errb bytes.Buffer
		code := runWith(context.Background(), nil, postEnv.Getenv, &out, &errb, stub)
		assert.Equal(t, exitInvalidInput, code, "%s\n%s", out.String(), errb.String())
		assert.Contains(t, out.String()+errb.String(), "no smile-event.json in the artifact")
		comments, _, runs, _ := postGH.Snapshot()
		assert.Empty(t, comments)
		assert.Empty(t, runs)
	})
}

// A file name is untrusted: a line break in it cannot start a workflow command.
func TestActionModeFileNameCannotInjectCommands(t *testing.T) {
	t.Parallel()
	env, _, _ := actionEnv(t, "workflow_dispatch", ghactiontest.Fixture(t, "workflow_dispatch-payload.json"))
	evil := filepath.Join(env.Workspace(), "docs", "evil\n::error file=x::pwned\r\n::add-mask::x.md")
	require.NoError(t, os.WriteFile(evil, []byte("# x\n"), 0o644))
	env.Set("INPUT_TUTORIALS", "docs/evil*")
	env.Set("INPUT_COMMENT-MODE", "annotations")
	var seen []actionRun
	stub := stubRun(t, &seen)
	var out, errb bytes.Buffer
	runWith(context.Background(), nil, env.Getenv, &out, &errb, stub)
	require.Len(t, seen, 1, out.String())
	for _, line := range strings.Split(strings.ReplaceAll(out.String(), "\r", "\n"), "\n") {
		assert.False(t, strings.HasPrefix(line, "::error file=x::pwned") || strings.HasPrefix(line, "::add-mask::x.md"), "injected command: %q", line)
	}
	assert.Contains(t, out.String(), "smile-loop: testing docs/evil%0A::error file=x::pwned%0D%0A::add-mask::x.md")
}

// pull_request_target runs with secrets on untrusted content: a loud warning.
func TestActionModeWarnsOnPullRequestTarget(t *testing.T) {
	t.Parallel()
	env, gh, _ := actionEnv(t, "pull_request_target", ghactiontest.Fixture(t, "pull_request-opened.payload.json"))
	gh.AddPR(2, prHead, map[string]string{"docs/hello.md": docPatch})
	var seen []actionRun
	stub := stubRun(t, &seen)
	var out, errb bytes.Buffer
	runWith(context.Background(), nil, env.Getenv, &out, &errb, stub)
	assert.Contains(t, out.String(), "::warning::smile-loop runs on pull_request_target")
	assert.Contains(t, out.String(), ghaction.TrustModelURL)
}

func TestActionModeFromForkDegrades(t *testing.T) {
	t.Parallel()
	fx := ghactiontest.Fixture(t, "pull_request-opened.payload.json")
	b, err := os.ReadFile(fx)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	m["pull_request"].(map[string]any)["head"].(map[string]any)["repo"].(map[string]any)["full_name"] = "outsider/Hello-World"
	env, gh, arts := actionEnv(t, "pull_request", writeJSON(t, m))
	gh.AddPR(2, prHead, map[string]string{"docs/hello.md": docPatch})
	gh.ReadOnly = true
	env.Set("INPUT_LLM-PROVIDER", "codex")
	var seen []actionRun
	stub := stubRun(t, &seen)
	var out, errb bytes.Buffer
	code := runWith(context.Background(), nil, env.Getenv, &out, &errb, stub)
	assert.Equal(t, exitFailed, code)
	require.Len(t, seen, 1)
	assert.Equal(t, "none", seen[0].Config.LLMProvider)
	log := out.String()
	assert.Contains(t, log, "::notice::pull request from a fork: GitHub passes no secrets, so there are no credentials for llm-provider codex")
	assert.Contains(t, log, "::warning::could not post the check run: HTTP 403 Resource not accessible by integration")
	assert.Contains(t, log, "::warning::could not post the review: HTTP 403")
	assert.Contains(t, log, "::error endLine=6,file=docs/hello.md,line=6,title=smile-loop%3A high gap::pip: command not found")
	assert.Contains(t, log, "Not posted (2)")
	assert.Equal(t, "failed", env.Outputs(t)["status"])
	assert.Contains(t, env.Summary(t), "docs/hello.md")
	assert.Contains(t, arts.Files(t, "smile-report"), "smile-report.md", "the artifact does not need the GitHub token")
}

func TestActionModeInvalidInput(t *testing.T) {
	t.Parallel()
	env, _, _ := actionEnv(t, "push", ghactiontest.Fixture(t, "push-payload.json"))
	env.Set("INPUT_COMMENT-MODE", "shout")
	var out, errb bytes.Buffer
	assert.Equal(t, exitInvalidInput, run(context.Background(), nil, env.Getenv, &out, &errb))
	assert.Contains(t, errb.String(), `input comment-mode="shout" is invalid`)
}

func writeJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "event.json")
	require.NoError(t, os.WriteFile(p, b, 0o644))
	return p
}

func TestSecretMaskerCoversInjectedSecrets(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"INPUT_GITHUB-TOKEN": "ghs_0123456789abcdef", "ANTHROPIC_API_KEY": "sk-ant-0123456789abcdef"}
	m := secretMasker(&env{getenv: func(k string) string { return vars[k] }})
	got := m.String("token ghs_0123456789abcdef and key sk-ant-0123456789abcdef")
	assert.NotContains(t, got, "ghs_0123456789abcdef")
	assert.NotContains(t, got, "sk-ant-0123456789abcdef")
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"docs/get-started.md": "docs-get-started", "README.md": "README", "a b/c.d.md": "a-b-c.d"} {
		assert.Equal(t, want, slug(in), in)
	}
}

func TestActionModeCancelledStillPublishes(t *testing.T) {
	t.Parallel()
	renv, gh, _ := actionEnv(t, "pull_request", ghactiontest.Fixture(t, "pull_request-opened.payload.json"))
	gh.AddPR(2, prHead, map[string]string{"docs/hello.md": docPatch, "docs/other.md": docPatch})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen []actionRun
	stub := stubRun(t, &seen)
	inner := stub.runOne
	stub.runOne = func(ctx context.Context, e *env, r actionRun) ghaction.Result {
		res := inner(ctx, e, r)
		cancel() // SIGTERM during the first tutorial
		return res
	}
	var out, errb bytes.Buffer
	code := runWith(ctx, nil, renv.Getenv, &out, &errb, stub)
	assert.Equal(t, exitFailed, code)
	assert.Len(t, seen, 1, "no tutorial starts after the cancellation")
	_, _, runs, _ := gh.Snapshot()
	require.Len(t, runs, 1, "what was found is still posted")
	assert.Equal(t, "failed", renv.Outputs(t)["status"])
}
