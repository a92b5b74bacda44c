package sandbox

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// env is one sandbox under test with its host directories.
type env struct {
	d                    *Docker
	tutorial, work, logs string
}

// newEnv starts a sandbox on the real engine with a tutorial directory holding
// README.md; mutate adjusts the options. The container is removed at cleanup.
func newEnv(t *testing.T, mutate func(*Options)) *env {
	t.Helper()
	image := sandboxtest.RequireImage(t)
	root := t.TempDir()
	e := &env{
		tutorial: filepath.Join(root, "tutorial"),
		work:     filepath.Join(root, "work"),
		logs:     filepath.Join(root, "logs"),
	}
	require.NoError(t, os.MkdirAll(e.tutorial, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(e.tutorial, "README.md"), []byte("# Hello\n"), 0o644))
	o := Options{
		Image:       image,
		RunID:       "t-" + strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())),
		TutorialDir: e.tutorial,
		WorkDir:     e.work,
		LogsDir:     e.logs,
		Memory:      "512m",
		CPUs:        1,
		// Tests that need no Reset skip the warm spare: half the containers on a busy machine.
		ResetStrategy: ResetRecreate,
	}
	if mutate != nil {
		mutate(&o)
	}
	ctx := context.Background()
	d, err := New(ctx, o)
	require.NoError(t, err)
	require.NoError(t, d.Start(ctx))
	e.d = d
	t.Cleanup(func() {
		if err := d.Close(context.Background(), true); err != nil {
			t.Errorf("close sandbox: %v", err)
		}
	})
	return e
}

// run executes a command and requires the sandbox not to fail.
func (e *env) run(t *testing.T, cmd string) loop.ExecResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := e.d.Exec(ctx, loop.ExecRequest{Command: cmd, Timeout: 30 * time.Second})
	require.NoError(t, err)
	return res
}

// containerExists asks the docker CLI (not the code under test) whether id exists.
func containerExists(t *testing.T, id string) bool {
	t.Helper()
	out, err := exec.Command("docker", "ps", "-aq", "--no-trunc", "--filter", "id="+id).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out)) != ""
}

// serveHello serves HTTP on ip (any port) and returns the listener's address.
func serveHello(t *testing.T, ip string) string {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/hello" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "hello from the orchestrator")
	}))
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return ln.Addr().String()
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}

// capMask is /proc/self/status's CapEff for Capabilities.
func capMask(t *testing.T) string {
	t.Helper()
	bits := map[string]uint{"CHOWN": 0, "DAC_OVERRIDE": 1, "FOWNER": 3, "FSETID": 4, "KILL": 5, "SETGID": 6,
		"SETUID": 7, "NET_BIND_SERVICE": 10, "SYS_CHROOT": 18, "AUDIT_WRITE": 29}
	var m uint64
	for _, c := range Capabilities {
		b, ok := bits[c]
		require.True(t, ok, c)
		m |= 1 << b
	}
	return fmt.Sprintf("%016x", m)
}

func newSiblingForTest(mounts []container.MountPoint) *sibling {
	sort.Slice(mounts, func(i, j int) bool { return len(mounts[i].Destination) > len(mounts[j].Destination) })
	return &sibling{mounts: mounts}
}
