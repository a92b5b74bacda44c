package tutorial

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark/text"
)

const bigSection = "## Step %[1]d: configure the **service** number %[1]d\n\n" +
	"Install the dependencies for step %[1]d, then check the output looks like the picture below.\n" +
	"Read [the reference](https://example.com/ref/%[1]d) if something differs.\n\n" +
	"![Step %[1]d](%[2]s)\n\n" +
	"- make sure port %[3]d is free\n" +
	"- export `TOKEN` before running\n\n" +
	"```bash\n" +
	"sudo apt-get install -y tool-%[1]d \\\n  helper-%[1]d\n" +
	"cat > conf-%[1]d.txt <<END\nvalue=%[1]d\nEND\n" +
	"./run.sh --step %[1]d\n" +
	"```\n\n" +
	"```console\n$ ./check.sh %[1]d\nok\n```\n\n"

// bigTutorial writes a tutorial of just under 100 KB with headings, prose, lists, shell
// blocks and image references (half of them existing files) into dir.
func bigTutorial(tb testing.TB, dir string) string {
	tb.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "img"), 0o755); err != nil {
		tb.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("---\ntitle: Big tutorial\n---\n\n# Big tutorial\n\n")
	for i := 0; ; i++ {
		img := fmt.Sprintf("img/step-%d.png", i)
		if i%2 == 0 {
			if err := os.WriteFile(filepath.Join(dir, img), []byte("png"), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
		section := fmt.Sprintf(bigSection, i, img, 8000+i)
		if sb.Len()+len(section) > MaxSize {
			break
		}
		sb.WriteString(section)
	}
	path := filepath.Join(dir, "big.md")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkLoadBig: loading and mapping a 100 KB tutorial with images (spec 2.S1: < 500 ms).
func BenchmarkLoadBig(b *testing.B) {
	path := bigTutorial(b, b.TempDir())
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	for b.Loop() {
		tu, err := Load(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(tu.Images) == 0 || len(tu.Map.ShellBlocks()) == 0 {
			b.Fatal("nothing mapped")
		}
	}
}

// BenchmarkGoldmarkBaseline: goldmark alone on the same document, to read the others against.
func BenchmarkGoldmarkBaseline(b *testing.B) {
	raw, err := os.ReadFile(bigTutorial(b, b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		parser().Parser().Parse(text.NewReader(raw))
	}
}

// BenchmarkLocate: one Locate on the 100 KB tutorial (its index is built on first use).
func BenchmarkLocate(b *testing.B) {
	tu, err := Load(bigTutorial(b, b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	tu.Map.Locate("warm up")
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := tu.Map.Locate("install the dependencies for step 40 then check the output"); !ok {
			b.Fatal("not found")
		}
	}
}

func TestBigTutorial(t *testing.T) {
	t.Parallel()
	tu, err := Load(bigTutorial(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if len(tu.Raw) < 90*1024 {
		t.Fatalf("only %d bytes", len(tu.Raw))
	}
	checkMap(t, "big", tu)
	loc, ok := tu.Map.Locate("Install the dependencies for step 40, then check the output")
	if !ok || !strings.Contains(loc.Text, "step 40,") {
		t.Fatalf("Locate: %+v %v", loc, ok)
	}
	if got := tu.Map.HeadingPath(loc.Line); len(got) != 2 || !strings.HasPrefix(got[1], "Step 40:") {
		t.Fatalf("heading path %v", got)
	}
	sh := tu.Map.ShellBlocks()
	if len(sh) < 100 || len(sh[0].Commands) != 3 || sh[0].Commands[1].EndLine-sh[0].Commands[1].StartLine != 2 {
		t.Fatalf("shell blocks: %d, first %+v", len(sh), sh[0].Commands)
	}
}
