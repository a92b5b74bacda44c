package loop

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The state machine of DESIGN.md: every phase but DONE has its method, every phase can
// end the run, and every transition leads to a phase of the table (or DONE).
func TestPhaseTable(t *testing.T) {
	t.Parallel()
	assert.ElementsMatch(t, []Phase{PhaseStart, PhaseStudent, PhaseCheck, PhaseMentor}, keys(phases))
	for from, p := range phases {
		assert.NotNil(t, p.do, from)
		assert.Contains(t, p.next, PhaseDone, "%s can end the run", from)
		for _, to := range p.next {
			if to != PhaseDone {
				assert.Contains(t, phases, to, "%s → %s", from, to)
			}
		}
	}
	assert.Equal(t, []Phase{PhaseStudent, PhaseCheck, PhaseDone}, phases[PhaseStart].next)
	assert.Equal(t, []Phase{PhaseMentor, PhaseDone}, phases[PhaseCheck].next, "only a question reaches the Mentor")
}

func keys[K comparable, V any](m map[K]V) []K {
	var out []K
	for k := range m {
		out = append(out, k)
	}
	return out
}
