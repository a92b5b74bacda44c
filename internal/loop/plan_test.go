package loop

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidatePlan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		steps   []PlanStep
		reasons []string // substrings, one per expected reason
	}{
		{"valid", []PlanStep{{ID: 1, Title: "install", StartLine: 3, EndLine: 5}, {ID: 2, Title: "run", StartLine: 6, EndLine: 9, DependsOn: []int{1}}}, nil},
		{"empty", nil, []string{"no steps"}},
		{"range past end", []PlanStep{{ID: 1, Title: "x", StartLine: 3, EndLine: 40}}, []string{"tutorial has 20 lines"}},
		{"reversed range", []PlanStep{{ID: 1, Title: "x", StartLine: 5, EndLine: 3}}, []string{"ends before it starts"}},
		{"zero line", []PlanStep{{ID: 1, Title: "x", StartLine: 0, EndLine: 3}}, []string{"lines start at 1"}},
		{"duplicate id and no title", []PlanStep{{ID: 1, Title: "a", StartLine: 1, EndLine: 1}, {ID: 1, StartLine: 2, EndLine: 2}}, []string{"id used twice", "no title"}},
		{"unknown dependency", []PlanStep{{ID: 1, Title: "a", StartLine: 1, EndLine: 1, DependsOn: []int{7}}}, []string{"step 7, which is not in the plan"}},
		{"self dependency", []PlanStep{{ID: 1, Title: "a", StartLine: 1, EndLine: 1, DependsOn: []int{1}}}, []string{"depends on itself"}},
		{"cycle", []PlanStep{
			{ID: 1, Title: "a", StartLine: 1, EndLine: 1, DependsOn: []int{3}},
			{ID: 2, Title: "b", StartLine: 2, EndLine: 2, DependsOn: []int{1}},
			{ID: 3, Title: "c", StartLine: 3, EndLine: 3, DependsOn: []int{2}},
		}, []string{"cycle: 1 → 3 → 2 → 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := ValidatePlan(tt.steps, 20)
			if tt.reasons == nil {
				require.NoError(t, err)
				return
			}
			var pe *PlanError
			require.True(t, errors.As(err, &pe), "%v", err)
			require.Len(t, pe.Reasons, len(tt.reasons), "%v", pe.Reasons)
			for i, want := range tt.reasons {
				assert.Contains(t, pe.Reasons[i], want)
			}
		})
	}
}

func TestStepLabel(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "step 2 of 2: b", StepLabel(2, 2, "b"))
}
