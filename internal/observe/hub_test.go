package observe_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/observe"
)

func TestConnectedCarriesCurrentState(t *testing.T) {
	t.Parallel()
	hub, srv := startHub(t, observe.HubOptions{RunID: "run-1", Tutorial: "docs/quickstart.md", MaxIterations: 5})
	hub.Emit(ev(loop.EventIterationStart, loop.IterationStartData{Iteration: 2}))
	hub.Emit(ev(loop.EventPlanAccepted, map[string]any{"steps": []loop.PlanStep{
		{ID: 1, Title: "Install", StartLine: 3, EndLine: 8},
		{ID: 2, Title: "Run the server", StartLine: 9, EndLine: 20},
	}}))
	hub.Emit(ev(loop.EventStepStart, loop.StepData{Step: "Run the server", Line: 12}))
	hub.Emit(cmd(0, 127))
	hub.Emit(ev(loop.EventGap, loop.Finding{Line: 12, Step: "Run the server", Problem: "node is not installed"}))
	hub.Emit(ev(loop.EventMentorOutput, &loop.MentorOutputData{Notes: "Install Node.js 20 first."}))

	ctx := testCtx(t, 5*time.Second)
	st := readState(t, ctx, dial(t, wsURL(srv)))

	assert.Equal(t, "run-1", st.RunID)
	assert.Equal(t, "docs/quickstart.md", st.Tutorial)
	assert.Equal(t, loop.StatusRunning, st.Status)
	assert.Equal(t, 2, st.Iteration)
	assert.Equal(t, 5, st.MaxIterations)
	assert.Equal(t, "Run the server", st.CurrentStep)
	assert.Equal(t, 2, st.PlanStep, "step 2 of 2")
	assert.Len(t, st.Plan, 2)
	require.Len(t, st.Commands, 1)
	assert.Equal(t, 127, st.Commands[0].ExitCode)
	assert.Equal(t, []string{"Install Node.js 20 first."}, st.MentorNotes)
	require.Len(t, st.Gaps, 1)
	assert.Equal(t, 12, st.Gaps[0].Line)
}

func TestReconnectGetsCurrentState(t *testing.T) {
	t.Parallel()
	hub, srv := startHub(t, observe.HubOptions{})
	ctx := testCtx(t, 5*time.Second)

	c := dial(t, wsURL(srv))
	assert.Equal(t, 0, readState(t, ctx, c).Iteration)
	hub.Emit(ev(loop.EventIterationStart, loop.IterationStartData{Iteration: 1}))
	assert.Equal(t, loop.EventIterationStart, readFrame(t, ctx, c).Type)
	require.NoError(t, c.Close(websocket.StatusNormalClosure, "bye"))
	require.Eventually(t, func() bool { return hub.Observers() == 0 }, 2*time.Second, 10*time.Millisecond)

	// The loop goes on while nobody watches (8.E2)…
	hub.Emit(ev(loop.EventMentorOutput, loop.MentorOutputData{Notes: "try again"}))
	hub.Emit(ev(loop.EventIterationStart, loop.IterationStartData{Iteration: 2}))

	// …and the observer that comes back sees where it is now.
	st := readState(t, ctx, dial(t, wsURL(srv)))
	assert.Equal(t, 2, st.Iteration)
	assert.Equal(t, []string{"try again"}, st.MentorNotes)
}

func TestNoBufferingWithoutObservers(t *testing.T) {
	t.Parallel()
	hub, srv := startHub(t, observe.HubOptions{})
	for i := range 1000 {
		hub.Emit(cmd(i, 0))
	}
	c := dial(t, wsURL(srv))
	st := readState(t, testCtx(t, 5*time.Second), c)
	assert.Equal(t, 1000, st.CommandsTotal)
	assert.Len(t, st.Commands, 50, "the state keeps a bounded tail of commands")

	// Nothing emitted before the observer came is replayed (8.E1).
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, _, err := c.Read(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestObserversGetTheSameStream(t *testing.T) {
	t.Parallel()
	hub, srv := startHub(t, observe.HubOptions{MaxRate: 1000})
	ctx := testCtx(t, 10*time.Second)

	const n = 5
	conns := make([]*websocket.Conn, n)
	for i := range conns {
		conns[i] = dial(t, wsURL(srv))
		readState(t, ctx, conns[i])
	}
	var sent []loop.EventType
	emit := func(e loop.Event) { sent = append(sent, e.Type); hub.Emit(e) }
	emit(ev(loop.EventIterationStart, loop.IterationStartData{Iteration: 1}))
	for i := range 30 {
		emit(cmd(i, i%2))
	}
	emit(ev(loop.EventStudentOutput, loop.StudentOutputData{Status: "ask_mentor", CurrentStep: "Install"}))
	emit(ev(loop.EventMentorOutput, loop.MentorOutputData{Notes: "use apt"}))
	emit(ev(loop.EventLoopComplete, loop.LoopCompleteData{Status: loop.StatusCompleted, Iterations: 1}))

	streams := make([][]string, n)
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() {
			for {
				w := readFrame(t, ctx, c)
				for _, e := range unpack(t, w) {
					streams[i] = append(streams[i], string(e.Type)+" "+string(e.Data))
				}
				if w.Type == loop.EventLoopComplete {
					return
				}
			}
		})
	}
	wg.Wait()
	require.Len(t, streams[0], len(sent))
	for i, e := range sent {
		assert.True(t, strings.HasPrefix(streams[0][i], string(e)+" "), "event %d in order", i)
	}
	for i := 1; i < n; i++ {
		assert.Equal(t, streams[0], streams[i], "observer %d sees the same stream (8.E3)", i)
	}
}

