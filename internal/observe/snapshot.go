package observe

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// Snapshot is the current state of a run as an observer sees it: the `{state}` of the
// `connected` event, sent to every new or reconnecting observer (8.1, 8.E2).
type Snapshot struct {
	RunID          string      `json:"runId,omitempty"`
	Tutorial       string      `json:"tutorial,omitempty"`
	Status         loop.Status `json:"status"`
	Phase          loop.Phase  `json:"phase"`
	Iteration      int         `json:"iteration"`
	MaxIterations  int         `json:"maxIterations,omitempty"`
	StartTime      time.Time   `json:"startTime,omitzero"`
	EndTime        time.Time   `json:"endTime,omitzero"`
	IterationStart time.Time   `json:"iterationStart,omitzero"`
	// CurrentStep is the step of the Student's plan being worked on, as the Student names it.
	CurrentStep string `json:"currentStep,omitempty"`
	CurrentLine int    `json:"currentLine,omitempty"`
	// Plan is the Student's accepted plan; PlanStep is the 1-based index of CurrentStep in
	// it (0 when unknown), so a client can show "step 4 of 11".
	Plan     []loop.PlanStep `json:"plan,omitempty"`
	PlanStep int             `json:"planStep,omitempty"`
	// Commands holds the most recent commands (at most HubOptions.MaxCommands);
	// CommandsTotal counts all of them.
	Commands      []loop.CommandRecord `json:"commands"`
	CommandsTotal int                  `json:"commandsTotal"`
	MentorNotes   []string             `json:"mentorNotes"`
	// Gaps are the findings so far, one per tutorial place and problem.
	Gaps        []loop.Finding          `json:"gaps"`
	Student     *loop.StudentOutputData `json:"student,omitempty"`
	LastTrigger *loop.TriggerData       `json:"lastTrigger,omitempty"`
	Final       *loop.LoopCompleteData  `json:"final,omitempty"`
	Error       string                  `json:"error,omitempty"`
}

// ConnectedData is the payload of the `connected` event.
type ConnectedData struct {
	State Snapshot `json:"state"`
}

// Bounds of what a snapshot keeps, so a long run cannot grow it without limit.
const (
	defaultMaxCommands = 50
	maxNotes           = 100
	maxGaps            = 200
)

func newSnapshot(o HubOptions, now time.Time) Snapshot {
	return Snapshot{
		RunID:         o.RunID,
		Tutorial:      o.Tutorial,
		Status:        loop.StatusRunning,
		Phase:         loop.PhaseStart,
		MaxIterations: o.MaxIterations,
		StartTime:     now,
		Commands:      []loop.CommandRecord{},
		MentorNotes:   []string{},
		Gaps:          []loop.Finding{},
	}
}

// view copies the snapshot deeply enough that later apply calls cannot change it, with at
// most maxCommands commands.
func (s Snapshot) view(maxCommands int) Snapshot {
	s.Plan = slices.Clone(s.Plan)
	s.Commands = slices.Clone(s.Commands[max(0, len(s.Commands)-maxCommands):])
	s.MentorNotes = slices.Clone(s.MentorNotes)
	s.Gaps = slices.Clone(s.Gaps)
	if s.Student != nil {
		v := *s.Student
		s.Student = &v
	}
	if s.LastTrigger != nil {
		v := *s.LastTrigger
		s.LastTrigger = &v
	}
	if s.Final != nil {
		v := *s.Final
		s.Final = &v
	}
	return s
}

