package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

func TestStartMountsWorkdirAndLabels(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)

	res := e.run(t, `pwd; cat /workspace/tutorial/README.md; echo made >/workspace/work/made.txt; `+
		`touch /workspace/tutorial/x 2>&1 || echo tutorial-read-only`)
	assert.Equal(t, 0, res.ExitCode)
	assert.Contains(t, res.Stdout, "/workspace/work\n# Hello\n")
	assert.Contains(t, res.Stdout+res.Stderr, "tutorial-read-only")
	data, err := os.ReadFile(filepath.Join(e.work, "made.txt"))
	require.NoError(t, err)
	assert.Equal(t, "made\n", string(data))

	out, err := exec.Command("docker", "inspect", "--format",
		`{{index .Config.Labels "org.smile-loop.run"}} {{index .Config.Labels "org.smile-loop.output"}}`, e.d.ContainerID()).Output()
	require.NoError(t, err)
	assert.Equal(t, e.d.opts.RunID+" "+e.d.opts.OutputKey, strings.TrimSpace(string(out)))
}

func TestExec(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.OutputLimit = 100 })
	tests := []struct {
		name   string
		req    loop.ExecRequest
		code   int
		stdout string
		stderr string
		trunc  bool
	}{
		{name: "exit code and streams", req: loop.ExecRequest{Command: "echo out; echo err >&2; exit 7"}, code: 7, stdout: "out\n", stderr: "err\n"},
		{name: "login bash", req: loop.ExecRequest{Command: "shopt -q login_shell && echo login"}, stdout: "login\n"},
		{name: "per-command env", req: loop.ExecRequest{Command: `echo "$GREETING"`, Env: map[string]string{"GREETING": "hi there"}}, stdout: "hi there\n"},
		{name: "relative dir", req: loop.ExecRequest{Command: "mkdir -p /workspace/work/sub && cd /workspace/work/sub && cd - >/dev/null; pwd", Dir: "."}, stdout: "/workspace/work\n"},
		{name: "absolute dir", req: loop.ExecRequest{Command: "pwd", Dir: "/tmp"}, stdout: "/tmp\n"},
		{name: "stdin", req: loop.ExecRequest{Command: "tr a-z A-Z", Stdin: []byte("shout\n")}, stdout: "SHOUT\n"},
		{name: "user", req: loop.ExecRequest{Command: "id -un", User: "learner"}, stdout: "learner\n"},
		{name: "not found", req: loop.ExecRequest{Command: "no-such-tool --version"}, code: 127, stderr: "bash: line 1: no-such-tool: command not found\n"},
		{name: "closes its output and goes on", req: loop.ExecRequest{Command: "echo bye; exec >&- 2>&-; sleep 1; exit 4"}, code: 4, stdout: "bye\n"},
		{name: "bounded capture", req: loop.ExecRequest{Command: "seq 1 1000"}, trunc: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := e.d.Exec(context.Background(), tt.req)
			require.NoError(t, err)
			assert.Equal(t, tt.code, res.ExitCode)
			assert.False(t, res.TimedOut)
			assert.Equal(t, tt.trunc, res.Truncated)
			if !tt.trunc {
				assert.Equal(t, tt.stdout, res.Stdout)
				assert.Equal(t, tt.stderr, res.Stderr)
			}
			require.NotEmpty(t, res.OutputPath)
			full, err := os.ReadFile(res.OutputPath)
			require.NoError(t, err)
			assert.Equal(t, len(tt.stdout)+len(tt.stderr) > 0 || tt.trunc, len(full) > 0)
			if tt.trunc {
				assert.True(t, strings.HasPrefix(res.Stdout, "1\n2\n3\n"), res.Stdout)
				assert.True(t, strings.HasSuffix(res.Stdout, "999\n1000\n"), res.Stdout)
				assert.Contains(t, res.Stdout, "bytes cut")
				assert.Less(t, len(res.Stdout), 200)
				assert.Equal(t, 3893, len(full), "the log holds the whole output")
			}
		})
	}
}

// pids lists processes whose command line contains marker (through the docker CLI).
func pids(t *testing.T, id, marker string) string {
	t.Helper()
	out, err := exec.Command("docker", "exec", id, "ps", "-eo", "pid,args").CombinedOutput()
	require.NoError(t, err, string(out))
	var hits []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, marker) && !strings.Contains(l, "ps -eo") {
			hits = append(hits, strings.TrimSpace(l))
		}
	}
	return strings.Join(hits, "; ")
}

