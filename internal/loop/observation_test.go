package loop

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNewFinding(t *testing.T) {
	t.Parallel()
	out := "\n" + strings.Repeat("progress line\n", 100) + "Error: EACCES: permission denied\n\n"
	f := NewFinding(Observed{Step: "Install", Quote: "npm install -g", Problem: "permission denied", Question: "sudo?",
		Trigger: TriggerCommandFailure, Iteration: 3,
		Failed: &CommandRecord{Command: "npm install -g x", ExitCode: 243, Class: ClassCommandFailure, Output: out, Line: 12}})
	assert.Equal(t, "Install", f.Step)
	assert.Equal(t, "npm install -g", f.Quote)
	assert.Equal(t, "permission denied", f.Problem)
	assert.Equal(t, "sudo?", f.Question)
	assert.Equal(t, TriggerCommandFailure, f.Trigger)
	assert.Equal(t, 3, f.Iteration)
	assert.Equal(t, "npm install -g x", f.Command)
	assert.Equal(t, 243, f.ExitCode)
	assert.Equal(t, ClassCommandFailure, f.Class)
	assert.Equal(t, ClipMiddle(strings.TrimSpace(out), maxObservedOutput), f.Output, "head and tail kept, trimmed")
	assert.Contains(t, f.Output, "bytes omitted")
	assert.True(t, strings.HasSuffix(f.Output, "Error: EACCES: permission denied"), "the end of the output is kept, trimmed")
	assert.Zero(t, f.Line, "where the finding is, is Locate's to say")
	assert.Empty(t, f.Located)
	assert.Empty(t, f.Severity, "CompleteFindings categorises")

	f = NewFinding(Observed{Problem: "the CLI failed"})
	assert.Empty(t, f.Command)
	assert.Zero(t, f.ExitCode)
}
