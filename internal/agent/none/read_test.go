package none

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readExpected reads a tutorial of our own and returns the files written, the commands
// run and the output each is expected to print.
func readExpected(t *testing.T, md string) (files, run []string, expected map[string]string) {
	t.Helper()
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	expected = map[string]string{}
	for _, s := range read(tut) {
		switch s.kind {
		case fileStep:
			files = append(files, s.file)
		case runStep:
			run = append(run, s.command.Text)
			expected[s.command.Text] = s.expected
		}
	}
	return files, run, expected
}

// readOrder reads a tutorial of our own and returns its steps that run or write, in
// order: a command as its text, a file as write describes it.
func readOrder(t *testing.T, md string, write func(step) string) []string {
	t.Helper()
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var order []string
	for _, s := range read(tut) {
		switch s.kind {
		case fileStep:
			order = append(order, write(s))
		case runStep:
			order = append(order, s.command.Text)
		}
	}
	return order
}

// readMD reads a tutorial of our own and returns what would run, what would be written
// and what is skipped (command or file → reason).
func readMD(t *testing.T, md string) (run []string, files []string, skipped map[string]string, asks []int) {
	t.Helper()
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	skipped = map[string]string{}
	for _, s := range read(tut) {
		switch s.kind {
		case runStep:
			run = append(run, s.command.Text)
		case fileStep:
			files = append(files, joinDir(s.dir, s.file))
		case askStep:
			asks = append(asks, s.line)
		case skipStep:
			key := strings.TrimSpace(strings.SplitN(s.block.Content, "\n", 2)[0])
			if s.command != nil {
				key = s.command.Text
			}
			skipped[key] = s.reason
		}
	}
	return run, files, skipped, asks
}

func TestReadFollowsTheLinuxTab(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		md   string
	}{
		{"mkdocs", "# Install\n\n=== \"Windows\"\n\n    ```powershell\n    choco install tool\n    ```\n\n=== \"Linux\"\n\n    ```bash\n    echo linux\n    ```\n\n=== \"macOS\"\n\n    ```bash\n    brew install tool\n    ```\n"},
		{"pymdown", "# Install\n\n/// tab | macOS\n```bash\necho mac\n```\n///\n\n/// tab | Linux\n```bash\necho linux\n```\n///\n"},
		{"docusaurus", "# Install\n\n<Tabs>\n<TabItem value=\"win\" label=\"Windows\">\n\n```bash\necho win\n```\n\n</TabItem>\n<TabItem value=\"linux\" label=\"Linux\">\n\n```bash\necho linux\n```\n\n</TabItem>\n</Tabs>\n"},
		{"hugo tabs", "# Install\n\n{{< tabs >}}\n{{< tab name=\"macOS\" >}}\n\n```bash\necho mac\n```\n\n{{< /tab >}}\n{{< tab name=\"Linux\" >}}\n\n```bash\necho linux\n```\n\n{{< /tab >}}\n{{< /tabs >}}\n"},
		{"hugo code group", "# Run\n\n{{< code >}}\n\n```linux\necho linux\n```\n\n```windows\necho win\n```\n\n{{< /code >}}\n"},
		{"starlight", "# Install\n\n<Tabs syncKey=\"os\">\n  <TabItem label=\"macOS\">\n\n```sh\necho mac\n```\n\n  </TabItem>\n  <TabItem label=\"Linux\">\n\n```sh\necho linux\n```\n\n  </TabItem>\n</Tabs>\n\n<Aside type=\"tip\">\n\n```sh\necho aside\n```\n\n</Aside>\n"},
		{"mintlify", "# Install\n\n<Tabs>\n  <Tab title=\"Windows\">\n```powershell\nwinget install tool\n```\n  </Tab>\n  <Tab title=\"Linux\">\n```bash\necho linux\n```\n  </Tab>\n</Tabs>\n\n<Note>\n```bash\necho note\n```\n</Note>\n"},
		{"gitlab", "# Install\n\n::Tabs\n\n:::TabTitle macOS\n\n```shell\necho mac\n```\n\n:::TabTitle Linux\n\n```shell\necho linux\n```\n\n::EndTabs\n"},
		{"myst colon fences", "# Install\n\n::::{tab-set}\n\n:::{tab-item} Windows\n```powershell\nwinget install tool\n```\n:::\n\n:::{tab-item} Linux\n```bash\necho linux\n```\n:::\n\n::::\n\n:::{note}\n```bash\necho note\n```\n:::\n"},
		{"vitepress code group", "# Install\n\n::: code-group\n\n```sh [macOS]\necho mac\n```\n\n```sh [Linux]\necho linux\n```\n\n:::\n\n::: tip\n```sh\necho tip\n```\n:::\n"},
		{"jekyll highlight", "# Install\n\n{% highlight bash %}\necho linux\n{% endhighlight %}\n\nOn macOS:\n\n{% highlight bash %}\nbrew install tool\n{% endhighlight %}\n"},
		{"eleventy highlight", "# Install\n\n{% highlight \"bash\" %}\necho linux\n{% endhighlight %}\n\nOn macOS:\n\n{% highlight \"bash\" %}\nbrew install tool\n{% endhighlight %}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run, _, skipped, _ := readMD(t, tt.md)
			assert.Equal(t, []string{"echo linux"}, run)
			assert.NotEmpty(t, skipped, "the other tabs are recorded as skipped")
		})
	}
}

func TestReadDefaultToolTabAndShells(t *testing.T) {
	t.Parallel()
	run, _, skipped, _ := readMD(t, "# Setup\n\n=== \"npm\"\n\n    ```bash\n    npm install thing\n    ```\n\n=== \"yarn\"\n\n    ```bash\n    yarn add thing\n    ```\n\n## Completion\n\n=== \"Zsh\"\n\n    ```bash\n    echo zsh >> ~/.zshrc\n    ```\n\n=== \"Bash\"\n\n    ```bash\n    echo bash >> ~/.bashrc\n    ```\n")
	assert.Equal(t, []string{"npm install thing", "echo bash >> ~/.bashrc"}, run, "the first tool tab is the default; Bash is the Debian shell")
	assert.Contains(t, skipped["yarn add thing"], "followed \"npm\"")
}

func TestReadSkipsOtherSystems(t *testing.T) {
	t.Parallel()
	md := "# Get it\n\n## Fedora\n\n```bash\nsudo dnf install tool\n```\n\n## Debian and Ubuntu\n\n```bash\nsudo apt-get install -y tool\n```\n\n" +
		"On Windows:\n\n```\nC:\\> setup.exe\n```\n\nOn Linux or macOS:\n\n```bash\necho unix\n```\n\n```powershell\nGet-ChildItem\n```\n\n```bash\nbrew install jq\nsudo pacman -S jq\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt-get install -y tool", "echo unix"}, run)
	assert.Contains(t, skipped["sudo dnf install tool"], "Fedora")
	assert.Contains(t, skipped["Get-ChildItem"], "Windows")
	assert.Contains(t, skipped["brew install jq"], "macOS")
	assert.Contains(t, skipped["sudo pacman -S jq"], "Arch")
}

func TestReadAlternativesAsidesAndOutput(t *testing.T) {
	t.Parallel()
	md := "# Tool\n\n## Install methods\n\n### Script\n\n```bash\necho script-install\n```\n\n### From source\n\n```bash\necho source-install\n```\n\n## Use\n\n" +
		"Run it:\n\n```bash\necho use\n```\n\nAlternatively, use the container:\n\n```bash\necho container\n```\n\nFor example, to pin a version:\n\n```bash\necho pinned\n```\n\n" +
		"!!! tip\n\n    ```bash\n    echo tip\n    ```\n\nThe output is similar to:\n\n```bash\ntotal 0\n```\n\nIf you have not installed it yet, run:\n\n```bash\necho not-yet\n```\n\n" +
		"If you have a printer configured, send the copy to it:\n\n```bash\nlpr report.txt\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"echo script-install", "echo use", "echo not-yet"}, run)
	assert.Contains(t, skipped["lpr report.txt"], "only for a reader with the setup it names")
	assert.Contains(t, skipped["echo source-install"], "alternative to \"Script\"")
	assert.Contains(t, skipped["echo container"], "alternative")
	assert.Contains(t, skipped["echo pinned"], "example")
	assert.Contains(t, skipped["echo tip"], "side note")
	assert.Contains(t, skipped["total 0"], "expected output")
}

func TestReadPromptsAndUntaggedBlocks(t *testing.T) {
	t.Parallel()
	md := "# Prompts\n\n```console\nalice@laptop:~/proj$ echo one\none\n(venv) $ echo two\ntwo\nPS> Write-Host three\n```\n\n" +
		"Run the following command:\n\n```\n$ echo four\nfour\n```\n\nCreate the directory:\n\n```\nmkdir -p demo\ncd demo\n```\n\nThe output is similar to:\n\n```\nls -la\n```\n\n" +
		"```python\n>>> print(5)\n5\n```\n\n```bash\n# a comment first\n$ echo six\nsix\n```\n"
	run, _, _, _ := readMD(t, md)
	assert.Equal(t, []string{"echo one", "echo two", "echo four", "mkdir -p demo", "cd demo", "echo six"}, run,
		"prompts beyond $, output lines and PS>/>>> are not run; an untagged block runs when the prose says to and every line is a command")
}

func TestReadTreesConfigAndPlaceholders(t *testing.T) {
	t.Parallel()
	md := "# Layout\n\n```bash\nmy-app\n├── src\n└── README.md\n```\n\nAdd your key and clone:\n\n```bash\nexport API_KEY=YOUR_API_KEY\ngit clone https://example.com/repo.git\ncd /path/to/project\necho keep\n```\n\n" +
		"Set up a preferences file to pin the version:\n\n```bash\nPackage: tool\nPin: version 1.*\nPin-Priority: 1001\n```\n"
	run, _, skipped, asks := readMD(t, md)
	assert.Equal(t, []string{"echo keep"}, run)
	assert.Contains(t, skipped["my-app"], "directory tree")
	assert.Contains(t, skipped["export API_KEY=YOUR_API_KEY"], "substitutes")
	assert.Contains(t, skipped["git clone https://example.com/repo.git"], "example.com")
	assert.Contains(t, skipped["cd /path/to/project"], "/path/to")
	assert.Equal(t, []int{20}, asks, "configuration in a shell block with no file name is a file to create without a name")
}

func TestReadFilesToCreate(t *testing.T) {
	t.Parallel()
	md := "# Files\n\nCreate `report.sh` with the following content:\n\n```bash\n#!/bin/sh\necho report\n```\n\nFilename: src/main.rs\n\n```rust\n# use std::io;\nfn main() {}\n```\n\n" +
		"Add the dependency to `Cargo.toml`:\n\n```toml\nserde = \"1\"\n```\n\nNow write a heredoc:\n\n```bash\ncat > notes.txt <<'EOF'\nhi\nEOF\n```\n\n" +
		"1. Using your editor, create a file called app.go in the `service` directory.\n2. At the top of app.go, paste the following:\n\n    ```\n    package main\n    ```\n\n" +
		"Then the site's configuration:\n\n```js [docs/config.mjs]\nexport default {}\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var writes []step
	var run []string
	for _, s := range read(tut) {
		switch s.kind {
		case fileStep:
			writes = append(writes, s)
		case runStep:
			run = append(run, s.command.Text)
		}
	}
	require.Len(t, writes, 6)
	assert.Equal(t, "report.sh", writes[0].file, "a bash block introduced as a file's content is the file, not commands")
	assert.Equal(t, "src/main.rs", writes[1].file)
	assert.NotContains(t, writes[1].content, "use std::io", "rustdoc's hidden lines are not on the page")
	assert.Equal(t, "Cargo.toml", writes[2].file)
	assert.True(t, writes[2].appendF, "add … to is an edit, not a new file")
	assert.Equal(t, "app.go", writes[3].file)
	assert.Equal(t, "service", writes[3].dir)
	assert.Equal(t, "service/app.go", writes[4].file, "the fragment goes into the file the prose named")
	assert.True(t, writes[4].appendF)
	assert.Equal(t, "docs/config.mjs", writes[5].file, "VitePress names the file in the fence's [label]")
	assert.Equal(t, []string{"cat > notes.txt <<'EOF'\nhi\nEOF"}, run, "a heredoc stays a command")
}

func TestDeclaredPrerequisites(t *testing.T) {
	t.Parallel()
	tut, err := tutorial.Parse("t.md", []byte("# App\n\n## Prerequisites\n\n- [Node.js](https://nodejs.org) 20 or later\n- Docker Desktop\n\n## Build\n\nMake sure you have Go 1.22+ installed.\nLet's go to the next step and make it.\n"))
	require.NoError(t, err)
	p := declared(tut)
	assert.Equal(t, 5, p["Node.js"])
	assert.Equal(t, 6, p["Docker"])
	assert.Equal(t, 10, p["Go"])
	assert.NotContains(t, p, "GNU make", "everyday words are not tools")
	assert.Equal(t, 5, p.declaredFor("npx", 20))
	assert.Zero(t, p.declaredFor("npx", 3), "a prerequisite counts from where it is declared")
	assert.Zero(t, p.declaredFor("cargo", 20))
}

func TestPredictProducts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		cmd   string
		paths []string
		tools []string
	}{
		{"git clone https://github.com/o/r.git", []string{"r"}, nil},
		{"git clone --depth 1 https://github.com/o/r.git work", []string{"work"}, nil},
		{"mkdir -p a b && cd a", []string{"a", "b"}, nil},
		{"cargo new hello", []string{"hello"}, []string(nil)},
		{"npx create-thing@latest site classic", []string{"site"}, nil},
		{"curl -fsSL https://x.test/key | sudo gpg --dearmor -o /usr/share/keyrings/k.gpg", []string{"/usr/share/keyrings/k.gpg"}, nil},
		{"python3 -m venv .venv", []string{".venv"}, nil},
		{"sudo apt-get install -y nodejs", nil, []string{"apt-get", "nodejs", "node", "npm", "npx"}},
		{"cargo install ripgrep", nil, []string{"ripgrep"}},
		{"curl -LsSf https://astral.sh/uv/install.sh | sh", nil, []string{"astral", "astral", "uv", "uv", "uvx"}},
	} {
		p := predict(tt.cmd)
		assert.Equal(t, tt.paths, p.paths, tt.cmd)
		if tt.tools != nil {
			assert.Equal(t, tt.tools, p.tools, tt.cmd)
		}
	}
}

