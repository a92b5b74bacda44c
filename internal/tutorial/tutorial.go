// Package tutorial loads a Markdown tutorial under the spec's rules and maps it to lines.
package tutorial

// MaxSize is the largest tutorial accepted (spec 2.E1).
const MaxSize = 100 * 1024

// Tutorial is a loaded tutorial. Line numbers everywhere are 1-based and refer to the
// original file, front matter included.
type Tutorial struct {
	Path    string // as given by the user
	AbsPath string
	Dir     string // absolute directory of the tutorial; images resolve relative to it
	Root    string // nearest ancestor of Dir with .git (Dir when none); local images must stay inside it
	Raw     []byte // the file exactly as read

	// Body is what the Student sees: the file without front matter. Lines of Body
	// start at BodyStartLine of the original file.
	Body          string
	BodyStartLine int
	FrontMatter   string // "yaml", "toml" or "" when none

	Empty    bool     // nothing but white space (and front matter): 2.E4, recorded for the Student
	Images   []Image  // every image reference, in document order
	Warnings []string // things the Student should know about (empty file, missing or refused images)

	Map *LineMap
}

// Image is one image reference of the tutorial.
type Image struct {
	Ref     string // the reference as written
	Alt     string
	Line    int
	Path    string // absolute path on disk when local and allowed; "" otherwise
	Format  string // png, jpg, gif, svg or "" when unsupported
	Exists  bool
	Remote  bool   // http(s) URL: recorded, never fetched
	Refused string // why the reference was not read (escapes the tutorial tree, unsupported format), "" when fine
}

// BlockKind is the kind of a Markdown block.
type BlockKind string

// Block kinds of the line map.
const (
	KindHeading       BlockKind = "heading"
	KindParagraph     BlockKind = "paragraph"
	KindListItem      BlockKind = "list_item"
	KindFencedCode    BlockKind = "fenced_code"
	KindIndentedCode  BlockKind = "indented_code"
	KindHTMLCode      BlockKind = "html_code" // an HTML <pre> element: htmlPre
	KindHTML          BlockKind = "html"
	KindTable         BlockKind = "table"
	KindBlockQuote    BlockKind = "blockquote"
	KindThematicBreak BlockKind = "thematic_break"
)

// Block is one block of the document with its line range.
type Block struct {
	Kind        BlockKind
	StartLine   int // first line of the block (for fenced code: the opening fence)
	EndLine     int // last line (for fenced code: the closing fence when present)
	Level       int // heading level, 0 for other blocks
	Info        string
	Text        string   // the block's source text (for code: the content without fences)
	HeadingPath []string // headings enclosing the block, outermost first ("Install", "Linux")
}

// CodeBlock is a fenced or indented code block in document order.
type CodeBlock struct {
	Block
	Lang             string    // first word of the info string, lower-cased ("bash", "python", "")
	Shell            bool      // bash, sh, shell, console, zsh (and their aliases)
	Console          bool      // a console/terminal session: only prompt lines are commands
	Content          string    // the code without fences
	ContentStartLine int       // line of the first content line
	ContentLines     []int     // the tutorial line of each content line
	Commands         []Command // shell blocks: the commands to run, with their lines
	Lead             string    // plain text of the paragraph or list item right before the block, "" when none
}

// Command is one command of a shell block; continuation lines (trailing backslash,
// here-documents) are part of the same command.
type Command struct {
	Text      string // the command without its prompt
	StartLine int
	EndLine   int
	Output    string // console blocks: the output lines shown after the command
}

// Location is where a quote was found.
type Location struct {
	Line    int
	EndLine int
	Text    string  // the tutorial text at that place (the source line(s), markup included)
	Score   float64 // 0..1, how well the quote matched
}
