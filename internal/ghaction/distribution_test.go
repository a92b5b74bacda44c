package ghaction_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/rhysd/actionlint"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v4"
)

// actionImageRef is what action.yml runs: the prebuilt image of one release, pulled by
// the runner (never a Dockerfile built in every job).
var actionImageRef = regexp.MustCompile(`^docker://ghcr\.io/([a-z0-9][a-z0-9-]*)/smile-action:(\d+\.\d+\.\d+)$`)

func TestActionRunsPrebuiltImage(t *testing.T) {
	t.Parallel()
	a := readAction(t)
	assert.Equal(t, "docker", a.Runs.Using)
	assert.Regexp(t, actionImageRef, a.Runs.Image, "runs.image names the published image of this version (lowercase owner: GHCR refuses upper case)")
	assert.Empty(t, a.Runs.Entrypoint, "the image's ENTRYPOINT runs Action mode")
	assert.Empty(t, a.Runs.Args, "Action mode reads INPUT_* variables, not arguments")
}

// instructions returns the Dockerfile's instructions, continuation lines joined.
func instructions(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "Dockerfile"))
	require.NoError(t, err)
	var out []string
	cont := ""
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasSuffix(l, `\`) {
			cont += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		out = append(out, cont+l)
		cont = ""
	}
	return out
}

// The Action image needs no base image and runs nothing at build time: a static binary
// compiled beforehand on FROM scratch, with the files scripts/action-context.sh stages.
func TestDockerfile(t *testing.T) {
	t.Parallel()
	var from, copies []string
	var entry, user string
	args := map[string]bool{}
	for _, l := range instructions(t) {
		f := strings.Fields(l)
		switch strings.ToUpper(f[0]) {
		case "FROM":
			from = append(from, strings.Join(f[1:], " "))
		case "ARG":
			args[f[1]] = true
		case "COPY":
			copies = append(copies, strings.Join(f[1:], " "))
		case "ENTRYPOINT":
			m := regexp.MustCompile(`^ENTRYPOINT \["([^"]+)"\]$`).FindStringSubmatch(l)
			require.NotNil(t, m, "exec-form ENTRYPOINT without arguments (Action mode needs no subcommand): %s", l)
			entry = m[1]
		case "USER":
			user = f[1]
		case "RUN", "ADD":
			t.Errorf("%s: the image is assembled from staged files only (no RUN, no download)", l)
		}
	}
	assert.Equal(t, []string{"scratch"}, from, "one stage, no base image")
	assert.True(t, args["TARGETARCH"], "one binary per architecture, chosen by TARGETARCH")
	require.Equal(t, []string{"rootfs/ /", "${TARGETARCH}/smile-action " + entry}, copies)
	assert.Contains(t, []string{"0", "0:0", "root"}, user, "root: the runner's Docker socket and workspace need it")

	// The staged context holds exactly what those COPYs name.
	certs := filepath.Join(t.TempDir(), "ca.crt")
	require.NoError(t, os.WriteFile(certs, []byte("-----BEGIN CERTIFICATE-----\n"), 0o644))
	bin := filepath.Join(t.TempDir(), "smile-action")
	require.NoError(t, os.WriteFile(bin, []byte("\x7fELF"), 0o644))
	ctx := filepath.Join(t.TempDir(), "ctx")
	cmd := exec.Command("bash", filepath.Join(repoRoot, "scripts", "action-context.sh"), ctx, "amd64="+bin, "arm64="+bin)
	cmd.Env = append(os.Environ(), "CA_CERTIFICATES="+certs)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	for _, f := range []string{"rootfs/etc/ssl/certs/ca-certificates.crt", "rootfs/etc/passwd", "rootfs/etc/group", "amd64/smile-action", "arm64/smile-action"} {
		assert.FileExists(t, filepath.Join(ctx, f))
	}
	fi, err := os.Stat(filepath.Join(ctx, "amd64", "smile-action"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), fi.Mode().Perm(), "the entrypoint is executable")
	fi, err = os.Stat(filepath.Join(ctx, "rootfs", "tmp"))
	require.NoError(t, err)
	assert.Equal(t, os.ModeSticky|0o777, fi.Mode()&(os.ModeSticky|os.ModePerm), "/tmp as on any Linux system")
	passwd, err := os.ReadFile(filepath.Join(ctx, "rootfs", "etc", "passwd"))
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^root:x:0:0:`, string(passwd))

	// A missing binary is a clear error, not an image without an entrypoint.
	cmd = exec.Command("bash", filepath.Join(repoRoot, "scripts", "action-context.sh"), ctx, "amd64="+bin+".missing")
	cmd.Env = append(os.Environ(), "CA_CERTIFICATES="+certs)
	out, err = cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "make build")
}

// releaseWorkflow is the part of release.yml the checks below read.
type releaseWorkflow struct {
	On struct {
		Push struct {
			Tags []string `yaml:"tags"`
		} `yaml:"push"`
	} `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Defaults    struct {
		Run struct {
			Shell string `yaml:"shell"`
		} `yaml:"run"`
	} `yaml:"defaults"`
	Jobs map[string]struct {
		Needs       any               `yaml:"needs"`
		Permissions map[string]string `yaml:"permissions"`
		Outputs     map[string]string `yaml:"outputs"`
		Env         map[string]string `yaml:"env"`
		Strategy    struct {
			Matrix struct {
				Include []map[string]string `yaml:"include"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []struct {
			Name string            `yaml:"name"`
			If   string            `yaml:"if"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

func TestReleaseWorkflow(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(repoRoot, ".github", "workflows", "release.yml"))
	require.NoError(t, err)
	var w releaseWorkflow
	require.NoError(t, yaml.Unmarshal(b, &w))
	text := string(b)

	assert.Equal(t, []string{"v*.*.*"}, w.On.Push.Tags, "a version tag releases")
	assert.Equal(t, map[string]string{"contents": "read"}, w.Permissions, "least privilege by default")
	assert.Equal(t, "bash", w.Defaults.Run.Shell, "steps run with -eo pipefail: a failing check piped into tee fails the step")
	assert.NotContains(t, text, "golang:", "no Go toolchain image: the binaries are compiled on the runner")

	prep := w.Jobs["prepare"]
	require.NotEmpty(t, prep.Steps)
	assert.Contains(t, prep.Steps[len(prep.Steps)-1].Run, "scripts/release-version.sh")
	for _, k := range []string{"version", "minor", "major", "owner", "prerelease"} {
		assert.Contains(t, prep.Outputs, k)
	}

	// The Action image: binaries with the version and this owner's learner image linked
	// in, staged, built for both architectures from the FROM-scratch Dockerfile.
	act := w.Jobs["action-image"]
	assert.ElementsMatch(t, []any{"prepare", "learner-images"}, act.Needs, "published after the learner images it defaults to")
	assert.Equal(t, "write", act.Permissions["packages"])
	steps := map[string]int{}
	var build, push string
	for i, s := range act.Steps {
		steps[s.Name] = i
		if strings.Contains(s.Run, "go build") {
			build = s.Run
		}
		if strings.HasPrefix(s.Uses, "docker/build-push-action@") {
			push = s.Name
			assert.Equal(t, "bin/action-context", s.With["context"])
			assert.Equal(t, "Dockerfile", s.With["file"])
			assert.Equal(t, "linux/amd64,linux/arm64", s.With["platforms"])
			assert.Equal(t, "true", s.With["push"])
		}
	}
	require.NotEmpty(t, build)
	require.NotEmpty(t, push)
	assert.Less(t, steps["Smoke test smile-action"], steps[push], "smoke-tested before it is pushed")
	assert.Contains(t, build, "scripts/action-context.sh bin/action-context")
	assert.Equal(t, "ghcr.io/${{ needs.prepare.outputs.owner }}/smile-base", act.Env["LEARNER"])
	assert.Equal(t, "${{ github.ref_name }}", act.Env["VERSION"])
	// -X silently ignores a variable that does not exist: the names must be real.
	src, err := os.ReadFile(filepath.Join(repoRoot, "cmd", "smile-action", "version.go"))
	require.NoError(t, err)
	for _, x := range regexp.MustCompile(`-X main\.(\w+)=`).FindAllStringSubmatch(build, -1) {
		assert.Regexp(t, `(?m)^\s+`+x[1]+`\s+= "`, string(src), "main.%s is a string variable of cmd/smile-action", x[1])
	}
	assert.Contains(t, build, "-X main.version=$VERSION")
	assert.Contains(t, build, "-X main.learnerRepository=$LEARNER")

	// The learner images of this version, smoke-tested before they are published.
	learn := w.Jobs["learner-images"]
	var images []string
	for _, m := range learn.Strategy.Matrix.Include {
		images = append(images, m["image"])
	}
	assert.ElementsMatch(t, []string{"smile-base", "smile-lite"}, images)
	assert.Equal(t, "write", learn.Permissions["packages"])
	var smokeBase, pushBase int
	for i, s := range learn.Steps {
		if strings.Contains(s.Run, "smoke/smile-base:test") && smokeBase == 0 {
			smokeBase = i
		}
		if strings.HasPrefix(s.Uses, "docker/build-push-action@") && s.With["push"] == "true" {
			pushBase = i
		}
	}
	assert.NotZero(t, smokeBase)
	assert.Less(t, smokeBase, pushBase, "smile-base is smoke-tested before it is pushed")

	// The release: images public, then v1.2 and v1 moved to the tagged commit.
	rel := w.Jobs["release"]
	assert.ElementsMatch(t, []any{"prepare", "action-image", "learner-images"}, rel.Needs)
	assert.Equal(t, map[string]string{"contents": "write"}, rel.Permissions)
	var public, move int
	for i, s := range rel.Steps {
		if strings.Contains(s.Run, "scripts/release-public.sh") {
			public = i
			assert.Contains(t, s.Run, "smile-action smile-base smile-lite")
		}
		if strings.Contains(s.Run, "git push -f origin") {
			move = i
			assert.Equal(t, "needs.prepare.outputs.prerelease == 'false'", s.If, "a pre-release moves nothing")
			assert.Equal(t, "v${{ needs.prepare.outputs.major }}", s.Env["MAJOR"])
			assert.Equal(t, "v${{ needs.prepare.outputs.minor }}", s.Env["MINOR"])
			assert.Contains(t, s.Run, `git tag -f "$MAJOR" "$GITHUB_SHA"`)
			assert.Contains(t, s.Run, `git tag -f "$MINOR" "$GITHUB_SHA"`)
		}
	}
	assert.NotZero(t, public)
	assert.Less(t, public, move, "the tags move only once users can pull the images")
}

// fakeRelease copies the release scripts and the files they read into a directory.
func fakeRelease(t *testing.T, image, changelog string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "scripts"), 0o755))
	for _, s := range []string{"release-version.sh", "release-public.sh"} {
		b, err := os.ReadFile(filepath.Join(repoRoot, "scripts", s))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", s), b, 0o755))
	}
	action := "name: x\nruns:\n  using: docker\n  image: " + image + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "action.yml"), []byte(action), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte(changelog), 0o644))
	return dir
}

