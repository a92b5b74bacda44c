package tutorial

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// LineMap maps a tutorial's Markdown structure to lines of the original file. It is built
// once by Parse and safe for concurrent use.
type LineMap struct {
	lines  []string // as parsed: content of MkDocs tabs and admonitions de-indented
	orig   []string // as written
	blocks []Block
	code   []CodeBlock
	paths  [][]string // heading path per line (index n-1)
	plain  []string   // plain text of each block (inline markup dropped), by block index

	once  sync.Once
	index []locBlock // for Locate, built on first use
}

// Blocks returns every block in document order.
func (m *LineMap) Blocks() []Block { return m.blocks }

// CodeBlocks returns the fenced and indented code blocks in document order.
func (m *LineMap) CodeBlocks() []CodeBlock { return m.code }

// ShellBlocks returns the code blocks whose info string is a shell, in document order.
func (m *LineMap) ShellBlocks() []CodeBlock {
	var out []CodeBlock
	for _, c := range m.code {
		if c.Shell {
			out = append(out, c)
		}
	}
	return out
}

// Line returns line n (1-based) of the original file without its line ending, "" when out of range.
func (m *LineMap) Line(n int) string {
	if n < 1 || n > len(m.lines) {
		return ""
	}
	return m.lines[n-1]
}

// OriginalLine returns line n exactly as written ("" when out of range). Line differs
// from it only inside MkDocs/pymdown tabs and admonitions, whose content is parsed
// without its 4-space indent, as MkDocs renders it.
func (m *LineMap) OriginalLine(n int) string {
	if n < 1 || n > len(m.orig) {
		return ""
	}
	return m.orig[n-1]
}

// LineCount is the number of lines of the original file.
func (m *LineMap) LineCount() int { return len(m.lines) }

// BlockAt returns the innermost block containing line n.
func (m *LineMap) BlockAt(n int) (Block, bool) {
	best, found := -1, false
	for i, b := range m.blocks {
		if b.StartLine <= n && n <= b.EndLine {
			// Later blocks that start no earlier and contain n are nested deeper.
			best, found = i, true
		}
	}
	if !found {
		return Block{}, false
	}
	return m.blocks[best], true
}

// HeadingPath returns the headings enclosing line n, outermost first. A heading's own
// line belongs to its section.
func (m *LineMap) HeadingPath(n int) []string {
	if n < 1 || n > len(m.paths) {
		return nil
	}
	return m.paths[n-1]
}

// Section returns the heading path of line n joined for display ("Install › Linux").
func (m *LineMap) Section(n int) string { return strings.Join(m.HeadingPath(n), " › ") }

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
	src := dedentContainers(bytes.ReplaceAll(raw[bodyOff:], []byte("\r\n"), []byte("\n")))
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
		b.headingsAt = append(b.headingsAt, headingMark{line: start, level: v.Level, title: title})
		b.lastLeaf = idx
	case *ast.Paragraph, *ast.TextBlock:
		blk.Text = b.segText(n)
		b.m.plain[idx] = plainText(n, b.src)
		b.lastLeaf = idx
	case *ast.HTMLBlock:
		blk.Text = b.segText(n)
		if v.HasClosure() {
			cl := v.ClosureLine
			blk.Text += string(cl.Value(b.src))
		}
		blk.Text = strings.TrimSuffix(blk.Text, "\n")
		b.htmlImages([]byte(blk.Text), start)
		b.lastLeaf = idx
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

// code records a code block, its commands and its lead.
func (b *builder) code(idx int, n ast.Node) {
	blk := &b.m.blocks[idx]
	segs := n.Lines()
	lines := make([]string, segs.Len())
	lineNos := make([]int, segs.Len())
	for i := range lines {
		s := segs.At(i)
		lines[i] = strings.TrimSuffix(string((&s).Value(b.src)), "\n")
		lineNos[i] = b.lineOf(s.Start)
	}
	content := strings.Join(lines, "\n")
	blk.Text = content
	cb := CodeBlock{Content: content, Lang: language(blk.Info), ContentLines: lineNos}
	if len(lineNos) > 0 {
		cb.ContentStartLine = lineNos[0]
	} else if blk.Kind == KindFencedCode {
		cb.ContentStartLine = min(blk.StartLine+1, blk.EndLine)
	} else {
		cb.ContentStartLine = blk.StartLine
	}
	cb.Shell = shellLangs[cb.Lang]
	cb.Console = consoleLangs[cb.Lang]
	if cb.Shell && !cb.Console && promptStyle(lines) {
		cb.Console = true // a bash block written as a session: "$ npm install"
	}
	if cb.Shell {
		cb.Commands = SplitCommands(lines, lineNos, cb.Console)
	}
	if b.lastLeaf >= 0 && b.m.blocks[b.lastLeaf].Kind == KindParagraph {
		cb.Lead = b.m.plain[b.lastLeaf]
	}
	b.lastLeaf = idx
	cb.Block = *blk
	b.m.code = append(b.m.code, cb)
}

// language is the first word of an info string, lower-cased: "bash", "{.python}" → "python".
func language(info string) string {
	f := strings.Fields(info)
	if len(f) == 0 {
		return ""
	}
	l := strings.ToLower(f[0])
	l = strings.TrimLeft(l, "{.")
	if i := strings.IndexAny(l, "{},:"); i >= 0 {
		l = l[:i]
	}
	return l
}

var shellLangs = map[string]bool{
	"bash": true, "sh": true, "shell": true, "zsh": true, "ksh": true,
	"console": true, "shell-session": true, "shellsession": true, "sh-session": true, "terminal": true,
}

var consoleLangs = map[string]bool{
	"console": true, "shell-session": true, "shellsession": true, "sh-session": true, "terminal": true,
}

// headingPaths fills the heading path of every line.
func (b *builder) headingPaths() {
	m := b.m
	m.paths = make([][]string, len(m.lines))
	var stack []headingMark
	var cur []string
	hi := 0
	for n := 1; n <= len(m.lines); n++ {
		for hi < len(b.headingsAt) && b.headingsAt[hi].line == n {
			h := b.headingsAt[hi]
			for len(stack) > 0 && stack[len(stack)-1].level >= h.level {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, h)
			cur = make([]string, len(stack))
			for i, s := range stack {
				cur[i] = s.title
			}
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

// reContainer opens an indentation-scoped MkDocs container: a content tab
// (`=== "Linux"`, pymdownx.tabbed) or an admonition (`!!! note`, `??? tip`).
var reContainer = regexp.MustCompile(`^( *)(?:===\+?|!!!|\?\?\?\+?)\s`)

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
