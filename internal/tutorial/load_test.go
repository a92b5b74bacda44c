package tutorial

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func write(t *testing.T, path string, content []byte) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, content, 0o644))
	return path
}

func assertInvalidInput(t *testing.T, err error) {
	t.Helper()
	var in interface{ InvalidInput() bool }
	require.True(t, errors.As(err, &in), "%T is not an InvalidInput error", err)
	assert.True(t, in.InvalidInput())
}

func TestLoadValidTutorial(t *testing.T) {
	t.Parallel()
	tu, err := Load("testdata/guide.md")
	require.NoError(t, err)
	raw, err := os.ReadFile("testdata/guide.md")
	require.NoError(t, err)
	assert.Equal(t, raw, tu.Raw, "scenario 2.1: the raw markdown is available")
	assert.Equal(t, "testdata/guide.md", tu.Path)
	assert.True(t, filepath.IsAbs(tu.AbsPath))
	assert.Equal(t, filepath.Dir(tu.AbsPath), tu.Dir)
	assert.False(t, tu.Empty)
	assert.Empty(t, tu.Warnings)
	assert.Equal(t, 62, tu.Map.LineCount())
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := write(t, filepath.Join(dir, "big.md"), []byte(strings.Repeat("a", MaxSize+1)))
	missing := filepath.Join(dir, "missing.md")

	_, err := Load(missing)
	require.Error(t, err)
	assert.Equal(t, "Tutorial not found: "+missing, err.Error(), "1.E4")
	assert.ErrorIs(t, err, os.ErrNotExist)
	assertInvalidInput(t, err)

	_, err = Load(big)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "Tutorial exceeds size limit (100KB)"), err.Error())
	assertInvalidInput(t, err)

	_, err = Load(dir)
	assert.ErrorContains(t, err, "is a directory")

	fifo := filepath.Join(dir, "fifo.md")
	if syscall.Mkfifo(fifo, 0o644) == nil {
		_, err = Load(fifo)
		assert.ErrorContains(t, err, "not a regular file")
	}
}

func TestParseContentRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		raw     []byte
		wantErr []string // substrings; nil means valid
	}{
		{"exactly 100 KB is allowed", []byte(strings.Repeat("x", MaxSize)), nil},
		{"one byte over", []byte(strings.Repeat("x", MaxSize+1)), []string{"Tutorial exceeds size limit (100KB)"}},
		{"latin-1 byte", []byte("# Caf\xe9\n"), []string{"not valid UTF-8", "0xe9", "byte offset 5", "line 1", "save the file as UTF-8"}},
		{"bad byte on line 3", []byte("ok\nok\n\xff\xfe bad\n"), []string{"byte offset 6", "line 3"}},
		{"truncated multibyte", []byte("abc\n\xe2\x82"), []string{"byte offset 4", "line 2"}},
		{"NUL byte", []byte("# Title\x00\n"), []string{"not a valid markdown file", "NUL byte at byte offset 7"}},
		{"PNG signature", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), []string{"not a valid markdown file"}},
		{"control characters", []byte(strings.Repeat("\x01\x02\x03 ", 50)), []string{"not a valid markdown file", "control characters"}},
		{"UTF-16", []byte("\xff\xfe#\x00 \x00"), []string{"UTF-16"}},
		{"escape sequences are text", []byte("Colours: \x1b[31mred\x1b[0m\n"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tu, err := Parse("t.md", tt.raw)
			if tt.wantErr == nil {
				require.NoError(t, err)
				require.NotNil(t, tu.Map)
				return
			}
			require.Error(t, err)
			for _, w := range tt.wantErr {
				assert.Contains(t, err.Error(), w)
			}
			assertInvalidInput(t, err)
		})
	}
}

// 2.E4: an empty tutorial is recorded for the Student, not an error.
func TestParseEmpty(t *testing.T) {
	t.Parallel()
	for name, raw := range map[string]string{
		"zero bytes":        "",
		"white space":       " \n\t\n",
		"front matter only": "---\ntitle: x\n---\n\n",
		"BOM only":          "\xef\xbb\xbf",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tu, err := Parse("t.md", []byte(raw))
			require.NoError(t, err)
			assert.True(t, tu.Empty)
			require.Len(t, tu.Warnings, 1)
			assert.Contains(t, tu.Warnings[0], "empty")
			assert.Empty(t, tu.Map.ShellBlocks())
		})
	}
}

