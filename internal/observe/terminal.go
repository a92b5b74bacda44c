package observe

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// TerminalOptions configures terminal progress.
type TerminalOptions struct {
	// TTY selects the compact live line; otherwise plain timestamped lines. See IsTTY.
	TTY           bool
	MaxIterations int
	// Width bounds the live line so it never wraps; default 100.
	Width  int
	Redact func(string) string
	Now    func() time.Time
	// Tick is how often the live line refreshes its elapsed time; default 1s, negative
	// disables refreshing between events.
	Tick time.Duration
}

// IsTTY reports whether f is an interactive terminal and CI is not set to true: the
// condition for the live progress line.
func IsTTY(f *os.File, getenv func(string) string) bool {
	if getenv("CI") == "true" || getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Terminal writes run progress for a person at a terminal: in a TTY one live line
// (iteration, step, elapsed, gaps so far) redrawn in place, with notable events printed
// above it; otherwise plain timestamped lines.
type Terminal struct {
	w    io.Writer
	opts TerminalOptions
	enc  encoder

	mu        sync.Mutex
	start     time.Time
	iteration int
	step      string
	line      int
	plan      []loop.PlanStep
	gaps      map[string]bool
	live      bool // a live line is on screen
	done      bool
	stop      chan struct{}
}

var _ loop.Emitter = (*Terminal)(nil)

// NewTerminal returns terminal progress writing to w.
func NewTerminal(w io.Writer, opts TerminalOptions) *Terminal {
	if opts.Width <= 0 {
		opts.Width = 100
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Tick == 0 {
		opts.Tick = time.Second
	}
	return &Terminal{w: w, opts: opts, enc: encoder{redact: opts.Redact}, gaps: map[string]bool{}}
}

// Emit writes what the event means for progress.
func (t *Terminal) Emit(e loop.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return
	}
	if t.start.IsZero() {
		t.start = e.Time
		if t.start.IsZero() {
			t.start = t.opts.Now()
		}
		if t.opts.TTY && t.opts.Tick > 0 {
			t.stop = make(chan struct{})
			go t.tick(t.stop)
		}
	}
	e = t.enc.event(e)
	t.track(e)
	line, ok := plainLine(e)
	if t.opts.TTY {
		if ok && notable(e) {
			t.clearLive()
			t.write(line + "\n")
		}
		if e.Type == loop.EventLoopComplete {
			t.finish()
			return
		}
		t.drawLive()
		return
	}
	if ok {
		ts := e.Time
		if ts.IsZero() {
			ts = t.opts.Now()
		}
		t.write(ts.UTC().Format("15:04:05") + " " + line + "\n")
	}
	if e.Type == loop.EventLoopComplete {
		t.done = true
	}
}

// Close ends the live line; later events are ignored.
func (t *Terminal) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.done {
		t.finish()
	}
}

func (t *Terminal) finish() {
	t.done = true
	if t.stop != nil {
		close(t.stop)
		t.stop = nil
	}
	if t.live {
		t.clearLive()
	}
}

func (t *Terminal) tick(stop chan struct{}) {
	tk := time.NewTicker(t.opts.Tick)
	defer tk.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tk.C:
			t.mu.Lock()
			if !t.done {
				t.drawLive()
			}
			t.mu.Unlock()
		}
	}
}

// notable events get a line of their own above the live line.
func notable(e loop.Event) bool {
	switch e.Type {
	case loop.EventIterationStart, loop.EventGap, loop.EventMentorOutput, loop.EventTrigger,
		loop.EventLoopComplete, loop.EventError, loop.EventPlanAccepted:
		return true
	case loop.EventCommand:
		c, ok := decode[loop.CommandRecord](e.Data)
		return ok && (c.ExitCode != 0 || c.TimedOut)
	}
	return false
}

func (t *Terminal) track(e loop.Event) {
	switch e.Type {
	case loop.EventIterationStart:
		if d, ok := decode[loop.IterationStartData](e.Data); ok {
			t.iteration, t.step, t.line = d.Iteration, "", 0
		}
	case loop.EventStateChange:
		if d, ok := decode[loop.StateChangeData](e.Data); ok && d.Iteration > 0 {
			t.iteration = d.Iteration
		}
	case loop.EventPlanAccepted:
		if steps, ok := decodePlan(e.Data); ok {
			t.plan = steps
		}
	case loop.EventStepStart:
		if d, ok := decode[loop.StepData](e.Data); ok {
			t.step, t.line = d.Step, d.Line
		}
	case loop.EventGap:
		if d, ok := decode[loop.Finding](e.Data); ok {
			t.gaps[gapKey(d)] = true
		}
	}
}

func (t *Terminal) drawLive() {
	var b strings.Builder
	b.WriteString("● iteration ")
	if t.iteration == 0 {
		b.WriteString("–")
	} else {
		fmt.Fprint(&b, t.iteration)
	}
	if t.opts.MaxIterations > 0 {
		fmt.Fprintf(&b, "/%d", t.opts.MaxIterations)
	}
	if t.step != "" {
		b.WriteString(" · ")
		if i := planIndex(t.plan, t.step, t.line); i > 0 {
			fmt.Fprintf(&b, "step %d/%d %s", i, len(t.plan), oneLine(t.step, 40))
		} else {
			b.WriteString(strings.Replace(stepText(oneLine(t.step, 48)), "step: ", "step ", 1))
		}
	}
	fmt.Fprintf(&b, " · %s · %d gap%s", t.opts.Now().Sub(t.start).Round(time.Second), len(t.gaps), plural(len(t.gaps)))
	t.write("\r\x1b[2K" + loop.Clip(b.String(), t.opts.Width-1))
	t.live = true
}

func (t *Terminal) clearLive() {
	if t.live {
		t.write("\r\x1b[2K")
		t.live = false
	}
}

func (t *Terminal) write(s string) {
	if t.opts.Redact != nil {
		s = t.opts.Redact(s)
	}
	_, _ = io.WriteString(t.w, s)
}
