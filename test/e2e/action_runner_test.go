//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v4"

	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// The runner-emulation tests run the Action image the way actions/runner's container
// action handler does (src/Runner.Worker/Handlers/ContainerActionHandler.cs and
// DockerCommandManager.DockerRun, checked against the `docker run` lines hosted runners
// print in their logs):
//
//	docker run --name <id> --label <runner> --workdir /github/workspace --rm
//	  -e INPUT_<NAME> … -e HOME -e GITHUB_* … -e RUNNER_* … -e ACTIONS_* … -e GITHUB_ACTIONS=true -e CI=true
//	  -v /var/run/docker.sock:/var/run/docker.sock
//	  -v <work>/_temp:/github/runner_temp
//	  -v <work>/_temp/_github_home:/github/home
//	  -v <work>/_temp/_github_workflow:/github/workflow
//	  -v <work>/_temp/_runner_file_commands:/github/file_commands
//	  -v <work>/<repo>/<repo>:/github/workspace
//	  [--network github_network_<id>]   (when the job has a job or service container)
//	  <image>
//
// Every environment value that names a mounted host path is translated to its path in
// the container (TranslateToContainerPath); others (RUNNER_WORKSPACE) stay host paths.
// Inputs are INPUT_ + the upper-cased name, hyphens kept, each declared input present
// with its default when the workflow does not set it.

// runnerJob is one job's directories and services as a hosted runner lays them out.
type runnerJob struct {
	root      string // <work>
	temp      string // <work>/_temp
	workspace string // <work>/<repo>/<repo>
	network   string // the user-defined network of the job
	gateway   string // the host's address on that network
	image     string // the Action image
	env       map[string]string
}

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return hex.EncodeToString(b)
}

