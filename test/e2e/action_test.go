//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
	"github.com/smile-loop/smile-loop/internal/report"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

const actionTutorial = "# Frobnicator\n" + // 1
	"\n" +
	"## Prepare\n" + // 3
	"\n" +
	"```bash\n" + // 5
	"mkdir -p work && echo ready > work/state\n" + // 6
	"```\n" +
	"\n" +
	"## Run the tool\n" + // 9
	"\n" +
	"```bash\n" + // 11
	"frobnicate --version\n" + // 12
	"```\n"

const (
	actionToken = "ghs_e2eactiontoken0001"
	actionHead  = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
)

// newFilePatch is the diff of a pull request that adds the tutorial.
func newFilePatch(content string) string {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "@@ -0,0 +1,%d @@\n", len(lines))
	for _, l := range lines {
		b.WriteString("+" + l + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// runActionBinary runs the action's binary in ws as a runner does: only PATH, HOME,
// DOCKER_HOST and the given variables (GITHUB_*, INPUT_*, …) in its environment. It
// returns the exit code and the job log (stdout and stderr).
func runActionBinary(t *testing.T, bin, ws string, vars map[string]string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = ws
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	if h := os.Getenv("DOCKER_HOST"); h != "" {
		cmd.Env = append(cmd.Env, "DOCKER_HOST="+h)
	}
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, out.String()
}

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "smile-action")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/smile-action")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "build smile-action: %s", out)
	return bin
}

