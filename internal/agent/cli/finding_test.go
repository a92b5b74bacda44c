package cli

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
	"github.com/smile-loop/smile-loop/internal/loop"
)

// The Student's finding is made by loop.NewFinding from what it observed; the failing
// command it ran is the finding's, unless the CLI itself failed: then the CLI's error
// is the problem and no tutorial command is blamed.
func TestFindingFromWhatTheStudentObserved(t *testing.T) {
	t.Parallel()
	stream, err := os.ReadFile("testdata/streams/codex-ask.jsonl")
	require.NoError(t, err)
	p := headless.Payload{Provider: headless.Codex, Stream: string(stream)}

	r := studentResult(p, 2, "", loop.Discard)
	require.Equal(t, loop.StudentAskMentor, r.Status)
	require.Len(t, r.Findings, 1)
	f := r.Findings[0]
	assert.Equal(t, "greet --version", f.Command)
	assert.Equal(t, 127, f.ExitCode)
	assert.Equal(t, loop.ClassMissingDependency, f.Class)
	assert.Equal(t, "bash: line 1: greet: command not found", f.Output)
	assert.Equal(t, r.Trigger, f.Trigger)
	assert.Equal(t, r.QuestionForMentor, f.Question)
	assert.Equal(t, 2, f.Iteration)

	p.Error = &headless.RunError{Kind: "rate_limit", Message: "429 Too Many Requests"}
	r = studentResult(p, 2, "", loop.Discard)
	require.Equal(t, loop.StudentCannotComplete, r.Status)
	require.Len(t, r.Findings, 1)
	assert.Equal(t, "429 Too Many Requests", r.Findings[0].Problem)
	assert.Empty(t, r.Findings[0].Command, "the CLI's own error is not the failing command")
	assert.Empty(t, r.Findings[0].Class)
}
