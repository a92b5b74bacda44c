package tutorial

// LineMap maps a tutorial's Markdown structure to lines of the original file.
//
// Placeholder: the foundation work replaces this file with the goldmark implementation.
type LineMap struct {
	lines  []string
	blocks []Block
	code   []CodeBlock
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

// LineCount is the number of lines of the original file.
func (m *LineMap) LineCount() int { return len(m.lines) }

// BlockAt returns the innermost block containing line n.
func (m *LineMap) BlockAt(n int) (Block, bool) { return Block{}, false }

// HeadingPath returns the headings enclosing line n, outermost first.
func (m *LineMap) HeadingPath(n int) []string { return nil }

// Locate finds the best place for a quote; ok is false when nothing matches well enough.
func (m *LineMap) Locate(quote string) (loc Location, ok bool) { return Location{}, false }
