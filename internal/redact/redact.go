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
	secrets [][]byte // longest first, so a secret containing another is masked whole
	strs    []string // the same, as strings
	maxLen  int
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
	r := &Redactor{}
	for _, s := range list {
		r.secrets = append(r.secrets, []byte(s))
		r.strs = append(r.strs, s)
		r.maxLen = max(r.maxLen, len(s))
	}
	return r
}

// Empty reports whether r masks nothing.
func (r *Redactor) Empty() bool { return r == nil || len(r.secrets) == 0 }

// String returns s with every secret replaced by Mask. Matches are found left to right;
// where several secrets match at one place, the longest wins.
func (r *Redactor) String(s string) string {
	if r.Empty() || !r.containsAnyString(s) {
		return s
	}
	out, _ := r.mask(make([]byte, 0, len(s)), []byte(s), true)
	return string(out)
}

// Bytes returns b with every secret replaced by Mask (a new slice when anything changed).
func (r *Redactor) Bytes(b []byte) []byte {
	if r.Empty() || !r.containsAny(b) {
		return b
	}
	out, _ := r.mask(make([]byte, 0, len(b)), b, true)
	return out
}

// containsAny is a fast pre-check (bytes.Contains is vectorised): almost no text
// contains a secret.
func (r *Redactor) containsAny(b []byte) bool {
	for _, sec := range r.secrets {
		if bytes.Contains(b, sec) {
			return true
		}
	}
	return false
}

func (r *Redactor) containsAnyString(s string) bool {
	for _, sec := range r.strs {
		if strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

// mask appends the masked text of buf to out. With final false it stops where a secret
// may begin but buf ends before that can be decided, and reports how many bytes of buf
// it consumed; the caller keeps the rest for the next write. Stopping only there makes
// a stream cut anywhere mask exactly like the whole text.
func (r *Redactor) mask(out, buf []byte, final bool) ([]byte, int) {
	next := make([]int, len(r.secrets)) // next occurrence of each secret at or after i; -1: none
	for k := range next {
		next[k] = -2 // unknown
	}
	i := 0
	for {
		m, ml := -1, 0
		for k, sec := range r.secrets {
			if next[k] == -2 || next[k] >= 0 && next[k] < i {
				next[k] = -1
				if j := bytes.Index(buf[i:], sec); j >= 0 {
					next[k] = i + j
				}
			}
			if p := next[k]; p >= 0 && (m < 0 || p < m) {
				m, ml = p, len(sec)
			}
		}
		if !final {
			end := len(buf) - 1
			if m >= 0 {
				end = min(end, m)
			}
			for q := max(i, len(buf)-r.maxLen+1); q <= end; q++ {
				if r.isPrefix(buf[q:]) {
					return append(out, buf[i:q]...), q
				}
			}
		}
		if m < 0 {
			return append(out, buf[i:]...), len(buf)
		}
		out = append(out, buf[i:m]...)
		out = append(out, Mask...)
		i = m + ml
	}
}

// isPrefix: tail is the beginning of a secret longer than tail.
func (r *Redactor) isPrefix(tail []byte) bool {
	for _, s := range r.secrets {
		if len(s) > len(tail) && bytes.HasPrefix(s, tail) {
			return true
		}
	}
	return false
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
	out, n := w.r.mask(nil, buf, false)
	w.pending = append(w.pending[:0:0], buf[n:]...)
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