func runScript(t *testing.T, dir, script string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{filepath.Join(dir, "scripts", script)}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestReleaseVersionScript(t *testing.T) {
	t.Parallel()
	ready := "# Changelog\n\n## [Unreleased]\n\n## [1.2.3] - 2026-11-23\n"
	dir := fakeRelease(t, "docker://ghcr.io/smile-loop/smile-action:1.2.3", ready)
	out, err := runScript(t, dir, "release-version.sh", nil, "v1.2.3", "Smile-Loop")
	require.NoError(t, err, out)
	assert.Equal(t, "version=1.2.3\nminor=1.2\nmajor=1\nowner=smile-loop\nprerelease=false\n", out, "GHCR names are lowercase")

	dir = fakeRelease(t, "docker://ghcr.io/smile-loop/smile-action:2.0.0-rc.1", "## [2.0.0-rc.1]\n")
	out, err = runScript(t, dir, "release-version.sh", nil, "v2.0.0-rc.1", "smile-loop")
	require.NoError(t, err, out)
	assert.Contains(t, out, "prerelease=true\n")

	for _, tt := range []struct{ image, changelog, tag, want string }{
		{"docker://ghcr.io/smile-loop/smile-action:1.2.2", ready, "v1.2.3", "action.yml runs 'docker://ghcr.io/smile-loop/smile-action:1.2.2', not this release's image 'docker://ghcr.io/smile-loop/smile-action:1.2.3'"},
		{"Dockerfile", ready, "v1.2.3", "set runs.image to it"},
		{"docker://ghcr.io/smile-loop/smile-action:1.2.3", "## [Unreleased]\n", "v1.2.3", "CHANGELOG.md has no '## [1.2.3]' section"},
		{"docker://ghcr.io/smile-loop/smile-action:1.2.3", ready, "v1.2", "tag v1.2 is not a release version"},
	} {
		dir := fakeRelease(t, tt.image, tt.changelog)
		out, err := runScript(t, dir, "release-version.sh", nil, tt.tag, "smile-loop")
		require.Error(t, err, tt.want)
		assert.Contains(t, out, tt.want)
	}
}

// pushManifest stores a minimal image (a config blob, no layers) under repo:tag in a
// distribution-API registry, the way a client pushes: the blob by a monolithic POST
// upload, then the manifest by PUT (opencontainers/distribution-spec spec.md, "Push").
func pushManifest(t *testing.T, base, repo, tag string) {
	t.Helper()
	config := []byte(`{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]}}`)
	sum := sha256.Sum256(config)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	resp, err := http.Post(base+"/v2/"+repo+"/blobs/uploads/?digest="+digest, "application/octet-stream", bytes.NewReader(config))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	manifest := fmt.Sprintf(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":%q,"size":%d},"layers":[]}`, digest, len(config))
	req, err := http.NewRequest(http.MethodPut, base+"/v2/"+repo+"/manifests/"+tag, strings.NewReader(manifest))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/vnd.oci.image.manifest.v1+json")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
}

// release-public.sh against a real distribution-API registry (go-containerregistry's,
// in-process on 127.0.0.1): a pushed image passes, a missing one and one the registry
// only serves with credentials (401, as GHCR answers for a private package) fail with
// the page where the package is made public.
func TestReleasePublicScript(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatalf("curl is needed (the release runner has it): %v", err)
	}
	inner := registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/v2/private-org/") && r.Method == http.MethodGet {
			w.Header().Set("WWW-Authenticate", `Bearer realm="`+"http://"+r.Host+`/token"`)
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	pushManifest(t, srv.URL, "smile-loop/smile-action", "1.2.3")
	pushManifest(t, srv.URL, "private-org/smile-action", "1.2.3")

	dir := fakeRelease(t, "x", "x")
	env := []string{"REGISTRY_URL=" + srv.URL}
	out, err := runScript(t, dir, "release-public.sh", env, "smile-loop", "1.2.3", "smile-action")
	require.NoError(t, err, out)
	assert.Contains(t, out, "smile-loop/smile-action:1.2.3 can be pulled anonymously")

	out, err = runScript(t, dir, "release-public.sh", env, "smile-loop", "1.2.3", "smile-action", "smile-base")
	require.Error(t, err)
	assert.Contains(t, out, "::error::smile-loop/smile-base:1.2.3 cannot be pulled without credentials (HTTP 404)")

	out, err = runScript(t, dir, "release-public.sh", env, "private-org", "1.2.3", "smile-action")
	require.Error(t, err)
	assert.Contains(t, out, "(HTTP 401): make the package public once at https://github.com/private-org?tab=packages")
}

// Every workflow the project ships, checked by actionlint (rhysd/actionlint, the
// linter GitHub's own docs point to): syntax, expressions and their types, job needs,
// matrix references, known actions' inputs, runner labels.
func TestWorkflowsLint(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(repoRoot, ".github", "workflows", "*.yml"))
	require.NoError(t, err)
	examples, err := filepath.Glob(filepath.Join(repoRoot, "examples", "workflows", "*.yml"))
	require.NoError(t, err)
	files = append(files, examples...)
	require.NotEmpty(t, files)
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{Shellcheck: "", Pyflakes: ""})
	require.NoError(t, err)
	for _, f := range files {
		errs, err := l.LintFile(f, nil)
		require.NoError(t, err, f)
		for _, e := range errs {
			t.Errorf("%s:%d:%d: %s [%s]", f, e.Line, e.Column, e.Message, e.Kind)
		}
	}
}
