package ghaction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/google/go-github/v60/github"
)

// RetryPolicy bounds the retries of a GitHub request.
type RetryPolicy struct {
	MaxRetries int           // retries after the first attempt
	MaxWait    time.Duration // longest single wait; a Retry-After beyond it is not waited for
	MaxElapsed time.Duration // total time spent on one request
	Initial    time.Duration // first backoff without a Retry-After hint
}

// DefaultRetry is used when the policy is zero: a rate-limited or failing GitHub costs a
// job at most about two minutes per request, never an unbounded wait.
var DefaultRetry = RetryPolicy{MaxRetries: 4, MaxWait: 60 * time.Second, MaxElapsed: 2 * time.Minute, Initial: time.Second}

// retryTransport retries 5xx, 429 and rate-limit 403 responses with exponential backoff
// and jitter (cenkalti/backoff), honouring Retry-After and X-RateLimit-Reset.
type retryTransport struct {
	next   http.RoundTripper
	policy RetryPolicy
	log    *slog.Logger
	now    func() time.Time
}

// hintBackOff is an exponential backoff whose next wait can be forced by a server hint.
type hintBackOff struct {
	backoff.BackOff
	hint time.Duration
}

func (h *hintBackOff) NextBackOff() time.Duration {
	d := h.BackOff.NextBackOff()
	if h.hint > 0 && d != backoff.Stop {
		d, h.hint = h.hint, 0
	}
	return d
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.GetBody == nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		req.Body, _ = req.GetBody()
	}
	exp := backoff.NewExponentialBackOff()
	exp.InitialInterval = t.policy.Initial
	exp.MaxInterval = t.policy.MaxWait
	exp.MaxElapsedTime = t.policy.MaxElapsed
	hb := &hintBackOff{BackOff: backoff.WithMaxRetries(exp, uint64(t.policy.MaxRetries))}
	bo := backoff.WithContext(hb, req.Context())

	var resp *http.Response
	attempt := 0
	op := func() error {
		attempt++
		r := req
		if attempt > 1 && req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return backoff.Permanent(err)
			}
			r = req.Clone(req.Context())
			r.Body = body
		}
		var err error
		resp, err = t.next.RoundTrip(r)
		if err != nil {
			if req.Context().Err() != nil {
				return backoff.Permanent(err)
			}
			return err // network error: retry
		}
		wait, retry := t.retryable(resp)
		if !retry {
			return nil
		}
		if wait > t.policy.MaxWait {
			// Waiting longer than the bound: give the response back to the caller.
			return backoff.Permanent(&waitTooLongError{wait})
		}
		hb.hint = wait
		// Keep the last response readable in case this was the final attempt.
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(data))
		return fmt.Errorf("%s %s: %s", req.Method, req.URL.Path, resp.Status)
	}
	notify := func(err error, d time.Duration) {
		t.log.Warn("github request failed, retrying", "error", err, "wait", d.String())
	}
	err := backoff.RetryNotify(op, bo, notify)
	if resp != nil {
		// The last response (success or the final failure) goes to go-github, which
		// turns it into its typed error.
		return resp, nil
	}
	return nil, err
}

type waitTooLongError struct{ d time.Duration }

func (e *waitTooLongError) Error() string {
	return fmt.Sprintf("server asks to wait %s, longer than the retry bound", e.d)
}

// retryable reports whether the response is worth retrying and how long the server asks
// to wait (0 when it does not say).
func (t *retryTransport) retryable(resp *http.Response) (time.Duration, bool) {
	switch {
	case resp.StatusCode >= 500:
		return retryAfter(resp.Header, t.now()), true
	case resp.StatusCode == http.StatusTooManyRequests:
		return retryAfter(resp.Header, t.now()), true
	case resp.StatusCode == http.StatusForbidden:
		if resp.Header.Get("Retry-After") != "" || resp.Header.Get("X-RateLimit-Remaining") == "0" {
			return retryAfter(resp.Header, t.now()), true
		}
		// A secondary rate limit without Retry-After: GitHub says so in the body.
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(data))
		var e struct {
			Message string `json:"message"`
			DocURL  string `json:"documentation_url"`
		}
		_ = json.Unmarshal(data, &e)
		if strings.Contains(strings.ToLower(e.Message), "secondary rate limit") || strings.HasSuffix(e.DocURL, "secondary-rate-limits") {
			return time.Minute, true // GitHub: wait at least one minute
		}
	}
	return 0, false
}

// retryAfter reads Retry-After (seconds or HTTP date) or, for the primary rate limit,
// X-RateLimit-Reset.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After"); v != "" {
		if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
			return time.Duration(s) * time.Second
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0)
		}
	}
	if h.Get("X-RateLimit-Remaining") == "0" {
		if s, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(s, 0).Sub(now)+time.Second, 0)
		}
	}
	return 0
}

// NewClient returns a go-github client for the token and API URL (GITHUB_API_URL; GitHub
// Enterprise Server works too), retrying transient failures under the policy.
func NewClient(token, apiURL string, policy RetryPolicy, log *slog.Logger) (*github.Client, error) {
	if policy == (RetryPolicy{}) {
		policy = DefaultRetry
	}
	hc := &http.Client{Transport: &retryTransport{next: http.DefaultTransport, policy: policy, log: log, now: time.Now}}
	c := github.NewClient(hc)
	if token != "" {
		c = c.WithAuthToken(token)
	}
	if apiURL != "" {
		// GITHUB_API_URL is the full REST base (https://api.github.com or
		// https://ghe.example/api/v3): use it as given.
		u, err := url.Parse(strings.TrimRight(apiURL, "/") + "/")
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, &EnvError{Name: "GITHUB_API_URL", Err: fmt.Errorf("%q is not an absolute URL", apiURL)}
		}
		c.BaseURL = u
	}
	return c, nil
}
