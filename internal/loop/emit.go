package loop

import (
	"encoding/json"
	"sync/atomic"

	"github.com/smile-loop/smile-loop/internal/redact"
)

func (r *runner) emitter() Emitter {
	if r.mask.empty() {
		return r.o.Events
	}
	return EmitterFunc(func(e Event) { r.o.Events.Emit(r.mask.event(e)) })
}

func (r *runner) emit(t EventType, data any) { r.emitter().Emit(NewEvent(t, data)) }

func (r *runner) emitState() {
	r.emit(EventStateChange, StateChangeData{Status: r.st.Status, Phase: r.st.Phase, Iteration: r.st.Iteration})
}

func (r *runner) emitStudent(res StudentResult) {
	r.emitState()
	r.emit(EventStudentOutput, StudentOutputData{Status: res.Status, Summary: res.Summary, CurrentStep: res.CurrentStep})
	if res.Status == StudentAskMentor {
		r.emit(EventTrigger, TriggerData{Trigger: res.Trigger, Step: res.CurrentStep, Summary: firstNonEmpty(res.Problem, res.QuestionForMentor)})
	}
	for _, f := range res.Findings {
		r.emit(EventGap, f)
	}
}

// recordingEmitter notes whether the Student reported commands itself.
type recordingEmitter struct {
	next     Emitter
	commands atomic.Bool
}

func (e *recordingEmitter) Emit(ev Event) {
	if ev.Type == EventCommand {
		e.commands.Store(true)
	}
	e.next.Emit(ev)
}

// masker is the run's redact.Redactor: the one masker of the product, for state,
// iteration records, scenario and events.
type masker struct{ r *redact.Redactor }

func newMasker(secrets []string) *masker { return &masker{r: redact.New(secrets...)} }

func (m *masker) empty() bool { return m.r.Empty() }

func (m *masker) str(s string) string { return m.r.String(s) }

// maskValue masks every string of v through a JSON round trip into a value of the same
// type.
func maskValue[T any](m *masker, v T) T {
	if m.r.Empty() {
		return v
	}
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out T
	if err := json.Unmarshal(m.r.JSON(data), &out); err != nil {
		return v
	}
	return out
}

func (m *masker) event(e Event) Event {
	if m.r.Empty() || e.Data == nil {
		return e
	}
	data, err := json.Marshal(e.Data)
	if err != nil {
		return e
	}
	e.Data = json.RawMessage(m.r.JSON(data))
	return e
}
