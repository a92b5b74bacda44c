package tutorial

import (
	"bytes"
	"html"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// builder walks goldmark's syntax tree once to fill a LineMap.
type builder struct {
	src        []byte // body with CRLF turned into LF
	nl         []int  // offsets of '\n' in src
	firstLine  int    // original line of src's first line
	m          *LineMap
	images     []imageRef
	lastLeaf   int // index in m.blocks of the last leaf block seen, -1 when none
	lastSeen   int // last line of the blocks filled so far
	headingsAt []headingMark
}

type headingMark struct {
	line, level int
	title       string
}

var parser = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
})

// newLineMap maps raw (the whole file) whose Markdown body starts at byte bodyOff and at
// line bodyStartLine. It returns the image references found, for resolution.
func newLineMap(raw []byte, bodyOff, bodyStartLine int) (*LineMap, []imageRef) {
	m := &LineMap{orig: splitLines(raw)}
	src := keepWrappedPres(separateComponents(dedentDocC(dedentContainers(mystFences(annotatedFences(doxygenBlocks(bytes.ReplaceAll(raw[bodyOff:], []byte("\r\n"), []byte("\n")))))))))
	m.lines = append(append([]string(nil), m.orig[:min(bodyStartLine-1, len(m.orig))]...), splitLines(src)...)
	for len(m.lines) < len(m.orig) {
		m.lines = append(m.lines, "")
	}
	m.blocks = make([]Block, 0, len(m.lines)/2+1)
	m.plain = make([]string, 0, len(m.lines)/2+1)
	b := &builder{src: src, firstLine: bodyStartLine, m: m, lastLeaf: -1}
	for i, c := range src {
		if c == '\n' {
			b.nl = append(b.nl, i)
		}
	}
	doc := parser().Parser().Parse(text.NewReader(src))
	b.visit(doc)
	b.headingPaths()
	return m, b.images
}

// lineOf is the original line of byte offset off of src.
func (b *builder) lineOf(off int) int {
	return min(b.firstLine+sort.SearchInts(b.nl, off), max(b.lastLine(), 1))
}

// segLines is the first and last line of a segment.
func (b *builder) segLines(s text.Segment) (int, int) {
	start := b.lineOf(s.Start)
	if s.Stop > s.Start {
		return start, b.lineOf(s.Stop - 1)
	}
	return start, start
}

// span is a line range being widened; zero when empty.
type span struct{ start, end int }

func (r *span) widen(s, e int) {
	if s == 0 {
		return
	}
	if r.start == 0 || s < r.start {
		r.start = s
	}
	if e > r.end {
		r.end = e
	}
}

