package loop

import (
	"context"
	"os"
	"sync"

	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// fakeSandbox is a Sandbox with function fields; nil fields succeed.
type fakeSandbox struct {
	mu       sync.Mutex
	startFn  func(context.Context) error
	resetFn  func(context.Context) error
	execFn   func(context.Context, ExecRequest) (ExecResult, error)
	hostAddr string
	resets   int
	closed   []bool
}

func (f *fakeSandbox) Start(ctx context.Context) error {
	if f.startFn != nil {
		return f.startFn(ctx)
	}
	return nil
}

func (f *fakeSandbox) Exec(ctx context.Context, req ExecRequest) (ExecResult, error) {
	if f.execFn != nil {
		return f.execFn(ctx, req)
	}
	return ExecResult{}, nil
}

func (f *fakeSandbox) WriteFile(context.Context, string, []byte, os.FileMode) error { return nil }

func (f *fakeSandbox) ReadFile(context.Context, string, int64) ([]byte, error) { return nil, nil }

func (f *fakeSandbox) Reset(ctx context.Context) error {
	f.mu.Lock()
	f.resets++
	f.mu.Unlock()
	if f.resetFn != nil {
		return f.resetFn(ctx)
	}
	return nil
}

func (f *fakeSandbox) HostAddr(context.Context) (string, error) {
	if f.hostAddr == "" {
		return "127.0.0.1", nil
	}
	return f.hostAddr, nil
}

func (f *fakeSandbox) Close(_ context.Context, succeeded bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = append(f.closed, succeeded)
	return nil
}

type fakeStudent struct {
	attempt    func(context.Context, StudentTask) (StudentResult, error)
	singlePass bool
}

func (f *fakeStudent) Attempt(ctx context.Context, t StudentTask) (StudentResult, error) {
	return f.attempt(ctx, t)
}

func (f *fakeStudent) SinglePass() bool { return f.singlePass }

type fakeMentor struct {
	advise func(context.Context, MentorTask) (MentorResult, error)
}

func (f *fakeMentor) Advise(ctx context.Context, t MentorTask) (MentorResult, error) {
	if f.advise == nil {
		return MentorResult{Notes: "note for iteration"}, nil
	}
	return f.advise(ctx, t)
}

const testTutorial = "# Hello\n\nInstall the tools.\n\n```bash\nnpm install\n```\n\n## Run\n\n```bash\nnpm start\n```\n"

func testTut() *tutorial.Tutorial {
	t, err := tutorial.Parse("tutorial.md", []byte(testTutorial))
	if err != nil {
		panic(err)
	}
	return t
}

// collector records events.
type collector struct {
	mu     sync.Mutex
	events []Event
}

func (c *collector) Emit(e Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = append(c.events, e)
}

func (c *collector) types() []EventType {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []EventType
	for _, e := range c.events {
		out = append(out, e.Type)
	}
	return out
}
