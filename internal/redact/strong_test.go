package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// wrap breaks s into lines of n characters, as base64 -w n and PEM do.
func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	return b.String() + s
}

// The forms the security review found unmasked (#10), each with the secret's text
// recoverable from the output before this change.
func TestStrongForms(t *testing.T) {
	t.Parallel()
	key := "sk-ant-api03-" + strings.Repeat("Zq9_xY7-Lm3", 9) + "AAAA" // 107 characters, like a real key
	short := "ghp_0123456789abcdefghij0123456789abcdef"
	r := New(key, short)
	tests := map[string]struct {
		in     string
		secret string // what must not be recoverable from the output
	}{
		"base64 at offset 1":                {base64.StdEncoding.EncodeToString([]byte("u:" + short)), short},
		"base64 at offset 2":                {base64.StdEncoding.EncodeToString([]byte("us:" + short)), short},
		"base64 at offset 0 in a blob":      {base64.StdEncoding.EncodeToString([]byte("abc" + short + "tail")), short},
		"url-safe base64 offset":            {base64.RawURLEncoding.EncodeToString([]byte("x" + key + "\n")), key},
		"echo $KEY | base64 (76)":           {"out:\n" + wrap(base64.StdEncoding.EncodeToString([]byte(key+"\n")), 76) + "\ndone", key},
		"PEM-like 64 columns":               {wrap(base64.StdEncoding.EncodeToString([]byte("Bearer "+key)), 64), key},
		"CRLF wrapped":                      {strings.ReplaceAll(wrap(base64.StdEncoding.EncodeToString([]byte(key)), 76), "\n", "\r\n"), key},
		"wrapped in the audit log's gutter": {"[output]\n  | " + strings.ReplaceAll(wrap(base64.StdEncoding.EncodeToString([]byte(key+"\n")), 76), "\n", "\n  | ") + "\n", key},
		"hex":                               {"dump " + hex.EncodeToString([]byte(key)) + " end", key},
		"HEX":                               {strings.ToUpper(hex.EncodeToString([]byte("=" + short))), short},
		"json-escaped":                      {`{"v":"` + strings.ReplaceAll(`a"b\c-`+short, `"`, `\"`) + `"}`, short},
		"cut at a head/tail join":           {"token " + short[:14] + "\n… [123 bytes cut; full output in the command log] …\n" + short[30:] + " rest", short},
		"clipped with an ellipsis":          {"Authorization: " + short[:20] + "…", short},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := r.String(tt.in)
			assert.NotEqual(t, tt.in, got, "something is masked")
			assert.Contains(t, got, Mask)
			flat := strings.NewReplacer("\n  | ", "", "\n", "", "\r", "").Replace(got)
			for _, probe := range []string{tt.secret[:12], tt.secret[len(tt.secret)-12:], tt.secret[6:18]} {
				assert.NotContains(t, got, probe)
			}
			for _, enc := range []func([]byte) string{base64.StdEncoding.EncodeToString, hex.EncodeToString} {
				assert.NotContains(t, flat, enc([]byte(tt.secret))[8:24], "an encoded piece survives")
			}
			assert.Equal(t, got, string(r.Bytes([]byte(tt.in))))
		})
	}
}

// Ordinary text is left alone: only the secrets' own forms are masked.
func TestStrongFormsKeepOrdinaryText(t *testing.T) {
	t.Parallel()
	r := New("ghp_0123456789abcdefghij0123456789abcdef")
	for _, s := range []string{
		"npm install left-pad… done",
		"ghp_01 is not a token…",
		base64.StdEncoding.EncodeToString([]byte("hello world, this is fine")),
		hex.EncodeToString([]byte("an ordinary hex dump of text")),
		"line one\nline two\n… [10 bytes cut] …\nthe end",
	} {
		assert.Equal(t, s, r.String(s))
	}
}

// BenchmarkStringClipped masks a large text full of cut marks (a report of clipped
// outputs) with ten secrets.
func BenchmarkStringClipped(b *testing.B) {
	var secrets []string
	for i := 0; i < 10; i++ {
		secrets = append(secrets, fmt.Sprintf("sk-test-%02d-", i)+strings.Repeat("q", 90))
	}
	r := New(secrets...)
	text := strings.Repeat("some output line that was clipped…\n… [12 bytes cut] …\nand continued\n", 20000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = r.String(text)
	}
}

// A wrapped form deep in a large text is masked, and the text around it is kept as is.
func TestWrappedDeepInALargeText(t *testing.T) {
	t.Parallel()
	key := "sk-ant-api03-" + strings.Repeat("Zq9_xY7-Lm3", 9)
	r := New(key)
	filler := strings.Repeat("ordinary log line, nothing to hide\n", 30000)
	enc := wrap(base64.StdEncoding.EncodeToString([]byte("Bearer "+key)), 76)
	got := r.String(filler + "token:\n" + enc + "\n" + filler)
	assert.True(t, strings.HasPrefix(got, filler+"token:\n"+enc[:10]+Mask), "only the encoded \"Bearer \" is left before the mask")
	assert.True(t, strings.HasSuffix(got, "\n"+filler))
	assert.NotContains(t, strings.ReplaceAll(got, "\n", ""), base64.StdEncoding.EncodeToString([]byte("Bearer " + key))[12:40])
}