func docker(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("docker", args...).CombinedOutput()
	require.NoError(t, err, "docker %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

// buildActionImage builds the Action image exactly as `make action-image` and the
// release do: a static binary compiled beforehand, staged, on FROM scratch.
// learnerRepository is linked in as the release does (main.learnerRepository).
func buildActionImage(t *testing.T, version, learnerRepository string) string {
	t.Helper()
	root := sandboxModuleRoot(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "smile-action")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version+" -X main.learnerRepository="+learnerRepository, "-o", bin, "./cmd/smile-action")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "build smile-action: %s", out)
	arch := strings.TrimSpace(string(must(exec.Command("go", "env", "GOARCH").Output())))
	ctx := filepath.Join(dir, "context")
	stage := exec.Command("bash", filepath.Join(root, "scripts", "action-context.sh"), ctx, arch+"="+bin)
	out, err = stage.CombinedOutput()
	require.NoError(t, err, "stage the image: %s", out)
	tag := "smile-action-e2e:" + randomHex(t, 6)
	docker(t, "build", "-q", "-f", filepath.Join(root, "Dockerfile"), "--build-arg", "TARGETARCH="+arch, "-t", tag, ctx)
	t.Cleanup(func() { _ = exec.Command("docker", "image", "rm", "-f", tag).Run() })
	return tag
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// newRunnerJob lays out a hosted runner's directories (owned as on ubuntu-latest, where
// the runner user is 1001:127) and creates the job's network.
func newRunnerJob(t *testing.T, image, eventName, payload string) *runnerJob {
	t.Helper()
	root := t.TempDir()
	j := &runnerJob{root: root, temp: filepath.Join(root, "_temp"), workspace: filepath.Join(root, "Hello-World", "Hello-World"), image: image}
	for _, d := range []string{j.workspace, filepath.Join(j.temp, "_github_home"), filepath.Join(j.temp, "_github_workflow"), filepath.Join(j.temp, "_runner_file_commands")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	ev, err := os.ReadFile(payload)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(j.temp, "_github_workflow", "event.json"), ev, 0o644))
	step := randomHex(t, 16)
	for _, f := range []string{"set_output_" + step, "step_summary_" + step, "set_env_" + step, "add_path_" + step, "save_state_" + step} {
		require.NoError(t, os.WriteFile(filepath.Join(j.temp, "_runner_file_commands", f), nil, 0o644))
	}

	j.network = "github_network_" + randomHex(t, 16)
	docker(t, "network", "create", "--label", "smile-e2e", j.network)
	t.Cleanup(func() {
		// Whatever is still attached (a learner the run left behind) goes first.
		ids, _ := exec.Command("docker", "ps", "-aq", "--filter", "network="+j.network).Output()
		for _, id := range strings.Fields(string(ids)) {
			_ = exec.Command("docker", "rm", "-f", id).Run()
		}
		_ = exec.Command("docker", "network", "rm", j.network).Run()
	})
	j.gateway = docker(t, "network", "inspect", "-f", "{{range .IPAM.Config}}{{.Gateway}}{{end}}", j.network)
	require.NotEmpty(t, j.gateway)

	j.env = map[string]string{
		"HOME":                     "/github/home",
		"CI":                       "true",
		"GITHUB_ACTIONS":           "true",
		"GITHUB_JOB":               "docs",
		"GITHUB_REF":               "refs/pull/2/merge",
		"GITHUB_SHA":               "6113728f27ae82c7b1a177c8d03f9e96e0adf246",
		"GITHUB_REPOSITORY":        "Codertocat/Hello-World",
		"GITHUB_REPOSITORY_OWNER":  "Codertocat",
		"GITHUB_RUN_ID":            "1234",
		"GITHUB_RUN_NUMBER":        "7",
		"GITHUB_RUN_ATTEMPT":       "1",
		"GITHUB_RETENTION_DAYS":    "90",
		"GITHUB_ACTOR":             "Codertocat",
		"GITHUB_WORKFLOW":          "docs",
		"GITHUB_EVENT_NAME":        eventName,
		"GITHUB_SERVER_URL":        "https://github.com",
		"GITHUB_GRAPHQL_URL":       "https://api.github.com/graphql",
		"GITHUB_ACTION":            "__smile-loop_smile-loop",
		"GITHUB_ACTION_REPOSITORY": "smile-loop/smile-loop",
		"GITHUB_ACTION_REF":        "v1",
		"GITHUB_WORKSPACE":         j.workspace,
		"GITHUB_EVENT_PATH":        filepath.Join(j.temp, "_github_workflow", "event.json"),
		"GITHUB_OUTPUT":            filepath.Join(j.temp, "_runner_file_commands", "set_output_"+step),
		"GITHUB_STEP_SUMMARY":      filepath.Join(j.temp, "_runner_file_commands", "step_summary_"+step),
		"GITHUB_ENV":               filepath.Join(j.temp, "_runner_file_commands", "set_env_"+step),
		"GITHUB_PATH":              filepath.Join(j.temp, "_runner_file_commands", "add_path_"+step),
		"GITHUB_STATE":             filepath.Join(j.temp, "_runner_file_commands", "save_state_"+step),
		"RUNNER_OS":                "Linux",
		"RUNNER_ARCH":              "X64",
		"RUNNER_NAME":              "GitHub Actions 2",
		"RUNNER_ENVIRONMENT":       "github-hosted",
		"RUNNER_TOOL_CACHE":        "/opt/hostedtoolcache",
		"RUNNER_TEMP":              j.temp,
		"RUNNER_WORKSPACE":         filepath.Join(root, "Hello-World"),
		"ACTIONS_RUNTIME_URL":      "https://pipelines.actions.githubusercontent.com/abc/",
		"ACTIONS_CACHE_URL":        "https://artifactcache.actions.githubusercontent.com/abc/",
	}
	return j
}

// exposeGitHub makes the fakes reachable from the job's containers: their handlers on
// the gateway, and the URLs they hand out (signed upload URLs) pointing there. Call it
// before the Action runs.
func (j *runnerJob) exposeGitHub(t *testing.T, gh *ghactiontest.GitHub, arts *ghactiontest.Artifacts) {
	t.Helper()
	for _, s := range []*httptest.Server{gh.Server, arts.Server} {
		l, err := net.Listen("tcp", net.JoinHostPort(j.gateway, "0"))
		require.NoError(t, err)
		s.URL = "http://" + l.Addr().String() // before serving: the handlers read it
		srv := &http.Server{Handler: s.Config.Handler, ReadHeaderTimeout: 10 * time.Second}
		t.Cleanup(func() { _ = srv.Close() })
		go func() { _ = srv.Serve(l) }()
	}
}

