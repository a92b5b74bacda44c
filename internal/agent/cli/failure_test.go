package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
)

// attemptOnce runs one Student attempt of the CLI runtime on a host sandbox.
func attemptOnce(t *testing.T, opts Options, prompt string) (loop.StudentResult, *looptest.HostSandbox) {
	t.Helper()
	sb := looptest.NewHostSandbox(t)
	api := newAPI(t)
	api.SetTurn(loop.TurnStudent, 1, &loop.APITask{Prompt: prompt})
	r, err := NewStudent(opts).Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: prompt, Sandbox: sb, Callback: api})
	require.NoError(t, err)
	return r, sb
}

// A CLI that refuses its command line (here gemini narrowed to 0.9.0's --output-format
// choices, the research case) fails once, is not retried, and the blocker quotes the
// CLI's error, not the last line of the help it prints after it.
func TestRefusedCommandLineQuotesTheCLIError(t *testing.T) {
	t.Parallel()
	r, _ := attemptOnce(t, Options{Provider: headless.Gemini, Install: fakeInstall(headless.Gemini), Backoff: time.Millisecond,
		Env: map[string]string{"FAKECLI_CHOICES": "--output-format=text,json"}}, "$ echo never-run\n")
	assert.Equal(t, loop.StudentCannotComplete, r.Status)
	want := "Invalid values:\n  Argument: output-format, Given: \"stream-json\", Choices: \"text\", \"json\""
	assert.Equal(t, want, r.Problem)
	assert.Contains(t, r.Reason, "failed (usage) after 1 attempt(s)")
	assert.NotContains(t, r.Problem, "--help", "not the help text")
	require.Len(t, r.LLMCalls, 1, "a refused command line is not retried")
	assert.Empty(t, r.Commands)
}

// A CLI without credentials exits before any work with its own message (gemini 0.56:
// stderr, exit 41); such a run did nothing, so it is retried, and the blocker quotes it.
func TestMissingAuthQuotesTheCLIMessage(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		headless.Claude: "Not logged in · Please run /login",
		headless.Codex:  "unexpected status 401 Unauthorized: Missing bearer or basic authentication in header",
		headless.Gemini: "Please set an Auth method in your /home/learner/.gemini/settings.json or specify one of the following environment variables before running: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA",
	}
	for provider, msg := range want {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			r, _ := attemptOnce(t, Options{Provider: provider, Install: fakeInstall(provider), Backoff: time.Millisecond, MaxAttempts: 2},
				"FAKECLI:NOAUTH\n$ echo never-run\n")
			assert.Equal(t, loop.StudentCannotComplete, r.Status)
			assert.Equal(t, msg, r.Problem)
			assert.Contains(t, r.Reason, "failed (auth) after 2 attempt(s)")
			assert.Len(t, r.LLMCalls, 2)
		})
	}
}

// A run that failed after it started working is not run again in the container it
// changed: the iteration ends with its evidence (the command it ran, the error), and
// its tokens are in the audit trail.
func TestFailureAfterWorkIsNotRetried(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{headless.Claude, headless.Codex, headless.Gemini} {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			r, sb := attemptOnce(t, Options{Provider: provider, Install: fakeInstall(provider), Backoff: time.Millisecond, MaxAttempts: 4},
				"FAKECLI:WORK_THEN_FAIL\n$ echo step-one > one.txt\n$ echo step-two\n")
			assert.Equal(t, loop.StudentCannotComplete, r.Status)
			assert.Contains(t, r.Reason, "failed (rate_limit) after 1 attempt(s)")
			require.Len(t, r.LLMCalls, 1, "no second run")
			require.Len(t, r.Commands, 1, "the evidence: what the run did")
			assert.Equal(t, "echo step-one > one.txt", r.Commands[0].Command)
			runs, err := os.ReadFile(filepath.Join(sb.Root, "fakecli-"+provider+"-runs"))
			require.NoError(t, err)
			assert.Equal(t, "1", string(runs))
		})
	}
}

// Each retried run's tokens, cost and duration are audit-trail calls like the final one.
func TestRetriedAttemptsAreBilledInTheAuditTrail(t *testing.T) {
	t.Parallel()
	p := headless.Payload{Provider: headless.Claude, Attempts: []headless.Attempt{
		{Kind: headless.ErrRateLimit, Message: "429", Model: "claude-x", InputTokens: 700, OutputTokens: 20, CostUSD: 0.004, DurationMS: 1500},
	}}
	calls := llmCalls("student", p, headless.Summary{InputTokens: 900, OutputTokens: 30, CostUSD: 0.006}, "")
	require.Len(t, calls, 2)
	assert.Equal(t, loop.LLMCall{Agent: "student", Provider: "claude", Model: "claude-x", TokensIn: 700, TokensOut: 20, CostUSD: 0.004,
		Duration: 1500 * time.Millisecond, Error: "rate_limit: 429"}, calls[0])
	assert.Equal(t, 900, calls[1].TokensIn)
}
