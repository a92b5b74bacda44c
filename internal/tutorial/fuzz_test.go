package tutorial

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"testing"
	"unicode/utf8"
)

func fuzzSeeds(f *testing.F) {
	guide, err := os.ReadFile("testdata/guide.md")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(guide)
	for _, s := range []string{
		"", "# T\n", "---\na: 1\n---\n# T\n", "+++\n+++\n", "```bash\nls \\\n -l\ncat <<EOF\nx\nEOF\n```\n",
		"```console\n$ ls\nout\n> more\n```\n", "- a\n  ```sh\n  make\n  ```\n", "> ```\n> x\n", "Foo\n===\n", "| a |\n|---|\n| b |\n",
		"![x](../../etc/passwd)\n<img src=\"a.png\">\n", "\ttab\n", "a\r\nb\r\n", "\xef\xbb\xbf# BOM\n", "```sh\nif x; then\n  case y in\n a) ;;\nesac\n```",
		"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>a &amp;&amp; b\nc</code></pre>\n<h2>T</h2>\n", "<figure><pre><code>\nx\n\ny</code></pre><figcaption>a.py</figcaption></figure>\n",
		"@Steps {\n    @Step {\n        ```sh\n        ls\n        ```\n    }\n}\n", "\\page p T\n\\code{.sh}\nls\n\\endcode\n\\verbatim\nx\n",
	} {
		f.Add([]byte(s))
	}
}

// FuzzParse: no input panics; errors are the user's to fix; every block lies inside the
// document; a CRLF twin maps to the same lines.
func FuzzParse(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		tu, err := Parse("fuzz.md", raw)
		if err != nil {
			var in interface{ InvalidInput() bool }
			if !errors.As(err, &in) {
				t.Fatalf("error %T is not InvalidInput: %v", err, err)
			}
			return
		}
		checkMap(t, "fuzz", tu)
		if t.Failed() {
			return
		}
		if !bytes.Contains(raw, []byte("\r")) && len(raw)*2 <= MaxSize {
			twin, err := Parse("fuzz.md", bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n")))
			if err != nil {
				t.Fatalf("CRLF twin rejected: %v", err)
			}
			if !reflect.DeepEqual(tu.Map.Blocks(), twin.Map.Blocks()) {
				t.Fatalf("CRLF twin maps differently:\n%+v\n%+v", tu.Map.Blocks(), twin.Map.Blocks())
			}
		}
	})
}

// FuzzLocate: any quote against any document gives a location inside it, or none.
func FuzzLocate(f *testing.F) {
	guide, err := os.ReadFile("testdata/guide.md")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(guide, "Run the setup script")
	f.Add([]byte("# A\n\ntext **bold** [link](x)\n"), "text bold link")
	f.Add([]byte("```sh\nmake\n```\n"), "make")
	f.Add([]byte(""), "")
	f.Fuzz(func(t *testing.T, raw []byte, quote string) {
		tu, err := Parse("fuzz.md", raw)
		if err != nil || !utf8.ValidString(quote) {
			return
		}
		loc, ok := tu.Map.Locate(quote)
		if !ok {
			return
		}
		if loc.Line < 1 || loc.Line > loc.EndLine || loc.EndLine > tu.Map.LineCount() {
			t.Fatalf("location %d-%d outside the %d-line document", loc.Line, loc.EndLine, tu.Map.LineCount())
		}
		if loc.Score <= 0 || loc.Score > 1 {
			t.Fatalf("score %v out of range", loc.Score)
		}
	})
}