func TestExecTimeoutKillsProcessTree(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	for _, user := range []string{"", "learner"} {
		t.Run("user="+user, func(t *testing.T) {
			start := time.Now()
			res, err := e.d.Exec(context.Background(), loop.ExecRequest{
				Command: "sleep 301 & setsid sleep 302 & (sleep 303 &) ; echo started; sleep 300",
				Timeout: 3 * time.Second,
				User:    user,
			})
			require.NoError(t, err)
			assert.True(t, res.TimedOut)
			assert.Equal(t, 124, res.ExitCode)
			assert.Equal(t, "started\n", res.Stdout, "output before the timeout is kept")
			assert.Less(t, time.Since(start), 15*time.Second)
			assert.Empty(t, pids(t, e.d.ContainerID(), "sleep 30"), "every process of the command is gone")

			// The sandbox still works.
			assert.Equal(t, "ok\n", e.run(t, "echo ok").Stdout)
		})
	}
}

func TestExecOutputFileIsBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.LogLimit = 1000 })
	res := e.run(t, "yes | head -c 100000")
	assert.Equal(t, 0, res.ExitCode)
	full, err := os.ReadFile(res.OutputPath)
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("y\n", 500)+"\n[smile-loop: output cut at 1000 bytes]\n", string(full))
}

func TestExecBackgroundProcessKeepsRunningAndDoesNotHang(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	start := time.Now()
	res := e.run(t, "sleep 401 & echo server started")
	assert.Equal(t, 0, res.ExitCode)
	assert.Equal(t, "server started\n", res.Stdout)
	assert.False(t, res.TimedOut)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.NotEmpty(t, pids(t, e.d.ContainerID(), "sleep 401"), "a tutorial's background server outlives its step")
}

func TestExecContextCancelKillsCommand(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	_, err := e.d.Exec(ctx, loop.ExecRequest{Command: "sleep 501"})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Empty(t, pids(t, e.d.ContainerID(), "sleep 501"))
}

func TestWriteReadFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	require.NoError(t, e.d.WriteFile(ctx, "/opt/deep/dir/hello.sh", []byte("echo hi\n"), 0o755))
	require.NoError(t, e.d.WriteFile(ctx, "notes/a.txt", []byte("relative"), 0))
	assert.Equal(t, "hi\n", e.run(t, "/opt/deep/dir/hello.sh").Stdout)
	onHost, err := os.ReadFile(filepath.Join(e.work, "notes", "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "relative", string(onHost))
	e.run(t, "ln -s /opt/deep/dir/hello.sh /workspace/work/link; mkdir -p /workspace/work/adir")

	tests := []struct {
		name  string
		path  string
		limit int64
		want  string
		err   string
	}{
		{name: "absolute", path: "/opt/deep/dir/hello.sh", want: "echo hi\n"},
		{name: "relative to work", path: "notes/a.txt", want: "relative"},
		{name: "limit", path: "notes/a.txt", limit: 3, want: "rel"},
		{name: "symlink followed", path: "link", want: "echo hi\n"},
		{name: "missing", path: "/nope", err: "file does not exist"},
		{name: "directory", path: "adir", err: "is a directory"},
		{name: "tutorial", path: "/workspace/tutorial/README.md", want: "# Hello\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.d.ReadFile(ctx, tt.path, tt.limit)
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
	_, err = e.d.ReadFile(ctx, "/nope", 0)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Error(t, e.d.WriteFile(ctx, "/workspace/tutorial/new.md", []byte("x"), 0o644), "the tutorial is read-only")
}

func TestResetCleanSlate(t *testing.T) {
	t.Parallel()
	for _, strategy := range []string{ResetSpare, ResetRecreate} {
		for _, keepWork := range []bool{false, true} {
			name := strategy
			if keepWork {
				name += "/keepWork"
			}
			t.Run(name, func(t *testing.T) {
				e := newEnv(t, func(o *Options) { o.ResetStrategy = strategy; o.KeepWork = keepWork })
				// Iteration N dirties everything it can.
				res := e.run(t, strings.Join([]string{
					"echo leak >/etc/leak.txt",
					"echo 'export LEAKED_ENV=1' >>/etc/profile.d/leak.sh",
					"echo 'export LEAKED_ENV=1' >>~/.bashrc",
					"(sleep 999 >/dev/null 2>&1 &)",
					installDeb("leakpkg"),
					"echo work >/workspace/work/w.txt; touch /workspace/work/.hidden",
					"echo log >/workspace/logs/kept.txt",
				}, " && "))
				require.Equal(t, 0, res.ExitCode, res.Stdout+res.Stderr)
				require.Equal(t, "/usr/bin/leakpkg\n", e.run(t, "command -v leakpkg").Stdout)
				before := e.d.ContainerID()

				require.NoError(t, e.d.Reset(context.Background()))
				assert.NotEqual(t, before, e.d.ContainerID())

				res = e.run(t, `test -e /etc/leak.txt && echo file; echo "env=${LEAKED_ENV:-}"; `+
					`pgrep -f "^sleep 999" >/dev/null && echo proc; dpkg -s leakpkg >/dev/null 2>&1 && echo pkg; ls -A /workspace/work; cat /workspace/logs/kept.txt`)
				want := "env=\n"
				if keepWork {
					want += ".hidden\nw.txt\n"
				}
				want += "log\n"
				assert.Equal(t, want, res.Stdout, res.Stderr)
				_, err := os.Stat(filepath.Join(e.work, "w.txt"))
				assert.Equal(t, keepWork, err == nil, "work dir on the host")
				require.Eventually(t, func() bool { return !containerExists(t, before) }, 20*time.Second, 100*time.Millisecond,
					"the used container is removed")
			})
		}
	}
}

// installDeb builds and installs a real Debian package (offline) named name, which
// puts /usr/bin/name in place.
func installDeb(name string) string {
	return `d=$(mktemp -d) && mkdir -p $d/DEBIAN $d/usr/bin && ` +
		`printf 'Package: ` + name + `\nVersion: 1.0\nArchitecture: all\nMaintainer: t <t@example.com>\nDescription: test\n' >$d/DEBIAN/control && ` +
		`printf '#!/bin/sh\necho ` + name + `\n' >$d/usr/bin/` + name + ` && chmod 755 $d/usr/bin/` + name + ` && ` +
		`dpkg-deb --build $d /tmp/` + name + `.deb >/dev/null && dpkg -i /tmp/` + name + `.deb >/dev/null`
}

func TestResetRecoversFromLostSpare(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.ResetStrategy = ResetSpare })
	// Someone removes the warm spare behind the sandbox's back.
	e.d.mu.Lock()
	s := <-e.d.spare
	require.NoError(t, s.err)
	ch := make(chan spareResult, 1)
	ch <- s
	e.d.spare = ch
	e.d.mu.Unlock()
	require.NoError(t, exec.Command("docker", "rm", "-f", s.id).Run())

	require.NoError(t, e.d.Reset(context.Background()), "one recovery attempt recreates the container")
	assert.Equal(t, "ok\n", e.run(t, "echo ok").Stdout)
}

func TestResetFailureIsUnresolvable(t *testing.T) {
	t.Parallel()
	image := sandboxtest.RequireImage(t)
	tag := "smile-lite:reset-test-" + randHex(4)
	require.NoError(t, exec.Command("docker", "tag", image, tag).Run())
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", tag).Run() })
	e := newEnv(t, func(o *Options) { o.Image = tag; o.ResetStrategy = ResetRecreate })
	// The image disappears mid-run: reset and its recovery both fail.
	require.NoError(t, exec.Command("docker", "rmi", tag).Run())

	err := e.d.Reset(context.Background())
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrResetFailed)
	var re *ResetError
	require.ErrorAs(t, err, &re)
	assert.True(t, re.EnvironmentUnavailable())
	assert.Contains(t, err.Error(), "recovery")
	var im *ImageMissingError
	assert.ErrorAs(t, err, &im)
}

