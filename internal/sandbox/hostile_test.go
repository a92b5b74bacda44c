package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// A tutorial that plants links in every directory it can write, under every name the
// orchestrator might use next, changes no host file: command logs live outside the
// mounts and are opened without following links (security review #1).
func TestHostileLinksInMountsChangeNoHostFile(t *testing.T) {
	t.Parallel()
	victimDir := t.TempDir()
	victim := filepath.Join(victimDir, "config")
	require.NoError(t, os.WriteFile(victim, []byte("[core]\n"), 0o666))
	require.NoError(t, os.Chmod(victimDir, 0o777))
	e := newEnv(t, func(o *Options) { o.KeepOnFailure = true })
	run := strings.NewReplacer("/", "-").Replace(e.d.opts.RunID)

	var plant []string
	for n := 1; n <= 6; n++ {
		name := fmt.Sprintf("%s-%04d.log", run, n)
		for _, dir := range []string{"/workspace/logs/commands", "/workspace/logs", "/workspace/work/commands", "/workspace/work"} {
			plant = append(plant, fmt.Sprintf("mkdir -p %s && ln -sf %s %s/%s", dir, victim, dir, name))
		}
	}
	plant = append(plant, "ln -sfn "+victimDir+" /workspace/logs/dirlink", "ln -sfn /proc/self/fd/1 /workspace/logs/stdout")
	res := e.run(t, strings.Join(plant, " && "))
	require.Equal(t, 0, res.ExitCode, res.Stdout+res.Stderr)
	for i := 0; i < 3; i++ {
		res = e.run(t, "echo '[core] fsmonitor = \"touch /tmp/pwned; echo\"'; echo '::warning title=INJECTED::from the tutorial'")
		require.Equal(t, 0, res.ExitCode)
	}
	got, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "[core]\n", string(got), "the host file is unchanged")
	logs, err := filepath.Glob(filepath.Join(e.logs, "commands", "*.log"))
	require.NoError(t, err)
	require.NotEmpty(t, logs, "the outputs are saved, outside the learner's mounts")
	for _, l := range logs {
		fi, err := os.Lstat(l)
		require.NoError(t, err)
		assert.True(t, fi.Mode().IsRegular(), l)
	}

	// The run fails and the container is kept for debugging: stopped, not running, and
	// no link survives in the host directories.
	id := e.d.ContainerID()
	require.NoError(t, e.d.Close(context.Background(), false))
	t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", id).Run() })
	out, err := exec.Command("docker", "inspect", "--format", "{{.State.Running}}", id).Output()
	require.NoError(t, err)
	assert.Equal(t, "false", strings.TrimSpace(string(out)), "a kept container is stopped")
	for _, dir := range []string{e.work, e.logs} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type()&os.ModeSymlink != 0 {
				t.Errorf("link left behind: %s", p)
			}
			return nil
		})
	}
}

// nonRootImage builds (once per engine) smile-lite with a non-root default user, as
// smile-base has.
func nonRootImage(t *testing.T) string {
	t.Helper()
	const tag = "smile-lite-nonroot:test"
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM "+sandboxtest.RequireImage(t)+"\nUSER 1000:1000\n"), 0o644))
	out, err := exec.Command("docker", "build", "-q", "-t", tag, dir).CombinedOutput()
	require.NoError(t, err, string(out))
	return tag
}

// A Student's file is written by the learner, not by the daemon as root (security
// review #12): a link planted in the work directory cannot make it land in /etc.
func TestWriteFileInWorkspaceIsTheLearners(t *testing.T) {
	t.Parallel()
	image := nonRootImage(t)
	e := newEnv(t, func(o *Options) { o.Image = image })
	ctx := context.Background()
	res, err := e.d.Exec(ctx, loop.ExecRequest{Command: "echo original > /etc/target && chmod 644 /etc/target", User: "0", Timeout: 30 * time.Second})
	require.NoError(t, err)
	require.Equal(t, 0, res.ExitCode, res.Stderr)
	require.Equal(t, 0, e.run(t, "ln -s /etc/target /workspace/work/evil").ExitCode)

	err = e.d.WriteFile(ctx, "evil", []byte("/workspace/work/libpwn.so\n"), 0o644)
	require.Error(t, err, "the learner may not write /etc/target")
	assert.Equal(t, "original\n", e.run(t, "cat /etc/target").Stdout)

	require.NoError(t, e.d.WriteFile(ctx, "sub/own.txt", []byte("mine"), 0o600))
	assert.Equal(t, "1000 600 mine", e.run(t, `printf '%s %s %s' "$(stat -c %u sub/own.txt)" "$(stat -c %a sub/own.txt)" "$(cat sub/own.txt)"`).Stdout)
}

// A tutorial at a repository's root does not see the repository's .git, where the
// checkout may have left its credentials (security review #13).
func TestTutorialGitIsHidden(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) {
		require.NoError(t, os.MkdirAll(filepath.Join(o.TutorialDir, ".git"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(o.TutorialDir, ".git", "config"), []byte("[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n"), 0o644))
	})
	res := e.run(t, "ls -A /workspace/tutorial/.git | wc -l; cat /workspace/tutorial/README.md; touch /workspace/tutorial/.git/x 2>/dev/null || echo read-only")
	assert.Equal(t, "0\n# Hello\nread-only\n", res.Stdout, res.Stderr)
	_, err := os.Stat(filepath.Join(e.tutorial, ".git", "config"))
	assert.NoError(t, err, "the host's .git is untouched")
}

// A container the orchestrator never removes (it was killed) stops by itself once its
// Lifetime is over, with every process of the tutorial.
func TestContainerStopsAfterItsLifetime(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.Lifetime = 2 * time.Second })
	require.Equal(t, 0, e.run(t, "(sleep 3000 >/dev/null 2>&1 &) ; echo started").ExitCode)
	id := e.d.ContainerID()
	require.Eventually(t, func() bool {
		out, err := exec.Command("docker", "inspect", "--format", "{{.State.Running}}", id).Output()
		return err == nil && strings.TrimSpace(string(out)) == "false"
	}, time.Minute, 250*time.Millisecond, "the container stops when its sleep ends")
}
