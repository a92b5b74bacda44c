package loop

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetupRunsBeforeTheStudentEveryIteration(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var order []string
	student := &fakeStudent{attempt: func(_ context.Context, task StudentTask) (StudentResult, error) {
		mu.Lock()
		order = append(order, "student")
		mu.Unlock()
		return completed(), nil
	}}
	o, sb, _ := baseOptions(t, student, &fakeMentor{})
	o.Config.Setup = []string{"apt-get install -y golang", "  ", "go version"}
	sb.execFn = func(_ context.Context, req ExecRequest) (ExecResult, error) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, strings.TrimPrefix(req.Command, "set -o pipefail; "))
		return ExecResult{}, nil
	}
	st, err := Run(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, StatusCompleted, st.Status)
	assert.Equal(t, []string{"apt-get install -y golang", "go version", "student"}, order, "blank entries are skipped; setup comes first")
}

func TestFailingSetupIsAnEnvironmentErrorNotAGap(t *testing.T) {
	t.Parallel()
	student := &fakeStudent{attempt: func(context.Context, StudentTask) (StudentResult, error) {
		t.Error("the Student never starts when setup failed")
		return completed(), nil
	}}
	o, sb, _ := baseOptions(t, student, &fakeMentor{})
	o.Config.Setup = []string{"install-the-thing"}
	sb.execFn = func(context.Context, ExecRequest) (ExecResult, error) {
		return ExecResult{ExitCode: 127, Stderr: "bash: install-the-thing: command not found"}, nil
	}
	st, err := Run(context.Background(), o)
	require.Error(t, err)
	var se *SetupError
	require.True(t, errors.As(err, &se), "%v", err)
	assert.True(t, se.EnvironmentUnavailable())
	assert.Equal(t, 127, se.ExitCode)
	require.NotNil(t, st)
	assert.Equal(t, StatusError, st.Status)
	assert.Contains(t, st.FinalResult.Reason, "setup command 1 (`install-the-thing`) exited with 127")
	assert.Contains(t, st.FinalResult.Reason, "command not found")
	for _, it := range st.History {
		if it.Student != nil {
			assert.Empty(t, it.Student.Findings, "a setup failure is never a gap")
		}
	}
}
