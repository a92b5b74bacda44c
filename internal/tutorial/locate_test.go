package tutorial

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Quotes as a Student reports them: markup dropped or kept, spacing changed, partial
// sentences, a word misspelt, a heading title, a command. Lines refer to testdata/guide.md.
func TestLocate(t *testing.T) {
	t.Parallel()
	m := loadGuide(t).Map
	tests := []struct {
		name      string
		quote     string
		line, end int // 0: not found
	}{
		{"heading title", "Run the setup script", 34, 34},
		{"heading title in narration", "I was on *Run the setup script*", 34, 34},
		{"ATX heading with hashes", "## Prerequisites", 12, 12},
		{"single-word heading", "Linux", 19, 19},
		{"markup dropped", "This guide shows how to build and run the hello service.", 8, 8},
		{"markup kept", "how to **build** and run the `hello` service", 8, 8},
		{"partial sentence", "build and run the hello service", 8, 8},
		{"blockquote, spacing changed", "the service   listens on\nport 8080 by default", 48, 48},
		{"bold label kept", "**Note:** the service listens", 48, 48},
		{"link text only", "Go 1.22+, installed from go.dev", 15, 15},
		{"list item", "Docker 20.10 or later", 14, 14},
		{"paragraph, not the Install heading", "Install the build tools first", 21, 21},
		{"misspelt word", "Install the biuld tools first", 21, 21},
		{"list paragraph", "Clone the repository, then run the setup script", 37, 37},
		{"ordered item", "2. Check the version", 46, 46},
		{"continued command over lines", "sudo apt-get install -y build-essential git", 25, 27},
		{"console command", "cd hello && ./setup.sh", 42, 42},
		{"command output", "setup complete", 43, 43},
		{"heredoc line beats prose mention", "port = 8080", 30, 30},
		{"table row", "PORT listening port", 52, 52},
		{"not in the tutorial", "Configure the Kubernetes cluster with Helm", 0, 0},
		{"only stop words", "it is on the", 0, 0},
		{"empty", "", 0, 0},
		{"punctuation only", "```", 0, 0},
		{"a word used all over the prose", "run", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			loc, ok := m.Locate(tt.quote)
			if tt.line == 0 {
				assert.False(t, ok, "expected no match, got %+v", loc)
				return
			}
			require.True(t, ok, "no match for %q", tt.quote)
			assert.Equal(t, tt.line, loc.Line, "line; matched %q", loc.Text)
			assert.Equal(t, tt.end, loc.EndLine, "end line")
			assert.Greater(t, loc.Score, 0.0)
			assert.LessOrEqual(t, loc.Score, 1.0)
		})
	}
}

func TestLocateAcrossWrappedLines(t *testing.T) {
	t.Parallel()
	md := strings.Join([]string{
		"# Deploy",
		"",
		"Before you deploy, export the API token that",
		"the dashboard shows under *Settings › Tokens* and",
		"keep it secret.",
	}, "\n")
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	loc, ok := tu.Map.Locate("export the API token that the dashboard shows under Settings")
	require.True(t, ok)
	assert.Equal(t, 3, loc.Line)
	assert.Equal(t, 4, loc.EndLine)
	assert.Equal(t, "Before you deploy, export the API token that\nthe dashboard shows under *Settings › Tokens* and", loc.Text)
	assert.InDelta(t, 1.0, loc.Score, 0.2)
}

func TestLocateIsSafeForConcurrentUse(t *testing.T) {
	t.Parallel()
	m := loadGuide(t).Map
	done := make(chan Location, 8)
	for range 8 {
		go func() {
			loc, _ := m.Locate("Run the setup script")
			done <- loc
		}()
	}
	for range 8 {
		assert.Equal(t, 34, (<-done).Line)
	}
}

func TestLocateAllOrdersRepeatedQuotes(t *testing.T) {
	t.Parallel()
	md := "# A\n\n```bash\nnpm install\n```\n\n# B\n\n```bash\nnpm install\nnpm test\n```\n"
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	all := tu.Map.LocateAll("npm install")
	require.Len(t, all, 2)
	assert.Equal(t, 4, all[0].Line, "equally good matches keep document order")
	assert.Equal(t, 10, all[1].Line)
	loc, ok := tu.Map.Locate("npm install")
	require.True(t, ok)
	assert.Equal(t, all[0], loc)
	assert.Empty(t, tu.Map.LocateAll("cargo build"))
}