// 2.E6: front matter is removed from what the Student sees; lines keep the file's numbering.
func TestParseFrontMatter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		raw       string
		kind      string
		bodyStart int
		body      string
	}{
		{"yaml", "---\ntitle: x\n---\n# Go\n", "yaml", 4, "# Go\n"},
		{"yaml closed by dots", "---\na: 1\n...\n# Go\n", "yaml", 4, "# Go\n"},
		{"toml", "+++\ntitle = \"x\"\ndate = 2024\n+++\n\n# Go\n", "toml", 5, "\n# Go\n"},
		{"CRLF", "---\r\ntitle: x\r\n---\r\n# Go\r\n", "yaml", 4, "# Go\r\n"},
		{"BOM", "\xef\xbb\xbf---\ntitle: x\n---\n# Go\n", "yaml", 4, "# Go\n"},
		{"empty yaml", "---\n---\n# Go\n", "yaml", 3, "# Go\n"},
		{"unclosed is a thematic break", "---\n# Go\n", "", 1, "---\n# Go\n"},
		{"not at the start", "\n---\na: 1\n---\n# Go\n", "", 1, "\n---\na: 1\n---\n# Go\n"},
		{"no front matter", "# Go\n", "", 1, "# Go\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tu, err := Parse("t.md", []byte(tt.raw))
			require.NoError(t, err)
			assert.Equal(t, tt.kind, tu.FrontMatter)
			assert.Equal(t, tt.bodyStart, tu.BodyStartLine)
			assert.Equal(t, tt.body, tu.Body)
			var heading Block
			for _, b := range tu.Map.Blocks() {
				if b.Kind == KindHeading {
					heading = b
				}
			}
			require.Equal(t, KindHeading, heading.Kind, "%+v", tu.Map.Blocks())
			assert.Equal(t, "# Go", tu.Map.Line(heading.StartLine), "heading line refers to the original file")
			if tt.kind != "" {
				for _, b := range tu.Map.Blocks() {
					assert.GreaterOrEqual(t, b.StartLine, tu.BodyStartLine, "no block inside the front matter")
				}
			}
		})
	}
}

