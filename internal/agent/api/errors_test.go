package api

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/provider"
)

// The real error bodies of testdata/errors decode into the right class: auth and quota
// before rate limits, the provider's own delay read from headers or body.
func TestErrorBodiesAreClassified(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file       string
		provider   string
		status     int
		headers    http.Header
		auth       bool
		quota      bool
		rate       bool
		notFound   bool
		retryable  bool
		retryAfter time.Duration
		typ        string
	}{
		{file: "anthropic-401.json", provider: "anthropic", status: 401, auth: true, typ: "authentication_error"},
		{file: "anthropic-429.json", provider: "anthropic", status: 429, headers: http.Header{"Retry-After": {"20"}}, rate: true, retryable: true, retryAfter: 20 * time.Second, typ: "rate_limit_error"},
		{file: "anthropic-429-spend-limit.json", provider: "anthropic", status: 429, headers: http.Header{"Retry-After": {"20"}}, quota: true, retryAfter: 20 * time.Second, typ: "rate_limit_error"},
		{file: "anthropic-529.json", provider: "anthropic", status: 529, rate: true, retryable: true, typ: "overloaded_error"},
		{file: "anthropic-404-model.json", provider: "anthropic", status: 404, notFound: true, typ: "not_found_error"},
		{file: "openai-401.json", provider: "openai", status: 401, auth: true, typ: "invalid_request_error"},
		{file: "openai-429-insufficient-quota.json", provider: "openai", status: 429, quota: true, typ: "insufficient_quota"},
		{file: "openai-429-rate-limit.json", provider: "openai", status: 429, headers: http.Header{"Retry-After-Ms": {"2600"}, "Retry-After": {"3"}}, rate: true, retryable: true, retryAfter: 2600 * time.Millisecond, typ: "tokens"},
		{file: "openai-404-model.json", provider: "openai", status: 404, notFound: true, typ: "invalid_request_error"},
		{file: "gemini-400-api-key-invalid.json", provider: "gemini", status: 400, auth: true, typ: "INVALID_ARGUMENT"},
		{file: "gemini-429-per-minute.json", provider: "gemini", status: 429, rate: true, retryable: true, retryAfter: 43 * time.Second, typ: "RESOURCE_EXHAUSTED"},
		{file: "gemini-429-per-day.json", provider: "gemini", status: 429, quota: true, retryAfter: 19 * time.Second, typ: "RESOURCE_EXHAUSTED"},
		{file: "gemini-404-model.json", provider: "gemini", status: 404, notFound: true, typ: "NOT_FOUND"},
		{file: "gemini-503.json", provider: "gemini", status: 503, retryable: true, typ: "UNAVAILABLE"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(filepath.Join("testdata", "errors", tt.file))
			require.NoError(t, err)
			e := &APIError{Provider: tt.provider, Status: tt.status, KeyEnv: "SOME_API_KEY", RetryAfter: retryAfterHeaders(tt.headers, time.Now())}
			decodeErrorBody(body, e)
			assert.NotEmpty(t, e.Message)
			assert.Equal(t, tt.typ, e.Type)
			assert.Equal(t, tt.auth, e.Auth(), "auth")
			assert.Equal(t, tt.quota, e.QuotaExhausted(), "quota")
			assert.Equal(t, tt.rate, e.RateLimited(), "rate limited")
			assert.Equal(t, tt.notFound, e.NotFound(), "not found")
			assert.Equal(t, tt.retryable, e.retryable(), "retryable")
			assert.Equal(t, tt.retryAfter, e.RetryAfter)
			assert.Equal(t, tt.auth || tt.quota, e.EnvironmentUnavailable())
			if tt.auth || tt.quota {
				assert.Contains(t, e.Error(), "SOME_API_KEY", "the hint names the variable to check")
			}
		})
	}
}

// sleeper records the waits of a transport instead of waiting.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return nil
}