// apply folds one event into the snapshot. Payloads are normally the loop's typed structs;
// anything else with the same JSON shape is accepted too.
func (s *Snapshot) apply(e loop.Event, maxCommands int) {
	switch e.Type {
	case loop.EventStateChange:
		if d, ok := decode[loop.StateChangeData](e.Data); ok {
			if d.Status != "" {
				s.Status = d.Status
			}
			if d.Phase != "" {
				s.Phase = d.Phase
			}
			if d.Iteration > 0 {
				s.Iteration = d.Iteration
			}
		}
	case loop.EventIterationStart:
		if d, ok := decode[loop.IterationStartData](e.Data); ok {
			s.Iteration = d.Iteration
			s.IterationStart = d.Timestamp
			if s.IterationStart.IsZero() {
				s.IterationStart = e.Time
			}
			s.Phase = loop.PhaseStudent
			s.CurrentStep, s.CurrentLine, s.PlanStep = "", 0, 0
		}
	case loop.EventPlanAccepted:
		if steps, ok := decodePlan(e.Data); ok {
			s.Plan = steps
			s.PlanStep = s.planIndex(s.CurrentStep, s.CurrentLine)
		}
	case loop.EventStepStart, loop.EventStepEnd:
		if d, ok := decode[loop.StepData](e.Data); ok && e.Type == loop.EventStepStart {
			s.CurrentStep, s.CurrentLine = d.Step, d.Line
			s.PlanStep = s.planIndex(d.Step, d.Line)
		}
	case loop.EventCommand:
		if d, ok := decode[loop.CommandRecord](e.Data); ok {
			s.CommandsTotal++
			s.Commands = append(s.Commands, d)
			if len(s.Commands) >= 2*maxCommands { // amortised: trim once per maxCommands
				s.Commands = append(s.Commands[:0], s.Commands[len(s.Commands)-maxCommands:]...)
			}
		}
	case loop.EventTrigger:
		if d, ok := decode[loop.TriggerData](e.Data); ok {
			s.LastTrigger = &d
		}
	case loop.EventGap:
		if d, ok := decode[loop.Finding](e.Data); ok {
			s.addGap(d)
		}
	case loop.EventStudentOutput:
		if d, ok := decode[loop.StudentOutputData](e.Data); ok {
			s.Student = &d
			if d.CurrentStep != "" {
				s.CurrentStep = d.CurrentStep
				s.PlanStep = s.planIndex(d.CurrentStep, 0)
			}
		}
	case loop.EventMentorOutput:
		if d, ok := decode[loop.MentorOutputData](e.Data); ok && d.Notes != "" {
			s.MentorNotes = append(s.MentorNotes, d.Notes)
			if over := len(s.MentorNotes) - maxNotes; over > 0 {
				s.MentorNotes = slices.Delete(s.MentorNotes, 0, over)
			}
		}
	case loop.EventLoopComplete:
		if d, ok := decode[loop.LoopCompleteData](e.Data); ok {
			s.Final = &d
			if d.Status != "" {
				s.Status = d.Status
			}
			if d.Iterations > 0 {
				s.Iteration = d.Iterations
			}
			s.Phase = loop.PhaseDone
			s.EndTime = e.Time
		}
	case loop.EventError:
		if d, ok := decode[loop.ErrorData](e.Data); ok {
			s.Error = d.Message
		}
	}
}

// addGap records a finding once per place and problem; a repeat (the same stuck point in a
// later iteration) updates the iteration instead of adding a line.
func (s *Snapshot) addGap(f loop.Finding) {
	for i, g := range s.Gaps {
		if g.Line == f.Line && g.Step == f.Step && g.Problem == f.Problem {
			s.Gaps[i] = f
			return
		}
	}
	if len(s.Gaps) < maxGaps {
		s.Gaps = append(s.Gaps, f)
	}
}

func (s *Snapshot) planIndex(step string, line int) int { return planIndex(s.Plan, step, line) }

// planIndex finds a step in the plan by title, else by the tutorial line it covers:
// 1-based, 0 when not found.
func planIndex(plan []loop.PlanStep, step string, line int) int {
	for i, p := range plan {
		if step != "" && p.Title == step {
			return i + 1
		}
	}
	if line > 0 {
		for i, p := range plan {
			if line >= p.StartLine && line <= p.EndLine {
				return i + 1
			}
		}
	}
	return 0
}

// decode returns data as a T: directly, through a pointer, or by a JSON round trip for
// payloads of another type with the same shape (maps, other structs).
func decode[T any](data any) (T, bool) {
	var zero T
	switch v := data.(type) {
	case T:
		return v, true
	case *T:
		if v == nil {
			return zero, false
		}
		return *v, true
	case nil:
		return zero, false
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return zero, false
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		return zero, false
	}
	return out, true
}

// decodePlan accepts a plan_accepted payload as a list of steps or as {steps: [...]}.
func decodePlan(data any) ([]loop.PlanStep, bool) {
	if steps, ok := decode[[]loop.PlanStep](data); ok {
		return slices.Clone(steps), true
	}
	wrapped, ok := decode[struct {
		Steps []loop.PlanStep `json:"steps"`
	}](data)
	return wrapped.Steps, ok
}
