package ghaction_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func inputs(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestReadInputs(t *testing.T) {
	t.Parallel()
	in, err := ghaction.ReadInputs(inputs(nil))
	require.NoError(t, err)
	assert.Equal(t, []string{ghaction.DefaultTutorials}, in.Tutorials)
	assert.Equal(t, ghaction.ModeReview, in.CommentMode)
	assert.True(t, in.ChangedOnly)
	assert.False(t, in.AuditIssues)
	assert.Equal(t, "smile-report", in.ArtifactName)

	in, err = ghaction.ReadInputs(inputs(map[string]string{
		"tutorials": "docs/**/*.md\nguides/a.md, guides/b.md", "comment-mode": "Annotations",
		"max-iterations": "3", "changed-only": "false", "audit-issues": "true", "fail-on": "medium",
	}))
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/**/*.md", "guides/a.md", "guides/b.md"}, in.Tutorials)
	assert.Equal(t, ghaction.ModeAnnotations, in.CommentMode)
	assert.Equal(t, 3, in.MaxIterations)
	assert.False(t, in.ChangedOnly)
	assert.True(t, in.AuditIssues)

	_, err = ghaction.ReadInputs(inputs(map[string]string{
		"comment-mode": "loud", "max-iterations": "0", "fail-on": "urgent", "changed-only": "maybe", "tutorials": "../etc/passwd",
	}))
	require.Error(t, err)
	for _, name := range []string{"comment-mode", "max-iterations", "fail-on", "changed-only", "tutorials"} {
		assert.Contains(t, err.Error(), "input "+name+"=")
	}
	var ie *ghaction.InputError
	require.ErrorAs(t, err, &ie)
	assert.True(t, ie.InvalidInput())
}

func TestReadEventPayloads(t *testing.T) {
	t.Parallel()
	fx := ghactiontest.FixtureDir(t)
	forkPayload := forkVariant(t, filepath.Join(fx, "pull_request-opened.payload.json"))
	schedule := filepath.Join(t.TempDir(), "schedule.json")
	require.NoError(t, os.WriteFile(schedule, []byte(`{"schedule":"17 3 * * *"}`), 0o644))
	tests := []struct {
		name, event, payload string
		want                 ghaction.Event
	}{
		{"pull_request opened", "pull_request", filepath.Join(fx, "pull_request-opened.payload.json"),
			ghaction.Event{Name: "pull_request", Owner: "Codertocat", Repo: "Hello-World", SHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", PR: 2}},
		{"pull_request with null body", "pull_request", filepath.Join(fx, "pull_request-opened.with-null-body.json"),
			ghaction.Event{Name: "pull_request", Owner: "Codertocat", Repo: "Hello-World", SHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", PR: 2}},
		{"pull_request synchronize", "pull_request", filepath.Join(fx, "pull_request-synchronize.payload.json"),
			ghaction.Event{Name: "pull_request", Owner: "Codertocat", Repo: "Hello-World", SHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", PR: 2}},
		{"pull_request from a fork", "pull_request", forkPayload,
			ghaction.Event{Name: "pull_request", Owner: "Codertocat", Repo: "Hello-World", SHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", PR: 2, Fork: true}},
		{"push", "push", filepath.Join(fx, "push-payload.json"),
			ghaction.Event{Name: "push", Owner: "Codertocat", Repo: "Hello-World", SHA: "6113728f27ae82c7b1a177c8d03f9e96e0adf246"}},
		{"workflow_dispatch", "workflow_dispatch", filepath.Join(fx, "workflow_dispatch-payload.json"),
			ghaction.Event{Name: "workflow_dispatch", Owner: "Codertocat", Repo: "Hello-World", SHA: "6113728f27ae82c7b1a177c8d03f9e96e0adf246"}},
		{"workflow_run", "workflow_run", filepath.Join(fx, "workflow_run-completed.payload.json"),
			ghaction.Event{Name: "workflow_run", Owner: "Codertocat", Repo: "Hello-World", SHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821"}},
		{"schedule", "schedule", schedule,
			ghaction.Event{Name: "schedule", Owner: "Codertocat", Repo: "Hello-World", SHA: "6113728f27ae82c7b1a177c8d03f9e96e0adf246", Schedule: "17 3 * * *"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := ghactiontest.NewEnv(t, tt.event, tt.payload)
			ev, err := ghaction.ReadEvent(env.Getenv)
			require.NoError(t, err)
			tt.want.RunID, tt.want.Server = "1234", "https://github.com"
			assert.Equal(t, tt.want, ev)
		})
	}
	t.Run("missing payload", func(t *testing.T) {
		t.Parallel()
		env := ghactiontest.NewEnv(t, "pull_request", filepath.Join(t.TempDir(), "nope.json"))
		_, err := ghaction.ReadEvent(env.Getenv)
		var ee *ghaction.EnvError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, "GITHUB_EVENT_PATH", ee.Name)
	})
}

// forkVariant rewrites a real payload so the head repository is a fork.
func forkVariant(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	head := m["pull_request"].(map[string]any)["head"].(map[string]any)
	repo := head["repo"].(map[string]any)
	repo["full_name"] = "outsider/Hello-World"
	repo["fork"] = true
	out := filepath.Join(t.TempDir(), "fork.json")
	b, err = json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(out, b, 0o644))
	return out
}

func TestMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"docs/**/*.md", "docs/a.md", true},
		{"docs/**/*.md", "docs/x/y/a.md", true},
		{"docs/**/*.md", "src/a.md", false},
		{"docs/*.md", "docs/x/a.md", false},
		{"**/*.md", "README.md", true},
		{"**", "a/b/c", true},
		{"guides/intro.md", "guides/intro.md", true},
		{"docs/**", "docs", true},
		{"[", "[", false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ghaction.Match(tt.pattern, tt.name))
		})
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"docs/a.md", "docs/sub/b.md", "docs/c.txt", ".git/x.md", "node_modules/m/r.md", "README.md"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644))
	}
	got, err := ghaction.Glob(root, []string{"docs/**/*.md"})
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/a.md", "docs/sub/b.md"}, got)
	got, err = ghaction.Glob(root, []string{"**/*.md"})
	require.NoError(t, err)
	assert.Equal(t, []string{"README.md", "docs/a.md", "docs/sub/b.md"}, got)
}

const patch = "@@ -1,4 +1,5 @@\n # Title\n-old\n+new line 2\n+new line 3\n context 4\n context 5\n@@ -20,3 +21,4 @@ section\n line 21\n+added 22\n line 23\n\\ No newline at end of file\n line 24"

func TestParsePatchAndAnchor(t *testing.T) {
	t.Parallel()
	hs := ghaction.ParsePatch(patch)
	assert.Equal(t, ghaction.Hunks{{1, 5}, {21, 24}}, hs)
	tests := []struct {
		name               string
		first, last        int
		wantStart, wantEnd int
		ok                 bool
	}{
		{"single line in diff", 3, 3, 0, 3, true},
		{"range in one hunk", 2, 4, 2, 4, true},
		{"range crossing the hunk's start", 19, 22, 21, 22, true},
		{"range leaving the hunk: its part in the hunk", 4, 9, 4, 5, true},
		{"outside", 10, 12, 0, 0, false},
		{"end before start is a single line", 22, 0, 0, 22, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, e, ok := hs.Anchor(tt.first, tt.last)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.wantStart, s)
			assert.Equal(t, tt.wantEnd, e)
		})
	}
}

