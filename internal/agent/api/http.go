package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// APIError is an error answer of a provider API, with the provider's own message.
type APIError struct {
	Provider   string
	Status     int
	Type       string // the provider's error type or code when given
	Message    string
	RetryAfter time.Duration // from the Retry-After header, 0 when absent
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if e.Type != "" {
		return fmt.Sprintf("%s api: %d %s: %s", e.Provider, e.Status, e.Type, msg)
	}
	return fmt.Sprintf("%s api: %d: %s", e.Provider, e.Status, msg)
}

// RateLimited reports a 429 (or Anthropic's 529 overloaded).
func (e *APIError) RateLimited() bool {
	return e.Status == http.StatusTooManyRequests || e.Status == 529
}

// Auth reports an authentication or permission failure.
func (e *APIError) Auth() bool {
	return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
}

// retryable: rate limits, overload, server errors, timeouts, and (a few times, 4.E2)
// auth errors, which are sometimes transient at the provider.
func (e *APIError) retryable() bool {
	return e.RateLimited() || e.Auth() || e.Status == http.StatusRequestTimeout || e.Status >= 500
}

// RetryPolicy bounds the retries of one model call.
type RetryPolicy struct {
	MaxAttempts     int           // total attempts, default 5
	InitialInterval time.Duration // default 1s
	MaxInterval     time.Duration // default 30s
	MaxRetryAfter   time.Duration // longest Retry-After honoured, default 2m
	Sleep           func(ctx context.Context, d time.Duration) error
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 5
	}
	if p.InitialInterval <= 0 {
		p.InitialInterval = time.Second
	}
	if p.MaxInterval <= 0 {
		p.MaxInterval = 30 * time.Second
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 2 * time.Minute
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
	// decodeError extracts the provider's error type and message from an error body.
	decodeError func(body []byte) (typ, msg string)
}

// postJSON posts in to url with headers and decodes the answer into out, retrying with
// exponential backoff and jitter (cenkalti/backoff) and honouring Retry-After.
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
	var last error
	for attempt := 1; ; attempt++ {
		last = t.once(ctx, url, headers, body, out)
		if last == nil {
			return nil
		}
		var apiErr *APIError
		retry := errors.As(last, &apiErr) && apiErr.retryable()
		if !retry && !errors.As(last, &apiErr) && ctx.Err() == nil {
			retry = true // network error: the provider may be briefly unreachable
		}
		if !retry || attempt >= pol.MaxAttempts || ctx.Err() != nil {
			break
		}
		wait := bo.NextBackOff()
		if apiErr != nil && apiErr.RetryAfter > 0 {
			wait = min(apiErr.RetryAfter, pol.MaxRetryAfter)
		}
		if err := pol.Sleep(ctx, wait); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return last
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
		e := &APIError{Provider: t.provider, Status: resp.StatusCode, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())}
		if t.decodeError != nil {
			e.Type, e.Message = t.decodeError(data)
		}
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

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date (RFC 9110 10.2.3).
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// errorBody is the common {"error":{"type"|"code"|"status", "message"}} shape shared by
// Anthropic, OpenAI and Gemini error answers.
func decodeCommonError(body []byte) (string, string) {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Code    any    `json:"code"`
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return "", ""
	}
	typ := e.Error.Type
	if typ == "" {
		typ = e.Error.Status
	}
	if typ == "" && e.Error.Code != nil {
		typ = fmt.Sprint(e.Error.Code)
	}
	return typ, e.Error.Message
}