// inputs returns INPUT_* for every input action.yml declares: the workflow's value, else
// the default (`${{ github.token }}` evaluated to token).
func actionInputs(t *testing.T, token string, with map[string]string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sandboxModuleRoot(t), "action.yml"))
	require.NoError(t, err)
	var a struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
	}
	require.NoError(t, yaml.Unmarshal(b, &a))
	out := map[string]string{}
	for name, in := range a.Inputs {
		v, ok := with[name]
		if !ok {
			v = strings.ReplaceAll(in.Default, "${{ github.token }}", token)
		}
		out["INPUT_"+strings.ToUpper(name)] = v
	}
	for name := range with {
		require.Contains(t, a.Inputs, name, "with.%s is not an input of action.yml", name)
	}
	return out
}

// containerPath is the runner's TranslateToContainerPath for a Docker action.
func (j *runnerJob) containerPath(v string) string {
	maps := [][2]string{
		{filepath.Join(j.temp, "_github_home"), "/github/home"},
		{filepath.Join(j.temp, "_github_workflow"), "/github/workflow"},
		{filepath.Join(j.temp, "_runner_file_commands"), "/github/file_commands"},
		{j.workspace, "/github/workspace"},
		{j.temp, "/github/runner_temp"},
	}
	for _, m := range maps {
		if v == m[0] || strings.HasPrefix(v, m[0]+"/") {
			return m[1] + strings.TrimPrefix(v, m[0])
		}
	}
	return v
}

// runResult is what the step produced.
type runResult struct {
	code           int
	log            string
	firstIteration time.Duration // docker run → the first iteration's group in the log (0: none)
	total          time.Duration
}

// run starts the Action container as the runner does and streams its log.
func (j *runnerJob) run(t *testing.T, inputs map[string]string) runResult {
	t.Helper()
	socket := "/var/run/docker.sock"
	if h := os.Getenv("DOCKER_HOST"); strings.HasPrefix(h, "unix://") {
		socket = strings.TrimPrefix(h, "unix://")
	} else if h != "" {
		t.Fatalf("the runner emulation needs a local Docker socket; DOCKER_HOST is %s", h)
	}
	env := map[string]string{}
	for k, v := range j.env {
		env[k] = j.containerPath(v)
	}
	for k, v := range inputs {
		env[k] = v
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	args := []string{"run", "--name", randomHex(t, 16), "--label", "smile-e2e-runner", "--workdir", "/github/workspace", "--rm"}
	for _, k := range keys {
		args = append(args, "-e", k) // the value comes from docker's own environment, as the runner passes it
	}
	args = append(args,
		"-v", socket+":/var/run/docker.sock",
		"-v", j.temp+":/github/runner_temp",
		"-v", filepath.Join(j.temp, "_github_home")+":/github/home",
		"-v", filepath.Join(j.temp, "_github_workflow")+":/github/workflow",
		"-v", filepath.Join(j.temp, "_runner_file_commands")+":/github/file_commands",
		"-v", j.workspace+":/github/workspace",
		"--network", j.network,
		j.image)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "docker", args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	if h := os.Getenv("DOCKER_HOST"); h != "" {
		cmd.Env = append(cmd.Env, "DOCKER_HOST="+h)
	}
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	var (
		mu    sync.Mutex
		log   strings.Builder
		first time.Duration
	)
	start := time.Now()
	require.NoError(t, cmd.Start())
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		for sc.Scan() {
			mu.Lock()
			if first == 0 && strings.HasPrefix(sc.Text(), "::group::Iteration 1") {
				first = time.Since(start)
			}
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	err := cmd.Wait()
	total := time.Since(start)
	_ = pw.Close()
	<-done
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	mu.Lock()
	defer mu.Unlock()
	return runResult{code: code, log: log.String(), firstIteration: first, total: total}
}

// chownTree gives dir to uid:gid, as the runner user owns its work directory.
func chownTree(t *testing.T, dir string, uid, gid int) {
	t.Helper()
	require.NoError(t, filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	}))
}

// ownersUnder lists the files under dir not owned by uid:gid.
func ownersUnder(t *testing.T, dir string, uid, gid int) []string {
	t.Helper()
	var wrong []string
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		if int(st.Uid) != uid || int(st.Gid) != gid {
			wrong = append(wrong, fmt.Sprintf("%s (%d:%d)", p, st.Uid, st.Gid))
		}
		return nil
	}))
	return wrong
}