// visit records n and its descendants and returns n's line range (0, 0 when it has none).
func (b *builder) visit(n ast.Node) (start, end int) {
	kind, isBlock := blockKind(n)
	idx := -1
	if isBlock {
		idx = len(b.m.blocks)
		b.m.blocks = append(b.m.blocks, Block{Kind: kind})
		b.m.plain = append(b.m.plain, "")
	}
	var r span
	if p := n.Pos(); p >= 0 && n.Kind() != east.KindTable {
		l := b.lineOf(min(p, len(b.src))) // tab padding can put it past the end
		r.widen(l, l)
	}
	if n.Type() == ast.TypeBlock {
		segs := n.Lines()
		for i := 0; i < segs.Len(); i++ {
			r.widen(b.segLines(segs.At(i)))
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() == ast.TypeInline {
			b.inline(c, r.start)
			continue
		}
		r.widen(b.visit(c))
	}
	switch v := n.(type) {
	case *ast.FencedCodeBlock:
		r.widen(b.closingFence(v, r.start, r.end))
	case *ast.HTMLBlock:
		if v.HasClosure() {
			r.widen(b.segLines(v.ClosureLine))
		}
	case *ast.Heading:
		if r.start > 0 && !b.isATX(v) && r.end < b.lastLine() {
			r.end++ // setext underline
		}
	}
	start, end = r.start, r.end
	if isBlock {
		b.fill(idx, n, start, end)
	}
	return start, end
}

func (b *builder) lastLine() int { return len(b.m.lines) }

// isATX reports whether heading n is written with '#' (a setext heading has an underline
// on the line after its text).
func (b *builder) isATX(n *ast.Heading) bool {
	p := n.Pos()
	for p >= 0 && p < len(b.src) && (b.src[p] == ' ' || b.src[p] == '\t') {
		p++
	}
	return p >= 0 && p < len(b.src) && b.src[p] == '#'
}

// closingFence finds the closing fence line of a fenced code block, which goldmark does
// not record: the line after the last content line, when it is a fence of the same kind.
func (b *builder) closingFence(n *ast.FencedCodeBlock, start, end int) (int, int) {
	p := n.Pos()
	if p < 0 || p >= len(b.src) {
		return 0, 0
	}
	fc := b.src[p]
	if fc != '`' && fc != '~' {
		return 0, 0
	}
	flen := 0
	for p+flen < len(b.src) && b.src[p+flen] == fc {
		flen++
	}
	next := end + 1
	if next > b.lastLine() {
		return 0, 0
	}
	l := strings.TrimRight(strings.TrimLeft(b.m.Line(next), " \t>"), " \t")
	if len(l) >= flen && strings.Trim(l, string(fc)) == "" {
		return next, next
	}
	return 0, 0
}

// inline walks inline nodes for images and links.
func (b *builder) inline(n ast.Node, blockStart int) {
	switch v := n.(type) {
	case *ast.Image:
		line := blockStart
		if p := v.Pos(); p >= 0 && p <= len(b.src) {
			line = b.lineOf(p)
		}
		b.images = append(b.images, imageRef{ref: string(v.Destination), alt: plainText(v, b.src), line: line})
		return
	case *ast.RawHTML:
		segs := v.Segments
		if segs.Len() > 0 {
			var buf []byte
			for i := 0; i < segs.Len(); i++ {
				s := segs.At(i)
				buf = append(buf, s.Value(b.src)...)
			}
			b.htmlImages(buf, b.lineOf(segs.At(0).Start))
		}
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		b.inline(c, blockStart)
	}
}

var imgTag = regexp.MustCompile(`(?is)<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))`)
var altAttr = regexp.MustCompile(`(?is)\balt\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// htmlImages records <img src> in raw HTML starting at line.
func (b *builder) htmlImages(html []byte, line int) {
	for _, loc := range imgTag.FindAllSubmatchIndex(html, -1) {
		var src string
		for g := 1; g <= 3; g++ {
			if loc[2*g] >= 0 {
				src = string(html[loc[2*g]:loc[2*g+1]])
			}
		}
		tag := html[loc[0]:]
		if end := bytes.IndexByte(tag, '>'); end >= 0 {
			tag = tag[:end]
		}
		var alt string
		if am := altAttr.FindSubmatch(tag); am != nil {
			alt = string(am[1]) + string(am[2])
		}
		b.images = append(b.images, imageRef{ref: src, alt: alt, line: line + bytes.Count(html[:loc[0]], []byte("\n"))})
	}
}

// blockKind maps goldmark nodes to block kinds; containers without a kind (document,
// list, table rows) are walked but not recorded.
func blockKind(n ast.Node) (BlockKind, bool) {
	switch n.(type) {
	case *ast.Heading:
		return KindHeading, true
	case *ast.Paragraph, *ast.TextBlock:
		return KindParagraph, true
	case *ast.ListItem:
		return KindListItem, true
	case *ast.FencedCodeBlock:
		return KindFencedCode, true
	case *ast.CodeBlock:
		return KindIndentedCode, true
	case *ast.HTMLBlock:
		return KindHTML, true
	case *east.Table:
		return KindTable, true
	case *ast.Blockquote:
		return KindBlockQuote, true
	case *ast.ThematicBreak:
		return KindThematicBreak, true
	}
	return "", false
}

// fill completes block idx once its range is known.
func (b *builder) fill(idx int, n ast.Node, start, end int) {
	if start == 0 { // nothing positioned: attach to the last line seen
		start = min(max(b.lastSeen, 1), max(b.lastLine(), 1))
		end = start
	}
	b.lastSeen = max(b.lastSeen, end)
	blk := &b.m.blocks[idx]
	blk.StartLine, blk.EndLine = start, end
	switch v := n.(type) {
	case *ast.Heading:
		blk.Level = v.Level
		blk.Text = b.segText(v)
		title := plainText(v, b.src)
		b.m.plain[idx] = title
		if b.isATX(v) || !reRetypePanel.MatchString(blk.Text) {
			// (Retype's `==- Title` panel closed by `===` reads as a setext heading: it
			// titles a box, not a section)
			b.headingsAt = append(b.headingsAt, headingMark{line: start, level: v.Level, title: title})
		}
		b.lastLeaf = idx
	case *ast.Paragraph, *ast.TextBlock:
		blk.Text = b.segText(n)
		b.m.plain[idx] = plainText(n, b.src)
		b.lastLeaf = idx
	case *ast.HTMLBlock:
		blk.Text = b.segText(n)
		if v.HasClosure() {
			cl := v.ClosureLine
			if blk.Text != "" {
				blk.Text += "\n" // (segText drops the last line's newline)
			}
			blk.Text += string(cl.Value(b.src))
		}
		blk.Text = strings.TrimSuffix(blk.Text, "\n")
		if lines, nos, info, ok := htmlPre(blk.Text, start); ok {
			blk.Kind, blk.Info = KindHTMLCode, info
			b.codeLines(idx, lines, nos)
			return
		}
		if m := reHTMLHeading.FindStringSubmatch(reHTMLComment.ReplaceAllString(blk.Text, "")); m != nil {
			// a page written in HTML (WordPress's `<h2 class="wp-block-heading">`) has its
			// sections all the same
			title := strings.Join(strings.Fields(html.UnescapeString(reHTMLTag.ReplaceAllString(m[2], " "))), " ")
			blk.Kind, blk.Level, blk.Text = KindHeading, int(m[1][0]-'0'), title
			b.m.plain[idx] = title
			b.headingsAt = append(b.headingsAt, headingMark{line: start, level: blk.Level, title: title})
			b.lastLeaf = idx
			return
		}
		b.m.plain[idx] = htmlParagraph(blk.Text)
		b.htmlImages([]byte(blk.Text), start)
		if strings.TrimSpace(reHTMLComment.ReplaceAllString(blk.Text, "")) != "" {
			// (WordPress's `<!-- wp:code -->` between a paragraph and its block leaves
			// the paragraph the block's lead)
			b.lastLeaf = idx
		}
	case *ast.FencedCodeBlock:
		if v.Info != nil {
			blk.Info = strings.TrimSpace(string(v.Info.Segment.Value(b.src)))
		}
		b.code(idx, n)
	case *ast.CodeBlock:
		b.code(idx, n)
	default:
		blk.Text = strings.Join(b.m.lines[start-1:end], "\n")
		if v, ok := n.(*east.Table); ok {
			b.m.plain[idx] = plainText(v, b.src)
			b.lastLeaf = idx
		}
	}
}

// segText joins a block's segments.
func (b *builder) segText(n ast.Node) string {
	var sb strings.Builder
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		sb.Write((&s).Value(b.src))
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// reHTMLHeading: an HTML block that is one heading element, `<h2 id="x">Title</h2>`.
var reHTMLHeading = regexp.MustCompile(`(?is)^\s*<h([1-6])\b[^<>]*>(.*?)</h[1-6]>\s*$`)

// reRetypePanel: the first line of a Retype panel (`==- Why?`, `==+ Open by default`, `===
// Title`).
var reRetypePanel = regexp.MustCompile(`^={2,3}[-+]?\s+\S`)

// reTabsStart, reTabsEnd: docsify-tabs' comments around tabs titled by headings
// (`#### **pip**`), which hold nothing past the end.
var (
	reTabsStart = regexp.MustCompile(`^<!--\s*tabs:start\s*-->$`)
	reTabsEnd   = regexp.MustCompile(`^<!--\s*tabs:end\s*-->$`)
)

// reDocFXTab, reDocFXTabsEnd: a DocFX tab, a heading whose whole text links to
// `#tab/<id>` (`# [Linux](#tab/linux)`), whatever its level, and the `---` line that
// ends the tab group (DocFX's tabbed-content syntax).
var (
	reDocFXTab     = regexp.MustCompile(`^#{1,6}[ \t]+\[[^\]]+\]\(#tab/[^)\s]+\)[ \t]*$`)
	reDocFXTabsEnd = regexp.MustCompile(`^-{3,}$`)
)

// headingPaths fills the heading path of every line.
func (b *builder) headingPaths() {
	m := b.m
	m.paths = make([][]string, len(m.lines))
	inCode := make([]bool, len(m.lines)+2)
	for _, c := range m.code {
		for n := c.StartLine; n <= c.EndLine && n < len(inCode); n++ {
			inCode[n] = true
		}
	}
	var stack []headingMark
	var divs [][]headingMark // the headings open at each open fenced div (Pandoc/Quarto `::: {.panel-tabset}`)
	var cur []string
	// tabs: the headings open where a DocFX tab group starts, while it is open: its tabs
	// sit under the section it is in, whatever their level, and it holds nothing past
	// its `---`
	var tabs []headingMark
	inTabs := false
	hi := 0
	for n := 1; n <= len(m.lines); n++ {
		if !inCode[n] {
			if l := strings.TrimSpace(m.lines[n-1]); inTabs && reDocFXTabsEnd.MatchString(l) {
				stack, cur, inTabs = tabs, titles(tabs), false
			} else if (reDivClose.MatchString(l) || reTabsEnd.MatchString(l)) && len(divs) > 0 {
				// a section that starts inside a div ends with it: "## Windows" in a
				// tabset does not hold what follows the tabset
				// (the tabs' own "## Debian" headings may have closed the section the
				// tabset is in: it is open again after it)
				stack = divs[len(divs)-1]
				cur = titles(stack)
				divs = divs[:len(divs)-1]
			} else if reDivOpen.MatchString(l) || reTabsStart.MatchString(l) {
				divs = append(divs, slices.Clone(stack))
			}
		}
		for hi < len(b.headingsAt) && b.headingsAt[hi].line == n {
			h := b.headingsAt[hi]
			switch {
			case reDocFXTab.MatchString(strings.TrimSpace(m.lines[n-1])):
				if !inTabs {
					tabs, inTabs = slices.Clone(stack), true
				}
				stack = slices.Clone(tabs)
				h.level = 7 // under the section the group is in
			case inTabs && (len(tabs) == 0 || h.level <= tabs[len(tabs)-1].level):
				// a heading outside the group's section ends the group
				stack, inTabs = tabs, false
			}
			for len(stack) > 0 && stack[len(stack)-1].level >= h.level {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, h)
			cur = titles(stack)
			hi++
		}
		m.paths[n-1] = cur
	}
	for i := range m.blocks {
		m.blocks[i].HeadingPath = m.HeadingPath(m.blocks[i].StartLine)
	}
	for i := range m.code {
		m.code[i].HeadingPath = m.HeadingPath(m.code[i].StartLine)
	}
}

// titles are the titles of a heading stack, outermost first.
func titles(stack []headingMark) []string {
	cur := make([]string, len(stack))
	for i, s := range stack {
		cur[i] = s.title
	}
	return cur
}

var (
	// reDivOpen, reDivClose: a Pandoc fenced div (`::: {.panel-tabset}`, `:::: note`)
	// and the bare colons that close it
	reDivOpen  = regexp.MustCompile(`^:{3,}\s*[{\w.]`)
	reDivClose = regexp.MustCompile(`^:{3,}\s*$`)
)

// reContainer opens an indentation-scoped MkDocs container: a content tab
// (`=== "Linux"`, pymdownx.tabbed) or an admonition (`!!! note`, `??? tip`).
var reContainer = regexp.MustCompile(`^( *)(?:===\+?|!!!|\?\?\?\+?)\s`)