func TestBurstIsThrottledByCoalescing(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sent []time.Time                                                                                                           // when the server wrote each frame, on its own clock
	hub, srv := startHub(t, observe.HubOptions{FrameSent: func(at time.Time) { mu.Lock(); sent = append(sent, at); mu.Unlock() }}) // default: 10 frames per second
	ctx := testCtx(t, 20*time.Second)
	c := dial(t, wsURL(srv))
	readState(t, ctx, c)

	// A burst of 1,000 events: mostly fine-grained, with the spec's events among them.
	var want []loop.EventType
	emit := func(e loop.Event) { want = append(want, e.Type); hub.Emit(e) }
	for i := range 999 {
		switch {
		case i%250 == 0:
			emit(ev(loop.EventIterationStart, loop.IterationStartData{Iteration: i/250 + 1}))
		case i%250 == 249:
			emit(ev(loop.EventMentorOutput, loop.MentorOutputData{Notes: fmt.Sprintf("note %d", i/250+1)}))
		case i%10 == 0:
			emit(ev(loop.EventStateChange, loop.StateChangeData{Status: loop.StatusRunning, Phase: loop.PhaseStudent, Iteration: i/250 + 1}))
		case i%10 == 1:
			emit(ev(loop.EventStepStart, loop.StepData{Step: fmt.Sprint("step ", i), Line: i}))
		default:
			emit(cmd(i, 0))
		}
	}
	emit(ev(loop.EventLoopComplete, loop.LoopCompleteData{Status: loop.StatusCompleted, Summary: "done", Iterations: 4}))

	var got []loop.EventType
	frames := 0
	for {
		_, raw, err := c.Read(ctx)
		frames++
		require.NoError(t, err)
		var w wire
		require.NoError(t, json.Unmarshal(raw, &w))
		for _, e := range unpack(t, w) {
			got = append(got, e.Type)
		}
		if w.Type == loop.EventLoopComplete {
			break
		}
	}
	assert.Equal(t, want, got, "every event delivered, in order, none dropped")
	assert.Less(t, frames, 40, "bursts are coalesced into few frames")
	// the state frame, then the burst's (the server notes a frame once its write returns,
	// which may be after the client has read it)
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(sent) == frames+1 }, 5*time.Second, 10*time.Millisecond)
	mu.Lock()
	at := slices.Clone(sent)
	mu.Unlock()
	for i := 1; i < len(at); i++ {
		// at most 10 frames in any second: the server writes a frame 100ms after the last
		// at the earliest (its own clock, so a loaded client reading late changes nothing)
		assert.GreaterOrEqual(t, at[i].Sub(at[i-1]), 100*time.Millisecond, "frames %d and %d", i-1, i)
	}
	t.Logf("1000 events in %d frames over %s", frames, at[len(at)-1].Sub(at[0]))

	st := readState(t, ctx, dial(t, wsURL(srv)))
	assert.Equal(t, loop.StatusCompleted, st.Status)
	assert.Equal(t, loop.PhaseDone, st.Phase)
	require.NotNil(t, st.Final)
	assert.Equal(t, "done", st.Final.Summary)
	assert.Len(t, st.MentorNotes, 3)
}

func TestSlowObserverIsCutOffWithoutSlowingEmit(t *testing.T) {
	t.Parallel()
	hub, srv := startHub(t, observe.HubOptions{MaxBacklog: 8, WriteTimeout: time.Second})
	ctx := testCtx(t, 20*time.Second)
	stuck := dial(t, wsURL(srv)) // never reads
	require.Eventually(t, func() bool { return hub.Observers() == 1 }, 2*time.Second, 5*time.Millisecond)

	big := strings.Repeat("x", 4000)
	var slowest time.Duration
	for i := range 5000 {
		start := time.Now()
		hub.Emit(ev(loop.EventStudentOutput, loop.StudentOutputData{Status: "ask_mentor", Summary: fmt.Sprint(i, big)}))
		slowest = max(slowest, time.Since(start))
	}
	t.Logf("slowest Emit with a stuck observer: %s", slowest)
	require.Eventually(t, func() bool { return hub.Observers() == 0 }, 5*time.Second, 10*time.Millisecond,
		"the stuck observer is cut off")

	// It learns why once it reads, and can come back to the current state.
	var err error
	for err == nil {
		_, _, err = stuck.Read(ctx)
	}
	if code := websocket.CloseStatus(err); code != -1 {
		assert.Equal(t, websocket.StatusTryAgainLater, code)
	}
	st := readState(t, ctx, dial(t, wsURL(srv)))
	require.NotNil(t, st.Student)
	assert.True(t, strings.HasPrefix(st.Student.Summary, "4999x"))
}

