//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// The hostile set (testdata/hostile, README there): each tutorial is an attack from the
// security review, run end to end on the engine as a user or a workflow runs it.

// hostileCanary is the secret the canary tutorial prints; the orchestrator's
// environment holds it under a secret-looking name, as a CI secret would be.
const hostileCanary = "hst_Q7xK2mZp9VwR4tYb8NcL3sDf6GhJ1aUe0oIiPq"

// hostileTutorial writes testdata/hostile/name with its placeholders replaced into dir.
func hostileTutorial(t *testing.T, dir, name string, vars map[string]string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "test/e2e/testdata/hostile", name))
	require.NoError(t, err)
	text := string(data)
	for k, v := range vars {
		text = strings.ReplaceAll(text, "{{"+k+"}}", v)
	}
	require.NotContains(t, text, "{{")
	p := filepath.Join(dir, strings.TrimSuffix(name, ".tmpl"))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

// smileWith runs the binary in dir with extra environment variables.
func smileWith(t *testing.T, dir string, extra []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CI=true"), extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	t.Logf("smile-action %s → exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out.String(), errb.String())
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

func runConfig(t *testing.T, tutorial string, extra string) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "smile.json")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`{"tutorial": %q, "llmProvider": "none", "containerImage": "smile-lite:latest", "maxIterations": 2, "observe": {"enabled": false}%s}`, tutorial, extra)), 0o644))
	return cfg
}

func runState(t *testing.T, out string) loop.State {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, loop.StateFile))
	require.NoError(t, err)
	var st loop.State
	require.NoError(t, json.Unmarshal(data, &st))
	return st
}

// containersOf lists the containers of a run (docker CLI, not the code under test),
// with whether each runs.
func containersOf(t *testing.T, runID string) map[string]bool {
	t.Helper()
	out, err := exec.Command("docker", "ps", "-a", "--filter", "label="+sandbox.LabelRun+"="+runID, "--format", "{{.ID}} {{.State}}").Output()
	require.NoError(t, err)
	got := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if id, state, ok := strings.Cut(l, " "); ok {
			got[id] = state == "running"
			t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", id).Run() })
		}
	}
	return got
}

// noLinks fails for every symbolic link under dir.
func noLinks(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type()&os.ModeSymlink != 0 {
			t.Errorf("a link the tutorial planted is left in the output: %s", p)
		}
		return nil
	})
}

// Attack 1 (review #1): links in every mount. Before: the next command's output
// overwrote any host file (a repository's .git/config) or went raw to the
// orchestrator's stdout. Now: no host file changes, no workflow command appears.
func TestHostileLinksChangeNoHostFile(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	victimDir := t.TempDir()
	victim := filepath.Join(victimDir, "config")
	require.NoError(t, os.WriteFile(victim, []byte("[core]\n\tbare = false\n"), 0o666))
	require.NoError(t, os.Chmod(victimDir, 0o777))
	tut := hostileTutorial(t, t.TempDir(), "links.md.tmpl", map[string]string{"VICTIM": victim, "VICTIMDIR": victimDir})
	out := t.TempDir()
	res := smileWith(t, filepath.Dir(tut), nil, "run", "--config", runConfig(t, tut, ""), "--output", out)
	require.Equal(t, 1, res.code, "the tutorial ends with false")

	got, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "[core]\n\tbare = false\n", string(got), "the host file is unchanged")
	entries, err := os.ReadDir(victimDir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing was written into the linked directory")
	for _, l := range strings.Split(res.stdout+res.stderr, "\n") {
		assert.False(t, strings.HasPrefix(l, "::warning title=INJECTED"), "a raw workflow command reached the orchestrator's output: %q", l)
	}
	logs, err := filepath.Glob(filepath.Join(out, "logs", "commands", "*.log"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(logs), 6, "every command's output is saved, outside the mounts")
	audit, err := os.ReadFile(filepath.Join(out, "smile-audit.log"))
	require.NoError(t, err)
	assert.Contains(t, string(audit), "INJECTED::raw workflow command", "the output itself is kept as evidence")
	noLinks(t, out)

	// Locally a failed run keeps its container for debugging: stopped.
	st := runState(t, out)
	for id, running := range containersOf(t, st.RunID) {
		assert.False(t, running, "kept container %s is stopped", id)
	}
}

// Attack 5 (review #5): a background process and a failing step. Before: the kept
// container went on running the process after the run. Now: kept stopped locally.
func TestHostileBackgroundProcessDoesNotOutliveTheRun(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	tut := filepath.Join(repoRoot, "test/e2e/testdata/hostile/background.md")
	out := t.TempDir()
	res := smileWith(t, filepath.Dir(tut), nil, "run", "--config", runConfig(t, tut, `, "container": {"keepOnFailure": true}`), "--output", out)
	require.Equal(t, 1, res.code)
	kept := containersOf(t, runState(t, out).RunID)
	require.Len(t, kept, 1, "keepOnFailure keeps the container")
	for id, running := range kept {
		assert.False(t, running, "container %s still runs the tutorial's sleep 3000", id)
	}
}

// rot13 lets a tutorial carry the canary without containing it.
func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// canaryProbes are pieces of the canary in the forms the canary tutorial prints.
func canaryProbes() []string {
	b64 := base64.StdEncoding.EncodeToString([]byte(hostileCanary))
	off := base64.StdEncoding.EncodeToString([]byte("u:" + hostileCanary))
	wrapped := base64.StdEncoding.EncodeToString([]byte(hostileCanary + hostileCanary + "\n"))
	hx := hex.EncodeToString([]byte(hostileCanary))
	return []string{hostileCanary, hostileCanary[:12], hostileCanary[len(hostileCanary)-12:], hostileCanary[10:22],
		b64[8:28], off[8:28], wrapped[60:76], wrapped[80:96], hx[10:40]}
}

// grepTree fails for every probe found in any file under dir (line breaks ignored, so
// a wrapped encoding is found too).
func grepTree(t *testing.T, dir string, probes []string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		grepText(t, p, string(data), probes)
		return nil
	})
	require.NoError(t, err)
	require.Positive(t, n)
}

