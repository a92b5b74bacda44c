//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// The orchestrator inside a container (a GitHub Docker action) starts the learner as a
// sibling through the mounted Docker socket: bind mounts are translated to host paths,
// unmounted directories copied in and out, and host.docker.internal reaches the
// orchestrator container. internal/sandbox/testdata/sibling is that orchestrator.
func TestSandboxSiblingMode(t *testing.T) {
	image := sandboxtest.RequireImage(t)
	socket := "/var/run/docker.sock"
	if h := os.Getenv("DOCKER_HOST"); strings.HasPrefix(h, "unix://") {
		socket = strings.TrimPrefix(h, "unix://")
	} else if h != "" {
		t.Skipf("sibling mode needs a local Docker socket; DOCKER_HOST is %s", h)
	}

	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "sibling"), "./internal/sandbox/testdata/sibling")
	build.Dir = sandboxModuleRoot(t)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))

	ws := filepath.Join(root, "workspace")
	require.NoError(t, os.MkdirAll(ws, 0o755))
	if uid := os.Getuid(); uid != 0 {
		// The orchestrator container runs as root: give its files back before TempDir's cleanup.
		t.Cleanup(func() {
			_ = exec.Command("docker", "run", "--rm", "-v", ws+":/ws", image,
				"chown", "-R", fmt.Sprintf("%d:%d", uid, os.Getgid()), "/ws").Run()
		})
	}
	cmd := exec.Command("docker", "run", "--rm",
		"-v", socket+":/var/run/docker.sock",
		"-v", ws+":/github/workspace",
		"-v", bin+":/smile:ro",
		"-w", "/github/workspace",
		image, "/smile/sibling", "-image", image, "-workspace", "/github/workspace")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "PASS mounted")
	assert.Contains(t, string(out), "PASS copied")
	assert.Contains(t, string(out), "the learner is its sibling")

	// The learner wrote through a bind mount whose source is this machine's path.
	got, err := os.ReadFile(filepath.Join(ws, "work-mounted", "out.txt"))
	require.NoError(t, err)
	assert.Equal(t, "from-sibling\n", string(got))
	logs, err := os.ReadDir(filepath.Join(ws, "logs-mounted", "commands"))
	require.NoError(t, err)
	assert.NotEmpty(t, logs, "full command output lands in the mounted logs directory")
}

func sandboxModuleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	require.NoError(t, err)
	return filepath.Dir(strings.TrimSpace(string(out)))
}
