package tutorial

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type specExample struct {
	Markdown string `json:"markdown"`
	HTML     string `json:"html"`
	Example  int    `json:"example"`
	Section  string `json:"section"`
}

// specExamples reads the CommonMark spec examples shipped in the goldmark module.
func specExamples(t testing.TB) []specExample {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/yuin/goldmark").Output()
	require.NoError(t, err, "locate the goldmark module")
	raw, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "_test", "spec.json"))
	require.NoError(t, err)
	var ex []specExample
	require.NoError(t, json.Unmarshal(raw, &ex))
	return ex
}

// checkMap asserts the invariants every line map keeps, whatever the Markdown.
func checkMap(t *testing.T, name string, tu *Tutorial) {
	t.Helper()
	m := tu.Map
	n := m.LineCount()
	for _, b := range m.Blocks() {
		if !assert.True(t, 1 <= b.StartLine && b.StartLine <= b.EndLine && b.EndLine <= max(n, 1),
			"%s: %s block %d-%d outside the document of %d lines", name, b.Kind, b.StartLine, b.EndLine, n) {
			return
		}
		if b.Kind == KindFencedCode {
			l := m.Line(b.StartLine)
			assert.True(t, strings.Contains(l, "```") || strings.Contains(l, "~~~"), "%s: fenced code starts on a fence: %q", name, l)
		}
	}
	for _, c := range m.CodeBlocks() {
		assert.True(t, c.StartLine <= c.ContentStartLine && c.ContentStartLine <= c.EndLine, "%s: content start %d in %d-%d", name, c.ContentStartLine, c.StartLine, c.EndLine)
		for _, cmd := range c.Commands {
			assert.True(t, c.StartLine <= cmd.StartLine && cmd.StartLine <= cmd.EndLine && cmd.EndLine <= c.EndLine,
				"%s: command %d-%d outside its block %d-%d", name, cmd.StartLine, cmd.EndLine, c.StartLine, c.EndLine)
		}
	}
	for l := 1; l <= n; l++ {
		_ = m.HeadingPath(l)
		_, _ = m.BlockAt(l)
	}
}

var (
	tagCount = map[BlockKind]*regexp.Regexp{
		KindHeading:       regexp.MustCompile(`<h[1-6]>`),
		KindBlockQuote:    regexp.MustCompile(`<blockquote>`),
		KindThematicBreak: regexp.MustCompile(`<hr />`),
		KindListItem:      regexp.MustCompile(`<li>`),
	}
	codeTag = regexp.MustCompile(`<pre><code`)
)

// All 652 CommonMark spec examples load without a panic, every block lies inside its
// document, and the blocks found agree with the spec's expected HTML.
func TestCommonMarkSpecExamples(t *testing.T) {
	t.Parallel()
	examples := specExamples(t)
	require.Len(t, examples, 652)
	compared := 0
	for _, ex := range examples {
		name := fmt.Sprintf("example %d (%s)", ex.Example, ex.Section)
		tu, err := Parse("spec.md", []byte(ex.Markdown))
		require.NoError(t, err, name)
		checkMap(t, name, tu)

		// Raw HTML in the input may itself contain these tags; compare the rest. A document
		// starting with "---" … "---" has front matter for us, not for CommonMark.
		if strings.Contains(ex.Markdown, "<") || tu.FrontMatter != "" {
			continue
		}
		compared++
		counts := map[BlockKind]int{}
		for _, b := range tu.Map.Blocks() {
			counts[b.Kind]++
		}
		for kind, re := range tagCount {
			assert.Equal(t, len(re.FindAllString(ex.HTML, -1)), counts[kind], "%s: number of %s blocks\n%s", name, kind, ex.Markdown)
		}
		assert.Equal(t, len(codeTag.FindAllString(ex.HTML, -1)), len(tu.Map.CodeBlocks()), "%s: number of code blocks", name)
	}
	assert.Greater(t, compared, 500)
}

// CRLF files map to the same lines (and texts) as their LF twins.
func TestCRLFTwins(t *testing.T) {
	t.Parallel()
	docs := []string{}
	for _, ex := range specExamples(t) {
		docs = append(docs, ex.Markdown)
	}
	guide, err := os.ReadFile("testdata/guide.md")
	require.NoError(t, err)
	docs = append(docs, string(guide))
	for i, lf := range docs {
		crlf := strings.ReplaceAll(lf, "\n", "\r\n")
		a, err := Parse("lf.md", []byte(lf))
		require.NoError(t, err)
		b, err := Parse("crlf.md", []byte(crlf))
		require.NoError(t, err)
		require.Equal(t, a.Map.Blocks(), b.Map.Blocks(), "doc %d:\n%s", i, lf)
		require.Equal(t, a.Map.CodeBlocks(), b.Map.CodeBlocks(), "doc %d", i)
		require.Equal(t, a.Map.LineCount(), b.Map.LineCount())
		for l := 1; l <= a.Map.LineCount(); l++ {
			require.Equal(t, a.Map.Line(l), b.Map.Line(l))
			require.Equal(t, a.Map.HeadingPath(l), b.Map.HeadingPath(l))
		}
		assert.Equal(t, a.FrontMatter, b.FrontMatter)
		assert.Equal(t, a.BodyStartLine, b.BodyStartLine)
	}
}

// Tabs where a writer used spaces (or the reverse) give the same blocks on the same lines.
func TestTabTwins(t *testing.T) {
	t.Parallel()
	spaces := strings.Join([]string{
		"# Install",
		"",
		"    indented code",
		"    more code",
		"",
		"- item one",
		"    - nested item",
		"",
		"      ```bash",
		"      make all",
		"      ```",
		"",
		"1. step",
		"",
		"    continued paragraph of the step",
		"",
		">    quoted indented code",
		"",
		"Text with\tinner tab.",
	}, "\n")
	tabs := strings.Join([]string{
		"# Install",
		"",
		"\tindented code",
		"\tmore code",
		"",
		"- item one",
		"\t- nested item",
		"",
		"\t  ```bash",
		"\t  make all",
		"\t  ```",
		"",
		"1. step",
		"",
		"\tcontinued paragraph of the step",
		"",
		">\tquoted indented code",
		"",
		"Text with\tinner tab.",
	}, "\n")
	a, err := Parse("spaces.md", []byte(spaces))
	require.NoError(t, err)
	b, err := Parse("tabs.md", []byte(tabs))
	require.NoError(t, err)
	type span struct {
		kind       BlockKind
		start, end int
		path       string
	}
	spans := func(m *LineMap) []span {
		var out []span
		for _, x := range m.Blocks() {
			out = append(out, span{x.Kind, x.StartLine, x.EndLine, strings.Join(x.HeadingPath, "/")})
		}
		return out
	}
	require.NotEmpty(t, spans(a.Map))
	assert.Equal(t, spans(a.Map), spans(b.Map))
	require.Len(t, b.Map.ShellBlocks(), 1)
	assert.Equal(t, []Command{{Text: "make all", StartLine: 10, EndLine: 10}}, b.Map.ShellBlocks()[0].Commands)
	assert.Equal(t, a.Map.ShellBlocks()[0].Commands, b.Map.ShellBlocks()[0].Commands)
	checkMap(t, "tabs", b)
}
