// Package observe lets people watch a run live: an event hub that keeps the run's current
// state, the /ws/observe WebSocket endpoint, an embedded viewer page, and progress output
// for terminals and the GitHub Actions log.
package observe

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// EventBatch is the type of a frame that carries several fine-grained events (commands,
// steps, triggers, gaps, state changes) that arrived faster than an observer's rate:
// `{"type":"batch","time":…,"data":{"events":[event, …]}}`, events in order. The spec's
// events (iteration_start, student_output, mentor_output, loop_complete, error) always
// travel in a frame of their own.
const EventBatch loop.EventType = "batch"

// HubOptions configures a Hub. The zero value is usable.
type HubOptions struct {
	// RunID, Tutorial and MaxIterations are shown to observers as part of the state.
	RunID         string
	Tutorial      string
	MaxIterations int
	// Redact is applied to every string observers receive (events and state); nil keeps
	// strings as they are. Use redact.New(secrets...).String.
	Redact func(string) string
	// Token is required from observers that reach the server on a non-loopback address
	// (`?token=` or `Authorization: Bearer`). Loopback observers need none.
	Token string
	// MaxRate is the most frames per second one observer receives (8.E4); default 10.
	MaxRate float64
	// MaxBacklog is how many frames may wait for one observer before it is cut off as too
	// slow (it may reconnect to the current state); default 64.
	MaxBacklog int
	// MaxBatch is the most events one batch frame carries; default 500.
	MaxBatch int
	// MaxCommands is how many recent commands the state keeps; default 50.
	MaxCommands int
	// WriteTimeout bounds one write to an observer; default 5s.
	WriteTimeout time.Duration
	Logger       *slog.Logger
	// FrameSent, when set, is called with the time each frame to an observer was written
	// (for metrics; the tests check the rate limit with it, on the server's own clock).
	FrameSent func(at time.Time)
}

func (o HubOptions) withDefaults() HubOptions {
	if o.MaxRate <= 0 {
		o.MaxRate = 10
	}
	if o.MaxBacklog <= 0 {
		o.MaxBacklog = 64
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 500
	}
	if o.MaxCommands <= 0 {
		o.MaxCommands = defaultMaxCommands
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Hub keeps the current state of a run and fans its events out to observers. Emit never
// blocks on observers: each has a bounded queue drained by its own goroutine.
type Hub struct {
	opts HubOptions
	enc  encoder

	mu        sync.Mutex
	state     Snapshot
	observers map[*observer]struct{}
	closed    bool
	wg        sync.WaitGroup
}

var _ loop.Emitter = (*Hub)(nil)

// NewHub returns a hub with an initial "running" state.
func NewHub(opts HubOptions) *Hub {
	opts = opts.withDefaults()
	return &Hub{
		opts:      opts,
		enc:       encoder{redact: opts.Redact},
		state:     newSnapshot(opts, time.Now().UTC()),
		observers: make(map[*observer]struct{}),
	}
}

// Emit records the event in the current state and queues it for every connected observer.
// With no observer connected nothing is buffered (8.E1).
func (h *Hub) Emit(e loop.Event) {
	if e.Type == loop.EventConnected || e.Type == EventBatch || e.Type == "" {
		return // ours to send, never the loop's
	}
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.state.apply(e, h.opts.MaxCommands)
	if len(h.observers) == 0 {
		return
	}
	raw, err := h.enc.encode(e)
	if err != nil {
		h.opts.Logger.Warn("observe: event not sent", "type", e.Type, "err", err)
		return
	}
	for o := range h.observers {
		if !o.enqueue(e.Type, raw) {
			delete(h.observers, o) // cut off; its goroutine closes the connection
		}
	}
}

// State returns a copy of the current state.
func (h *Hub) State() Snapshot {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.state.view(h.opts.MaxCommands)
}

// Observers is the number of observers connected right now.
func (h *Hub) Observers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.observers)
}