func TestStaticChecks(t *testing.T) {
	t.Parallel()
	md := "# Project\n\n```bash\ntool init my_app\n```\n\nIt creates:\n\n```text\nmy_app\n├── app.cfg\n└── main.py\n```\n\nRun it:\n\n```bash\npython3 main.py\n```\n\n" + // 17
		"## Versions\n\n```bash\nvm install 2.1.0\nvm use 2.1\nvm exec 3.4 python3\n```\n\n" + // 22-24
		"## Installer\n\n```bash\ncurl -fsSL https://get.example.test/widget/install.sh | sh\n```\n\nThen:\n\n```bash\nwidget --version\n```\n" // 29, 35
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	ss := &session{task: taskFor(tut), steps: read(tut), cwd: "/w"}
	ss.static()
	var got []string
	for _, f := range ss.res.Findings {
		got = append(got, f.Problem)
		require.NotEmpty(t, f.Fix)
	}
	require.Len(t, got, 3, "%q", got)
	assert.Contains(t, got[0], "never says `cd my_app`")
	assert.Contains(t, got[1], "uses version 3.4, which no earlier step installs")
	assert.Contains(t, got[2], "restart the shell or update PATH")
	assert.Equal(t, []int{18, 26, 38}, []int{ss.res.Findings[0].Line, ss.res.Findings[1].Line, ss.res.Findings[2].Line})
}

// The same missing cd is one gap, seen at every line that needs it until a cd.
func TestStaticMissingCdIsOneGap(t *testing.T) {
	t.Parallel()
	md := "# Project\n\n```bash\ntool init my_app\n```\n\nIt creates:\n\n```text\nmy_app\n├── app.cfg\n└── main.py\n```\n\nRun it, then look at its settings:\n\n```bash\npython3 main.py\ncat app.cfg\n```\n\n```bash\ncd my_app\npython3 main.py\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	ss := &session{task: taskFor(tut), steps: read(tut), cwd: "/w"}
	ss.missingCd()
	require.Len(t, ss.res.Findings, 1, "%+v", ss.res.Findings)
	assert.Equal(t, 18, ss.res.Findings[0].Line)
	assert.Equal(t, []int{19}, ss.res.Findings[0].AlsoAt)
}

// A block no step comes from is in the coverage, as the output a command shows or as
// one the Student could not place.
func TestUnusedBlocksAreNoted(t *testing.T) {
	t.Parallel()
	md := "# Run\n\n```bash\ncurl -s http://127.0.0.1:8080/notes\n```\n\n```json\n[{\"id\": 1}]\n```\n\nSomething to keep in mind:\n\n```python\nprint('where does this go?')\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	notes := unusedBlocks(allBlocks(tut), read(tut))
	require.Len(t, notes, 1, "%+v", notes)
	assert.Equal(t, 13, notes[0].Line)
	assert.Contains(t, notes[0].Reason, "neither shell commands nor a file the prose names")
}

// What the tutorial's title names is its subject, not another system: a page about the
// fish shell runs its fish sections, while a fish section in a page about bash is skipped.
func TestTitleNamesTheSubjectNotAnotherSystem(t *testing.T) {
	t.Parallel()
	run, _, _, _ := readMD(t, "# Scripting with fish\n\n## Install and start fish\n\n```bash\nsudo apt install fish\n```\n")
	assert.Equal(t, []string{"sudo apt install fish"}, run)
	run, _, skipped, _ := readMD(t, "# Bash prompts\n\n## Bash\n\n```bash\necho bash\n```\n\n## If you use fish\n\n```bash\necho fish\n```\n")
	assert.Equal(t, []string{"echo bash"}, run)
	assert.Contains(t, skipped["echo fish"], "another system")
}

func taskFor(tut *tutorial.Tutorial) loop.StudentTask {
	return loop.StudentTask{Tutorial: tut, Events: loop.Discard}
}

func TestReadMySTBlocksPlaceholdersAndLinesBelow(t *testing.T) {
	t.Parallel()
	md := "# Keys\n\n```{code-block} console\n$ ssh-keygen -t rsa -C \"you@example.com\"\n```\n\n```{code-block} console\n$ ssh-copy-id deploy@server.example.org\n```\n\n" +
		"Save the lines below as `data.log` in a new folder:\n\n```sh\nmkdir -p ~/logs && cd ~/logs\n```\n\n```text\nline one\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{`ssh-keygen -t rsa -C "you@example.com"`, "mkdir -p ~/logs && cd ~/logs"}, run,
		"MyST code-block directives are read by their language; an e-mail label works as written; commands are not a data file's content")
	assert.Contains(t, skipped["ssh-copy-id deploy@server.example.org"], "substitutes", "a host to connect to is a placeholder")
	assert.Equal(t, []string{"data.log"}, files, "the block right under the commands is the file")
}

// How a reader takes a README's usage preview, their own name, captions and emphasis
// that name files, a code group of several files, an append under a titled fence, and a
// crontab line.
func TestReadPreviewsOwnValuesCaptionsAndGroups(t *testing.T) {
	t.Parallel()
	md := "# tally\n\nCount things.\n\n```\n$ ./tally.sh -n 3 notes.txt\n```\n\n## Set up\n\n" +
		"```bash\ngit config --global user.name \"<your-name>\"\ngit config --global user.email \"<your-email>\"\n```\n\n" +
		"Put this in *bin/tally.sh*:\n\n<span class=\"filename\">Filename: bin/tally.sh</span>\n\n```bash\n#!/bin/sh\nwc -l \"$@\"\n```\n\n" +
		"Create a file named **Rakefile** in the project root:\n\n```ruby\ntask default: :test\n```\n\n" +
		"::: code-group\n\n```go [main.go]\npackage main\n```\n\n```go [util.go]\npackage main\n```\n\n:::\n\n" +
		"Append these lines to the end of `util.go`:\n\n```go title=\"util.go\"\nfunc helper() {}\n```\n\n" +
		"Finally open your crontab with `crontab -e` and add:\n\n```\n0 * * * * $HOME/bin/tally.sh notes.txt\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var run, files, skipped []string
	appends := map[string]bool{}
	for _, s := range read(tut) {
		switch s.kind {
		case runStep:
			run = append(run, s.command.Text)
		case fileStep:
			files = append(files, s.file)
			appends[s.file] = appends[s.file] || s.appendF
		case skipStep:
			skipped = append(skipped, s.reason)
		}
	}
	assert.Equal(t, []string{`git config --global user.name "Ada"`, `git config --global user.email "ada@learner.test"`}, run,
		"the reader types their own name and e-mail; the usage preview is not run")
	assert.Equal(t, []string{"bin/tally.sh", "Rakefile", "main.go", "util.go", "util.go"}, files)
	assert.True(t, appends["util.go"], "append these lines to the end of `util.go`")
	assert.False(t, appends["main.go"])
	require.Len(t, skipped, 2)
	assert.Contains(t, skipped[0], "a preview: the tutorial creates `bin/tally.sh` later")
	assert.Contains(t, skipped[1], "crontab")
}

// Scripts saved under bare names or "put" in a file, MyST note fences, and the part of
// a block a comment gives to another system.
func TestReadScriptsNotesAndOSComments(t *testing.T) {
	t.Parallel()
	md := "# Tools\n\nSave the script as `sumcol`:\n\n```perl\n#!/usr/bin/perl\nprint 1;\n```\n\n" +
		"Put it together in `~/bin/backup.sh`:\n\n```sh\n#!/bin/sh\nset -eu\ntar -cf /tmp/x.tar .\n```\n\n" +
		"```{note}\nOutput differs on your machine.\n```\n\n" +
		"```bash\n# Debian / Ubuntu\nsudo apt-get install -y python3-pytest\n\n# macOS / Windows\npython3 -m pip install pytest\n```\n"
	run, files, skipped, asks := readMD(t, md)
	assert.Equal(t, []string{"sumcol", "~/bin/backup.sh"}, files)
	assert.Equal(t, []string{"sudo apt-get install -y python3-pytest"}, run)
	assert.Contains(t, skipped["python3 -m pip install pytest"], "macOS / Windows")
	assert.Contains(t, skipped["Output differs on your machine."], "MyST {note}")
	assert.Empty(t, asks)
}

// A sentence that names one file of the block's language is that file (an excerpt of a
// file already written is not); "save every file in it" puts the files in the folder
// the block creates; an indented apt install runs whatever the sentence before it says.
func TestReadNamedFilesFoldersAndIndentedInstalls(t *testing.T) {
	t.Parallel()
	md := "# Lab\n\nOn Debian the interpreter is packaged as `php-cli`:\n\n    sudo apt install php-cli\n\n" +
		"Make a folder for the lab. **Save every file of this lab in it.**\n\n```\nmkdir -p ~/lab3\n```\n\n" +
		"First a warm-up, `hello.php`:\n\n```php\n<?php echo \"hi\\n\";\n```\n\n" +
		"In `hello.php`, the line that matters:\n\n```php\necho \"hi\\n\";\n```\n\n" +
		"The examples use `books.xml` in the current directory:\n\n```xml\n<books/>\n```\n\n" +
		"Run it:\n\n```console\n$ php hello.php\nhi\n```\n"
	run, files, skipped, asks := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install php-cli", "mkdir -p ~/lab3", "php hello.php"}, run)
	assert.Equal(t, []string{"~/lab3/hello.php", "~/lab3/books.xml"}, files)
	assert.Contains(t, skipped[`echo "hi\n";`], "an excerpt of hello.php")
	assert.Empty(t, asks)
}

// A VitePress label with a slash is a tab's title, not a file; a title= with a path
// without extension is a file.
func TestReadVitePressLabelsAndTitledPaths(t *testing.T) {
	t.Parallel()
	md := "# Go\n\n::: code-group\n\n```sh [Debian/Ubuntu]\nsudo apt install -y golang-go\n```\n\n```sh [macOS]\nbrew install go\n```\n\n:::\n\n" +
		"```sh title=\"bin/hello\"\n#!/bin/sh\necho hello\n```\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install -y golang-go"}, run)
	assert.Equal(t, []string{"bin/hello"}, files)
}

// A block typed at an interpreter's prompt is neither commands nor a file fragment; an
// untagged block that runs a program the prose names (and no table knows) is commands.
func TestReadInterpreterPromptsAndProseNamedPrograms(t *testing.T) {
	t.Parallel()
	md := "# Lab\n\nInstall the interpreter, `frobc`:\n\n```bash\nsudo apt install frob-tools\n```\n\n" +
		"Save the following as `rules.frb`:\n\n```frob\nrule(a).\n```\n\nLoad it into the interpreter:\n\n```\nfrobc rules.frb\n```\n\n" +
		"You get the `?-` prompt. Type the queries below, then add more of your own:\n\n```frob\n?- rule(X).\nX = a.\n```\n\n" +
		"Try it on purpose:\n\n```\nfrob-tools --check rules.frb\necho $?\n```\n\n" +
		"Its settings look like this:\n\n```\nwidth 80\n```\n\n" +
		"Now `api.php`. It calls `json_validate()` and writes `notes.log`:\n\n```php\n<?php echo 1;\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install frob-tools", "frobc rules.frb", "frob-tools --check rules.frb", "echo $?"}, run,
		"frobc is named in the prose and frob-tools is installed: their untagged lines are commands; `width 80` is not")
	assert.Equal(t, []string{"rules.frb", "api.php"}, files, "the queries are not appended to rules.frb; the paragraph names api.php")
	assert.Contains(t, skipped["?- rule(X)."], "interactive prompt")
}

// A file named before the verb ("… from `~/.ledgerrc`, so I keep this there:") and a
// file named by its kind ("Append it to the journal:") are written.
func TestReadFilesNamedBeforeTheVerbAndByTheirKind(t *testing.T) {
	t.Parallel()
	md := "# Money\n\nSave this as `2026.journal`:\n\n```ledger\n2026/01/01 Opening\n```\n\n" +
		"Ledger reads options from `~/.ledgerrc`, so I keep this there:\n\n```text\n--file ~/2026.journal\n```\n\n" +
		"Append it to the journal:\n\n```ledger\n~ Monthly\n```\n\nKeep it running while you work:\n\n```text\nwidth 80\n```\n"
	_, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"2026.journal", "~/.ledgerrc", "2026.journal"}, files)
	md = "# Hook\n\nSave this script as `~/svn/repo/hooks/pre-commit`:\n\n```{code-block} sh\n:caption: hooks/pre-commit\n#!/bin/sh\nexit 0\n```\n"
	_, files, _, _ = readMD(t, md)
	assert.Equal(t, []string{"~/svn/repo/hooks/pre-commit"}, files, "the caption shortens the path the sentence gives")
}

// MyST directives written as nested backtick fences are containers: the Debian tab's
// blocks run, the other systems' tabs are skipped, a note without a block stays a note.
func TestReadMySTBacktickDirectives(t *testing.T) {
	t.Parallel()
	md := "# Install\n\n```{note}\nA note without code.\n```\n\n`````{tab-set}\n````{tab-item} Debian / Ubuntu\n```console\n$ sudo apt install subversion\n```\n````\n" +
		"````{tab-item} Fedora\n```console\n$ sudo dnf install subversion\n```\n````\n````{tab-item} Windows\nInstall TortoiseSVN.\n````\n`````\n\nCheck it:\n\n```console\n$ svn --version --quiet\n1.14.2\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install subversion", "svn --version --quiet"}, run)
	assert.Contains(t, skipped["sudo dnf install subversion"], "Fedora")
}

// A parenthetical aside does not make commands output; a language the table knows by its
// extensions names its file.
func TestReadAsidesAndMoreLanguages(t *testing.T) {
	t.Parallel()
	md := "# Pi\n\nThe main program, `pi_main.f90`, reads the count:\n\n```fortran\nprogram pi_main\nend program pi_main\n```\n\n" +
		"Compile it (the compiler writes `pi.mod`, which any file that says `use pi` reads), then link:\n\n```bash\ngfortran -c pi_main.f90\n```\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"pi_main.f90"}, files)
	assert.Equal(t, []string{"gfortran -c pi_main.f90"}, run)
}

func TestMergeFragment(t *testing.T) {
	old := "from django.contrib import admin\nfrom django.urls import path\n\nurlpatterns = [\n    path('admin/', admin.site.urls),\n]\n"
	got, at, ok := mergeFragment(old, "urlpatterns = [\n    path(\"admin/\", admin.site.urls),\n    path(\"books/\", include(\"books.urls\")),\n]\n")
	require.True(t, ok)
	assert.Equal(t, 4, at)
	assert.Equal(t, "from django.contrib import admin\nfrom django.urls import path\n\nurlpatterns = [\n    path(\"admin/\", admin.site.urls),\n    path(\"books/\", include(\"books.urls\")),\n]\n", got)

	got, at, ok = mergeFragment("import sys\n\ndef main():\n    print(1)\n    print(2)\n\nmain()\n", "def main():\n    print(3)\n")
	require.True(t, ok)
	assert.Equal(t, 3, at)
	assert.Equal(t, "import sys\n\ndef main():\n    print(3)\n\nmain()\n", got)

	_, _, ok = mergeFragment(old, "urlpatterns = [\n]\nprint(1)\n")
	assert.False(t, ok, "more than the one statement")
	_, _, ok = mergeFragment(old, "handler404 = 'x'\n")
	assert.False(t, ok, "no counterpart")
}

