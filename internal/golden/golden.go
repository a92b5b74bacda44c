// Package golden is test support for rendered bodies: golden files (rewritten with
// `go test ./... -update`) and a GitHub-flavoured Markdown reading of a body, so a test
// can compare what a reader sees with what was meant.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	xhtml "golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Updating reports whether the test run rewrites golden files (-update).
func Updating() bool { return *update }

// File compares got with the golden file at path (relative to the test's package),
// or rewrites it under -update.
func File(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file %s; run go test -update on this package", path)
	require.Equal(t, string(want), string(got), "%s is stale; if the change is intended run go test -update on this package", path)
}

// Rendered is a Markdown body as a GitHub reader sees it.
type Rendered struct {
	HTML    string   // goldmark's GFM rendering (raw HTML kept, as GitHub keeps allowed tags)
	Visible string   // the text a reader sees (zero-width characters removed)
	Text    []string // visible text outside code, zero-width characters kept
	Code    []string // each code span and code block, as shown
	Links   []string // link targets (also autolinks)
	Images  []string // image sources
	Tags    []string // raw HTML tags and comments in the body
}

// Markdown checks md against the golden file at path and returns its GFM reading.
func Markdown(t testing.TB, path, md string) Rendered {
	t.Helper()
	File(t, path, []byte(md))
	return Render(t, md)
}

// Render reads md as GitHub-flavoured Markdown.
func Render(t testing.TB, md string) Rendered {
	t.Helper()
	var buf bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	require.NoError(t, gm.Convert([]byte(md), &buf))
	r := Rendered{HTML: buf.String()}
	var visible strings.Builder
	inCode := 0
	var code strings.Builder
	z := xhtml.NewTokenizer(strings.NewReader(r.HTML))
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			break
		}
		tok := z.Token()
		switch tt {
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			switch tok.Data {
			case "code":
				inCode++
				code.Reset()
			case "a":
				r.Links = append(r.Links, attr(tok, "href"))
			case "img":
				r.Images = append(r.Images, attr(tok, "src"))
			}
		case xhtml.EndTagToken:
			if tok.Data == "code" && inCode > 0 {
				inCode--
				r.Code = append(r.Code, code.String())
			}
		case xhtml.TextToken:
			visible.WriteString(tok.Data)
			if inCode > 0 {
				code.WriteString(tok.Data)
			} else if strings.TrimSpace(tok.Data) != "" {
				r.Text = append(r.Text, tok.Data)
			}
		}
	}
	r.Visible = StripZeroWidth(visible.String())
	r.Tags = rawHTML(t, gm, []byte(md))
	return r
}

// rawHTML lists the raw HTML of md as the GFM parser finds it (inline tags and HTML
// blocks, split into tags and comments).
func rawHTML(t testing.TB, gm goldmark.Markdown, src []byte) []string {
	t.Helper()
	var out []string
	err := ast.Walk(gm.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var raw string
		switch n := n.(type) {
		case *ast.RawHTML:
			raw = string(n.Segments.Value(src))
		case *ast.HTMLBlock:
			raw = string(n.Lines().Value(src))
			if n.HasClosure() {
				raw += string(n.ClosureLine.Value(src))
			}
		default:
			return ast.WalkContinue, nil
		}
		out = append(out, rawTag.FindAllString(raw, -1)...)
		return ast.WalkContinue, nil
	})
	require.NoError(t, err)
	return out
}

func attr(tok xhtml.Token, name string) string {
	for _, a := range tok.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

var (
	rawTag    = regexp.MustCompile(`(?s)<!--.*?-->|</?[A-Za-z][A-Za-z0-9-]*(\s[^<>]*)?/?>`)
	zeroWidth = strings.NewReplacer("\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "")
)

// StripZeroWidth removes the zero-width characters that keep mentions and references
// inert; what remains is what a reader reads.
func StripZeroWidth(s string) string { return zeroWidth.Replace(s) }

// What GitHub turns into a ping, an issue link or a link, in text outside code.
var (
	mention  = regexp.MustCompile(`(^|[^\w])@[A-Za-z0-9]`)
	issueRef = regexp.MustCompile(`(^|[^\w&])#[0-9]|(?i)\bGH-[0-9]`)
	autolink = regexp.MustCompile(`(?i)\b(https?|ftp)://|(^|[^\w.])www\.`)
)

// Live returns what in the text outside code GitHub would make live (a mention, an
// issue reference or an autolinked address), "" when nothing is.
func (r Rendered) Live() string {
	for _, s := range r.Text {
		for _, re := range []*regexp.Regexp{mention, issueRef, autolink} {
			if m := re.FindString(s); m != "" {
				return s
			}
		}
	}
	return ""
}

// Shows reports whether a reader sees want (whitespace runs compared as one space).
func (r Rendered) Shows(want string) bool {
	return strings.Contains(strings.Join(strings.Fields(r.Visible), " "), strings.Join(strings.Fields(want), " "))
}

// HasCode reports whether one code span or block shows exactly want (trimmed).
func (r Rendered) HasCode(want string) bool {
	for _, c := range r.Code {
		if strings.TrimSpace(c) == strings.TrimSpace(want) {
			return true
		}
	}
	return false
}
