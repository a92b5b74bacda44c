package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
	"github.com/smile-loop/smile-loop/internal/loop"
)

// maxNotes bounds the notes (6.E2: about 2000 tokens).
const maxNotes = 8000

// Advise implements loop.Mentor.
func (m *Mentor) Advise(ctx context.Context, task loop.MentorTask) (loop.MentorResult, error) {
	if m.opts.Provider == headless.Codex {
		return loop.MentorResult{}, fmt.Errorf("cli runtime: %w (cli.New does this)", headless.ErrNoCodexMentor)
	}
	p, err := runWrapper(ctx, m.opts, m.proxy, task.Sandbox, task.Callback, headless.RoleMentor, task.Iteration, m.opts.MentorModel)
	if err != nil {
		return loop.MentorResult{}, err
	}
	return mentorResult(p, m.opts.MentorModel), m.proxy.overBudget()
}

func mentorResult(p headless.Payload, model string) loop.MentorResult {
	sum := headless.ParseStream(p.Provider, p.Stream)
	r := loop.MentorResult{LLMCalls: llmCalls("mentor", p, sum, model)}
	if p.Error != nil {
		// 6.E1: retried by the wrapper; a Mentor that cannot be reached leaves the blocker unresolvable.
		r.Notes = "The mentor could not be consulted: " + p.Error.Message
		r.Unresolvable = true
		return r
	}
	r.Notes = strings.TrimSpace(sum.FinalText)
	if len(r.Notes) > maxNotes {
		r.Notes = r.Notes[:maxNotes] + "\n[notes truncated]"
	}
	if r.Notes == "" {
		r.Notes = "The mentor gave no notes."
		r.Unresolvable = true
	}
	lower := strings.ToLower(r.Notes)
	if strings.Contains(lower, "unresolvable") && !strings.Contains(lower, "not unresolvable") {
		r.Unresolvable = true
	}
	return r
}

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