func TestReadPartOfAFileAsItShouldRead(t *testing.T) {
	t.Parallel()
	md := "# App\n\nCreate `books/urls.py`:\n\n```python\nurlpatterns = []\n```\n\nIn `site/urls.py`, add one line to `urlpatterns` so it looks like this:\n\n```python\nurlpatterns = [\n    path(\"books/\", include(\"books.urls\")),\n]\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var files []step
	for _, s := range read(tut) {
		if s.kind == fileStep {
			files = append(files, s)
		}
	}
	require.Len(t, files, 2)
	assert.Equal(t, "books/urls.py", files[0].file)
	assert.Equal(t, "site/urls.py", files[1].file)
	assert.True(t, files[1].merge)
}

func TestReadCommandWithItsOutputBelowAndCodeWords(t *testing.T) {
	t.Parallel()
	md := "# Data\n\n`--opprint` prints an aligned table:\n\n```bash\nmlr --icsv --opprint cat sales.csv\n```\n\n```\ndate region\n```\n\n" +
		"Write the summary into a `reports` folder:\n\n```bash\nmlr --ojson cat sales.csv > reports/by-region.json\n```\n\nThe tool prints:\n\n```bash\nsome output\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"mlr --icsv --opprint cat sales.csv", "mlr --ojson cat sales.csv > reports/by-region.json"}, run)
	assert.Contains(t, skipped["some output"], "expected output")
}

func TestReadLiquidDetailsAreAsides(t *testing.T) {
	t.Parallel()
	md := "# Post\n\n{% details \"But I want the latest!\" %}\nUse pip:\n\n```bash\npip install mkdocs\n```\n{% enddetails %}\n\n## Step 2\n\n```bash\nmkdocs new site\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"mkdocs new site"}, run)
	assert.Contains(t, skipped["pip install mkdocs"], "side note")
}

func TestReadDetailsPerSystemAndAProjectNamedArch(t *testing.T) {
	t.Parallel()
	md := "# arch-diagrams\n\n## Installation\n\n<details open>\n<summary><b>Debian / Ubuntu</b></summary>\n\n```bash\nsudo apt install plantuml\n```\n\n</details>\n\n" +
		"<details>\n<summary><b>macOS</b></summary>\n\n```bash\nbrew install plantuml\n```\n\n</details>\n\n<details>\n<summary>Why Java?</summary>\n\n```bash\njava -version\n```\n\n</details>\n\n" +
		"## Arch Linux\n\n```bash\nsudo pacman -S plantuml\n```\n\n## Returning void\n\n```bash\nplantuml -version\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install plantuml", "plantuml -version"}, run)
	assert.Contains(t, skipped["brew install plantuml"], "another system (macOS)")
	assert.Contains(t, skipped["java -version"], "side note")
	assert.Contains(t, skipped["sudo pacman -S plantuml"], "Arch Linux")
}

func TestReadGitBookTabsAndCodeTitles(t *testing.T) {
	t.Parallel()
	md := "# Blog\n\n{% tabs %}\n{% tab title=\"Debian / Ubuntu\" %}\n```bash\nsudo apt install pelican\n```\n{% endtab %}\n\n{% tab title=\"macOS / Windows (pip)\" %}\n```bash\npython -m venv ~/.venvs/pelican\n```\n{% endtab %}\n{% endtabs %}\n\n" +
		"{% code title=\"pelicanconf.py\" %}\n```python\nAUTHOR = 'Ada'\nSITEURL = ''\n```\n{% endcode %}\n\nThen select it:\n\n{% code title=\"pelicanconf.py (add)\" %}\n```python\nTHEME = 'mytheme'\n```\n{% endcode %}\n\n" +
		"Set the address:\n\n{% code title=\"pelicanconf.py (change this line)\" %}\n```python\nSITEURL = 'https://blog.example.org'\n```\n{% endcode %}\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var run, files []string
	skipped := map[string]string{}
	for _, s := range read(tut) {
		switch s.kind {
		case runStep:
			run = append(run, s.command.Text)
		case fileStep:
			files = append(files, fmt.Sprintf("%s append=%t merge=%t", s.file, s.appendF, s.merge))
		case skipStep:
			if s.command != nil {
				skipped[s.command.Text] = s.reason
			}
		}
	}
	assert.Equal(t, []string{"sudo apt install pelican"}, run)
	assert.Contains(t, skipped["python -m venv ~/.venvs/pelican"], "macOS / Windows (pip)")
	assert.Equal(t, []string{"pelicanconf.py append=false merge=false", "pelicanconf.py append=true merge=false", "pelicanconf.py append=false merge=true"}, files)
}

func TestReadFileNamedBelowItsBlockAndBatchEditors(t *testing.T) {
	t.Parallel()
	md := "# Org\n\nMake a folder for the examples:\n\n```bash\nmkdir -p ~/org && cd ~/org\n```\n\nPut both settings in a small init file:\n\n{{< highlight elisp >}}\n(require 'org)\n{{< /highlight >}}\n\n" +
		"Save it as `init.el`. Now a report, `report.org`:\n\n{{< highlight org >}}\n#+TITLE: Weekly\n{{< /highlight >}}\n\n```console\n$ emacs --batch -l init.el report.org -f org-babel-tangle\n$ emacs report.org\n```\n"
	run, files, skipped, asks := readMD(t, md)
	assert.Equal(t, []string{"mkdir -p ~/org && cd ~/org", "emacs --batch -l init.el report.org -f org-babel-tangle"}, run)
	assert.Equal(t, []string{"init.el", "report.org"}, files)
	assert.Contains(t, skipped["emacs report.org"], "editor")
	assert.Empty(t, asks)

	run, _, _, _ = readMD(t, "# Checks\n\nTo see what a failure looks like, make a scratch file with a deliberately unclosed body:\n\n```bash\nmkdir -p scratch\nprintf 'x {\\n' > scratch/broken.puml\n```\n")
	assert.Equal(t, []string{"mkdir -p scratch", "printf 'x {\\n' > scratch/broken.puml"}, run)

	md = "# Fix\n\nSave this as `w.c`:\n\n```c\nint main(void)\n{\n    for (int i = 0; i < 4; i++)\n        total += count(lines[i]);\n}\n```\n\n" +
		"Skip null entries in `main` by replacing the loop body in `w.c`:\n\n```c\n    for (int i = 0; i < 4; i++)\n        if (lines[i] != NULL)\n            total += count(lines[i]);\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var merged bool
	for _, s := range read(tut) {
		merged = merged || s.kind == fileStep && s.file == "w.c" && s.merge
	}
	assert.True(t, merged, "the part shown replaces its counterpart")
}

func TestReadVuePressCodeGroupAndBareCaptions(t *testing.T) {
	t.Parallel()
	md := "# Install\n\n<CodeGroup>\n  <CodeGroupItem title=\"Debian / Ubuntu\" active>\n\n```bash\necho debian\n```\n\n  </CodeGroupItem>\n  <CodeGroupItem title=\"macOS (Homebrew)\">\n\n```bash\nbrew install x\nexport PATH=/opt/x:$PATH\n```\n\n  </CodeGroupItem>\n</CodeGroup>\n\n" +
		"The project file declares the language:\n\n<span class=\"filename\">Filename: dune-project</span>\n\n```scheme\n(lang dune 2.9)\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"echo debian"}, run)
	assert.Contains(t, skipped["export PATH=/opt/x:$PATH"], "tab \"macOS (Homebrew)\"")
	assert.Equal(t, []string{"dune-project"}, files)
}

// An indented apt install names the program later indented blocks run; "use the install
// script instead" for the latest release is an alternative to the distribution's package;
// an untagged block right under an untagged command block is its output.
func TestReadIndentedInstallsAndNewerReleaseAlternatives(t *testing.T) {
	t.Parallel()
	md := "# Sync\n\nOn Debian:\n\n    sudo apt install rclone\n\nTo get the latest release use the install script instead:\n\n    curl https://rclone.org/install.sh | sudo bash\n\n" +
		"Check the version:\n\n    rclone version\n\nList what is left:\n\n    rclone lsf mirror\n\n```\nnotes.md\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install rclone", "rclone version", "rclone lsf mirror"}, run)
	assert.Contains(t, skipped["curl https://rclone.org/install.sh | sudo bash"], "newer release")
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	for _, s := range read(tut) {
		if s.kind == runStep && s.command.Text == "rclone lsf mirror" {
			assert.Equal(t, "notes.md", s.expected)
		}
	}
}

func TestSubstituteNamedAndAskedFlag(t *testing.T) {
	t.Parallel()
	got, note := substituteNamed("rclone config create b alias remote=/home/USER/m", "Replace `USER` with your user name (`echo $HOME` shows it):")
	assert.Equal(t, "rclone config create b alias remote=/home/$(id -un)/m", got)
	assert.Contains(t, note, "user name")
	got, note = substituteNamed("echo 'USER'", "Replace `USER` with your user name:")
	assert.Equal(t, "echo 'USER'", got, "single quotes would keep $(id -un) literal")
	assert.Empty(t, note)
	// in a file, where no shell expands it, the value itself
	m := reReplaceWith.FindStringSubmatch("Replace `<you>` with your login name; `named` needs an absolute path here")
	require.NotNil(t, m)
	assert.Equal(t, "learner", ownValue(m[2], "learner", "/home/learner"))
	assert.Equal(t, "/home/learner", ownValue("home directory", "learner", "/home/learner"))
	assert.Equal(t, "--resync", askedFlag("rclone bisync a b", "ERROR : Bisync aborted. Must run --resync to recover."))
	assert.Equal(t, "--allow-empty", askedFlag("git commit -m x", "use --allow-empty to record it anyway"))
	assert.Empty(t, askedFlag("tar xf a", "Try 'tar --help' or 'tar --usage' for more information."))
	assert.Empty(t, askedFlag("sudo /usr/sbin/mariadbd --user=mysql", "2026-11-27  3:51:26 0 [Warning] You need to use --log-bin to make --expire-logs-days or --binlog-expire-logs-seconds work.\n"+
		"2026-11-27  3:51:26 0 [ERROR] Can't start server : Bind on unix socket: No such file or directory\n2026-11-27  3:51:26 0 [ERROR] Aborting"), "MariaDB 10.11: a warning's advice is not the error")
	assert.Empty(t, askedFlag("x --init", "Must run --init to recover."), "the command already has it")
}

// Hugo's relearn tabs name their tab with title=; "no output means it is valid" and "It
// prints nothing" say the command prints nothing, not that the block is output; an install of a server package
// does not start a server.
func TestReadRelearnTabsAndNoOutputLeads(t *testing.T) {
	t.Parallel()
	md := "# Install\n\n{{< tabs groupid=\"install\" >}}\n{{% tab title=\"Debian / Ubuntu\" %}}\n```sh\nsudo apt install gunicorn\n```\n{{% /tab %}}\n{{% tab title=\"macOS\" %}}\n```sh\nbrew install gunicorn\n```\n{{% /tab %}}\n{{< /tabs >}}\n\n" +
		"`xmllint` checks the document; no output means it is valid:\n\n```bash\nxmllint --noout --valid books.xml\n```\n\n" +
		"Run it under `chronic`. It prints nothing, because the check succeeds:\n\n```bash\nchronic ./check.sh\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install gunicorn", "xmllint --noout --valid books.xml", "chronic ./check.sh"}, run)
	assert.Contains(t, skipped["brew install gunicorn"], "macOS")
	assert.False(t, isServer("sudo apt install gunicorn supervisor"))
	assert.True(t, isServer("gunicorn --bind 127.0.0.1:8000 app:app"))
}

// A "Before you start" note is part of the path; "Save it in `~/project`" under a file's
// block says where the file goes; a console session of `$ ` lines is typed even when its
// lead names a path; "change the loop in `main.rkt`" merges into the file written before.
func TestReadBeforeYouStartSaveItInAndConsoleSessions(t *testing.T) {
	t.Parallel()
	md := "# Tool\n\n!!! info \"Before you start\"\n\n    Check your version:\n\n    ```console\n    $ tool -V\n    ```\n\n" +
		"```sh title=\"dev.sh\"\necho dev\n```\n\nSave it in `~/project`, make it executable and run it.\n\n" +
		"Debian keeps the licences in `/usr/share/common-licenses`; copy one here:\n\n```console\n$ cp /usr/share/common-licenses/GPL-3 gpl.txt\n```\n\n" +
		"Save this as `main.rkt`:\n\n```racket\n(define (f x)\n  (+ x 1))\n```\n\nand change the adding function in `main.rkt` to double:\n\n```racket\n(define (f x)\n  (* x 2))\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	merged := false
	for _, s := range read(tut) {
		merged = merged || s.kind == fileStep && s.merge && s.file == "main.rkt"
	}
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"tool -V", "cp /usr/share/common-licenses/GPL-3 gpl.txt"}, run)
	assert.Equal(t, []string{"~/project/dev.sh", "main.rkt", "main.rkt"}, files)
	assert.True(t, merged, "the second main.rkt block replaces its counterpart")
	assert.True(t, reHardware.MatchString("open terminal failed: not a terminal"))
	// SoX's play (14.4.2, bookworm) in a container: ALSA finds no sound card
	assert.True(t, reHardware.MatchString("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\nALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default"))
	assert.Equal(t, "main.rkt:16:18: hash-filter-values: unbound identifier", keyLine("main.rkt:16:18: hash-filter-values: unbound identifier\n  in: hash-filter-values\n  context...:\n   body of \"/usr/share/racket/collects/raco/main.rkt\""))
}

