package tutorial

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func loadGuide(t *testing.T) *Tutorial {
	t.Helper()
	tu, err := Load("testdata/guide.md")
	require.NoError(t, err)
	return tu
}

func TestBlocksOfGuide(t *testing.T) {
	t.Parallel()
	m := loadGuide(t).Map
	type span struct {
		kind       BlockKind
		start, end int
	}
	want := []span{
		{KindHeading, 6, 6}, {KindParagraph, 8, 8}, {KindParagraph, 10, 10},
		{KindHeading, 12, 12},
		{KindListItem, 14, 14}, {KindParagraph, 14, 14}, {KindListItem, 15, 15}, {KindParagraph, 15, 15},
		{KindHeading, 17, 17}, {KindHeading, 19, 19}, {KindParagraph, 21, 21},
		{KindFencedCode, 23, 32},
		{KindHeading, 34, 35}, // setext: text and underline
		{KindListItem, 37, 44}, {KindParagraph, 37, 37}, {KindFencedCode, 39, 44},
		{KindListItem, 46, 46}, {KindParagraph, 46, 46},
		{KindBlockQuote, 48, 48}, {KindParagraph, 48, 48},
		{KindTable, 50, 52}, {KindIndentedCode, 54, 54}, {KindHTML, 56, 56},
		{KindThematicBreak, 58, 58}, {KindFencedCode, 60, 62},
	}
	var got []span
	for _, b := range m.Blocks() {
		got = append(got, span{b.Kind, b.StartLine, b.EndLine})
	}
	assert.Equal(t, want, got)

	blocks := m.Blocks()
	assert.Equal(t, 1, blocks[0].Level)
	assert.Equal(t, "Hello service", blocks[0].Text)
	assert.Equal(t, 3, blocks[9].Level)
	assert.Equal(t, "bash", blocks[11].Info)
	assert.Equal(t, "This guide shows how to **build** and run the `hello` service.", blocks[1].Text, "source text, markup kept")
	assert.Equal(t, []string{"Hello service", "Install", "Linux"}, blocks[11].HeadingPath)
}

func TestHeadingPathAndBlockAt(t *testing.T) {
	t.Parallel()
	m := loadGuide(t).Map
	tests := []struct {
		line int
		path []string
		kind BlockKind
	}{
		{2, nil, ""}, // front matter
		{6, []string{"Hello service"}, KindHeading},
		{7, []string{"Hello service"}, ""},
		{15, []string{"Hello service", "Prerequisites"}, KindParagraph},
		{26, []string{"Hello service", "Install", "Linux"}, KindFencedCode},
		{35, []string{"Run the setup script"}, KindHeading},
		{41, []string{"Run the setup script"}, KindFencedCode},
		{51, []string{"Run the setup script"}, KindTable},
		{100, nil, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.path, m.HeadingPath(tt.line), "heading path of line %d", tt.line)
		b, ok := m.BlockAt(tt.line)
		assert.Equal(t, tt.kind != "", ok, "line %d", tt.line)
		assert.Equal(t, tt.kind, b.Kind, "innermost block of line %d", tt.line)
	}
	assert.Equal(t, "Hello service › Install › Linux", m.Section(25))
	assert.Equal(t, "", m.Line(0))
	assert.Equal(t, "# Hello service", m.Line(6))
	assert.Equal(t, "```", m.Line(62))
}

func TestCodeBlocksOfGuide(t *testing.T) {
	t.Parallel()
	m := loadGuide(t).Map
	code := m.CodeBlocks()
	require.Len(t, code, 4)
	assert.Equal(t, []string{"bash", "console", "", "python"}, []string{code[0].Lang, code[1].Lang, code[2].Lang, code[3].Lang})
	assert.Equal(t, KindIndentedCode, code[2].Kind)
	assert.Equal(t, "indented code block", code[2].Content)
	assert.Equal(t, 54, code[2].ContentStartLine)

	bash := code[0]
	assert.True(t, bash.Shell)
	assert.False(t, bash.Console)
	assert.Equal(t, 24, bash.ContentStartLine)
	assert.Equal(t, "Install the build tools first:", bash.Lead)
	assert.Equal(t, []Command{
		{Text: "sudo apt-get update", StartLine: 24, EndLine: 24},
		{Text: "sudo apt-get install -y \\\n  build-essential \\\n  git", StartLine: 25, EndLine: 27},
		{Text: "cat > hello.conf <<'EOF2'\nport = 8080\nEOF2", StartLine: 29, EndLine: 31},
	}, bash.Commands)

	console := code[1]
	assert.True(t, console.Shell)
	assert.True(t, console.Console)
	assert.Equal(t, "Clone the repository, then run the setup script:", console.Lead)
	assert.Equal(t, []Command{
		{Text: "git clone https://example.com/hello.git", StartLine: 40, EndLine: 40, Output: "Cloning into 'hello'..."},
		{Text: "cd hello && ./setup.sh", StartLine: 42, EndLine: 42, Output: "setup complete"},
	}, console.Commands)

	shell := m.ShellBlocks()
	require.Len(t, shell, 2)
	assert.Equal(t, 23, shell[0].StartLine)
	assert.Equal(t, 39, shell[1].StartLine)
}

