// Package redact masks secrets in every text the product writes: reports, logs,
// events, comments.
package redact

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Mask replaces every secret.
const Mask = "***"

// MinSecretLen is the shortest value New masks: shorter values would mask ordinary text.
const MinSecretLen = 4

// MinEnvSecretLen is the shortest environment value FromEnv treats as a secret.
const MinEnvSecretLen = 8

// Redactor masks a fixed set of secrets. The zero value and a nil *Redactor mask nothing.
type Redactor struct {
	secrets  []string // longest first, so a secret containing another is masked whole
	replacer *strings.Replacer
	maxLen   int
}

// New returns a Redactor for secrets. Empty values and values shorter than MinSecretLen
// are ignored. Besides each value it masks its URL-query-escaped and base64 forms, the
// ways a secret most often reappears in logs.
func New(secrets ...string) *Redactor {
	seen := map[string]bool{}
	var list []string
	add := func(s string) {
		if len(s) >= MinSecretLen && !seen[s] {
			seen[s] = true
			list = append(list, s)
		}
	}
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if len(s) < MinSecretLen {
			continue
		}
		add(s)
		add(url.QueryEscape(s))
		add(base64.StdEncoding.EncodeToString([]byte(s)))
		add(base64.RawURLEncoding.EncodeToString([]byte(s)))
	}
	slices.SortStableFunc(list, func(a, b string) int { return len(b) - len(a) })
	r := &Redactor{secrets: list}
	if len(list) == 0 {
		return r
	}
	pairs := make([]string, 0, 2*len(list))
	for _, s := range list {
		pairs = append(pairs, s, Mask)
		r.maxLen = max(r.maxLen, len(s))
	}
	r.replacer = strings.NewReplacer(pairs...)
	return r
}

// Empty reports whether r masks nothing.
func (r *Redactor) Empty() bool { return r == nil || r.replacer == nil }

// String returns s with every secret replaced by Mask.
func (r *Redactor) String(s string) string {
	if r.Empty() || !r.containsAny(s) {
		return s
	}
	return r.replacer.Replace(s)
}

// containsAny is a fast pre-check: strings.Contains is vectorised, the replacer is not,
// and almost no text contains a secret.
func (r *Redactor) containsAny(s string) bool {
	if len(s) < MinSecretLen {
		return false
	}
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

// Bytes returns b with every secret replaced by Mask (a new slice when anything changed).
func (r *Redactor) Bytes(b []byte) []byte {
	if r.Empty() || len(b) < MinSecretLen {
		return b
	}
	found := false
	for _, sec := range r.secrets {
		if bytes.Contains(b, []byte(sec)) {
			found = true
			break
		}
	}
	if !found {
		return b
	}
	return []byte(r.replacer.Replace(string(b)))
}

// Writer returns a writer that masks secrets before passing text to w, also when a
// secret is split across several writes. It holds back only a trailing part that could
// be the start of a secret; call Flush (or Close) at the end of the stream to write it.
// The returned value is a *Writer.
func (r *Redactor) Writer(w io.Writer) io.Writer { return r.NewWriter(w) }

// NewWriter is Writer with its concrete type.
func (r *Redactor) NewWriter(w io.Writer) *Writer { return &Writer{r: r, w: w} }

// Writer masks secrets in a stream. Safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	r       *Redactor
	w       io.Writer
	pending []byte
}

// Write masks p (with what earlier writes held back) and writes what is safe to write.
// It reports len(p) on success: the caller's bytes were all consumed.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.r.Empty() {
		if _, err := w.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	buf := append(w.pending, p...)
	out, rest := w.r.scan(buf)
	w.pending = append([]byte(nil), rest...)
	if len(out) > 0 {
		if _, err := w.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what is held back, masked.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return nil
	}
	out := w.r.Bytes(w.pending)
	w.pending = nil
	_, err := w.w.Write(out)
	return err
}

// Close flushes. It does not close the underlying writer.
func (w *Writer) Close() error { return w.Flush() }

// scan masks every complete secret of buf and returns the masked text that is safe to
// write now, and the tail that could still grow into a secret with the next write.
func (r *Redactor) scan(buf []byte) (out, rest []byte) {
	// The tail to hold back: the longest suffix of buf that is a proper prefix of a secret.
	hold := 0
	for n := min(len(buf), r.maxLen-1); n > 0; n-- {
		tail := buf[len(buf)-n:]
		if r.isPrefix(tail) {
			hold = n
			break
		}
	}
	cut := len(buf) - hold
	// A complete secret may start before cut and end inside the held tail: mask all of
	// buf, then hold back only when the tail is unchanged.
	head := buf[:cut]
	masked := r.Bytes(buf)
	if hold == 0 {
		return masked, nil
	}
	if bytes.HasSuffix(masked, buf[cut:]) && bytes.Equal(r.Bytes(head), masked[:len(masked)-hold]) {
		return masked[:len(masked)-hold], buf[cut:]
	}
	// The tail took part in a match: everything is resolved.
	return masked, nil
}

func (r *Redactor) isPrefix(tail []byte) bool {
	for _, s := range r.secrets {
		if len(s) > len(tail) && strings.HasPrefix(s, string(tail)) {
			return true
		}
	}
	return false
}

// Secret-looking environment variable names: any name containing one of these words.
var secretWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "PRIVATE"}

// Names that are always secrets (when long enough), whatever the words above say.
var secretNames = []string{
	"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
	"GITHUB_TOKEN", "GH_TOKEN", "INPUT_GITHUB-TOKEN", "INPUT_GITHUB_TOKEN",
	"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
}

// Names that contain a word above but hold no secret.
func notSecretName(name string) bool {
	return strings.HasSuffix(name, "_SOCK") // SSH_AUTH_SOCK: a socket path
}

// FromEnv picks the values of secret-looking variables from environ ("NAME=value"
// entries, as os.Environ returns them): known credential names and any name containing
// KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL or AUTH. Values shorter than MinEnvSecretLen
// are ignored. The result is sorted and free of duplicates.
func FromEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || len(strings.TrimSpace(value)) < MinEnvSecretLen {
			continue
		}
		upper := strings.ToUpper(name)
		if notSecretName(upper) {
			continue
		}
		if slices.Contains(secretNames, upper) || containsAny(upper, secretWords) {
			out = append(out, value)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
