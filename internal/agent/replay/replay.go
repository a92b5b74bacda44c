// Package replay plays back a recorded scenario (llmProvider "replay"): the Student
// results and Mentor notes of a scenario file, in order, without any LLM. Every run
// writes such a file (scenario.json in its output directory), so any run can be
// reproduced deterministically.
package replay

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// ScenarioError: the scenario file is missing or malformed; the user fixes the path or
// the file.
type ScenarioError struct {
	Path string
	Err  error
}

func (e *ScenarioError) Error() string {
	return fmt.Sprintf("replay scenario %s: %v (set \"scenario\" in smile.json to a file like {\"student\": [{\"status\": \"completed\"}], \"mentor\": []})", e.Path, e.Err)
}

func (e *ScenarioError) Unwrap() error { return e.Err }

// InvalidInput marks the error as the user's to fix.
func (e *ScenarioError) InvalidInput() bool { return true }

// Player hands out a scenario's answers. The Student answer of iteration n is entry
// n-1; the Mentor answer is the entry after the notes already given, so a resumed run
// continues where it stopped.
type Player struct {
	sc loop.Scenario
}

// Load reads a scenario file.
func Load(path string) (*Player, error) {
	if path == "" {
		return nil, &ScenarioError{Path: "(none)", Err: errors.New("llmProvider \"replay\" needs a scenario file")}
	}
	if _, err := os.Stat(path); err != nil {
		return nil, &ScenarioError{Path: path, Err: err}
	}
	sc, err := loop.ReadScenario(path)
	if err != nil {
		return nil, &ScenarioError{Path: path, Err: err}
	}
	if len(sc.Student) == 0 {
		return nil, &ScenarioError{Path: path, Err: errors.New("it has no student results")}
	}
	for i, r := range sc.Student {
		if loop.NormalizeStudentStatus(r.Status) == "" {
			return nil, &ScenarioError{Path: path, Err: fmt.Errorf("student result %d has status %q; use completed, ask_mentor or cannot_complete", i+1, r.Status)}
		}
	}
	return New(sc), nil
}

// New plays back sc.
func New(sc loop.Scenario) *Player { return &Player{sc: sc} }

// Student is the scenario's Student.
func (p *Player) Student() loop.Student { return student{p} }

// Mentor is the scenario's Mentor.
func (p *Player) Mentor() loop.Mentor { return mentor{p} }

type student struct{ p *Player }

func (s student) Attempt(ctx context.Context, task loop.StudentTask) (loop.StudentResult, error) {
	if err := ctx.Err(); err != nil {
		return loop.StudentResult{}, err
	}
	i := task.Iteration - 1
	if i < 0 || i >= len(s.p.sc.Student) {
		return loop.StudentResult{}, fmt.Errorf("the scenario has %d student result(s); iteration %d has none", len(s.p.sc.Student), task.Iteration)
	}
	r := s.p.sc.Student[i]
	r.Status = loop.NormalizeStudentStatus(r.Status)
	r.Findings = append([]loop.Finding(nil), r.Findings...)
	r.Commands = append([]loop.CommandRecord(nil), r.Commands...)
	for _, c := range r.Commands {
		task.Events.Emit(loop.NewEvent(loop.EventCommand, c))
	}
	return r, nil
}

type mentor struct{ p *Player }

func (m mentor) Advise(ctx context.Context, task loop.MentorTask) (loop.MentorResult, error) {
	if err := ctx.Err(); err != nil {
		return loop.MentorResult{}, err
	}
	i := len(task.Notes)
	if i >= len(m.p.sc.Mentor) {
		return loop.MentorResult{}, fmt.Errorf("the scenario has %d mentor note(s); answer %d is missing", len(m.p.sc.Mentor), i+1)
	}
	n := m.p.sc.Mentor[i]
	return loop.MentorResult{Notes: n.Notes, Fixes: n.Fixes, Unresolvable: n.Unresolvable}, nil
}