func (s *sleeper) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// Each provider's fake answers with its real error first; the client waits what the
// provider asked for (recorded, not slept), retries what can clear and stops at once on
// what cannot.
func TestRetriesFollowTheProvider(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		provider  string
		status    int
		file      string
		headers   map[string]string
		failures  int // error answers before a good one
		maxWait   time.Duration
		wantCalls int
		wantWaits []time.Duration // nil: backoff, only counted
		wantErr   func(t *testing.T, err error)
	}{
		{name: "gemini RetryInfo", provider: "gemini", status: 429, file: "gemini-429-per-minute.json", failures: 2, wantCalls: 3, wantWaits: []time.Duration{43 * time.Second, 43 * time.Second}},
		{name: "openai retry-after-ms", provider: "openai", status: 429, file: "openai-429-rate-limit.json", headers: map[string]string{"retry-after-ms": "2600", "retry-after": "3"}, failures: 1, wantCalls: 2, wantWaits: []time.Duration{2600 * time.Millisecond}},
		{name: "anthropic retry-after", provider: "anthropic", status: 429, file: "anthropic-429.json", headers: map[string]string{"retry-after": "20"}, failures: 1, wantCalls: 2, wantWaits: []time.Duration{20 * time.Second}},
		{name: "anthropic 529 backoff", provider: "anthropic", status: 529, file: "anthropic-529.json", failures: 3, wantCalls: 4},
		{name: "gemini 503 backoff", provider: "gemini", status: 503, file: "gemini-503.json", failures: 2, wantCalls: 3},
		{name: "anthropic 401 not retried", provider: "anthropic", status: 401, file: "anthropic-401.json", failures: 9, wantCalls: 1, wantWaits: []time.Duration{},
			wantErr: func(t *testing.T, err error) { assert.Contains(t, err.Error(), "invalid x-api-key") }},
		{name: "openai insufficient_quota not retried", provider: "openai", status: 429, file: "openai-429-insufficient-quota.json", failures: 9, wantCalls: 1, wantWaits: []time.Duration{},
			wantErr: func(t *testing.T, err error) { assert.Contains(t, err.Error(), "no quota or credit left") }},
		{name: "gemini daily quota not retried", provider: "gemini", status: 429, file: "gemini-429-per-day.json", failures: 9, wantCalls: 1, wantWaits: []time.Duration{}},
		{name: "gemini bad key not retried", provider: "gemini", status: 400, file: "gemini-400-api-key-invalid.json", failures: 9, wantCalls: 1, wantWaits: []time.Duration{}},
		{name: "openai 404 not retried", provider: "openai", status: 404, file: "openai-404-model.json", failures: 9, wantCalls: 1, wantWaits: []time.Duration{}},
		{name: "delay past the budget gives up at once", provider: "gemini", status: 429, file: "gemini-429-per-minute.json", failures: 9, maxWait: 30 * time.Second, wantCalls: 1, wantWaits: []time.Duration{},
			wantErr: func(t *testing.T, err error) {
				var gave *GaveUpError
				require.ErrorAs(t, err, &gave)
				assert.Contains(t, err.Error(), "llm.retrySeconds")
			}},
		{name: "budget spent over several waits", provider: "gemini", status: 429, file: "gemini-429-per-minute.json", failures: 9, maxWait: 100 * time.Second, wantCalls: 3, wantWaits: []time.Duration{43 * time.Second, 43 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newModelServer(t, tt.provider, func(view) reply { return reply{Text: "ok"} })
			calls := 0
			var mu sync.Mutex
			srv.fail = func(n int, w http.ResponseWriter) bool {
				mu.Lock()
				calls = n
				mu.Unlock()
				if n > tt.failures {
					return false
				}
				serveError(w, tt.status, tt.file, tt.headers)
				return true
			}
			var sl sleeper
			c := clientFor(tt.provider, srv.URL, RetryPolicy{MaxWait: tt.maxWait, Sleep: sl.sleep})
			resp, err := c.Complete(context.Background(), Request{Model: "m", Messages: []Message{{Role: RoleUser, Parts: []Part{{Text: "hi"}}}}})
			mu.Lock()
			assert.Equal(t, tt.wantCalls, calls, "requests sent")
			mu.Unlock()
			if tt.wantWaits != nil {
				assert.Equal(t, tt.wantWaits, append([]time.Duration{}, sl.got()...))
			} else {
				assert.Len(t, sl.got(), tt.failures)
			}
			if tt.failures < tt.wantCalls {
				require.NoError(t, err)
				assert.Equal(t, "ok", resp.Message.Text())
				return
			}
			require.Error(t, err)
			var apiErr *APIError
			require.True(t, errors.As(err, &apiErr))
			if tt.wantErr != nil {
				tt.wantErr(t, err)
			}
		})
	}
}

// A refused key ends a Student attempt with the error (the loop ends the run, exit 3),
// not with a tutorial blocker; the message names the variable to check.
func TestAuthErrorEndsTheAttemptNamingTheVariable(t *testing.T) {
	t.Parallel()
	srv := newModelServer(t, "anthropic", func(view) reply { return reply{Text: "never"} })
	ep := Endpoint{Provider: "claude", BaseURL: srv.URL, Credential: provider.Credential{Var: "ANTHROPIC_API_KEY", Kind: provider.KindAPIKey, Value: "wrong"}}
	c, err := NewClient(ep, nil, RetryPolicy{Sleep: (&sleeper{}).sleep})
	require.NoError(t, err)
	_, err = NewStudent(Options{Client: c, Standard: "m"}).Attempt(context.Background(), studentTask(t))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid x-api-key")
	assert.Contains(t, err.Error(), "check ANTHROPIC_API_KEY")
	var env interface{ EnvironmentUnavailable() bool }
	require.ErrorAs(t, err, &env)
	assert.True(t, env.EnvironmentUnavailable())
	assert.Len(t, srv.views(), 0, "the refused request never reached the model")
}
