//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/cli"
	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// Attacks 3 and 4 (review #3, #4) in the CLI runtime, on the engine, with the real
// wrapper and key proxy: the tutorial's commands, run by the CLI, harvest every token
// they can see, try every port the container talks to, and post a forged "completed",
// a forged Mentor answer, /api/stop, and batch and file calls through the proxy.
// Before: the wrapper's token was in /proc/PID/environ, the first posted result won,
// /api/stop stopped the run, the proxy forwarded any path with the real key, and the
// proxy's token sat in the environment of the CLI and of every shell it started, so the
// tutorial could call the model with it. Now: the wrapper's /proc entries are denied,
// every forgery is refused, the only model endpoint in any environment is the wrapper's
// key gate, which refuses every process but the CLI, the run ends with the CLI's own
// result, and the provider sees the CLI's inference calls only.
func TestHostileTutorialForgesNothingInTheCLIRuntime(t *testing.T) {
	sandboxtest.RequireDocker(t)
	wrapper, fake := llmBins(t)
	md, err := os.ReadFile(filepath.Join(repoRoot, "test/e2e/testdata/hostile/forge.md"))
	require.NoError(t, err)
	e := newLLMEnv(t, "hostile-forge", string(md))
	up, seen := llmUpstream(t)
	env := map[string]string{"ANTHROPIC_API_KEY": llmCanary, "ANTHROPIC_BASE_URL": up.URL}
	cfg := config.Default()
	cfg.MaxIterations = 1
	student, mentor, err := cli.New(cfg, func(k string) string { return env[k] },
		cli.Options{Install: []cli.File{{HostPath: wrapper, Name: "smile-wrapper"}, {HostPath: fake, Name: "claude"}}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = student.Close() })
	st := e.run(t, cfg, student, mentor, llmCanary)

	require.NotEmpty(t, st.History)
	res := st.History[0].Student
	require.NotNil(t, res)
	require.Len(t, res.Commands, 4, "%+v", res)
	var out string
	for _, c := range res.Commands {
		out += c.Output
	}
	t.Logf("the tutorial's view:\n%s", out)
	assert.Contains(t, out, "no proxy or API variables in my environment", "the CLI's commands inherit neither the proxy nor the API")
	assert.NotContains(t, out, "read /proc/", "the wrapper's /proc entries are denied")
	assert.Contains(t, out, "denied /proc/", "the wrapper was found")
	assert.Contains(t, out, "forgery-attempts-done")
	assert.Contains(t, out, "harvest-done")
	assert.Regexp(t, `harvested http://127\.0\.0\.1:\d+ from /proc/\d+/environ: messages 403`, out,
		"the model endpoint the tutorial can find is the wrapper's gate, which refuses it")
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "harvested ") {
			assert.True(t, strings.HasSuffix(l, " 403"), "a harvested endpoint answered: %s", l)
		}
		if strings.HasPrefix(l, "port ") {
			f := strings.Fields(l)
			assert.NotEqual(t, "200", f[len(f)-1], "a forgery was accepted: %s", l)
		}
	}
	assert.NotEqual(t, loop.StatusCancelled, st.Status, "the run was not stopped")
	assert.NotContains(t, res.Summary+res.Reason+res.Problem, "FORGED")
	if it := st.History[0].Mentor; it != nil {
		assert.NotContains(t, it.Notes, "FORGED")
	}
	seen.Range(func(k, _ any) bool {
		p := k.(string)
		assert.True(t, p == "/v1/messages" || p == "/v1/messages/count_tokens", "the provider saw %s with the real key (FORGED: a request the tutorial made)", p)
		return true
	})
}
