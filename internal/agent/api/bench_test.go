package api

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
)

// BenchmarkPromptTokensPerIteration runs a 40-command Student attempt at iteration N
// (N-1 accumulated mentor notes in the prompt) against a local model server and
// reports the peak and mean prompt tokens of the Student's calls: with compaction
// (budget 8000) they stay flat as iterations grow.
func BenchmarkPromptTokensPerIteration(b *testing.B) {
	for _, iter := range []int{1, 5, 10, 20} {
		benchAttempt(b, iter, 8000)
	}
	// For comparison: the same 40-command attempt without compaction.
	benchAttempt(b, 1, 0)
}

func benchAttempt(b *testing.B, iter, budget int) {
	{
		b.Run(fmt.Sprintf("iteration=%d/budget=%d", iter, budget), func(b *testing.B) {
			var notes []string
			for i := 1; i < iter; i++ {
				notes = append(notes, fmt.Sprintf("Note %d: %s", i, strings.Repeat("install the missing package first; ", 8)))
			}
			prompt := "Tutorial ...\n\nMentor notes:\n" + strings.Join(notes, "\n")
			var peak, sum, n int
			for b.Loop() {
				srv := newBenchServer(b, longBrain(40))
				s := NewStudent(Options{Client: clientFor("anthropic", srv.URL, RetryPolicy{}), Fast: "f", Standard: "s", ContextTokenBudget: budget})
				res, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: iter, Prompt: prompt, Behavior: behavior(), Sandbox: looptest.NewHostSandbox(b)})
				if err != nil || res.Status != loop.StudentCompleted {
					b.Fatalf("attempt: %v %s %s", err, res.Status, res.Problem)
				}
				for _, c := range res.LLMCalls {
					if c.Agent == "student" {
						peak = max(peak, c.TokensIn)
						sum += c.TokensIn
						n++
					}
				}
				srv.Close()
			}
			b.ReportMetric(float64(peak), "peak-prompt-tokens")
			b.ReportMetric(float64(sum)/float64(max(n, 1)), "mean-prompt-tokens")
		})
	}
}
