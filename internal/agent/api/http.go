package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// RetryPolicy bounds the retries of one model call. Rate limits, overload and server
// errors are retried until MaxWait of waiting is spent (the provider's own Retry-After,
// retry-after-ms or RetryInfo delay when it gives one, exponential backoff with jitter
// otherwise); a wait that would not fit in what is left ends the retries at once.
type RetryPolicy struct {
	MaxAttempts     int           // total attempts, default 20
	MaxWait         time.Duration // total waiting between attempts, default DefaultRetryWait, at most MaxRetryWait
	InitialInterval time.Duration // default 2s
	MaxInterval     time.Duration // default 60s
	// Sleep waits between attempts (tests inject one that records instead of waiting).
	Sleep func(ctx context.Context, d time.Duration) error
}

// Bounds of RetryPolicy.MaxWait (llm.retrySeconds).
const (
	DefaultRetryWait = 3 * time.Minute
	MaxRetryWait     = 15 * time.Minute
)

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 20
	}
	if p.MaxWait <= 0 {
		p.MaxWait = DefaultRetryWait
	}
	p.MaxWait = min(p.MaxWait, MaxRetryWait)
	if p.InitialInterval <= 0 {
		p.InitialInterval = 2 * time.Second
	}
	if p.MaxInterval <= 0 {
		p.MaxInterval = 60 * time.Second
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	return p
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// transport sends JSON requests to one provider with retries.
type transport struct {
	provider string
	http     *http.Client
	retry    RetryPolicy
	keyEnv   string // the variable the key came from, named in auth and quota errors
}

// GaveUpError wraps the last error of a call whose retries were spent.
type GaveUpError struct {
	Attempts int
	Waited   time.Duration
	Why      string
	Err      error
}

func (e *GaveUpError) Error() string {
	return fmt.Sprintf("%v (gave up after %d attempts and %s of waiting: %s)", e.Err, e.Attempts, e.Waited.Round(time.Second), e.Why)
}

func (e *GaveUpError) Unwrap() error { return e.Err }

// postJSON posts in to url with headers and decodes the answer into out, retrying what
// can clear by waiting (see RetryPolicy).
func (t *transport) postJSON(ctx context.Context, url string, headers http.Header, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	pol := t.retry.withDefaults()
	bo := backoff.NewExponentialBackOff()
	bo.InitialInterval = pol.InitialInterval
	bo.MaxInterval = pol.MaxInterval
	bo.RandomizationFactor = 0.5
	bo.MaxElapsedTime = 0
	bo.Reset()
	var waited time.Duration
	for attempt := 1; ; attempt++ {
		last := t.once(ctx, url, headers, body, out)
		if last == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var apiErr *APIError
		isAPI := errors.As(last, &apiErr)
		if isAPI && !apiErr.retryable() {
			return last
		}
		// a network error: the provider may be briefly unreachable
		if attempt >= pol.MaxAttempts {
			return &GaveUpError{Attempts: attempt, Waited: waited, Why: fmt.Sprintf("%d attempts", attempt), Err: last}
		}
		wait := bo.NextBackOff()
		if isAPI && apiErr.RetryAfter > 0 {
			wait = apiErr.RetryAfter
		}
		if waited+wait > pol.MaxWait {
			return &GaveUpError{Attempts: attempt, Waited: waited, Err: last,
				Why: fmt.Sprintf("waiting %s more would pass the retry budget of %s (llm.retrySeconds)", wait.Round(time.Millisecond), pol.MaxWait)}
		}
		if err := pol.Sleep(ctx, wait); err != nil {
			return err
		}
		waited += wait
	}
}

func (t *transport) once(ctx context.Context, url string, headers http.Header, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	req.Header = headers.Clone()
	req.Header.Set("Content-Type", "application/json")
	hc := t.http
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s api: %w", t.provider, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return fmt.Errorf("%s api: read answer: %w", t.provider, err)
	}
	if resp.StatusCode/100 != 2 {
		e := &APIError{Provider: t.provider, Status: resp.StatusCode, KeyEnv: t.keyEnv, RetryAfter: retryAfterHeaders(resp.Header, time.Now())}
		decodeErrorBody(data, e)
		if e.Message == "" {
			e.Message = strings.TrimSpace(string(data[:min(len(data), 300)]))
		}
		return e
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s api: decode answer: %w", t.provider, err)
	}
	return nil
}
