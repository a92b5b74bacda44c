package tutorial

import (
	"strings"
	"sync"
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
