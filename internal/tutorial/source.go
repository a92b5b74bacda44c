package tutorial

import (
	"bytes"
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