func TestParseImages(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(repo, ".git"), 0o755))
	docs := filepath.Join(repo, "docs")
	write(t, filepath.Join(docs, "img", "a.png"), []byte("png"))
	write(t, filepath.Join(docs, "img", "b c.jpg"), []byte("jpg"))
	write(t, filepath.Join(repo, "assets", "logo.svg"), []byte("<svg/>"))
	write(t, filepath.Join(docs, "img", "anim.GIF"), []byte("gif"))
	outside := write(t, filepath.Join(t.TempDir(), "secret.png"), []byte("secret"))
	require.NoError(t, os.Symlink(outside, filepath.Join(docs, "img", "link.png")))

	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1) }))
	defer srv.Close()

	md := strings.Join([]string{
		"# Images",                          // 1
		"![local](img/a.png)",               // 2
		"![space](img/b%20c.jpg \"title\")", // 3
		"![up](../assets/logo.svg)",         // 4
		"![root](/assets/logo.svg)",         // 5
		"![missing](img/nope.png)",          // 6
		"![escape](../../etc/passwd)",       // 7
		"![remote](" + srv.URL + "/x.png)",  // 8
		"![ref][logo]",                      // 9
		"",                                  // 10
		"[logo]: img/anim.GIF",              // 11
		"",                                  // 12
		`<img src="img/a.png?raw=true" alt="html">`, // 13
		"",                                 // 14
		"![bmp](img/a.bmp)",                // 15
		"![link](img/link.png)",            // 16
		"![abs](/../../../etc/shadow.png)", // 17
		"Inline <img alt='x' src='img/a.png'> here.", // 18
	}, "\n")
	tu, err := Parse(filepath.Join(docs, "guide.md"), []byte(md))
	require.NoError(t, err)
	assert.Equal(t, repo, tu.Root)

	type want struct {
		ref     string
		line    int
		path    string
		format  string
		exists  bool
		remote  bool
		refused string
	}
	wants := []want{
		{"img/a.png", 2, filepath.Join(docs, "img", "a.png"), "png", true, false, ""},
		{"img/b%20c.jpg", 3, filepath.Join(docs, "img", "b c.jpg"), "jpg", true, false, ""},
		{"../assets/logo.svg", 4, filepath.Join(repo, "assets", "logo.svg"), "svg", true, false, ""},
		{"/assets/logo.svg", 5, filepath.Join(repo, "assets", "logo.svg"), "svg", true, false, ""},
		{"img/nope.png", 6, filepath.Join(docs, "img", "nope.png"), "png", false, false, ""},
		{"../../etc/passwd", 7, "", "", false, false, "leaves the tutorial's repository"},
		{srv.URL + "/x.png", 8, "", "png", false, true, ""},
		{"img/anim.GIF", 9, filepath.Join(docs, "img", "anim.GIF"), "gif", true, false, ""},
		{"img/a.png?raw=true", 13, filepath.Join(docs, "img", "a.png"), "png", true, false, ""},
		{"img/a.bmp", 15, "", "", false, false, "unsupported image format"},
		{"img/link.png", 16, "", "png", false, false, "link that leaves"},
		{"/../../../etc/shadow.png", 17, "", "", false, false, "leaves the tutorial's repository"},
		{"img/a.png", 18, filepath.Join(docs, "img", "a.png"), "png", true, false, ""},
	}
	require.Len(t, tu.Images, len(wants), "%+v", tu.Images)
	for i, w := range wants {
		img := tu.Images[i]
		assert.Equal(t, w.ref, img.Ref, "ref %d", i)
		assert.Equal(t, w.line, img.Line, "line of %s", w.ref)
		assert.Equal(t, w.path, img.Path, "path of %s", w.ref)
		assert.Equal(t, w.format, img.Format, "format of %s", w.ref)
		assert.Equal(t, w.exists, img.Exists, "exists of %s", w.ref)
		assert.Equal(t, w.remote, img.Remote, "remote of %s", w.ref)
		if w.refused == "" {
			assert.Empty(t, img.Refused, w.ref)
		} else {
			assert.Contains(t, img.Refused, w.refused, w.ref)
		}
	}
	assert.Equal(t, "local", tu.Images[0].Alt)
	assert.Equal(t, "html", tu.Images[8].Alt)
	assert.Zero(t, hits.Load(), "remote images are never fetched")

	joined := strings.Join(tu.Warnings, "\n")
	assert.Contains(t, joined, `"img/nope.png" on line 6 not found`)
	assert.Contains(t, joined, `"../../etc/passwd" on line 7 was not loaded`)
	assert.Contains(t, joined, `"img/link.png" on line 16 was not loaded`)
	assert.NotContains(t, joined, srv.URL)
}

// Without a .git directory the tutorial's own directory is the tree images must stay in.
func TestParseImagesWithoutRepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sibling.png"), []byte("png"))
	docs := filepath.Join(dir, "docs")
	tu, err := Parse(filepath.Join(docs, "t.md"), []byte("![a](../sibling.png)\n"))
	require.NoError(t, err)
	if tu.Root != docs { // some ancestor of the temp dir is a repository
		t.Skipf("temp dir %s is inside a repository %s", dir, tu.Root)
	}
	require.Len(t, tu.Images, 1)
	assert.Contains(t, tu.Images[0].Refused, "leaves")
	assert.Empty(t, tu.Images[0].Path)
}

// A directory link on the way out of the tree is refused too, and a link inside the tree
// to an image inside it is fine.
func TestParseImagesThroughLinkedDirectories(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(repo, ".git"), 0o755))
	outside := t.TempDir()
	write(t, filepath.Join(outside, "x.png"), []byte("png"))
	write(t, filepath.Join(repo, "real", "y.png"), []byte("png"))
	require.NoError(t, os.Symlink(outside, filepath.Join(repo, "out")))
	require.NoError(t, os.Symlink(filepath.Join(repo, "real"), filepath.Join(repo, "in")))
	tu, err := Parse(filepath.Join(repo, "t.md"), []byte("![a](out/x.png)\n![b](in/y.png)\n![c](real)\n"))
	require.NoError(t, err)
	require.Len(t, tu.Images, 3)
	assert.Contains(t, tu.Images[0].Refused, "leaves")
	assert.Empty(t, tu.Images[0].Path)
	assert.True(t, tu.Images[1].Exists)
	assert.Empty(t, tu.Images[1].Refused)
	assert.Contains(t, tu.Images[2].Refused, "unsupported image format")
}
