package redact

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		secrets []string
		in      string
		want    string
	}{
		{"no secrets", nil, "sk-live-123456", "sk-live-123456"},
		{"one secret", []string{"sk-live-123456"}, "key=sk-live-123456 end", "key=*** end"},
		{"every occurrence", []string{"hunter22"}, "hunter22 and hunter22", "*** and ***"},
		{"longest first", []string{"abcd", "abcdefgh"}, "x abcdefgh y abcd", "x *** y ***"},
		{"short values ignored", []string{"", "ab", "   "}, "ab ab", "ab ab"},
		{"surrounding space trimmed", []string{" tok-123456\n"}, "Bearer tok-123456", "Bearer ***"},
		{"url-escaped form", []string{"p@ss w/rd!"}, "u=p%40ss+w%2Frd%21", "u=***"},
		{"base64 form", []string{"user:secretpw"}, "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("user:secretpw")), "Authorization: Basic ***"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := New(tt.secrets...)
			assert.Equal(t, tt.want, r.String(tt.in))
			assert.Equal(t, tt.want, string(r.Bytes([]byte(tt.in))))
		})
	}
}

func TestNilRedactor(t *testing.T) {
	t.Parallel()
	var r *Redactor
	assert.True(t, r.Empty())
	assert.Equal(t, "abc", r.String("abc"))
	var buf bytes.Buffer
	w := r.NewWriter(&buf)
	_, err := w.Write([]byte("hello"))
	require.NoError(t, err)
	require.NoError(t, w.Flush())
	assert.Equal(t, "hello", buf.String())
}

func TestWriterSplitSecret(t *testing.T) {
	t.Parallel()
	const secret = "ghp_CanarySecret0123456789"
	text := "start " + secret + " middle " + secret + secret + " end ghp_Can"
	r := New(secret)
	want := r.String(text)
	require.NotContains(t, want, secret)

	// Every way of cutting the text into two or three writes gives the same output.
	for i := 0; i <= len(text); i++ {
		for _, j := range []int{i, min(i+3, len(text)), min(i+11, len(text))} {
			var buf bytes.Buffer
			w := r.NewWriter(&buf)
			for _, part := range []string{text[:i], text[i:j], text[j:]} {
				n, err := w.Write([]byte(part))
				require.NoError(t, err)
				require.Equal(t, len(part), n)
			}
			require.NoError(t, w.Close())
			require.Equal(t, want, buf.String(), "cut at %d,%d", i, j)
		}
	}
}

func TestWriterByteByByte(t *testing.T) {
	t.Parallel()
	secrets := []string{"sk-ant-api03-abcdef", "sk-ant-xyz12", "token-9876543"}
	text := "a sk-ant-api03-abcdef b sk-ant-xyz12 c token-98765 d token-9876543\n"
	r := New(secrets...)
	var buf bytes.Buffer
	var w = r.Writer(&buf)
	for i := range len(text) {
		_, err := w.Write([]byte{text[i]})
		require.NoError(t, err)
	}
	require.NoError(t, w.(*Writer).Flush())
	assert.Equal(t, "a *** b *** c token-98765 d ***\n", buf.String())
}

func TestWriterWritesEarly(t *testing.T) {
	t.Parallel()
	r := New("supersecret")
	var buf bytes.Buffer
	w := r.NewWriter(&buf)
	_, err := w.Write([]byte("line one\n"))
	require.NoError(t, err)
	// Nothing that could start a secret is held back.
	assert.Equal(t, "line one\n", buf.String())
	_, err = w.Write([]byte("value: super"))
	require.NoError(t, err)
	assert.Equal(t, "line one\nvalue: ", buf.String())
	_, err = w.Write([]byte("man\n"))
	require.NoError(t, err)
	assert.Equal(t, "line one\nvalue: superman\n", buf.String())
}

