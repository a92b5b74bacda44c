package observe

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
)

func TestEncodeRedactsEveryString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		secret string
	}{
		{name: "plain", secret: "ghp_abcdef123456"},
		{name: "json specials", secret: `p"a\ss`},
		{name: "html specials", secret: "a<b>&c"},
		{name: "unicode", secret: "päss→wört"},
		{name: "control", secret: "tab\there"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			enc := encoder{redact: func(s string) string { return strings.ReplaceAll(s, tc.secret, "***") }}
			e := loop.Event{Type: loop.EventGap, Time: time.Unix(0, 0).UTC(), Data: loop.Finding{
				Problem: "uses " + tc.secret, Command: tc.secret, Output: "x" + tc.secret + "y",
				Line: 7, AlsoAt: []int{9, 11},
			}}
			raw, err := enc.encode(e)
			require.NoError(t, err)
			var back loop.Event
			back.Data = &loop.Finding{}
			require.NoError(t, json.Unmarshal(raw, &back), string(raw))
			f := back.Data.(*loop.Finding)
			assert.Equal(t, "uses ***", f.Problem)
			assert.Equal(t, "***", f.Command)
			assert.Equal(t, "x***y", f.Output)
			assert.Equal(t, 7, f.Line)
			assert.Equal(t, []int{9, 11}, f.AlsoAt)
			assert.Equal(t, loop.EventGap, back.Type)
		})
	}
}

func TestEncodeLeavesCleanJSONAlone(t *testing.T) {
	t.Parallel()
	raw, err := encoder{}.encode(loop.NewEvent(loop.EventStepStart, loop.StepData{Step: `say "hi" \ <there>`, Line: 3}))
	require.NoError(t, err)
	want, err := json.Marshal(loop.StepData{Step: `say "hi" \ <there>`, Line: 3})
	require.NoError(t, err)
	assert.Contains(t, string(raw), string(want))
}

func TestBound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
	}{
		{name: "ascii", in: strings.Repeat("a", 3000) + strings.Repeat("b", 3000)},
		{name: "multibyte", in: strings.Repeat("é", 5000)},
		{name: "emoji", in: strings.Repeat("🙂", 3000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := bound(tc.in, maxString)
			assert.LessOrEqual(t, len(got), maxString)
			assert.True(t, utf8.ValidString(got))
			assert.Contains(t, got, "(truncated)")
			assert.Equal(t, tc.in[:10], got[:10], "keeps the head")
			assert.Equal(t, tc.in[len(tc.in)-10:], got[len(got)-10:], "keeps the tail")
		})
	}
	assert.Equal(t, "short", bound("short", maxString))
}

// FuzzRewrite checks the one-pass string rewrite against a full decode: for any text, the
// result is valid JSON whose strings are exactly the redacted originals.
func FuzzRewrite(f *testing.F) {
	for _, s := range []string{"", "plain", `q"uote`, `back\slash`, "<&>", "\x00\x1f", "é→🙂", "\xff\xfe", `\u0041`} {
		f.Add(s, "a")
	}
	f.Fuzz(func(t *testing.T, text, secret string) {
		if secret == "" || !utf8.ValidString(secret) || text == "text" || text == "list" {
			return
		}
		enc := encoder{redact: func(s string) string { return strings.ReplaceAll(s, secret, "*") }}
		v := map[string]any{"text": text, "list": []any{text, 1.5, true, nil}, text: map[string]any{"k": text}}
		raw, err := enc.encode(v)
		require.NoError(t, err)
		var got map[string]any
		require.NoError(t, json.Unmarshal(raw, &got), "%q", raw)

		// Expected: decode the plain JSON (which normalises invalid UTF-8) and redact.
		plain, _ := json.Marshal(v)
		var want map[string]any
		require.NoError(t, json.Unmarshal(plain, &want))
		norm := want["text"].(string)
		red := bound(enc.redact(norm), maxString)
		assert.Equal(t, red, got["text"])
		assert.Equal(t, red, got["list"].([]any)[0])
		assert.Equal(t, red, got[norm].(map[string]any)["k"], "keys are kept as they are")
	})
}