// A real deterministic loop on the engine through Action mode, exactly as on a runner:
// the real pull_request payload, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, the GitHub
// REST API and the artifact service as fakes that refuse what GitHub refuses.
func TestActionModeEndToEnd(t *testing.T) {
	image := sandboxtest.RequireImage(t)
	bin := buildBinary(t)

	env := ghactiontest.NewEnv(t, "pull_request", ghactiontest.Fixture(t, "pull_request-opened.payload.json"))
	ws := env.Workspace()
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "docs", "frob.md"), []byte(actionTutorial), 0o644))
	cfg := fmt.Sprintf(`{"llmProvider":"none","containerImage":%q,"maxIterations":2,"timeout":300,"failOn":"high","observe":{"enabled":false}}`, image)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "smile.json"), []byte(cfg), 0o644))

	gh := ghactiontest.NewGitHub(t, "Codertocat", "Hello-World", actionToken)
	gh.AddPR(2, actionHead, map[string]string{"docs/frob.md": newFilePatch(actionTutorial), "README.md": "@@ -1 +1 @@\n-a\n+b"})
	gh.AddFile(actionHead, "docs/frob.md", actionTutorial) // the head commit, where the comments go
	arts := ghactiontest.NewArtifacts(t)
	env.Set("GITHUB_API_URL", gh.URL())
	env.Set("INPUT_GITHUB-TOKEN", actionToken)
	env.Set("INPUT_TUTORIALS", "docs/**/*.md")
	// The checkout's smile.json is untrusted in Action mode: the workflow's inputs set
	// what it may not.
	env.Set("INPUT_CONTAINER-IMAGE", image)
	env.Set("INPUT_LLM-PROVIDER", "none")
	env.Set("INPUT_MAX-ITERATIONS", "2")
	env.Set("ACTIONS_RESULTS_URL", arts.URL())
	env.Set("ACTIONS_RUNTIME_TOKEN", arts.Token)

	runAction := func() (int, string) { return runActionBinary(t, bin, ws, env.Vars) }

	code, log := runAction()
	require.Equal(t, 1, code, "a missing tool fails the step:\n%s", log)
	if testing.Verbose() {
		t.Logf("job log:\n%s", log)
	}
	assert.Contains(t, log, "smile-loop: testing docs/frob.md")
	assert.Contains(t, log, "::group::Iteration 1", "each iteration is a collapsible group")
	assert.NotContains(t, strings.ReplaceAll(log, "::add-mask::"+actionToken, ""), actionToken)

	// Outputs.
	outputs := env.Outputs(t)
	assert.Equal(t, "failed", outputs["status"])
	assert.Equal(t, "1", outputs["gaps"])
	assert.Equal(t, "smile-output/docs-frob/smile-report.json", outputs["report-json"])
	assert.Equal(t, "smile-output/docs-frob/smile-report.md", outputs["report-markdown"])
	assert.Equal(t, "smile-output/docs-frob/smile-report.sarif", outputs["report-sarif"])
	assert.Equal(t, "https://github.com/Codertocat/Hello-World/actions/runs/1234/artifacts/4000", outputs["artifact-url"])
	for _, f := range []string{"smile-report.json", "smile-report.md", "smile-report.sarif", "smile-audit.log"} {
		assert.FileExists(t, filepath.Join(ws, "smile-output", "docs-frob", f), "left in the workspace")
	}

	// The report: one gap, on the line of the missing command.
	var rep struct {
		Gaps []struct {
			Location struct {
				Line int    `json:"line"`
				Text string `json:"text"`
			} `json:"location"`
			Problem  string `json:"problem"`
			Severity string `json:"severity"`
		} `json:"gaps"`
	}
	files := arts.Files(t, "smile-report")
	require.NoError(t, json.Unmarshal([]byte(files["smile-report.json"]), &rep))
	require.Len(t, rep.Gaps, 1)
	assert.Equal(t, 12, rep.Gaps[0].Location.Line)
	assert.Contains(t, rep.Gaps[0].Problem, "frobnicate")

	// What Action mode must have published, derived from the report in the artifact.
	decoded, err := report.Decode([]byte(files["smile-report.json"]))
	require.NoError(t, err)
	want := ghaction.FromReport("docs/frob.md", decoded, report.Files{}, "high")
	require.Len(t, want.Report.Gaps, 1)
	wantGap := want.Report.Gaps[0]

	// Artifact: the four report files and the event record, as in the workspace.
	for _, f := range []string{"smile-report.json", "smile-report.md", "smile-report.sarif", "smile-audit.log"} {
		disk, err := os.ReadFile(filepath.Join(ws, "smile-output", "docs-frob", f))
		require.NoError(t, err)
		assert.Equal(t, string(disk), files[f], f)
	}
	assert.JSONEq(t, `{"repository":"Codertocat/Hello-World","pullRequest":2,"headSha":"`+actionHead+`"}`, files[ghaction.EventFile])
	assert.Len(t, files, 5)

	// Review comment on line 12 at the head commit, check run with its annotation.
	comments, reviews, runs, _ := gh.Snapshot()
	require.Len(t, comments, 1)
	c := comments[0]
	assert.Equal(t, "docs/frob.md", c.GetPath())
	assert.Equal(t, 12, c.GetLine())
	assert.Nil(t, c.StartLine)
	assert.Equal(t, actionHead, c.GetCommitID())
	assert.Equal(t, ghaction.CommentBody(want, 0, true), c.GetBody())
	assert.Contains(t, c.GetBody(), "**smile-loop · "+rep.Gaps[0].Severity+" gap** in _Frobnicator › Run the tool_")
	assert.Contains(t, c.GetBody(), "$ frobnicate --version\n")
	assert.Contains(t, c.GetBody(), "frobnicate: command not found\n(exit 127)\n```")
	assert.Regexp(t, `<!-- smile-loop:gap fp=\S+ -->$`, c.GetBody())
	require.Len(t, reviews, 1)
	require.Len(t, runs, 1)
	assert.Equal(t, "smile-loop", runs[0].Name)
	assert.Equal(t, "failure", runs[0].Conclusion)
	assert.Equal(t, actionHead, runs[0].HeadSHA)
	require.Len(t, runs[0].Annotations, 1)
	a := runs[0].Annotations[0]
	assert.Equal(t, "docs/frob.md", a.GetPath())
	assert.Equal(t, 12, a.GetStartLine())
	assert.Equal(t, 12, a.GetEndLine())
	assert.Equal(t, "failure", a.GetAnnotationLevel())
	assert.Equal(t, wantGap.Problem+"\n\nSuggested fix: "+wantGap.SuggestedFix, a.GetMessage())
	assert.Equal(t, "smile-loop: "+rep.Gaps[0].Severity+" gap", a.GetTitle())

	// Step summary: the overview and the report.
	summary := env.Summary(t)
	if testing.Verbose() {
		t.Logf("comment:\n%s\n\nsummary:\n%s", c.GetBody(), summary)
	}
	assert.Equal(t, ghaction.CapMarkdown(ghaction.Summary([]ghaction.Result{want}), ghaction.MaxSummary, outputs["artifact-url"])+"\n", summary)
	assert.Contains(t, summary, "| `docs/frob.md` | ❌ failed |")
	assert.Contains(t, summary, "frobnicate")
	assert.LessOrEqual(t, len(summary), ghaction.MaxSummary)

	// A re-run on the same commit leaves the comment alone and posts no new review.
	require.NoError(t, os.WriteFile(env.Getenv("GITHUB_OUTPUT"), nil, 0o644))
	arts2 := ghactiontest.NewArtifacts(t)
	env.Set("ACTIONS_RESULTS_URL", arts2.URL())
	env.Set("ACTIONS_RUNTIME_TOKEN", arts2.Token)
	code, log = runAction()
	require.Equal(t, 1, code, log)
	comments2, reviews2, _, _ := gh.Snapshot()
	require.Len(t, comments2, 1)
	assert.Equal(t, c.GetID(), comments2[0].GetID(), "the unchanged comment is left alone")
	assert.Len(t, reviews2, 1, "no new review")
	assert.Contains(t, log, "0 comment(s) created (0 file-level), 0 updated, 1 unchanged")
}
