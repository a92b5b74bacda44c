package loop

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
)

// Turn is what the wrapper should do now (GET /api/status, now.reason).
type Turn string

// Turns of the wrapper API.
const (
	TurnStudent Turn = "student_turn"
	TurnMentor  Turn = "mentor_turn"
	TurnWaiting Turn = "waiting"
	TurnDone    Turn = "done"
)

// DefaultMaxBody bounds a posted result.
const DefaultMaxBody = 1 << 20

// ContainerHost is how the learner container reaches the host (spec 3.3).
const ContainerHost = "host.docker.internal"

// APITask is the task payload of GET /api/status.
type APITask struct {
	Prompt   string                 `json:"prompt"`
	Tutorial string                 `json:"tutorial"`
	Notes    []string               `json:"notes"`
	Behavior config.StudentBehavior `json:"behavior"`
}

// APIStatus is the body of GET /api/status.
type APIStatus struct {
	RunID     string   `json:"runId,omitempty"`
	Now       APINow   `json:"now"`
	Iteration int      `json:"iteration"`
	Task      *APITask `json:"task,omitempty"`
}

// APINow says what the wrapper should do now.
type APINow struct {
	Reason Turn `json:"reason"`
}

// ServerOptions configure the wrapper HTTP API.
type ServerOptions struct {
	// Addr is where to listen (host or host:port, as Sandbox.HostAddr returns it).
	// Never 0.0.0.0: the API listens only where the container reaches it.
	Addr string
	// ContainerHost is the host name the container uses for the orchestrator;
	// "" means host.docker.internal.
	ContainerHost string
	RunID         string
	OnStop        func() // POST /api/stop
	MaxBody       int64  // 0 means DefaultMaxBody
	Logger        *slog.Logger
}

// Server is the wrapper HTTP API of one run (spec 7.6, DESIGN.md contract 4). It
// implements Callback for the agent runtimes.
type Server struct {
	opts  ServerOptions
	token string // the run token: reads GET /api/status, nothing else
	ln    net.Listener
	srv   *http.Server
	url   string

	mu        sync.Mutex
	turn      Turn
	turnToken string // the current Student or Mentor turn's token: posts its result or stops the run
	iteration int
	task      *APITask
	results   map[resultKey][]byte
	changed   chan struct{} // closed and replaced on every change
	stopOnce  sync.Once
}

type resultKey struct {
	kind      string // student, mentor
	iteration int
}

var _ Callback = (*Server)(nil)

// NewServer listens on opts.Addr and serves the API until Close.
func NewServer(opts ServerOptions) (*Server, error) {
	addr := opts.Addr
	if addr == "" {
		return nil, errors.New("wrapper API: no listen address")
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(strings.Trim(addr, "[]"), "0")
	}
	host, _, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return nil, fmt.Errorf("wrapper API: refusing to listen on %q, which is wider than the container needs", addr)
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.ContainerHost == "" {
		opts.ContainerHost = ContainerHost
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	tok, err := newToken()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("wrapper API: listen on %s: %w", addr, err)
	}
	s := &Server{
		opts:    opts,
		token:   tok,
		ln:      ln,
		turn:    TurnWaiting,
		results: map[resultKey][]byte{},
		changed: make(chan struct{}),
	}
	port := ln.Addr().(*net.TCPAddr).Port
	s.url = "http://" + net.JoinHostPort(opts.ContainerHost, strconv.Itoa(port))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/status", s.auth(true, s.handleStatus))
	mux.HandleFunc("POST /api/student/result", s.auth(false, s.handleResult("student", TurnStudent)))
	mux.HandleFunc("POST /api/mentor/result", s.auth(false, s.handleResult("mentor", TurnMentor)))
	mux.HandleFunc("POST /api/stop", s.auth(false, s.handleStop))
	s.srv = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			opts.Logger.Warn("wrapper API stopped", "err", err)
		}
	}()
	return s, nil
}

// startServer starts the API where the sandbox's container reaches the host.
func (r *runner) startServer(ctx context.Context, onStop func()) (*Server, error) {
	addr, err := r.o.Sandbox.HostAddr(ctx)
	if err != nil {
		return nil, fmt.Errorf("wrapper API address: %w", err)
	}
	return NewServer(ServerOptions{Addr: addr, RunID: r.st.RunID, OnStop: onStop, Logger: r.log})
}

// URL is the API's base URL as the container sees it.
func (s *Server) URL() string { return s.url }

// Token is the bearer token a wrapper started now must use: during a Student or Mentor
// turn, that turn's own token (a fresh one per turn, the only one that can post the
// turn's result or stop the run); between turns, the run token, which only reads
// GET /api/status. Pass it to the wrapper on its standard input, never in its
// environment: every process of the container's user can read an environment.
func (s *Server) Token() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turnToken != "" {
		return s.turnToken
	}
	return s.token
}

