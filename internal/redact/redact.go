// Package redact masks secrets in every text the product writes: reports, logs,
// events, comments.
package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/smile-loop/smile-loop/internal/provider"
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
	raw     []string         // the secrets themselves, for partial masking at cuts
	wrapped []string         // encoded forms long enough to be found across line wraps
	windows map[uint64][]int // wrapWindow-byte pieces of wrapped (at wrapStride) → their indexes
}

// minPartial is the shortest piece of a secret masked where a text was cut (see String).
const minPartial = 6

// minEncoded is the shortest encoded form masked: shorter ones would mask ordinary text.
const minEncoded = 8

// New returns a Redactor for secrets. Empty values and values shorter than MinSecretLen
// are ignored. Besides each value it masks the forms in which a secret reappears in
// logs: URL-query-escaped, JSON-escaped, hex (both cases), and base64 (standard and URL
// alphabets, padded or not) of the value at any byte offset in the encoded data, e.g.
// base64 of "user:"+secret, also when the encoding is wrapped over several lines.
func New(secrets ...string) *Redactor {
	seen := map[string]bool{}
	var list, raw, wrapped []string
	add := func(s string, min int) {
		if len(s) >= min && !seen[s] {
			seen[s] = true
			list = append(list, s)
		}
	}
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if len(s) < MinSecretLen {
			continue
		}
		if !seen[s] {
			raw = append(raw, s)
		}
		add(s, MinSecretLen)
		add(url.QueryEscape(s), MinSecretLen)
		if q, err := json.Marshal(s); err == nil {
			add(string(q[1:len(q)-1]), MinSecretLen)
		}
		add(hex.EncodeToString([]byte(s)), minEncoded)
		add(strings.ToUpper(hex.EncodeToString([]byte(s))), minEncoded)
		for _, form := range base64Forms(s) {
			add(form, minEncoded)
			if len(form) >= 3*wrapWindow {
				wrapped = append(wrapped, form)
			}
		}
	}
	slices.SortStableFunc(list, func(a, b string) int { return len(b) - len(a) })
	r := &Redactor{raw: raw, wrapped: wrapped, windows: map[uint64][]int{}}
	for i, w := range wrapped {
		for j := 0; j+wrapWindow <= len(w); j += wrapStride {
			k := le64(w[j : j+wrapWindow])
			if !slices.Contains(r.windows[k], i) {
				r.windows[k] = append(r.windows[k], i)
			}
		}
	}
	for _, s := range list {
		r.secrets = append(r.secrets, []byte(s))
		r.strs = append(r.strs, s)
		r.maxLen = max(r.maxLen, len(s))
	}
	return r
}

// base64Forms are the base64 characters that depend on s alone when s starts at byte
// offset 0, 1 or 2 of a 3-byte group, in both alphabets; at offset 0 also the whole
// padded and unpadded encodings.
func base64Forms(s string) []string {
	var out []string
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString([]byte(s)))
		for k := 0; k < 3; k++ {
			buf := append(make([]byte, k), s...)
			e := enc.WithPadding(base64.NoPadding).EncodeToString(buf)
			first := (k*8 + 5) / 6       // characters that hold bits of the prefix
			last := (k + len(s)) * 8 / 6 // characters wholly inside the data
			if last > first {
				out = append(out, e[first:last])
			}
		}
	}
	return out
}

// Empty reports whether r masks nothing.
func (r *Redactor) Empty() bool { return r == nil || len(r.secrets) == 0 }

// String returns s with every secret replaced by Mask. Matches are found left to right;
// where several secrets match at one place, the longest wins. An encoded form broken by
// line wraps is masked whole (line breaks included), and so is the piece of a secret
// (at least 6 bytes) that a cut left at either side of "…" (as clip, truncate and the
// sandbox's head/tail capture mark a cut).
func (r *Redactor) String(s string) string {
	if r.Empty() {
		return s
	}
	if r.containsAnyString(s) {
		out, _ := r.mask(make([]byte, 0, len(s)), []byte(s), true)
		s = string(out)
	}
	return r.cuts(r.unwrap(s))
}

// Bytes returns b with every secret replaced by Mask (a new slice when anything changed).
func (r *Redactor) Bytes(b []byte) []byte {
	if r.Empty() {
		return b
	}
	s := r.String(string(b))
	if s == string(b) {
		return b
	}
	return []byte(s)
}

// wrapWindow and wrapStride pick the pieces of an encoded form looked for before the
// slower search across line breaks: a line of at least wrapWindow+wrapStride-1
// characters of the form always holds one of them.
const (
	wrapWindow = 8
	wrapStride = 4
)

// unwrap masks the encoded forms split over lines (base64 -w 76, PEM's 64 columns),
// also when each line carries a quoting gutter.
// One pass over s finds the candidate forms through their pieces.
func (r *Redactor) unwrap(s string) string {
	if len(r.wrapped) == 0 || len(s) < wrapWindow || !strings.ContainsAny(s, "\r\n") {
		return s
	}
	// Regions of s around the pieces found: a form with a piece at i lies within
	// 2·len(form) of i even with a line break and gutter every 32 characters. Only the
	// regions are flattened, so memory stays proportional to what may be masked.
	type region struct {
		start, end int
		forms      map[int]bool
	}
	var regions []region
	for i := 0; i+wrapWindow <= len(s); i++ {
		for _, w := range r.windows[le64(s[i:i+wrapWindow])] {
			pad := 2*len(r.wrapped[w]) + 64
			start, end := max(0, i-pad), min(len(s), i+pad)
			if n := len(regions); n > 0 && start <= regions[n-1].end {
				regions[n-1].end = max(regions[n-1].end, end)
				regions[n-1].forms[w] = true
				continue
			}
			regions = append(regions, region{start: start, end: end, forms: map[int]bool{w: true}})
		}
	}
	var spans [][2]int
	for _, rg := range regions {
		var forms []string
		for w := range rg.forms {
			forms = append(forms, r.wrapped[w])
		}
		spans = append(spans, flatMatches(s, rg.start, rg.end, forms)...)
	}
	return replaceSpans(s, spans)
}

