package api

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
)

// A write_file call cut off at the output limit is never run: the same request goes
// again with twice the room, and only the complete call writes the file.
func TestTruncatedToolCallIsNotRun(t *testing.T) {
	t.Parallel()
	content := "line one\nline two\nline three\nline four\n"
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			srv := newModelServer(t, provider, func(v view) reply {
				if len(v.ToolResults) == 0 {
					return reply{Calls: []call{tool("write_file", "path", "notes.txt", "content", content)}}
				}
				return reply{Calls: []call{tool("finish", "summary", "wrote notes")}}
			})
			srv.truncate = func(v view) bool { return v.MaxTokens < 2000 } // the first try has 1000
			sb := looptest.NewHostSandbox(t)
			s := NewStudent(Options{Client: clientFor(provider, srv.URL, RetryPolicy{}), Standard: "m",
				MaxTokens: config.TierTokens{Standard: 1000}})
			res, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "p", Behavior: behavior(), Sandbox: sb})
			require.NoError(t, err)
			assert.Equal(t, loop.StudentCompleted, res.Status)
			data, err := os.ReadFile(filepath.Join(sb.WorkDir(), "notes.txt"))
			require.NoError(t, err)
			assert.Equal(t, content, string(data), "only the complete call wrote the file")
			views := srv.views()
			require.Equal(t, 3, len(views))
			assert.Equal(t, []int{1000, 2000, 2000}, []int{views[0].MaxTokens, views[1].MaxTokens, views[2].MaxTokens}, "the room stays raised")
			assert.Equal(t, views[0].Assistant, views[1].Assistant, "the cut-off answer never entered the conversation")
			require.Len(t, res.LLMCalls, 3)
			assert.Contains(t, res.LLMCalls[0].Error, "cut off at 1000 output tokens")
			assert.Empty(t, res.LLMCalls[1].Error)
		})
	}
}

// An answer that stays cut off at four times the limit ends the attempt naming the
// setting to raise; nothing it asked for ran.
func TestAlwaysTruncatedEndsTheAttempt(t *testing.T) {
	t.Parallel()
	srv := newModelServer(t, "anthropic", func(view) reply {
		return reply{Calls: []call{tool("run_command", "command", "touch ran")}}
	})
	srv.truncate = func(view) bool { return true }
	sb := looptest.NewHostSandbox(t)
	s := NewStudent(Options{Client: clientFor("anthropic", srv.URL, RetryPolicy{}), Standard: "m", MaxTokens: config.TierTokens{Standard: 500}})
	res, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "p", Behavior: behavior(), Sandbox: sb})
	require.NoError(t, err)
	assert.Equal(t, loop.StudentCannotComplete, res.Status)
	assert.Contains(t, res.Reason, "cut off at 2000 output tokens (max_tokens)")
	assert.Contains(t, res.Reason, "raise llm.maxOutputTokens.standard")
	assert.NoFileExists(t, filepath.Join(sb.WorkDir(), "ran"))
	assert.Empty(t, res.Commands)
	var limits []int
	for _, v := range srv.views() {
		limits = append(limits, v.MaxTokens)
	}
	assert.Equal(t, []int{500, 1000, 2000}, limits)
}

// A model the provider does not serve gets the provider's answer quoted and the
// setting to change, and ends the run as the user's to fix (exit 2).
func TestUnknownModelNamesTheSetting(t *testing.T) {
	t.Parallel()
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			srv := newModelServer(t, provider, func(view) reply { return reply{Text: "notes"} })
			srv.known = []string{"student-model"}
			opts := Options{Client: clientFor(provider, srv.URL, RetryPolicy{Sleep: (&sleeper{}).sleep}), Standard: "student-model", Powerful: "retired-model"}
			_, err := NewMentor(opts).Advise(context.Background(), loop.MentorTask{Prompt: "p"})
			require.Error(t, err)
			var me *ModelError
			require.True(t, errors.As(err, &me))
			assert.Equal(t, "llm.models.powerful", me.Field)
			assert.Contains(t, err.Error(), "retired-model")
			assert.Contains(t, err.Error(), "set llm.models.powerful")
			assert.True(t, me.InvalidInput())
			var apiErr *APIError
			require.True(t, errors.As(err, &apiErr), "the provider's own answer is kept")
			assert.Equal(t, 404, apiErr.Status)
			assert.Len(t, srv.views(), 0)
		})
	}
}

// More room never goes past the model's own output limit (Gemini 3.x: 65,536), which
// the provider would refuse.
func TestMoreRoomStopsAtTheModelLimit(t *testing.T) {
	t.Parallel()
	srv := newModelServer(t, "gemini", func(view) reply { return reply{Calls: []call{tool("run_command", "command", "true")}} })
	srv.truncate = func(view) bool { return true }
	s := NewStudent(Options{Client: clientFor("gemini", srv.URL, RetryPolicy{}), Standard: "gemini-3.8-flash", MaxTokens: config.TierTokens{Standard: 40000}})
	res, err := s.Attempt(context.Background(), studentTask(t))
	require.NoError(t, err)
	assert.Contains(t, res.Reason, "cut off at 65536 output tokens (MAX_TOKENS)")
	var limits []int
	for _, v := range srv.views() {
		limits = append(limits, v.MaxTokens)
	}
	assert.Equal(t, []int{40000, 65536}, limits)
}
