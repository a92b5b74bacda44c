package observe_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/observe"
)

// nonLoopbackIP returns an address of this machine that is not loopback.
func nonLoopbackIP(t *testing.T) net.IP {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	require.NoError(t, err)
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP
		}
	}
	t.Skip("no non-loopback IPv4 address on this machine")
	return nil
}

func TestServeDefaultsToLoopbackWithoutToken(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hub := observe.NewHub(observe.HubOptions{})
	addr, err := observe.Serve(ctx, observe.Addr(0), hub)
	require.NoError(t, err)
	tcp := addr.(*net.TCPAddr)
	assert.True(t, tcp.IP.IsLoopback())
	assert.NotZero(t, tcp.Port, "port 0 picks a free port")
	assert.Equal(t, "http://127.0.0.1:"+strconv.Itoa(tcp.Port)+"/", observe.ViewerURL(addr, ""))

	c := dial(t, "ws://"+addr.String()+observe.PathObserve)
	assert.Equal(t, loop.StatusRunning, readState(t, testCtx(t, 5*time.Second), c).Status)

	// The port is taken now: a second server says what to do.
	_, err = observe.Serve(ctx, addr.String(), observe.NewHub(observe.HubOptions{}))
	var le *observe.ListenError
	require.ErrorAs(t, err, &le)
	assert.Contains(t, err.Error(), "observe.port")
	assert.True(t, le.EnvironmentUnavailable())

	// Cancelling the context ends observers and the server.
	cancel()
	_, _, err = c.Read(testCtx(t, 5*time.Second))
	assert.Equal(t, websocket.StatusNormalClosure, websocket.CloseStatus(err))
}

func TestServeRefusesNonLoopbackWithoutToken(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{":0", "0.0.0.0:0", "[::]:0"} {
		_, err := observe.Serve(context.Background(), addr, observe.NewHub(observe.HubOptions{}))
		assert.ErrorIs(t, err, observe.ErrTokenRequired, addr)
	}
}

func TestTokenRequiredOffLoopback(t *testing.T) {
	t.Parallel()
	ip := nonLoopbackIP(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	const token = "tok-0123456789"
	addr, err := observe.Serve(ctx, net.JoinHostPort(ip.String(), "0"), observe.NewHub(observe.HubOptions{Token: token}))
	require.NoError(t, err)
	base := "ws://" + addr.String() + observe.PathObserve

	tests := []struct {
		name   string
		url    string
		header http.Header
		status int // 0: connects
	}{
		{name: "no token", url: base, status: http.StatusUnauthorized},
		{name: "wrong token", url: base + "?token=nope", status: http.StatusUnauthorized},
		{name: "wrong bearer", url: base, header: http.Header{"Authorization": {"Bearer nope"}}, status: http.StatusUnauthorized},
		{name: "token in query", url: base + "?token=" + token},
		{name: "bearer header", url: base, header: http.Header{"Authorization": {"Bearer " + token}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer dcancel()
			c, resp, err := websocket.Dial(dctx, tc.url, &websocket.DialOptions{HTTPHeader: tc.header})
			if tc.status != 0 {
				require.Error(t, err)
				require.NotNil(t, resp)
				assert.Equal(t, tc.status, resp.StatusCode)
				return
			}
			require.NoError(t, err)
			defer c.CloseNow()
			c.SetReadLimit(-1)
			readState(t, dctx, c)
		})
	}

	// The viewer page is behind the token too.
	resp, err := http.Get("http://" + addr.String() + "/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	resp, err = http.Get("http://" + addr.String() + "/?token=" + token)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestLoopbackRejectsForeignHostAndOrigin(t *testing.T) {
	t.Parallel()
	_, srv := startHub(t, observe.HubOptions{})

	// DNS rebinding: a page served from evil.example that resolves to 127.0.0.1.
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
	require.NoError(t, err)
	req.Host = "evil.example:8080"
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	// A cross-origin page may not open the stream.
	ctx := testCtx(t, 5*time.Second)
	_, resp, err = websocket.Dial(ctx, wsURL(srv), &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}})
	require.Error(t, err)
	require.NotNil(t, resp)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
}

func TestViewerPageIsServed(t *testing.T) {
	t.Parallel()
	_, srv := startHub(t, observe.HubOptions{})
	resp, err := http.Get(srv.URL + "/")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	csp := resp.Header.Get("Content-Security-Policy")
	assert.Contains(t, csp, "default-src 'none'")
	assert.Contains(t, csp, "script-src 'sha256-")
	assert.Contains(t, string(body), "/ws/observe")
	assert.NotContains(t, string(body), "innerHTML", "the page only ever sets textContent")
	assert.NotRegexp(t, `(src|href)="https?://`, string(body), "no external assets")

	for _, path := range []string{"/missing", "/ws/other"} {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, path)
	}
	resp2, err := http.Post(srv.URL+observe.PathObserve, "application/json", nil)
	require.NoError(t, err)
	resp2.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp2.StatusCode, "read-only")
}
