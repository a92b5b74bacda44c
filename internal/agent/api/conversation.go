package api

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// conversation is one agent's exchange with a model: the messages so far, the calls
// made (for the audit trail) and the compaction that keeps it under the token budget.
type conversation struct {
	client      Client
	agent       string // student, mentor
	model       string
	tier        string // the config field that names model (llm.models.standard…)
	system      string
	tools       *Registry
	msgs        []Message
	maxTokens   int // llm.maxOutputTokens of the tier
	room        int // the output limit in use: raised after a truncated answer, for the rest of the conversation
	callTimeout time.Duration
	compactor   *compactor
	meter       *provider.Meter // llm.budget, shared by the run's agents
	calls       []loop.LLMCall
	lastInput   int  // input tokens of the last call
	compacted   bool // compacted since the last call: lastInput is stale
	// PromptTokens of every call, in order (the benchmark reads them).
	promptTokens []int
}

// next asks the model for its next message and appends it.
func (c *conversation) next(ctx context.Context) (Response, error) {
	if c.compactor != nil {
		last := c.lastInput
		if c.compacted {
			last = 0
		}
		msgs, call, err := c.compactor.maybeCompact(ctx, c.system, c.tools, c.msgs, last)
		if call != nil {
			c.calls = append(c.calls, *call)
		}
		if err == nil && len(msgs) != len(c.msgs) {
			c.msgs = msgs
			c.compacted = true
		}
	}
	cctx := ctx
	if c.callTimeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, c.callTimeout)
		defer cancel()
	}
	var specs []ToolSpec
	if c.tools != nil {
		specs = c.tools.Specs()
	}
	// A truncated answer is never used: its tool calls may carry cut-off arguments
	// (a half-written file). It is asked again with twice the room, up to 4 times
	// llm.maxOutputTokens, then the attempt ends with an error naming the setting.
	if c.room < c.maxTokens {
		c.room = c.maxTokens
	}
	limit := c.room
	var (
		resp Response
		err  error
	)
	for {
		if err := c.meter.Check(); err != nil {
			return Response{}, err
		}
		start := time.Now()
		resp, err = c.client.Complete(cctx, Request{Model: c.model, System: c.system, Messages: c.msgs, Tools: specs, MaxTokens: limit})
		rec := loop.LLMCall{
			Agent: c.agent, Provider: c.client.Provider(), Model: c.model,
			TokensIn: resp.Usage.InputTokens, CachedTokensIn: resp.Usage.CachedInputTokens, TokensOut: resp.Usage.OutputTokens,
			Duration: time.Since(start),
		}
		if resp.Model != "" {
			rec.Model = resp.Model
		}
		usd, overErr := c.meter.Add(rec.Model, meterUsage(resp.Usage))
		rec.CostUSD = usd
		if err == nil && overErr != nil {
			err = overErr // the answer came, but the run may not act on it
		}
		if err != nil {
			err = c.explain(err)
			rec.Error = err.Error()
			c.calls = append(c.calls, rec)
			if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
				return resp, fmt.Errorf("model call exceeded %s: %w", c.callTimeout, err)
			}
			return resp, err
		}
		if !resp.Truncated {
			c.calls = append(c.calls, rec)
			break
		}
		trunc := &TruncatedError{Model: rec.Model, Limit: limit, StopReason: resp.StopReason, Field: maxTokensField(c.tier)}
		rec.Error = trunc.Error()
		c.calls = append(c.calls, rec)
		next := limit * 2
		if capped := provider.MaxOutputOf(c.model); capped > 0 {
			next = min(next, capped) // the provider refuses more than its model's output limit
		}
		if c.maxTokens <= 0 || limit >= 4*c.maxTokens || next <= limit {
			return resp, trunc
		}
		limit = next
		c.room = limit
	}
	c.lastInput = resp.Usage.InputTokens
	c.compacted = false
	c.promptTokens = append(c.promptTokens, resp.Usage.InputTokens)
	if resp.Message.Text() == "" && len(resp.Message.ToolCalls()) == 0 {
		// Providers reject empty assistant messages in the history.
		resp.Message.Parts = []Part{{Text: "(no answer)"}}
	}
	c.msgs = append(c.msgs, resp.Message)
	return resp, nil
}

func meterUsage(u Usage) provider.Usage {
	return provider.Usage{Input: u.InputTokens, CachedRead: u.CachedInputTokens, CacheWrite: u.CacheWriteTokens, Output: u.OutputTokens}
}

// reply appends a user message (tool results and/or text).
func (c *conversation) reply(parts ...Part) {
	if len(parts) == 0 {
		return
	}
	c.msgs = append(c.msgs, Message{Role: RoleUser, Parts: parts})
}

func oneLine(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// callTools runs the model's tool calls in order, counting every call in steps and the
// failing ones in a row in consecutive (a success resets it). Cancellation is checked
// after every call; finished reports that a call ended the attempt, which stops the rest.
func (c *conversation) callTools(ctx context.Context, calls []ToolCall, steps, consecutive *int, finished func() bool) ([]Part, error) {
	var results []Part
	for _, call := range calls {
		*steps++
		tr := c.tools.Call(ctx, call)
		results = append(results, Part{ToolResult: &tr})
		if tr.IsError {
			*consecutive++
		} else {
			*consecutive = 0
		}
		if err := ctx.Err(); err != nil {
			return results, err
		}
		if finished() {
			break
		}
	}
	return results, nil
}