// Names a module defines but does not export, and an Octave function saved under another
// file name (Octave looks functions up by file name).
func TestUnexportedNames(t *testing.T) {
	t.Parallel()
	ss := &session{cwd: "/w", written: map[string]string{
		"/w/thomas.m":     "function x = thomas_solve(a, b)\n  x = a \\ b;\nend\n",
		"/w/lib/text.rkt": "#lang racket\n(provide tokenize)\n(define (tokenize s) s)\n(define (stop-word? w) #f)\n",
	}}
	why, fix, edit := ss.unexported("error: 'thomas_solve' undefined near line 1, column 5")
	assert.Contains(t, why, "find a function only in a file named after it (`thomas_solve.m`)")
	assert.Contains(t, fix, "save the function as `thomas_solve.m`")
	require.NotNil(t, edit)
	assert.Equal(t, []string{"mv thomas.m thomas_solve.m"}, edit.InsertBefore)
	why, _, edit = ss.unexported("main.rkt:12:21: stop-word?: unbound identifier")
	assert.Contains(t, why, "its `provide` list leaves it out")
	require.NotNil(t, edit)
	assert.Equal(t, []string{`sed -i 's|^(provide tokenize)$|(provide tokenize stop-word?)|' lib/text.rkt`}, edit.InsertBefore)
	why, _, _ = ss.unexported("error: 'clim' undefined near line 1, column 1")
	assert.Empty(t, why, "a function no file of the tutorial defines")
}

// `python3` alone starts an interpreter to type into; `python --version` runs and exits.
func TestReplStartNeedsABareInterpreter(t *testing.T) {
	t.Parallel()
	for cmd, repl := range map[string]bool{"python3": true, "octave-cli --quiet": true, "R --no-save": true, "python --version": false, "python3 -V": false, "python3 app.py": false, "lua script.lua": false} {
		s := step{kind: runStep, command: &tutorial.Command{Text: cmd}}
		assert.Equal(t, repl, replStart(s) != nil, cmd)
	}
}

// A kramdown attribute list under a block names its file, after a Jekyll highlight pair
// (`{: data-filename="…" }`, as Jekyll themes render) or a fenced block; a class list
// alone names nothing. Every `$ ` line of a console highlight pair runs, whatever program
// it names (the lines without a prompt are output).
func TestReadKramdownAttributeListsNameFiles(t *testing.T) {
	t.Parallel()
	md := "# Qt\n\n{% highlight make %}\nQT -= gui\nSOURCES += main.cpp\n{% endhighlight %}\n{: data-filename=\"greeter.pro\" }\n\n" +
		"```cpp\nint main() { return 0; }\n```\n{: title=\"main.cpp\"}\n\n> On Fedora use dnf.\n{: .note }\n\n" +
		"{% highlight console %}\n$ mkdir build && cd build\n$ qmake ../greeter.pro\nInfo: creating stash file /home/you/build/.qmake.stash\n{% endhighlight %}\n{: .terminal }\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"greeter.pro", "main.cpp"}, files)
	assert.Equal(t, []string{"mkdir build && cd build", "qmake ../greeter.pro"}, run, "every $ line of a console highlight pair runs")
}

// "Here's **x**" presents the file the untagged block below it holds.
func TestReadHereIsAFile(t *testing.T) {
	t.Parallel()
	md := "# Project\n\nHere's **wordcount.cabal**, just like the one `cabal init` gives you:\n\n```\ncabal-version: 2.4\nname: wordcount\n```\n\n" +
		"Here is what `make` prints:\n\n```\ncc -o hello hello.c\n```\n"
	_, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"wordcount.cabal"}, files, "a command word in code is not a file")
}

// Captions in more styles name files: an AsciiDoc title over a [source] line, a title
// without an extension, a paragraph that is only the name; Docsy's code tabs run; a JSON
// block right under a request is its answer.
func TestReadMoreCaptionsCodeTabsAndDataAnswers(t *testing.T) {
	t.Parallel()
	md := "# Proofs\n\n.hello.v\n[source,coq]\n```\nDefinition x := 1.\n```\n\n._CoqProject\n```\n-Q theories Tut\n```\n\n**`src/wc.h`**\n\n```cpp\n#pragma once\n```\n\n" +
		"{{< tabpane >}}\n{{< tab header=\"Debian\" lang=\"bash\" >}}\nsudo apt install coq\n{{< /tab >}}\n{{< tab header=\"macOS\" lang=\"bash\" >}}\nbrew install coq\n{{< /tab >}}\n{{< /tabpane >}}\n\n" +
		"List the notes:\n\n```bash\ncurl -s http://127.0.0.1:8080/notes\n```\n\n```json\n[{\"id\": 1}]\n```\n"
	files, run, expected := readExpected(t, md)
	assert.Equal(t, []string{"hello.v", "_CoqProject", "src/wc.h"}, files)
	assert.Equal(t, []string{"sudo apt install coq", "curl -s http://127.0.0.1:8080/notes"}, run, "the Debian tab runs, the macOS tab does not")
	assert.Equal(t, `[{"id": 1}]`, expected["curl -s http://127.0.0.1:8080/notes"])
}

// A script saved under a name keeps its here-string and here-document; a shell block
// that writes with a here-document runs.
func TestReadScriptsWithHereStrings(t *testing.T) {
	t.Parallel()
	md := "# Split\n\nSave this as `split.sh`:\n\n```bash\n#!/bin/bash\nIFS=, read -r a b <<< \"$1\"\ncat <<EOF\n$a\nEOF\n```\n\n" +
		"```bash\ncat > notes.txt <<'EOF'\none\nEOF\nbash split.sh x,y\n```\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"split.sh"}, files)
	assert.Equal(t, []string{"cat > notes.txt <<'EOF'\none\nEOF", "bash split.sh x,y"}, run)
}

func TestShownAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, session string
		want          []string
	}{
		{"wizard with defaults and a placeholder", "Welcome to sitegen-init 2.1.\n\n> Where should the site go? [.]\n> Site title? Lab Notes\n> Author? <your-name>\n> Use pagination? (Y/n) n\nDone.", []string{"", "Lab Notes", "Ada", "n"}},
		{"colon questions", "> Project name: Widget\n> Project language [en]: fr\n> Separate source and build (y/n) [n]:", []string{"Widget", "fr", ""}},
		{"defaults right after a question", "Proceed with the installation? [Y/n] y\nOverwrite config? (y/N)\nKeep logs? (yes/no) no", []string{"y", "", "no"}},
		{"one question is not a session", "Create account 'ada'? (y/n) y\nAccount created.", nil},
		{"log lines in brackets", "[2026-11-26 10:02:11 +0000] [2301] [INFO] Starting gunicorn 20.1.0\n[2026-11-26 10:02:11 +0000] [2301] [INFO] Listening at: http://127.0.0.1:8000", nil},
		{"a shell session", "$ ./setup.sh\n> Name? Ada\n> Port? [80] 8080", nil},
		{"a log's thread names", "2026.11.21 10:02:11 LOG5[ui]: stunnel 5.68 on x86_64-pc-linux-gnu platform\n2026.11.21 10:02:11 LOG5[ui]: Configuration successful", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, shownAnswers(tc.session))
		})
	}
}

func TestSentencesDoNotEndInsideCode(t *testing.T) {
	lead := "A deliberate mistake. Build the test on its own; this fails on purpose with `error: Unknown unit: timer` (exit status 2):"
	assert.Equal(t, "Build the test on its own; this fails on purpose with `error: Unknown unit: timer` (exit status 2):", lastSentence(lead))
	assert.Equal(t, "Run `make: all` first.", firstSentence("Run `make: all` first. Then look."))
}

func TestLeadGoingOnFromTheSaveBefore(t *testing.T) {
	cb := tutorial.CodeBlock{Lang: "c", Content: "int main(void) { return 0; }\n"}
	file, _, appendF, ok := fileTarget(cb, "and its test as `tests/check_main.c` (it only links):")
	assert.True(t, ok)
	assert.Equal(t, "tests/check_main.c", file)
	assert.False(t, appendF)
	_, _, _, ok = fileTarget(cb, "and then run it as `root` to see:")
	assert.False(t, ok, "a user name is not a file")
}

func TestSaysItFailsOnlyOfItsOwnCommand(t *testing.T) {
	progs := map[string]bool{"cat": true, "tar": true, "qpdf": true, "pdfinfo": true, "cp": true, "par2": true}
	assert.True(t, saysItFails("This fails with `permission denied`, as it should.", "cat /etc/shadow", progs))
	assert.True(t, saysItFails("`tar xf` fails because the archive is gone.", "tar xf old.tar", progs))
	assert.False(t, saysItFails("Now `pdfinfo locked.pdf` fails with `Incorrect password`. That is the point.", "qpdf --encrypt tiger lion 256 -- in.pdf locked.pdf", progs))
	assert.False(t, saysItFails("Now verify. par2 notices the damage and exits with status 1:", "cp a.sqsh* ~/scratch/", progs))
}

func TestUnlistedNamesOfAListing(t *testing.T) {
	assert.Equal(t, []string{"page-1.pdf", "page-2.pdf"}, unlisted("ls pages", "page-1.pdf\npage-2.pdf", "page-01.pdf\npage-02.pdf"))
	assert.Equal(t, "pages", listedDir("ls -1 pages"))
	assert.Equal(t, ".", listedDir("ls -l"))
	assert.Equal(t, "", listedDir("ls a b"))
}

func TestSamePartsInAnotherOrder(t *testing.T) {
	assert.True(t, sameParts("db.lab.test", "lab.test.db"))
	assert.True(t, sameParts("tb_counter.vhd", "counter_tb.vhd"))
	assert.False(t, sameParts("tb_counter.vhd", "counter_tb.vcd"), "another kind of file")
	assert.False(t, sameParts("counter.vhd", "tb_counter.vhd"))
}

func TestBlockTitlesAndTypingIntoAFile(t *testing.T) {
	cb := tutorial.CodeBlock{Lang: "nasm", Content: "section .text\n"}
	file, _, _, ok := fileTarget(cb, "Type the program into `hello.asm` (comments start with `;`):")
	assert.True(t, ok)
	assert.Equal(t, "hello.asm", file)
	assert.Equal(t, []string{".adder.vhd", "adder.vhd"}, reBlockTitle.FindStringSubmatch(".adder.vhd"))
	assert.Nil(t, reBlockTitle.FindStringSubmatch(".bashrc"), "a dotfile")
	assert.Equal(t, "</project>", reAbove.FindStringSubmatch("Paste the following into `build.xml`, just above the closing `</project>` tag:")[1])
}

func TestNewVersionKeepsTheShebang(t *testing.T) {
	old := "#!/usr/bin/env perl\nuse strict;\nprint 1;\n"
	assert.Equal(t, "#!/usr/bin/env perl", keptShebang(old, "use strict;\nprint 2;\n"))
	assert.Empty(t, keptShebang(old, "#!/usr/bin/perl\nuse strict;\n"), "it brings its own")
	assert.Empty(t, keptShebang(old, "print 2;\n"), "another file altogether")
	assert.Empty(t, keptShebang("use strict;\n", "use strict;\n"), "no #! line to keep")
}

func TestOutputUnderAServerAndPartOfAScript(t *testing.T) {
	md := "# App\n\nSave this as `app.pl`:\n\n```perl\n#!/usr/bin/env perl\nuse strict;\nsub hello {\n  print \"hi\\n\";\n}\nhello();\n```\n\n" +
		"The dev server restarts whenever you save `app.pl`. Start it and leave it running:\n\n```bash\ndevserve app.pl\n```\n\n```text\nServer available at http://127.0.0.1:3000\n```\n\n" +
		"Give the sub a greeting:\n\n```perl title=\"app.pl\"\nuse strict;\nsub hello {\n  print \"hello\\n\";\n```\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"devserve app.pl"}, run)
	assert.Equal(t, []string{"app.pl", "app.pl"}, files, "the server's output line is not a file")
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	steps := read(tut)
	last := steps[len(steps)-1]
	assert.True(t, last.merge, "a block that stops with a brace open is a part of the file: %+v", last)
}

// A notebook exported with nbconvert: `!` lines and `%cd` are what a reader types in a
// terminal, `%%writefile` saves a file; a cell of Python code stays Python, and one that
// mixes Python with `!` lines is not read as commands.
func TestNotebookCellsAreShellLinesAndFiles(t *testing.T) {
	t.Parallel()
	md := "# Words\n\n```python\n!mkdir -p ~/words\n%cd ~/words\n%env LANG=C.UTF-8\n!ls -la\n```\n\n    /home/you/words\n\n" +
		"```python\n%%writefile words.txt\napple\npear\n```\n\n    Writing words.txt\n\n" +
		"```ipython3\n%%writefile -a words.txt\nplum\n```\n\n" +
		"```python\nwords = open('words.txt').read().split()\n!wc -l words.txt\n```\n\n" +
		"```python\n%%bash\nsort words.txt | head -1\n```\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"mkdir -p ~/words", "cd ~/words", "export LANG=C.UTF-8", "ls -la", "sort words.txt | head -1"}, run)
	assert.Equal(t, []string{"words.txt", "words.txt"}, files)

	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	steps := read(tut)
	for _, s := range steps {
		if s.kind == runStep && s.command.Text == "ls -la" {
			assert.Equal(t, 7, s.line, "the `!` line's own place in the tutorial")
		}
		if s.kind == fileStep && s.appendF {
			assert.Equal(t, "plum", s.content)
		}
	}
}

// `$ fish`, then `> ` lines in that block and the blocks below: commands typed into fish,
// each with the lines under it as its output, until `exit`; a `> ` block with no shell
// started is output, as before.
func TestCommandsTypedIntoAShellTheTutorialStarts(t *testing.T) {
	t.Parallel()
	md := "# Fish\n\n```console\n> echo before\n```\n\nStart it:\n\n```console\n$ fish\n> set langs fish bash\n> echo $langs[1]\nfish\n```\n\n" +
		"Then:\n\n```console\n> string upper abc\nABC\n> exit\n> echo after\n```\n\n```bash\necho bash again\n```\n\n```console\n> echo not fish\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var typed []string
	var ran []string
	for _, s := range read(tut) {
		if s.kind != runStep {
			continue
		}
		ran = append(ran, s.command.Text)
		if s.repl != "" {
			assert.Equal(t, "fish", s.repl)
			typed = append(typed, fmt.Sprintf("%d %s → %q", s.command.StartLine, s.command.Text, s.command.Output))
		}
	}
	assert.Equal(t, []string{"11 set langs fish bash → \"\"", "12 echo $langs[1] → \"fish\"", "19 string upper abc → \"ABC\""}, typed)
	assert.Equal(t, []string{"set langs fish bash", "echo $langs[1]", "string upper abc", "echo bash again"}, ran)
}