func TestFromEnv(t *testing.T) {
	t.Parallel()
	env := []string{
		"ANTHROPIC_API_KEY=sk-ant-0123456789",
		"OPENAI_API_KEY=sk-proj-0123456789",
		"GITHUB_TOKEN=ghs_0123456789abcdef",
		"INPUT_GITHUB-TOKEN=ghs_0123456789abcdef", // duplicate value
		"ACTIONS_RUNTIME_TOKEN=eyJhbGciOiJSUzI1NiJ9",
		"MY_DB_PASSWORD=correct-horse",
		"npm_config_auth=authvalue123",
		"SOME_SECRET=short", // too short
		"EMPTY_TOKEN=",
		"SSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.1",
		"PATH=/usr/bin:/bin",
		"HOME=/home/runner",
		"GITHUB_REPOSITORY=org/repo-with-long-name",
		"malformed",
	}
	got := FromEnv(env)
	assert.Equal(t, []string{
		"authvalue123",
		"correct-horse",
		"eyJhbGciOiJSUzI1NiJ9",
		"ghs_0123456789abcdef",
		"sk-ant-0123456789",
		"sk-proj-0123456789",
	}, got)
	r := New(got...)
	assert.Equal(t, "token *** here", r.String("token ghs_0123456789abcdef here"))
	assert.False(t, strings.Contains(r.String("x sk-ant-0123456789"), "sk-ant"))
}

func BenchmarkString(b *testing.B) {
	r := New(FromEnv([]string{"A_TOKEN=abcdefghijklmnop", "B_KEY=0123456789abcdef", "C_SECRET=zyxwvutsrqponm"})...)
	text := strings.Repeat("some ordinary log output without secrets 0123 abc\n", 200)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = r.String(text)
	}
}

func BenchmarkWriter(b *testing.B) {
	r := New("abcdefghijklmnop", "0123456789abcdef")
	chunk := []byte(strings.Repeat("ordinary output line, nothing to hide here\n", 20))
	b.SetBytes(int64(len(chunk)))
	var sink bytes.Buffer
	w := r.NewWriter(&sink)
	for b.Loop() {
		sink.Reset()
		_, _ = w.Write(chunk)
	}
}

// FuzzWriter: however a stream is cut into writes, the Writer's output is String's.
func FuzzWriter(f *testing.F) {
	f.Add("key sk-live-abcdef123 and tok-0987654321 end", 5, 17, "sk-live-abcdef123")
	f.Add("aaaaaaaaab", 3, 6, "aaab")
	f.Add("abcabcabd", 1, 4, "abcabd")
	f.Fuzz(func(t *testing.T, text string, i, j int, secret string) {
		r := New(secret, "tok-0987654321")
		n := len(text)
		if n == 0 {
			return
		}
		i, j = (i%n+n)%n, (j%n+n)%n
		if i > j {
			i, j = j, i
		}
		var buf bytes.Buffer
		w := r.NewWriter(&buf)
		for _, part := range []string{text[:i], text[i:j], text[j:]} {
			if _, err := w.Write([]byte(part)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(text, "\r\n…") {
			// Encodings wrapped over lines and pieces next to a cut mark are masked within
			// one write (TestWriterMasksWrappedWithinAWrite), not across writes.
			return
		}
		if got, want := buf.String(), r.String(text); got != want {
			t.Fatalf("cut at %d,%d: writer %q, string %q", i, j, got, want)
		}
	})
}

// Two secrets overlapping at a write boundary: the second must not slip through.
func TestWriterOverlappingSecretsAtBoundary(t *testing.T) {
	t.Parallel()
	r := New("abcd", "dcex", "cqzz")
	var buf bytes.Buffer
	w := r.NewWriter(&buf)
	_, err := w.Write([]byte("abcdc"))
	require.NoError(t, err)
	_, err = w.Write([]byte("qzz!"))
	require.NoError(t, err)
	require.NoError(t, w.Flush())
	assert.Equal(t, r.String("abcdcqzz!"), buf.String())
	assert.NotContains(t, buf.String(), "cqzz")
}

// The command log's writer gets each read of a stream in one write: an encoded secret
// wrapped over lines in it is masked.
func TestWriterMasksWrappedWithinAWrite(t *testing.T) {
	t.Parallel()
	key := "sk-ant-api03-" + strings.Repeat("Zq9_xY7-Lm3", 9)
	r := New(key)
	var buf bytes.Buffer
	w := r.NewWriter(&buf)
	_, err := w.Write([]byte("$ echo $KEY | base64\n" + wrap(base64.StdEncoding.EncodeToString([]byte(key+"\n")), 76) + "\n"))
	require.NoError(t, err)
	require.NoError(t, w.Flush())
	assert.Contains(t, buf.String(), Mask)
	assert.NotContains(t, strings.ReplaceAll(buf.String(), "\n", ""), base64.StdEncoding.EncodeToString([]byte(key))[8:40])
}
