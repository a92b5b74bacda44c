package observe

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	githubactions "github.com/sethvargo/go-githubactions"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// ActionsLogOptions configures progress in the GitHub Actions log.
type ActionsLogOptions struct {
	// File is the tutorial's path relative to the repository root, used by gap
	// annotations; empty annotates the run without a file.
	File   string
	Redact func(string) string
	// NoGapAnnotations leaves gap annotations to someone else (Action mode's publisher,
	// which annotates the de-duplicated report); iterations are still grouped.
	NoGapAnnotations bool
}

// ActionsLog writes run progress to the GitHub Actions log: each iteration is a
// collapsible group, and each gap is also a warning annotation on its tutorial line.
// Workflow commands are built by go-githubactions, which escapes messages (%, CR, LF) and
// properties (also : and ,) the way the runner expects.
type ActionsLog struct {
	w    io.Writer
	opts ActionsLogOptions
	enc  encoder

	mu      sync.Mutex
	inGroup bool
	seen    map[string]bool
}

var _ loop.Emitter = (*ActionsLog)(nil)

// NewActionsLog returns Actions-log progress writing to w (the step's stdout).
func NewActionsLog(w io.Writer, opts ActionsLogOptions) *ActionsLog {
	return &ActionsLog{w: w, opts: opts, enc: encoder{redact: opts.Redact}, seen: map[string]bool{}}
}

// Emit writes the event's line, opening and closing groups and adding annotations.
func (a *ActionsLog) Emit(e loop.Event) {
	e = a.enc.event(e)
	a.mu.Lock()
	defer a.mu.Unlock()
	switch e.Type {
	case loop.EventIterationStart:
		if d, ok := decode[loop.IterationStartData](e.Data); ok {
			a.endGroup()
			a.command(&githubactions.Command{Name: "group", Message: fmt.Sprintf("Iteration %d", d.Iteration)})
			a.inGroup = true
			return
		}
	case loop.EventLoopComplete:
		a.endGroup()
	case loop.EventError:
		if d, ok := decode[loop.ErrorData](e.Data); ok {
			a.command(&githubactions.Command{Name: "error", Message: "smile-loop: " + a.text(d.Message)})
			return
		}
	}
	if line, ok := plainLine(e); ok {
		a.write(line + "\n")
	}
	if e.Type == loop.EventGap && !a.opts.NoGapAnnotations {
		if f, ok := decode[loop.Finding](e.Data); ok {
			a.annotate(f)
		}
	}
}

// Close ends an open group.
func (a *ActionsLog) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.endGroup()
}

// annotate adds a warning annotation for a gap, once per place and problem.
func (a *ActionsLog) annotate(f loop.Finding) {
	key := gapKey(f)
	if a.seen[key] {
		return
	}
	a.seen[key] = true
	props := githubactions.CommandProperties{"title": "Tutorial gap"}
	if f.Step != "" {
		props["title"] = "Tutorial gap: " + a.text(strings.Join(strings.Fields(f.Step), " "))
	}
	if a.opts.File != "" {
		props["file"] = a.opts.File
		if f.Line > 0 {
			props["line"] = strconv.Itoa(f.Line)
			if f.EndLine > f.Line {
				props["endLine"] = strconv.Itoa(f.EndLine)
			}
		}
	}
	msg := a.text(f.Problem)
	if f.Command != "" {
		msg += "\nCommand: " + a.text(f.Command)
		if f.ExitCode != 0 {
			msg += fmt.Sprintf(" (exit %d)", f.ExitCode)
		}
	}
	if f.Class != "" {
		msg += "\nClass: " + string(f.Class)
	}
	a.command(&githubactions.Command{Name: "warning", Message: msg, Properties: props})
}

func (a *ActionsLog) endGroup() {
	if a.inGroup {
		a.command(&githubactions.Command{Name: "endgroup"})
		a.inGroup = false
	}
}

// text redacts a value before it is escaped into a command.
func (a *ActionsLog) text(s string) string {
	if a.opts.Redact != nil {
		return a.opts.Redact(s)
	}
	return s
}

func (a *ActionsLog) command(c *githubactions.Command) { a.write(c.String() + "\n") }

func (a *ActionsLog) write(s string) { _, _ = io.WriteString(a.w, s) }