// Files named the ways real pages name them: a block of the shell's own language under
// a name of that shell or an rc file, a script with its #! line under "the script,
// `x`:", a text block under a .txt name, a "**File `x`**" caption, and a block inside
// VuePress's `::: v-pre` (which only keeps Liquid tags from being rendered).
func TestFilesInTheirShellsLanguageCaptionsAndPlainContainers(t *testing.T) {
	t.Parallel()
	md := "# Notes\n\nPut this in `flags.zsh`:\n\n```zsh\nprint ${(o)fruit}\n```\n\nSample input, `words.txt`:\n\n```text\nThe cat sat.\n```\n\n" +
		"And the script, `tally.zsh`:\n\n```zsh\n#!/usr/bin/zsh\nprint hi\n```\n\nThen add to `~/.zshrc`:\n\n```zsh\nsetopt auto_cd\n```\n\n" +
		"**File `geom.c`**\n\n```c\nint x;\n```\n\nCreate `_includes/nav.html`:\n\n::: v-pre\n```html\n<nav>{{ site.title }}</nav>\n```\n:::\n\n```bash\nzsh flags.zsh\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"flags.zsh", "words.txt", "tally.zsh", "~/.zshrc", "geom.c", "_includes/nav.html"}, files, "%v", skipped)
	assert.Equal(t, []string{"zsh flags.zsh"}, run)
}

// "Enable them at the end of `_config.yml`:" under a YAML block, once _config.yml was
// written, appends to it; it is not an excerpt.
func TestAtTheEndOfAWrittenFileAppends(t *testing.T) {
	t.Parallel()
	md := "# Site\n\nCreate `_config.yml`:\n\n```yaml\ntitle: Notes\n```\n\nEnable them at the end of `_config.yml`:\n\n```yaml\nplugins:\n  - jekyll-feed\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var appended []string
	for _, s := range read(tut) {
		if s.kind == fileStep && s.appendF {
			appended = append(appended, s.file)
		}
	}
	assert.Equal(t, []string{"_config.yml"}, appended)
}

// A lead that explains the command's options ("`-I proto` says where imports are found")
// introduces the command, not its output; a file the sentence forbids editing ("never
// edit it by hand") is not what the block below holds.
func TestOptionsExplainedAndAFileNotToEdit(t *testing.T) {
	t.Parallel()
	md := "# Gen\n\nFrom the project folder, `-I proto` says where imports are found, `--python_out` where code goes:\n\n```bash\nprotoc -I proto --python_out=gen proto/contacts.proto\n```\n\n" +
		"You now have one generated file, `gen/contacts_pb2.py`; never edit it by hand:\n\n```bash\nls gen\n```\n\nThe compiler says:\n\n```bash\nlibprotoc 3.21.12\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"protoc -I proto --python_out=gen proto/contacts.proto", "ls gen"}, run, "%v", skipped)
	assert.Empty(t, files)
	assert.Len(t, skipped, 1)
}

// A confirmation the shown session answers ("Confirm request details: yes"), or that the
// prose says to answer, is typed; output that only looks like a question is not.
func TestConfirmAnswers(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{"yes"}, confirmAnswers("...\nType the word 'yes' to continue, or any other input to abort.\n  Confirm request details: yes\n...", ""))
	assert.Equal(t, []string{"y"}, confirmAnswers("Proceed? [y/N] y", ""))
	assert.Equal(t, []string{"yes"}, confirmAnswers("", "Answer `yes` when asked to confirm the request details:"))
	assert.Nil(t, confirmAnswers("Common Name: web01\nStatus: ok", "Run it:"))
}

// A MyST tab set written with backtick fences whose tabs hold indented console lines
// right under the tab's fence line: the Debian tab's commands run, the others are tabs
// not followed.
func TestMySTTabItemsWithIndentedBodies(t *testing.T) {
	t.Parallel()
	md := "# Cross\n\n````{tab-set}\n```{tab-item} Debian / Ubuntu\n    $ sudo apt install gcc-aarch64-linux-gnu\n```\n```{tab-item} Fedora\n    $ sudo dnf install gcc-aarch64-linux-gnu\n```\n````\n\n```console\n$ aarch64-linux-gnu-gcc --version\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install gcc-aarch64-linux-gnu", "aarch64-linux-gnu-gcc --version"}, run, "%v", skipped)
	assert.Contains(t, fmt.Sprint(skipped), "Fedora")
}

// Small readings of commands and errors the diagnoses rely on.
func TestErrorAndCommandReadings(t *testing.T) {
	t.Parallel()
	// rake's hints after the error are not the error
	out := "rake aborted!\nDon't know how to build task 'stop-words.txt' (See the list of available tasks with `rake --tasks`)\n\nTasks: TOP => report:words\n(See full trace by running task with --trace)\n"
	assert.Equal(t, "Don't know how to build task 'stop-words.txt' (See the list of available tasks with `rake --tasks`)", keyLine(out))
	for msg, want := range map[string]string{
		"Don't know how to build task 'stop-words.txt' (See the list":                               "stop-words.txt",
		"make: *** No rule to make target 'main.c', needed by 'main.o'.  Stop.":                     "main.c",
		"ninja: error: 'gen.h', needed by 'app.o', missing and no known rule to make it":            "gen.h",
		"Cannot detect source of 't/routes.t'! at /usr/share/perl/5.36/TAP/Parser/SourceHandler.pm": "t/routes.t",
	} {
		m := reNoRule.FindStringSubmatch(msg)
		require.NotNil(t, m, msg)
		assert.Equal(t, want, strings.Join(m[1:], ""))
	}
	assert.Equal(t, "gen", reDirNoSuch.FindStringSubmatch("gen/: No such file or directory")[1])
	// a pipeline ending in a filter that found nothing is a query
	assert.True(t, isQuery("ogrinfo -so x.gpkg parks | grep Extent"))
	assert.False(t, isQuery("make || grep x log"))
	// a file named in code the command runs
	assert.True(t, refersTo(`python3 -c "import json; print(json.load(open('parks-info.json')))"`, "parks-info.json"))
	assert.False(t, refersTo(`python3 -c "print('parks')"`, "parks-info.json"))
}

// Blocks and tabs of more documentation tools: vuepress-theme-hope's `::: code-tabs`
// with `@tab` lines, Confluence's `syntaxhighlighter-pre` fences, a `.psgi` file under a
// paragraph naming it and a template named as "the view, `views/notes.tt`:".
func TestHopeTabsConfluenceFencesAndTemplateFiles(t *testing.T) {
	t.Parallel()
	md := "# Tool\n\n::: code-tabs#shell\n\n@tab Debian / Ubuntu\n\n```sh\n$ sudo apt install minisign\n```\n\n@tab macOS\n\n```sh\n$ brew install minisign\n```\n\n:::\n\n" +
		"``` syntaxhighlighter-pre\n$ unison -version\n```\n\nNow `app.psgi`. It switches the tags:\n\n```perl\nuse Dancer2;\nto_app;\n```\n\nAnd the view, `views/notes.tt`:\n\n```html\n<h1>[% title %]</h1>\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install minisign", "unison -version"}, run, "%v", skipped)
	assert.Equal(t, []string{"app.psgi", "views/notes.tt"}, files)
	assert.Contains(t, fmt.Sprint(skipped), "macOS")
}

func TestRedirectFailed(t *testing.T) {
	t.Parallel()
	assert.True(t, redirectFailed("mlr --ojson cat clean.csv > reports/x.json", "bash: line 1: reports/x.json: No such file or directory"))
	assert.False(t, redirectFailed("cat clean.csv", "cat: clean.csv: No such file or directory"))
	assert.True(t, reStopIfOnly.MatchString("(the list lives in memory and is gone when you stop the server)"))
	assert.False(t, reStopIfOnly.MatchString("Stop the server with Ctrl+C."))
}

// A lead over a mkdir that says the next file goes in the new folder, and Sphinx's
// numbered caption with its permalink over the file.
func TestFileSavedInTheFolderJustMadeUnderASphinxCaption(t *testing.T) {
	t.Parallel()
	md := "# Lint\n\nCreate a scratch folder and save the following file in it.\n\n```console\n$ mkdir ~/lintdemo\n```\n\n" +
		"**Listing 1** `shapes.py`[¶](#id1 \"Permalink to this code\")\n\n```python\nimport os\n```\n\n" +
		"**Listing 2** `pyproject.toml`[¶](#id2 \"Permalink to this code\")\n\n```toml\n[tool.black]\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"mkdir ~/lintdemo"}, run, "%v", skipped)
	assert.Equal(t, []string{"~/lintdemo/shapes.py", "pyproject.toml"}, files, "only the next file goes in the folder")
}

// Small readings behind the diagnoses: the terminals a sentence names, a comment mark
// the file's language does not use, Express's missing body parser, a scheme-less URL
// answered with an error page, and a lead that says a command keeps running.
func TestTerminalsCommentMarksAndErrorPages(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{"1", "3"}, terminalsNamed("Press Ctrl+C in terminals 1 and 3."))
	assert.Equal(t, []string{"1", "3"}, terminalsNamed("Keep the echo service running in terminal 1 and start the forwarder in **terminal 3**:"))
	assert.Equal(t, []string{"2"}, terminalsNamed("Then, in the second terminal:"))
	assert.Empty(t, terminalsNamed("Stop the server."))

	scad := "// bracket.scad\nwidth = 30;      // mm\n# the arm\ncube(width);\n"
	mark, other := foreignComment("# the arm", scad)
	assert.Equal(t, "#", mark)
	assert.Equal(t, "//", other)
	mark, _ = foreignComment("# a comment", "import os\n# another\nx = 1 // 2\n")
	assert.Empty(t, mark, "a file that has # comments elsewhere")

	page := "<pre>TypeError: Cannot read properties of undefined (reading &#39;text&#39;)<br> &nbsp;at /home/u/api/server.js:24:55<br> &nbsp;at Layer.handle (/usr/share/nodejs/express/lib/router/layer.js:95:5)</pre>"
	assert.Contains(t, knownErrorFix(t.Context(), nil, page), "app.use(express.json());")
	assert.Empty(t, knownErrorFix(t.Context(), nil, "TypeError: Cannot read properties of undefined (reading 'x')\n    at main (/home/u/app.js:3:9)"))
	// libxml2 2.9.14 (bookworm's xmllint) on a local element of an unqualified schema
	xsd := "order.xml:3: element customer: Schemas validity error : Element '{urn:example:shop}customer': This element is not expected. Expected is ( customer ).\norder.xml fails to validate"
	assert.Contains(t, knownErrorFix(t.Context(), nil, xsd), `elementFormDefault="qualified"`)
	assert.Empty(t, knownErrorFix(t.Context(), nil, "Element '{urn:example:shop}client': This element is not expected. Expected is ( customer )."), "another element is expected: a misspelling, not the namespace")

	html := "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<title>Error</title>\n</head>\n<body><pre>TypeError</pre></body></html>"
	assert.Contains(t, outputMismatch(`curl -s -X POST -d '{"text":"x"}' localhost:3000/notes`, `{"id":2,"text":"x"}`, html), "HTML page titled “Error”")

	assert.True(t, reKeepsRunning.MatchString("`--real-time-html` keeps GoAccess running: it follows the log"))
}

// A question-and-answer page: the asker's own commands and the other answers are not
// steps; the accepted answer is.
func TestQAPageFollowsTheAcceptedAnswer(t *testing.T) {
	t.Parallel()
	md := "# Rebuild on save\n\nI run this by hand after every save:\n\n    pandoc notes.md -s -o notes.html\n\nIs there a better way?\n\n## 3 Answers\n\n" +
		"**▲ 12 ▼**\n\nUse entr:\n\n```console\n$ sudo apt install entr\n```\n\n---\n\n**▲ 46 ▼** ✔ Accepted answer\n\nUse inotifywait:\n\n```console\n$ sudo apt install inotify-tools\n```\n\n---\n\n" +
		"**▲ 3 ▼**\n\nOr a loop:\n\n```console\n$ watch -n 2 make\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install inotify-tools"}, run, "%v", skipped)
	assert.Empty(t, files)
	assert.Contains(t, skipped["pandoc notes.md -s -o notes.html"], "the question's own commands")
	assert.Contains(t, skipped["sudo apt install entr"], "another answer")
}

// Blocks of commands a reader types although the prose does not introduce them as such:
// right under a section heading, with a misspelt program among known ones, a console
// block whose command prints a tree, and a data file named over a mkdir and a cd; a
// caption alone names the block under it even after the callout list of the block before.
func TestCommandsUnderAHeadingATypoATreeAndAFileNamedOverAMkdir(t *testing.T) {
	t.Parallel()
	md := "# Darcs\n\n```\nsudo apt install darcs\n```\n\n## A first repository\n\n```\nmkdir ~/hello\ncd ~/hello\ndarcs init\n```\n\n" +
		"To see which files are tracked:\n\n```\ndracs show files\ndarcs log\n```\n\n## Synopsis\n\n```\ndarcs init NAME\ndarcs add FILE\n```\n\n" +
		"```console\n$ tree -L 1\n.\n├── _darcs\n└── hello.sh\n```\n\n" +
		"Make a folder and save the export as `data/sales.csv`:\n\n```bash\nmkdir -p data\ncd data\n```\n\n```csv\ndate,units\n2026-10-01,3\n```\n\n" +
		"**Calc.java**\n\n```java\nclass Calc {}\n```\n\n1. A callout about the class.\n\n**CalcTest.java**\n\n```java\nclass CalcTest {}\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install darcs", "mkdir ~/hello", "cd ~/hello", "darcs init", "dracs show files", "darcs log", "tree -L 1", "mkdir -p data", "cd data"}, run, "%v", skipped)
	assert.Equal(t, []string{"data/sales.csv", "Calc.java", "CalcTest.java"}, files)
}

// A block is the file its first comment names when the lead names that file too (a
// script under its `#!` line; a dotfile); a file collapsed under <details> with its name
// as the summary is written; "**File:** `x`" names the block under it, in the folder the
// sentence before gives; a placeholder for the student's own id is filled in.
func TestFilesNamedByCommentSummaryAndBoldCaption(t *testing.T) {
	t.Parallel()
	md := "# Notes\n\n`units` also reads `~/.units`. Mine has:\n\n```\n# ~/.units -- personal additions\nlap 400 m\n```\n\n" +
		"Both together in `pace.sh`: a distance and a time give the pace.\n\n```sh\n#!/bin/sh\n# pace.sh DISTANCE MINUTES\necho \"$1\"\n```\n\n" +
		"Then `setup.sh` does the rest:\n\n```sh\n# setup.sh is in the repository\nsh setup.sh\n```\n\n" +
		"and save the data file:\n\n<details>\n<summary><code>data/books.csv</code></summary>\n\n```csv\nid,title\n1,Dune\n```\n</details>\n\n" +
		"Create the script below in `~/lab5` with your editor.\n\n**File:** `contact.sh`\n```\n#!/bin/sh\necho contact\n```\n\n" +
		"Tell Breezy who you are:\n\n```bash\nbzr whoami \"<Your Name> <<student-id>@student.example.ac.uk>\"\n```\n\n" +
		"Remove the container:\n\n```bash\ndocker rm <id>\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"~/.units", "pace.sh", "data/books.csv", "~/lab5/contact.sh"}, files, "%v", skipped)
	assert.Equal(t, []string{"sh setup.sh", `bzr whoami "Ada <ada@student.example.ac.uk>"`}, run, "%v", skipped)
	assert.Contains(t, skipped["docker rm <id>"], "needs a value the reader substitutes", "an id that is not the reader's own stays a placeholder")
}

