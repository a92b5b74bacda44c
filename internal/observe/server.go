package observe

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// Paths served by Handler.
const (
	PathObserve = "/ws/observe"
	PathViewer  = "/"
)

// Handler serves GET /ws/observe (the event stream) and GET / (the viewer page).
// Requests reaching a non-loopback address must carry the hub's token; requests on
// loopback must name a loopback host (a guard against DNS rebinding).
func (h *Hub) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+PathObserve, h.serveWS)
	mux.HandleFunc("GET /{$}", serveViewer)
	return h.guard(mux)
}

func (h *Hub) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if isLoopbackAddr(local) {
			if !isLoopbackHost(r.Host) {
				http.Error(w, "observe: use localhost or 127.0.0.1 to reach this server", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if h.opts.Token == "" || !validToken(r, h.opts.Token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="smile-loop observe"`)
			http.Error(w, "observe: missing or wrong token: add ?token=… or an Authorization: Bearer header", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func validToken(r *http.Request, want string) bool {
	got := r.URL.Query().Get("token")
	if auth := r.Header.Get("Authorization"); got == "" && len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") {
		got = strings.TrimSpace(auth[7:])
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

func isLoopbackAddr(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

func isLoopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serveWS upgrades to a WebSocket and streams frames until the observer leaves, falls
// behind or the run ends. Observers are read-only: a data message closes the connection
// with a policy violation; pings are answered.
func (h *Hub) serveWS(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, nil) // default: Origin must match Host
	if err != nil {
		h.opts.Logger.Debug("observe: upgrade refused", "err", err)
		return
	}
	defer conn.CloseNow()
	// Read in the background so pings and close frames are answered. (Not CloseRead: in
	// coder/websocket 1.8 its policy-violation close waits 15s on its own goroutine.)
	conn.SetReadLimit(4096)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		defer cancel()
		if _, _, err := conn.Read(ctx); err == nil {
			conn.Close(websocket.StatusPolicyViolation, "observers are read-only")
		}
	}()

	o, err := h.subscribe()
	if err != nil {
		conn.Close(websocket.StatusInternalError, "state unavailable")
		return
	}
	defer h.unsubscribe(o)
	h.stream(ctx, conn, o)
}

// stream writes the observer's frames, at most MaxRate per second.
func (h *Hub) stream(ctx context.Context, conn *websocket.Conn, o *observer) {
	interval := time.Duration(float64(time.Second) / h.opts.MaxRate)
	var last time.Time
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		dropped, finished, n := o.status()
		switch {
		case dropped:
			h.opts.Logger.Info("observe: observer cut off: it fell behind")
			conn.Close(websocket.StatusTryAgainLater, "observer fell behind; reconnect for the current state")
			return
		case n == 0 && finished:
			conn.Close(websocket.StatusNormalClosure, "run finished")
			return
		case n == 0:
			select {
			case <-o.notify:
			case <-o.stop:
			case <-ctx.Done():
				return
			}
			continue
		}
		if wait := interval - time.Since(last); !last.IsZero() && wait > 0 {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				return
			}
		}
		payload, ok := o.next()
		if !ok {
			continue
		}
		wctx, cancel := context.WithTimeout(ctx, h.opts.WriteTimeout)
		err := conn.Write(wctx, websocket.MessageText, payload)
		cancel()
		if err != nil {
			h.opts.Logger.Debug("observe: observer gone", "err", err)
			return
		}
		last = time.Now()
		if h.opts.FrameSent != nil {
			h.opts.FrameSent(last)
		}
	}
}

// ListenError is returned by Serve when the address cannot be used.
type ListenError struct {
	Addr string
	Err  error
}

func (e *ListenError) Error() string {
	return fmt.Sprintf("observe: listen on %s: %v (set observe.port to a free port, or 0 to pick one)", e.Addr, e.Err)
}

func (e *ListenError) Unwrap() error { return e.Err }

// EnvironmentUnavailable marks the error for exit code 3.
func (e *ListenError) EnvironmentUnavailable() bool { return true }

// ErrTokenRequired is returned by Serve for a non-loopback address without a hub token.
var ErrTokenRequired = errors.New("observe: a token is required to listen beyond loopback; set HubOptions.Token or listen on 127.0.0.1")

// Addr is the default listen address for a port: loopback only.
func Addr(port int) string { return net.JoinHostPort("127.0.0.1", fmt.Sprint(port)) }

// Serve listens on addr (use Addr(port); port 0 picks a free one) and serves the hub until
// ctx is done, then closes observers (briefly flushing what they still have queued) and
// the server. It returns the address it listens on.
func Serve(ctx context.Context, addr string, hub *Hub) (net.Addr, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &ListenError{Addr: addr, Err: err}
	}
	if !isLoopbackHost(host) && hub.opts.Token == "" {
		return nil, ErrTokenRequired
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, &ListenError{Addr: addr, Err: err}
	}
	srv := &http.Server{
		Handler:           hub.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(hub.opts.Logger.Handler(), slog.LevelDebug),
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			hub.opts.Logger.Warn("observe: server stopped", "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hub.Close(sctx)
		_ = srv.Shutdown(sctx)
	}()
	return ln.Addr(), nil
}

// ViewerURL is the viewer page's address for a listen address, with the token when
// given. An unspecified host (0.0.0.0) is shown as localhost.
func ViewerURL(addr net.Addr, token string) string {
	host, port := "localhost", ""
	if t, ok := addr.(*net.TCPAddr); ok {
		port = fmt.Sprint(t.Port)
		if !t.IP.IsUnspecified() {
			host = t.IP.String()
		}
	} else if h, p, err := net.SplitHostPort(addr.String()); err == nil {
		host, port = h, p
	}
	u := "http://" + net.JoinHostPort(host, port) + "/"
	if token != "" {
		u += "?token=" + token
	}
	return u
}