// flatMatches finds forms in s[start:end] with line breaks and the quoting gutter after
// each (no encoding's alphabet has these characters) left out, and returns their spans
// in s.
func flatMatches(s string, start, end int, forms []string) [][2]int {
	flat := make([]byte, 0, end-start)
	at := make([]int, 0, end-start) // at[k]: index in s of flat[k]
	for i := start; i < end; i++ {
		if s[i] != '\n' && s[i] != '\r' {
			flat = append(flat, s[i])
			at = append(at, i)
			continue
		}
		for i+1 < end && (s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '|' || s[i+1] == '>') {
			i++
		}
	}
	var spans [][2]int
	for _, w := range forms {
		for off := 0; ; {
			j := bytes.Index(flat[off:], []byte(w))
			if j < 0 {
				break
			}
			a, b := off+j, off+j+len(w)
			spans = append(spans, [2]int{at[a], at[b-1] + 1})
			off = b
		}
	}
	return spans
}

// le64 packs the 8 bytes of s into a map key without allocating.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// ellipsis marks where a text was cut ("…", as clip, capture and truncate write it).
const ellipsis = "…"

// cuts masks the piece of a raw secret that a cut left next to a cut point: either side
// of an ellipsis (spaces and line breaks skipped).
func (r *Redactor) cuts(s string) string {
	if len(r.raw) == 0 {
		return s
	}
	if !strings.Contains(s, ellipsis) {
		return s
	}
	var before, after []int // cut points: text ends before / starts after
	for off := 0; ; {
		j := strings.Index(s[off:], ellipsis)
		if j < 0 {
			break
		}
		p := off + j
		b := p
		for b > 0 && strings.ContainsRune(" \t\r\n", rune(s[b-1])) {
			b--
		}
		a := p + len(ellipsis)
		for a < len(s) && strings.ContainsRune(" \t\r\n", rune(s[a])) {
			a++
		}
		before, after = append(before, b), append(after, a)
		off = p + len(ellipsis)
	}
	var spans [][2]int
	for _, sec := range r.raw {
		for _, p := range before {
			if k := cutPrefix(s[max(0, p-len(sec)+1):p], sec); k > 0 {
				spans = append(spans, [2]int{p - k, p})
			}
		}
		for _, p := range after {
			if k := cutSuffix(s[p:min(len(s), p+len(sec)-1)], sec); k > 0 {
				spans = append(spans, [2]int{p, p + k})
			}
		}
	}
	return replaceSpans(s, spans)
}

// cutPrefix is the length of the longest proper prefix of sec (at least minPartial
// bytes) that text ends with, 0 when none.
func cutPrefix(text, sec string) int {
	if len(sec) <= minPartial {
		return 0
	}
	head := sec[:minPartial]
	for off := 0; ; {
		j := strings.Index(text[off:], head)
		if j < 0 {
			return 0
		}
		q := off + j
		if k := len(text) - q; k < len(sec) && text[q:] == sec[:k] {
			return k
		}
		off = q + 1
	}
}

// cutSuffix is the length of the longest proper suffix of sec (at least minPartial
// bytes) that text starts with, 0 when none.
func cutSuffix(text, sec string) int {
	if len(text) < minPartial || len(sec) <= minPartial {
		return 0
	}
	head := text[:minPartial]
	for off := 1; off < len(sec); {
		j := strings.Index(sec[off:], head)
		if j < 0 {
			return 0
		}
		q := off + j
		if k := len(sec) - q; k <= len(text) && text[:k] == sec[q:] {
			return k
		}
		off = q + 1
	}
	return 0
}

// replaceSpans replaces each [start,end) span of s (overlaps merged) with Mask.
func replaceSpans(s string, spans [][2]int) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		start, end := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] <= end; i++ {
			end = max(end, spans[i][1])
		}
		if start < last {
			start = last
		}
		b.WriteString(s[last:start])
		b.WriteString(Mask)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
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
		// Wrapped encodings and cut pieces are masked within what is written now.
		out = []byte(w.r.cuts(w.r.unwrap(string(out))))
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

// Names that are always secrets (when long enough), whatever the words above say: every
// credential variable of the credential table (internal/provider) and GitHub's tokens.
var secretNames = append(provider.SecretVars(),
	"GITHUB_TOKEN", "GH_TOKEN", "INPUT_GITHUB-TOKEN", "INPUT_GITHUB_TOKEN",
	"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
)

// CredentialNames are the variables whose values are always secrets: every LLM
// credential of the credential table and GitHub's tokens.
func CredentialNames() []string { return slices.Clone(secretNames) }

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

// JSON masks every string (keys included) of a JSON document and returns it re-encoded;
// masking the decoded strings, not the encoded text, also finds what JSON escaping hides
// (a wrapped encoding's line breaks are "\n" in the text). Data that is not JSON is
// masked as text.
func (r *Redactor) JSON(data []byte) []byte {
	if r.Empty() {
		return data
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return r.Bytes(data)
	}
	out, err := json.Marshal(r.walk(v))
	if err != nil {
		return r.Bytes(data)
	}
	return out
}

func (r *Redactor) walk(v any) any {
	switch x := v.(type) {
	case string:
		return r.String(x)
	case []any:
		for i := range x {
			x[i] = r.walk(x[i])
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[r.String(k)] = r.walk(val)
		}
		return out
	}
	return v
}