// On a Q&A page the asker's block that makes the file the followed answer works on is
// run; an optional practice folder that later steps use, and that nothing else makes, is
// made; an Obsidian callout's title is a sentence of its own; a shell block presented as
// a file its comment names is that file; a script named alone over its `#!` line is a
// file; a purpose clause does not make a `$` session output, nor "no output means it is"
// an untagged block.
func TestSetupBlocksCalloutsAndFilesNamedAlone(t *testing.T) {
	t.Parallel()
	qa := "# Benchmark one-liners\n\nFor testing I generate a fake log:\n\n```bash\nseq 5 > app.log\n```\n\nThen I time:\n\n```bash\ntime grep -c 1 app.log\n```\n\n## 2 Answers\n\n" +
		"**▲ 4** · ✔ *Accepted*\n\nUse hyperfine:\n\n```bash\nhyperfine 'grep -c 1 app.log'\n```\n\n---\n\nOr loop:\n\n```bash\nfor i in 1 2; do time grep 1 app.log; done\n```\n"
	run, _, skipped, _ := readMD(t, qa)
	assert.Equal(t, []string{"seq 5 > app.log", "hyperfine 'grep -c 1 app.log'"}, run, "%v", skipped)

	md := "# Notes\n\nIf you don't want to try this on your real notes first, make a small practice folder:\n\n```bash\nmkdir -p ~/notes\nprintf 'milk\\n' > ~/notes/list.txt\n```\n\n" +
		"```bash\nrdiff-backup backup ~/notes ~/backups/notes\n```\n\n" +
		"> [!danger] Keep secrets out of git\n> `.envrc` is fine to commit; the secrets file is not.\n\n```bash\nprintf '.env.local\\n' >> .gitignore\n```\n\n" +
		"`.envrc` in the project root:\n\n```bash\n# .envrc for tidewatch\nexport TIDEWATCH_ENV=dev\n```\n\n" +
		"`bin/tide-report`:\n\n```bash\n#!/usr/bin/env bash\necho report\n```\n\n" +
		"Search the whole tree, sorted by path so that everyone's output looks the same:\n\n```console\n$ rg --sort path TODO\ndocs/setup.md\n```\n\n" +
		"Make sure the result really is well-formed XML (no output means it is):\n\n```\nxmllint --noout messy.xhtml\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"mkdir -p ~/notes", "printf 'milk\\n' > ~/notes/list.txt", "rdiff-backup backup ~/notes ~/backups/notes", "printf '.env.local\\n' >> .gitignore", "rg --sort path TODO", "xmllint --noout messy.xhtml"}, run, "%v", skipped)
	assert.Equal(t, []string{".envrc", "bin/tide-report"}, files)
}

// A codelab's `console` blocks hold bare commands (no prompt) and its `output` blocks
// what they print; a file in a folder with no extension is named by "with this
// content"; an exported spreadsheet is a file; `<name>` searched for in a GPX file is an
// element, not the reader's name.
func TestPromptlessConsoleBareFileAndMarkupSearch(t *testing.T) {
	t.Parallel()
	md := "# Lab\n\nMake a folder:\n\n```console\nmkdir -p ~/lab/conf\ncd ~/lab\nequivs-control lab-tools.ctl\n```\n\n" +
		"Build it:\n\n```console\nequivs-build lab-tools.ctl\n```\n\nThe end should look like this:\n\n```console\ndpkg-deb: building package 'lab-tools'\n```\n\n" +
		"Create `conf/distributions` with this content:\n\n```\nCodename: lab\nComponents: main\n```\n\n" +
		"Export the huts list as **`huts.csv`**:\n\n```text\nname,lat,lon\nAlp,46.5,7.9\n```\n\n" +
		"```bash\ngrep '<name>' ridge.gpx\ngrep -c '<Placemark>' export/ridge.kml\ngit config user.name '<your-name>'\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"mkdir -p ~/lab/conf", "cd ~/lab", "equivs-control lab-tools.ctl", "equivs-build lab-tools.ctl",
		"grep '<name>' ridge.gpx", "grep -c '<Placemark>' export/ridge.kml", "git config user.name 'Ada'"}, run)
	assert.Equal(t, []string{"conf/distributions", "huts.csv"}, files)
	assert.Contains(t, skipped, "dpkg-deb: building package 'lab-tools'")
}

// A Killercoda scenario: inline `commands`{{exec}}, a block whose closing fence carries
// {{exec}} (run in the terminal) and one with {{copy}} (text to paste, not run).
func TestKillercodaExecAnnotations(t *testing.T) {
	t.Parallel()
	md := "# Step 1\n\n`sudo apt-get install -y remind`{{exec}}\n\nAppend two lines:\n\n```\ncat >> notes.rem <<'EOF'\nREM Mon MSG Review\nEOF\n```{{exec}}\n\n" +
		"In the **Editor** tab, create `~/lab/holidays.rem`:\n\n```\nOMIT 25 Dec MSG Christmas\n```{{copy}}\n\n`remind notes.rem 2026-12-14`{{exec}}\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt-get install -y remind", "cat >> notes.rem <<'EOF'\nREM Mon MSG Review\nEOF", "remind notes.rem 2026-12-14"}, run)
	assert.Equal(t, []string{"~/lab/holidays.rem"}, files)
}

// An R Markdown / Bookdown chapter: a knitr `cat` chunk writes the file its engine
// options name, outputs carry knitr's "#> " comment, and a Maildir file is named in bold
// with its flags after the colon.
func TestKnitrChunksAndMaildirNames(t *testing.T) {
	t.Parallel()
	md := "# Toy\n\n```{bash, label=\"project\"}\nmkdir -p data\n```\n\nThe `cat` chunk below writes `data/ref.fa` when the book is built.\n\n" +
		"```{cat, engine.opts = list(file = \"data/ref.fa\")}\n>chr1\nGATTACA\n```\n\n```{bash, label=\"faidx\"}\ncut -f 1-2 data/ref.fa\n```\n\n```\n#> >chr1\n#> GATTACA\n```\n\n" +
		"**~/mail/inbox/cur/1699258500.M101P4242.host:2,S**\n\n```\nFrom: a@example.org\nSubject: hi\n\nHello.\n```\n\n*e.g.,* nothing else:\n\n```bash\nls\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var files []string
	expected := map[string]string{}
	for _, s := range read(tut) {
		switch s.kind {
		case fileStep:
			files = append(files, s.file)
		case runStep:
			expected[s.command.Text] = s.expected
		}
	}
	assert.Equal(t, []string{"data/ref.fa", "~/mail/inbox/cur/1699258500.M101P4242.host:2,S"}, files)
	assert.Equal(t, ">chr1\nGATTACA", expected["cut -f 1-2 data/ref.fa"], "knitr's comment is not output")
}

func TestKnitrOutputAndPathsWithColons(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "[1] 2\n\nok", knitrOutput("## [1] 2\n\n## ok"))
	assert.Equal(t, "#> a\nb", knitrOutput("#> a\nb"), "only when every line has it")
	assert.True(t, looksLikePath("~/mail/cur/1699.M1P2.host:2,RS"))
	assert.True(t, looksLikePath("/var/mail/cur/1699.M1P2.host:2,"))
	assert.False(t, looksLikePath("/srv/www/host:8080"), "a host and a port")
	assert.False(t, looksLikePath("/usr/lib:/lib/x"), "a list of paths")
}

// Mintlify's code group of files: each fence's title after the language is the file's
// path; an "Append one more … in the same way:" block adds to the file.
func TestMintlifyTitlesNameFiles(t *testing.T) {
	t.Parallel()
	md := "# Project\n\nAdd these files:\n\n<CodeGroup>\n```python app.py\nprint('hi')\n```\n\n```json config/settings.json\n{}\n```\n</CodeGroup>\n\n" +
		"```yaml .pre-commit-config.yaml\nrepos: []\n```\n\nAppend one more hook in the same way:\n\n```yaml .pre-commit-config.yaml\n  - id: x\n```\n\n```bash npm\nnpm test\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var files []string
	for _, s := range read(tut) {
		if s.kind == fileStep {
			files = append(files, fmt.Sprintf("%s append=%v", s.file, s.appendF))
		}
	}
	assert.Equal(t, []string{"app.py append=false", "config/settings.json append=false", ".pre-commit-config.yaml append=false", ".pre-commit-config.yaml append=true"}, files)
}

// Page-wide platform choices: Microsoft Learn's `:::zone pivot=…` sections and GitHub
// Docs' `{% linux %}` blocks follow Linux; a command the lead names in passing ("it reads
// pcapng files too") and a variable set for the next line are commands; a path the lead
// calls a folder is not the file.
func TestPlatformPivotsAndPassingCommands(t *testing.T) {
	t.Parallel()
	md := "# Install\n\n:::zone pivot=\"platform-linux\"\n\n```bash\nsudo apt install pspp\n```\n\n:::zone-end\n\n:::zone pivot=\"platform-macos\"\n\n```bash\nsudo port install pspp\n```\n\n:::zone-end\n\n" +
		"{% linux %}\n\n```shell\nsudo apt install haxe\n```\n\n{% endlinux %}\n\n{% mac %}\n\n```shell\nhaxelib setup /usr/local/lib\n```\n\n{% endmac %}\n\n" +
		"If you grew up on tcpdump, good news: it reads pcapng files too.\n\n```\ntcpdump -nr queries.pcapng\n```\n\n" +
		"It reads the file name from the `PCAP` variable, so set that once and run it:\n\n```\nPCAP=dns.pcapng\nbash summary.sh\n```\n\n" +
		"Create a `ci` folder with `mkdir -p ci`, then save the following as `ci/run-all.sh`.\n\n```shell\n#!/bin/sh\necho ok\n```\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install pspp", "sudo apt install haxe", "tcpdump -nr queries.pcapng", "PCAP=dns.pcapng", "bash summary.sh"}, run)
	assert.Equal(t, []string{"ci/run-all.sh"}, files)
	assert.Contains(t, skipped["sudo port install pspp"], "platform-macos")
	assert.Contains(t, skipped["haxelib setup /usr/local/lib"], "mac")
}

// ReadMe's adjacent titled fences and docsify-tabs' `#### **…**` tabs are tabs: the Debian
// one is followed, and the headings of the tabs hold nothing after `<!-- tabs:end -->`.
func TestReadMeAndDocsifyTabs(t *testing.T) {
	t.Parallel()
	md := "# Install\n\n```shell Debian / Ubuntu\nsudo apt install tinyproxy\n```\n```shell macOS\nbrew install tinyproxy\n```\n```shell Docker\ndocker run -d vimagick/tinyproxy\n```\n\n" +
		"## Solver\n\n<!-- tabs:start -->\n\n#### **Debian / Ubuntu**\n\n```bash\nsudo apt install gringo\n```\n\n#### **conda**\n\n```bash\nconda install -c potassco clingo\n```\n\n#### **pip**\n\n```bash\npython3 -m pip install --user clingo\n```\n\n<!-- tabs:end -->\n\nThen check that the solver runs:\n\n```bash\nclingo --version\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install tinyproxy", "sudo apt install gringo", "clingo --version"}, run)
	assert.Contains(t, skipped["docker run -d vimagick/tinyproxy"], "tab \"Docker\"")
	assert.Contains(t, skipped["conda install -c potassco clingo"], "tab \"conda\"")
}

func TestCommandsTypedAfterSSHLogin(t *testing.T) {
	t.Parallel()
	md := "# Roll out\n\n```bash\nssh tftp01.lab.example.internal\nsudo rsync -a ~/root/ /srv/tftp/\n```\n\n```bash\nssh localhost\nwhoami\n```\n\n```bash\necho done\n```\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"ssh localhost", "whoami", "echo done"}, run)
	assert.Contains(t, skipped["sudo rsync -a ~/root/ /srv/tftp/"], "typed on `tftp01.lab.example.internal`")
}

// "save this as `fib_py.py` in it:" over a `$ mkdir … && cd …` session names the Python
// block right under it; "in your home directory" is `~`.
func TestFileNamedOverASessionAndTheHomeDirectory(t *testing.T) {
	t.Parallel()
	md := "# Fib\n\nMake a folder for the experiment and save this as `fib_py.py` in it:\n\n```console\n$ mkdir -p ~/cython-fib && cd ~/cython-fib\n```\n\n```python\ndef fib(n):\n    return n\n```\n\n" +
		"Save it as `notes-load` in your home directory:\n\n```sh\n#!/bin/sh\necho loaded\n```\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"mkdir -p ~/cython-fib && cd ~/cython-fib"}, run)
	assert.Equal(t, []string{"fib_py.py", "~/notes-load"}, files)
}

// Writerside's HTML steps name files in <path> tags (`<p>Save the program as
// <path>counter.c</path>:</p>`), and its Markdown prose does too.
func TestWritersideStepsNameFiles(t *testing.T) {
	t.Parallel()
	md := "# Counter\n\n<procedure title=\"Build\" id=\"b\">\n<step>\n<p>Save the settings as <path>settings.txt</path>. Each key is followed by its value:</p>\n\n```text\ntheme\ndark\n```\n\n</step>\n" +
		"<step>\n<p>Save the program as <path>counter.c</path>:</p>\n\n```c\nint main(void) { return 0; }\n```\n\n</step>\n</procedure>\n\n" +
		"The seed environment is built from <path>seed.txt</path>. Save this file:\n\n```text\nversion\n1\n```\n\nSave this <path>Makefile</path> next to it:\n\n```makefile\nall:\n\techo hi\n```\n"
	_, files, _, asks := readMD(t, md)
	assert.Equal(t, []string{"settings.txt", "counter.c", "seed.txt", "Makefile"}, files)
	assert.Empty(t, asks)
}