func TestLanguageAndShellDetection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		info           string
		lang           string
		shell, console bool
	}{
		{"bash", "bash", true, false},
		{"sh", "sh", true, false},
		{"Shell", "shell", true, false},
		{"zsh", "zsh", true, false},
		{"console", "console", true, true},
		{"shell-session", "shell-session", true, true},
		{"terminal", "terminal", true, true},
		{"command", "command", true, false},
		{"super_user", "super_user", true, false},
		{`bash title="install.sh"`, "bash", true, false},
		{"{.bash}", "bash", true, false},
		{"bash{1,3}", "bash", true, false},
		{"bash=", "bash", true, false},    // HackMD: numbered lines
		{"bash=101", "bash", true, false}, // numbered from 101
		{"bash!", "bash", true, false},    // wrapped lines
		{"python", "python", false, false},
		{"", "", false, false},
		{"bashful", "bashful", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.info, func(t *testing.T) {
			t.Parallel()
			tu, err := Parse("t.md", []byte("```"+tt.info+"\necho hi\n```\n"))
			require.NoError(t, err)
			require.Len(t, tu.Map.CodeBlocks(), 1)
			c := tu.Map.CodeBlocks()[0]
			assert.Equal(t, tt.lang, c.Lang)
			assert.Equal(t, tt.shell, c.Shell)
			assert.Equal(t, tt.console, c.Console)
		})
	}
}

