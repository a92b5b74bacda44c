package tutorial

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// Error is a tutorial that cannot be used: missing, too large, not UTF-8, not text.
// The user fixes it (exit code 2).
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// InvalidInput marks the error as the user's to fix.
func (e *Error) InvalidInput() bool { return true }

// Messages fixed by the spec (1.E4, 2.E1, 2.E5).
const (
	msgNotFound = "Tutorial not found: "
	msgTooLarge = "Tutorial exceeds size limit (100KB)"
	msgBinary   = "not a valid markdown file"
)

var utf8BOM = []byte("\xef\xbb\xbf")

// Load reads and checks the tutorial at path under the rules of spec story 2.
func Load(path string) (*Tutorial, error) {
	fi, err := os.Stat(path) // before opening: opening a FIFO would block
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, &Error{Msg: msgNotFound + path, Err: err}
	case err != nil:
		return nil, &Error{Msg: fmt.Sprintf("read tutorial %s: %v", path, err), Err: err}
	case fi.IsDir():
		return nil, &Error{Msg: fmt.Sprintf("tutorial %s is a directory: name a Markdown file", path)}
	case !fi.Mode().IsRegular():
		return nil, &Error{Msg: fmt.Sprintf("tutorial %s is not a regular file: name a Markdown file", path)}
	case fi.Size() > MaxSize:
		return nil, tooLarge(path, fi.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("read tutorial %s: %v", path, err), Err: err}
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, MaxSize+1)) // the file may grow after Stat
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("read tutorial %s: %v", path, err), Err: err}
	}
	return Parse(path, raw)
}

func tooLarge(path string, size int64) error {
	return &Error{Msg: fmt.Sprintf("%s: %s is %.1f KB; split it into smaller tutorials of at most 100 KB",
		msgTooLarge, path, float64(size)/1024)}
}

// Parse checks and maps tutorial content read from path: size (2.E1), encoding (2.E2),
// binary content (2.E5), empty file (2.E4), front matter (2.E6) and images (2.S2, 2.E3).
func Parse(path string, raw []byte) (*Tutorial, error) {
	if len(raw) > MaxSize {
		return nil, tooLarge(path, int64(len(raw)))
	}
	if err := checkText(path, raw); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("resolve tutorial path %s: %v", path, err), Err: err}
	}
	t := &Tutorial{Path: path, AbsPath: abs, Dir: filepath.Dir(abs), Raw: raw, BodyStartLine: 1}
	t.Root = repositoryRoot(t.Dir)

	content := bytes.TrimPrefix(raw, utf8BOM)
	bodyOff := len(raw) - len(content)
	if kind, n, lines := frontMatter(content); kind != "" {
		t.FrontMatter = kind
		bodyOff += n
		t.BodyStartLine = 1 + lines
	}
	t.Body = string(raw[bodyOff:])
	if len(bytes.TrimSpace(raw[bodyOff:])) == 0 {
		t.Empty = true
		t.Warnings = append(t.Warnings, "the tutorial is empty: there are no instructions to follow")
	}
	var refs []imageRef
	t.Map, refs = newLineMap(raw, bodyOff, t.BodyStartLine)
	t.resolveImages(refs)
	return t, nil
}

// checkText rejects binary content and invalid UTF-8, naming the first bad byte.
func checkText(path string, raw []byte) error {
	if bytes.HasPrefix(raw, []byte{0xff, 0xfe}) || bytes.HasPrefix(raw, []byte{0xfe, 0xff}) {
		return &Error{Msg: fmt.Sprintf("tutorial %s is UTF-16 encoded, not UTF-8: save it as UTF-8", path)}
	}
	if i := bytes.IndexByte(raw, 0); i >= 0 {
		return &Error{Msg: fmt.Sprintf("%s: %s contains a NUL byte at byte offset %d (line %d), so it looks binary; name a Markdown text file", msgBinary, path, i, lineAt(raw, i))}
	}
	if !utf8.Valid(raw) {
		i := firstInvalid(raw)
		return &Error{Msg: fmt.Sprintf("tutorial %s is not valid UTF-8: invalid byte 0x%02x at byte offset %d (line %d); save the file as UTF-8", path, raw[i], i, lineAt(raw, i))}
	}
	// Other control characters in quantity mean binary data that happens to be UTF-8.
	ctl := 0
	for _, c := range raw {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1b {
			ctl++
		}
	}
	if ctl > 0 && ctl*20 > len(raw) {
		return &Error{Msg: fmt.Sprintf("%s: %s is mostly control characters (%d of %d bytes), so it looks binary; name a Markdown text file", msgBinary, path, ctl, len(raw))}
	}
	return nil
}

// firstInvalid is the offset of the first byte that does not start a valid UTF-8 sequence.
func firstInvalid(raw []byte) int {
	for i := 0; i < len(raw); {
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(raw) - 1
}

// lineAt is the 1-based line of byte offset i.
func lineAt(raw []byte, i int) int {
	return 1 + bytes.Count(raw[:i], []byte("\n"))
}

// frontMatter recognises YAML (---) and TOML (+++) front matter at the very start of
// content. It returns the kind, the bytes it spans (closing line included) and its
// number of lines. Without a closing delimiter there is no front matter.
func frontMatter(content []byte) (kind string, n, lines int) {
	first, rest, ok := cutLine(content)
	if !ok {
		return "", 0, 0
	}
	var closers []string
	switch string(bytes.TrimRight(first, " \t\r")) {
	case "---":
		kind, closers = "yaml", []string{"---", "..."}
	case "+++":
		kind, closers = "toml", []string{"+++"}
	default:
		return "", 0, 0
	}
	n, lines = len(content)-len(rest), 1
	for len(rest) > 0 {
		line, next, _ := cutLine(rest)
		n += len(rest) - len(next)
		lines++
		trimmed := string(bytes.TrimRight(line, " \t\r"))
		for _, c := range closers {
			if trimmed == c {
				return kind, n, lines
			}
		}
		rest = next
	}
	return "", 0, 0
}

// cutLine splits off the first line (without its "\n"); ok is false when b has no "\n".
func cutLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil, false
	}
	return b[:i], b[i+1:], true
}

// repositoryRoot is the nearest ancestor of dir (dir included) holding .git; dir when none.
// Local images must stay inside it.
func repositoryRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