// Linode's {{< file "path" lang >}} shortcode holds a file's contents; its `command` and
// `output` fences are a command and what it prints (the output compared with what it
// does print, so an error it shows is one the tutorial expects), even under a lead that offers a
// choice ("either a regular expression or a filter file").
func TestLinodeFileShortcodeAndOutputFences(t *testing.T) {
	t.Parallel()
	md := "# Filter\n\n{{< file \"webapp.log\" text >}}\nline one\n{{< /file >}}\n\nIt takes either a regular expression or a filter file. Try this one:\n\n```command\ngrep one webapp.log\n```\n\n```output\nline one\n```\n\n{{< file \"/etc/app/app.ini\" ini >}}\n[app]\n{{< /file >}}\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"grep one webapp.log"}, run)
	assert.Equal(t, []string{"webapp.log", "/etc/app/app.ini"}, files)
	assert.Equal(t, map[string]string{"line one": "output (its fence says so)"}, skipped)
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	for _, s := range read(tut) {
		if s.kind == runStep {
			assert.Equal(t, "line one", s.expected, "the output fence is what the command prints")
		}
	}
}

// A sentence that starts a server in another terminal with its command in code at the
// end is a step of its own; a command named in passing is not.
func TestServerTheProseStarts(t *testing.T) {
	t.Parallel()
	md := "# API\n\nSave it as `~/pantry/api.py`:\n\n```python\nprint('x')\n```\n\nStart it in a second terminal and leave it running: `cd ~/pantry && python3 api.py`\n\nTo serve on another port, `python3 api.py 9000` takes it as its argument. Then ask it for the items:\n\n```bash\ncurl -s localhost:8081\n```\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"~/pantry/api.py"}, files)
	assert.Equal(t, []string{"cd ~/pantry && python3 api.py", "curl -s localhost:8081"}, run)
}

// A sentence that gives a short file line by line in code makes that file, where the
// sentence stands; a sentence that only names the lines it talks about does not.
func TestReadFileGivenLineByLineInProse(t *testing.T) {
	t.Parallel()
	md := "# Tags\n\nCreate *tags.txt* with one tag per line: `backup`, `upload`, `backup`, `disk`.\n\n```bash\nsort -u tags.txt\n```\n\n" +
		"The file `notes.txt` holds the lines you typed: `a` and `b`.\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var files []string
	for _, s := range read(tut) {
		if s.kind == fileStep {
			files = append(files, fmt.Sprintf("%d %s %q", s.line, s.file, s.content))
		}
	}
	assert.Equal(t, []string{`3 tags.txt "backup\nupload\nbackup\ndisk\n"`}, files)
	run, _, _, _ := readMD(t, md)
	assert.Equal(t, []string{"sort -u tags.txt"}, run)
}

// A WordPress post in its block markup: <pre> elements are the blocks, with the text a
// browser shows. A block right under an <h2> section title runs, the comments around
// blocks do not hide the paragraph that introduces one (a file to save) nor the output a
// command shows below it; a sentence saying what a quoted command of the block prints
// does not make the block that output; and the tutorial's own program run again later,
// under prose that only comments on it, is a step.
func TestReadWordPressBlockMarkup(t *testing.T) {
	t.Parallel()
	md := "<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">Install it</h2>\n<!-- /wp:heading -->\n\n" +
		"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>sudo apt install -y jq\njq --version</code></pre>\n<!-- /wp:code -->\n\n" +
		"<!-- wp:paragraph -->\n<p>Make a folder; <code>date +%s</code> prints a different number for you:</p>\n<!-- /wp:paragraph -->\n\n" +
		"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>mkdir -p ~/j &amp;&amp; cd ~/j\ndate +%s</code></pre>\n<!-- /wp:code -->\n\n" +
		"<!-- wp:paragraph -->\n<p>Save the following as <code>a.json</code>:</p>\n<!-- /wp:paragraph -->\n\n" +
		"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>{\"n\": 1}</code></pre>\n<!-- /wp:code -->\n\n" +
		"<!-- wp:paragraph -->\n<p>Read it back:</p>\n<!-- /wp:paragraph -->\n\n" +
		"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>jq .n &lt; a.json</code></pre>\n<!-- /wp:code -->\n\n" +
		"<!-- wp:preformatted -->\n<pre class=\"wp-block-preformatted\">1</pre>\n<!-- /wp:preformatted -->\n\n" +
		"<!-- wp:paragraph -->\n<p>I keep the results in a folder of their own. It stays small.</p>\n<!-- /wp:paragraph -->\n\n" +
		"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>jq -c . a.json &gt; out/a.json\nls out/</code></pre>\n<!-- /wp:code -->\n"
	files, run, expected := readExpected(t, md)
	assert.Equal(t, []string{"sudo apt install -y jq", "jq --version", "mkdir -p ~/j && cd ~/j", "date +%s", "jq .n < a.json", "jq -c . a.json > out/a.json", "ls out/"}, run)
	assert.Equal(t, []string{"a.json"}, files)
	assert.Equal(t, "1", expected["jq .n < a.json"])
}

// One sentence that names two files over two blocks gives them in turn.
func TestReadTwoFilesOneSentence(t *testing.T) {
	t.Parallel()
	md := "# Data\n\nSave the amplicon as `queries/q1.fa` and the primer pair as `queries/primers.fa`:\n\n```fasta\n>s1\nACGT\n```\n\n```fasta\n>fwd\nACG\n```\n\n" +
		"Then look at them:\n\n```fasta\n>shown\nTT\n```\n"
	_, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"queries/q1.fa", "queries/primers.fa"}, files)
}

// A DocC article: the Linux tab of a `@TabNavigator` is followed, the macOS one skipped;
// a placeholder whose value the text's own output uses is given that value.
func TestReadDocCTabsAndAShownValue(t *testing.T) {
	t.Parallel()
	md := "# Sounds\n\n@TabNavigator {\n    @Tab(\"Debian and Ubuntu\") {\n        ```shell\n        sudo apt install -y flac\n        ```\n    }\n\n    @Tab(\"macOS\") {\n        ```shell\n        brew install flac\n        ```\n    }\n}\n\n" +
		"@Steps {\n    @Step {\n        Tag it. Replace `<studio name>` with your studio's name; the output below uses *Lantern Games*.\n\n        ```shell\n        metaflac --set-tag=\"ARTIST=<studio name>\" chime.flac\n        ```\n    }\n}\n"
	run, _, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"sudo apt install -y flac", `metaflac --set-tag="ARTIST=Lantern Games" chime.flac`}, run)
	assert.Contains(t, skipped["brew install flac"], `tab "macOS"`)
}

// A gist: each file under a heading that names it; the README says to save them into the
// folder it makes, so they are written there, wherever the page shows them. A one-line
// command right under a numbered heading runs; a sentence that says what a script it
// quotes prints introduces `./script`, not its output.
func TestReadGistFilesGoIntoTheFolder(t *testing.T) {
	t.Parallel()
	md := "#### 📄 build.sh · [Raw](https://gist.example/raw/build.sh)\n\n```sh\n#!/bin/sh\necho built\n```\n\n" +
		"#### 📄 README.md · [Raw](https://gist.example/raw/README.md)\n\n# Handout\n\nPut the files of this gist in one folder. Make the folder yourself and save each file into it:\n\n```\nmkdir -p ~/handout && cd ~/handout\n```\n\n" +
		"## 2. Quick look\n\n```\nmutool draw -r 72 -o preview.png handout.pdf 1\n```\n\n" +
		"## 3. All in one go\n\n`build.sh` redoes it and prints what it built:\n\n```\n./build.sh\n```\n\n```\nbuilt\n```\n\n" +
		"#### 📄 notes.txt · [Raw](https://gist.example/raw/notes.txt)\n\n```text\nsome notes\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var order []string
	for _, s := range read(tut) {
		switch s.kind {
		case runStep:
			order = append(order, "run "+s.command.Text)
		case fileStep:
			order = append(order, "write "+s.file)
		}
	}
	assert.Equal(t, []string{"run mkdir -p ~/handout && cd ~/handout", "write build.sh", "write notes.txt", "run mutool draw -r 72 -o preview.png handout.pdf 1", "run ./build.sh"}, order)
	assert.Equal(t, "build.sh", headingFile("📄 build.sh · [Raw](https://gist.example/raw/build.sh)"))
	assert.Equal(t, "", headingFile("2. Quick look"))
	assert.Equal(t, "", headingFile("Build the site"))
}

// A file given as the last words of its sentence ("its own small file, `rain.cdl`:"); a
// block whose first comment names it and which the next block runs; that run, one line
// right under it; output introduced by "which gives".
func TestReadFilesNamedByTheirUse(t *testing.T) {
	t.Parallel()
	md := "# Notes\n\nRain comes from a separate logger, so it gets its own small file, `rain.cdl`:\n\n```\nnetcdf rain {\n}\n```\n\n" +
		"Same thing in Python:\n\n```python\n# portcheck.py - connect() to each port\nimport sys\nprint(sys.argv[1:])\n```\n\n```\npython3 portcheck.py 8000\n```\n\n" +
		"Save this as `p.sh`:\n\n    #!/bin/sh\n    echo \"$1 open\"\n\nand run it like this:\n\n    sh p.sh 8000\n\nwhich gives\n\n    8000 open\n"
	files, run, expected := readExpected(t, md)
	assert.Equal(t, []string{"rain.cdl", "portcheck.py", "p.sh"}, files)
	assert.Equal(t, []string{"python3 portcheck.py 8000", "sh p.sh 8000"}, run)
	assert.Equal(t, "8000 open", expected["sh p.sh 8000"])
}

// A Google Docs export to Markdown: code in one-cell tables and in paragraphs that are one
// code span, file names in bold captions with the export's backslash escapes, an option
// in bold that the lead explains, and an install under a sentence about output.
func TestWordProcessorExport(t *testing.T) {
	t.Parallel()
	md := "# **Word diffs** {#h.x}\n\n" +
		"```\nsudo apt-get install -y dwdiff\n```\n\n" +
		"Plain `diff` output is easier to read in colour, so also install the filter:\n\n" +
		"| `sudo apt-get install -y colordiff` |\n| :---- |\n\n" +
		"Check the version:\n\n`dwdiff --version`\n\n" +
		"**\\~/review/drafts/loans\\-v1.txt**\n\n```\nMembers may borrow eight items.\n```\n\n" +
		"**\\-s** prints statistics (to the error output):\n\n```\ndwdiff -s drafts/loans-v1.txt drafts/loans-v2.txt > /dev/null\n```\n\n" +
		"In colour:\n\n| `diff -u drafts/loans-v1.txt drafts/loans-v2.txt \\| colordiff` |\n| :---- |\n\n" +
		"The file `notes.txt` is where you keep them:\n\n`notes.txt`\n\n" +
		"| Document | Version |\n| :---- | :---- |\n| `IT-07` | 0.3 |\n"
	files, run, _ := readExpected(t, md)
	assert.Equal(t, []string{"~/review/drafts/loans-v1.txt"}, files)
	assert.Equal(t, []string{
		"sudo apt-get install -y dwdiff",
		"sudo apt-get install -y colordiff",
		"dwdiff --version",
		"dwdiff -s drafts/loans-v1.txt drafts/loans-v2.txt > /dev/null",
		"diff -u drafts/loans-v1.txt drafts/loans-v2.txt | colordiff",
	}, run)
	assert.Equal(t, `**~/x/a-b.txt** and \* in `+"`sed 's/\\./-/'`", unescapeProse(`**\~/x/a\-b.txt** and \\\* in `+"`sed 's/\\./-/'`"))
}

// A value one letter from one the program lists as accepted.
func TestNearChoice(t *testing.T) {
	t.Parallel()
	// lnav 0.11.1 (src/lnav_config.cc) on an unknown theme
	lnav := "✘ error: invalid value for property “/ui/theme”\n reason: unknown theme -- “monokai”\n = help: The available themes are: default, eldar, grayscale, monocai, night-owl, solarized-dark, solarized-light"
	word, choice := nearChoice("lnav -n -N -c ':config /ui/theme monokai'", lnav)
	assert.Equal(t, "monokai", word)
	assert.Equal(t, "monocai", choice)
	// Python 3.11's argparse
	word, choice = nearChoice("python3 tool.py --format jsn", "tool.py: error: argument --format: invalid choice: 'jsn' (choose from 'json', 'yaml', 'csv')")
	assert.Empty(t, word, "three letters are too few to tell")
	word, choice = nearChoice("python3 tool.py --format yamll", "tool.py: error: argument --format: invalid choice: 'yamll' (choose from 'json', 'yaml', 'csv')")
	assert.Equal(t, []string{"yamll", "yaml"}, []string{word, choice})
	word, _ = nearChoice("lnav -c ':config /ui/theme solarized'", lnav)
	assert.Empty(t, word, "no theme is that close")
}

// A pull request's "How to test" has the reader save the files of its "Files" section
// first: they are written where it says, before the steps that use them.
func TestFilesSavedFromASectionBelow(t *testing.T) {
	t.Parallel()
	md := "# Add a format #48\n\n### How to test\n\n" +
		"- [ ] Make a scratch folder and save the two files from the *Files* section below in it:\n" +
		"  ```sh\n  mkdir -p ~/fmt && cd ~/fmt\n  ```\n" +
		"- [ ] Run it:\n  ```sh\n  python3 tools/gen.py | sort\n  ```\n\n" +
		"### Files (copies, for reviewers)\n\n" +
		"<details><summary><code>tools/gen.py</code></summary>\n\n```python\nprint('b')\nprint('a')\n```\n\n</details>\n\n" +
		"<details><summary><code>tools/notes.txt</code></summary>\n\n```text\nhello\n```\n\n</details>\n"
	order := readOrder(t, md, func(s step) string { return "write " + s.file })
	assert.Equal(t, []string{"mkdir -p ~/fmt && cd ~/fmt", "write tools/gen.py", "write tools/notes.txt", "python3 tools/gen.py | sort"}, order)
	// lnav 0.11.1 refuses a setting with a marked error line and exits 0
	assert.Equal(t, "✘ error: invalid value for property “/ui/theme”", reportedError("lnav -n -N -c ':config /ui/theme monokai'", "✘ error: invalid value for property “/ui/theme”\n reason: unknown theme -- “monokai”", ""))
}

// "Save your `wordfreq.icn` there, plus this `sample.txt`": the block is sample.txt, and
// the file shown before is saved again in the folder the reader is now in.
func TestSaveYourFileThereAndThisOne(t *testing.T) {
	t.Parallel()
	md := "# Words\n\nMy counter, saved as `count.py`:\n\n```python\nprint(1)\n```\n\n" +
		"Make a folder:\n\n```sh\nmkdir -p ~/ex && cd ~/ex\n```\n\n" +
		"Save your `count.py` there, plus this `sample.txt` to test with:\n\n```text\na b a\n```\n\n" +
		"```sh\npython3 count.py < sample.txt\n```\n"
	order := readOrder(t, md, func(s step) string { return "write " + s.file + ": " + strings.TrimSpace(s.content) })
	assert.Equal(t, []string{"write count.py: print(1)", "mkdir -p ~/ex && cd ~/ex", "write count.py: print(1)", "write sample.txt: a b a", "python3 count.py < sample.txt"}, order)
}

