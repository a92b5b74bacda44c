package report

import (
	"bytes"
	htmlpkg "html"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// What GitHub would turn into a ping or a link to an issue, in rendered text.
var (
	reMention   = regexp.MustCompile(`(^|[^\w])@[A-Za-z0-9]`)
	reIssueRef  = regexp.MustCompile(`(^|[^\w&])#[0-9]`)
	reGHRef     = regexp.MustCompile(`(?i)\bGH-[0-9]`)
	plainFences = regexp.MustCompile("(?m)^`{3,}")
)

// parsed is the rendered Markdown as GitHub-flavoured Markdown sees it.
type parsed struct {
	src      []byte
	doc      ast.Node
	headings map[int][]string
	texts    []string // text outside code
	codes    []string // fenced code block contents
	html     []string
	images   []string
	links    []string
}

func parseMarkdown(t *testing.T, md string) parsed {
	t.Helper()
	p := parsed{src: []byte(md), headings: map[int][]string{}}
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM))
	p.doc = gm.Parser().Parse(text.NewReader(p.src))
	err := ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			p.headings[n.Level] = append(p.headings[n.Level], string(n.Lines().Value(p.src)))
		case *ast.HTMLBlock, *ast.RawHTML:
			p.html = append(p.html, n.Kind().String())
		case *ast.Image:
			p.images = append(p.images, string(n.Destination))
		case *ast.Link:
			p.links = append(p.links, string(n.Destination))
		case *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock:
			p.codes = append(p.codes, string(n.Lines().Value(p.src)))
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			p.texts = append(p.texts, string(n.Value(p.src)))
		}
		return ast.WalkContinue, nil
	})
	require.NoError(t, err)
	return p
}

// 9.S4: whatever the tutorial or an LLM wrote, the Markdown has the report's structure
// and nothing else: no HTML, no images or javascript links, no extra headings, tables
// with their columns intact, fences that the text cannot close, nobody pinged.
func TestHostileMarkdownIsInert(t *testing.T) {
	t.Parallel()
	r := buildFixture(t, "hostile")
	md := RenderMarkdown(r)
	p := parseMarkdown(t, md)

	assert.Empty(t, p.html, "no raw HTML reaches GitHub")
	assert.Empty(t, p.images, "no image (tracking pixel) from untrusted text")
	for _, l := range p.links {
		assert.NotContains(t, strings.ToLower(l), "javascript:", "no javascript link")
	}
	assert.Equal(t, []string{"Summary", "Gaps Identified", "Timeline", "Audit Trail", "Recommendations"}, p.headings[2],
		"a newline in a problem cannot start a heading")
	assert.Len(t, p.headings[1], 1)
	assert.Len(t, p.headings[3], len(r.Gaps)+len(r.Timeline)+3)

	for _, s := range p.texts {
		assert.NotRegexp(t, reMention, s, "no @mention in rendered text")
		assert.NotRegexp(t, reIssueRef, s, "no #reference in rendered text")
		assert.NotRegexp(t, reGHRef, s, "no GH- reference in rendered text")
	}
	// Rendered as GitHub would (raw HTML disabled), the text still reads as written.
	out := renderHTML(t, p.src)
	assert.NotContains(t, out, "raw HTML omitted")
	for _, tag := range []string{"<script", "<img", "<b>", "<i>", "</details>", "<td>x</td>"} {
		assert.NotContains(t, out, tag)
	}
	readable := htmlpkg.UnescapeString(strings.ReplaceAll(out, zwj, ""))
	assert.Contains(t, readable, "<script>alert('x')</script> | col | ``` @org/team #1 GH-2 &#64;admin ![x](https://evil.example/p.png)")

	// The evidence fence holds the whole output, inner fences and HTML included.
	assert.Contains(t, p.codes, "````\n</details><script>x</script>\n@org/team ***\n````\n")
	assert.Contains(t, p.codes, "Hi @octocat! See #1. Use key ***\n```\n</details>\n```\n| a | b |\n")

	// Tables keep their columns: every row has as many cells as the header, and the
	// exit code column is still the exit code.
	tables := htmlTables(out)
	require.Len(t, tables, 3)
	cmds := tables[0]
	require.Len(t, cmds, 1+len(r.AuditTrail.Commands))
	for i, row := range cmds[1:] {
		require.Len(t, row, 6)
		assert.Equal(t, r.AuditTrail.Commands[i].Command, row[2], "command cell intact")
		assert.Regexp(t, `^\d+$`, row[3])
	}
	files := tables[1]
	require.Len(t, files[1], 3)
	assert.Equal(t, "weird|name`<b>.txt", files[1][1])
	assert.Equal(t, "3 B", files[1][2])
	calls := tables[2]
	require.Len(t, calls[1], 7)
	assert.Equal(t, "model|<i>x</i>", calls[1][3])
	assert.Equal(t, "10", calls[1][4])
}