func TestCapMarkdown(t *testing.T) {
	t.Parallel()
	short := "# ok\n"
	assert.Equal(t, short, ghaction.CapMarkdown(short, 100, ""))
	long := "# report\n\n```bash\n" + strings.Repeat("echo héllo\n", 10000) + "```\n"
	got := ghaction.CapMarkdown(long, ghaction.MaxSummary, "https://github.com/o/r/actions/runs/1/artifacts/7")
	assert.LessOrEqual(t, len(got), ghaction.MaxSummary)
	assert.Contains(t, got, "[workflow artifact](https://github.com/o/r/actions/runs/1/artifacts/7)")
	assert.Equal(t, 0, strings.Count(got, "```")%2, "the cut closes the open fence")
}

func TestMatrix(t *testing.T) {
	t.Parallel()
	assert.Equal(t, `{"include":[]}`, ghaction.MatrixOf(nil).JSON())
	assert.Equal(t, `{"include":[{"tutorial":"docs/a.md"},{"tutorial":"docs/b.md"}]}`, ghaction.MatrixOf([]string{"docs/a.md", "docs/b.md"}).JSON())
}

func TestChooseProvider(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	p, why := ghaction.ChooseProvider("claude", "cli", ghaction.Event{}, env(map[string]string{"ANTHROPIC_API_KEY": "k"}))
	assert.Equal(t, "claude", p)
	assert.Empty(t, why)
	p, why = ghaction.ChooseProvider("claude", "cli", ghaction.Event{Fork: true, PR: 3}, env(nil))
	assert.Equal(t, "none", p)
	assert.Contains(t, why, "fork")
	assert.Contains(t, why, "deterministic")
	p, _ = ghaction.ChooseProvider("gemini", "api", ghaction.Event{}, env(map[string]string{"GOOGLE_API_KEY": "k"}))
	assert.Equal(t, "gemini", p)
	p, why = ghaction.ChooseProvider("none", "cli", ghaction.Event{Fork: true}, env(nil))
	assert.Equal(t, "none", p)
	assert.Empty(t, why)
}