// The Action image on an emulated hosted runner, as a user's first run meets it: the
// learner image published with this version is not on the runner, so it is pulled (from
// an OCI registry on 127.0.0.1 standing in for ghcr.io). A pull request adding a
// tutorial with a missing tool gets its review comment, check run, summary, outputs and
// artifact; the files it leaves in the workspace belong to the runner user, its scratch
// space is under RUNNER_TEMP, and nothing stays attached to the job's network. A re-run
// of the job (images present) replaces the artifact and is timed from `docker run` to
// the first iteration.
func TestActionImageOnRunner(t *testing.T) {
	lite := sandboxtest.RequireImage(t)
	reg := newTestRegistry(t)
	learner := reg.push(t, lite, "smile-loop/smile-base:0.9.0-e2e")
	image := buildActionImage(t, "v0.9.0-e2e", reg.host+"/smile-loop/smile-base")
	assert.Equal(t, "smile-action v0.9.0-e2e", docker(t, "run", "--rm", image, "version"))

	j := newRunnerJob(t, image, "pull_request", ghactiontest.Fixture(t, "pull_request-opened.payload.json"))
	require.NoError(t, os.MkdirAll(filepath.Join(j.workspace, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(j.workspace, "docs", "frob.md"), []byte(actionTutorial), 0o644))
	const runnerUID, runnerGID = 1001, 127 // ubuntu-latest's runner user and docker group
	chownTree(t, j.root, runnerUID, runnerGID)

	gh := ghactiontest.NewGitHub(t, "Codertocat", "Hello-World", actionToken)
	gh.AddPR(2, actionHead, map[string]string{"docs/frob.md": newFilePatch(actionTutorial)})
	arts := ghactiontest.NewArtifacts(t)
	j.exposeGitHub(t, gh, arts)
	j.env["GITHUB_API_URL"] = gh.URL()
	j.env["ACTIONS_RESULTS_URL"] = arts.URL()
	j.env["ACTIONS_RUNTIME_TOKEN"] = arts.Token

	inputs := actionInputs(t, actionToken, map[string]string{"llm-provider": "none", "max-iterations": "2", "retention-days": "5"})
	res := j.run(t, inputs)
	if testing.Verbose() || res.code != 1 {
		t.Logf("job log:\n%s", res.log)
	}
	require.Equal(t, 1, res.code, "a missing tool fails the step")
	require.NotZero(t, res.firstIteration, "the first iteration started")
	t.Logf("first run, learner image pulled: container start → first iteration %s (whole step %s)", res.firstIteration.Round(10*time.Millisecond), res.total.Round(10*time.Millisecond))
	assert.Contains(t, res.log, "smile-loop: pulling "+learner+" (not on this machine)", "the learner image of this version, pulled")
	assert.Contains(t, res.log, "smile-loop: pulled "+learner)
	assert.Contains(t, res.log, "smile-loop: testing docs/frob.md")
	assert.NotContains(t, strings.ReplaceAll(res.log, "::add-mask::"+actionToken, ""), actionToken)

	// Outputs and summary through the mounted file-command files.
	out, err := os.ReadFile(j.env["GITHUB_OUTPUT"])
	require.NoError(t, err)
	outputs := ghactiontest.ParseOutputs(string(out))
	assert.Equal(t, "failed", outputs["status"])
	assert.Equal(t, "1", outputs["gaps"])
	assert.Equal(t, "smile-output/docs-frob/smile-report.json", outputs["report-json"])
	assert.Equal(t, "https://github.com/Codertocat/Hello-World/actions/runs/1234/artifacts/4000", outputs["artifact-url"])
	summary, err := os.ReadFile(j.env["GITHUB_STEP_SUMMARY"])
	require.NoError(t, err)
	assert.Contains(t, string(summary), "| `docs/frob.md` | ❌ failed |")

	// Comment and check run at the head commit, on the line of the missing command.
	comments, _, runs, _ := gh.Snapshot()
	require.Len(t, comments, 1)
	assert.Equal(t, "docs/frob.md", comments[0].GetPath())
	assert.Equal(t, 12, comments[0].GetLine())
	assert.Equal(t, actionHead, comments[0].GetCommitID())
	assert.Contains(t, comments[0].GetBody(), "frobnicate")
	require.Len(t, runs, 1)
	assert.Equal(t, "failure", runs[0].Conclusion)
	require.Len(t, runs[0].Annotations, 1)
	assert.Equal(t, 12, runs[0].Annotations[0].GetStartLine())

	// The artifact holds the reports the workspace holds, kept for retention-days.
	files := arts.Files(t, "smile-report")
	assert.NotEmpty(t, arts.Expires["smile-report"], "expires_at from retention-days")
	var rep struct {
		Meta struct {
			Generator struct {
				Version string `json:"version"`
			} `json:"generator"`
		} `json:"meta"`
	}
	require.NoError(t, json.Unmarshal([]byte(files["smile-report.json"]), &rep))
	assert.Equal(t, "v0.9.0-e2e", rep.Meta.Generator.Version, "the report names the version set at build time")
	for _, f := range []string{"smile-report.json", "smile-report.md", "smile-report.sarif", "smile-audit.log"} {
		disk, err := os.ReadFile(filepath.Join(j.workspace, "smile-output", "docs-frob", f))
		require.NoError(t, err)
		assert.Equal(t, string(disk), files[f], f)
	}

	// Tidy: the reports belong to the runner user; work and logs went to RUNNER_TEMP; no
	// container stays on the job's network, so the runner can remove it.
	assert.Empty(t, ownersUnder(t, filepath.Join(j.workspace, "smile-output"), runnerUID, runnerGID), "files the run wrote in the workspace")
	assert.NoDirExists(t, filepath.Join(j.workspace, "smile-output", "docs-frob", "work"), "scratch space stays out of the checkout")
	assert.NoDirExists(t, filepath.Join(j.workspace, "smile-output", "docs-frob", "logs"))
	left := docker(t, "ps", "-aq", "--filter", "network="+j.network)
	assert.Empty(t, left, "containers left on the job's network")

	// The job re-run: a new attempt, the images present now.
	j.env["GITHUB_RUN_ATTEMPT"] = "2"
	for _, f := range []string{j.env["GITHUB_OUTPUT"], j.env["GITHUB_STEP_SUMMARY"]} {
		require.NoError(t, os.WriteFile(f, nil, 0o644))
	}
	res = j.run(t, inputs)
	require.Equal(t, 1, res.code, res.log)
	require.NotZero(t, res.firstIteration, "the first iteration started")
	t.Logf("re-run, images present: container start → first iteration %s (whole step %s)", res.firstIteration.Round(10*time.Millisecond), res.total.Round(10*time.Millisecond))
	assert.NotContains(t, res.log, "pulling")
	assert.Equal(t, []string{"smile-report"}, arts.Deleted, "the earlier attempt's artifact is replaced")
	out, err = os.ReadFile(j.env["GITHUB_OUTPUT"])
	require.NoError(t, err)
	assert.Equal(t, "failed", ghactiontest.ParseOutputs(string(out))["status"])
	assert.Regexp(t, `/artifacts/\d+$`, ghactiontest.ParseOutputs(string(out))["artifact-url"])
	comments2, _, _, _ := gh.Snapshot()
	assert.Len(t, comments2, 1, "the re-run leaves the comment alone")
	assert.Empty(t, ownersUnder(t, filepath.Join(j.workspace, "smile-output"), runnerUID, runnerGID))

	// The fan-out job of examples/workflows/nightly-audit.yml: command discover only
	// lists the tutorials, in the same image, in about a second.
	for _, f := range []string{j.env["GITHUB_OUTPUT"], j.env["GITHUB_STEP_SUMMARY"]} {
		require.NoError(t, os.WriteFile(f, nil, 0o644))
	}
	discover := actionInputs(t, actionToken, map[string]string{"command": "discover"})
	res = j.run(t, discover)
	require.Equal(t, 0, res.code, res.log)
	t.Logf("discover step: %s", res.total.Round(10*time.Millisecond))
	out, err = os.ReadFile(j.env["GITHUB_OUTPUT"])
	require.NoError(t, err)
	assert.JSONEq(t, `{"include":[{"tutorial":"docs/frob.md"}]}`, ghactiontest.ParseOutputs(string(out))["matrix"])

	assert.Empty(t, docker(t, "ps", "-aq", "--filter", "network="+j.network))
	docker(t, "network", "rm", j.network) // the runner's job cleanup
}
