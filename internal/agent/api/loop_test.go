package api

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// The native runtime through the real loop (state machine, prompts, triggers,
// persistence) on a host sandbox; test/e2e runs the same in a real container.
func TestNativeRuntimeThroughTheLoop(t *testing.T) {
	t.Parallel()
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "tutorial.md")
			require.NoError(t, os.WriteFile(path, []byte("# Greet\n\nRun `greet --version`.\n\n```bash\ngreet --version\n```\n"), 0o644))
			tut, err := tutorial.Load(path)
			require.NoError(t, err)
			srv := newModelServer(t, provider, tutorialBrain)
			opts := Options{Client: clientFor(provider, srv.URL, RetryPolicy{}), Fast: "f", Standard: "s", Powerful: "p", ContextTokenBudget: 60000}
			cfg := config.Default()
			cfg.LLMProvider = map[string]string{"anthropic": "claude", "openai": "codex", "gemini": "gemini"}[provider]
			cfg.LLMRuntime, cfg.MaxIterations = config.RuntimeAPI, 3
			st, err := loop.Run(context.Background(), loop.Options{Config: cfg, Tutorial: tut, Sandbox: looptest.NewHostSandbox(t),
				Student: NewStudent(opts), Mentor: NewMentor(opts), StateDir: filepath.Join(dir, "state")})
			require.NoError(t, err)
			assert.Equal(t, loop.StatusCompleted, st.Status)
			require.Len(t, st.History, 2)
			assert.Equal(t, loop.StudentAskMentor, st.History[0].Student.Status)
			assert.Equal(t, loop.TriggerMissingDependency, st.History[0].Student.Trigger)
			require.NotNil(t, st.History[0].Mentor)
			assert.Contains(t, st.History[0].Mentor.Notes, "Create it as a script")
			assert.NotEmpty(t, st.History[0].Mentor.LLMCalls)
			assert.Equal(t, loop.StudentCompleted, st.History[1].Student.Status)
			assert.Equal(t, []string{"/workspace/work/greet"}, st.History[1].Student.FilesCreated)
		})
	}
}
