package loop

import "time"

// EventType names an observer event (DESIGN.md contract 5).
type EventType string

// The spec's events, then finer ones that clients may ignore.
const (
	EventConnected      EventType = "connected"
	EventIterationStart EventType = "iteration_start"
	EventStudentOutput  EventType = "student_output"
	EventMentorOutput   EventType = "mentor_output"
	EventLoopComplete   EventType = "loop_complete"
	EventError          EventType = "error"

	EventStateChange  EventType = "state_change"  // phase or status changed: {status, phase, iteration}
	EventStepStart    EventType = "step_start"    // {step, line}
	EventStepEnd      EventType = "step_end"      // {step, line, ok}
	EventCommand      EventType = "command"       // CommandRecord
	EventTrigger      EventType = "trigger"       // {trigger, step, summary}
	EventPlanAccepted EventType = "plan_accepted" // {steps}
	EventGap          EventType = "gap"           // Finding
)

// Event is one observable thing that happened in a run.
type Event struct {
	Type EventType `json:"type"`
	Time time.Time `json:"time"`
	Data any       `json:"data,omitempty"`
}

// Payloads of the spec's events (story 8).
type (
	IterationStartData struct {
		Iteration int       `json:"iteration"`
		Timestamp time.Time `json:"timestamp"`
	}
	StudentOutputData struct {
		Status      string `json:"status"`
		Summary     string `json:"summary"`
		CurrentStep string `json:"currentStep"`
	}
	MentorOutputData struct {
		Notes string `json:"notes"`
	}
	LoopCompleteData struct {
		Status     Status `json:"status"`
		Summary    string `json:"summary"`
		Iterations int    `json:"iterations"`
	}
	ErrorData struct {
		Message string `json:"message"`
	}
	StateChangeData struct {
		Status    Status `json:"status"`
		Phase     Phase  `json:"phase"`
		Iteration int    `json:"iteration"`
	}
	StepData struct {
		Step string `json:"step"`
		Line int    `json:"line,omitempty"`
		OK   bool   `json:"ok,omitempty"`
	}
	TriggerData struct {
		Trigger Trigger `json:"trigger"`
		Step    string  `json:"step,omitempty"`
		Summary string  `json:"summary,omitempty"`
	}
)

// NewEvent stamps an event with the current time.
func NewEvent(t EventType, data any) Event { return Event{Type: t, Time: time.Now().UTC(), Data: data} }
