package report

import (
	"cmp"
	"fmt"

	"github.com/smile-loop/smile-loop/internal/loop"
)

func buildAudit(st *loop.State, maxOutput int) AuditTrail {
	a := AuditTrail{Commands: []CommandEntry{}, Files: []FileEntry{}, LLMCalls: []LLMCallEntry{}}
	addCalls := func(iter int, calls []loop.LLMCall) {
		for _, c := range calls {
			a.LLMCalls = append(a.LLMCalls, LLMCallEntry{Iteration: iter, Agent: c.Agent, Provider: c.Provider,
				Model: c.Model, TokensIn: c.TokensIn, CachedIn: c.CachedTokensIn, TokensOut: c.TokensOut,
				DurationMS: c.Duration.Milliseconds(), CostUSD: c.CostUSD, Error: c.Error})
		}
	}
	for _, it := range st.History {
		if s := it.Student; s != nil {
			for _, c := range s.Commands {
				out, cut := truncateMiddle(c.Output, maxOutput)
				a.Commands = append(a.Commands, CommandEntry{
					Iteration: cmp.Or(c.Iteration, it.Iteration), Step: c.Step, Line: c.Line, Command: c.Command,
					ExitCode: c.ExitCode, TimedOut: c.TimedOut, Background: c.Background,
					DurationMS: c.Duration.Milliseconds(), Class: string(c.Class),
					Summary: commandSummary(c), Output: out, OutputTruncated: cut || c.OutputPath != "" && len(c.Output) >= maxOutput,
				})
			}
			for _, f := range s.Files {
				a.Files = append(a.Files, FileEntry{Iteration: cmp.Or(f.Iteration, it.Iteration), Path: f.Path, Size: f.Size})
			}
			addCalls(it.Iteration, s.LLMCalls)
		}
		if m := it.Mentor; m != nil {
			addCalls(it.Iteration, m.LLMCalls)
		}
	}
	return a
}

// commandSummary is one line about a command's outcome.
func commandSummary(c loop.CommandRecord) string {
	if s := oneLine(c.Summary); s != "" {
		return s
	}
	switch {
	case c.TimedOut:
		return "timed out"
	case c.Background:
		return "left running in the background"
	}
	lines := nonEmptyLines(c.Output)
	if len(lines) == 0 {
		if c.ExitCode == 0 {
			return "ok, no output"
		}
		return fmt.Sprintf("exit %d, no output", c.ExitCode)
	}
	if c.ExitCode != 0 {
		return loop.Clip(lines[len(lines)-1], 160) // errors are at the end
	}
	return loop.Clip(lines[0], 160)
}
