package headless

import (
	"regexp"
	"strings"
)

// Error kinds of a failed CLI run.
const (
	ErrRateLimit = "rate_limit"
	ErrAuth      = "auth"
	ErrNetwork   = "network"
	ErrUsage     = "usage" // the CLI refused its command line (an image/wrapper mismatch)
	ErrOther     = "error"
)

var (
	reRate  = regexp.MustCompile(`(?i)\b429\b|\b529\b|rate[ _-]?limit|too many requests|resource_exhausted|overloaded|quota exceeded`)
	reAuth  = regexp.MustCompile(`(?i)\b401\b|\b403\b|unauthori[sz]ed|authentication_error|invalid api key|invalid x-api-key|api key not valid|permission_denied|please run /login|not logged in|incorrect api key|please set an auth method`)
	reNet   = regexp.MustCompile(`(?i)connection (refused|reset|error)|econnrefused|econnreset|enotfound|eai_again|fetch failed|error sending request|stream disconnected|network is unreachable|no route to host`)
	reUsage = regexp.MustCompile(`(?im)^(error: unknown option|error: unexpected argument|error: invalid value|error: option '.*' argument|error: when using --print|unknown arguments?:|invalid values:|cannot use both|gemini cli is not running in a trusted directory)`)
	// reErrLine starts the CLI's own error among warnings and help.
	reErrLine = regexp.MustCompile(`(?i)^(error\b|fatal\b|unknown arguments?:|invalid values:|cannot use both|please set an auth|not logged in|gemini cli is not running|api error|\[api error)`)
)

// ClassifyError names the kind of a provider error message. Auth comes before rate
// limits: codex reports a 401 as "exceeded retry limit, last status: 401 Unauthorized".
func ClassifyError(msg string) string {
	switch {
	case reUsage.MatchString(msg):
		return ErrUsage
	case reAuth.MatchString(msg):
		return ErrAuth
	case reRate.MatchString(msg):
		return ErrRateLimit
	case reNet.MatchString(msg):
		return ErrNetwork
	}
	return ErrOther
}

// Retryable reports whether a failure of this kind is worth another run, provided the
// run did nothing (no tool call): provider throttling, auth and network failures
// (4.E2, 6.E1). A refused command line fails the same way every time.
func Retryable(kind string) bool {
	return kind == ErrRateLimit || kind == ErrAuth || kind == ErrNetwork
}

// ErrorLines returns the CLI's own error from what it printed when it exited before
// doing any work: the block starting at its error line (clap's "error: …", commander's
// "error: unknown option …", yargs' "Unknown argument: …", gemini's auth message), up to
// the blank line or help that follows; never the tail of the help text. Without a
// recognisable error line, the first block of output that is not a warning.
func ErrorLines(out string) string {
	lines := strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n")
	start := -1
	for i, l := range lines {
		if reErrLine.MatchString(strings.TrimSpace(l)) {
			start = i
			break
		}
	}
	if start < 0 {
		for i, l := range lines {
			t := strings.TrimSpace(l)
			if t != "" && !isNoise(t) {
				start = i
				break
			}
		}
	}
	if start < 0 {
		return ""
	}
	var block []string
	for _, l := range lines[start:] {
		t := strings.TrimRight(l, " \t")
		if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "Usage:") || strings.HasPrefix(t, "Options:") || len(block) == 6 {
			break
		}
		block = append(block, t)
	}
	return strings.Join(block, "\n")
}

// isNoise: warnings the CLIs print before their error (node deprecations, codex's
// --full-auto warning, gemini's YOLO notice).
func isNoise(l string) bool {
	low := strings.ToLower(l)
	return strings.HasPrefix(low, "warning") || strings.HasPrefix(low, "(node:") || strings.Contains(low, "deprecationwarning") ||
		strings.HasPrefix(low, "(use `node --trace") || strings.HasPrefix(low, "loaded cached credentials")
}