// renderHTML renders Markdown as GitHub does (GFM, raw HTML not passed through).
func renderHTML(t *testing.T, src []byte) string {
	t.Helper()
	var html bytes.Buffer
	require.NoError(t, goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(src, &html))
	return html.String()
}

var (
	reRow  = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	reCell = regexp.MustCompile(`(?s)<t[hd][^>]*>(.*?)</t[hd]>`)
	reTag  = regexp.MustCompile(`<[^>]+>`)
)

// htmlTables extracts the text of every table cell of rendered HTML.
func htmlTables(out string) [][][]string {
	var tables [][][]string
	for _, tbl := range strings.Split(out, "<table>")[1:] {
		tbl, _, _ = strings.Cut(tbl, "</table>")
		var rows [][]string
		for _, row := range reRow.FindAllStringSubmatch(tbl, -1) {
			var cells []string
			for _, c := range reCell.FindAllStringSubmatch(row[1], -1) {
				cells = append(cells, strings.ReplaceAll(htmlpkg.UnescapeString(reTag.ReplaceAllString(c[1], "")), zwj, ""))
			}
			rows = append(rows, cells)
		}
		tables = append(tables, rows)
	}
	return tables
}

func TestEscapers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, text string
	}{
		{"html", "<b>x</b>", "&lt;b&gt;x&lt;/b&gt;"},
		{"entity", "&#64;me", "&amp;\\#" + zwj + "64;me"},
		{"pipe and newline", "a|b\nc", "a\\|b c"},
		{"mention", "@octo-cat and mail@x.io", "@" + zwj + "octo-cat and mail@" + zwj + "x.io"},
		{"issue", "#12 and org/repo#3 and GH-7", "\\#" + zwj + "12 and org/repo\\#" + zwj + "3 and GH" + zwj + "-7"},
		{"emphasis and links", "*a* _b_ [l](u) ![i](u) `c` ~d~ $x$", "\\*a\\* \\_b\\_ \\[l\\](u) \\!\\[i\\](u) `c` \\~d\\~ \\$x\\$"},
		{"code span keeps its text", "run `make && ./run > out.txt` then `git clone git@github.com:o/r`", "run `make && ./run > out.txt` then `git clone git@github.com:o/r`"},
		{"code span with backticks", "``a`b`` and `x`", "``a`b`` and `x`"},
		{"unmatched backtick", "it`s fine", "it\\`s fine"},
		{"mention inside code", "`@octocat #1` @octocat", "`@octocat #1` @" + zwj + "octocat"},
		{"autolinks", "see https://evil.example and www.evil.example", "see https:" + zwj + "//evil.example and www" + zwj + ".evil.example"},
		{"control characters", "a\x00b\x1bc\r\nd", "abc d"},
		{"bidi overrides", "abc\u202edcb\u2066x\u2069", "abcdcbx"},
		{"plain", "npm install", "npm install"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.text, mdText(tt.in))
		})
	}
	assert.Equal(t, "`a`", codeSpan("a", false))
	assert.Equal(t, "``a`b``", codeSpan("a`b", false))
	assert.Equal(t, "``` `` ```", codeSpan("``", false))
	assert.Equal(t, "`a \\| b`", codeSpan("a | b", true))
	assert.Equal(t, "", codeSpan("  ", false))
	f := fence("x\n`````\ny", "text")
	assert.True(t, strings.HasPrefix(f, "``````text\n"), f)
	assert.Len(t, plainFences.FindAllString(f, -1), 3)
}

func TestParagraphsMD(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "a b\n\nc", ParagraphsMD("a\nb\n\n\nc"))
	assert.Equal(t, "\\- item\n\n1\\. x\n\n\\#"+zwj+"1 \\# h", ParagraphsMD("- item\n\n1. x\n\n#1 # h"))
	assert.Equal(t, "\\+ = \\*", ParagraphsMD("+ = *"))
	assert.Equal(t, "\\===", ParagraphsMD("==="))
}