func newToken() (string, error) {
	tok := make([]byte, 32)
	if _, err := rand.Read(tok); err != nil {
		return "", fmt.Errorf("wrapper API token: %w", err)
	}
	return hex.EncodeToString(tok), nil
}

// Addr is the address the API listens on (host side).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the API.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return s.srv.Shutdown(ctx)
}

// StudentResult waits for POST /api/student/result of iteration.
func (s *Server) StudentResult(ctx context.Context, iteration int) (json.RawMessage, error) {
	return s.wait(ctx, resultKey{"student", iteration})
}

// MentorResult waits for POST /api/mentor/result of iteration.
func (s *Server) MentorResult(ctx context.Context, iteration int) (json.RawMessage, error) {
	return s.wait(ctx, resultKey{"mentor", iteration})
}

func (s *Server) wait(ctx context.Context, k resultKey) (json.RawMessage, error) {
	for {
		s.mu.Lock()
		body, ok := s.results[k]
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return json.RawMessage(body), nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for the %s wrapper of iteration %d: %w", k.kind, k.iteration, context.Cause(ctx))
		}
	}
}

// setTurn tells wrappers what to do now.
func (s *Server) setTurn(t Turn, iteration int, task *APITask) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t != s.turn || iteration != s.iteration || s.turnToken == "" {
		s.turnToken = ""
		if t == TurnStudent || t == TurnMentor {
			tok, err := newToken()
			if err != nil {
				tok = "" // no turn token: no result can be posted, the turn times out
				s.opts.Logger.Warn("wrapper API turn token", "err", err)
			}
			s.turnToken = tok
		}
	}
	s.turn, s.iteration, s.task = t, iteration, task
	for k := range s.results { // keep the last two iterations for idempotent re-posts
		if k.iteration < iteration-1 {
			delete(s.results, k)
		}
	}
	s.notifyLocked()
}

// SetTurn is setTurn for agent runtimes and tests driving a Server directly.
func (s *Server) SetTurn(t Turn, iteration int, task *APITask) { s.setTurn(t, iteration, task) }

func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// auth admits the current turn's token, and the run token too when readOnly.
func (s *Server) auth(readOnly bool, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		got := []byte(req.Header.Get("Authorization"))
		s.mu.Lock()
		turn := s.turnToken
		s.mu.Unlock()
		ok := turn != "" && subtle.ConstantTimeCompare(got, []byte("Bearer "+turn)) == 1
		if readOnly && !ok {
			ok = subtle.ConstantTimeCompare(got, []byte("Bearer "+s.token)) == 1
		}
		if !ok {
			if !readOnly {
				s.opts.Logger.Warn("wrapper API: refused a request without the current turn's token (a process in the container other than the wrapper?)",
					"method", req.Method, "path", req.URL.Path)
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="smile-loop"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "missing or wrong bearer token (results and stop need the current turn's token)"})
			return
		}
		next(w, req)
	}
}

func (s *Server) handleStatus(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	st := APIStatus{RunID: s.opts.RunID, Now: APINow{Reason: s.turn}, Iteration: s.iteration, Task: s.task}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) handleResult(kind string, turn Turn) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, s.opts.MaxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": fmt.Sprintf("body larger than %d bytes", s.opts.MaxBody)})
				return
			}
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "read body: " + err.Error()})
			return
		}
		if len(bytes.TrimSpace(body)) == 0 {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "empty body: post the " + kind + " output"})
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		iteration := s.iteration
		if q := req.URL.Query().Get("iteration"); q != "" {
			n, err := strconv.Atoi(q)
			if err != nil || n < 1 {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "iteration must be a positive integer"})
				return
			}
			iteration = n
		}
		k := resultKey{kind, iteration}
		if prev, ok := s.results[k]; ok {
			if bytes.Equal(prev, body) {
				writeJSON(w, http.StatusOK, map[string]any{"ok": true, "iteration": iteration, "duplicate": true})
				return
			}
			writeJSON(w, http.StatusConflict, map[string]string{"error": fmt.Sprintf("a different %s result was already posted for iteration %d", kind, iteration)})
			return
		}
		if s.turn != turn || iteration != s.iteration {
			writeJSON(w, http.StatusConflict, map[string]string{"error": fmt.Sprintf("not expecting a %s result for iteration %d now (now: %s, iteration %d)", kind, iteration, s.turn, s.iteration)})
			return
		}
		s.results[k] = body
		s.notifyLocked()
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "iteration": iteration})
	}
}

func (s *Server) handleStop(w http.ResponseWriter, _ *http.Request) {
	s.stopOnce.Do(func() {
		if s.opts.OnStop != nil {
			s.opts.OnStop()
		}
	})
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
