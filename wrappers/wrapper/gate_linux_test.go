package wrapper

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
)

// A process started by the gate tests: it waits for the file GATE_HELPER_WAIT (when
// set), calls the gate at GATE_HELPER_URL with the placeholder key and prints the status.
func TestMain(m *testing.M) {
	if u := os.Getenv("GATE_HELPER_URL"); u != "" {
		if f := os.Getenv("GATE_HELPER_WAIT"); f != "" {
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if _, err := os.Stat(f); err == nil {
					break
				}
			}
		}
		fmt.Println(call(u))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func call(u string) int {
	req, _ := http.NewRequest(http.MethodPost, u+"/v1/messages", strings.NewReader(`{}`))
	req.Header.Set("x-api-key", GatePlaceholder)
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Do(req)
	if err != nil {
		return -1
	}
	resp.Body.Close()
	return resp.StatusCode
}

// startRunning starts cmd and waits until its process runs exe; it returns its stdout.
func startRunning(t *testing.T, cmd *exec.Cmd, exe string) *strings.Builder {
	t.Helper()
	var out strings.Builder
	cmd.Stdout = &out
	require.NoError(t, cmd.Start())
	require.Eventually(t, func() bool {
		l, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", cmd.Process.Pid))
		return l == exe
	}, 10*time.Second, 20*time.Millisecond)
	return &out
}

// upstreamKeys is the key proxy: it records the key of each request it gets.
func upstreamKeys(t *testing.T) (*httptest.Server, *[]string) {
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("x-api-key")+"|"+r.Header.Get("Authorization")+"|"+r.URL.Path)
		mu.Unlock()
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &keys
}

// The test process plays the CLI. Its own requests reach the proxy with the run token
// in place of the placeholder; processes it starts after its first request are refused,
// and so is a shell that announced itself and then exec'd the CLI's own program (what a
// tutorial's ~/.bashrc could do in a shell the CLI starts before its first request).
func TestGateLetsOnlyTheCLIThrough(t *testing.T) {
	up, keys := upstreamKeys(t)
	g, err := startGate(up.URL+"/base", "RUN-TOKEN", newProcTable())
	require.NoError(t, err)
	self, err := os.Executable()
	require.NoError(t, err)
	g.started(os.Getpid(), installOf(self))
	assert.True(t, strings.HasPrefix(g.URL(), "http://127.0.0.1:") && strings.HasSuffix(g.URL(), "/base"), g.URL())

	// Before the first request: a shell sources the shim (announces itself), then execs
	// this test binary, which waits and calls the gate.
	shim := filepath.Join(t.TempDir(), "shim.sh")
	require.NoError(t, os.WriteFile(shim, []byte(headless.Shim), 0o644))
	release := filepath.Join(t.TempDir(), "release")
	execd := exec.Command("bash", "-c", `exec "$0"`, self)
	execd.Env = append(g.env(os.Environ(), "ANTHROPIC_BASE_URL", []string{"ANTHROPIC_API_KEY"}),
		"BASH_ENV="+shim, "GATE_HELPER_URL="+g.URL(), "GATE_HELPER_WAIT="+release)
	execdOut := startRunning(t, execd, self) // the shell has announced itself and exec'd

	// The CLI's first request.
	assert.Equal(t, http.StatusOK, call(g.URL()))
	require.NotEmpty(t, *keys)
	assert.Equal(t, "RUN-TOKEN||/base/v1/messages", (*keys)[0], "the placeholder became the run token")

	// After it: a command the CLI runs, through a shell and directly.
	out, err := exec.Command("bash", "-c", `GATE_HELPER_URL=`+g.URL()+` "$0"`, self).Output()
	require.NoError(t, err)
	assert.Equal(t, "403", strings.TrimSpace(string(out)), "a process under a shell the CLI started")
	direct := exec.Command(self)
	direct.Env = append(os.Environ(), "GATE_HELPER_URL="+g.URL())
	out, err = direct.Output()
	require.NoError(t, err)
	assert.Equal(t, "403", strings.TrimSpace(string(out)), "a process the CLI started after its first request")

	require.NoError(t, os.WriteFile(release, nil, 0o644))
	require.NoError(t, execd.Wait())
	assert.Equal(t, "403", strings.TrimSpace(execdOut.String()), "a shell that exec'd the CLI's program")

	assert.Equal(t, http.StatusOK, call(g.URL()), "the CLI still gets through")
	assert.Len(t, *keys, 2, "only the CLI's requests reached the proxy")
	refused := g.Close()
	assert.Contains(t, refused, "refused model requests from processes that are not the CLI")
}

// A program the CLI started before its first request (gemini relaunches itself, codex's
// launcher starts its native binary) is the CLI's own; a shell is not.
func TestGateOwnProcessesAreFixedAtTheFirstRequest(t *testing.T) {
	up, keys := upstreamKeys(t)
	g, err := startGate(up.URL, "RUN-TOKEN", newProcTable())
	require.NoError(t, err)
	t.Cleanup(func() { g.Close() })
	self, err := os.Executable()
	require.NoError(t, err)
	g.started(os.Getpid(), installOf(self))
	release := filepath.Join(t.TempDir(), "release")
	child := exec.Command(self)
	child.Env = append(os.Environ(), "GATE_HELPER_URL="+g.URL(), "GATE_HELPER_WAIT="+release)
	out := startRunning(t, child, self)
	assert.Equal(t, http.StatusOK, call(g.URL()))
	require.NoError(t, os.WriteFile(release, nil, 0o644))
	require.NoError(t, child.Wait())
	assert.Equal(t, "200", strings.TrimSpace(out.String()))
	assert.Len(t, *keys, 2)
}

func TestParseStat(t *testing.T) {
	t.Parallel()
	p, ok := parseStat(42, "42 (we (ird) name) S 7 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 123456 1000 10")
	require.True(t, ok)
	assert.Equal(t, procInfo{proc: proc{PID: 42, Start: 123456}, PPID: 7, Comm: "we (ird) name"}, p)
	_, ok = parseStat(1, "1 (x) S")
	assert.False(t, ok)
}

func TestInstallOf(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mods := filepath.Join(dir, "lib", "node_modules", "@scope", "cli", "bin")
	require.NoError(t, os.MkdirAll(mods, 0o755))
	script := filepath.Join(mods, "cli.js")
	require.NoError(t, os.WriteFile(script, []byte("#!/usr/bin/env -S bash -e\nexit 0\n"), 0o755))
	link := filepath.Join(dir, "cli")
	require.NoError(t, os.Symlink(script, link))
	got := installOf(link)
	assert.Equal(t, []string{filepath.Join(dir, "lib", "node_modules")}, got, "a shell interpreter is never the CLI's own")

	native := filepath.Join(dir, "native")
	require.NoError(t, os.WriteFile(native, []byte("\x7fELF..."), 0o755))
	assert.Equal(t, []string{native}, installOf(native))
}
