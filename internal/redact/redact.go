// Package redact masks secrets in every text the product writes: reports, logs,
// events, comments.
package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
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
