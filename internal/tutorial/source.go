package tutorial

import (
	"bytes"
	"html"
	"regexp"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// splitLines splits the file into lines without their endings (a final "\n" ends the
// last line rather than starting an empty one).
func splitLines(raw []byte) []string {
	s := string(bytes.TrimPrefix(raw, utf8BOM))
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// plainText is the text of n's inline content without markup.
func plainText(n ast.Node, src []byte) string {
	var sb strings.Builder
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		switch v := n.(type) {
		case *ast.Text:
			sb.Write(v.Segment.Value(src))
			if v.SoftLineBreak() || v.HardLineBreak() {
				sb.WriteByte(' ')
			}
			return
		case *ast.String:
			sb.Write(v.Value)
			return
		case *ast.AutoLink:
			sb.Write(v.URL(src))
			return
		case *ast.RawHTML:
			var raw []byte
			for i := 0; i < v.Segments.Len(); i++ {
				seg := v.Segments.At(i)
				raw = append(raw, seg.Value(src)...)
			}
			if reCodeTag.Match(raw) {
				sb.WriteByte('`') // <code>go.mod</code>, Writerside's <path>counter.c</path>
			}
			return
		case *east.TableCell:
			defer sb.WriteByte(' ')
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(sb.String()), " ")
}

// reCodeTag: an inline HTML tag that marks code or a path, which Markdown writes in
// backticks (<code>, <tt>, <samp>, Writerside's <path> and <file>).
var reCodeTag = regexp.MustCompile(`(?i)^</?(?:code|tt|samp|path|file|filename)(?:\s[^<>]*)?>$`)

// reParaTag is an HTML paragraph's opening or closing tag.
var reParaTag = regexp.MustCompile(`(?i)</?p(?:\s[^<>]*)?>`)

// CodeTagsAsBackticks writes a line of HTML prose as Markdown: code tags become backticks
// (`<path>counter.c</path>` is `counter.c`) and paragraph tags go; other tags stay.
func CodeTagsAsBackticks(line string) string {
	if !strings.Contains(line, "<") {
		return line
	}
	line = reParaTag.ReplaceAllString(line, "")
	return reHTMLTag.ReplaceAllStringFunc(line, func(tag string) string {
		if reCodeTag.MatchString(tag) {
			return "`"
		}
		return tag
	})
}

// reHTMLTag is any HTML tag.
var reHTMLTag = regexp.MustCompile(`</?[A-Za-z][^<>]*>`)

// reHTMLComment is an HTML comment (WordPress's `<!-- /wp:paragraph -->` closes a paragraph).
var reHTMLComment = regexp.MustCompile(`(?s)<!--.*?-->`)

// reHTMLPara is an HTML paragraph element.
var reHTMLPara = regexp.MustCompile(`(?is)<p(?:\s[^<>]*)?>(.*?)</p>`)

// htmlParagraph is the plain text of the HTML paragraph an HTML block ends with (`<step>
// <p>Save the program as <path>counter.c</path>:</p>`, as Writerside and hand-written
// HTML have it), with code tags as backticks; "" when the block does not end with one.
func htmlParagraph(text string) string {
	all := reHTMLPara.FindAllStringSubmatchIndex(text, -1)
	if len(all) == 0 {
		return ""
	}
	last := all[len(all)-1]
	if strings.TrimSpace(reHTMLTag.ReplaceAllString(reHTMLComment.ReplaceAllString(text[last[1]:], ""), "")) != "" {
		return "" // prose follows the paragraph
	}
	t := reHTMLTag.ReplaceAllString(CodeTagsAsBackticks(text[last[2]:last[3]]), " ")
	return strings.Join(strings.Fields(html.UnescapeString(t)), " ")
}

// dedentContainers removes the 4-space indent of the content of MkDocs tabs and
// admonitions, as MkDocs does before rendering it, so a fenced block inside a tab is a
// fenced block and not an indented code block. Line count and line order are kept.
func dedentContainers(src []byte) []byte {
	if !bytes.Contains(src, []byte("=== ")) && !bytes.Contains(src, []byte("!!! ")) && !bytes.Contains(src, []byte("??? ")) && !bytes.Contains(src, []byte("===+ ")) {
		return src
	}
	lines := strings.Split(string(src), "\n")
	var open []int // indents of the containers around the current line
	fence := ""
	for i, l := range lines {
		trim := strings.TrimLeft(l, " ")
		ind := len(l) - len(trim)
		if trim != "" && fence == "" {
			for len(open) > 0 && ind <= open[len(open)-1] {
				open = open[:len(open)-1]
			}
		}
		cut := min(4*len(open), ind)
		if len(open) > 0 && trim != "" {
			lines[i] = l[cut:]
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			mark := t[:3]
			switch {
			case fence == "":
				fence = mark
			case strings.HasPrefix(t, fence) && strings.Trim(t, mark[:1]) == "":
				fence = ""
			}
			continue
		}
		if fence == "" && reContainer.MatchString(l) {
			open = append(open, ind)
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// reComponentLine is a line that is only a JSX component tag (MDX: <Tabs>, <TabItem
// label="Linux">, </Tab>, <Note>, <Steps>) or a <details>/<summary> line.
var reComponentLine = regexp.MustCompile(`^\s*(?:</?[A-Z][\w.]*(?:\s[^<>]*)?/?>|</?details\b[^>]*>|<summary>.*</summary>)\s*$`)

// nextFence is the Markdown fence open after the trimmed line trim, given the one open
// before it (fence; "" when none): a run of three or more backticks or tildes opens one,
// and a line of the same mark, no shorter and with nothing after it, closes it.
func nextFence(fence, trim string) string {
	if fence != "" {
		if strings.HasPrefix(trim, fence) && strings.Trim(trim, fence[:1]) == "" {
			return ""
		}
		return fence
	}
	if !strings.HasPrefix(trim, "```") && !strings.HasPrefix(trim, "~~~") {
		return ""
	}
	return trim[:len(trim)-len(strings.TrimLeft(trim, trim[:1]))]
}

// reDocCOpen: a DocC directive that holds content (`@Steps {`, `@Tab("macOS") {`).
var reDocCOpen = regexp.MustCompile(`^(\s*)@[A-Z]\w*(?:\(.*\))?\s*\{\s*$`)

// dedentDocC removes the indentation of the content of DocC directives (`@Step {`, four
// spaces in, then `}`), as DocC does before rendering it, so a fence inside a step is a
// fenced block and not an indented code block, and the directive lines are blank (what
// they say is read from LineMap.OriginalLine). Line count and order are kept.
func dedentDocC(src []byte) []byte {
	if !bytes.Contains(src, []byte("@")) {
		return src
	}
	lines := strings.Split(string(src), "\n")
	if !slices.ContainsFunc(lines, reDocCOpen.MatchString) {
		return src
	}
	var open []int // indents of the directives around the current line
	fence, cut := "", 0
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		ind := len(l) - len(strings.TrimLeft(l, " "))
		if fence != "" {
			fence = nextFence(fence, trim)
			lines[i] = l[min(cut, ind):]
			continue
		}
		if trim == "}" && len(open) > 0 && ind == open[len(open)-1] {
			open = open[:len(open)-1]
			lines[i] = "" // (a directive's lines are markup, not a paragraph's text)
			continue
		}
		cut = 4 * len(open)
		if trim != "" {
			lines[i] = l[min(cut, ind):]
		}
		if fence = nextFence("", trim); fence != "" {
			continue
		}
		if m := reDocCOpen.FindStringSubmatch(l); m != nil {
			open = append(open, len(m[1]))
			lines[i] = ""
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// Doxygen's page markup (a `\page` or `@mainpage` written in Markdown): `\code{.sh}` …
// `\endcode` and `\verbatim` … `\endverbatim` are blocks, `\section id Title` and
// `\subsection id Title` are headings.
var (
	reDoxCode     = regexp.MustCompile(`^(\s*)[\\@]code(?:\{\.?([\w+-]+)\})?\s*$`)
	reDoxEnd      = regexp.MustCompile(`^(\s*)[\\@]end(?:code|verbatim)\s*$`)
	reDoxVerbatim = regexp.MustCompile(`^(\s*)[\\@]verbatim\s*$`)
	reDoxSection  = regexp.MustCompile(`^\s*[\\@](page|section|subsection|subsubsection)\s+\S+\s+(\S.*)$`)
)

// doxygenBlocks writes Doxygen's blocks as fences and its sections as ATX headings, as
// Doxygen renders them, when the page has a `\code` or `\verbatim` block. Line count and
// order are kept.
func doxygenBlocks(src []byte) []byte {
	if !bytes.Contains(src, []byte("code")) && !bytes.Contains(src, []byte("verbatim")) {
		return src
	}
	lines := strings.Split(string(src), "\n")
	if !slices.ContainsFunc(lines, func(l string) bool { return reDoxEnd.MatchString(l) }) {
		return src
	}
	open, fence := false, ""
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		switch {
		case fence != "": // (a Markdown fence that shows Doxygen markup)
			fence = nextFence(fence, trim)
		case !open && nextFence("", trim) != "":
			fence = nextFence("", trim)
		case open:
			if m := reDoxEnd.FindStringSubmatch(l); m != nil {
				lines[i], open = m[1]+"````", false
			}
		case reDoxCode.MatchString(l):
			m := reDoxCode.FindStringSubmatch(l)
			lines[i], open = m[1]+"````"+m[2], true
		case reDoxVerbatim.MatchString(l):
			lines[i], open = reDoxVerbatim.FindStringSubmatch(l)[1]+"````text", true
		case reDoxSection.MatchString(l):
			m := reDoxSection.FindStringSubmatch(l)
			level := map[string]string{"page": "#", "section": "##", "subsection": "###", "subsubsection": "####"}[m[1]]
			lines[i] = level + " " + m[2]
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// reWrappedPre: a line that opens a wrapper element and a <pre> inside it (Ghost's
// `<figure class="kg-card kg-code-card"><pre><code>`), which CommonMark ends at the
// first blank line, unlike a block that starts with <pre> itself.
var reWrappedPre = regexp.MustCompile(`(?i)^\s*<(?:figure|div|section)\b.*<pre\b`)

// preBlankLine stands for a blank line inside a wrapped <pre>: an empty comment, which a
// browser does not show (htmlPre drops it).
const preBlankLine = "<!---->"

// keepWrappedPres keeps a wrapped <pre> element one HTML block: a blank line in it becomes
// preBlankLine. Line count and order are kept.
func keepWrappedPres(src []byte) []byte {
	if !bytes.Contains(src, []byte("<pre")) && !bytes.Contains(src, []byte("<PRE")) {
		return src
	}
	lines := strings.Split(string(src), "\n")
	fence, open := "", false
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		switch {
		case open:
			if trim == "" {
				lines[i] = preBlankLine
			}
			open = !strings.Contains(strings.ToLower(l), "</pre>")
		case fence != "":
			fence = nextFence(fence, trim)
		case nextFence("", trim) != "":
			fence = nextFence("", trim)
		case reWrappedPre.MatchString(l):
			open = !strings.Contains(strings.ToLower(l), "</pre>")
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// separateComponents reads MDX-style component markup as MDX does: a line that is only a
// component tag becomes a blank line (CommonMark would otherwise take it and the fence
// right under it for one HTML block), and inside a component the indentation MDX ignores
// (it has no indented code) is removed, so an indented fence under <Tab> is a fenced
// block. Line count and order are kept; LineMap.OriginalLine still shows the tags.
func separateComponents(src []byte) []byte {
	if !bytes.Contains(src, []byte("<")) {
		return src
	}
	lines := strings.Split(string(src), "\n")
	found := false
	for _, l := range lines {
		if reComponentLine.MatchString(l) {
			found = true
			break
		}
	}
	if !found {
		return src
	}
	depth, fence, fenceIndent := 0, "", 0
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		ind := len(l) - len(strings.TrimLeft(l, " \t"))
		if fence != "" {
			if depth > 0 {
				lines[i] = l[min(ind, fenceIndent):]
			}
			if strings.HasPrefix(trim, fence) && strings.Trim(trim, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
			for _, c := range trim[3:] {
				if c != rune(fence[0]) {
					break
				}
				fence += string(c)
			}
			fenceIndent = ind
			if depth > 0 {
				lines[i] = trim
			}
			continue
		}
		if reComponentLine.MatchString(l) {
			lines[i] = ""
			switch {
			case strings.HasPrefix(trim, "</"):
				depth = max(depth-1, 0)
			case !strings.HasSuffix(trim, "/>") && !strings.HasPrefix(trim, "<summary"):
				depth++
			}
			continue
		}
		if depth > 0 {
			lines[i] = strings.TrimLeft(l, " \t")
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// reMySTFence: a MyST directive written as a backtick or tilde fence, "````{tab-item} Linux".
var reMySTFence = regexp.MustCompile("^(\\s*)(`{3,}|~{3,})\\{([\\w-]+)\\}(.*)$")

// mystCode are the MyST/Sphinx directives whose body is code or data, not Markdown.
var mystCode = map[string]bool{"code-block": true, "code": true, "sourcecode": true, "code-cell": true, "literalinclude": true,
	"math": true, "eval-rst": true, "mermaid": true, "graphviz": true, "raw": true, "jupyter-execute": true, "ipython": true,
	"doctest": true, "testcode": true, "testoutput": true, "prompt": true, "parsed-literal": true, "csv-table": true, "toctree": true}

// reAnnotatedClose: a closing fence with a Killercoda action after it ("```{{exec}}"),
// which CommonMark would not take as closing the block.
var reAnnotatedClose = regexp.MustCompile(`^(\s*(?:` + "`{3,}" + `|~{3,}))\{\{[^}]*\}\}\s*$`)

// annotatedFences closes fenced blocks whose closing fence carries a Killercoda action
// (`{{exec}}`, `{{copy}}`): the fence alone, the line count unchanged.
func annotatedFences(src []byte) []byte {
	if !bytes.Contains(src, []byte("}}")) {
		return src
	}
	lines := strings.Split(string(src), "\n")
	fence, opened := "", 0
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		if fence == "" {
			if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
				fence, opened = trim[:len(trim)-len(strings.TrimLeft(trim, trim[:1]))], i
			}
			continue
		}
		if m := reAnnotatedClose.FindStringSubmatch(l); m != nil && strings.HasPrefix(strings.TrimSpace(m[1]), fence) {
			lines[i] = m[1]
			if strings.Contains(l, "exec") && strings.TrimSpace(lines[opened]) == fence {
				lines[opened] += "bash" // {{exec}}: the page runs it in the terminal
			}
			fence = ""
		} else if strings.HasPrefix(trim, fence) && strings.Trim(trim, fence[:1]) == "" {
			fence = ""
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// mystFences rewrites MyST container directives written as backtick fences that hold
// fenced blocks (a tab-set fence of five backticks around tab-item fences of four around
// a console block of three) as the equivalent colon fences (":::::{tab-set}"), so that the blocks inside them are code
// blocks and not the text of one outer block, as MyST renders them. Directives inside a
// rewritten one are rewritten too; directives without a block inside stay as they are.
// Line count and order are kept.
func mystFences(src []byte) []byte {
	if !bytes.Contains(src, []byte("{")) {
		return src
	}
	lines := strings.Split(string(src), "\n")
	type open struct {
		line      int
		fence     string
		directive bool
		inner     bool // holds a fenced block or a directive
	}
	var stack []open
	var pairs []fencePair
	closes := func(trim, fence string) bool {
		return strings.HasPrefix(trim, fence) && strings.Trim(trim, fence[:1]) == ""
	}
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		if n := len(stack); n > 0 && !stack[n-1].directive {
			if closes(trim, stack[n-1].fence) {
				stack = stack[:n-1]
			}
			continue
		}
		if n := len(stack); n > 0 && stack[n-1].directive && closes(trim, stack[n-1].fence) {
			o := stack[n-1]
			stack = stack[:n-1]
			pairs = append(pairs, fencePair{open: o.line, close: i, fence: o.fence, inner: o.inner})
			continue
		}
		if m := reMySTFence.FindStringSubmatch(l); m != nil && !mystCode[m[3]] {
			for j := range stack {
				stack[j].inner = true
			}
			stack = append(stack, open{line: i, fence: m[2], directive: true})
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			f := trim[:3]
			for _, c := range trim[3:] {
				if c != rune(f[0]) {
					break
				}
				f += string(c)
			}
			for j := range stack {
				stack[j].inner = true
			}
			stack = append(stack, open{line: i, fence: f})
		}
	}
	if len(pairs) == 0 {
		return src
	}
	// a pair is rewritten when it holds a block or a directive, or one around it does
	changed := false
	for _, p := range pairs {
		rewrite := p.inner
		for q := p; !rewrite; {
			enc, ok := enclosingPair(pairs, q)
			if !ok {
				break
			}
			rewrite, q = enc.inner, enc
		}
		if !rewrite {
			continue
		}
		colons := strings.Repeat(":", len(p.fence))
		m := reMySTFence.FindStringSubmatch(lines[p.open])
		lines[p.open] = m[1] + colons + "{" + m[3] + "}" + m[4]
		lines[p.close] = m[1] + colons
		changed = true
	}
	if !changed {
		return src
	}
	return []byte(strings.Join(lines, "\n"))
}

// fencePair is a MyST directive fence: its opening and closing line (0-based).
type fencePair struct {
	open, close int
	fence       string
	inner       bool
}

// enclosingPair is the innermost pair around q.
func enclosingPair(pairs []fencePair, q fencePair) (fencePair, bool) {
	var best fencePair
	found := false
	for _, p := range pairs {
		if p.open < q.open && p.close > q.close && (!found || p.open > best.open) {
			best, found = p, true
		}
	}
	return best, found
}