func TestReapsEarlierCrashedRunOnly(t *testing.T) {
	t.Parallel()
	image := sandboxtest.RequireImage(t)
	ctx := context.Background()
	key := "reap-" + randHex(4)
	dir := t.TempDir()
	start := func(run, key string) *Docker {
		d, err := New(ctx, Options{Image: image, RunID: run, OutputKey: key, WorkDir: filepath.Join(dir, run)})
		require.NoError(t, err)
		require.NoError(t, d.Start(ctx))
		return d
	}
	crashed := start("crashed", key) // never closed: the process "crashed"
	other := start("other", "other-"+randHex(4))
	t.Cleanup(func() {
		_ = crashed.Close(ctx, true)
		_ = other.Close(ctx, true)
	})
	crashedIDs := []string{crashed.ContainerID()}
	crashed.mu.Lock()
	s := <-crashed.spare
	crashed.spare = nil
	crashed.mu.Unlock()
	crashedIDs = append(crashedIDs, s.id)

	next := start("next", key)
	t.Cleanup(func() { _ = next.Close(ctx, true) })
	for _, id := range crashedIDs {
		assert.False(t, containerExists(t, id), "container of the crashed run with the same output is reaped")
	}
	assert.True(t, containerExists(t, other.ContainerID()), "another run's container is left alone")
}

func TestCPULimitClampedToMachine(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.CPUs = 4096 })
	out, err := exec.Command("docker", "inspect", "--format", "{{.HostConfig.NanoCpus}}", e.d.ContainerID()).Output()
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("%d", runtime.NumCPU()*1e9), strings.TrimSpace(string(out)))
}

func TestErrors(t *testing.T) {
	t.Parallel()
	image := sandboxtest.RequireImage(t)
	ctx := context.Background()

	t.Run("3.E2 image missing", func(t *testing.T) {
		// smile-lite is built locally, never pulled.
		_, err := New(ctx, Options{Image: "smile-lite:no-such-tag", RunID: "e2"})
		var im *ImageMissingError
		require.ErrorAs(t, err, &im)
		assert.True(t, im.EnvironmentUnavailable())
		assert.Contains(t, err.Error(), "make images")
		_, err = New(ctx, Options{Image: "smile-base:smile-loop-test-missing", RunID: "e2"})
		require.ErrorAs(t, err, &im, "smile-base without a registry is built, not pulled from Docker Hub")
		assert.Contains(t, err.Error(), "docker build -f images/smile-base/Dockerfile -t smile-base:smile-loop-test-missing .")
		assert.Contains(t, err.Error(), "ghcr.io/smile-loop/smile-base:<version>")
		// Any other missing image is pulled; a registry nobody answers at is named with
		// the engine's answer (the registry e2e tests cover 401 and unknown tags).
		var lines []string
		_, err = New(ctx, Options{Image: "127.0.0.1:1/smile-loop-test/no-such-image:1", RunID: "e2",
			Progress: func(s string) { lines = append(lines, s) }})
		var pe *PullError
		require.ErrorAs(t, err, &pe)
		assert.True(t, pe.EnvironmentUnavailable())
		assert.Contains(t, err.Error(), "127.0.0.1:1/smile-loop-test/no-such-image:1")
		assert.Contains(t, err.Error(), "connection refused")
		assert.Contains(t, err.Error(), "fix: check that this machine reaches 127.0.0.1:1")
		assert.Equal(t, []string{"pulling 127.0.0.1:1/smile-loop-test/no-such-image:1 (not on this machine)"}, lines)
	})
	t.Run("3.E3 start failure carries Docker's message", func(t *testing.T) {
		d, err := New(ctx, Options{Image: image, RunID: "e3", Memory: "1m", WorkDir: t.TempDir()})
		require.NoError(t, err)
		err = d.Start(ctx)
		var se *StartError
		require.ErrorAs(t, err, &se)
		assert.True(t, se.EnvironmentUnavailable())
		assert.Contains(t, err.Error(), "Minimum memory limit allowed is 6MB")
		require.NoError(t, d.Close(ctx, false))
	})
	t.Run("3.E5 host.docker.internal not reachable", func(t *testing.T) {
		e := newEnv(t, func(o *Options) { o.HostGatewayIP = "203.0.113.7" })
		_, err := e.d.HostAddr(ctx)
		var ne *NetworkError
		require.ErrorAs(t, err, &ne)
		assert.True(t, ne.EnvironmentUnavailable())
		assert.Contains(t, err.Error(), "203.0.113.7")
	})
	t.Run("3.E6 mount failure", func(t *testing.T) {
		d, err := New(ctx, Options{Image: image, RunID: "e6", TutorialDir: filepath.Join(t.TempDir(), "missing")})
		require.NoError(t, err)
		err = d.Start(ctx)
		var de *DiskError
		require.ErrorAs(t, err, &de)
		assert.Contains(t, err.Error(), "disk has free space")
		require.NoError(t, d.Close(ctx, false))
	})
}

