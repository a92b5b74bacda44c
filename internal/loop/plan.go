package loop

import (
	"fmt"
	"slices"
	"strings"
)

// MaxPlanSteps bounds a submitted plan.
const MaxPlanSteps = 500

// PlanError lists every reason a plan was rejected.
type PlanError struct{ Reasons []string }

func (e *PlanError) Error() string {
	return "plan rejected: " + strings.Join(e.Reasons, "; ")
}

// ValidatePlan checks a Student's plan against a tutorial of lineCount lines: at least
// one step, unique positive ids, a title, every cited line range inside the tutorial,
// dependencies on existing other steps, and no dependency cycle. It reports every
// problem at once.
func ValidatePlan(steps []PlanStep, lineCount int) error {
	var reasons []string
	if len(steps) == 0 {
		return &PlanError{Reasons: []string{"the plan has no steps"}}
	}
	if len(steps) > MaxPlanSteps {
		return &PlanError{Reasons: []string{fmt.Sprintf("the plan has %d steps, at most %d are accepted", len(steps), MaxPlanSteps)}}
	}
	ids := map[int]bool{}
	for i, s := range steps {
		name := fmt.Sprintf("step %d", s.ID)
		if s.ID <= 0 {
			reasons = append(reasons, fmt.Sprintf("step #%d has id %d: ids must be positive", i+1, s.ID))
		} else if ids[s.ID] {
			reasons = append(reasons, fmt.Sprintf("%s: id used twice", name))
		}
		ids[s.ID] = true
		if strings.TrimSpace(s.Title) == "" {
			reasons = append(reasons, name+": no title")
		}
		switch {
		case s.StartLine < 1 || s.EndLine < 1:
			reasons = append(reasons, fmt.Sprintf("%s cites lines %d-%d: lines start at 1", name, s.StartLine, s.EndLine))
		case s.StartLine > s.EndLine:
			reasons = append(reasons, fmt.Sprintf("%s cites lines %d-%d: the range ends before it starts", name, s.StartLine, s.EndLine))
		case s.EndLine > lineCount:
			reasons = append(reasons, fmt.Sprintf("%s cites lines %d-%d but the tutorial has %d lines", name, s.StartLine, s.EndLine, lineCount))
		}
	}
	for _, s := range steps {
		for _, d := range s.DependsOn {
			switch {
			case d == s.ID:
				reasons = append(reasons, fmt.Sprintf("step %d depends on itself", s.ID))
			case !ids[d]:
				reasons = append(reasons, fmt.Sprintf("step %d depends on step %d, which is not in the plan", s.ID, d))
			}
		}
	}
	if cycle := findCycle(steps); len(cycle) > 0 {
		parts := make([]string, len(cycle))
		for i, id := range cycle {
			parts[i] = fmt.Sprint(id)
		}
		reasons = append(reasons, "dependencies form a cycle: "+strings.Join(parts, " → "))
	}
	if len(reasons) > 0 {
		return &PlanError{Reasons: reasons}
	}
	return nil
}

// findCycle returns one dependency cycle (first id repeated at the end), nil when the
// dependencies form a DAG. Self-dependencies are reported separately and skipped here.
func findCycle(steps []PlanStep) []int {
	deps := map[int][]int{}
	for _, s := range steps {
		for _, d := range s.DependsOn {
			if d != s.ID {
				deps[s.ID] = append(deps[s.ID], d)
			}
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := map[int]int{}
	var stack []int
	var cycle []int
	var visit func(id int) bool
	visit = func(id int) bool {
		color[id] = grey
		stack = append(stack, id)
		for _, d := range deps[id] {
			switch color[d] {
			case grey:
				i := slices.Index(stack, d)
				cycle = append(append([]int{}, stack[i:]...), d)
				return true
			case white:
				if visit(d) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[id] = black
		return false
	}
	for _, s := range steps {
		if color[s.ID] == white && visit(s.ID) {
			return cycle
		}
	}
	return nil
}

// StepLabel is "step i of n: title".
func StepLabel(i, n int, title string) string {
	return fmt.Sprintf("step %d of %d: %s", i, n, title)
}