func grepText(t *testing.T, where, text string, probes []string) {
	t.Helper()
	flat := strings.NewReplacer("\n  | ", "", "\r\n", "", "\n", "").Replace(text)
	for _, p := range probes {
		if strings.Contains(text, p) || strings.Contains(flat, p) {
			t.Errorf("%s holds the canary (%q)", where, p)
		}
	}
}

// Attack 10 (review #10, issue 15): the secret printed raw, base64 at an offset,
// wrapped base64, hex and cut at the capture's head/tail join, and an LLM answer
// (replayed) quoting it. Before: offset, wrapped, hex and cut forms survived, and the
// raw command logs were not masked at all. Now: nothing in the output directory,
// stdout or stderr holds any of them.
func TestHostileCanaryMaskedEverywhere(t *testing.T) {
	sandboxtest.RequireImage(t)
	t.Parallel()
	r13 := rot13(hostileCanary)
	dir := t.TempDir()
	tut := hostileTutorial(t, dir, "canary.md.tmpl", map[string]string{"ROT13": r13})
	wrapped := base64.StdEncoding.EncodeToString([]byte(hostileCanary + hostileCanary + "\n"))
	scenario := hostileTutorial(t, dir, "canary-scenario.json.tmpl", map[string]string{
		"CANARY":     hostileCanary,
		"B64WRAPPED": wrapped[:76] + `\n` + wrapped[76:],
		"HEX":        hex.EncodeToString([]byte(hostileCanary)),
	})
	env := []string{"HOSTILE_E2E_TOKEN=" + hostileCanary}

	out := t.TempDir()
	res := smileWith(t, dir, env, "run", "--config", runConfig(t, tut, ""), "--output", out)
	require.Equal(t, 1, res.code, "canary-tool is missing")
	audit, err := os.ReadFile(filepath.Join(out, "smile-audit.log"))
	require.NoError(t, err)
	require.Contains(t, string(audit), "raw: ***", "the command ran and its output was masked")
	grepTree(t, out, canaryProbes())
	grepText(t, "stdout", res.stdout, canaryProbes())
	grepText(t, "stderr", res.stderr, canaryProbes())

	out2 := t.TempDir()
	res = smileWith(t, dir, append(env, "SMILE_DEBUG=1"), "run", "--config",
		runConfig(t, tut, fmt.Sprintf(`, "llmProvider": "replay", "scenario": %q, "failOn": "never"`, scenario)), "--output", out2)
	require.Equal(t, 0, res.code)
	report, err := os.ReadFile(filepath.Join(out2, "smile-report.json"))
	require.NoError(t, err)
	require.Contains(t, string(report), "the login printed ***", "the LLM answer is in the report, masked")
	grepTree(t, out2, canaryProbes())
	grepText(t, "stdout", res.stdout, canaryProbes())
	grepText(t, "stderr", res.stderr, canaryProbes())
}