// 3.E1 on a real client: DOCKER_HOST points at a socket nobody listens on.
func TestErrorDockerUnavailable(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "closed.sock")
	t.Setenv("DOCKER_HOST", "unix://"+sock)
	_, err := New(context.Background(), Options{Image: "smile-lite:latest", RunID: "e1"})
	var ue *UnavailableError
	require.ErrorAs(t, err, &ue)
	assert.True(t, ue.EnvironmentUnavailable())
	assert.True(t, strings.HasPrefix(err.Error(), "Docker is required but not available"), err.Error())
	for _, hint := range []string{"start the Docker daemon", "socket", "DOCKER_HOST"} {
		assert.Contains(t, err.Error(), hint)
	}
}

func TestHostDockerInternalReachesOrchestrator(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	addr, err := e.d.HostAddr(ctx)
	require.NoError(t, err)
	srv := serveHello(t, addr)
	port := srv[strings.LastIndex(srv, ":")+1:]
	res := e.run(t, "curl -sS --max-time 10 http://host.docker.internal:"+port+"/hello")
	assert.Equal(t, 0, res.ExitCode, res.Stderr)
	assert.Equal(t, "hello from the orchestrator", res.Stdout)
	require.NoError(t, e.d.VerifyHost(ctx, atoi(t, port)))

	// 3.E5: nothing listens on the port any more.
	ln, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	require.NoError(t, err)
	closed := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	err = e.d.VerifyHost(ctx, closed)
	var ne *NetworkError
	require.ErrorAs(t, err, &ne)
	assert.Contains(t, err.Error(), fmt.Sprintf("cannot reach host.docker.internal:%d", closed))
}

func TestHardening(t *testing.T) {
	t.Setenv("SMILE_HOST_SECRET", "must-not-leak") // in this process's environment only
	e := newEnv(t, func(o *Options) { o.Env = map[string]string{"RUN_VAR": "given"} })
	res := e.run(t, `test -e /var/run/docker.sock || test -e /run/docker.sock && echo socket; `+
		`grep -E '^(CapEff|NoNewPrivs)' /proc/self/status; cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max; env`)
	require.Equal(t, 0, res.ExitCode, res.Stderr)
	assert.NotContains(t, res.Stdout, "socket")
	assert.Contains(t, res.Stdout, "NoNewPrivs:\t1")
	assert.Contains(t, res.Stdout, "CapEff:\t"+capMask(t), "only the documented capabilities")
	assert.Contains(t, res.Stdout, "\n512\n", "pids limit")
	assert.Contains(t, res.Stdout, "RUN_VAR=given")
	assert.NotContains(t, res.Stdout, "must-not-leak")

	out, err := exec.Command("docker", "inspect", "--format", "{{.HostConfig.Privileged}} {{.HostConfig.Memory}} {{.HostConfig.NanoCpus}}", e.d.ContainerID()).Output()
	require.NoError(t, err)
	assert.Equal(t, "false 536870912 1000000000", strings.TrimSpace(string(out)))

	// What a learner does as root to install software still works, and a server can confine
	// itself with chroot (sshd's privilege separation, tftpd-hpa's --secure).
	res = e.run(t, installDeb("okpkg")+" && touch /tmp/f && chown learner /tmp/f && su learner -c 'id -un' && sudo -u learner true && chroot / true && okpkg")
	assert.Equal(t, 0, res.ExitCode, res.Stdout+res.Stderr)
	assert.Equal(t, "learner\nokpkg\n", res.Stdout)
	assert.Empty(t, res.Stderr)
}

