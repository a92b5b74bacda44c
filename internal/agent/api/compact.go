package api

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// Compaction keeps a long attempt under the context token budget: the first 2 and the
// last 4 messages stay verbatim and the middle becomes one summary under fixed headings,
// written by the fast model. Tool calls and their results are never split: the kept
// head absorbs the results answering its calls and the kept tail starts at an
// assistant message.

// summaryHeadings are the fixed sections of a compaction summary.
var summaryHeadings = []string{"## Goal", "## Progress so far", "## Commands and results", "## Files", "## Open problems"}

const compactionSystem = `You compress the middle of an agent's working session so it can continue with less context.
Write a faithful summary using exactly these headings, in this order, each followed by short bullet points:
## Goal
## Progress so far
## Commands and results
## Files
## Open problems
Keep exact commands, exit codes, file paths and error messages. Do not invent anything. No other text.`

type compactor struct {
	client    Client
	model     string // fast tier
	budget    int    // tokens
	maxTokens int    // output limit of a summary (llm.maxOutputTokens.fast)
	meter     *provider.Meter
}

// estimateTokens is a cheap size estimate (about 4 characters per token).
func estimateTokens(system string, tools *Registry, msgs []Message) int {
	n := len(system)
	if tools != nil {
		for _, s := range tools.Specs() {
			n += len(s.Name) + len(s.Description) + len(s.Schema)
		}
	}
	for _, m := range msgs {
		n += m.size()
	}
	return n / 4
}

// maybeCompact returns msgs unchanged when under budget, else the compacted messages.
// lastInput is the provider's count for the last call (0 when unknown or stale).
func (c *compactor) maybeCompact(ctx context.Context, system string, tools *Registry, msgs []Message, lastInput int) ([]Message, *loop.LLMCall, error) {
	if c == nil || c.budget <= 0 {
		return msgs, nil, nil
	}
	if max(lastInput, estimateTokens(system, tools, msgs)) <= c.budget {
		return msgs, nil, nil
	}
	head, middle, tail, ok := split(msgs)
	if !ok {
		return msgs, nil, nil
	}
	summary, call := c.summarise(ctx, middle)
	// The summary goes into the user message that follows the kept head: together with
	// any tool results answering the head's last assistant message.
	var headResults []Part
	if len(head) == 3 { // head[2] holds the results for head[1]'s tool calls
		headResults = head[2].Parts
		head = head[:2]
	}
	parts := append(append([]Part{}, headResults...), Part{Text: "[smile-loop: earlier steps of this attempt, summarised to save context]\n" + summary})
	out := make([]Message, 0, len(head)+1+len(tail))
	out = append(out, head...)
	out = append(out, Message{Role: RoleUser, Parts: parts})
	out = append(out, tail...)
	return out, call, nil
}

// split cuts msgs into the kept head (first 2, plus the results answering the second),
// the middle to summarise and the kept tail (last 4, extended to start at an assistant
// message). ok is false when there is no middle worth summarising.
func split(msgs []Message) (head, middle, tail []Message, ok bool) {
	if len(msgs) < 8 {
		return nil, nil, nil, false
	}
	h := 2
	if len(msgs[1].ToolCalls()) > 0 && msgs[2].Role == RoleUser {
		h = 3
	}
	t := len(msgs) - 4
	for t > h && msgs[t].Role != RoleAssistant {
		t--
	}
	if t-h < 2 {
		return nil, nil, nil, false
	}
	return msgs[:h], msgs[h:t], msgs[t:], true
}

// summarise asks the fast model for the summary. If that fails it falls back to a
// mechanical digest, so a compaction failure never ends an attempt.
func (c *compactor) summarise(ctx context.Context, middle []Message) (string, *loop.LLMCall) {
	transcript := renderTranscript(middle)
	if c.meter.Check() != nil { // a spent budget: the next model call will say so
		return mechanicalSummary(middle), nil
	}
	start := time.Now()
	resp, err := c.client.Complete(ctx, Request{
		Model:     c.model,
		System:    compactionSystem,
		Messages:  []Message{{Role: RoleUser, Parts: []Part{{Text: transcript}}}},
		MaxTokens: c.maxTokens,
	})
	call := &loop.LLMCall{Agent: "compaction", Provider: c.client.Provider(), Model: c.model,
		TokensIn: resp.Usage.InputTokens, CachedTokensIn: resp.Usage.CachedInputTokens, TokensOut: resp.Usage.OutputTokens, Duration: time.Since(start)}
	call.CostUSD, _ = c.meter.Add(cmp.Or(resp.Model, c.model), meterUsage(resp.Usage))
	if err == nil && resp.Truncated { // a cut-off summary would lose the end: use the digest
		err = &TruncatedError{Model: c.model, Limit: c.maxTokens, StopReason: resp.StopReason, Field: maxTokensField(tierFast)}
	}
	text := strings.TrimSpace(resp.Message.Text())
	if err != nil || text == "" {
		if err != nil {
			call.Error = err.Error()
		}
		return mechanicalSummary(middle), call
	}
	return ensureHeadings(text), call
}

// ensureHeadings adds any fixed heading the model left out, so the structure is stable.
func ensureHeadings(s string) string {
	for _, h := range summaryHeadings {
		if !strings.Contains(s, h) {
			s += "\n" + h + "\n- (none)"
		}
	}
	return s
}

func renderTranscript(msgs []Message) string {
	var b strings.Builder
	for _, m := range msgs {
		for _, p := range m.Parts {
			switch {
			case p.ToolCall != nil:
				fmt.Fprintf(&b, "[%s called %s %s]\n", m.Role, p.ToolCall.Name, loop.ClipMiddle(string(p.ToolCall.Args), 2000))
			case p.ToolResult != nil:
				status := "ok"
				if p.ToolResult.IsError {
					status = "error"
				}
				fmt.Fprintf(&b, "[result of %s (%s)]\n%s\n", p.ToolResult.Name, status, loop.ClipMiddle(p.ToolResult.Content, 2000))
			case p.Text != "":
				fmt.Fprintf(&b, "[%s]\n%s\n", m.Role, loop.ClipMiddle(p.Text, 4000))
			}
		}
	}
	return b.String()
}

func mechanicalSummary(msgs []Message) string {
	var cmds []string
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.ToolCall != nil {
				cmds = append(cmds, "- "+p.ToolCall.Name+" "+oneLine(string(p.ToolCall.Args), 200))
			}
			if p.ToolResult != nil {
				cmds = append(cmds, "  → "+oneLine(p.ToolResult.Content, 200))
			}
		}
	}
	return "## Goal\n- follow the tutorial\n## Progress so far\n- (summary unavailable; digest of tool calls below)\n## Commands and results\n" +
		strings.Join(cmds, "\n") + "\n## Files\n- (see commands)\n## Open problems\n- (see commands)"
}