// Attacks 1, 2, 5, 9 and 10 in Action mode, from a pull request. The PR's smile.json points
// llm.baseURL at the author's server, chooses replay with a passing scenario, lifts
// the limits, keeps containers and sets failOn never; a second tutorial is a link to a
// file outside the repository; the tutorial prints the canary. Before: the key went to
// the author's server and the PR passed itself; the link's target became the tutorial.
// Now: each field is ignored with a notice, nothing reaches the server, the run fails
// on its own gap, the link is refused, no container is left and no GitHub body holds
// the canary.
func TestHostilePullRequestInActionMode(t *testing.T) {
	image := sandboxtest.RequireImage(t)
	var hits atomic.Int32
	thief := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusTeapot)
	}))
	t.Cleanup(thief.Close)

	env := ghactiontest.NewEnv(t, "pull_request", ghactiontest.Fixture(t, "pull_request-opened.payload.json"))
	ws := env.Workspace()
	r13 := rot13(hostileCanary)
	tut := hostileTutorial(t, filepath.Join(ws, "docs"), "canary.md.tmpl", map[string]string{"ROT13": r13})
	scenario := filepath.Join(ws, "pass-scenario.json")
	data, err := os.ReadFile(filepath.Join(repoRoot, "test/e2e/testdata/hostile/pass-scenario.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(scenario, data, 0o644))
	hostileTutorial(t, ws, "pr-smile.json.tmpl", map[string]string{"URL": thief.URL, "SCENARIO": scenario})
	require.NoError(t, os.Rename(filepath.Join(ws, "pr-smile.json"), filepath.Join(ws, "smile.json")))
	outsideMarker := "OUTSIDE-THE-REPOSITORY-7c1d"
	outside := filepath.Join(t.TempDir(), "event.json")
	require.NoError(t, os.WriteFile(outside, []byte("# "+outsideMarker+"\n\n```bash\necho "+outsideMarker+"\n```\n"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "docs", "evil.md")))
	body, err := os.ReadFile(tut)
	require.NoError(t, err)
	victimDir := t.TempDir()
	victim := filepath.Join(victimDir, "config")
	require.NoError(t, os.WriteFile(victim, []byte("[core]\n\tbare = false\n"), 0o666))
	require.NoError(t, os.Chmod(victimDir, 0o777))
	links := hostileTutorial(t, filepath.Join(ws, "docs"), "links.md.tmpl", map[string]string{"VICTIM": victim, "VICTIMDIR": victimDir})
	linksBody, err := os.ReadFile(links)
	require.NoError(t, err)

	gh := ghactiontest.NewGitHub(t, "Codertocat", "Hello-World", actionToken)
	gh.AddPR(2, actionHead, map[string]string{"docs/canary.md": newFilePatch(string(body)), "docs/evil.md": newFilePatch("link"),
		"docs/links.md": newFilePatch(string(linksBody))})
	arts := ghactiontest.NewArtifacts(t)
	env.Set("GITHUB_API_URL", gh.URL())
	env.Set("INPUT_GITHUB-TOKEN", actionToken)
	env.Set("INPUT_TUTORIALS", "docs/**/*.md")
	env.Set("INPUT_CONTAINER-IMAGE", image)
	env.Set("ACTIONS_RESULTS_URL", arts.URL())
	env.Set("ACTIONS_RUNTIME_TOKEN", arts.Token)
	env.Set("INPUT_LLM-PROVIDER", "none") // the workflow's input: the only way to choose the provider
	env.Set("HOSTILE_E2E_TOKEN", hostileCanary)

	code, log := runActionBinary(t, binary, ws, env.Vars)
	t.Logf("job log:\n%s", log)
	require.Equal(t, 1, code, "the step fails")

	for _, f := range []string{"llmProvider", "llm.baseURL", "scenario", "containerImage", "maxIterations", "timeout",
		"container.memory", "container.pidsLimit", "container.keepOnSuccess", "failOn"} {
		assert.Contains(t, log, f, "the notice names the ignored %s", f)
	}
	assert.Contains(t, log, "untrusted in Action mode")
	assert.Zero(t, hits.Load(), "nothing reached the PR author's server")
	assert.Contains(t, log, "docs/evil.md is a symbolic link")
	assert.NotContains(t, log, outsideMarker)
	got, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "[core]\n\tbare = false\n", string(got), "links in the mounts changed no host file")
	entries, err := os.ReadDir(victimDir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing was written into the linked directory")
	for _, l := range strings.Split(log, "\n") {
		assert.False(t, strings.HasPrefix(strings.TrimSpace(l), "::warning title=INJECTED"), "the tutorial made a workflow command: %q", l)
	}
	assert.Equal(t, "error", env.Outputs(t)["status"], "the refused link is an error; the PR's failOn never changed nothing")

	outRoot := filepath.Join(ws, "smile-output")
	grepTree(t, outRoot, append(canaryProbes(), outsideMarker))
	grepText(t, "job log", log, canaryProbes())
	comments, reviews, runs, issues := gh.Snapshot()
	bodies, err := json.Marshal([]any{comments, reviews, runs, issues})
	require.NoError(t, err)
	require.Contains(t, string(bodies), "canary-tool", "the gap was posted")
	grepText(t, "GitHub bodies", string(bodies), canaryProbes())
	assert.NotContains(t, string(bodies), outsideMarker)

	st := runState(t, filepath.Join(outRoot, "docs-canary"))
	assert.Empty(t, containersOf(t, st.RunID), "Action mode leaves no container, pass or fail")
	assert.Contains(t, log, "smile-loop: testing docs/links.md")
	lst := runState(t, filepath.Join(outRoot, "docs-links"))
	assert.GreaterOrEqual(t, len(lst.History), 1, "the links tutorial ran")
	assert.Empty(t, containersOf(t, lst.RunID), "not even after a failed run")
	assert.Equal(t, "none", st.Config.LLMProvider, "the input, not the PR's replay")
	assert.Equal(t, "high", st.Config.FailOn, "the default, not the PR's never")
	assert.Equal(t, "2g", st.Config.Container.Memory)
	noLinks(t, outRoot)
}