// Issue 15: an OAuth-only Claude setup either runs (the claude CLI, through the key
// proxy) or falls back to the deterministic mode (the api runtime), and the notice says
// which. Before, Action mode counted the token while the runtimes ignored it: the job
// failed instead of falling back.
func TestChooseProviderOAuthOnlyClaude(t *testing.T) {
	t.Parallel()
	oauth := func(k string) string {
		if k == "CLAUDE_CODE_OAUTH_TOKEN" {
			return "sk-ant-oat01-test"
		}
		return ""
	}
	p, why := ghaction.ChooseProvider("claude", "cli", ghaction.Event{}, oauth)
	assert.Equal(t, "claude", p, "the claude CLI authenticates with the subscription token")
	assert.Contains(t, why, "authenticates with CLAUDE_CODE_OAUTH_TOKEN")
	p, why = ghaction.ChooseProvider("claude", "api", ghaction.Event{}, oauth)
	assert.Equal(t, "none", p, "the api runtime cannot use a subscription token")
	assert.Contains(t, why, "CLAUDE_CODE_OAUTH_TOKEN is set but authenticates only the provider's CLI")
	assert.Contains(t, why, "set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN")
	assert.Contains(t, why, "deterministic mode")
}

// The payloads in testdata follow GitHub's schema; where the real ones GitHub sent are
// at hand (../shared/fixtures, required with CI=true), each reads as the same event.
func TestRealPayloadsConform(t *testing.T) {
	t.Parallel()
	real := ghactiontest.SharedFixtureDir(t)
	if real == "" {
		t.Skip("../shared/fixtures/github-events is absent (required when CI=true)")
	}
	entries, err := os.ReadDir(real)
	require.NoError(t, err)
	checked := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		event := strings.SplitN(e.Name(), "-", 2)[0]
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			fromReal, err := ghaction.ReadEvent(ghactiontest.NewEnv(t, event, filepath.Join(real, e.Name())).Getenv)
			require.NoError(t, err)
			ours, err := ghaction.ReadEvent(ghactiontest.NewEnv(t, event, ghactiontest.Fixture(t, e.Name())).Getenv)
			require.NoError(t, err)
			assert.Equal(t, fromReal, ours)
		})
		checked++
	}
	assert.GreaterOrEqual(t, checked, 5)
}