func TestScriptCommands(t *testing.T) {
	t.Parallel()
	type cmd struct {
		text       string
		start, end int
	}
	tests := []struct {
		name string
		code string
		want []cmd
	}{
		{"one per line", "cd app\nnpm install\n", []cmd{{"cd app", 1, 1}, {"npm install", 2, 2}}},
		{"comments and blanks skipped", "#!/bin/bash\n# install\n\nmake  # build\n", []cmd{{"make  # build", 4, 4}}},
		{"backslash continuation", "docker run \\\n  -p 80:80 \\\n  nginx\nls\n", []cmd{{"docker run \\\n  -p 80:80 \\\n  nginx", 1, 3}, {"ls", 4, 4}}},
		{"heredoc", "cat <<EOF > f.txt\na\n$HOME\nEOF\necho done\n", []cmd{{"cat <<EOF > f.txt\na\n$HOME\nEOF", 1, 4}, {"echo done", 5, 5}}},
		{"quoted heredoc with dash", "cat <<-'END'\n\tx\n\tEND\nls\n", []cmd{{"cat <<-'END'\n\tx\n\tEND", 1, 3}, {"ls", 4, 4}}},
		{"two heredocs", "paste <<A <<B\n1\nA\n2\nB\nls\n", []cmd{{"paste <<A <<B\n1\nA\n2\nB", 1, 5}, {"ls", 6, 6}}},
		{"here-string is not a heredoc", "cat <<< hi\nls\n", []cmd{{"cat <<< hi", 1, 1}, {"ls", 2, 2}}},
		{"open quote", "echo \"a\nb\"\nls\n", []cmd{{"echo \"a\nb\"", 1, 2}, {"ls", 3, 3}}},
		{"apostrophe in comment", "ls # don't\npwd\n", []cmd{{"ls # don't", 1, 1}, {"pwd", 2, 2}}},
		{"for loop", "for f in *.txt; do\n  echo $f\ndone\nls\n", []cmd{{"for f in *.txt; do\n  echo $f\ndone", 1, 3}, {"ls", 4, 4}}},
		{"if", "if [ -f x ]; then\n  rm x\nfi\n", []cmd{{"if [ -f x ]; then\n  rm x\nfi", 1, 3}}},
		{"one-line if", "if true; then echo y; fi\nls\n", []cmd{{"if true; then echo y; fi", 1, 1}, {"ls", 2, 2}}},
		{"function", "greet() {\n  echo hi\n}\ngreet\n", []cmd{{"greet() {\n  echo hi\n}", 1, 3}, {"greet", 4, 4}}},
		{"case", "case $x in\n  a) echo a;;\n  *) echo b;;\nesac\n", []cmd{{"case $x in\n  a) echo a;;\n  *) echo b;;\nesac", 1, 4}}},
		{"pipeline over lines", "cat f |\n  grep x &&\n  echo ok\nls\n", []cmd{{"cat f |\n  grep x &&\n  echo ok", 1, 3}, {"ls", 4, 4}}},
		{"command substitution", "X=$(\n  date\n)\necho $X\n", []cmd{{"X=$(\n  date\n)", 1, 3}, {"echo $X", 4, 4}}},
		{"keywords as arguments", "echo if done fi\nls\n", []cmd{{"echo if done fi", 1, 1}, {"ls", 2, 2}}},
		{"unterminated heredoc takes the rest", "cat <<EOF\na\n", []cmd{{"cat <<EOF\na", 1, 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tu, err := Parse("t.md", []byte("```bash\n"+tt.code+"```\n"))
			require.NoError(t, err)
			require.Len(t, tu.Map.CodeBlocks(), 1)
			var got []cmd
			for _, c := range tu.Map.CodeBlocks()[0].Commands {
				got = append(got, cmd{c.Text, c.StartLine - 1, c.EndLine - 1}) // relative to the fence
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestConsoleCommands(t *testing.T) {
	t.Parallel()
	type cmd struct {
		text       string
		start, end int
		output     string
	}
	tests := []struct {
		name string
		lang string
		code string
		want []cmd
	}{
		{"prompts and output", "console", "$ echo hi\nhi\n$ ls\na\nb\n", []cmd{{"echo hi", 1, 1, "hi"}, {"ls", 2 + 1, 3, "a\nb"}}},
		{"root prompt", "console", "# apt-get install -y curl\nReading package lists...\n", []cmd{{"apt-get install -y curl", 1, 1, "Reading package lists..."}}},
		{"zsh prompt and user@host", "console", "% make\nuser@box:~/app$ make test\nok\n", []cmd{{"make", 1, 1, ""}, {"make test", 2, 2, "ok"}}},
		{"percent table in a dollar session", "console", "$ strace -c ls\nstrace: Process 1 attached\n% time     seconds  calls syscall\n 90.0  0.1  3 openat\n$ echo done\n", []cmd{{"strace -c ls", 1, 1, "strace: Process 1 attached\n% time     seconds  calls syscall\n 90.0  0.1  3 openat"}, {"echo done", 5, 5, ""}}},
		{"virtualenv prompt", "shell-session", "(venv) $ pip install flask\n", []cmd{{"pip install flask", 1, 1, ""}}},
		{"continuation with secondary prompt", "console", "$ docker run \\\n>   -p 80:80 \\\n>   nginx\nStarted\n", []cmd{{"docker run \\\n  -p 80:80 \\\n  nginx", 1, 3, "Started"}}},
		{"heredoc", "console", "$ cat <<EOF\n> a\n> EOF\na\n", []cmd{{"cat <<EOF\na\nEOF", 1, 3, "a"}}},
		{"output before any prompt is dropped", "console", "Welcome\n$ ls\n", []cmd{{"ls", 2, 2, ""}}},
		{"bare prompt ignored", "console", "$\n$ ls\n", []cmd{{"ls", 2, 2, ""}}},
		{"bash block written as a session", "bash", "$ npm install\nadded 1 package\n$ npm test\n", []cmd{{"npm install", 1, 1, "added 1 package"}, {"npm test", 3, 3, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tu, err := Parse("t.md", []byte("```"+tt.lang+"\n"+tt.code+"```\n"))
			require.NoError(t, err)
			c := tu.Map.CodeBlocks()[0]
			require.True(t, c.Console)
			var got []cmd
			for _, x := range c.Commands {
				got = append(got, cmd{x.Text, x.StartLine - 1, x.EndLine - 1, x.Output})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLead(t *testing.T) {
	t.Parallel()
	md := strings.Join([]string{
		"# Title",
		"```bash", // right after a heading: no lead
		"ls",
		"```",
		"Run **this** with [care](https://x.y):",
		"",
		"```sh",
		"make",
		"```",
		"```sh", // right after another code block: no lead
		"make test",
		"```",
		"- Install `curl`:",
		"  ```bash",
		"  apt-get install curl",
		"  ```",
	}, "\n")
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	code := tu.Map.CodeBlocks()
	require.Len(t, code, 4)
	assert.Equal(t, "", code[0].Lead)
	assert.Equal(t, "Run this with care:", code[1].Lead)
	assert.Equal(t, "", code[2].Lead)
	assert.Equal(t, "Install curl:", code[3].Lead)
	assert.Equal(t, []Command{{Text: "apt-get install curl", StartLine: 15, EndLine: 15}}, code[3].Commands)
}

func TestFenceEdgeCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		md         string
		start, end int
	}{
		{"empty block", "```bash\n```\n", 1, 2},
		{"unclosed runs to the end", "```bash\nls\nmore\n", 1, 3},
		{"longer closing fence", "````sh\nls\n``````\nafter\n", 1, 3},
		{"tilde fence with backticks inside", "~~~sh\n```\n~~~\n", 1, 3},
		{"in a blockquote", "> ```sh\n> ls\n> ```\n", 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tu, err := Parse("t.md", []byte(tt.md))
			require.NoError(t, err)
			require.NotEmpty(t, tu.Map.CodeBlocks())
			c := tu.Map.CodeBlocks()[0]
			assert.Equal(t, tt.start, c.StartLine)
			assert.Equal(t, tt.end, c.EndLine)
		})
	}
}

func TestHeadingsInContainers(t *testing.T) {
	t.Parallel()
	md := "- # Inside a list\n- Setext in a list\n  ---\n> ## Quoted\nafter\n"
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	var got [][2]int
	for _, b := range tu.Map.Blocks() {
		if b.Kind == KindHeading {
			got = append(got, [2]int{b.StartLine, b.EndLine})
		}
	}
	assert.Equal(t, [][2]int{{1, 1}, {2, 3}, {4, 4}}, got)
	assert.Equal(t, []string{"Inside a list", "Quoted"}, tu.Map.HeadingPath(5))
}

// MDX component markup (Mintlify, Starlight, Docusaurus) written without blank lines,
// with fences indented under the component, parses as MDX reads it: the fences are
// code blocks at their own lines, and OriginalLine still shows the tags.
func TestComponentMarkupAroundFences(t *testing.T) {
	t.Parallel()
	md := "# Install\n\n<Tabs>\n  <Tab title=\"npm\">\n    ```bash\n    npm i -g tool\n    ```\n  </Tab>\n  <Tab title=\"Linux\">\n    Run the script:\n    ```bash\n    ./install.sh\n    ```\n  </Tab>\n</Tabs>\n\n" +
		"<details>\n<summary>Uninstall</summary>\n```bash\nrm -rf ~/.tool\n```\n</details>\n\n    indented code stays code\n"
	tu, err := Parse("t.mdx", []byte(md))
	require.NoError(t, err)
	var got []string
	for _, cb := range tu.Map.CodeBlocks() {
		got = append(got, strings.Join([]string{cb.Lang, cb.Content}, ":"))
		if cb.Lang == "bash" {
			assert.Equal(t, KindFencedCode, cb.Kind)
		}
	}
	assert.Equal(t, []string{"bash:npm i -g tool", "bash:./install.sh", "bash:rm -rf ~/.tool", ":indented code stays code"}, got)
	assert.Equal(t, 5, tu.Map.CodeBlocks()[0].StartLine)
	assert.Equal(t, `  <Tab title="Linux">`, tu.Map.OriginalLine(9))
	assert.Equal(t, "", tu.Map.Line(9))
}

// MyST container directives written as backtick fences hold code blocks, as MyST renders
// them; code directives and directives without a block inside stay code blocks.
func TestMySTBacktickDirectivesHoldCodeBlocks(t *testing.T) {
	t.Parallel()
	md := "# T\n\n```{note}\nplain note\n```\n\n`````{tab-set}\n````{tab-item} Debian\n```console\n$ sudo apt install tree\n```\n````\n````{tab-item} Windows\nUse the installer.\n````\n`````\n\n" +
		"```{code-block} python\n:caption: a.py\nprint(1)\n```\n"
	tut, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	var infos []string
	for _, cb := range tut.Map.CodeBlocks() {
		infos = append(infos, fmt.Sprintf("%d:%s", cb.StartLine, cb.Info))
	}
	assert.Equal(t, []string{"3:{note}", "9:console", "18:{code-block} python caption=a.py"}, infos)
	assert.Equal(t, "````{tab-item} Debian", tut.Map.OriginalLine(8), "the original text is kept")
	assert.Equal(t, 21, tut.Map.LineCount())
}

// A section that starts inside a Pandoc fenced div (Quarto's tabset) ends with the div:
// what follows the tabset is in the section the tabset is in, not in its last tab.
func TestHeadingsInsideAFencedDivEndWithIt(t *testing.T) {
	t.Parallel()
	md := "## Setup\n\n::: {.panel-tabset}\n## Debian\n\n```{bash}\nsudo apt install x\n```\n\n## Windows\n\nUse the installer.\n:::\n\nWork in a folder:\n\n```{bash}\nmkdir -p ~/w\n```\n\n```text\n:::\n```\n"
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	assert.Equal(t, []string{"Windows"}, tu.Map.HeadingPath(12))
	assert.Equal(t, []string{"Setup"}, tu.Map.HeadingPath(15))
	assert.Equal(t, []string{"Setup"}, tu.Map.HeadingPath(18))
	assert.Equal(t, []string{"Setup"}, tu.Map.HeadingPath(23), "colons in a code block close nothing")
}

// DocFX tabs are headings whose text links to #tab/<id>, at any level; they sit under the
// section the group is in, and the group ends at its `---` line or at a heading outside
// that section.
func TestDocFXTabsEndAtTheirRule(t *testing.T) {
	t.Parallel()
	md := "# Guide\n\n## Install\n\n# [Linux](#tab/linux)\n\n```bash\nsudo apt install x\n```\n\n# [Windows](#tab/windows)\n\nUse the installer.\n\n---\n\nThen run:\n\n```bash\nx --version\n```\n\n## Use it\n\n#### [Linux](#tab/l2)\n\nRun it.\n\n## Next steps\n\nMore.\n"
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	assert.Equal(t, []string{"Guide", "Install", "Linux"}, tu.Map.HeadingPath(8))
	assert.Equal(t, []string{"Guide", "Install", "Windows"}, tu.Map.HeadingPath(13))
	assert.Equal(t, []string{"Guide", "Install"}, tu.Map.HeadingPath(17), "the rule ends the group")
	assert.Equal(t, []string{"Guide", "Install"}, tu.Map.HeadingPath(20))
	assert.Equal(t, []string{"Guide", "Use it", "Linux"}, tu.Map.HeadingPath(27))
	assert.Equal(t, []string{"Guide", "Next steps"}, tu.Map.HeadingPath(31), "a heading outside the group's section ends it")
}

// A Retype panel, `==- Title` … `===`, reads as a setext heading in CommonMark; it titles
// a box, not a section, so what follows stays in the section it is in.
func TestRetypePanelIsNotASection(t *testing.T) {
	t.Parallel()
	md := "## Run\n\n==- Why does it say OK?\nBecause no case ran.\n===\n\nThen:\n\n```sh\nsh t.sh\n```\n"
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	assert.Equal(t, []string{"Run"}, tu.Map.HeadingPath(10))
}

// A page written in HTML, as WordPress's block editor saves it: a <pre> element is a code
// block of the text a browser shows (tags dropped, entities decoded, on its own lines), a
// caption that names a file is its title, an <hN> element is a section, and the comments
// around blocks do not stand between a paragraph and the block it introduces.
func TestHTMLPreAndHeadingsAreCodeAndSections(t *testing.T) {
	t.Parallel()
	md := "<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">Set &amp; go</h2>\n<!-- /wp:heading -->\n\n" + // 1-4
		"<!-- wp:paragraph -->\n<p>Make a folder and stay in it:</p>\n<!-- /wp:paragraph -->\n\n" + // 5-8
		"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>mkdir -p ~/demo &amp;&amp; cd ~/demo\n" + // 9-10
		"sort &lt; <span class=\"hl\">in.txt</span> &gt; out.txt</code></pre>\n<!-- /wp:code -->\n\n" + // 11-13 (12: the closing comment)
		"<pre class=\"wp-block-preformatted\">3 lines</pre>\n\n" + // 14-15
		"<figure class=\"kg-card kg-code-card\"><pre><code class=\"language-python\">\nprint(1)\n\nprint(2)</code></pre><figcaption>app.py</figcaption></figure>\n\n" + // 16-20 (a blank line inside)
		"<div class=\"highlight\"><pre class=\"brush: bash;\">echo one</pre></div>\n" // 21
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	checkMap(t, "wordpress", tu)
	cbs := tu.Map.CodeBlocks()
	require.Len(t, cbs, 4)

	wp := cbs[0]
	assert.Equal(t, KindHTMLCode, wp.Kind)
	assert.Equal(t, "mkdir -p ~/demo && cd ~/demo\nsort < in.txt > out.txt", wp.Content)
	assert.Equal(t, []int{10, 11}, wp.ContentLines)
	assert.True(t, wp.Shell == false && wp.Lang == "", "untagged: the reader decides")
	assert.Equal(t, "Make a folder and stay in it:", wp.Lead, "the comments are not prose")
	assert.Equal(t, []string{"Set & go"}, tu.Map.HeadingPath(10))

	assert.Equal(t, "3 lines", cbs[1].Content)
	assert.Equal(t, []int{14}, cbs[1].ContentLines)

	ghost := cbs[2]
	assert.Equal(t, `python title="app.py"`, ghost.Info)
	assert.Equal(t, "print(1)\n\nprint(2)", ghost.Content, "the newline right after the tag is not text")
	assert.Equal(t, []int{17, 18, 19}, ghost.ContentLines)

	assert.Equal(t, "bash", cbs[3].Lang)
	assert.True(t, cbs[3].Shell)
	require.Len(t, cbs[3].Commands, 1)
	assert.Equal(t, 21, cbs[3].Commands[0].StartLine)
}

// What is not one <pre> element stays HTML: two of them in one block, a <pre> with prose
// after it, and an HTML block that only mentions the tag.
func TestHTMLThatIsNotOnePreStaysHTML(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"<pre>a</pre><pre>b</pre>",
		"<pre>a</pre> and then some words",
		"<div>Use a <code>pre</code> tag</div>",
		"<pre>never closed",
	} {
		_, _, _, ok := htmlPre(text, 1)
		assert.False(t, ok, text)
	}
}

// A Doxygen page written in Markdown: `\code{.sh}` … `\endcode` and `\verbatim` …
// `\endverbatim` are blocks and `\section id Title` a heading; the same markup shown in
// a Markdown fence stays that fence's text.
func TestDoxygenBlocksAndSections(t *testing.T) {
	t.Parallel()
	md := "\\page lab The lab\n\n\\section lab_install Installing\n\n\\code{.sh}\nsudo apt-get install -y gsl-bin\n\\endcode\n\n\\verbatim\n2.7.1\n\\endverbatim\n\n" +
		"```text\n\\code\nnot a block\n\\endcode\n```\n"
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	cbs := tu.Map.CodeBlocks()
	require.Len(t, cbs, 3)
	assert.Equal(t, "sh", cbs[0].Lang)
	assert.True(t, cbs[0].Shell)
	assert.Equal(t, []int{6}, cbs[0].ContentLines)
	assert.Equal(t, "2.7.1", cbs[1].Content)
	assert.Equal(t, "\\code\nnot a block\n\\endcode", cbs[2].Content)
	assert.Equal(t, []string{"The lab", "Installing"}, tu.Map.HeadingPath(6))
}

// DocC directives indent what they hold (`@Step {`, four spaces in, `}`); a fence in a
// step is a fenced block, its code keeps its own indentation.
func TestDocCDirectivesHoldFencedBlocks(t *testing.T) {
	t.Parallel()
	md := "# Sounds\n\n@Steps {\n    @Step {\n        Run it.\n\n        ```shell\n        python3 tone.py\n        ```\n    }\n\n    @Step {\n        ```python\n        def f():\n            return 1\n        ```\n    }\n}\n"
	tu, err := Parse("t.md", []byte(md))
	require.NoError(t, err)
	cbs := tu.Map.CodeBlocks()
	require.Len(t, cbs, 2)
	assert.Equal(t, KindFencedCode, cbs[0].Kind)
	assert.Equal(t, "python3 tone.py", cbs[0].Content)
	assert.Equal(t, "Run it.", cbs[0].Lead)
	assert.Equal(t, "def f():\n    return 1", cbs[1].Content)
}
