package observe_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/observe"
)

// wire is one event as an observer receives it.
type wire struct {
	Type loop.EventType `json:"type"`
	Time time.Time      `json:"time"`
	Data json.RawMessage
}

// startHub serves a hub on a real loopback HTTP server.
func startHub(t testing.TB, opts observe.HubOptions) (*observe.Hub, *httptest.Server) {
	t.Helper()
	hub := observe.NewHub(opts)
	srv := httptest.NewServer(hub.Handler())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hub.Close(ctx)
		srv.Close()
	})
	return hub, srv
}

func wsURL(srv *httptest.Server) string {
	return "ws" + strings.TrimPrefix(srv.URL, "http") + observe.PathObserve
}

// dial connects an observer; frames may be large (batches), so no read limit.
func dial(t testing.TB, url string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	require.NoError(t, err)
	c.SetReadLimit(-1)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// readFrame reads one WebSocket message as an event (a batch stays a batch).
func readFrame(t testing.TB, ctx context.Context, c *websocket.Conn) wire {
	t.Helper()
	_, b, err := c.Read(ctx)
	require.NoError(t, err)
	var w wire
	require.NoError(t, json.Unmarshal(b, &w), string(b))
	return w
}

// unpack returns the events a frame carries.
func unpack(t testing.TB, w wire) []wire {
	t.Helper()
	if w.Type != observe.EventBatch {
		return []wire{w}
	}
	var b struct {
		Events []wire `json:"events"`
	}
	require.NoError(t, json.Unmarshal(w.Data, &b))
	require.GreaterOrEqual(t, len(b.Events), 2, "a batch carries several events")
	return b.Events
}

// readState reads the connected frame and returns its state.
func readState(t testing.TB, ctx context.Context, c *websocket.Conn) observe.Snapshot {
	t.Helper()
	w := readFrame(t, ctx, c)
	require.Equal(t, loop.EventConnected, w.Type)
	var d observe.ConnectedData
	require.NoError(t, json.Unmarshal(w.Data, &d))
	return d.State
}

func decodeData[T any](t testing.TB, w wire) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(w.Data, &v))
	return v
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func ev(typ loop.EventType, data any) loop.Event { return loop.NewEvent(typ, data) }

func cmd(i int, exit int) loop.Event {
	return ev(loop.EventCommand, loop.CommandRecord{Iteration: 1, Line: 10 + i, Command: "echo " + string(rune('a'+i%26)), ExitCode: exit})
}