func TestSiblingHostPath(t *testing.T) {
	t.Parallel()
	s := newSiblingForTest([]container.MountPoint{
		{Source: "/home/runner/work/repo/repo", Destination: "/github/workspace"},
		{Source: "/home/runner/work/_temp", Destination: "/github/workspace/tmp"},
		{Source: "/var/lib/docker/volumes/v/_data", Destination: "/data"},
	})
	tests := []struct {
		name, local, want string
		ok                bool
	}{
		{"mount root", "/github/workspace", "/home/runner/work/repo/repo", true},
		{"below mount", "/github/workspace/docs/t", "/home/runner/work/repo/repo/docs/t", true},
		{"longest mount wins", "/github/workspace/tmp/x", "/home/runner/work/_temp/x", true},
		{"volume", "/data/out", "/var/lib/docker/volumes/v/_data/out", true},
		{"prefix is not a parent", "/github/workspace2/x", "", false},
		{"unmounted", "/tmp/x", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := s.hostPath(tt.local)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		o    Options
		err  string
	}{
		{name: "no image", o: Options{RunID: "r"}, err: "no image"},
		{name: "no run id", o: Options{Image: "i"}, err: "no run id"},
		{name: "memory syntax", o: Options{Image: "i", RunID: "r", Memory: "two gigs"}, err: "use Docker syntax such as 512m or 2g"},
		{name: "reset strategy", o: Options{Image: "i", RunID: "r", ResetStrategy: "snapshot"}, err: `unknown reset strategy "snapshot"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(context.Background(), tt.o)
			assert.ErrorContains(t, err, tt.err)
		})
	}
}

func TestConfigOptions(t *testing.T) {
	t.Parallel()
	c := config.Default()
	c.ContainerImage = "smile-lite:latest"
	c.Container.KeepWork = true
	o := ConfigOptions(c)
	assert.Equal(t, Options{Image: "smile-lite:latest", Memory: "2g", CPUs: 2, PidsLimit: 512, KeepOnFailure: true, KeepWork: true}, o)
}

func TestCapture(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		writes []string
		want   string
		trunc  bool
	}{
		{name: "fits", writes: []string{"abc", "def"}, want: "abcdef"},
		{name: "exactly the limit", writes: []string{"0123456789"}, want: "0123456789"},
		{name: "head and tail", writes: []string{"0123456789", "abcdefghij"}, want: "01234\n… [10 bytes cut; full output in the command log] …\nfghij", trunc: true},
		{name: "many small writes", writes: strings.Split("0123456789abcdefghijXYZ", ""), want: "01234\n… [13 bytes cut; full output in the command log] …\nijXYZ", trunc: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var side strings.Builder
			c := newCapture(10, &side)
			for _, w := range tt.writes {
				n, err := c.Write([]byte(w))
				require.NoError(t, err)
				require.Equal(t, len(w), n)
			}
			assert.Equal(t, tt.want, c.String())
			assert.Equal(t, tt.trunc, c.truncated())
			assert.Equal(t, strings.Join(tt.writes, ""), side.String())
		})
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want any
	}{
		{"no space", errors.New("write /var/lib/docker/x: no space left on device"), &DiskError{}},
		{"bind source", errors.New(`invalid mount config for type "bind": bind source path does not exist: /x`), &DiskError{}},
		{"connection", errors.New("Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?"), &UnavailableError{}},
		{"socket permission", errors.New("permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock"), &UnavailableError{}},
		{"no such image", errors.New("No such image: x:1"), &ImageMissingError{}},
		{"host gateway", errors.New("invalid IP address in add-host: \"host-gateway\""), &NetworkError{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify("op", "x:1", tt.err)
			assert.IsType(t, tt.want, got)
			assert.ErrorIs(t, got, tt.err)
		})
	}
}

// A new run starts with an empty work directory (FreshWork), whatever an earlier run
// into the same output directory left there; a resumed one keeps it.
func TestFreshWorkEmptiesWhatAnEarlierRunLeft(t *testing.T) {
	t.Parallel()
	for _, fresh := range []bool{true, false} {
		t.Run(fmt.Sprint(fresh), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(o *Options) {
				o.FreshWork = fresh
				require.NoError(t, os.MkdirAll(filepath.Join(o.WorkDir, "field-guide"), 0o755))
			})
			_, err := os.Stat(filepath.Join(e.work, "field-guide"))
			if fresh {
				assert.True(t, os.IsNotExist(err), "the earlier run's folder is gone: %v", err)
			} else {
				assert.NoError(t, err, "a resumed run keeps its files")
			}
		})
	}
}