// Close tells every observer the run is over: each gets what is still queued for it and
// a normal close. It waits for that until ctx is done; observers that connect afterwards
// still get the final state and are closed at once.
func (h *Hub) Close(ctx context.Context) error {
	h.mu.Lock()
	h.closed = true
	for o := range h.observers {
		o.finish()
	}
	h.mu.Unlock()
	done := make(chan struct{})
	go func() { h.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// subscribe registers an observer whose first frame is `connected` with the current state.
// Taking the state and joining the fan-out happen under one lock, so the observer misses
// no event and sees none twice.
func (h *Hub) subscribe() (*observer, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	raw, err := h.enc.encode(loop.Event{
		Type: loop.EventConnected,
		Time: time.Now().UTC(),
		Data: ConnectedData{State: h.state.view(h.opts.MaxCommands)},
	})
	if err != nil {
		return nil, err
	}
	o := newObserver(h.opts)
	_ = o.enqueue(loop.EventConnected, raw)
	if h.closed {
		o.finish()
	}
	h.observers[o] = struct{}{}
	h.wg.Add(1)
	return o, nil
}

// unsubscribe removes the observer (if Emit has not already cut it off).
func (h *Hub) unsubscribe(o *observer) {
	h.mu.Lock()
	delete(h.observers, o)
	h.mu.Unlock()
	h.wg.Done()
}

// coalescable events may share a batch frame; the spec's events never do.
func coalescable(t loop.EventType) bool {
	switch t {
	case loop.EventConnected, loop.EventIterationStart, loop.EventStudentOutput,
		loop.EventMentorOutput, loop.EventLoopComplete, loop.EventError:
		return false
	}
	return true
}

// frame is one WebSocket message to come: a single event or a batch.
type frame struct {
	events [][]byte
	batch  bool // may take more events
}

func (f frame) bytes() []byte {
	if len(f.events) == 1 {
		return f.events[0]
	}
	var b bytes.Buffer
	b.WriteString(`{"type":"batch","time":`)
	t, _ := time.Now().UTC().MarshalJSON()
	b.Write(t)
	b.WriteString(`,"data":{"events":[`)
	b.Write(bytes.Join(f.events, []byte{','}))
	b.WriteString(`]}}`)
	return b.Bytes()
}

// observer is one connected client: a bounded queue of frames, drained by its writer.
type observer struct {
	maxBacklog, maxBatch int

	mu       sync.Mutex
	queue    []frame
	dropped  bool // fell behind: cut off
	finished bool // run over: flush then close
	notify   chan struct{}
	stop     chan struct{} // closed when dropped or finished
}

func newObserver(o HubOptions) *observer {
	return &observer{
		maxBacklog: o.MaxBacklog,
		maxBatch:   o.MaxBatch,
		notify:     make(chan struct{}, 1),
		stop:       make(chan struct{}),
	}
}

// enqueue adds an event, joining the batch at the tail of the queue when it can. It never
// blocks: an observer whose backlog overflows is cut off, and enqueue reports false.
func (o *observer) enqueue(t loop.EventType, raw []byte) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dropped {
		return false
	}
	if o.finished {
		return true
	}
	n := len(o.queue)
	switch {
	case coalescable(t) && n > 0 && o.queue[n-1].batch && len(o.queue[n-1].events) < o.maxBatch:
		o.queue[n-1].events = append(o.queue[n-1].events, raw)
	default:
		o.queue = append(o.queue, frame{events: [][]byte{raw}, batch: coalescable(t)})
	}
	if len(o.queue) > o.maxBacklog {
		o.dropped = true
		o.queue = nil
		close(o.stop)
		return false
	}
	select {
	case o.notify <- struct{}{}:
	default:
	}
	return true
}

// finish marks the run over: the writer flushes what is queued, then closes.
func (o *observer) finish() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dropped || o.finished {
		return
	}
	o.finished = true
	close(o.stop)
}

// next pops the frame to send; ok is false when the queue is empty.
func (o *observer) next() (payload []byte, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.queue) == 0 {
		return nil, false
	}
	f := o.queue[0]
	o.queue[0] = frame{}
	o.queue = o.queue[1:]
	return f.bytes(), true
}

// status reports whether the observer was cut off or finished, and how many frames wait.
func (o *observer) status() (dropped, finished bool, queued int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.dropped, o.finished, len(o.queue)
}
