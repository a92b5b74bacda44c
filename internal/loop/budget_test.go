package loop

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spent is an agent error that says the run's LLM budget is spent.
type spent struct{}

func (spent) Error() string {
	return "the run's LLM budget is spent: 1200 tokens past llm.budget.maxTokens 1000"
}
func (spent) BudgetExceeded() bool { return true }

// A spent budget ends the run at once as budget_exceeded, from the Student or the
// Mentor, with the reason kept; no further iteration starts.
func TestBudgetExceededEndsTheRun(t *testing.T) {
	t.Parallel()
	for _, who := range []string{"student", "mentor"} {
		t.Run(who, func(t *testing.T) {
			t.Parallel()
			attempts := 0
			student := &fakeStudent{attempt: func(context.Context, StudentTask) (StudentResult, error) {
				attempts++
				if who == "student" {
					return StudentResult{LLMCalls: []LLMCall{{Agent: "student", TokensIn: 1200}}}, spent{}
				}
				return ask("it broke"), nil
			}}
			mentor := &fakeMentor{advise: func(context.Context, MentorTask) (MentorResult, error) { return MentorResult{}, spent{} }}
			o, _, _ := baseOptions(t, student, mentor)
			o.Config.MaxIterations = 5
			st, err := Run(context.Background(), o)
			require.NoError(t, err)
			assert.Equal(t, StatusBudgetExceeded, st.Status)
			assert.Equal(t, 1, attempts)
			require.NotNil(t, st.FinalResult)
			assert.Contains(t, st.FinalResult.Reason, "budget is spent")
			if who == "student" {
				require.NotNil(t, st.History[0].Student, "the spending attempt stays in the history")
				assert.Equal(t, 1200, st.History[0].Student.LLMCalls[0].TokensIn)
			}
		})
	}
}
