package cli

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
)

// smokeEnv installs smile-wrapper and the fake CLIs (which refuse what the pinned
// versions refuse) on a PATH and returns the environment for images/smile-base/smoke.sh.
func smokeEnv(t *testing.T, extra ...string) []string {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("smoke.sh needs python3 for its fake API")
		}
		t.Skip("python3 is not installed")
	}
	bin := t.TempDir()
	for _, n := range []string{"claude", "codex", "gemini"} {
		require.NoError(t, os.Symlink(filepath.Join(binDir, "fakecli"), filepath.Join(bin, n)))
	}
	require.NoError(t, os.Symlink(filepath.Join(binDir, "smile-wrapper"), filepath.Join(bin, "smile-wrapper")))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	tmp := t.TempDir()
	return append(os.Environ(), append([]string{"PATH=" + bin + ":" + os.Getenv("PATH"), fmt.Sprintf("SMOKE_PORT=%d", port), "TMPDIR=" + tmp}, extra...)...)
}

func runSmoke(t *testing.T, env []string) (string, error) {
	cmd := exec.Command("bash", filepath.Join("..", "..", "..", "images", "smile-base", "smoke.sh"))
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// The image smoke test passes with CLIs that accept the wrapper's command lines and
// reach the provider API.
func TestSmokeScriptPassesWithThePinnedCLIs(t *testing.T) {
	t.Parallel()
	out, err := runSmoke(t, smokeEnv(t))
	require.NoError(t, err, out)
	for _, want := range []string{
		"ok   claude --version: 2.1.240 (Claude Code)", "ok   codex --version: codex-cli 0.148.0", "ok   gemini --version: 0.56.0",
		"ok   claude student: command line accepted, reached the API (POST /v1/messages)", "ok   claude mentor:",
		"ok   codex student: command line accepted, reached the API (POST /v1/responses)", "skip codex mentor:",
		"ok   gemini student:", "ok   gemini mentor:",
	} {
		assert.Contains(t, out, want)
	}
}

// A CLI that refuses a flag the wrapper uses (gemini 0.9.0 had no stream-json) fails the
// smoke test, which quotes the CLI's error.
func TestSmokeScriptFailsWhenACLIRefusesAFlag(t *testing.T) {
	t.Parallel()
	out, err := runSmoke(t, smokeEnv(t, "SMOKE_PROVIDERS=gemini", "FAKECLI_CHOICES=--output-format=text,json"))
	require.Error(t, err, out)
	assert.Contains(t, out, "FAIL gemini student: the pinned CLI refused the wrapper's command line")
	assert.Contains(t, out, `Invalid values:`)
	assert.Contains(t, out, `Given: \"stream-json\"`)
}

// The fake CLIs' event streams follow the pinned versions' events (clis.json), for a
// run that works, asks for help, and fails at the API.
func TestFakeCLIStreamsFollowThePinnedEvents(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{headless.Claude, headless.Codex, headless.Gemini} {
		spec, _ := headless.Spec(provider)
		for _, prompt := range []string{"$ echo hi\n", "$ echo hi\n$ no-such-tool-xyz\n", "FAKECLI:AUTH\n$ echo hi\n", "FAKECLI:NOAUTH\n"} {
			bin := filepath.Join(t.TempDir(), provider)
			require.NoError(t, os.Symlink(filepath.Join(binDir, "fakecli"), bin))
			inv, err := headless.Command(provider, headless.RoleStudent, prompt, "")
			require.NoError(t, err)
			cmd := exec.Command(bin, inv.Args...)
			cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "TMPDIR="+t.TempDir())
			out, _ := cmd.Output()
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if provider == headless.Gemini && strings.Contains(prompt, "NOAUTH") {
				assert.Equal(t, []string{""}, lines, "gemini says it on stderr")
				assert.Equal(t, 41, cmd.ProcessState.ExitCode())
				continue
			}
			require.NotEmpty(t, lines)
			for _, l := range lines {
				assert.NoError(t, spec.CheckEvent(l), "%s %q: %s", provider, prompt, l)
			}
		}
	}
}