func TestObserversCannotWrite(t *testing.T) {
	t.Parallel()
	hub, srv := startHub(t, observe.HubOptions{})
	ctx := testCtx(t, 5*time.Second)
	c := dial(t, wsURL(srv))
	readState(t, ctx, c)

	// Pings are answered (the client needs a reader running to see the pong).
	reader := make(chan error, 1)
	go func() {
		for {
			if _, _, err := c.Read(ctx); err != nil {
				reader <- err
				return
			}
		}
	}()
	require.NoError(t, c.Ping(ctx))

	// A data message is a policy violation: the server closes the connection and the run
	// is unchanged.
	require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(`{"type":"loop_complete","data":{"status":"completed"}}`)))
	err := <-reader
	assert.Equal(t, websocket.StatusPolicyViolation, websocket.CloseStatus(err), "%v", err)
	assert.Equal(t, loop.StatusRunning, hub.State().Status)
	require.Eventually(t, func() bool { return hub.Observers() == 0 }, 2*time.Second, 10*time.Millisecond)
}

func TestPayloadsAreRedacted(t *testing.T) {
	t.Parallel()
	const secret = "ghp_s3cr3tT0ken"
	redact := func(s string) string { return strings.ReplaceAll(s, secret, "***") }
	hub, srv := startHub(t, observe.HubOptions{Redact: redact})
	ctx := testCtx(t, 5*time.Second)
	hub.Emit(ev(loop.EventMentorOutput, loop.MentorOutputData{Notes: "export TOKEN=" + secret}))

	c := dial(t, wsURL(srv))
	_, raw, err := c.Read(ctx)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), secret)
	assert.Contains(t, string(raw), "export TOKEN=***")

	// A secret at the edge of a long output is masked before the output is bounded.
	long := strings.Repeat("a", 2040) + secret + strings.Repeat("b", 10000)
	hub.Emit(ev(loop.EventCommand, loop.CommandRecord{Command: "curl -H " + secret, Output: long}))
	hub.Emit(ev(loop.EventError, loop.ErrorData{Message: "auth failed for " + secret}))
	var all []byte
	for range 2 {
		_, raw, err := c.Read(ctx)
		require.NoError(t, err)
		all = append(all, raw...)
	}
	assert.NotContains(t, string(all), secret)
	assert.NotContains(t, string(all), secret[:8], "no partial secret left by truncation")
	assert.Contains(t, string(all), "curl -H ***")
	assert.Contains(t, string(all), "(truncated)")
}

func TestCloseFlushesAndEndsObservers(t *testing.T) {
	t.Parallel()
	hub, srv := startHub(t, observe.HubOptions{})
	ctx := testCtx(t, 5*time.Second)
	c := dial(t, wsURL(srv))
	readState(t, ctx, c)
	hub.Emit(ev(loop.EventLoopComplete, loop.LoopCompleteData{Status: loop.StatusMaxIterations, Iterations: 3}))
	closed := make(chan error, 1)
	go func() { closed <- hub.Close(ctx) }() // waits for the observer to acknowledge

	w := readFrame(t, ctx, c)
	assert.Equal(t, loop.EventLoopComplete, w.Type)
	assert.Equal(t, 3, decodeData[loop.LoopCompleteData](t, w).Iterations)
	_, _, err := c.Read(ctx)
	assert.Equal(t, websocket.StatusNormalClosure, websocket.CloseStatus(err))
	require.NoError(t, <-closed)

	// A late observer still gets the final state, then a normal close.
	late := dial(t, wsURL(srv))
	assert.Equal(t, loop.StatusMaxIterations, readState(t, ctx, late).Status)
	_, _, err = late.Read(ctx)
	assert.Equal(t, websocket.StatusNormalClosure, websocket.CloseStatus(err))
}

func TestEmitIgnoresReservedTypes(t *testing.T) {
	t.Parallel()
	hub, srv := startHub(t, observe.HubOptions{})
	ctx := testCtx(t, 5*time.Second)
	c := dial(t, wsURL(srv))
	readState(t, ctx, c)
	hub.Emit(loop.Event{Type: loop.EventConnected, Data: json.RawMessage(`{"state":{}}`)})
	hub.Emit(loop.Event{Type: observe.EventBatch})
	hub.Emit(ev(loop.EventError, loop.ErrorData{Message: "docker went away"}))
	w := readFrame(t, ctx, c)
	assert.Equal(t, loop.EventError, w.Type, "reserved types are not forwarded")
	assert.False(t, errors.Is(ctx.Err(), context.DeadlineExceeded))
}
