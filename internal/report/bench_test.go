package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile-loop/internal/agent/none"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// bigState: 20 iterations of 50 commands (4 KiB output each) and 5 findings.
func bigState() *loop.State {
	st := baseState("testdata/tutorial.md", loop.StatusMaxIterations)
	out := strings.Repeat("some compiler output line\n", 160)
	for i := 1; i <= 20; i++ {
		res := &loop.StudentResult{StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor, CurrentStep: "Install"}}
		for c := range 50 {
			res.Commands = append(res.Commands, loop.CommandRecord{Iteration: i, Line: 14, Command: fmt.Sprintf("npm run step-%d", c),
				ExitCode: c % 3, Duration: time.Second, Output: out})
		}
		res.Findings = []loop.Finding{
			{Command: "npm install", ExitCode: 127, Class: loop.ClassMissingDependency, Output: "npm: command not found"},
			{Quote: "Run the setup script to configure the database", Trigger: loop.TriggerAmbiguousInstruction, Problem: "which script?"},
			{Step: "Run", Command: "npm start", Class: loop.ClassTimeout},
			{Line: 38, Problem: "tests fail", Class: loop.ClassTestFailure, Command: "npm test", ExitCode: 1},
			{Step: fmt.Sprintf("Unknown step %d", i), Problem: "lost"},
		}
		res.LLMCalls = []loop.LLMCall{{Agent: "student", Provider: "claude", TokensIn: 1000, TokensOut: 100, Duration: time.Second}}
		st.History = append(st.History, loop.Iteration{Iteration: i, Started: at(i * 60), Ended: at(i*60 + 50), Student: res,
			Mentor: &loop.MentorRecord{Notes: "- Install Node.js.\n- The script is scripts/setup.sh.\n- npm start keeps running."}})
	}
	return st
}

func BenchmarkBuild(b *testing.B) {
	st := bigState()
	tut := loadTutorial(b, "tutorial.md")
	opts := Options{RuleFix: none.Fix, Now: fixedNow, Secrets: []string{canary, "another-secret-value"}}
	b.ReportAllocs()
	for b.Loop() {
		_ = Build(st, tut, opts)
	}
}

func BenchmarkRender(b *testing.B) {
	r := Build(bigState(), loadTutorial(b, "tutorial.md"), Options{RuleFix: none.Fix, Now: fixedNow, Secrets: []string{canary}})
	b.ReportAllocs()
	for b.Loop() {
		_ = RenderMarkdown(r)
		if _, err := RenderJSON(r); err != nil {
			b.Fatal(err)
		}
		if _, err := RenderSARIF(r); err != nil {
			b.Fatal(err)
		}
		_ = RenderAuditLog(r)
	}
}
