//go:build e2e

package e2e

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// testRegistry is an OCI distribution registry (go-containerregistry's in-process
// implementation of the distribution API) on 127.0.0.1, which the Docker Engine talks
// to over plain HTTP (loopback registries are insecure by default, as in
// `dockerd --insecure-registry 127.0.0.0/8`). It authenticates as ghcr.io and Docker Hub
// do, with the distribution token flow (distribution/distribution docs/spec/auth/
// token.md): every /v2/ request without a valid token gets 401 and
// `WWW-Authenticate: Bearer realm=…/token,service=…,scope=…`; /token hands an anonymous
// client a pull token for public repositories and a client logging in as ci / s3cret
// one for everything. Repositories under private/ need the logged-in token; without it
// they answer 401 with the distribution spec's error body (UNAUTHORIZED).
type testRegistry struct {
	host string // 127.0.0.1:PORT

	mu       sync.Mutex
	requests []string // "GET /v2/…"
}

// registryBasic is what a client logged in as ci / s3cret sends to the token endpoint.
var registryBasic = "Basic " + base64.StdEncoding.EncodeToString([]byte("ci:s3cret"))

const (
	anonToken = "anonymous-pull"
	fullToken = "ci-full-access"
)

func newTestRegistry(t *testing.T) *testRegistry {
	t.Helper()
	r := &testRegistry{}
	inner := registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.requests = append(r.requests, req.Method+" "+req.URL.Path)
		r.mu.Unlock()
		if req.URL.Path == "/token" {
			tok := anonToken
			if req.Header.Get("Authorization") == registryBasic {
				tok = fullToken
			} else if req.Header.Get("Authorization") != "" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]string{"token": tok, "access_token": tok})
			return
		}
		auth := req.Header.Get("Authorization")
		private := strings.HasPrefix(req.URL.Path, "/v2/private/")
		if auth != "Bearer "+fullToken && (auth != "Bearer "+anonToken || private) {
			scope := ""
			if p := strings.TrimPrefix(req.URL.Path, "/v2/"); p != "" {
				if i := strings.Index(p, "/manifests/"); i > 0 {
					scope = fmt.Sprintf(`,scope="repository:%s:pull"`, p[:i])
				} else if i := strings.Index(p, "/blobs/"); i > 0 {
					scope = fmt.Sprintf(`,scope="repository:%s:pull,push"`, p[:i])
				}
			}
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="http://%s/token",service="smile-e2e"%s`, req.Host, scope))
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]any{
				{"code": "UNAUTHORIZED", "message": "authentication required", "detail": nil}}})
			return
		}
		inner.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.host = strings.TrimPrefix(srv.URL, "http://")
	return r
}

func (r *testRegistry) saw(req string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.requests {
		if q == req {
			return true
		}
	}
	return false
}

// push puts the local image into the registry under name:tag and removes the local tag,
// so that only the registry has it.
func (r *testRegistry) push(t *testing.T, local, name string) string {
	t.Helper()
	ref := r.host + "/" + name
	docker(t, "tag", local, ref)
	docker(t, "push", "-q", ref)
	docker(t, "image", "rm", ref)
	t.Cleanup(func() { _ = exec.Command("docker", "image", "rm", ref).Run() })
	return ref
}

func pullRunDir(t *testing.T, image string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := fmt.Sprintf(`{"tutorial":"tutorial.md","llmProvider":"none","containerImage":%q,"maxIterations":1,"timeout":300,"observe":{"enabled":false}}`, image)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "smile.json"), []byte(cfg), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tutorial.md"), []byte("# Hello\n\n```bash\necho hello\n```\n"), 0o644))
	return dir
}

// A learner image that is not on the machine is pulled through the Engine API, with
// progress in the log, and the run goes on; an unknown tag and a registry that wants
// credentials end the run with an error naming the image, the registry's answer and the
// fix, and still write a report.
func TestLearnerImagePulled(t *testing.T) {
	lite := sandboxtest.RequireImage(t)
	reg := newTestRegistry(t)
	image := reg.push(t, lite, "smile/lite:e2e")
	require.Error(t, exec.Command("docker", "image", "inspect", image).Run(), "only the registry has it")

	t.Run("pulled", func(t *testing.T) {
		dir := pullRunDir(t, image)
		res := smile(t, dir, "run")
		require.Equal(t, 0, res.code, res.stderr)
		assert.Contains(t, res.stderr, "smile-loop: pulling "+image+" (not on this machine)")
		assert.Regexp(t, `smile-loop: pulled `+regexpQuote(image)+` in \S+`, res.stderr)
		assert.True(t, reg.saw("GET /v2/smile/lite/manifests/e2e") || reg.saw("HEAD /v2/smile/lite/manifests/e2e"), "fetched from the registry: %v", reg.requests)
		docker(t, "image", "inspect", image)
		assert.Equal(t, "completed", pulledReport(t, dir).Meta.Status)

		// Present now: the next run does not pull.
		res = smile(t, dir, "run")
		require.Equal(t, 0, res.code)
		assert.NotContains(t, res.stderr, "pulling")
	})
	t.Run("unknown tag", func(t *testing.T) {
		missing := reg.host + "/smile/lite:no-such-tag"
		dir := pullRunDir(t, missing)
		res := smile(t, dir, "run")
		require.Equal(t, 3, res.code, "an environment problem")
		assert.Contains(t, res.stderr, "image "+missing+" is not on this machine and pulling it failed: ")
		assert.Contains(t, res.stderr, "manifest unknown", "the registry's answer")
		assert.Contains(t, res.stderr, "fix: the registry has no such image or tag")
		r := pulledReport(t, dir)
		assert.Equal(t, "error", r.Meta.Status)
		assert.Contains(t, r.Meta.Reason, missing)
	})
	t.Run("needs credentials", func(t *testing.T) {
		private := reg.host + "/private/lite:e2e"
		dir := pullRunDir(t, private)
		res := smile(t, dir, "run")
		require.Equal(t, 3, res.code)
		assert.Contains(t, res.stderr, "image "+private+" is not on this machine and pulling it failed: ")
		assert.Contains(t, strings.ToLower(res.stderr), "unauthorized", "the registry's answer")
		assert.Contains(t, res.stderr, "docker login "+reg.host)
		assert.Contains(t, res.stderr, "docker pull "+private)
		assert.True(t, reg.saw("GET /v2/private/lite/manifests/e2e") || reg.saw("HEAD /v2/private/lite/manifests/e2e"))
		assert.Equal(t, "error", pulledReport(t, dir).Meta.Status)
	})
	t.Run("with docker login credentials", func(t *testing.T) {
		// Only the registry has it, under a repository that wants credentials.
		docker(t, "tag", lite, reg.host+"/private/lite:e2e")
		cfg := t.TempDir()
		login := exec.Command("docker", "--config", cfg, "login", "-u", "ci", "--password-stdin", reg.host)
		login.Stdin = strings.NewReader("s3cret")
		out, err := login.CombinedOutput()
		require.NoError(t, err, "docker login: %s", out)
		docker(t, "--config", cfg, "push", "-q", reg.host+"/private/lite:e2e")
		docker(t, "image", "rm", reg.host+"/private/lite:e2e")
		t.Cleanup(func() { _ = exec.Command("docker", "image", "rm", reg.host+"/private/lite:e2e").Run() })

		dir := pullRunDir(t, reg.host+"/private/lite:e2e")
		cmd := exec.Command(binary, "run")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CI=true", "DOCKER_CONFIG="+cfg)
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "the credentials `docker login` stored are sent: %s", b)
		assert.Contains(t, string(b), "smile-loop: pulled "+reg.host+"/private/lite:e2e")
		assert.NotContains(t, string(b), "s3cret")
		assert.Equal(t, "completed", pulledReport(t, dir).Meta.Status)
	})
}

func regexpQuote(s string) string {
	r := strings.NewReplacer(".", `\.`, ":", `\:`, "/", `\/`)
	return r.Replace(s)
}

// pulledReport reads the run's smile-report.json.
func pulledReport(t *testing.T, dir string) reportJSON {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "smile-output", "smile-report.json"))
	require.NoError(t, err, "a report is always written")
	var r reportJSON
	require.NoError(t, json.Unmarshal(b, &r))
	return r
}