// A Hugo Book page: a file collapsed under {{< details "name" open >}}, a file named after
// a comma at the end of the lead, and "Put the module there:" over commands that copy it
// (the next file does not go there).
func TestHugoBookDetailsAndAppositionFile(t *testing.T) {
	t.Parallel()
	md := "# Tides\n\nSave this in the project folder as `Tides.pmod`:\n\n{{< details \"Tides.pmod\" open >}}\n```c\nint x = 1;\n```\n{{< /details >}}\n\n" +
		"Pike finds modules through `PIKE_MODULE_PATH`. Put the module there:\n```bash\nmkdir -p ~/mods\ncp Tides.pmod ~/mods/\n```\n\n" +
		"Now a report that uses it, `report.pike`:\n```c\nimport Tides;\n```\n\n" +
		"Save this as `store.pike`:\n```c\nint main() { return 0; }\n```\n"
	files, _, _ := readExpected(t, md)
	assert.Equal(t, []string{"Tides.pmod", "report.pike", "store.pike"}, files)
}

// A Zenn article's fences (```c:lookup.c names the file, ```bash:terminal does not), a
// file saved "in `~/bin`, as `x`", a line added "to the same anacrontab" (not to the
// script written last), and an optional step ("if you also want …").
func TestZennFencesAndThreadFiles(t *testing.T) {
	t.Parallel()
	md := "# KV\n\n```bash:terminal\nsudo apt install -y gcc\n```\n\n```c:lookup.c\nint main(void) { return 0; }\n```\n\n" +
		"sure, second job. save it next to the first one in `~/bin`, as `prune.sh`:\n\n```sh\n#!/bin/sh\necho pruned\n```\n\n" +
		"then add one line to the same anacrontab, weekly is plenty:\n\n```\n7 10 notes.prune $HOME/bin/prune.sh\n```\n\n" +
		"if you also want the tarballs off the laptop, rclone works fine (needs a remote):\n\n```sh\nrclone copy ~/backups gdrive:laptop\n```\n\n" +
		"check it:\n\n```sh\nanacron -T -t ~/.local/etc/anacrontab\n```\n"
	got := readOrder(t, md, func(s step) string { return "write " + joinDir(s.dir, s.file) })
	assert.Equal(t, []string{"sudo apt install -y gcc", "write lookup.c", "write ~/bin/prune.sh", "anacron -T -t ~/.local/etc/anacrontab"}, got)
	assert.True(t, reDate.MatchString("20260309"), "anacron's timestamp")
	assert.False(t, reDate.MatchString("20261399"))
	assert.True(t, reStopServer.MatchString("<kbd>Ctrl</kbd>+<kbd>C</kbd>, then start the persistent server."))
}

// Page styles of DocBook articles converted by pandoc, Jira tickets, Slack exports, Zenn
// articles and Grav pages: where their commands and files are.
func TestReadDocBookJiraSlackZennAndGravPages(t *testing.T) {
	t.Parallel()
	// pandoc keeps DocBook's <screen> as the fence's class; a Jira caption has a remark
	// after the file's name
	md := "# Pages\n\n``` screen\n$ mkdir -p doc && cd doc\n```\n\n" +
		"*Makefile* (new version for `host/`; `CC` is left to the caller)\n\n```makefile\nall:\n\techo hi\n```\n\n" +
		"``` screen\n$ make all\n```\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"mkdir -p doc && cd doc", "make all"}, run)
	assert.Equal(t, []string{"Makefile"}, files)

	// a Slack export's attachments; what a run prints "something like this" is output,
	// not the file the sentence names
	md = "# #tools\n\n```bash\nmkdir -p ~/h && cd ~/h\n```\n\n📎 **notes/a.md** · Markdown · 2 lines\n\n```markdown\n# A\n```\n\n" +
		"📎 **build.sh** · Shell · 3 lines\n\n```sh\n#!/bin/sh\nfor f in notes/*.md; do echo \"$f\"; done\n```\n\n```bash\nsh build.sh\n```\n\n" +
		"After you save `notes/a.md` you get something like this:\n\n```\nnotes/a.md\n```\n"
	run, files, _, _ = readMD(t, md)
	assert.Equal(t, []string{"mkdir -p ~/h && cd ~/h", "sh build.sh"}, run)
	assert.Equal(t, []string{"notes/a.md", "build.sh"}, files)

	// Zenn's ```diff:fw.hex shows a change, it is not the file; a name without an
	// extension after "as"; Grav's [ui-tabs]
	md = "# Zenn\n\n```bash:terminal\nxxd fw.bin > fw.hex\n```\n\n```diff:fw.hex\n-00000000: 0201\n+00000000: 0301\n```\n\n" +
		"Save it next to the export as `SHA256SUMS`:\n\n```text\n0000  orders.csv\n```\n\n" +
		"[ui-tabs position=\"top-left\" active=\"0\"]\n[ui-tab title=\"Debian / Ubuntu\"]\n```bash\nsudo apt-get install -y csvtool\n```\n[/ui-tab]\n" +
		"[ui-tab title=\"macOS\"]\n```bash\nopam install csvtool\n```\n[/ui-tab]\n[/ui-tabs]\n"
	run, files, skipped, _ := readMD(t, md)
	assert.Equal(t, []string{"xxd fw.bin > fw.hex", "sudo apt-get install -y csvtool"}, run)
	assert.Equal(t, []string{"SHA256SUMS"}, files)
	assert.Contains(t, skipped["opam install csvtool"], `tab "macOS"`)
}

// A file a side note gives to save is saved when a step outside the note uses it; one
// no step uses stays optional.
func TestFileInASideNoteThatALaterStepUses(t *testing.T) {
	t.Parallel()
	md := "# Users\n\n<Callout kind=\"tip\" title=\"One script\">\n\nSave this as `gen.sh`:\n\n```bash\n#!/usr/bin/env bash\necho gen\n```\n\n</Callout>\n\n" +
		"<Callout kind=\"tip\" title=\"Extra\">\n\nSave this as `extra.sh`:\n\n```bash\n#!/usr/bin/env bash\necho extra\n```\n\n</Callout>\n\n```bash\nbash gen.sh\n```\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"bash gen.sh"}, run)
	assert.Equal(t, []string{"gen.sh"}, files)
}

// Output that a command exits 0 on but that shows it did not do its work.
func TestReportedErrorsOfLocalesTildesAndQuotedVariables(t *testing.T) {
	t.Parallel()
	// bash 5.2's warning for a locale the system has not generated
	warn := "bash: line 1: warning: setlocale: LC_ALL: cannot change locale (ja_JP.UTF-8): No such file or directory"
	assert.Equal(t, warn, reportedError("export LC_ALL=ja_JP.UTF-8", warn, ""))
	assert.Empty(t, reportedError("wc -m kana.txt", warn, ""), "only the step that sets the locale")
	// num-utils 0.5's numbound on a quoted `~` path, exit 0
	assert.Equal(t, "Couldn't open file ~/steps/w.txt for reading: No such file or directory",
		reportedError(`numbound "$STEPS"`, "Couldn't open file ~/steps/w.txt for reading: No such file or directory", ""))
	// mini_httpd 1.30 forks, exits 0, and its child cannot enter the folder
	assert.Equal(t, "chdir: No such file or directory", reportedError(`mini_httpd -p 8080 -d "~/www"`, "bind: Address already in use\nchdir: No such file or directory", ""))
	// a variable in single quotes, printed as written where the page shows its value
	out := "{\n   \"heading\": \"No results for \\\"$QUERY\\\"\"\n}"
	assert.Equal(t, `"heading": "No results for \"$QUERY\""`, reportedError(`jo -p heading='No results for "$QUERY"' | tee e.json`, out, `"heading": "No results for \"lamp\""`))
	assert.Empty(t, reportedError(`jo -p heading='No results for "$QUERY"'`, out, `"heading": "No results for \"$QUERY\""`), "the page shows it as written")
	assert.Empty(t, reportedError(`jo -p heading='No results for "$QUERY"'`, out, ""), "nothing shown to compare with")
}

func TestWatchersRunUntilStopped(t *testing.T) {
	t.Parallel()
	assert.True(t, isServer("ls notes/*.md | entr ./check.sh"))
	assert.True(t, isServer("ls out/*.html | entr -r python3 serve.py"))
	assert.False(t, isServer("ls a.md | entr -z make"), "-z exits after the first run")
	assert.False(t, isServer("sudo apt-get install -y entr"))
}

// Fixes named from errors alone: cron's field ranges, bash's `**`, an argument a script
// reads under `set -u`, a locale to generate.
func TestKnownErrorFixes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ss := &session{}
	// Debian's cron 3.0pl1 (entry.c) refusing an hour of 24
	assert.Contains(t, knownErrorFix(ctx, ss, "\"-\":0: bad hour\nerrors in crontab file, can't install."), "hour (0-23)")
	// bash 5.2 with globstar off
	fix := knownErrorFix(ctx, ss, "ls: cannot access 'notes/**/*.md': No such file or directory")
	assert.Contains(t, fix, "shopt -s globstar")
	assert.Contains(t, fix, "find notes -name '*.md'")
	assert.Contains(t, knownErrorFix(ctx, ss, "./check.sh: line 3: $1: unbound variable"), "`/_`")
	assert.Contains(t, knownErrorFix(ctx, ss, "bash: line 1: warning: setlocale: LC_ALL: cannot change locale (de_DE.UTF-8): No such file or directory"), "echo 'de_DE.UTF-8 UTF-8' | sudo tee -a /etc/locale.gen && sudo locale-gen")
	// (no sandbox: the checksum is not computed)
	assert.Contains(t, knownErrorFix(ctx, ss, "orders.csv: FAILED\nsha256sum: WARNING: 1 computed checksum did NOT match"), "the checksum the list gives for `orders.csv`")
	assert.True(t, reCrontabInstall.MatchString("echo '0 24 * * * x' | crontab -"))
	assert.True(t, reCrontabInstall.MatchString("crontab jobs.txt"))
	assert.False(t, reCrontabInstall.MatchString("crontab -l"))
}

// A quoted `~` path is found as a word of the command line, not inside another quoted
// argument whose program expands it; a runner that echoes the single-quoted command it
// runs does not count as printing the variable.
func TestQuotedTildeWordsAndEchoedCommands(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{`"~/www"`, `"`, "www"}, quotedTildeArg(`mini_httpd -p 8080 -d "~/www" -l x`))
	assert.Nil(t, quotedTildeArg(`python3 -c 'open(os.path.expanduser("~/n.txt"))'`))
	assert.Nil(t, quotedTildeArg(`STEPS="~/w.txt"`), "an assignment: quotedTilde's")
	assert.Empty(t, shownValueQuoted(`runner 'cat "$LOG"'`, "Benchmark 1: cat \"$LOG\"\nError: exit 1", "hello"))
}

// DokuWiki's <code> and <file> blocks and paths in its monospace; a block under "save it as
// `x` and run it" that runs x is commands, not x.
func TestReadDokuWikiBlocks(t *testing.T) {
	t.Parallel()
	md := "====== Calendar ======\n\n<code bash>\nmkdir -p ~/.config/cal\ncd ~\ncal --version\n</code>\n\n" +
		"Then save this as ''~/.config/cal/conf'':\n\n<file ini conf>\nformat=4\n</file>\n\n" +
		"The export script:\n\n<file bash publish.sh>\n#!/bin/sh\necho published\n</file>\n\n" +
		"Save it as ''~/publish.sh'' and run it:\n\n<code bash>\nchmod +x publish.sh\n./publish.sh\n</code>\n\n<code>\npublished\n</code>\n"
	run, files, _, _ := readMD(t, md)
	assert.Equal(t, []string{"mkdir -p ~/.config/cal", "cd ~", "cal --version", "chmod +x publish.sh", "./publish.sh"}, run)
	assert.Equal(t, []string{"~/.config/cal/conf", "publish.sh"}, files)
}

func TestBSDSedLinkerAndKeyFixes(t *testing.T) {
	t.Parallel()
	m := reBSDSedInPlace.FindStringSubmatch(`sed -i '' -E 's/a/b/' f.txt`)
	require.NotNil(t, m)
	assert.Equal(t, "sed -i", m[1])
	assert.Nil(t, reBSDSedInPlace.FindStringSubmatch(`sed -i 's/a/b/' f.txt`))
	// tcc 0.9.27's link error
	lib, fn := missingLib("tcc: error: undefined symbol 'sqrt'")
	assert.Equal(t, []string{"m", "sqrt"}, []string{lib, fn})
	// OpenSSH 9.2
	assert.Contains(t, knownErrorFix(context.Background(), &session{}, "Permissions 0644 for 'ci-test-key' are too open.\nThis private key will be ignored."), "chmod 600 ci-test-key")
	assert.False(t, namesArg("Couldn't load public key k: No such file or directory", "file"), "a word of the error is no argument")
	assert.True(t, namesArg("Input file /home/u/html not found", "html"))
}

// Redmine's Textile: a numbered item ("# Make a folder:") reads as a Markdown heading but
// introduces the block under it, and @name@ is code; "to the same folder" saves a file
// where the one before it went; a block that pipes into `wc -l` is commands, whatever
// the sentence says it prints.
func TestTextileItemsSameFolderAndPipedBlocks(t *testing.T) {
	md := "h2. Feature #1\n\n# Make a working folder and go there:\n<pre>\nmkdir -p ~/nightly/out\ncd ~/nightly\n</pre>\n" +
		"# Save @mkfeed.sh@ next to it:\n<pre><code class=\"shell\">\n#!/bin/sh\necho feed\n</code></pre>\n\n" +
		"I added @publish.sh@ to the same folder:\n\n<pre><code class=\"shell\">\n#!/bin/sh\necho published\n</code></pre>\n\n" +
		"`build-program` runs gcc behind the scenes and prints a few lines of its own:\n\n```bash\n./logtime < events.log | wc -l\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	var got []string
	for _, s := range read(tut) {
		switch s.kind {
		case runStep:
			got = append(got, "run "+s.command.Text)
		case fileStep:
			got = append(got, "file "+s.file+" beside="+s.beside)
		}
	}
	assert.Equal(t, []string{"run mkdir -p ~/nightly/out", "run cd ~/nightly", "file mkfeed.sh beside=", "file publish.sh beside=mkfeed.sh", "run ./logtime < events.log | wc -l"}, got)
}
