package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// APIError is an error answer of a provider API, with the provider's own message and
// what smile-loop read from it to decide whether a retry can help.
//
// The error bodies it reads, per provider:
//   - Anthropic: {"type":"error","error":{"type":"authentication_error"|"rate_limit_error"|
//     "overloaded_error"|"not_found_error"|"billing_error"|…,"message":…},"request_id":…};
//     a spend-limit 429 adds error.details.error_code "enforced_spend_limit_reached".
//     https://docs.claude.com/en/api/errors (Nov 2026)
//   - OpenAI: {"error":{"message":…,"type":…,"param":…,"code":…}}; an account without
//     credit gets 429 with type and code "insufficient_quota"; the headers
//     retry-after-ms / retry-after say when to come back.
//     https://platform.openai.com/docs/guides/error-codes (Nov 2026)
//   - Gemini: {"error":{"code":429,"message":…,"status":"RESOURCE_EXHAUSTED","details":[
//     {"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":…}]},
//     {"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"19s"}]}}; a bad key
//     is 400 INVALID_ARGUMENT with ErrorInfo reason API_KEY_INVALID.
//     https://ai.google.dev/gemini-api/docs/troubleshooting and google/rpc/error_details.proto
type APIError struct {
	Provider string
	Status   int
	Type     string // the provider's error type, code or status when given
	Message  string
	// RetryAfter is when the provider asks to come back: retry-after-ms, Retry-After or
	// Gemini's RetryInfo.retryDelay; 0 when it does not say.
	RetryAfter time.Duration
	Reason     string // Gemini ErrorInfo.reason or Anthropic error.details.error_code
	QuotaID    string // Gemini QuotaFailure violation quotaId
	// KeyEnv names the variable the key came from, for the hint of auth and quota errors.
	KeyEnv string
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	s := fmt.Sprintf("%s api: %d: %s", e.Provider, e.Status, msg)
	if e.Type != "" {
		s = fmt.Sprintf("%s api: %d %s: %s", e.Provider, e.Status, e.Type, msg)
	}
	if hint := e.hint(); hint != "" {
		s += " (" + hint + ")"
	}
	return s
}

func (e *APIError) keyName() string {
	if e.KeyEnv != "" {
		return e.KeyEnv
	}
	return "the provider's API key variable"
}

func (e *APIError) hint() string {
	switch {
	case e.Auth():
		return "the key was refused: check " + e.keyName()
	case e.QuotaExhausted():
		return "the account behind " + e.keyName() + " has no quota or credit left: check its plan and billing; retrying cannot help"
	}
	return ""
}

// Auth reports an authentication or permission failure: a missing, wrong or revoked key.
func (e *APIError) Auth() bool {
	switch {
	case e.Status == http.StatusUnauthorized, e.Status == http.StatusForbidden:
		return true
	case e.Reason == "API_KEY_INVALID", e.Type == "authentication_error", e.Type == "permission_error":
		return true
	}
	return false
}

// QuotaExhausted reports an account out of credit or daily quota: OpenAI
// insufficient_quota, Anthropic billing errors and spend limits, Gemini per-day quota.
// Waiting minutes does not help, so it is never retried.
func (e *APIError) QuotaExhausted() bool {
	switch {
	case e.Type == "insufficient_quota", e.Type == "billing_error", e.Status == http.StatusPaymentRequired:
		return true
	case e.Reason == "enforced_spend_limit_reached":
		return true
	case e.QuotaID != "" && strings.Contains(e.QuotaID, "PerDay"):
		return true
	}
	return false
}

// NotFound reports an unknown path or model (a retired or misspelt model name).
func (e *APIError) NotFound() bool { return e.Status == http.StatusNotFound }

// RateLimited reports a 429 (or Anthropic's 529 overloaded) that waiting can clear.
func (e *APIError) RateLimited() bool {
	return (e.Status == http.StatusTooManyRequests || e.Status == 529) && !e.QuotaExhausted() && !e.Auth()
}

// retryable: rate limits, overload and transient server errors. Never a bad request,
// a refused key, an unknown model or an exhausted quota: auth and quota are checked
// first because some of them arrive as 429.
func (e *APIError) retryable() bool {
	if e.Auth() || e.QuotaExhausted() {
		return false
	}
	switch e.Status {
	case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusInternalServerError,
		http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout, 529:
		return true
	}
	return false
}

// EnvironmentUnavailable marks a refused key or an exhausted quota: the run ends at
// once with exit code 3 instead of counting as a tutorial blocker.
func (e *APIError) EnvironmentUnavailable() bool { return e.Auth() || e.QuotaExhausted() }

// errorBody is the union of the three providers' error envelopes.
type errorBody struct {
	Error struct {
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
		Status  string          `json:"status"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"` // Gemini: a list; Anthropic: an object
	} `json:"error"`
}

type geminiDetail struct {
	Type       string `json:"@type"`
	Reason     string `json:"reason"`
	RetryDelay string `json:"retryDelay"`
	Violations []struct {
		QuotaID string `json:"quotaId"`
	} `json:"violations"`
}

// decodeErrorBody fills e from a provider error body; a body in no known shape leaves
// e.Message to the caller.
func decodeErrorBody(body []byte, e *APIError) {
	var b errorBody
	if json.Unmarshal(body, &b) != nil {
		return
	}
	e.Message = b.Error.Message
	var code string
	if len(b.Error.Code) > 0 {
		if json.Unmarshal(b.Error.Code, &code) != nil {
			code = "" // Gemini's numeric code repeats the HTTP status
		}
	}
	// OpenAI puts the decisive word in code (insufficient_quota, invalid_api_key) and a
	// broad one in type (invalid_request_error); Anthropic only has type; Gemini status.
	switch {
	case code == "insufficient_quota":
		e.Type = code
	case b.Error.Type != "":
		e.Type = b.Error.Type
	case b.Error.Status != "":
		e.Type = b.Error.Status
	default:
		e.Type = code
	}
	if code == "invalid_api_key" {
		e.Reason = code
	}
	var details []geminiDetail
	if json.Unmarshal(b.Error.Details, &details) == nil {
		for _, d := range details {
			switch {
			case strings.HasSuffix(d.Type, "google.rpc.ErrorInfo"):
				e.Reason = d.Reason
			case strings.HasSuffix(d.Type, "google.rpc.RetryInfo"):
				if dur, err := time.ParseDuration(d.RetryDelay); err == nil && dur > 0 && e.RetryAfter == 0 {
					e.RetryAfter = dur
				}
			case strings.HasSuffix(d.Type, "google.rpc.QuotaFailure"):
				for _, v := range d.Violations {
					if e.QuotaID == "" || strings.Contains(v.QuotaID, "PerDay") {
						e.QuotaID = v.QuotaID
					}
				}
			}
		}
		return
	}
	var anthropic struct {
		ErrorCode string `json:"error_code"`
	}
	if json.Unmarshal(b.Error.Details, &anthropic) == nil && anthropic.ErrorCode != "" {
		e.Reason = anthropic.ErrorCode
	}
}

// retryAfterHeaders reads OpenAI's retry-after-ms, then the standard Retry-After.
func retryAfterHeaders(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(strings.TrimSpace(h.Get("retry-after-ms")), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	return parseRetryAfter(h.Get("Retry-After"), now)
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
