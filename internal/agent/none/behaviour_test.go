package none

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Behaviours of the deterministic Student on tutorials of our own, in a real container.

func TestCascadeIsFoldedIntoItsRootCause(t *testing.T) {
	t.Parallel()
	md := "# Widget\n\n```bash\nfrobnicate --scaffold proj\ncd proj\nfrobnicate build\n```\n\nThen check the build:\n\n```bash\nls build/\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 4, f.Line)
	assert.Contains(t, f.Problem, "`frobnicate` is not installed")
	assert.Contains(t, f.AlsoAt, 6, "the same tool again is a consequence")
	assert.Contains(t, f.Fix, "before line 4")
}

func TestNetworkFailuresAreUnverifiedNotGaps(t *testing.T) {
	t.Parallel()
	md := "# Download\n\n```bash\ncurl -fsSL https://downloads.invalid/tool.tar.gz -o tool.tar.gz\ntar xzf tool.tar.gz\n```\n\n```bash\ncurl -fsSL https://get.invalid/install.sh | sh\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "the sandbox's missing network is not the tutorial's fault")
	require.NotNil(t, res.Coverage)
	assert.Len(t, res.Coverage.Unverified, 3, "%+v", res.Coverage.Unverified)
	assert.Contains(t, res.Coverage.Unverified[1].Reason, "depends on line 4")
	assert.Contains(t, res.Coverage.Inconclusive, "could not be checked", "a run that verified nothing never passes")
}

func TestDeclaredPrerequisiteIsAnEnvironmentFinding(t *testing.T) {
	t.Parallel()
	md := "# Service\n\n## Prerequisites\n\n- [Go](https://go.dev/doc/install) 1.22 or later\n\n## Build\n\n```bash\ngo version\ngo build ./...\n```\n\n```bash\nsystemctl start myservice\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	goF, sysF := res.Findings[0], res.Findings[1]
	assert.True(t, goF.Environment)
	assert.Contains(t, goF.Problem, "Go is a prerequisite the tutorial names (line 5)")
	assert.Contains(t, goF.Fix, "setup list")
	assert.Equal(t, []int{11}, goF.AlsoAt)
	assert.True(t, sysF.Environment)
	assert.Contains(t, sysF.Problem, "systemd")
}

func TestProvenFixes(t *testing.T) {
	t.Parallel()
	md := "# Script\n\nCreate `hello.sh` with the following content:\n\n```bash\n#!/bin/sh\necho hello from the script\n```\n\nRun it:\n\n```bash\n./hello.sh\n```\n\n" +
		"## Commit\n\n```bash\ngit init repo\ncd repo\ngit commit --allow-empty -m first\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	chmod, ident := res.Findings[0], res.Findings[1]
	assert.Equal(t, 13, chmod.Line)
	assert.Contains(t, chmod.Fix, "chmod +x hello.sh")
	requireProven(t, chmod)
	assert.Equal(t, "chmod +x hello.sh\n./hello.sh", chmod.Edit.Replace, "a committable suggestion in the block's own style")
	assert.Equal(t, 21, ident.Line)
	assert.Contains(t, ident.Fix, "git config --global user.name")
	requireProven(t, ident)
}

func TestUnprovenFixSaysWhy(t *testing.T) {
	t.Parallel()
	md := "# Greeting\n\n```console\n$ ./greet.sh\nhello\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1)
	f := res.Findings[0]
	assert.Nil(t, f.Edit, "no concrete change for a script that is never created")
	assert.Nil(t, f.FixVerified)
}

func TestInstallAfterFirstUse(t *testing.T) {
	t.Parallel()
	md := "# Query\n\n```bash\necho '{\"a\":1}' | jqx .a\n```\n\n## Installing jqx\n\nIf you have not installed it yet:\n\n```bash\nsudo apt-get install -y jqx\n```\n"
	res, _ := attempt(t, md, nil)
	require.NotEmpty(t, res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 4, f.Line)
	assert.Contains(t, f.Problem, "before the step that installs it (line 12")
	assert.Contains(t, f.Fix, "move the install step")
}

func TestCoverageCountsWhatRanAndWhatWasSkipped(t *testing.T) {
	t.Parallel()
	md := "# Counts\n\n```bash\necho one\n```\n\n=== \"Windows\"\n\n    ```powershell\n    Write-Host two\n    ```\n\n=== \"Linux\"\n\n    ```bash\n    echo two\n    ```\n\nSave this as `a.txt`:\n\n```text\nthree\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings)
	c := res.Coverage
	require.NotNil(t, c)
	assert.Equal(t, 2, c.Run)
	assert.Equal(t, 1, c.Files)
	assert.Equal(t, 4, c.Blocks)
	require.Len(t, c.Skipped, 1)
	assert.Contains(t, c.Skipped[0].Reason, "Windows")
	assert.Empty(t, c.Inconclusive)
	assert.Equal(t, loop.StudentCompleted, res.Status)
	assert.True(t, strings.Contains(res.Summary, "2 of 2 command(s) run, 0 unverified, 1 skipped"), res.Summary)
}

func TestDiagnosesThatNameTheRealCause(t *testing.T) {
	t.Parallel()
	md := "# Env\n\n```bash\npython3 -m venv --without-pip env\n```\n\nActivate it:\n\n```bash\nsource .venv/bin/activate\n```\n\n" + // 10
		"## Repo\n\n```bash\ngit init -q repo && cd repo\ngit -c user.name=a -c user.email=a@b commit -q --allow-empty -m one\ngit switch trunk\n```\n\n" + // 16
		"## Serve\n\n```bash\npython3 -m http.server 8099\n```\n\nCheck it:\n\n```bash\ncurl -sf http://localhost:8098/\n```\n" // 28
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	assert.Contains(t, res.Findings[0].Problem, "the virtual environment `env` does", "names the venv that exists")
	assert.Contains(t, res.Findings[1].Problem, "`git init` names the first branch `master`")
	assert.Contains(t, res.Findings[2].Problem, "listens on port 8099")
	assert.Equal(t, []int{10, 18, 30}, []int{res.Findings[0].Line, res.Findings[1].Line, res.Findings[2].Line})
}

func TestDeliberateErrorsAndShownOutput(t *testing.T) {
	t.Parallel()
	md := "# Errors\n\nThis fails on purpose:\n\n```console\n$ python3 -c 'int(\"x\")'\nValueError: invalid literal for int() with base 10: 'x'\n```\n\n" +
		"Count the lines:\n\n```console\n$ printf 'a\\nb\\n' | wc -l\n3\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "the deliberate error is not a gap: %+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 13, f.Line)
	assert.Contains(t, f.Problem, "the tutorial shows 3")
	assert.Equal(t, "medium", f.Severity)
}

func TestPromptsGetEnterAndATerminalCheckIsUnverified(t *testing.T) {
	t.Parallel()
	md := "# Ask\n\n```bash\nread -p 'Press ENTER to continue' x && echo accepted\n```\n\n```bash\n[ -t 0 ] || { echo 'input is not a terminal'; exit 1; }\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "Enter at a prompt is what a newcomer does; a terminal check is the sandbox's limit")
	require.NotNil(t, res.Coverage)
	require.Len(t, res.Coverage.Unverified, 1)
	assert.Equal(t, 8, res.Coverage.Unverified[0].Line)
	assert.Contains(t, res.Coverage.Unverified[0].Reason, "asked for input at a prompt")
	require.NotEmpty(t, res.Commands)
	assert.Contains(t, res.Commands[0].Output, "accepted")
}

func TestRootOnlyStepsProjectsAndSimilarFiles(t *testing.T) {
	t.Parallel()
	md := "# Site\n\n```bash\nsudo apt-get --version >/dev/null\nmkdir -p /var/www/site\n```\n\n" + // 5
		"## Docs\n\nSave this as `book/Makefile`:\n\n```make\nall:\n\t@echo built\n```\n\n```bash\nmake all\n```\n\n" + // 16
		"## Keys\n\n```bash\nmkdir -p keys && touch keys/id_rsa.pub\ncat keys/id_ed25519.pub\n```\n" // 22
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	// the learner is not root: its own run fails, and the diagnosis says why
	assert.Contains(t, res.Findings[0].Problem, "mkdir: cannot create directory")
	assert.Contains(t, res.Findings[0].Problem, "belongs to root and the reader's shell is not root")
	assert.Contains(t, res.Findings[0].Fix, "run line 5 with sudo: `sudo mkdir -p /var/www/site`")
	var lines []int
	for _, f := range res.Findings {
		lines = append(lines, f.Line)
		switch f.Line {
		case 18:
			// smile-lite has no make: the missing tool is the root cause here (the
			// Makefile-in-a-subdirectory hint is exercised by testdata/corpus-blind)
			assert.Contains(t, f.Problem, "`make` is not installed")
		case 25:
			assert.Contains(t, f.Problem, "`keys/id_rsa.pub` does")
		}
	}
	assert.ElementsMatch(t, []int{5, 18, 25}, lines)
}

// A reader who hits a gap applies its fix and goes on: the later, independent gap is
// found on its own (a push to main from a repository whose branch is master), the
// commits after the identity gap work, and nothing after the recovered step is blamed
// on it.
func TestRecoveryFindsTheNextIndependentGap(t *testing.T) {
	t.Parallel()
	md := "# Share\n\n```bash\ngit init --bare ~/remote.git\ngit clone ~/remote.git work\ncd work\necho hi > README.md\ngit add README.md\ngit commit -m first\ngit push -u origin main\n```\n\n" +
		"```bash\necho more >> README.md\ngit commit -am second\ngit push origin main\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	ident, push := res.Findings[0], res.Findings[1]
	assert.Equal(t, 9, ident.Line)
	assert.Contains(t, ident.Fix, "git config --global user.name")
	assert.Empty(t, ident.AlsoAt, "the reader set an identity and went on: the second commit works")
	assert.Equal(t, 10, push.Line)
	assert.Contains(t, push.Problem, "master")
	assert.Contains(t, push.Fix, "git branch -M main")
	assert.Empty(t, push.AlsoAt, "after `git branch -M main` the later push works")
	require.NotNil(t, res.Coverage)
	assert.Empty(t, res.Coverage.Unverified, "a push to a repository on this machine needs no network")
	var recovered int
	for _, n := range res.Coverage.Heuristics {
		if strings.Contains(n.Reason, "went on after applying the fix") {
			recovered++
		}
	}
	assert.Equal(t, 2, recovered)
}

// A failure the prose right after foresees, with its remedy, is not a gap; a program
// writing into a directory nothing creates is, with `mkdir -p` as its fix; output shown
// for a step that fails because the step before it failed is folded into that gap.
func TestForeseenFailuresMissingDirectoriesAndOutputAfterAFailure(t *testing.T) {
	t.Parallel()
	md := "# Notes\n\nCheck for the checksum tool:\n\n```\n$ xxd -v\n```\n\nIf you get `command not found`, install it with `sudo apt-get install -y xxd`.\n\n" +
		"## Save a note\n\n```bash\npython3 -c 'open(__import__(\"os\").path.expanduser(\"~/.local/share/notes/n.txt\"), \"a\").write(\"x\\n\")'\n```\n\n" +
		"```bash\npython3 -c 'import sys; sys.exit(3)'\n```\n\nThe folder now holds:\n\n```console\n$ ls ~/.local/share/notes\nn.txt\nold.txt\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	dir, exit3 := res.Findings[0], res.Findings[1]
	assert.Equal(t, 14, dir.Line)
	assert.Contains(t, dir.Fix, "mkdir -p ~/.local/share/notes")
	assert.Equal(t, 18, exit3.Line)
	assert.Equal(t, []int{24}, exit3.AlsoAt, "the listing right after a failed step depends on it")
	require.NotNil(t, res.Coverage)
	var foreseen bool
	for _, n := range res.Coverage.Heuristics {
		foreseen = foreseen || n.Line == 6 && strings.Contains(n.Reason, "foresees")
	}
	assert.True(t, foreseen, "%+v", res.Coverage.Heuristics)
}

// A server the heuristics do not know, stopped by the timeout and started again in
// the background, does not collide with itself: the timeout kills the first one.
func TestUnknownServerIsRestartedCleanly(t *testing.T) {
	t.Parallel()
	md := "# Serve\n\n```bash\necho ready\n```\n\n```bash\npython3 -c 'import http.server as h; print(\"listening on 8765\", flush=True); h.HTTPServer((\"127.0.0.1\", 8765), h.SimpleHTTPRequestHandler).serve_forever()'\n```\n\n" +
		"```bash\ncurl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8765/\n```\n"
	// long enough for python to start and say it listens on a loaded runner
	res, _ := attempt(t, md, func(b *config.StudentBehavior) { b.TimeoutSeconds = 10 })
	assert.Empty(t, res.Findings, "%+v", res.Findings)
	require.Len(t, res.Commands, 3)
	assert.True(t, res.Commands[1].Background, "%+v", res.Commands[1])
	assert.Contains(t, res.Commands[2].Output, "200")
}

// A module an error names is installed from Debian as the fix (and the reader goes on);
// a command the prose says keeps running is a server from the start; a failure the prose
// right after states is deliberate.
func TestModulesServersAndStatedFailures(t *testing.T) {
	t.Parallel()
	md := "# Config\n\n```bash\npython3 -c 'import yaml; print(yaml.safe_dump({\"a\": 1}))'\n```\n\n" +
		"Start the listener; it keeps running until you press Ctrl+C:\n\n```bash\npython3 -c 'import http.server as h; h.HTTPServer((\"127.0.0.1\", 8766), h.SimpleHTTPRequestHandler).serve_forever()'\n```\n\n" +
		"```bash\ncurl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8766/\n```\n\n" +
		"```bash\npython3 -c 'import sys; sys.exit(2)'\n```\n\nThis one exits with status 2, on purpose.\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 4, f.Line)
	assert.Contains(t, f.Fix, "sudo apt-get install -y python3-yaml")
	require.Len(t, res.Commands, 4)
	assert.True(t, res.Commands[1].Background, "%+v", res.Commands[1])
	assert.Contains(t, res.Commands[2].Output, "200")
}

// A pipeline cut short by `head` fails only under pipefail; a reader's shell shows no
// failure, so neither does the run.
func TestPipeCutShortByHeadIsNotAFailure(t *testing.T) {
	t.Parallel()
	res, _ := attempt(t, "# Peek\n\n```bash\nyes line | head -n 3\n```\n", nil)
	assert.Empty(t, res.Findings, "%+v", res.Findings)
	require.Len(t, res.Commands, 1)
	assert.Equal(t, 0, res.Commands[0].ExitCode)
}

// A writer that fails before `head` reads anything fails for the reader too: they see its
// error and nothing else. logs.tgz is logs.tar.gz written short.
func TestPipeWhoseWriterFailsBeforeHead(t *testing.T) {
	t.Parallel()
	md := "# Peek\n\n```bash\ntar -czf logs.tar.gz /etc/hostname 2>/dev/null\ntar -tf logs.tgz | head -n 3\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := findingOn(t, res.Findings, md, "tar -tf logs.tgz")
	assert.Contains(t, f.Problem, "`logs.tar.gz` does", "the short suffix names the same kind of archive")
}

// A file the prose says the reader gets from someone else is not the tutorial's gap.
// So is it when a file the reader made has a name like it (alex.asc beside colleague.asc).
func TestFileFromSomeoneElseIsUnverified(t *testing.T) {
	t.Parallel()
	for name, md := range map[string]string{
		"alone": "# Keys\n\nTo read the notes your colleague sent you:\n\n```bash\ncat colleague-notes.txt\n```\n",
		"beside a file like it": "# Keys\n\nExport your own key:\n\n```bash\necho 'my key' > alex.asc\n```\n\n" +
			"To import someone else's public key that they sent you:\n\n```bash\ncat colleague.asc\n```\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, _ := attempt(t, md, nil)
			assert.Empty(t, res.Findings, "%+v", res.Findings)
			require.NotNil(t, res.Coverage)
			require.Len(t, res.Coverage.Unverified, 1)
			assert.Contains(t, res.Coverage.Unverified[0].Reason, "from someone else")
		})
	}
}

// A fence titled with a path without extension (Docusaurus title="bin/greet") and a
// MyST code-block with a :caption: option are files; the option lines are not content.
// A script that a test file the failing command runs calls as ./name needs chmod.
func TestTitledFilesCaptionsAndScriptsRunByTests(t *testing.T) {
	t.Parallel()
	md := "# Greeter\n\n```bash\nmkdir -p bin tests\n```\n\n" + // 1-5
		"```bash title=\"bin/greet\"\n#!/bin/sh\necho \"hi $1\"\n```\n\n" + // 7-10
		"```{code-block} python\n:caption: tests/run_greet.py\n:linenos:\n\nimport subprocess, sys\nout = subprocess.run([\"./bin/greet\", \"Ada\"], capture_output=True, text=True)\nsys.exit(0 if out.stdout == \"hi Ada\\n\" else 1)\n```\n\n" + // 12-19
		"Run the test:\n\n```bash\npython3 tests/run_greet.py\n```\n\n" + // 21-25
		"Then greet directly:\n\n```bash\n./bin/greet Bo\n```\n" // 27-31
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 24, f.Line)
	assert.Contains(t, f.Problem, "`bin/greet`, which the tutorial created, is not executable")
	assert.Contains(t, f.Fix, "chmod +x bin/greet")
	assert.Empty(t, f.AlsoAt, "after chmod the direct run works")
	var paths []string
	for _, w := range res.Files {
		paths = append(paths, w.Path)
	}
	assert.Contains(t, strings.Join(paths, " "), "/bin/greet")
	assert.Contains(t, strings.Join(paths, " "), "/tests/run_greet.py")
}

// A program that writes into a relative directory nothing created gets `mkdir -p` as
// its fix; a file named two ways is a mismatch, and what the failed step would have
// written is a consequence of it; a shown success followed by an error is not a
// deliberate failure.
func TestOutputDirectoriesNameMismatchesAndErrorsAfterShownOutput(t *testing.T) {
	t.Parallel()
	md := "# Sorting\n\n```bash\nprintf 'b\\na\\n' > names-v1.txt\nsort names-v1.txt -o out/sorted.txt\n```\n\n" + // 1-6
		"```bash\nsort name-v1.txt -o merged.txt\n```\n\n```bash\nwc -l merged.txt\n```\n\n" + // 8-14
		"```bash\nsh -c 'echo preparing names; echo \"error: the index is corrupt\" >&2; exit 1'\n```\n\nThe output looks similar to:\n\n```text\npreparing names\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	dir, name, shown := res.Findings[0], res.Findings[1], res.Findings[2]
	assert.Equal(t, 5, dir.Line)
	assert.Contains(t, dir.Fix, "mkdir -p out")
	requireProven(t, dir)
	assert.Equal(t, 9, name.Line)
	assert.Contains(t, name.Problem, "`name-v1.txt` does not exist, but `names-v1.txt` does")
	assert.Empty(t, name.AlsoAt, "with the name the tutorial wrote, merged.txt is written and line 13 works")
	requireProven(t, name)
	assert.Equal(t, 17, shown.Line)
}

// Installs and builds get more time than ordinary commands; commands of one Debian
// package are one tool.
func TestDebianGroupsAndRequiredFiles(t *testing.T) {
	t.Parallel()
	assert.Equal(t, toolOf("xgettext").Name, toolOf("msginit").Name)
	assert.Equal(t, "sudo apt-get install -y gettext", toolOf("msgfmt").Debian)
	assert.Equal(t, "sudo apt-get install -y imagemagick", toolOf("mogrify").Debian)
	assert.Empty(t, toolsNamed("Any file will do, in a tree of your choice."), "everyday words are not tools")
	assert.Equal(t, []string{"NEWS", "AUTHORS"}, requiredFiles("Makefile.am: error: required file './NEWS' not found\nMakefile.am: error: required file './AUTHORS' not found\nMakefile.am: error: required file './NEWS' not found"))
	assert.True(t, repeatsStart("import os\nx = 1\n", "import os\nx = 1\ny = 2\n"))
	assert.False(t, repeatsStart("import os\n", "def f():\n    pass\n"))
}

// "Add … at the end of calc.py:" over a "Filename: calc.py" caption appends.
func TestAppendUnderAFilenameCaption(t *testing.T) {
	t.Parallel()
	md := "# Calc\n\nCreate *calc.py*:\n\nFilename: calc.py\n\n```python\ntotal = 2 + 3\n```\n\n" +
		"Add a report and print it at the end of *calc.py*:\n\nFilename: calc.py\n\n```python\nprint(\"total\", total)\n```\n\n" +
		"```console\n$ python3 calc.py\ntotal 5\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "%+v", res.Findings)
	require.NotEmpty(t, res.Commands)
	assert.Contains(t, res.Commands[len(res.Commands)-1].Output, "total 5")
}

// "Stop watching with Ctrl+C." over the page's first long-running command says how to
// end that command: it keeps running, and is no gap.
func TestStopOrderOverFirstWatcherKeepsItRunning(t *testing.T) {
	t.Parallel()
	md := "# Watch\n\nSave this as `watch.py`:\n\n```python\nimport time\n\nwhile True:\n    time.sleep(1)\n```\n\n" +
		"Let it re-check every second while you work. Stop watching with <kbd>Ctrl</kbd>+<kbd>C</kbd>.\n\n```bash\npython3 watch.py\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "%+v", res.Findings)
	require.NotEmpty(t, res.Commands)
	assert.False(t, res.Commands[len(res.Commands)-1].TimedOut)
}

// "never ends up in your shell history" is no server: the exports of the block stay in
// the session.
func TestExportsUnderProseThatMentionsNeverEnding(t *testing.T) {
	t.Parallel()
	assert.False(t, reKeepsRunning.MatchString("The password is read from a file so it never ends up in your shell history:"))
	assert.True(t, reKeepsRunning.MatchString("The watcher never exits on its own:"))
	assert.True(t, keepsRunning("Open a **second terminal** and start NSD in the foreground (`-d`); it runs until Ctrl-C."), "Ctrl-C written with a hyphen")
	md := "# Vars\n\nExport it; the value is kept in a file so it never ends up in your shell history:\n\n```bash\nexport APP_HOME=~/app\n```\n\n```bash\ntest -n \"$APP_HOME\" && echo set\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "%+v", res.Findings)
	require.Len(t, res.Commands, 2)
	assert.Equal(t, "set", res.Commands[1].Output)
}

// A script that opens a data file under another name than the one the tutorial saved
// is a name mismatch that names the saved file.
func TestScriptOpensTheDataFileUnderAnotherName(t *testing.T) {
	t.Parallel()
	md := "# Grades\n\nSave the data as `grades.csv`:\n\n```csv\nann,12\nbob,15\n```\n\n" +
		"Save the script as `average.py`:\n\n```python\nrows = open('marks.csv').read().split()\nprint(len(rows))\n```\n\n```bash\npython3 average.py\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	assert.Equal(t, 18, res.Findings[0].Line)
	assert.Contains(t, res.Findings[0].Problem, "`marks.csv` does not exist, but `grades.csv` does")
}

// A file saved in the folder the tutorial made, used from where the session is, gets
// `cd folder` as its fix (the tilde understood); a failure the lead announces ("on
// purpose") or the prose quotes ("You will see `…`") is no gap.
func TestFolderNeverEnteredAndAnnouncedFailures(t *testing.T) {
	t.Parallel()
	md := "# Lab\n\nMake a folder for this lab. **Save every file from this sheet in it.**\n\n```bash\nmkdir -p ~/lab5\n```\n\n" +
		"Save the following as `count.py`:\n\n```python\nimport sys\nprint(len(open(sys.argv[1]).read().split()))\n```\n\n" +
		"and this as `words.txt`:\n\n```text\none two three\n```\n\nRun it:\n\n```bash\npython3 count.py words.txt\n```\n\n" +
		"Try it on purpose with a file that is not there:\n\n```bash\npython3 count.py nothing.txt\n```\n\n" +
		"Once more:\n\n```bash\npython3 -c 'import sys; sys.exit(\"ERROR: no words at all\")'\n```\n\nYou will see `ERROR: no words at all`.\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 25, f.Line)
	assert.Contains(t, f.Problem, "the tutorial saved `count.py` in `~/lab5`")
	assert.Contains(t, f.Fix, "add `cd ~/lab5` before line 25")
	require.NotNil(t, f.Edit)
	assert.Equal(t, []string{"cd ~/lab5"}, f.Edit.InsertBefore)
}

// What a server the tutorial started logs while a request fails is the evidence; an
// error it logs that an earlier step already hit is folded into that step's gap.
func TestServerLogExplainsAFailedRequest(t *testing.T) {
	t.Parallel()
	md := "# API\n\nCheck the helper module:\n\n```bash\npython3 -c 'import frobzlib'\n```\n\n" +
		"Save this as `app.py`:\n\n```python\nimport http.server\n\nclass H(http.server.BaseHTTPRequestHandler):\n    def do_GET(self):\n" +
		"        if self.path == '/a':\n            import frobzlib\n        undefined_helper()\n\n" +
		"http.server.HTTPServer(('127.0.0.1', 8765), H).serve_forever()\n```\n\n" +
		"Start it; it keeps running until you press Ctrl+C:\n\n```bash\npython3 app.py\n```\n\n" +
		"In a second terminal:\n\n```console\n$ curl -s localhost:8765/a\nok\n$ curl -s localhost:8765/b\nok\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	root, server := res.Findings[0], res.Findings[1]
	assert.Equal(t, 6, root.Line)
	assert.Contains(t, root.AlsoAt, 32, "the server fails on the same missing module")
	assert.Equal(t, 34, server.Line)
	assert.Contains(t, server.Problem, "NameError: name 'undefined_helper' is not defined")
}

// An option the installed program does not know names the Debian package and version
// the image has, as a newer-version lead.
func TestUnknownOptionNamesTheInstalledVersion(t *testing.T) {
	t.Parallel()
	md := "# Archive\n\n```bash\ntar --frobnicate -cf x.tar /etc/hostname\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	assert.Contains(t, res.Findings[0].Problem, "`tar` here is Debian's tar 1.34")
	assert.Contains(t, res.Findings[0].Fix, "say which version of tar line 4 needs")
}

// An apt install of a name Debian only knows as a virtual package is the tutorial's gap
// (the package lists are there), naming the packages that provide it; the reader
// installs one of them and goes on.
func TestVirtualPackageNamesItsProviders(t *testing.T) {
	t.Parallel()
	md := "# Awk\n\n```bash\nsudo apt-get install -y awk\nawk 'BEGIN { print 6 * 7 }'\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 4, f.Line)
	assert.Contains(t, f.Problem, "Debian has no installable package `awk`")
	assert.Contains(t, f.Problem, "mawk")
	assert.Contains(t, f.Fix, "instead of `awk` at line 4")
	require.NotNil(t, res.Coverage)
	assert.Contains(t, fmt.Sprint(res.Coverage.Heuristics), "in its place")
}

// An error that points at a line of a file the tutorial wrote is reported where the reader
// gets stuck, the command that showed it, and names that line of the tutorial as what to
// change (file contents are not where a newcomer notices anything).
func TestErrorInAWrittenFileIsLocatedInItsBlock(t *testing.T) {
	t.Parallel()
	md := "# Totals\n\nSave this as `total.py`:\n\n```python\nprices = [3, 4]\ntotal = sum(prices)\nprint(totl)\n```\n\nRun it:\n\n```bash\npython3 total.py\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 14, f.Line)
	assert.Contains(t, f.Problem, "NameError")
	assert.Contains(t, f.Problem, "the error points at line 8, in the file the tutorial wrote (`print(totl)`)", "print(totl) is line 3 of total.py, line 8 of the tutorial")
	assert.Contains(t, f.Fix, "correct line 8 of the file")
}

// A script that writes into a folder nothing created gets `mkdir -p` as its fix when the
// error quotes the path from the script.
func TestOutputFolderNamedInsideAScript(t *testing.T) {
	t.Parallel()
	md := "# Chart\n\nSave this as `plot.py`:\n\n```python\nimport sys\nout = 'charts/t.txt'\ntry:\n    open(out, 'w').write('x')\nexcept OSError as e:\n    sys.exit(f\"set output '{out}': cannot open file: {e.strerror}\")\n```\n\n```bash\npython3 plot.py\nls charts\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 15, f.Line)
	assert.Contains(t, f.Fix, "mkdir -p charts")
}

// A hook the tutorial wrote without making it executable is named by the program that
// could not run it: `chmod +x` is the fix.
func TestHookThatIsNotExecutable(t *testing.T) {
	t.Parallel()
	md := "# Hooks\n\n```bash\nmkdir -p hooks\n```\n\nSave this as `hooks/pre-commit`:\n\n```bash\n#!/bin/sh\nexit 0\n```\n\nCommit:\n\n```bash\nhooks/pre-commit 2>/dev/null || { echo 'Commit blocked by pre-commit hook (exit code 255) with no output.'; exit 1; }\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	assert.Contains(t, res.Findings[0].Fix, "chmod +x hooks/pre-commit")
}

// A script a here-document wrote, run through a Perl wrapper that dies naming its own
// source under /usr (moreutils' chronic: "permission denied: ./check.sh at
// /usr/bin/chronic line 69."), misses its execute bit; the wrapper's folder is not one
// the reader should write to with sudo.
func TestHeredocScriptRunThroughAWrapper(t *testing.T) {
	t.Parallel()
	md := "# Quiet\n\n```bash\nprintf '#!/usr/bin/perl\\nexec(@ARGV) or die \"permission denied: $ARGV[0]\";\\n' > quiet\nsudo install -m 755 quiet /usr/local/bin/quiet\n```\n\n" +
		"Create the check:\n\n```bash\ncat > check.sh <<'EOF'\n#!/bin/sh\necho ok\nEOF\n```\n\nRun it quietly:\n\n```bash\nquiet ./check.sh\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := findingOn(t, res.Findings, md, "quiet ./check.sh")
	assert.Contains(t, f.Fix, "chmod +x check.sh")
	assert.NotContains(t, f.Fix, "sudo")
}

// "Save it as nightly.sh:" above nothing but a site generator's include line: the file's
// content is never given, which the first command that needs it shows.
func TestFileTheTutorialNeverShows(t *testing.T) {
	t.Parallel()
	md := "# Nightly\n\nThe sample repository has the whole script. Save it as *nightly.sh*:\n\n[!code-bash[](~/samples/nightly.sh)]\n\nMake it executable and run it:\n\n```bash\nchmod +x nightly.sh\n./nightly.sh\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := findingOn(t, res.Findings, md, "chmod +x nightly.sh")
	assert.Contains(t, f.Problem, "line 3 says to save `nightly.sh`")
	assert.Contains(t, f.Problem, "[!code-bash[](~/samples/nightly.sh)]")
	assert.Equal(t, []int{lineOf(md, "./nightly.sh")}, f.AlsoAt)
}

// A file the tutorial gives only a section after the step that needs it: the step that
// fails says so, and the fix moves the file up.
func TestFileGivenOnlyAfterItsFirstUse(t *testing.T) {
	t.Parallel()
	md := "# Table\n\nSave this as `table.sh`:\n\n```sh\nwhile read -r a; do echo \"$a\"; done < cases.tsv\n```\n\nRun it:\n\n```bash\nsh table.sh\n```\n\n## Cases\n\n```bash\ncat > cases.tsv <<'EOF'\none\nEOF\nsh table.sh\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := findingOn(t, res.Findings, md, "sh table.sh")
	assert.Contains(t, f.Problem, "gives `cases.tsv` only at line 18")
	assert.Contains(t, f.Fix, "before line 12")
}

// A pattern that matched nothing goes to the program as it is written; the program's "No
// such file" is a failure even when the loop's `||` keeps the status at 0.
func TestGlobThatMatchedNothing(t *testing.T) {
	t.Parallel()
	md := "# Run all\n\n```bash\nmkdir -p tests\necho 'echo ok' > tests/test_a.sh\ncd tests\n```\n\nRun every test file:\n\n```bash\nfor t in tests/test_*.sh; do sh \"$t\" || status=1; done\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	findingOn(t, res.Findings, md, "for t in tests/test_*.sh")
	assert.Contains(t, res.Findings[0].Fix, "cd ")
}

// A program that names the missing file by its full path (BaseX's "Resource
// '/home/…/data/authors.xml' not found.") still names the file the tutorial's query asks
// for: the name differs from the one the tutorial saved.
func TestMissingFileNamedInFull(t *testing.T) {
	t.Parallel()
	md := "# Join\n\n```bash\nmkdir -p data\n```\n\nSave the authors as `data/author.xml`:\n\n```xml\n<authors/>\n```\n\nSave the query as `join.sh`:\n\n```sh\n[ -f data/authors.xml ] || { echo \"Resource '$PWD/data/authors.xml' not found.\" >&2; exit 1; }\n```\n\n```bash\nsh join.sh\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := findingOn(t, res.Findings, md, "sh join.sh")
	assert.Contains(t, f.Problem, "`data/author.xml` does")
}

// A variable set without `export` several steps before the program that reads it from its
// environment, whose error names it (nats-server's "variable reference for 'LAB_TOKEN'
// … can not be found" for its configuration's $LAB_TOKEN).
func TestUnexportedVariableTheErrorNames(t *testing.T) {
	t.Parallel()
	md := "# Token\n\n```bash\nLAB_TOKEN=$(tr -dc 'a-z' < /dev/urandom | head -c 8)\necho \"token set\"\npython3 -c 'import os,sys; os.environ.get(\"LAB_TOKEN\") or sys.exit(\"variable reference for LAB_TOKEN can not be found\")'\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	assert.Contains(t, res.Findings[0].Fix, "export LAB_TOKEN")
}

// A make run where there is no makefile ("don't know how to make all") while the
// tutorial saved one in another folder: the missing step is the cd. A program that fails
// in silence on a script that is not there, while one of a near name is, was given the
// wrong name.
func TestMakefileElsewhereAndASilentMissingScript(t *testing.T) {
	t.Parallel()
	md := "# Build\n\n```bash\nmkdir -p ~/.local/bin ~/src/hi\nprintf '#!/bin/sh\\n[ -f Makefile ] || { echo \"bmake: don\\047t know how to make $1. Stop\" >&2; exit 2; }\\n' > ~/.local/bin/bmake\nprintf '#!/bin/sh\\n[ -f \"$1\" ] || exit 1\\n' > ~/.local/bin/runlisp\nchmod +x ~/.local/bin/bmake ~/.local/bin/runlisp\nexport PATH=\"$HOME/.local/bin:$PATH\"\n```\n\n" +
		"Save this as `~/src/hi/Makefile`:\n\n```make\nall:\n\techo built\n```\n\n```bash\nbmake all\n```\n\nSave this as `hello.lsp`:\n\n```lisp\n(println \"hi\")\n```\n\n```bash\nrunlisp hello-world.lsp\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	assert.Contains(t, findingOn(t, res.Findings, md, "bmake all").Fix, "cd ~/src/hi")
	assert.Contains(t, findingOn(t, res.Findings, md, "runlisp hello-world.lsp").Problem, "`hello.lsp` does")
}

// A step whose failed run left a file empty (make's `./mkversion.sh > version.h`) fails
// again after its fix, on that file: the fix also removes it, and later steps failing the
// same way follow from the one gap.
func TestFailedRunLeavesAnEmptyFile(t *testing.T) {
	t.Parallel()
	md := "# Version\n\nSave this as `main.c`:\n\n```c\nint main(void) { return HELLO_VERSION; }\n```\n\nSave this as `mkversion.sh`:\n\n```sh\n#!/bin/sh\necho '#define HELLO_VERSION 0'\n```\n\n" +
		"Save this as `build.sh`:\n\n```sh\n[ -e version.h ] || ./mkversion.sh > version.h || exit 1\ngrep -q HELLO_VERSION version.h || { echo \"main.c:1:32: error: 'HELLO_VERSION' undeclared\" >&2; exit 1; }\n```\n\n" +
		"```bash\nsh build.sh\n```\n\nBuild again later:\n\n```bash\nsh build.sh\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Fix, "chmod +x mkversion.sh")
	assert.Contains(t, f.Fix, "rm version.h")
	assert.Equal(t, []int{lineOf(md, "Build again later") + 3}, f.AlsoAt)
}

// A Python module is named by the package that installs its files, as the archive's
// Contents index says: `dns` is python3-dnspython's (an arch-all package, listed in
// Contents-all), not Debian's python3-dns, another library.
func TestPythonModuleByTheFilesOfItsPackage(t *testing.T) {
	t.Parallel()
	md := "# Resolve\n\n```bash\npython3 -c 'import dns.resolver'\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	assert.Contains(t, res.Findings[0].Fix, "python3-dnspython")
}

// A module the tutorial wrote in a directory the interpreter does not search is a
// load-path gap, fixed by exporting the interpreter's path variable.
func TestModuleOffTheLoadPath(t *testing.T) {
	t.Parallel()
	md := "# Modules\n\n```bash\nmkdir -p ~/proj/lib/util\n```\n\nSave this as `~/proj/lib/util/text.py`:\n\n```python\ndef shout(s):\n    return s.upper()\n```\n\n" +
		"and this as `~/proj/main.py`:\n\n```python\nfrom util.text import shout\nprint(shout('hi'))\n```\n\n```bash\ncd ~/proj\npython3 main.py\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "not on the interpreter's load path")
	require.NotNil(t, f.Edit)
	assert.Equal(t, []string{`export PYTHONPATH="$HOME/proj/lib${PYTHONPATH:+:$PYTHONPATH}"`}, f.Edit.InsertBefore)
	assert.True(t, f.FixVerified != nil && *f.FixVerified, "%+v", f)
}

// With SkipFixChecks (smile-action eval) the gap is the same and its fix is not re-run.
func TestSkipFixChecks(t *testing.T) {
	t.Parallel()
	md := "# Script\n\nCreate `hello.sh` with the following content:\n\n```bash\n#!/bin/sh\necho hello\n```\n\nRun it:\n\n```bash\n./hello.sh\n```\n"
	res, _, _ := attemptWith(t, &Student{Grace: 2 * time.Second, SkipFixChecks: true}, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Fix, "chmod +x hello.sh")
	assert.Nil(t, f.FixVerified)
	assert.Empty(t, f.FixEvidence)
}

// A query that fails silently right after a failed step is a consequence of it.
func TestSilentQueryAfterAFailureIsAConsequence(t *testing.T) {
	t.Parallel()
	md := "# Setup\n\n```bash\npython3 -c 'import sys; sys.exit(\"setup failed: no such profile\")'\ngit config --global user.name\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	assert.Equal(t, 4, res.Findings[0].Line)
	assert.Equal(t, []int{5}, res.Findings[0].AlsoAt)
}

// Output shown as a session typed into an interactive program is not compared.
func TestInteractiveSessionOutputIsNotCompared(t *testing.T) {
	t.Parallel()
	md := "# Plot\n\n```console\n$ python3 -q\nplot> show 'temps.dat'\nplot> quit\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "%+v", res.Findings)
}

func TestMissingLibraryIsPlacedOnTheLinkRule(t *testing.T) {
	t.Parallel()
	// the build prints what GNU ld 2.40 (Debian bookworm) prints for pow() without -lm;
	// the container has no compiler, so a script stands in for make's output
	md := "# Areas\n\nSave this as `Makefile`:\n\n```make\nCC = gcc\n\narea: area.o\n\t$(CC) -o area area.o\n\narea.o: area.c\n\t$(CC) -c area.c\n```\n\n" + // 1-14
		"Build it:\n\n```bash\nprintf 'gcc -o area area.o\\n/usr/bin/ld: area.o: in function `main'\\'':\\narea.c:(.text+0x2f): undefined reference to `pow'\\''\\ncollect2: error: ld returned 1 exit status\\n' >&2; exit 2\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 9, f.Line, "the link rule, not the command that ran it: %s", f.Problem)
	assert.Equal(t, []int{18}, f.AlsoAt)
	assert.Contains(t, f.Problem, "`pow` is in the library `libm`")
	assert.Contains(t, f.Fix, "`-lm`")
}

func TestMissingLibFunctions(t *testing.T) {
	for out, want := range map[string]string{
		"calc.y:31: undefined reference to `pow'":              "m pow",
		"undefined reference to `sqrtf'":                       "m sqrtf",
		"ld.lld: error: undefined symbol: sqlite3_open":        "sqlite3 sqlite3_open",
		"main.c:(.text+0x9): undefined reference to `initscr'": "ncurses initscr",
		"undefined reference to `yywrap'":                      "fl yywrap",
		"undefined reference to `my_helper'":                   " ",
		"undefined reference to `pthread_create'":              " ",
	} {
		lib, fn := missingLib(out)
		assert.Equal(t, want, lib+" "+fn, out)
	}
}

func TestNameMismatchInsideWrittenFilesIsPlacedOnTheFile(t *testing.T) {
	t.Parallel()
	md := "# Pages\n\nSave the header as `layouts/partials/header.html`:\n\n```html\n<header>Notes</header>\n```\n\n" + // 1-8
		"Save the page as `layouts/page.html`:\n\n```html\n{{ partial \"head.html\" . }}\n```\n\n" + // 9-14
		"Save the renderer as `render.py`:\n\n```python\nimport pathlib, re\npage = pathlib.Path(\"layouts/page.html\").read_text()\nfor name in re.findall(r'partial \"([^\"]+)\"', page):\n" +
		"    if not (pathlib.Path(\"layouts/partials\") / name).exists():\n        raise SystemExit(f'error calling partial: partial \"{name}\" not found')\n```\n\n" + // 15-24
		"Render it:\n\n```bash\npython3 render.py\n```\n" // 25-29
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 5, f.Line, "the block that saved the file under the other name: %s", f.Problem)
	assert.Equal(t, []int{28}, f.AlsoAt)
	assert.Contains(t, f.Problem, "`layouts/partials/header.html` does")
}

// An apt install that names a command where Debian's package has another name is the
// tutorial's gap, naming the package; the reader installs it and goes on.
func TestCommandNamedAsAPackageNamesItsPackage(t *testing.T) {
	t.Parallel()
	md := "# Search\n\n```bash\nsudo apt-get install -y ag\nag --version\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 4, f.Line)
	assert.Contains(t, f.Problem, "Debian packages it as `silversearcher-ag`")
	assert.Contains(t, f.Fix, "install `silversearcher-ag` instead of `ag` at line 4")
	require.Len(t, res.Commands, 2)
	assert.Zero(t, res.Commands[1].ExitCode, "ag runs once the reader installed its package: %s", res.Commands[1].Output)
}

// Of the packages named like a wrong one, the reader takes the one holding the command
// the tutorial runs next (protobuf-compiler has protoc; the shorter protobuf-codegen is
// Rust's generator), and a folder an option names that the program will not create
// ("gen/: No such file or directory") is the one to make.
func TestWrongPackageTakesTheOneWithTheNextCommand(t *testing.T) {
	t.Parallel()
	md := "# Protobuf\n\n```bash\nsudo apt-get install -y protobuf\nprotoc --version\n```\n\n" + // 1-6
		"Save `proto/point.proto`:\n\n```protobuf\nsyntax = \"proto3\";\nmessage Point { int32 x = 1; }\n```\n\n" + // 7-14
		"```bash\nprotoc -I proto --python_out=gen proto/point.proto\nls gen\n```\n" // 15-18
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 4, f.Line)
	assert.Contains(t, f.Problem, "`protobuf-compiler` provides `protoc`")
	assert.Contains(t, f.Fix, "install `protobuf-compiler` instead of `protobuf` at line 4")
	g := res.Findings[1]
	assert.Equal(t, 16, g.Line)
	assert.Contains(t, g.Problem, "the directory `gen` does not exist")
	assert.Contains(t, g.Fix, "mkdir -p gen")
	last := res.Commands[len(res.Commands)-1]
	assert.Equal(t, "ls gen", last.Command)
	assert.Zero(t, last.ExitCode, "protoc wrote into gen/ once the reader made it: %s", last.Output)
}

// A server that fails at start but stays up without listening (Django's autoreloader
// waiting for a fix) is the gap, on the line that started it, with what it raised; the
// request that cannot connect is its consequence.
func TestServerThatNeverListensIsTheGap(t *testing.T) {
	t.Parallel()
	md := "# Serve\n\nSave this as `serve.py`:\n\n```python\nimport sys, time, traceback\ntry:\n    include\nexcept NameError:\n    print('Exception in thread main-thread:', file=sys.stderr)\n    traceback.print_exc()\nsys.stderr.flush()\nwhile True:\n    time.sleep(1)\n```\n\n" + // 1-16
		"Start the server and leave it running:\n\n```bash\npython3 serve.py\n```\n\nIn a second terminal, fetch the page:\n\n```bash\ncurl http://127.0.0.1:8000/\n```\n" // 17-27
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 20, f.Line)
	assert.Equal(t, []int{26}, f.AlsoAt)
	assert.Contains(t, f.Problem, "keeps running but never serves: it logs `NameError: name 'include' is not defined`")
}

func TestFailureKeyIgnoresTheErrorClass(t *testing.T) {
	assert.Equal(t, failureKey("python manage.py makemigrations books", "No installed app with label 'books'."),
		failureKey("python manage.py migrate books", "CommandError: No installed app with label 'books'."))
	assert.NotEqual(t, failureKey("python a.py", "NameError: x"), failureKey("python b.py", "NameError: y"))
}

// "Create `books/urls.py`" writes there, even when the project has another urls.py the
// reader could have meant by a bare name.
func TestFileWithADirectoryIsWrittenWhereItSays(t *testing.T) {
	t.Parallel()
	md := "# App\n\n```bash\nmkdir -p site books\necho old > site/urls.py\n```\n\nCreate `books/urls.py`:\n\n```python\nx = 1\n```\n\n```bash\ncat books/urls.py site/urls.py\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "%+v", res.Findings)
	require.Len(t, res.Commands, 3)
	assert.Equal(t, "x = 1\nold", strings.TrimSpace(res.Commands[2].Output))
}

// A path that is not where the tutorial looks but one folder down (a setting sent the
// output to docs/) is named, with nothing to create.
func TestPathOneFolderDownIsNamed(t *testing.T) {
	t.Parallel()
	md := "# Site\n\n```bash\nmkdir -p docs/html && touch docs/html/index.html\n```\n\nThe site is written to `html/`; look at what you got:\n\n```bash\nls html/index.html\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 10, f.Line)
	assert.Contains(t, f.Problem, "`html/index.html` is not there, but `docs/html/index.html` is")
	assert.Nil(t, f.Edit, "nothing to create")
}

func TestKeyLineSkipsTheAbortNotice(t *testing.T) {
	out := "Searching for files in directory src\nwarning: tag INPUT: input source 'README.md' does not exist\nerror: source 'README.md' is not a readable file or directory... skipping.\n (warning treated as error, aborting now)\n"
	assert.Equal(t, "error: source 'README.md' is not a readable file or directory... skipping.", keyLine(out))
	// MariaDB 10.11's log ends in "[ERROR] Aborting" under the errors that say why
	out = "2026-11-27  3:51:26 0 [ERROR] Can't start server : Bind on unix socket: No such file or directory\n" +
		"2026-11-27  3:51:26 0 [ERROR] Do you already have another server running on socket: /run/mysqld/mysqld.sock ?\n2026-11-27  3:51:26 0 [ERROR] Aborting\n"
	assert.Contains(t, keyLine(out), "/run/mysqld/mysqld.sock")
	// fail2ban 1.0 opens its log lines with a time stamp, its name and pid: run to run
	// they differ, and they say nothing
	out = "2026-12-07 10:53:14,681 fail2ban                [1169]: ERROR   Could not find server\n"
	assert.Equal(t, "ERROR   Could not find server", keyLine(out))
	// POV-Ray 3.7 closes every parse error with the same two lines
	out = "File 'table.pov' line 4: Parse Error: Cannot open include file fcc-palette.inc.\nFatal error in parser: Cannot parse input.\nRender failed\n"
	assert.Equal(t, "File 'table.pov' line 4: Parse Error: Cannot open include file fcc-palette.inc.", keyLine(out))
}

// `cd` into a folder no step makes, right after an unrelated failure, is its own gap;
// an untagged "# " block on a "$ " page is root's prompt.
func TestCdAfterAnUnrelatedFailureAndRootPrompts(t *testing.T) {
	t.Parallel()
	md := "# Restore\n\nCreate the parent directory:\n\n```\n# mkdir -p /srv/backup/store\n```\n\nCheck it:\n\n```\n$ ls -d /srv/backup/store\n/srv/backup/store\n```\n\n" + // 1-15
		"Prune:\n\n```\n$ ls --no-such-flag\n```\n\nChange to an empty directory:\n\n```\n$ cd ~/restore\n```\n" // 15-25
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	assert.Equal(t, 19, res.Findings[0].Line)
	assert.Equal(t, 25, res.Findings[1].Line)
	assert.Contains(t, res.Findings[1].Fix, "mkdir -p ~/restore")
}

// An install command written at root's prompt in a table row is what the Debian reader
// types (with sudo when they are not root).
func TestRootPromptInstallInATable(t *testing.T) {
	t.Parallel()
	md := "# Search\n\n| Distribution | Command |\n|---|---|\n| Arch Linux | `# pacman -S the_silver_searcher` |\n| Debian | `# apt install silversearcher-ag` |\n\n```\n$ ag --version\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "%+v", res.Findings)
	require.NotNil(t, res.Coverage)
	assert.Contains(t, fmt.Sprint(res.Coverage.Heuristics), "installed with `sudo apt install -y silversearcher-ag`, which the prose gives at line 6")
}

// A file written into a folder that exists only inside the project the tutorial just
// generated means the reader was to go into the project: `cd` is the fix. A step that
// publishes to the reader's own remote is the environment's limit, not a gap.
func TestProjectFolderNeverEnteredAndPublishing(t *testing.T) {
	t.Parallel()
	md := "# Site\n\n```bash\nmkdir -p garden-notes/docs && touch garden-notes/mkdocs.yml\n```\n\nAdd a page:\n\n```bash\necho '# Planting' > docs/planting.md\n```\n\nPublish it:\n\n```bash\npython3 -m twine upload dist/*\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 10, f.Line)
	assert.Contains(t, f.Problem, "there is no `docs` here, but `garden-notes/docs` exists")
	assert.Equal(t, "add `cd garden-notes` before line 10", f.Fix)
	assert.True(t, res.Findings[1].Environment, "%+v", res.Findings[1])
}

func TestCombineDropsTerminalColours(t *testing.T) {
	assert.Equal(t, "WARNING  -  A relative path\nerr", combine("\x1b[33mWARNING  -  \x1b[0mA relative path\n", "err\n"))
}

// A PATH entry for a version the machine does not have, beside the one it has, is named
// with the real directory; a program that refuses root is the sandbox's limit while the
// Student is root, once for all its runs.
func TestVersionedBinDirAndRootRefusal(t *testing.T) {
	t.Parallel()
	md := "# Server\n\n```bash\nsudo sh -c 'mkdir -p /usr/lib/demo/2/bin && printf \"#!/bin/sh\\necho ok\\n\" > /usr/lib/demo/2/bin/demotool && chmod +x /usr/lib/demo/2/bin/demotool'\nexport PATH=\"/usr/lib/demo/3/bin:$PATH\"\n```\n\n```bash\ndemotool\n```\n\n" + // 1-11
		"```bash\nsh -c '[ \"$(id -u)\" != 0 ] || { echo \"pg_ctl: cannot be run as root\" >&2; exit 1; }'\nsh -c '[ \"$(id -u)\" != 0 ] || { echo \"pg_ctl: cannot be run as root\" >&2; exit 1; }'\n```\n" // 12-15
	res, _ := attempt(t, md, nil)
	require.NotEmpty(t, res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 9, f.Line)
	assert.Contains(t, f.Problem, "the tutorial puts `/usr/lib/demo/3/bin` on PATH, which does not exist here; the program is `/usr/lib/demo/2/bin/demotool`")
	// the Student runs as the image's learner (its sudo through root): a program that
	// refuses root runs
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
}

func TestMainWordOfAFedPipeline(t *testing.T) {
	assert.Equal(t, "dune", mainWord(`echo "a b" | dune exec ./bin/main.exe`))
	assert.Equal(t, "dune", mainWord("dune exec ./bin/main.exe | head"))
}

// A command with its output block right under it runs, and a failure that prints what
// that block shows (curl's "(60) … problem", which names no error word) is no gap.
func TestShownCurlStyleFailureIsNoGap(t *testing.T) {
	t.Parallel()
	md := "# TLS\n\nWithout `--cacert`, the same request fails, which shows that nothing trusts the certificate yet:\n\n```bash\nsh -c 'echo \"curl: (60) SSL certificate problem: self-signed certificate\" >&2; echo \"curl failed to verify the server\" >&2; exit 60'\n```\n\n```\ncurl: (60) SSL certificate problem: self-signed certificate\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "%+v", res.Findings)
	require.Len(t, res.Commands, 1, "it runs")
}

// When the fix of a gap works but the step then fails on something else, that failure is
// a gap of its own (make installed, then the link fails).
func TestStepFailingOtherwiseAfterItsFix(t *testing.T) {
	t.Parallel()
	// ag is missing (its install is the fix); then the step fails on the link
	md := "# Build\n\n```bash\nag --version >/dev/null && { printf 'build.c:(.text+0x9): undefined reference to \\140sqrt\\047\\n' >&2; exit 1; }\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	var lib, missing bool
	for _, f := range res.Findings {
		assert.Equal(t, 4, f.Line)
		lib = lib || strings.Contains(f.Problem, "`sqrt` is in the library `libm`")
		missing = missing || strings.Contains(f.Problem, "`ag` is not installed")
	}
	assert.True(t, lib && missing, "%+v", res.Findings)
}

func TestMakesDirsWords(t *testing.T) {
	assert.True(t, reMakesDirs.MatchString("tar xzf tool-1.2.tar.gz"))
	assert.True(t, reMakesDirs.MatchString("cargo new hello"))
	assert.False(t, reMakesDirs.MatchString("borg prune --list --keep-daily 7"))
}

func TestKeyLineOfAPythonTracebackWithAReportAfterIt(t *testing.T) {
	out := "Local Exception\nTraceback (most recent call last):\n  File \"/usr/lib/python3/dist-packages/borg/archiver.py\", line 5, in run\nPermissionError: [Errno 13] Permission denied: '/srv/backup/laptop'\n\nPlatform: Linux learner 6.1 x86_64\nLinux: Unknown Linux\nPID: 630  CWD: /workspace/work\n"
	assert.Equal(t, "PermissionError: [Errno 13] Permission denied: '/srv/backup/laptop'", keyLine(out))
}

// CHICKEN 5's csi (chicken-bin 5.3.0 on bookworm) prints the error, then "Call history:"
// and the frames, the last of which name its internals; Lua 5.4 prints the error, then
// "stack traceback:" and frames naming `error`.
func TestKeyLineAboveTheFrames(t *testing.T) {
	chicken := "\nError: unbound variable: command-line-arguments\n\n\tCall history:\n\n\t<syntax>\t  (define names (command-line-arguments))\n\t<syntax>\t  (##core#undefined)\n\t<eval>\t  (command-line-arguments)\t<--\n"
	assert.Equal(t, "Error: unbound variable: command-line-arguments", keyLine(chicken))
	lua := "lua5.4: report.lua:3: bad argument #1 to 'format' (number expected, got nil)\nstack traceback:\n\t[C]: in function 'string.format'\n\treport.lua:3: in main chunk\n\t[C]: in ?\n"
	assert.Equal(t, "lua5.4: report.lua:3: bad argument #1 to 'format' (number expected, got nil)", keyLine(lua))
	emacs := "Loading /etc/emacs/site-start.d/00debian.el (source)...\nDebugger entered--Lisp error: (void-function string-join)\n  (string-join (mapcar ...) \", \")\n  (let* ((file (or (car argv) (error \"usage: wordfreq.el FILE\")))))\n  command-line()\n"
	assert.Equal(t, "Debugger entered--Lisp error: (void-function string-join)", keyLine(emacs))
	// mcs (Mono 6.8 on bookworm): the error, a note locating the symbol, the count
	mcs := "src/Program.cs(15,44): error CS0122: `Shelf.Text.TextTools' is inaccessible due to its protection level\n/home/learner/shelf/lib/Shelf.Text.dll (Location of the symbol related to previous error)\nCompilation failed: 1 error(s), 0 warnings\n"
	assert.Contains(t, keyLine(mcs), "error CS0122")
}

// The Student is the image's non-root learner; what the tutorial runs with sudo goes
// through root (smile-loop's containers have no-new-privileges, so sudo itself cannot
// elevate). A folder made with sudo is root's; a system folder needs sudo; a line that
// mixes sudo with the reader's own commands leaves their files theirs; a passphrase
// asked at a prompt and refused later is the sandbox's answer, not a gap.
func TestLearnerWithSudoThroughRoot(t *testing.T) {
	t.Parallel()
	md := "# Vault\n\n```bash\nsudo mkdir -p /srv/vault\n```\n\n```bash\necho notes > notes.txt && cp notes.txt /srv/vault/\n```\n\n" + // 1-10
		"```bash\nmkdir -p mine && sudo true && touch mine/a\ntest \"$(stat -c %U mine mine/a | sort -u)\" = \"$(whoami)\"\nwhoami | grep -qx learner\nsudo whoami | grep -qx root\n```\n\n" + // 11-17
		"```bash\napt-get install -y nano\n```\n\n" + // 18-21
		"Choose a passphrase when asked:\n\n```bash\nprintf 'Enter new passphrase: ' >&2; read -r p; printf '%s' \"$p\" > ~/.pw\n```\n\n" + // 22-27
		"```bash\nexport VAULT_PASSPHRASE=s3cret\n[ \"$(cat ~/.pw)\" = \"$VAULT_PASSPHRASE\" ] || { echo 'passphrase supplied in VAULT_PASSPHRASE is incorrect.' >&2; exit 2; }\n```\n\n" + // 28-31
		// the reader's shell expands `$(id -un)` before sudo runs: the learner, not root
		"```bash\nsudo mkdir -p /srv/own && sudo chown \"$(id -un)\": /srv/own && echo \"$(whoami) $(id -u) $(logname)\" > /srv/own/who\n" +
		"grep -qx \"learner $(id -u learner) learner\" /srv/own/who && [ \"$(sudo id -un)\" = root ] && sudo sh -c '[ \"$(whoami)\" = root ]' && [ \"$(stat -c %U /srv/own)\" = learner ]\n" +
		"! declare -F whoami id\n```\n" // 32-36
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	vault, apt := res.Findings[0], res.Findings[1]
	assert.Equal(t, 8, vault.Line)
	assert.Contains(t, vault.Problem, "`/srv/vault` belongs to root: line 4 made it with sudo")
	assert.Contains(t, vault.Fix, "`sudo chown \"$USER\": /srv/vault`")
	requireProven(t, vault)
	assert.Equal(t, 19, apt.Line)
	assert.Contains(t, apt.Problem, "are you root?")
	assert.Contains(t, apt.Fix, "run line 19 with sudo: `sudo apt-get install -y nano`")
	require.NotNil(t, res.Coverage)
	var asked bool
	for _, u := range res.Coverage.Unverified {
		asked = asked || u.Line == 30 && strings.Contains(u.Reason, "passphrase the reader typed at line 25's prompt")
	}
	assert.True(t, asked, "%+v", res.Coverage.Unverified)
}

func TestHTTPErrorOfARequest(t *testing.T) {
	assert.Equal(t, "403 Forbidden", httpError("<html>\n <head>\n  <title>403 Forbidden</title>\n </head>"))
	assert.Equal(t, "404 File not found", httpError("HTTP/1.0 404 File not found\nServer: SimpleHTTP/0.6"))
	assert.Equal(t, "404 File not found", httpError("<p>Error code: 404</p>\n        <p>Message: File not found.</p>"))
	assert.Equal(t, "", httpError("HTTP/1.1 200 OK\n\nok"))
	assert.Contains(t, outputMismatch("curl http://localhost:8080/", "<h1>It works!</h1>", "<title>403 Forbidden</title>"), "got `403 Forbidden` from the server")
	assert.True(t, reSystemBin.MatchString("/usr/sbin/lighttpd"))
	assert.False(t, reSystemBin.MatchString("./build/app"))
}

// A server that cannot open the log file its config (written by the tutorial) names in a
// root's folder: the gap is at its start, the fix points the config at the reader's own
// folder, and the reader, having applied it, goes on with the server running. A request
// that gets an HTTP error where the tutorial shows an answer is a gap, with the cause the
// run can see: the script the server runs names an interpreter Debian does not have.
func TestServerConfigInARootFolderAndAnHTTPError(t *testing.T) {
	t.Parallel()
	md := "# Demo\n\nSave this as `serve.conf`:\n\n```ini\nlog = /var/log/demo.log\n```\n\n" + // 1-8
		"Save this as `serve.py`:\n\n```python\nimport http.server\nconf = dict(l.split(' = ') for l in open('serve.conf').read().splitlines())\nlog = open(conf['log'], 'a')\n" + // 9-14
		"class H(http.server.BaseHTTPRequestHandler):\n    def do_GET(self):\n        bad = self.path == '/hello.py'\n        self.send_response(500 if bad else 200)\n        self.end_headers()\n" + // 15-19
		"        self.wfile.write(b'<html><head><title>500 Internal Server Error</title></head></html>' if bad else b'ok')\nhttp.server.HTTPServer(('127.0.0.1', 8931), H).serve_forever()\n```\n\n" + // 20-23
		"Save this as `hello.py`:\n\n```python\n#!/usr/bin/env python\nprint('Hello')\n```\n\n" + // 24-30
		"Start the server; it keeps running until you press Ctrl+C:\n\n```bash\npython3 serve.py\n```\n\n" + // 31-36
		"```bash\ncurl -s http://127.0.0.1:8931/\n```\n\n```\nok\n```\n\n" + // 37-44
		"```bash\ncurl -s http://127.0.0.1:8931/hello.py\n```\n\n```\nHello\n```\n" // 45-51
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	start, hello := res.Findings[0], res.Findings[1]
	assert.Equal(t, 34, start.Line)
	assert.Contains(t, start.Problem, "which the tutorial's `serve.conf` (line 5) points at, belongs to root")
	assert.Contains(t, start.Fix, "use a path the reader owns instead of `/var/log/demo.log` (such as `demo.log`)")
	assert.Equal(t, 46, hello.Line)
	assert.Contains(t, hello.Problem, "got `500 Internal Server Error` from the server")
	assert.Contains(t, hello.Problem, "`hello.py`, which the server runs, starts with `#!/usr/bin/env python`, and `python` is not installed here (Debian's is `python3`)")
}

// Blocks without a language that write a file with the shell are commands whatever the
// lead ("Create a manifest file:"); a tool the prose says to install from elsewhere first
// is a prerequisite; a later step failing with the very error of an earlier gap is its
// consequence.
func TestShellWritesAndInstallFirstAndTheSameError(t *testing.T) {
	t.Parallel()
	md := "# Jar\n\nCreate a manifest file with the `Main-Class` header:\n\n```\nprintf 'Main-Class: demo.Main\\n' > manifest.txt\n```\n\n" + // 1-8
		"Create a small text file:\n\n```\ncat > sample.txt <<'EOF'\nThe cat sat.\nEOF\n```\n\n```bash\ngrep -c Main-Class manifest.txt\ngrep -c cat sample.txt\n```\n\n" + // 9-21
		"```bash\ncat chapters/missing-chapter.adoc\n```\n\nCount its lines:\n\n```bash\ncat chapters/missing-chapter.adoc | wc -l\n```\n\n" + // 22-31
		"Show it to a friend (install `frobtunnel` from its website first):\n\n```bash\nfrobtunnel --url http://localhost:8080\n```\n" // 32-36
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	missing, tunnel := res.Findings[0], res.Findings[1]
	assert.Equal(t, 23, missing.Line)
	assert.Equal(t, []int{29}, missing.AlsoAt)
	assert.Equal(t, 35, tunnel.Line)
	assert.True(t, tunnel.Environment, "a prerequisite the prose names: %+v", tunnel)
}

func TestStepsForAnotherMachine(t *testing.T) {
	assert.True(t, reOtherMachine.MatchString("On a lab machine, copy the starter files to your home directory:"))
	assert.True(t, reOtherMachine.MatchString("On the course servers, run:"))
	assert.True(t, reOtherMachineHere.MatchString("Hand in your program and your notes from a lab machine:"))
	assert.False(t, reOtherMachineHere.MatchString("Copy the file from your own machine:"))
	assert.False(t, reOtherMachineHere.MatchString("It is already installed on the lab machines. On your laptop, install it:"))
	assert.False(t, reOtherMachine.MatchString("On your own machine, create the directory yourself:"))
	assert.False(t, reOtherMachine.MatchString("On Debian, install it with:"))
}

func TestHeredocTextIsNoPlaceholder(t *testing.T) {
	assert.Equal(t, "", placeholder("cat > /var/www/hello/index.html <<'EOF'\n<!doctype html>\n<title>Hello</title>\nEOF"))
	assert.Equal(t, "<your-name>", placeholder("git config user.name <your-name> && cat > x <<EOF\nhi\nEOF"))
	assert.Equal(t, "", placeholder(`echo '<p>' > a.html`), "markup in quotes")
	assert.Equal(t, "", placeholder(`printf "<b>%s\n" x`), "markup in double quotes")
	assert.Equal(t, "<code>", placeholder(`basex -i books.xml -b lang=<code> q.xq`), "a tag's name bare on the command line is a value")
}

func TestKeyLineOfAnAnsibleRun(t *testing.T) {
	out := "TASK [Write the welcome note] ***\nfatal: [localhost]: FAILED! => {\"changed\": false, \"msg\": \"Could not find or access 'welcome.txt.j2'\"}\n\nPLAY RECAP ***\nlocalhost                  : ok=3    changed=2    unreachable=0    failed=1    skipped=0\n"
	assert.Contains(t, keyLine(out), "Could not find or access 'welcome.txt.j2'")
	assert.True(t, reNoNewPrivs.MatchString(`"module_stderr": "sudo: The \"no new privileges\" flag is set, which prevents sudo`))
	assert.True(t, reNoNewPrivs.MatchString(`sudo: The "no new privileges" flag is set, which prevents sudo from running as root.`))
}

func TestCommandLinesOfAnUntaggedBlock(t *testing.T) {
	cb := func(c string) tutorial.CodeBlock { return tutorial.CodeBlock{Content: c} }
	assert.True(t, commandLines(cb("mosquitto_passwd -c -b /etc/mosquitto/passwd alice s3cret-pass")))
	assert.True(t, commandLines(cb("sudo certbot certonly --standalone -d example.org")))
	assert.False(t, commandLines(cb("listener 1883\nallow_anonymous false\npassword_file /etc/mosquitto/passwd")))
	assert.False(t, commandLines(cb("server.port = 8080\nserver.bind = \"127.0.0.1\"")))
	assert.False(t, commandLines(cb("name: ci\non: push")))
	assert.False(t, commandLines(cb("The output -- as you see -- differs")))
}

func TestMergeTargetOfAFunctionMadeToLookLikeThis(t *testing.T) {
	cb := tutorial.CodeBlock{Lang: "elixir", Content: "  def project do\n    []\n  end\n"}
	assert.Equal(t, "mix.exs", mergeTarget(cb, "Open `mix.exs` and make the `project/0` function look like this:"))
}

func TestMergeFragmentOfAnElixirFunction(t *testing.T) {
	old := "defmodule WordFreq.MixProject do\n  use Mix.Project\n\n  def project do\n    [\n      app: :word_freq,\n      deps: deps()\n    ]\n  end\n\n  def application do\n    []\n  end\nend\n"
	frag := "  def project do\n    [\n      app: :word_freq,\n      escript: [main_module: WordFreq.CLI],\n      deps: deps()\n    ]\n  end\n"
	merged, _, ok := mergeFragment(old, frag)
	require.True(t, ok)
	assert.Contains(t, merged, "escript: [main_module: WordFreq.CLI]")
	assert.Equal(t, 1, strings.Count(merged, "def project do"))
	assert.Contains(t, merged, "def application do")
}

// DigitalOcean's conventions: `command` fences are commands, a `[label path]` first line
// names the block's file; a folder made elsewhere (`mkdir -p ~/site/web1`) then used by a
// relative path gets `cd` as its fix; "Leave it running." under a command starts it in
// the background; an echo writing a page is no output block, whatever the lead's verb.
func TestDigitalOceanBlocksAndAFolderMadeElsewhere(t *testing.T) {
	t.Parallel()
	md := "# Site\n\n```command\nmkdir -p ~/site/web1\n```\n\nGive the backend a page that says who answered:\n\n```command\necho hi > web1/index.html\n```\n\n" + // 1-12
		"Add the following configuration:\n\n```\n[label ~/site/app.conf]\nport 8123\n```\n\n" + // 13-19
		"```command\ncd ~/site\npython3 -c \"import http.server as h; p=int(open('app.conf').read().split()[1]); h.HTTPServer(('127.0.0.1', p), h.SimpleHTTPRequestHandler).serve_forever()\"\n```\n\n" + // 20-24
		"Leave it running. In a second terminal:\n\n```command\ncurl -s http://127.0.0.1:8123/app.conf\n```\n" // 25-29
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 10, f.Line)
	assert.Contains(t, f.Fix, "add `cd ~/site` before line 10")
	requireProven(t, f)
	var served bool
	for _, c := range res.Commands {
		served = served || c.Line == 28 && c.ExitCode == 0 && strings.Contains(c.Output, "port 8123")
	}
	assert.True(t, served, "the server runs in the background and serves the labelled file: %+v", res.Commands)
}

// A list ending in a separator has an empty part: no panic (seen on a corpus run).
func TestDirMadeElsewhereWithAnEmptyPart(t *testing.T) {
	ss := &session{cwd: "/workspace/work", home: "/home/learner"}
	for _, cmd := range []string{"cat x/y;", "cd /tmp && ;", ";"} {
		dir, _ := ss.dirMadeElsewhere(loop.CommandRecord{Command: cmd, Line: 3}, "cat: x/y: No such file or directory")
		assert.Equal(t, "", dir, cmd)
	}
}

// Indented blocks under a colon lead run when every line is a well-known command; a
// placeholder the prose names ("Replace `USER` with your user name") gets the reader's
// value; an error that asks for an option gets it as a replacement line, and so does a
// file named two ways, both proven in a fresh container; prose saying a file is removed,
// over a listing that still has it, is a gap.
func TestIndentedCommandsAskedOptionsAndClaimedRemovals(t *testing.T) {
	t.Parallel()
	md := "# Tally\n\nMake a small tree to play with:\n\n    mkdir -p ~/tally/docs\n    cd ~/tally\n    echo draft > docs/notes.md\n    echo scratch > docs/old.tmp\n\n" + // 1-9
		"Save this as `tally.sh`:\n\n```sh\n#!/bin/sh\ncase \" $* \" in *\" --init \"*) touch .tally-state ;; esac\n" + // 10-14
		"[ -f .tally-state ] || { echo \"tally: no state yet. Must run --init to recover.\" >&2; exit 2; }\necho counted\n```\n\n" + // 15-18
		"Make it executable and count:\n\n    chmod +x tally.sh\n    ./tally.sh count\n\n" + // 19-23
		"Replace `USER` with your user name and list your folder:\n\n    ls -d /home/USER/tally\n\n" + // 24-27
		"Put the rules in a file called `rules.txt`:\n\n```\n- *.tmp\n```\n\nShow them:\n\n    cat rule.txt\n\n" + // 28-37
		"Then count again, so that `old.tmp` is removed from the docs:\n\n    ./tally.sh count\n\nList what is left:\n\n    ls docs\n\n```\nnotes.md\n```\n" // 38-48
	res, _ := attemptProving(t, md, nil)
	byLine := map[int]loop.Finding{}
	for _, f := range res.Findings {
		byLine[f.Line] = f
	}
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	asked, named, gone := byLine[22], byLine[36], byLine[44]
	assert.Contains(t, asked.Problem, "the error asks for `--init`")
	requireProven(t, asked)
	assert.Equal(t, "    ./tally.sh count --init", asked.Edit.Replace, "the suggestion keeps the block's indent")
	assert.Contains(t, named.Problem, "`rules.txt` does")
	requireProven(t, named)
	assert.Contains(t, gone.Problem, "says `old.tmp` is gone (line 38)")
	var home bool
	for _, c := range res.Commands {
		home = home || c.Line == 26 && c.ExitCode == 0
	}
	assert.True(t, home, "USER is the reader's user name: %+v", res.Commands)
}

// A small daemon and its control program, in the manner of supervisord: a log folder
// nothing creates (the fix, mkdir, is proven), a control call that drops the config
// option the earlier ones passed (proven with the earlier fix applied too), a status
// that says BACKOFF where the tutorial shows RUNNING, explained by the daemon's log and
// the config's user= line; a foreground server the prose says to stop is stopped, and a
// wait the prose asks for is waited.
func TestDaemonControlAndStoppedServers(t *testing.T) {
	t.Parallel()
	daemon := "#!/bin/sh\nlog=$(sed -n 's/^logfile=//p' \"$2\")\n[ -d \"$(dirname \"$log\")\" ] || { echo \"Error: The directory named as part of the path $PWD/$log does not exist\"; exit 2; }\n" +
		"if grep -q '^user=' \"$2\"; then echo \"app: couldn't setuid to 65534: Can't drop privilege as nonroot user\" > \"$log\"; echo BACKOFF > state; else echo RUNNING > state; fi\ntouch ctl.sock\n"
	ctl := "#!/bin/sh\n[ \"$1\" = -c ] || { echo 'unix:///var/run/tinysrv.sock no such file'; exit 7; }\n[ -e ctl.sock ] || { echo \"unix://$PWD/ctl.sock no such file\"; exit 7; }\n" +
		"case \"$3\" in status) if [ \"$(cat state)\" = RUNNING ]; then echo 'app  RUNNING  pid 7'; else echo 'app  BACKOFF  Exited too quickly (process log may have details)'; fi ;; *) echo \"app: $3 done\" ;; esac\n"
	md := "# Tiny\n\n```bash\nmkdir -p ~/tiny && cd ~/tiny\n```\n\nSave this as `tinysrvd`:\n\n```sh\n" + daemon + "```\n\n" +
		"Save this as `tinysrvctl`:\n\n```sh\n" + ctl + "```\n\nAnd the configuration as `tiny.conf`:\n\n```ini\nlogfile=logs/app.log\nuser=nobody\n```\n\n" +
		"Serve the folder in the foreground first:\n\n```bash\npython3 -m http.server 8765 --bind 127.0.0.1\n```\n\nStop the server with Ctrl+C before you go on.\n\n" +
		"```bash\nchmod +x tinysrvd tinysrvctl\n./tinysrvd -c tiny.conf\n```\n\nGive it a couple of seconds, then ask for its status:\n\n```bash\n./tinysrvctl -c tiny.conf status\n```\n\n```text\napp  RUNNING  pid 7\n```\n\n" +
		"Restart it:\n\n```bash\n./tinysrvctl restart app\n```\n\nNothing serves the folder now:\n\n```bash\n! curl -s http://127.0.0.1:8765/\n```\n"
	tut, err := tutorial.Parse("t.md", []byte(md))
	require.NoError(t, err)
	line := func(s string) int {
		for n := 1; n <= tut.Map.LineCount(); n++ {
			if tut.Map.Line(n) == s {
				return n
			}
		}
		t.Fatalf("no line %q", s)
		return 0
	}
	res, _ := attemptProving(t, md, nil)
	byLine := map[int]loop.Finding{}
	for _, f := range res.Findings {
		byLine[f.Line] = f
	}
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	start, status, restart := byLine[line("./tinysrvd -c tiny.conf")], byLine[line("./tinysrvctl -c tiny.conf status")], byLine[line("./tinysrvctl restart app")]
	assert.Contains(t, start.Fix, "mkdir -p ~/tiny/logs")
	requireProven(t, start)
	assert.Contains(t, status.Problem, "as RUNNING, but it printed BACKOFF")
	assert.Contains(t, status.Problem, "Can't drop privilege")
	assert.Contains(t, status.Fix, "remove `user=nobody` from `tiny.conf`")
	assert.Contains(t, restart.Problem, "earlier lines run `./tinysrvctl` with `-c tiny.conf`")
	requireProven(t, restart)
	var stopped bool
	for _, n := range res.Coverage.Heuristics {
		stopped = stopped || strings.Contains(n.Reason, "stopped the server started at line")
	}
	assert.True(t, stopped, "%+v", res.Coverage.Heuristics)
}

// A file used by a shorter form of the name it was saved under (html.xsl for
// books-html.xsl), among other files of its kind, is one file named two ways.
func TestNameWithinTheSavedName(t *testing.T) {
	t.Parallel()
	md := "# Styles\n\nSave this as `books-html.xsl`:\n\n```xml\n<a/>\n```\n\nAnd this as `report.xsl`:\n\n```xml\n<b/>\n```\n\nShow it:\n\n```bash\ncat html.xsl\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "`html.xsl` does not exist, but `books-html.xsl` does")
	requireProven(t, f)
	assert.True(t, reNotThere.MatchString(`warning: failed to load external entity "html.xsl"`))
}

// A module required by the name it was not saved under (text.rkt for lib/text.rkt) gets
// the requiring file's fix, applied with sed so the reader goes on; a name a module
// defines but leaves out of its one-line (provide …) list gets that list's fix. Both are
// proven. run.sh stands in for the interpreter: it prints Racket 8.7's messages for the
// two faults (racket/collects/racket/private/…: "cannot open module file", "unbound
// identifier").
func TestModuleSavedElsewhereAndUnexportedNames(t *testing.T) {
	t.Parallel()
	run := "#!/bin/sh\nreq=$(sed -n 's/^(require \"\\(.*\\)\")$/\\1/p' \"$1\")\n" +
		"[ -e \"$req\" ] || { printf '%s:1:10: cannot open module file\\n  module path: %s\\n  system error: no such file or directory; rkt_err=3\\n' \"$1\" \"$PWD/$req\"; exit 1; }\n" +
		"if grep -q 'stop-word?' \"$1\" && ! grep -q '^(provide .*stop-word?' \"$req\"; then echo \"$1:2:1: stop-word?: unbound identifier\"; exit 1; fi\necho ok\n"
	md := "# Words\n\n```bash\nmkdir -p ~/words/lib && cd ~/words\n```\n\nSave this as `run.sh`:\n\n```sh\n" + run + "```\n\n" +
		"Save this as `lib/text.rkt`:\n\n```racket\n(provide tokenize)\n(define (tokenize s) s)\n(define (stop-word? w) #f)\n```\n\n" +
		"Save this as `main.rkt`:\n\n```racket\n(require \"text.rkt\")\n(tokenize \"a\")\n```\n\nRun it:\n\n```bash\nchmod +x run.sh\n./run.sh main.rkt\n```\n\n" +
		"Now use the stop words too. Save this as `main2.rkt`:\n\n```racket\n(require \"lib/text.rkt\")\n(stop-word? \"a\")\n```\n\n```bash\n./run.sh main2.rkt\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	moved, unexported := res.Findings[0], res.Findings[1]
	assert.Contains(t, moved.Fix, "in `main.rkt`, refer to `lib/text.rkt` instead of `text.rkt`")
	requireProven(t, moved)
	assert.Contains(t, unexported.Problem, "`stop-word?` is defined in `lib/text.rkt`, which does not export it")
	requireProven(t, unexported)
}

// A tool that wraps git and exits 0 whatever git says (pass 1.7.4's `pass git …`): the
// error it printed is the failure (a missing Git identity), and a branch missing from
// its own repository is fixed through the tool's own git subcommand. Both are proven.
func TestErrorsBehindAZeroExitAndAWrappedGit(t *testing.T) {
	t.Parallel()
	vault := "#!/bin/sh\nstore=$HOME/.vault-store\nmkdir -p \"$store\"\nif [ \"$1\" = git ]; then shift\n  if [ \"$1\" = init ]; then git -C \"$store\" init -q; git -C \"$store\" commit -q --allow-empty -m 'Initial commit'; else git -C \"$store\" \"$@\"; fi\nfi\nexit 0\n"
	md := "# Vault\n\n```bash\nmkdir -p ~/vault-demo && cd ~/vault-demo\n```\n\nSave this as `vault`:\n\n```sh\n" + vault + "```\n\n" +
		"```bash\nchmod +x vault\n./vault git init\ngit init -q --bare ~/vault-backup.git\n./vault git remote add origin ~/vault-backup.git\n./vault git push -q -u origin main\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	ident, push := res.Findings[0], res.Findings[1]
	assert.Contains(t, ident.Problem, "unable to auto-detect email address")
	requireProven(t, ident)
	assert.Contains(t, push.Problem, "names the first branch `master`")
	assert.Contains(t, push.Fix, "`./vault git branch -M main`")
	requireProven(t, push)
	assert.Empty(t, reportedError("cat notes.txt", "error: a line of the notes", ""), "a file's text is not the program's error")
	// pelican-themes 4.8 (bookworm) reports a refused copy and exits 0
	assert.Equal(t, "[Errno 13] Permission denied: '/usr/lib/python3/dist-packages/pelican/themes/mytheme'",
		reportedError("pelican-themes --install ~/mytheme", "Cannot copy `/home/learner/mytheme' to `/usr/lib/python3/dist-packages/pelican/themes/mytheme':\n[Errno 13] Permission denied: '/usr/lib/python3/dist-packages/pelican/themes/mytheme'\n", ""))
	assert.Empty(t, reportedError("cp a /etc/x", "cp: cannot create regular file '/etc/x': Permission denied", "cp: cannot create regular file '/etc/x': Permission denied"), "the tutorial shows the refusal")
	// iverilog 11 (bookworm) skips a source file that is not there and exits 0; SCons 4.4
	// only warns about a missing SConscript
	assert.Equal(t, "tb/top_tb.v: No such file or directory", reportedError("iverilog -o sim.vvp rtl/top.v tb/top_tb.v", "tb/top_tb.v: No such file or directory\n", ""))
	assert.Empty(t, reportedError("iverilog -o sim.vvp rtl/top.v", "other.v: No such file or directory\n", ""), "a file the command does not name")
	// gdb 13 (bookworm) warns about a command file that is not there and exits 0
	assert.Equal(t, "warning: wordcount.gdb: No such file or directory", reportedError("gdb -batch -x wordcount.gdb ./wordcount", "warning: wordcount.gdb: No such file or directory\n", ""))
	// GP 2.15 (bookworm) reports an error in a script it reads, skips the rest, exits 0
	gp := "  ***   at top-level: v=parapply(f,[1..9])\n  ***                   ^---------------\n  *** parapply: mt: please use export(f).\n... skipping file 'par.gp'\n"
	assert.Equal(t, "*** parapply: mt: please use export(f).", reportedError("gp -q par.gp", gp, "[1, 4, 9]"))
	assert.Equal(t, "*** parapply: mt: please use export(f).", reportedError("echo 'read(\"par.gp\")' | gp -q", gp, ""), "the program at the end of the pipe")
	assert.Empty(t, reportedError("gp -q par.gp | grep x", gp, ""), "text passed on by grep")
	assert.Empty(t, reportedError("echo '1/0' | gp -q", "  *** _/_: impossible inverse in gdiv: 0.", "  *** _/_: impossible inverse in gdiv: 0."), "the tutorial shows the error")
	assert.Equal(t, "*** parapply: mt: please use export(f).", keyLine(gp))
	assert.Equal(t, "bash: line 1:   879 Segmentation fault      ./status", reportedError(`./status; echo "exit status: $?"`, "exit status: 139\nbash: line 1:   879 Segmentation fault      ./status\n", "exit status: 42"), "a crash the shell reports")
	assert.Empty(t, reportedError("./crash", "Segmentation fault (core dumped)\n", "Segmentation fault (core dumped)"), "the crash the tutorial shows")
	// direnv 2.32's `layout python` on a system with python3 only, exit 0
	assert.Equal(t, "environment:812: python: command not found", reportedError("echo 'layout python' > .envrc && direnv allow", "direnv: loading ~/p/.envrc\nenvironment:812: python: command not found\n", ""), "the last program of a chain")
	assert.Empty(t, reportedError("./report", "Transaction Aborted by user\n", ""), "a program's own words")
	assert.Equal(t, "Missing SConscript 'build/lib/SConscript'", reportedError("scons -Q build/lib", "scons: warning: Calling missing SConscript without error is deprecated.\nMissing SConscript 'build/lib/SConscript'\n", ""))
}

func TestCamelCaseTitleNamesAFile(t *testing.T) {
	t.Parallel()
	assert.True(t, infoNamesFile("SConstruct", "Program('hello.c')\n"))
	assert.True(t, infoNamesFile("BuildFile", "x\n"))
	for _, n := range []string{"JavaScript", "NOTE", "Terminal", "Output"} {
		assert.False(t, infoNamesFile(n, "x\n"), n)
	}
}

// A page the tutorial shows (a block titled "Output") and an answer with none of its
// words is a gap, named for what a TLS-only server says to plain HTTP; later requests to
// that server are its consequences; markup a command writes is no placeholder.
func TestHTTPSOnlyAnswersAndOutputTitles(t *testing.T) {
	t.Parallel()
	srv := "import http.server\nclass H(http.server.BaseHTTPRequestHandler):\n    def do_GET(self):\n        self.send_response(400)\n        self.end_headers()\n        self.wfile.write(b'Client sent an HTTP request to an HTTPS server.\\n')\nhttp.server.HTTPServer(('127.0.0.1', 8766), H).serve_forever()\n"
	md := "# Page\n\n```bash\nmkdir -p ~/site && cd ~/site\necho '<h1>Hello</h1>' > index.html\n```\n\nSave this as `srv.py`:\n\n```python\n" + srv + "```\n\n" +
		"```bash\npython3 srv.py\n```\n\nLeave it running. Then:\n\n```bash\ncurl -sS http://127.0.0.1:8766/\n```\n\n```html title=\"Output\"\n<h1>Hello</h1>\n```\n\n" +
		"```bash\ncurl -s http://127.0.0.1:8766/about\n```\n\n```text\nAbout this site\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "the server speaks HTTPS on that port")
	assert.Len(t, f.AlsoAt, 1, "the second request to the same server follows from the first: %+v %+v", f, res.Commands)
	var wrote bool
	for _, c := range res.Commands {
		wrote = wrote || strings.HasPrefix(c.Command, "echo '<h1>Hello</h1>'") && c.ExitCode == 0
	}
	assert.True(t, wrote, "%+v", res.Commands)
}

// A program's own settings file written after the program was already running (tmux
// reads ~/.tmux.conf when its server starts; tally's start leaves a process behind) is
// named when the program then fails, and
// later errors one word apart from that failure are its consequences.
func TestSettingsWrittenAfterTheProgramStarted(t *testing.T) {
	t.Parallel()
	tally := "#!/bin/sh\ncase \"$1\" in\n  start) base=0; [ -f ~/.tallyrc ] && base=$(cat ~/.tallyrc); echo \"$base\" > ~/.tally-base\n    (while sleep 60; do :; done) >/dev/null 2>&1 &\n    ;;\n" +
		"  get) [ \"$2\" -ge \"$(cat ~/.tally-base)\" ] && [ \"$2\" -lt 1 ] && echo ok && exit 0; echo \"can't find $3: $2\"; exit 1 ;;\nesac\n"
	md := "# Tally\n\nSave this as `tally`:\n\n```sh\n" + tally + "```\n\n```bash\nchmod +x tally\n./tally start\n./tally get 0 window\n```\n\n" +
		"Number from 1: save this as `~/.tallyrc`:\n\n```text\n1\n```\n\n```bash\n./tally get 1 window\n```\n\n```bash\n./tally get 2 pane\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "the tutorial writes `~/.tallyrc` at line")
	assert.Contains(t, f.Problem, "was already running from line")
	assert.Len(t, f.AlsoAt, 1, "can't find pane: 2 is one word apart from can't find window: 1")
	assert.True(t, oneWordApart("can't find window: 1", "can't find pane: 2"))
	assert.False(t, oneWordApart("cannot open a.txt now", "cannot open b.txt now"), "two files are two problems")
	assert.True(t, oneWordApart("lex.yy.c:(.text+0x10eb): undefined reference to `yywrap'", "lex.yy.c:(.text+0x7fa): undefined reference to `yywrap'"), "the same symbol at another address")
}

// Blocks typed into an interpreter the tutorial started bare (`python3`, then ```python
// cells): each runs after the cells that worked, its own output is compared, a failing
// cell is a gap and the cells after it go on without it; a shell block ends the session.
func TestCellsTypedIntoAnInterpreter(t *testing.T) {
	t.Parallel()
	md := "# Numbers\n\nStart Python and type each cell at its prompt:\n\n```bash\npython3\n```\n\n```python\nx = 2\n```\n\n```python\nprint(x * 21)\n```\n\n```text\n42\n```\n\n" + // 1-20
		"```python\nprint(y)\n```\n\n```python\nprint(x + 1)\n```\n\n```text\n3\n```\n\nBack in the shell:\n\n```bash\necho done\n```\n" // 21-37
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 22, f.Line)
	assert.Contains(t, f.Problem, "NameError: name 'y' is not defined")
	ran, out := map[int]int{}, map[int]string{}
	for _, c := range res.Commands {
		ran[c.Line], out[c.Line] = c.ExitCode, c.Output
	}
	assert.Equal(t, map[int]int{10: 0, 14: 0, 22: 1, 26: 0, 36: 0}, ran, "%+v", res.Commands)
	assert.Equal(t, "42", out[14], "a cell's own output, not the earlier cells'")
	assert.Equal(t, "3", out[26], "the failed cell is left out of what follows")
	assert.Equal(t, "print(x * 21)", afterCommonLines("x\n", "x\nprint(x * 21)"))
}

// requireProven: the finding's fix was re-run in a fresh container and worked.
func requireProven(t *testing.T, f loop.Finding) {
	t.Helper()
	require.NotNil(t, f.FixVerified, "%+v", f)
	assert.True(t, *f.FixVerified, f.FixEvidence)
}

// A command Debian names with a prefix (git's git-upload-archive for `upload-archive`, in
// the package the tutorial installed) is named; a script whose #! line names an
// interpreter that is not there is pointed at the reader's; a program that looks up a
// relative name in its own folder gets the absolute path. vcheck stands in for varnishd
// 7.1, which reads a relative -f name from its vcl_path only and says "Cannot read -f
// file 'lab.vcl' (No such file or directory)". The last two fixes are proven.
func TestRenamedCommandsShebangsAndRelativeNames(t *testing.T) {
	t.Parallel()
	vcheck := "#!/bin/sh\nf=$2\ncase \"$f\" in /*) ;; *) f=/usr/share/vcheck/$f ;; esac\n" +
		"[ -r \"$f\" ] || { echo \"Error: Cannot read -f file '$2' (No such file or directory)\"; exit 2; }\necho \"read $f\"\n"
	md := "# Tools\n\n```bash\nsudo apt-get install -y git\nmkdir -p ~/tools && cd ~/tools\n```\n\nSave this as `vcheck`:\n\n```sh\n" + vcheck + "```\n\n" +
		"Save this as `hello.py`:\n\n```python\n#!/usr/local/bin/python3\nprint('hi')\n```\n\n" +
		"```bash\nchmod +x vcheck hello.py\necho 'x = 1' > site.cfg\n```\n\n```bash\n./vcheck -f site.cfg\n```\n\n```bash\n./hello.py\n```\n\n```bash\nupload-archive --help\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	rel, shebang, renamed := res.Findings[0], res.Findings[1], res.Findings[2]
	assert.Contains(t, rel.Problem, "`vcheck` says `site.cfg` is not there, but it is")
	assert.Contains(t, rel.Fix, `./vcheck -f "$PWD/site.cfg"`)
	requireProven(t, rel)
	assert.Contains(t, shebang.Problem, "names `/usr/local/bin/python3`, which does not exist here; the reader's `python3` is `/usr/bin/python3`")
	requireProven(t, shebang)
	assert.Contains(t, renamed.Problem, "`upload-archive` is not found, but `git`, which the tutorial installed, provides it as `git-upload-archive`")
}

// A commit that records nothing because the file the tutorial made was never added gets
// `git add`; an option an error asks for in the "-f (--force)" form is added; a
// one-letter option the program refuses while its help lists the other case is swapped.
// opendir follows `fossil open` 2.21 ("directory … is not empty", "use the -f (--force)
// option to override"), srv `fossil server` 2.21 ("unrecognized command-line option or
// missing argument: -p"; help "-P|--port TCPPORT") answering --help the way iproute2
// 6.1's `ip --help` does (its usage on stderr, exit 255), so `srv help` is asked too.
// All three fixes are proven.
func TestNewFileNeverAddedAskedOptionsAndOptionCase(t *testing.T) {
	t.Parallel()
	opendir := "#!/bin/sh\n[ \"$2\" = --force ] || [ -z \"$(ls -A)\" ] || { echo \"directory $PWD is not empty\"; echo 'use the -f (--force) option to override'; echo 'or the -k (--keep) option to keep local files unchanged'; exit 1; }\ntouch .opened\n"
	srv := "#!/bin/sh\ncase \"$1\" in help) printf 'Usage: srv ?OPTIONS?\\n  -p|--page PAGE   start on PAGE\\n  -P|--port PORT   listen on PORT\\n'; exit 0 ;;\n" +
		"--help) echo 'Usage: srv ?OPTIONS?' >&2; exit 255 ;; esac\n" +
		"[ \"$1\" = -P ] || { echo \"unrecognized command-line option or missing argument: $1\"; exit 1; }\necho \"listening on $2\"\n"
	md := "# Notes\n\n```bash\nmkdir -p ~/bin-demo && cd ~/bin-demo\n```\n\nSave this as `opendir`:\n\n```sh\n" + opendir + "```\n\nSave this as `srv`:\n\n```sh\n" + srv + "```\n\n" +
		"```bash\nchmod +x opendir srv\n./opendir repo\n```\n\n```bash\n./srv -p 8080\n```\n\n" +
		"```bash\ngit init -q notes && cd notes\ngit config user.name Ada\ngit config user.email ada@b.c\necho one > a.txt\ngit add a.txt && git commit -q -m one\n```\n\n" +
		"Start a second note and commit it:\n\n```bash\necho two > b.txt\ngit commit -q -m two\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	asked, option, commit := res.Findings[0], res.Findings[1], res.Findings[2]
	assert.Contains(t, asked.Fix, "add `--force` to the command")
	requireProven(t, asked)
	assert.Contains(t, option.Problem, "`-p` is not an option here, but `-P` is: its help says `-P|--port PORT listen on PORT`")
	assert.Contains(t, option.Fix, "`./srv -P 8080`")
	requireProven(t, option)
	assert.Contains(t, commit.Problem, "`b.txt` is new and never added")
	assert.Equal(t, []string{"git add b.txt"}, commit.Edit.InsertBefore)
	requireProven(t, commit)
}

// A search path set with `~` inside quotes is named when a lookup then finds nothing; a
// silent `curl -s … | grep` to a server whose start failed is folded into that failure;
// a compile error quoting a name the prose explains points at that sentence; a block
// under "`name`:" alone is that file. pcc prints Free Pascal 3.2.2's lines for an unknown
// identifier, with its closing summaries after the real error.
func TestQuotedTildesSilentPipesAndClaimsInTheProse(t *testing.T) {
	t.Parallel()
	lookup := "#!/bin/sh\nIFS=:\nfor d in $DOCPATH; do [ -f \"$d/$1.txt\" ] && { cat \"$d/$1.txt\"; exit 0; }; done\necho \"No entry for $1\"; exit 16\n"
	pcc := "#!/bin/sh\ngrep -q '^var' \"$1\" && exit 0\necho \"$1(3,3) Error: Identifier not found \\\"Total\\\"\"\necho \"$1(5) Fatal: There were 1 errors compiling module, stopping\"\necho 'Fatal: Compilation aborted'\necho 'Error: /usr/bin/ppcx64 returned an error exitcode'\nexit 1\n"
	md := "# Docs\n\n```bash\nmkdir -p ~/docs ~/work && cd ~/work\necho hi > ~/docs/greet.txt\n```\n\nSave this as `doc`:\n\n```sh\n" + lookup + "```\n\nSave this as `pcc`:\n\n```sh\n" + pcc + "```\n\n" +
		"```bash\nchmod +x doc pcc\nexport DOCPATH=\"~/docs\"\n```\n\n```bash\n./doc greet\n```\n\n" +
		"`sum.cfg`:\n\n```ini\nstart = 1\n```\n\n```bash\ngrep -c start sum.cfg\n```\n\n" +
		"The compiler declares `Total` for you, so the program needs no var section. Save this as `sum.p`:\n\n```pascal\nbegin\n  Total := 1;\nend.\n```\n\n```bash\n./pcc sum.p\n```\n\n" +
		"Save this as `srv.py`:\n\n```python\nraise SystemExit('port busy')\n```\n\n```bash\npython3 srv.py\n```\n\nLeave it running. In a second terminal:\n\n```bash\ncurl -s http://127.0.0.1:8797/ | grep -c hello\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	tilde, claim, server := res.Findings[0], res.Findings[1], res.Findings[2]
	assert.Contains(t, tilde.Problem, "sets `DOCPATH` to `~/docs` with `~` inside quotes")
	assert.Equal(t, []string{`export DOCPATH="$HOME/docs"`}, tilde.Edit.InsertBefore)
	requireProven(t, tilde)
	assert.Contains(t, claim.Problem, `sum.p(3,3) Error: Identifier not found "Total"`, "the real error, not the driver's closing line")
	assert.Contains(t, claim.Problem, "the tutorial explains `Total` at line")
	assert.Contains(t, server.Quote, "python3 srv.py")
	assert.Len(t, server.AlsoAt, 1, "the silent request is the failed server's consequence: %+v", server)
	for _, c := range res.Commands {
		if strings.HasPrefix(c.Command, "grep -c start") {
			assert.Equal(t, 0, c.ExitCode, "sum.cfg was written from the block under its name")
		}
	}
}

// Error lines and the prose around prerequisites, without a container.
func TestRejectedOptionsQuotedMessagesAndOtherSystemsPrerequisites(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "-p", reRejectedShort.FindStringSubmatch("unrecognized command-line option or missing argument: -p")[1])
	assert.Equal(t, "z", reGetoptShort.FindStringSubmatch("ls: invalid option -- 'z'")[1])
	assert.True(t, quotesMessage(`level=error msg="Error loading config" err="parsing YAML file app.yml: not a valid duration string: \"15\""`,
		`FAILED: parsing YAML file app.yml: not a valid duration string: "15"`))
	assert.False(t, quotesMessage("error: not found", "FAILED: not found"), "a short message says too little")
	assert.Equal(t, "main.c:3:5: error: 'count' undeclared (first use in this function)",
		keyLine("main.c:3:5: error: 'count' undeclared (first use in this function)\ncompilation terminated.\ncollect2: error: ld returned 1 exit status"))
	md := "# Guide\n\n## Prerequisites\n\n=== \"Debian\"\n\n    ```bash\n    sudo apt install groff\n    ```\n\n=== \"Fedora\"\n\n    ```bash\n    sudo dnf install groff man-db\n    ```\n\n" +
		"=== \"macOS\"\n\n    macOS ships `mandoc`, and `man` is already installed.\n\n## Use\n\n```bash\nman -l page.1\n```\n"
	tut, err := tutorial.Parse("guide.md", []byte(md))
	require.NoError(t, err)
	assert.Zero(t, declared(tut).declaredFor("man", 100), "only the other systems' tabs name man")
}

// A proxy answering 503 because its configuration names a backend port where nothing
// listens, while the backend the tutorial started listens on another: both ports are
// named. proxy.py answers as Varnish 7.1 does when its backend refuses ("HTTP/1.1 503
// Backend fetch failed").
func TestProxyBackendOnAPortNothingListensOn(t *testing.T) {
	t.Parallel()
	proxy := "import http.server, re, socket\nport = re.search(r':(\\d+);', open('proxy.conf').read()).group(1)\n" +
		"class P(http.server.BaseHTTPRequestHandler):\n    protocol_version = 'HTTP/1.1'\n    def do_HEAD(self):\n        try:\n            socket.create_connection(('127.0.0.1', int(port)), 1).close()\n            self.send_response(200, 'OK')\n" +
		"        except OSError:\n            self.send_response(503, 'Backend fetch failed')\n        self.send_header('Content-Length', '0')\n        self.end_headers()\n" +
		"http.server.HTTPServer(('127.0.0.1', 8790), P).serve_forever()\n"
	md := "# Cache\n\n```bash\nmkdir -p ~/cache/site && cd ~/cache\necho hi > site/index.html\n```\n\n```bash\npython3 -m http.server 8792 --bind 127.0.0.1 --directory site\n```\n\nLeave it running.\n\n" +
		"Save this as `proxy.conf`:\n\n```nginx\nproxy_pass http://127.0.0.1:8791;\n```\n\nSave this as `proxy.py`:\n\n```python\n" + proxy + "```\n\n```bash\npython3 proxy.py\n```\n\nLeave it running. Then:\n\n" +
		"```bash\ncurl -sI http://127.0.0.1:8790/\n```\n\n```text\nHTTP/1.1 200 OK\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "`proxy.conf` sends requests to port 8791, where nothing listens; the servers started here listen on `8792`")
}

// curl expands `{…}` and `[…]` in a URL unless told not to.
func TestCurlGlobsInURLs(t *testing.T) {
	t.Parallel()
	why, fix := curlGlob(`curl -s 'http://localhost:9090/api/v1/query?query=up{job="node"}' | jq .data.result`, 7)
	assert.Contains(t, why, "glob pattern")
	assert.Contains(t, fix, "`-g` (`--globoff`)")
	for _, cmd := range []string{`curl -g 'http://localhost:9090/q?x={a}'`, `curl -s http://localhost:8080/items/1`, `curl -s http://localhost:8080/ -d '{"a":1}'`, `curl -s http://[::1]:8080/`} {
		why, _ := curlGlob(cmd, 1)
		assert.Empty(t, why, cmd)
	}
}

// A Debian user's login PATH has no sbin folder, and a step run with sudo does not give
// them one: a program in /usr/sbin run without sudo is not found, and its full path is
// the fix (proven). Root's steps still find root's programs.
func TestRootsProgramFoldersStayRoots(t *testing.T) {
	t.Parallel()
	md := "# Paths\n\n```bash\nsudo mkdir -p /opt/demo\nsudo chroot --version\necho \"$PATH\"\n```\n\n```bash\nchroot --version\n```\n\n```bash\nchroot --help\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "`chroot` is installed as `/usr/sbin/chroot`, but `/usr/sbin` is not on a normal user's PATH")
	assert.Contains(t, f.Fix, "`/usr/sbin/chroot --version`")
	requireProven(t, f)
	for _, c := range res.Commands {
		if strings.HasPrefix(c.Command, "echo") {
			assert.NotContains(t, c.Output, "sbin", "the learner's PATH after a sudo step")
		}
		if strings.HasPrefix(c.Command, "sudo chroot") {
			assert.Equal(t, 0, c.ExitCode, "root finds its own programs")
		}
	}
}

// Tabs for Debian releases: the learner's (12, bookworm) is followed, older ones are not.
func TestTabForTheLearnersRelease(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "Debian 12", chosenTab([]string{"Debian 10 and older", "Debian 12", "macOS"}))
	assert.Equal(t, "Ubuntu / Debian", chosenTab([]string{"Debian 9 or older", "Ubuntu / Debian", "Fedora"}))
	assert.Equal(t, "Linux", chosenTab([]string{"Linux", "Windows"}))
	md := "# Install\n\n{{< tabpane text=true >}}\n{{% tab header=\"Debian 12\" %}}\n```bash\necho bookworm\n```\n{{% /tab %}}\n{{% tab header=\"Debian 10 and older\" %}}\n```bash\nfalse\n```\n{{% /tab %}}\n{{< /tabpane >}}\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "%+v", res.Findings)
	require.NotNil(t, res.Coverage)
	assert.Contains(t, fmt.Sprint(res.Coverage.Skipped), "followed \"Debian 12\" instead")
}

// A quoted name is the missing file only where the error says so, not where it names the
// script an error was found in.
func TestQuotedNameThatIsMissing(t *testing.T) {
	t.Parallel()
	assert.True(t, quotedWhereMissing("Error: Cannot read -f file 'lab.vcl' (No such file or directory)", "lab.vcl"))
	assert.True(t, quotedWhereMissing("cat: 'notes.txt': No such file or directory", "notes.txt"))
	assert.False(t, quotedWhereMissing(`"temps.gp" line 5: cannot open file 'charts/temps.png' for output: No such file or directory`, "temps.gp"))
}

// A sub the module leaves without `is export` while others have it is named and marked
// (proven); programs a source checkout that could not be fetched would have built are
// that checkout's consequences; a silent `curl … | grep` through a local proxy exported
// earlier, which failed to start, is that failure's consequence. rk prints Rakudo
// 2022.12's message for an undeclared routine.
func TestRakuExportsSourceBuildsAndLocalProxies(t *testing.T) {
	t.Parallel()
	rk := "#!/bin/sh\nmod=lib/Greeting.rakumod\nif grep -q 'greet(' \"$1\" && ! grep -q '^sub greet.*is export' \"$mod\"; then\n" +
		"  printf '===SORRY!=== Error while compiling %s/%s\\nUndeclared routine:\\n    greet used at line 2\\n\\n' \"$PWD\" \"$1\"; exit 1\nfi\necho 'Hello, Grace!'\n"
	md := "# Modules\n\n```bash\nmkdir -p ~/rk/lib && cd ~/rk\n```\n\nSave this as `rk`:\n\n```sh\n" + rk + "```\n\n" +
		"```raku title=\"lib/Greeting.rakumod\"\nunit module Greeting;\n\nsub greet(Str $name --> Str) {\n    \"Hello, $name!\"\n}\n\nsub shout(Str $text --> Str) is export {\n    $text.uc\n}\n```\n\n" +
		"```raku title=\"use.raku\"\nuse Greeting;\nsay greet(\"Grace\");\n```\n\n```bash\nchmod +x rk\n./rk use.raku\n```\n\n" +
		"Build the widget from source:\n\n```bash\ngit clone https://github.com/acme/widget.git\ncd widget\n```\n\n```bash\nmake\nsudo make install\n```\n\n```bash\nwidget --version\n```\n\n" +
		"Save this as `fail.py`:\n\n```python\nraise SystemExit('cannot bind')\n```\n\n```bash\ncd ~/rk\npython3 fail.py\n```\n\nLeave it running. Route the shell through it:\n\n" +
		"```bash\nexport http_proxy=http://127.0.0.1:8793\ncurl -sI http://deb.debian.org/debian/ | grep -c Via\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	export, mk, proxy := res.Findings[0], res.Findings[1], res.Findings[2]
	assert.Contains(t, mk.Problem, "`make` is not installed", "the build's own tool is missing whatever the checkout")
	assert.Contains(t, export.Problem, "`greet` is defined in `lib/Greeting.rakumod`, which does not export it")
	requireProven(t, export)
	assert.Contains(t, proxy.Quote, "python3 fail.py")
	assert.Len(t, proxy.AlsoAt, 1, "the request through the proxy: %+v", proxy)
	require.NotNil(t, res.Coverage)
	assert.NotContains(t, fmt.Sprint(res.Findings), "widget", "the program the unfetched source would have built")
}

// `sudo echo … > file` in a folder only root may write fails in the reader's own shell,
// which opens the file before sudo runs: `| sudo tee` is the fix (proven). A session
// typed into a server's client (`nc host port`) that waits for the reader is unverified.
// The stand-in nc, like OpenBSD netcat without -N, keeps waiting after its input ends.
func TestSudoRedirectionsAndTypedSessions(t *testing.T) {
	t.Parallel()
	md := "# Site\n\n```bash\nsudo mkdir -p /srv/site\nsudo echo '<h1>hi</h1>' > /srv/site/index.html\ncat /srv/site/index.html\n```\n\n" +
		"```bash\nprintf '#!/bin/sh\\ncat >/dev/null\\nsleep 600\\n' | sudo tee /usr/local/bin/nc\nsudo chmod +x /usr/local/bin/nc\n```\n\nType the commands into the session:\n\n```bash\nnc localhost 11211\n```\n"
	res, _ := attemptProving(t, md, func(b *config.StudentBehavior) { b.TimeoutSeconds = 4 })
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "the redirection to `/srv/site/index.html` is done by the reader's own shell, not by sudo")
	assert.Contains(t, f.Fix, "`echo '<h1>hi</h1>' | sudo tee /srv/site/index.html > /dev/null`")
	for cmd, want := range map[string]bool{"sudo echo hi 2> err.log": false, "sudo sh -c 'echo hi > /srv/x'": false, `sudo printf "a > b" >> /etc/x.conf`: true} {
		assert.Equal(t, want, reSudoRedirect.MatchString(cmd), cmd)
	}
	requireProven(t, f)
	require.NotNil(t, res.Coverage)
	assert.Contains(t, fmt.Sprint(res.Coverage.Unverified), "waits for what the reader types")
}

// An interpreter that names the failing file and line but not the file it could not open
// gets that line read (`include arithmetic.fs` where the tutorial saved arith.fs); a
// program saved after an unrelated failure that misses a folder is a gap of its own, not
// that failure's consequence. fth follows Gforth 0.7.3's messages: "report.fs:2: No such
// file or directory" over the source line with the word marked (`include
// >>>arithmetic.fs<<<`), "locals.fs:3: Undefined word" for the Forth-2012 `{:` it
// predates, and the same "No such file or directory" for `create-file` in a missing folder.
func TestIncludedNameOnTheErrorLineAndFilesSavedAfterAFailure(t *testing.T) {
	t.Parallel()
	fth := "#!/bin/sh\nn=0\nwhile IFS= read -r l; do n=$((n+1))\n" +
		"  case \"$l\" in\n" +
		"  'include '*) f=${l#include }; [ -f \"$f\" ] || { echo \"$1:$n: No such file or directory\"; echo \"include >>>$f<<<\"; exit 1; } ;;\n" +
		"  *'{:'*) echo \"$1:$n: Undefined word\"; exit 1 ;;\n" +
		"  *'out/'*) [ -d out ] || { echo \"$1:$n: No such file or directory\"; echo '>>>open-out<<<'; exit 1; } ;;\n" +
		"  esac\ndone < \"$1\"\necho ok\n"
	md := "# Forth\n\n```bash\nmkdir -p ~/fb && cd ~/fb\n```\n\nSave this as `fth`:\n\n```sh\n" + fth + "```\n\n```bash\nchmod +x fth\n```\n\n" +
		"Filename: arith.fs\n\n```forth\n: square dup * ;\n```\n\nFilename: report.fs\n\n```forth\n\\ report\ninclude arithmetic.fs\n7 square . cr\n```\n\n```console\n$ ./fth report.fs\n49\n```\n\n" +
		"Filename: locals.fs\n\n```forth\n\\ locals\n: a 1 ;\n: b {: x y :} x y + ;\n```\n\n```console\n$ ./fth locals.fs\nok\n```\n\n" +
		"Filename: save.fs\n\n```forth\n\\ save\n0 value fd\n: open-out s\" out/sq.txt\" w/o create-file throw to fd ;\n```\n\n```console\n$ ./fth save.fs\nok\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	include, locals, save := res.Findings[0], res.Findings[1], res.Findings[2]
	assert.Contains(t, include.Problem, "`arithmetic.fs` does not exist, but `arith.fs` does")
	assert.Contains(t, locals.Problem, "Undefined word")
	assert.Empty(t, locals.AlsoAt, "save.fs was saved after locals.fs failed: its failure is its own")
	assert.Contains(t, save.Quote, "./fth save.fs")
}

// A package install still unpacking when its (long) time runs out is unverified, not a
// gap, and the program it was installing is its consequence. The apt here stands in for
// one on a slow disk: it prints what apt 2.6 prints while unpacking, and takes longer
// than the fifteen step timeouts an install gets.
func TestPackageInstallOutOfTimeIsUnverified(t *testing.T) {
	t.Parallel()
	md := "# Slow\n\n```bash\nmkdir -p ~/bin\nprintf '#!/bin/sh\\necho \"Unpacking texlive-latex-base (2022.20230122-3) ...\"\\nsleep 60\\n' > ~/bin/apt\nchmod +x ~/bin/apt\n```\n\n" +
		"```bash\nPATH=~/bin:$PATH apt install texlive-latex-base\n```\n\n```bash\npdflatex --version\n```\n"
	res, _ := attempt(t, md, func(b *config.StudentBehavior) { b.TimeoutSeconds = 3 }) // 45 s for the install
	assert.Empty(t, res.Findings)
	var why []string
	for _, n := range res.Coverage.Unverified {
		why = append(why, fmt.Sprintf("%d: %s", n.Line, n.Reason))
	}
	assert.Contains(t, strings.Join(why, "\n"), "the package install was still running after")
}

// A database server that aborts on start is the gap, named by its error rather than by the
// option a warning above it mentions, and its clients' socket refusals are consequences;
// a script named after its interpreter's extension (bad.grv for grv) is not a settings
// file written after the interpreter started. dbd prints MariaDB 10.11's log lines when
// /run/mysqld is missing, dbc its client's "ERROR 2002 (HY000)".
func TestAbortedServerSocketClientsAndScriptsByExtension(t *testing.T) {
	t.Parallel()
	dbd := "#!/bin/sh\nd='2026-11-27  3:51:26 0'\necho \"$d [Warning] You need to use --log-bin to make --expire-logs-days or --binlog-expire-logs-seconds work.\"\n" +
		"echo \"$d [ERROR] Can't start server : Bind on unix socket: No such file or directory\"\n" +
		"echo \"$d [ERROR] Do you already have another server running on socket: /run/dbd/dbd.sock ?\"\necho \"$d [ERROR] Aborting\"\nexit 1\n"
	dbc := "#!/bin/sh\necho \"ERROR 2002 (HY000): Can't connect to local server through socket '/run/dbd/dbd.sock' (2)\"\nexit 1\n"
	grv := "#!/bin/sh\ngrep -q '!in' \"$1\" && { echo \"$1: 1: unexpected token: in\"; exit 1; }\necho hi\n"
	md := "# DB\n\n```bash\nmkdir -p ~/db && cd ~/db\n```\n\nSave this as `dbd`:\n\n```sh\n" + dbd + "```\n\nSave this as `dbc`:\n\n```sh\n" + dbc + "```\n\nSave this as `grv`:\n\n```sh\n" + grv + "```\n\n" +
		"```bash\nchmod +x dbd dbc grv\n```\n\n" +
		"Start the server in the foreground:\n\n```bash\n./dbd --user=mysql\n```\n\nLeave it running and open a second terminal in `~/db`:\n\n```bash\n./dbc -u root -e 'SELECT 1'\n```\n\n" +
		"Save this as `hello.grv`:\n\n```\nprintln 'hi'\n```\n\n```bash\n./grv hello.grv\n```\n\n" +
		"Save this as `bad.grv`:\n\n```\nprintln(x !in y)\n```\n\n```bash\n./grv bad.grv\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	server, script := res.Findings[0], res.Findings[1]
	assert.Contains(t, script.Quote, "./grv bad.grv")
	assert.NotContains(t, script.Problem, "already running")
	assert.Contains(t, server.Quote, "./dbd --user=mysql")
	assert.Contains(t, server.Problem, "/run/dbd/dbd.sock")
	assert.NotContains(t, server.Problem+server.Fix, "--log-bin")
	assert.Len(t, server.AlsoAt, 1, "the client's socket refusal: %+v", server)
}

// A port glued to a host (`@127.0.0.1:5353`) that the program cannot resolve gets the
// port option its help lists. dq answers as DiG 9.18 (bookworm) does: "dig: couldn't get
// address for '127.0.0.1:5353': not found" (exit 1), and for --help "Invalid option:
// --help" over its usage with "-p port (specify port number)". The fix is proven.
func TestPortGluedToAHostGetsThePortOption(t *testing.T) {
	t.Parallel()
	dq := "#!/bin/sh\ncase \"$1\" in --help) echo 'Invalid option: --help'; printf 'Usage:  dig [@global-server] [domain]\\n        -b address[#port]   (bind to source address/port)\\n        -p port             (specify port number)\\n'; exit 1 ;;\n" +
		"@*:*) echo \"dig: couldn't get address for '${1#@}': not found\"; exit 1 ;; esac\n[ \"$2\" = -p ] && echo 10.0.0.5\n"
	md := "# DNS\n\n```bash\nmkdir -p ~/dns && cd ~/dns\n```\n\nSave this as `dq`:\n\n```sh\n" + dq + "```\n\n```bash\nchmod +x dq\n./dq @127.0.0.1:5353 www.sandbox.lan +short\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "`@127.0.0.1:5353` is read as one host name, and ./dq takes the port as an option: its help says `-p port (specify port number)`")
	assert.Contains(t, f.Fix, "`./dq @127.0.0.1 -p 5353 www.sandbox.lan +short`")
	requireProven(t, f)
}

func TestPathFromTheFolderTheSessionIsIn(t *testing.T) {
	t.Parallel()
	md := "# Greeter\n\n```bash\nmkdir -p proj/build\ncd proj\nprintf '#!/bin/sh\\necho hello\\n' > build/greeter\nchmod +x build/greeter\ncd build\n```\n\n" + // 10
		"Run the program:\n\n```bash\n./build/greeter\n```\n" // 14
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 14, f.Line)
	assert.Contains(t, f.Problem, "already inside `build`")
	require.NotNil(t, f.Edit)
	assert.Equal(t, "./greeter", f.Edit.Replace)
}

func TestLineInsertedAtTheTopOfAFile(t *testing.T) {
	t.Parallel()
	md := "# Greet\n\nSave this as `greet.py`:\n\n```python\nimport sys\nprint(\"hi\", sys.argv[1])\n```\n\n" +
		"Insert this line at the very top of *greet.py*, above the `import`:\n\n```python\n#!/usr/bin/env python3\n```\n\n" +
		"Then run it directly:\n\n```console\n$ chmod +x greet.py\n$ ./greet.py Ada\nhi Ada\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "the shebang goes first, so the kernel runs python3")
	assert.Contains(t, strings.Join(res.AttemptedActions, "\n"), "put at the top of")
}

func TestKillPercentStopsTheJobTheTutorialStarted(t *testing.T) {
	t.Parallel()
	md := "# Jobs\n\nStart the preview in the background:\n\n```bash\nsleep 300 &\n```\n\nStop it when you are done:\n\n```bash\nkill %1\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "the reader's shell has job 1")
	require.NotNil(t, res.Coverage)
	var notes []string
	for _, n := range res.Coverage.Heuristics {
		notes = append(notes, n.Reason)
	}
	assert.Contains(t, strings.Join(notes, "\n"), "stopped the job started at line 6")
}

// ImageMagick 6 on bookworm (6.9.11-60) under Debian's policy.xml: the refusal first,
// then what could not be made because of it.
func TestKeyLineOfOneProgramIsItsFirstError(t *testing.T) {
	out := "convert-im6.q16: attempt to perform an operation not allowed by the security policy `@blurb.txt' @ error/property.c/InterpretImageProperties/3718.\nconvert-im6.q16: no images defined `para.png' @ error/convert.c/ConvertImageCommand/3234.\n"
	assert.Contains(t, keyLine(out), "security policy")
	gcc := "main.c:3:5: error: unknown type name 'strin'\nmain.c:9:1: error: expected ';' before '}' token\n"
	assert.Equal(t, "main.c:9:1: error: expected ';' before '}' token", keyLine(gcc), "file and line are not a program's name")
	mojo := "[2026-11-27 13:53:39.61] [695] [error] [l_92] Can't use an undefined value as a HASH reference at notes.pl line 21.\n[2026-11-27 13:53:39.62] [695] [trace] [l_92] 500 Internal Server Error (0.01s, 69.984/s)\n"
	assert.Contains(t, keyLine(mojo), "Can't use an undefined value", "a line tagged as an error says more than a trace line")
	make := "make: pkg-config: No such file or directory\ng++ -c -o a.o a.cc\n/usr/bin/ld: a.o: undefined reference to `main'\n"
	assert.Equal(t, "pkg-config", reShNotFound.FindStringSubmatch(make)[2], "a program make could not run")
	bmake := "mandoc -T lint hello.1\nbmake: exec(mandoc) failed (No such file or directory)\n*** Error code 1\n"
	assert.Equal(t, "mandoc", reShNotFound.FindStringSubmatch(bmake)[3], "a program bmake 20200710 could not run")
}

func TestShownSessionAnswersAWizard(t *testing.T) {
	t.Parallel()
	wizard := "import sys\nprint('Welcome to the site wizard.')\ntitle = input('> Site title? ')\nport = input('> Port? [8080] ') or '8080'\nok = input('> Write site.conf? (Y/n) ') or 'y'\nif not title or ok != 'y':\n    sys.exit('nothing written')\nopen('site.conf', 'w').write(title + ':' + port + '\\n')\n"
	md := "# Site\n\nSave this as `wizard.py`:\n\n```python\n" + wizard + "```\n\nRun the wizard:\n\n```bash\npython3 wizard.py\n```\n\n" +
		"It asks three questions; here is a whole session:\n\n```\nWelcome to the site wizard.\n> Site title? Lab Notes\n> Port? [8080]\n> Write site.conf? (Y/n) y\n```\n\nCheck the file:\n\n```console\n$ cat site.conf\nLab Notes:8080\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings, "the reader types the answers the session shows")
	require.Len(t, res.Commands, 2, "%+v", res.Commands)
	assert.Equal(t, 0, res.Commands[0].ExitCode, res.Commands[0].Output)
	assert.Contains(t, res.Commands[1].Output, "Lab Notes:8080")
}

func TestFileMissingFromAFailedInstallIsNotANewGap(t *testing.T) {
	t.Parallel()
	md := "# Theme\n\n```bash\nmkdir -p ~/mytheme/css\n```\n\nFilename: `~/mytheme/css/site.css`\n\n```css\nbody { margin: 0; }\n```\n\n" +
		"Install the theme:\n\n```bash\nsitegen-themes --install ~/mytheme\n```\n\nBuild the page and check that it links the stylesheet:\n\n" +
		"```bash\nfor f in ~/.local/share/sitegen/themes/mytheme/css/*.css; do echo \"<link href=\\\"$f\\\">\"; done > index.html\ngrep -c site.css index.html\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 16, f.Line, "the theme installer that is not there")
	assert.Contains(t, f.AlsoAt, 23, "the stylesheet the install did not deliver")
	require.NotEmpty(t, res.Files)
	assert.Equal(t, "/home/learner/mytheme/css/site.css", res.Files[0].Path, "a caption with a path under ~ names the file")
}

func TestNothingMadeOfWhatTheOutputShows(t *testing.T) {
	t.Parallel()
	md := "# Pages\n\n```bash\nmkdir -p pages && touch pages/index.txt\n```\n\nThe first build:\n\n```bash\necho \"Built $(ls pages/*.md 2>/dev/null | wc -l) pages in 0.02 seconds.\"\n```\n\n```\nBuilt 1 pages in 0.31 seconds.\n```\n\n" +
		"Build again after a coffee:\n\n```bash\necho \"Built $(ls pages/*.md 2>/dev/null | wc -l) pages in 0.02 seconds.\"\n```\n\n```\nBuilt 1 pages in 0.12 seconds.\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 10, f.Line)
	assert.Contains(t, f.Problem, "printing “Built 1 pages”, but it printed “Built 0 pages”")
	assert.Equal(t, []int{20}, f.AlsoAt, "the same contradiction again is not a new gap")
}

func TestMissingDirectoryTheProgramWritesInto(t *testing.T) {
	t.Parallel()
	md := "# Report\n\nSave this as `report.pl`:\n\n```perl\nuse strict;\nopen(my $fh, '>', \"out/report.txt\") or die \"cannot write the report: $!\\n\";\nprint $fh \"ok\\n\";\n```\n\nRun it:\n\n```bash\nperl report.pl\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "the directory `out` does not exist")
	assert.Contains(t, f.Fix, "mkdir -p out")
	requireProven(t, f)
}

func TestAnswerOfAServerStartedOnAConfigThatFailedItsCheck(t *testing.T) {
	t.Parallel()
	serve := "import functools, http.server, sys\nroot = '/tmp'\nfor line in open(sys.argv[1]):\n    if line.startswith('root = '):\n        root = line.split('=', 1)[1].strip()\n" +
		"h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)\nhttp.server.HTTPServer(('127.0.0.1', 8765), h).serve_forever()\n"
	md := "# Serve\n\n```bash\nmkdir -p www && echo hello > www/hello.txt\n```\n\nSave this as `check.sh`:\n\n```sh\n#!/bin/sh\ngrep -q '^root = ' \"$1\" || { echo \"$1: no root set\" >&2; exit 1; }\n```\n\n" +
		"Save this as `serve.py`:\n\n```python\n" + serve + "```\n\nSave this as `site.conf`:\n\n```ini\nrot = www\n```\n\n" +
		"Check it, then start the server:\n\n```bash\nsh check.sh site.conf\npython3 serve.py site.conf &\n```\n\nAsk it for the page:\n\n```console\n$ curl -s http://127.0.0.1:8765/hello.txt\nhello\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, "sh check.sh site.conf", f.Command)
	assert.Contains(t, f.AlsoAt, 42, "the server runs the configuration whose check failed")
}

func TestSystemctlLineStartsTheServiceWithItsInitScript(t *testing.T) {
	t.Parallel()
	md := "# Service\n\nA tiny service with an init script, as packages ship them:\n\n```bash\nprintf '#!/bin/sh\\n[ \"$1\" = start ] && echo started > /tmp/hellod.state\\nexit 0\\n' | sudo tee /etc/init.d/hellod > /dev/null\nsudo chmod +x /etc/init.d/hellod\n```\n\n" +
		"Start it:\n\n```bash\nsudo systemctl start hellod.service\n```\n\nIt is up:\n\n```console\n$ cat /tmp/hellod.state\nstarted\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	assert.True(t, res.Findings[0].Environment, "systemctl needs systemd")
	require.Len(t, res.Commands, 4, "%+v", res.Commands)
	assert.Equal(t, 0, res.Commands[3].ExitCode, "the init script did what systemd does on the reader's machine: %s", res.Commands[3].Output)
	require.NotNil(t, res.Coverage)
	assert.Contains(t, fmt.Sprint(res.Coverage.Heuristics), "`service hellod start`")
}

// A system file that a recommended package brings, after an install without
// recommendations (Debian 12: fortune-mod recommends fortunes-min).
func TestSystemFileFromASkippedRecommendation(t *testing.T) {
	t.Parallel()
	md := "# Fortunes\n\nInstall only what is needed:\n\n```bash\nsudo apt-get update\nsudo apt-get install -y --no-install-recommends fortune-mod\n```\n\nSee which cookie files you have:\n\n```bash\nls /usr/share/games/fortunes/\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 13, f.Line)
	assert.Contains(t, f.Problem, "would come with `fortunes-min`, which `fortune-mod` recommends and line 7 leaves out")
	assert.Contains(t, f.Fix, "sudo apt install fortunes-min")
	requireProven(t, f)
}

func TestShebangOptionsProgramOfAFailedBuildAndAMissingLinkLibrary(t *testing.T) {
	t.Parallel()
	md := "# Scripts\n\nSave this as `hello.py`:\n\n```python\n#!/usr/bin/env python3 -u\nprint('hi')\n```\n\n```bash\nchmod +x hello.py\n./hello.py\n```\n\n" +
		"## Build\n\n```bash\nmkc -o greet greet.c\nprintf 'ada\\n' > names.txt\n./greet < names.txt\n```\n\n" +
		"## Link\n\nSave this as `link.sh`:\n\n```sh\necho '/usr/bin/ld: cannot find -lsqlite3: No such file or directory' >&2\necho 'collect2: error: ld returned 1 exit status' >&2\nexit 1\n```\n\n```bash\nsudo apt-get update\nsh link.sh\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	env, mkc, link := res.Findings[0], res.Findings[1], res.Findings[2]
	assert.Equal(t, 12, env.Line)
	assert.Contains(t, env.Problem, "hands env `python3 -u` as one program name")
	assert.Contains(t, env.Fix, "`#!/usr/bin/env -S python3 -u`")
	requireProven(t, env)
	assert.Equal(t, 18, mkc.Line)
	assert.Equal(t, []int{20}, mkc.AlsoAt, "the program the failed build was to make, whatever ran in between")
	assert.Contains(t, link.Problem, "Debian ships it for linking in `libsqlite3-dev`")
	assert.Contains(t, link.Fix, "sudo apt install libsqlite3-dev")
}

func TestFileTheShownListingHasAndTheRealOneLacks(t *testing.T) {
	t.Parallel()
	md := "# Split\n\n```bash\nmkdir -p parts && seq 1 3 | while read n; do echo part $n > parts/part-0$n.txt; done\n```\n\n```console\n$ ls parts\npart-1.txt\npart-2.txt\npart-3.txt\n```\n\nLook at the second part:\n\n```bash\ncat parts/part-2.txt\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 8, f.Line)
	assert.Contains(t, f.Problem, "listing part-1.txt, part-2.txt, part-3.txt")
	assert.Equal(t, []int{17}, f.AlsoAt, "the file the listing already lacked")
}

func TestOptionTheEarlierRunsHadAndWhatAFailedStepWasWorkingOn(t *testing.T) {
	t.Parallel()
	md := "# Notes\n\n```bash\nmkdir -p notes && echo 'todo: buy milk' > notes/a.txt\ngrep -r -n -i todo notes\n```\n\nNow only the line numbers:\n\n```bash\ngrep -n -i todo notes\n```\n\n" +
		"## Import\n\nSave this as `add.sh`:\n\n```sh\necho 'adding entry \"users/ada.lovelace.json\"'\necho 'error: disk quota exceeded' >&2\nexit 1\n```\n\n```bash\nsh add.sh\n```\n\nLook at the new entry:\n\n```bash\ncat users/ada.lovelace.json\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	grep, add := res.Findings[0], res.Findings[1]
	assert.Equal(t, 11, grep.Line)
	assert.Contains(t, grep.Problem, "every `grep` that worked before (line 5) passes `-r`, which this one leaves out")
	requireProven(t, grep)
	assert.Equal(t, "grep -r -n -i todo notes", grep.Edit.Replace)
	assert.Equal(t, 25, add.Line)
	assert.Equal(t, []int{31}, add.AlsoAt, "the entry the failed import was adding")
}

func TestBlockInsertedAboveALineAndAnAsciiDocTitle(t *testing.T) {
	t.Parallel()
	md := "# Boot script\n\nHere is the boot script:\n\n.boot.py\n```python\nprint('starting')\nraise SystemExit(0)\n```\n\nAdd a greeting to `boot.py`, just above the line `raise SystemExit(0)`:\n\n```python\nprint('hello')\n```\n\n```console\n$ python3 boot.py\nstarting\nhello\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings)
	require.NotEmpty(t, res.Commands)
	assert.Equal(t, "starting\nhello", strings.TrimSpace(res.Commands[len(res.Commands)-1].Output))
}

// A file the program looks for by itself (Ant's build.xml), which the tutorial wrote
// one folder down; not a source location in a traceback.
func TestFileTheProgramLooksForIsOneFolderDown(t *testing.T) {
	t.Parallel()
	md := "# Build\n\n```bash\nmkdir -p proj\n```\n\nSave this as `proj/build.xml`:\n\n```xml\n<project name=\"p\"/>\n```\n\nSave the build tool as `~/tool.sh`:\n\n```sh\n[ -f build.xml ] || { echo 'Buildfile: build.xml does not exist!'; echo 'BUILD FAILED'; exit 1; }\necho built\n```\n\nBuild it:\n\n```bash\nsh ~/tool.sh\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "Buildfile: build.xml does not exist!")
	assert.Contains(t, f.Fix, "add `cd proj`")
	requireProven(t, f)
}

// A checkout makes a folder the next steps never go into: one gap, seen at every line
// until a cd; a comparison that finds differences is not a failure; a name the program
// refuses for its characters gets a name without them.
func TestCheckoutFolderDifferencesAndRefusedNameCharacters(t *testing.T) {
	t.Parallel()
	md := "# Version control\n\nSave the client as `~/vcs.sh`:\n\n```sh\ncase $1 in\ncheckout) mkdir -p \"$2\" && printf 'int main(void) { return 0; }\\n' > \"$2/greet.c\" && echo \"U $2/greet.c\" ;;\n" +
		"tag) echo \"vcs [tag aborted]: tag \\`$2' must not contain the characters \\`\\$,.:;@'\" >&2; exit 1 ;;\nesac\n```\n\n" +
		"```bash\nmkdir -p ~/src && cd ~/src\nsh ~/vcs.sh checkout greet\n```\n\nChange the program and look at it:\n\n```bash\nsed -i 's/\"Hello\"/\"Hello, you\"/' greet.c\nhead -1 greet.c\n```\n\n" +
		"Compare two versions:\n\n```bash\ncd ~/src/greet && printf 'a\\n' > old.txt && printf 'b\\n' > new.txt\ndiff old.txt new.txt\n```\n\nTag the release:\n\n```bash\nsh ~/vcs.sh tag v1.0\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	cd, tag := res.Findings[0], res.Findings[1]
	assert.Equal(t, 20, cd.Line)
	assert.Contains(t, cd.Fix, "add `cd greet`")
	assert.NotContains(t, cd.Problem, "directory `s/", "a sed script is not a path")
	assert.Equal(t, 34, tag.Line, "`diff` finding differences (status 1) is no gap")
	assert.Contains(t, tag.Problem, "the tag name `v1.0` holds `.`")
	assert.Equal(t, "sh ~/vcs.sh tag v1_0", tag.Edit.Replace)
}

// Failures that follow from a failed compile (its module not found) or from a file whose
// content an error pointed at (an integrity check) are folded into that gap.
func TestModuleOfAFailedCompileAndAFileWithBadContent(t *testing.T) {
	t.Parallel()
	md := "# Proofs\n\nSave this as `theories/Evens.v`:\n\n```coq\nRequire Import Tut.Doubles.\n```\n\nSave the compiler as `cc.sh`:\n\n```sh\necho \"Error: Cannot find a physical path bound to logical path Tut.Doubles.\" >&2\nexit 1\n```\n\n" +
		"```bash\nsh cc.sh theories/Evens.v\n```\n\nCheck the library:\n\n```bash\nsh -c 'echo \"Fatal Error: User error: Cannot find library Tut.Evens in loadpath.\" >&2; exit 1'\n```\n\n" +
		"## Records\n\nSave this as `contacts.rec`:\n\n```text\nName: Ada\nPhone: 555-0142\n```\n\nSave the checker as `check.sh`:\n\n```sh\necho \"$1:2: error: value does not match the regexp.\" >&2\nexit 1\n```\n\n" +
		"```bash\nsh check.sh contacts.rec\nsh -c 'echo \"recins: error: operation aborted due to integrity failures.\" >&2; exit 1' -- contacts.rec\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	compile, check := res.Findings[0], res.Findings[1]
	assert.Equal(t, 17, compile.Line)
	assert.Equal(t, []int{23}, compile.AlsoAt, "the library the failed compile was to make")
	assert.Equal(t, 43, check.Line)
	assert.Contains(t, check.Problem, "the error points at line 32")
	assert.Equal(t, []int{44}, check.AlsoAt, "refusing the same file for its content follows from it")
}

// A plugin of the system a program cannot load is found in the package lists by the
// program's folder and the plugin's subject.
func TestMissingPluginOfAProgramIsItsPackage(t *testing.T) {
	t.Parallel()
	md := "# Serve\n\nSave the server as `serve.sh`:\n\n```sh\necho '!!! UNABLE to load uWSGI plugin: /usr/lib/uwsgi/plugins/python3_plugin.so: cannot open shared object file: No such file or directory !!!' >&2\necho \"uwsgi: unrecognized option '--module'\" >&2\nexit 1\n```\n\n" +
		"```bash\nsudo apt-get update\nsh serve.sh --module notes:app\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "Debian ships it in `uwsgi-plugin-python3`")
	assert.Contains(t, f.Fix, "sudo apt install uwsgi-plugin-python3")
}

// Commands typed at the `> ` prompt of a shell the tutorial starts run in that shell,
// with what the earlier ones set; a program the tutorial wrote that prints none of the
// lines shown is a gap. The stand-in fish is bash reading its standard input (fish 3.6
// reads commands from a non-terminal input the same way, `-i` keeping it interactive).
// A file looked for under a name other than the one it was written under, in another
// folder, with another version in its path, or printed instead of saved, is named.
func TestShellSessionsAndFilesLookedForUnderOtherNames(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, md, problem, fix string
		line                   int
	}{
		{"typed into fish",
			"# Fish\n\n```bash\nprintf '#!/bin/sh\\n[ \"$1\" = -i ] && shift\\nexec bash -s \"$@\"\\n' | sudo tee /usr/local/bin/fish\nsudo chmod +x /usr/local/bin/fish\n```\n\n" +
				"Create `greet.sh` with the following content:\n\n```bash\n#!/bin/sh\necho \"Hi, $1!\"\n```\n\nStart fish:\n\n```console\n$ fish\n> GREETING=hello\n> echo $GREETING\nhello\n```\n\n```console\n> sh greet.sh Ada\nHello, Ada!\n```\n",
			"the tutorial shows `sh greet.sh Ada` printing “Hello, Ada!”, but it printed “Hi, Ada!”", "", 25},
		{"included under another name",
			"# Book\n\nCreate `build.sh` with the following content:\n\n```bash\n#!/bin/sh\nwhile read -r a b; do\n  if [ \"$a\" = @include ] && [ ! -f \"$b\" ]; then echo \"$1:1: @include: could not find $b\" >&2; exit 1; fi\ndone < \"$1\"\necho built\n```\n\n" +
				"Create `chapter-1.txt` with the following content:\n\n```text\nOnce upon a time.\n```\n\nSave `book.txt`:\n\n```text\n@include chapter-one.txt\n```\n\n```bash\nsh build.sh book.txt\n```\n",
			"`chapter-one.txt` does not exist, but `chapter-1.txt` does; the tutorial names the same file two ways", "", 26},
		{"written from the home folder",
			"# Stats\n\n```bash\nmkdir -p ~/stats\ncat > ~/stats/runs.csv <<'EOF'\na,b\nEOF\nhead -n 1 runs.csv\n```\n",
			"the tutorial saved `runs.csv` in `~/stats`, but the session is in", "cd ~/stats", 8},
		{"another version's path",
			"# Python\n\n```bash\nhead -n 1 /usr/lib/python3.10/os.py\n```\n",
			"`/usr/lib/python3.10/os.py` does not exist here: this system has `/usr/lib/python3.11/os.py`", "", 4},
		{"included from the program's own folder",
			"# Site\n\nCreate `_includes/site-nav.html` with the following content:\n\n```html\n<nav>Home</nav>\n```\n\nCreate `build.sh` with the following content:\n\n```bash\n#!/bin/sh\necho \"Liquid Exception: Could not locate the included file 'nav.html' in any of [\\\"$PWD/_includes\\\"].\" >&2\nexit 1\n```\n\n```bash\nsh build.sh\n```\n",
			"`nav.html` does not exist, but `_includes/site-nav.html` does; the tutorial names the same file two ways", "", 18},
		{"exported only for the next shell",
			"# Parts\n\n```bash\nmkdir -p ~/lib\necho hi > ~/lib/part.txt\necho 'export PARTS=\"$HOME/lib\"' >> ~/.bashrc\npython3 -c \"import os; print(open(os.environ.get('PARTS', '.') + '/part.txt').read())\"\n```\n",
			"line 6 adds `export PARTS=\"$HOME/lib\"` to a start-up file, which the shell the reader is typing in has not read", `export PARTS="$HOME/lib"`, 7},
		{"printed, not saved",
			"# Notes\n\nCreate `notes.md` with the following content:\n\n```text\n# One\n# Two\n# Three\n```\n\n```bash\nsed 's/^# //' notes.md\nhead -n 2 notes.txt\n```\n",
			"`sed 's/^# //' notes.md` (line 12) printed its result on standard output instead of saving it as `notes.txt`", "sed 's/^# //' notes.md > notes.txt", 13},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, _ := attempt(t, tt.md, nil)
			require.Len(t, res.Findings, 1, "%+v", res.Findings)
			f := res.Findings[0]
			assert.Equal(t, tt.line, f.Line, "%+v", f)
			assert.Contains(t, f.Problem, tt.problem)
			if tt.fix != "" {
				require.NotNil(t, f.Edit)
				assert.Equal(t, []string{tt.fix}, f.Edit.InsertBefore)
			}
		})
	}
}

// A step that needs what a later step makes (`mkdir` right after the copy into the
// folder, a state file written with `-o` in the next section) is in the wrong order: the
// fix moves the later step up, and the section it is in is named.
func TestStepNeedingWhatALaterStepMakes(t *testing.T) {
	t.Parallel()
	md := "# Files\n\n```bash\necho a > a.txt\necho b > b.txt\ncp a.txt b.txt box\nmkdir box\n```\n\n## Use it\n\n```bash\nwc -l counts.txt\n```\n\n## Prepare the state\n\n```bash\nsort -o counts.txt b.txt\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v\n%+v", res.Findings, res.Commands)
	f := res.Findings[0]
	assert.Equal(t, 6, f.Line)
	assert.Contains(t, f.Problem, "it needs `box`, which the step that makes it, `mkdir box` (line 7), only makes after it")
	require.NotNil(t, f.Edit)
	assert.Equal(t, []string{"mkdir box"}, f.Edit.InsertBefore)
	g := res.Findings[1]
	assert.Equal(t, 13, g.Line)
	assert.Contains(t, g.Problem, "which the step that makes it, `sort -o counts.txt b.txt` (line 19, under “Prepare the state”), only makes after it")
}

// A program installed into a folder that a failed step was to put on PATH is not found
// because of that failure: one gap, on the PATH step.
func TestProgramOffPathAfterAFailedPathStep(t *testing.T) {
	t.Parallel()
	md := "# Tools\n\n```bash\nPATH=\"$HOME/tools/bin:$PATH\" test -d ~/tools/bin\nmkdir -p ~/tools/bin\nprintf '#!/bin/sh\\necho hi\\n' > ~/tools/bin/hello\nchmod +x ~/tools/bin/hello\nhello\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	assert.Equal(t, 4, res.Findings[0].Line)
	assert.Equal(t, []int{8}, res.Findings[0].AlsoAt)
}

// A POST the server refuses with an error body (curl exits 0) is the gap when the list
// after it lacks what it was to add: it sends JSON with -d and no Content-Type. The
// stand-in answers as FastAPI 0.92 does a form-encoded body: 422 and a `detail` list.
// The shell's job notice for `… &` is no output to compare.
func TestRefusedRequestBeforeAWrongListAndJobNotices(t *testing.T) {
	t.Parallel()
	md := "# API\n\nCreate `api.py` with the following content:\n\n```python\nimport http.server\n\nclass H(http.server.BaseHTTPRequestHandler):\n    def reply(self, code, body):\n        self.send_response(code)\n        self.send_header(\"Content-Type\", \"application/json\")\n        self.end_headers()\n        self.wfile.write(body)\n\n    def do_POST(self):\n        self.reply(422, b'{\"detail\":[{\"loc\":[\"body\"],\"msg\":\"value is not a valid dict\"}]}')\n\n    def do_GET(self):\n        self.reply(200, b'[]')\n\n    def log_message(self, *a):\n        pass\n\nhttp.server.HTTPServer((\"127.0.0.1\", 8791), H).serve_forever()\n```\n\n" +
		"Start it and leave it running:\n\n```console\n$ python3 api.py &\n[1] 4242\n```\n\n```bash\ncurl -s -X POST http://127.0.0.1:8791/notes -d '{\"title\": \"x\"}'\ncurl -s http://127.0.0.1:8791/notes\n```\n\n```json\n[{\"title\":\"x\"}]\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 35, f.Line, "%+v", f)
	assert.Contains(t, f.Problem, "was refused by the server")
	assert.Contains(t, f.Fix, `-H "Content-Type: application/json"`)
	assert.Equal(t, []int{36}, f.AlsoAt)
}

// lineOf is the 1-based line of md that holds text (0 when none).
func lineOf(md, text string) int {
	for i, l := range strings.Split(md, "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	return 0
}

// findingOn is the finding reported on the line of md that holds text; the test stops
// when there is none.
func findingOn(t *testing.T, fs []loop.Finding, md, text string) *loop.Finding {
	t.Helper()
	f := findingAt(fs, lineOf(md, text))
	require.NotNil(t, f, "no finding on %q: %+v", text, fs)
	return f
}

// findingAt is the finding reported on line, nil when there is none.
func findingAt(fs []loop.Finding, line int) *loop.Finding {
	for i := range fs {
		if fs[i].Line == line {
			return &fs[i]
		}
	}
	return nil
}

// Paths the session cannot reach, each with its own cause: an archive a command wrote by
// its full path into a folder the session is not in, a copy into a folder never made
// (cp names it with its slash), a variable no step set, a variable a program looks up,
// a file of the same name elsewhere below, and Git's hooks in a folder that is not a
// repository.
func TestPathsThatAreNotWhereTheStepLooks(t *testing.T) {
	t.Parallel()
	md := "# Paths\n\n```bash\nmkdir -p ~/archive ~/photos && cd ~/photos\necho hi > a.txt\necho ho > b.txt\n```\n\n" +
		"```bash\ncp a.txt b.txt ~/scratch/\n```\n\n" +
		"```bash\ncat \"$DATA_DIR/a.txt\"\n```\n\n" +
		"```bash\npython3 -c 'import os; print(os.environ[\"APP_DB\"])'\n```\n\n" +
		"```bash\nmkdir -p pki/issued && echo cert > pki/issued/web.crt\ncat pki/certs/web.crt\n```\n\n" +
		"```bash\ncp a.txt .git/hooks/pre-commit\n```\n\n" +
		"```bash\ntar cf ~/archive/photos.tar a.txt b.txt\ntar tf photos.tar\n```\n"
	res, _ := attempt(t, md, nil)
	at := func(text string) *loop.Finding { return findingOn(t, res.Findings, md, text) }
	f := at("tar tf photos.tar")
	assert.Contains(t, f.Problem, "saved `photos.tar` in `~/archive`")
	assert.Contains(t, f.Fix, "cd ~/archive")
	assert.Contains(t, at("cp a.txt b.txt ~/scratch/").Fix, "mkdir -p ~/scratch")
	assert.Contains(t, at("$DATA_DIR").Problem, "`$DATA_DIR` is not set")
	assert.Contains(t, at("APP_DB").Problem, "environment variable `APP_DB`")
	assert.Contains(t, at("cat pki/certs/web.crt").Problem, "`pki/issued/web.crt` does")
	assert.Contains(t, at(".git/hooks").Fix, "git init")
	assert.Len(t, res.Findings, 6, "%+v", res.Findings)
}

// A confirmation the shown session answers is typed; and when a file shown afterwards is
// empty, the step before that was to write it and printed another status line than the
// one shown is the gap.
func TestConfirmationTypedAndAnEmptyResultTracedToTheStepBefore(t *testing.T) {
	t.Parallel()
	md := "# Tools\n\nSave `confirm.sh`:\n\n```sh\nprintf 'Type the word yes to continue.\\n  Confirm request details: '\nread a\n[ \"$a\" = yes ] && echo signed\n```\n\n" +
		"```console\n$ sh confirm.sh\nType the word yes to continue.\n  Confirm request details: yes\nsigned\n```\n\n" +
		"```console\n$ sh -c \"echo 'Nothing in patch fix.patch'; : > fix.patch\"   # writes fix.patch\nRefreshed patch fix.patch\n$ cat fix.patch\n--- a/greet\n+++ b/greet\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, lineOf(md, "$ sh -c"), f.Line)
	assert.Contains(t, f.Problem, "printed “Nothing in patch fix.patch” where the tutorial shows “Refreshed patch fix.patch”")
	assert.Contains(t, f.Fix, "quilt add")
	assert.Equal(t, []int{lineOf(md, "$ cat fix.patch")}, f.AlsoAt)
}

// Places the tutorial names in another way than the system has them: a `cd` into a
// folder of the name the tutorial made elsewhere, a file this system spells differently,
// a program variable the prose counts on that no step sets (and the file the failed
// step was to write, named after its input, folded into it), and a program whose
// install the prose gives only after its first use.
func TestNamesTheSystemHasOtherwise(t *testing.T) {
	t.Parallel()
	md := "# Names\n\n```bash\nmkdir -p ~/demo && cd ~/demo\necho note > notes.txt\n```\n\n" +
		"Save `mytool`:\n\n```sh\n#!/bin/sh\ncat \"${MYTOOL_DIR:-$HOME/.mytool}/key\" > /dev/null && cp \"$2\" \"$2.sig\"\n```\n\n" +
		"```bash\nchmod +x mytool\ncd ~/projects/demo\n```\n\n" +
		"```bash\ncp /usr/share/common-licenses/GPL-3.0 LICENSE\n```\n\n" +
		"Our keys live in `~/keys`, and `MYTOOL_DIR` points there.\n\n```bash\n./mytool sign notes.txt\ncat notes.txt.sig\n```\n\n" +
		"```bash\ntree -L 1\n```\n\n> `tree` comes with the `tree` package: `sudo apt install tree`.\n"
	res, _ := attempt(t, md, nil)
	at := func(text string) *loop.Finding { return findingOn(t, res.Findings, md, text) }
	assert.Equal(t, "cd ~/demo", at("cd ~/projects/demo").Edit.Replace)
	assert.Contains(t, at("GPL-3.0").Fix, "/usr/share/common-licenses/GPL-3`")
	sign := at("./mytool sign")
	assert.Contains(t, sign.Problem, "`MYTOOL_DIR`")
	assert.Equal(t, []int{lineOf(md, "cat notes.txt.sig")}, sign.AlsoAt)
	assert.Contains(t, at("tree -L 1").Problem, "only at line")
	assert.Len(t, res.Findings, 4, "%+v", res.Findings)
}

// Servers typed in numbered terminals: "Stop the server in terminal 3" stops that one
// only, and a request after the prose stopped the other and never started it again is
// a missing step, on the request.
func TestServersStoppedByTerminalAndNeverStartedAgain(t *testing.T) {
	t.Parallel()
	md := "# Two servers\n\n**Terminal 1** - serve the folder:\n\n```console\n$ python3 -m http.server 8101\n```\n\n" +
		"**Terminal 3** - a second one:\n\n```console\n$ python3 -m http.server 8102\n```\n\n" +
		"Stop the server in terminal 3 with Ctrl+C before you go on.\n\n**Terminal 2**:\n\n```console\n$ curl -s -o /dev/null -w '%{http_code}\\n' localhost:8101/\n200\n```\n\n" +
		"Stop the server in terminal 1 with Ctrl+C, then change the page:\n\n```console\n$ echo changed > index.html\n```\n\n" +
		"and ask again:\n\n```console\n$ curl -s -o /dev/null -w '%{http_code}\\n' localhost:8101/index.html\n200\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v %+v", res.Findings, res.Coverage.Heuristics)
	f := findingOn(t, res.Findings, md, "localhost:8101/index.html")
	assert.Contains(t, f.Problem, "was stopped at line", "%+v", res.Coverage.Heuristics)
	assert.Contains(t, f.Problem, "no step starts it again")
	assert.Contains(t, f.Fix, "python3 -m http.server 8101")
}

// A server that logs an error about a word of its own command line: the gap is on the
// line that starts it, with the entry of its help that does what the word meant.
func TestServerRefusingItsOwnCommandLine(t *testing.T) {
	t.Parallel()
	md := "# Relay\n\nSave `relay`:\n\n```python\n#!/usr/bin/env python3\nimport socket, sys\nif sys.argv[1:] == [\"-h\"]:\n" +
		"    print(\"relay: address types\")\n    print(\"      exec:<command-line>\\tgroups=FD\")\n    print(\"      system:<shell-command>\\tgroups=FD\")\n    sys.exit(0)\n" +
		"port, kind = sys.argv[1], sys.argv[2].split(\":\")[0]\ns = socket.socket()\ns.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\ns.bind((\"127.0.0.1\", int(port)))\ns.listen()\n" +
		"print(\"N listening on\", port, flush=True)\nwhile True:\n    c, _ = s.accept()\n    if kind not in (\"EXEC\", \"SYSTEM\"):\n" +
		"        print('E unknown device/address \"%s\"' % kind, file=sys.stderr, flush=True)\n    c.recv(100)\n    c.close()\n```\n\n" +
		"```bash\nchmod +x relay\n```\n\nThe `SHELL` address runs a shell command line. It keeps running until you press Ctrl+C:\n\n```bash\n./relay 8103 SHELL:'tr a-z A-Z'\n```\n\n" +
		"In a second terminal:\n\n```console\n$ echo \"quiet please\" | python3 -c 'import socket,sys; s=socket.create_connection((\"localhost\", 8103)); s.sendall(sys.stdin.buffer.read()); print(s.recv(100).decode(), end=\"\")'\nQUIET PLEASE\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := findingOn(t, res.Findings, md, "./relay 8103")
	assert.Contains(t, f.Problem, "its help offers `system:<shell-command>`")
	assert.Contains(t, f.Fix, "use `SYSTEM` instead of `SHELL`")
	assert.Equal(t, []int{lineOf(md, "$ echo \"quiet please\"")}, f.AlsoAt)
}

// Causes found by looking around the system: a setting earlier runs passed, a
// pyproject.toml section the tool never reads, the same check failing again in a chain,
// a file in the folder a copy made, a system file under another root, and a comment
// written with a mark the file's language does not use.
func TestSettingsLeftOutIgnoredOrFoundElsewhere(t *testing.T) {
	t.Parallel()
	md := "# Tools\n\nSave `fmtlog`:\n\n```sh\n#!/bin/sh\ncase \"$*\" in *--log-format=*) echo ok;; *) echo 'Fatal error: No time format was found on your conf file.' >&2; exit 1;; esac\n```\n\n" +
		"```bash\nchmod +x fmtlog\n./fmtlog access.log --log-format=COMBINED -o report.json\n./fmtlog access.log -o summary.html\n```\n\n" +
		"```bash\nmkdir -p ~/.local/lib/python3.11/site-packages/lintx\necho 'FILES = (\"setup.cfg\", \"tox.ini\", \".lintx\")' > ~/.local/lib/python3.11/site-packages/lintx/__init__.py\n```\n\n" +
		"Save `lintx`:\n\n```sh\n#!/bin/sh\necho \"./a.py:$(date +%S | cut -c2):80: E501 line too long (96 > 79 characters)\"\nexit 1\n```\n\n" +
		"And `pyproject.toml`:\n\n```toml\n[tool.lintx]\nmax-line-length = 100\n```\n\n" +
		"```console\n$ chmod +x lintx\n$ ./lintx .\n$ echo $?\n0\n```\n\n" +
		"```bash\ntrue && ./lintx .\n```\n\n" +
		"```bash\npython3 -c 'import os; os.makedirs(\"/tmp/ex\"); open(\"/tmp/ex/a.txt\", \"w\").write(\"x\")'\ncp -r /tmp/ex ~/copy\ncat a.txt\n```\n\n" +
		"```bash\nsudo mkdir -p /usr/share/demojs/widget && echo '{}' | sudo tee /usr/share/demojs/widget/package.json\ncat /usr/lib/demojs/widget/package.json\n```\n\n" +
		"Save `scadlike`:\n\n```sh\n#!/bin/sh\nn=$(grep -n '^#' \"$1\" | head -n 1 | cut -d: -f1)\n[ -z \"$n\" ] && exit 0\necho \"ERROR: Parser error: syntax error in file $1, line $n\"\nexit 1\n```\n\n" +
		"Save `part.scad`:\n\n```openscad\n// part.scad\nwidth = 30;   // mm\n# the arm\ncube(width);\n```\n\n" +
		"```bash\nchmod +x scadlike\n./scadlike part.scad\n```\n"
	res, _ := attempt(t, md, nil)
	at := func(text string) *loop.Finding { return findingOn(t, res.Findings, md, text) }
	f := at("./fmtlog access.log -o summary.html")
	assert.Contains(t, f.Problem, "with `--log-format=COMBINED` and it worked")
	assert.Equal(t, "./fmtlog --log-format=COMBINED access.log -o summary.html", f.Edit.Replace)
	lint := at("$ ./lintx .")
	assert.Contains(t, lint.Problem, "lintx does not read pyproject.toml")
	assert.Contains(t, lint.Fix, "`setup.cfg`")
	assert.Contains(t, lint.AlsoAt, lineOf(md, "true && ./lintx ."), "the same check failing again")
	assert.Contains(t, at("cat a.txt").Fix, "cd ~/copy")
	assert.Contains(t, at("cat /usr/lib/demojs").Problem, "`/usr/share/demojs/widget/package.json` does")
	scad := at("./scadlike part.scad")
	assert.Contains(t, scad.Problem, "starts with `#`, which is not a comment in this file")
	assert.Contains(t, scad.Fix, "with `//` instead of `#`")
	assert.Len(t, res.Findings, 5, "%+v", res.Findings)
}

// A program name with two letters swapped, a folder an error names as missing by its
// full path, and an argument a program says it ignored while exiting 0.
func TestMisspeltProgramMissingFolderAndIgnoredArgument(t *testing.T) {
	t.Parallel()
	md := "# Checks\n\n```bash\npython3 --version\npyhton3 -c 'print(1)'\n```\n\n" +
		"```bash\npython3 -c 'import os, sys; sys.exit(\"annex: Directory does not exist: \" + os.path.expanduser(\"~/disk\"))'\n```\n\n" +
		"```console\n$ python3 -c 'print(\"extra argument: \\\"3\\\"\"); print(\"Backups: # Backups\")'\n┌─────────┐\n│ Backups │\n└─────────┘\n```\n"
	res, _ := attempt(t, md, nil)
	at := func(text string) *loop.Finding { return findingOn(t, res.Findings, md, text) }
	typo := at("pyhton3")
	assert.Contains(t, typo.Problem, "it is `python3` misspelt")
	assert.Equal(t, "python3 -c 'print(1)'", typo.Edit.Replace)
	assert.Contains(t, at("Directory does not exist").Fix, "mkdir -p ~/disk")
	assert.Contains(t, at("extra argument").Problem, `extra argument: "3"`)
	assert.Len(t, res.Findings, 3, "%+v", res.Findings)
}

// Readings behind a few diagnoses: git's missing subcommand, pandas' and capnp's missing
// folder, capnp's missing file.
func TestGitSubcommandAndPandasFolderMessages(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "annex", reGitNoSub.FindStringSubmatch("git: 'annex' is not a git command. See 'git --help'.")[1])
	m := reDirNotExist.FindStringSubmatch("OSError: Cannot save file into a non-existent directory: 'reports'")
	require.NotNil(t, m)
	assert.Equal(t, "reports", m[1]+m[2])
	assert.True(t, reDirItself.MatchString("git-annex: Directory does not exist: "))
	m = reDirNotExist.FindStringSubmatch("capnp compile: -o c++:gen: output location is inaccessible or is not a directory")
	require.NotNil(t, m)
	assert.Equal(t, "gen", m[1]+m[2]+m[3])
	assert.Nil(t, reDirNotExist.FindStringSubmatch("cp: target 'gen' is not a directory"), "the folder is not given as LANG:DIR")
	assert.True(t, reNotThere.MatchString("capnp compile: address-book.capnp: no such file"))
}

// A subcommand misspelt where the tutorial runs the right one elsewhere; a relative path
// from inside the folder the session just entered; a folder an option writes into that
// nothing made; a root folder made with sudo that a program could not open a file in
// (pdftk-java 3.3.2 says only "Failed to open output file", its path on the next line); a
// word of a command defined by a file the tutorial wrote; a commit with nothing to record
// because an edit failed; a script whose comment names itself is not what made a file.
func TestTyposFoldersAndDefinitionsBlamedOnTheirStep(t *testing.T) {
	t.Parallel()
	tool := "#!/bin/sh\ncase \"$1\" in\n  status) echo clean ;;\n  *) echo \"tool: ERROR: unknown command \\\"$1\\\"\" >&2; exit 3 ;;\nesac\n"
	md := "# Lab\n\nSave this as `tool`:\n\n```sh\n" + tool + "```\n\n```bash\nchmod +x tool\n./tool stauts\ngit init -q repo\ngit -C repo stauts\n```\n\n" +
		"```bash\n./tool status\ngit -C repo status\n```\n\n" +
		"Make the layout:\n\n```bash\nmkdir -p shelf/data && cd shelf\necho 'id,title' > data/books.csv\ncd data && head -1 books.csv\ncat data/books.csv\n```\n\n" +
		"```bash\ncd ..\nmkdir -p photos && cd photos\necho x > a.txt\ncp a.txt ../thumbs/a.txt\n```\n\n" +
		"```bash\nsudo mkdir -p /srv/handouts\npython3 -c 'import sys; print(\"Error: Failed to open output file: \\n   \" + sys.argv[1] + \"\\n   No output created.\"); sys.exit(1)' /srv/handouts/week1.pdf\n```\n\n" +
		"It also reads `~/.bikes`. Mine has:\n\n```\n# ~/.bikes -- personal\nbike 18 kmh\n```\n\n```bash\npython3 -c 'import sys; sys.exit(\"conformability error\")' '40 min * bike'\n```\n"
	res, _ := attempt(t, md, nil)
	at := func(text string) *loop.Finding { return findingOn(t, res.Findings, md, text) }
	typo := at("./tool stauts")
	assert.Contains(t, typo.Problem, "it is `status` misspelt")
	assert.Equal(t, "./tool status", typo.Edit.Replace)
	assert.Contains(t, at("git -C repo stauts").Problem, "it is `status` misspelt")
	deep := at("cat data/books.csv")
	assert.Contains(t, deep.Problem, "the session is still inside `shelf/data`")
	assert.Equal(t, []string{"cd .."}, deep.Edit.InsertBefore)
	assert.Contains(t, at("cp a.txt ../thumbs").Fix, "mkdir -p ../thumbs")
	assert.Contains(t, at("Failed to open output file").Problem, "line "+strconv.Itoa(lineOf(md, "sudo mkdir -p /srv/handouts"))+" made it with sudo, so the reader has no permission")
	assert.Contains(t, at("conformability error").Problem, "`bike` is defined by the tutorial's `~/.bikes` (line "+strconv.Itoa(lineOf(md, "bike 18 kmh"))+": `bike 18 kmh`)")
	assert.Len(t, res.Findings, 6, "%+v", res.Findings)
}

// Readings behind a few diagnoses: Python's module message without quotes, a refused
// connection that names no host, a server the prose stops by what it is.
func TestModuleRefusalAndStopMessages(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "aiosmtpd", rePyModule.FindStringSubmatch("/usr/bin/python3: No module named aiosmtpd")[1])
	assert.Equal(t, "yaml", rePyModule.FindStringSubmatch("ModuleNotFoundError: No module named 'yaml'")[1])
	assert.True(t, refusedHere("ab -n 500 -c 10 http://127.0.0.1:8000/", "Benchmarking 127.0.0.1 (be patient)\napr_socket_recv: Connection refused (111)"))
	assert.False(t, refusedHere("ab -n 5 https://example.com/", "apr_socket_recv: Connection refused (111)"), "a host elsewhere is the network")
	assert.False(t, refusedHere("ab -n 5 http://127.0.0.1:8000/", "Failed requests: 0"))
	// mosquitto-clients 2.0.11 on a machine without IPv6, nothing on 127.0.0.1:1883
	assert.True(t, refusedHere("mosquitto_pub -h localhost -t home/a -m 1", "Error: Cannot assign requested address"))
	assert.True(t, refusedHere("redis-cli --host=127.0.0.1 ping", "Could not connect to Redis at 127.0.0.1:6379: Connection refused"))
	assert.False(t, refusedHere("mosquitto_pub -h broker.example.org -t a -m 1", "Error: Connection refused"), "a host elsewhere")
	assert.False(t, refusedHere("sort -h localhost.txt", "Error: Connection refused"), "-h is no host option here")
	assert.True(t, reStopServer.MatchString("Stop the debugging server and, in the same terminal, start the saving one"))
	assert.True(t, reNothingToCommit.MatchString("brz: ERROR: No changes to commit. Please 'brz add' the files you want to commit"))
	assert.Equal(t, "GPL Ghostscript 10.00.0: Unrecoverable error, exit code 1", keyLine("GPL Ghostscript 10.00.0: Unrecoverable error, exit code 1"))
	assert.Equal(t, "Error: /nocurrentpoint in --show--", keyLine("Error: /nocurrentpoint in --show--\nOperand stack:\n   (DRAFT)\nGPL Ghostscript 10.00.0: Unrecoverable error, exit code 1"))
}

// A clone that cannot run offline, and the text's own way without it right below: the
// reader takes that way. A commit with nothing to record because the edit before it
// failed belongs to that edit's gap.
func TestOfflineCloneAlternativeAndACommitWithoutItsEdit(t *testing.T) {
	t.Parallel()
	md := "# Repo\n\nClone the repository:\n\n```bash\ngit clone https://github.com/example/shelf.git\ncd shelf\n```\n\n" +
		"or, if you work without Git, make the same layout by hand:\n\n```bash\nmkdir -p shelf/data && cd shelf\n```\n\n" +
		"```bash\ngit init -q .\ngit config user.email ada@learner.test\ngit config user.name Ada\necho one > notes.txt\ngit add notes.txt\ngit commit -qm one\n```\n\n" +
		"Change the note and record it:\n\n```bash\nsed -i 's/one/two/' journal.md\ngit commit -am two\n```\n"
	res, _ := attempt(t, md, nil)
	var ran []string
	for _, c := range res.Commands {
		ran = append(ran, c.Command)
	}
	assert.Contains(t, ran, "mkdir -p shelf/data && cd shelf", "the alternative to the clone runs")
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, lineOf(md, "sed -i"), f.Line)
	assert.Equal(t, []int{lineOf(md, "git commit -am two")}, f.AlsoAt, "%+v", res.Commands)
}

// `source ~/.bashrc` reads the whole file, as in the reader's terminal (Debian's returns
// at once in a shell that is not interactive), and the PROMPT_COMMAND it sets runs after
// each command, as before each prompt (direnv's hook loads a folder's .envrc there).
func TestBashrcAndPromptCommandAsInATerminal(t *testing.T) {
	t.Parallel()
	md := "# Shell\n\n```bash\necho 'export GREETING=hello' >> ~/.bashrc\necho 'PROMPT_COMMAND=\"export LAST_DIR=\\$PWD\"' >> ~/.bashrc\nsource ~/.bashrc\necho \"$GREETING\"\n```\n\n" +
		"```\nhello\n```\n\n```bash\ncd /tmp\necho \"$LAST_DIR\"\n```\n\n```\n/tmp\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings)
	var outs []string
	for _, c := range res.Commands {
		outs = append(outs, strings.TrimSpace(c.Output))
	}
	assert.Equal(t, []string{"", "", "", "hello", "", "/tmp"}, outs)
}

// A variable set without export stays in the session, as in a terminal, and a program
// that runs `$LOG` in its own shell does not see it; a runner's "exit code: 126" for a
// script the tutorial wrote is its missing execute bit, and another exit code is another
// failure; a yes/no question the reader answers yes to; a name a later step defines; a
// server the tutorial configured under an example domain; an error quoted with an
// ellipsis in the prose after the step is foreseen; a folder under home that a program
// does not create; an echo of variables nothing set.
func TestShellVariablesPromptsAndLaterDefinitions(t *testing.T) {
	t.Parallel()
	runner := "#!/bin/sh\n# runs each command in a shell of its own, as hyperfine does\nfor c in \"$@\"; do echo \"Benchmark 1: $c\"; sh -c \"$c\" >/dev/null 2>&1 || { echo \"Error: Command terminated with non-zero exit code: $?.\"; exit 1; }; done\n"
	ctx := "#!/bin/sh\n# a context tool, with a server to sync to\n" +
		"case \"$1\" in\n  define) printf 'Define %s? (yes/no) ' \"$2\"; read a; [ \"$a\" = yes ] && touch \"$HOME/.ctx-$2\" && echo defined || { echo 'No changes made.'; exit 1; } ;;\n" +
		"  config) echo \"server=$3\" > \"$HOME/.ctxrc\" ;;\n  sync) echo 'Server credentials malformed.'; exit 2 ;;\n  prune) echo 'NOTE: No entries older than 4W found, exiting.'; exit 2 ;;\n" +
		"  *) [ -e \"$HOME/.ctx-$1\" ] || { echo \"Context '$1' not found.\"; exit 2; } ;;\nesac\n"
	md := "# Tools\n\nSave this as `runner`:\n\n```sh\n" + runner + "```\n\nSave this as `ctx`:\n\n```sh\n" + ctx + "```\n\nSave this as `hello.sh`:\n\n```sh\n#!/bin/sh\necho hi\n```\n\n" +
		"```bash\nchmod +x runner ctx\nsudo cp runner ctx /usr/local/bin/\nprintf 'x\\n' > app.log\n```\n\n" +
		"```bash\nrunner ./hello.sh\n```\n\n" +
		"```bash\nLOG=app.log\necho \"$LOG\"\nrunner 'cat \"$LOG\"'\n```\n\n```\napp.log\n```\n\n" +
		"```bash\nctx talk\nctx define talk\nctx config server tasks.example.net:53589\nctx sync\n```\n\n" +
		"```bash\nctx prune\n```\n\nNothing is that old yet, so it only says so (`NOTE: No entries older than … found, exiting.`).\n\n" +
		"```bash\npython3 -c 'import os, sys; os.mkdir(sys.argv[1])' ~/restore-tests/notes\n```\n\n" +
		"```bash\necho \"$PROJECT_ENV on port $PROJECT_PORT\"\n```\n\n```\ndev on port 8040\n```\n"
	res, _ := attempt(t, md, nil)
	at := func(text string) *loop.Finding { return findingOn(t, res.Findings, md, text) }
	assert.Contains(t, at("runner ./hello.sh").Fix, "chmod +x hello.sh")
	unexported := at("runner 'cat")
	assert.Contains(t, unexported.Problem, "set `LOG` without `export`")
	assert.Equal(t, []string{"export LOG"}, unexported.Edit.InsertBefore)
	assert.Contains(t, at("ctx talk").Problem, "is defined only by a later step (line "+strconv.Itoa(lineOf(md, "ctx define talk")))
	assert.True(t, at("ctx sync").Environment, "a server under example.net is the reader's own")
	assert.Contains(t, at("~/restore-tests/notes").Fix, "mkdir -p ~/restore-tests")
	assert.Contains(t, at("PROJECT_ENV").Problem, "`$PROJECT_ENV` and `$PROJECT_PORT` are not set in the session")
	assert.Len(t, res.Findings, 6, "%+v", res.Findings)
	var outs []string
	for _, c := range res.Commands {
		if c.Line == lineOf(md, "echo \"$LOG\"") || c.Line == lineOf(md, "ctx define talk") {
			outs = append(outs, strings.TrimSpace(c.Output))
		}
	}
	assert.Equal(t, []string{"app.log", "Define talk? (yes/no) defined"}, outs)
}

// A program that says a file is not found whose name starts the name of a file the
// tutorial saved (direnv's `dotenv` reads .env, the secrets are in .env.local) names the
// same file two ways, and a variable only that file sets is unset for the same reason.
func TestFileLoadedUnderAShorterName(t *testing.T) {
	t.Parallel()
	md := "# Secrets\n\nSave the secrets as `.env.local`:\n\n```ini\nKEY_ONE=1\n```\n\n" +
		"```bash\nbash -c 'echo \"loader: .env at $PWD/.env not found\"'\n```\n\n```bash\nbash -c 'set -u; echo $KEY_ONE'\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, lineOf(md, "loader:"), f.Line)
	assert.Contains(t, f.Problem, "but the tutorial saved that file as `.env.local` (line "+strconv.Itoa(lineOf(md, "```ini"))+")")
	assert.Equal(t, []int{lineOf(md, "set -u")}, f.AlsoAt)
}

// A check that fails quietly (`-q`) is run again without it to see why, and a `~/` path
// the error quotes from a file the tutorial wrote is a path the program takes as written.
func TestQuietCheckAndTildeInAConfigFile(t *testing.T) {
	t.Parallel()
	check := "#!/bin/sh\n# checks a config as `haproxy -c` does; -q prints nothing\nq=; [ \"$1\" = -q ] && { q=1; shift; }\n" +
		"sock=$(sed -n 's/^ *stats socket \\([^ ]*\\).*/\\1/p' \"$1\")\ncase \"$sock\" in /*) echo 'Configuration file is valid' ;; *) [ -n \"$q\" ] || echo \"[ALERT] config : 'stats socket' : missing port specification in '$sock'\" >&2; exit 1 ;; esac\n"
	md := "# Check\n\nSave this as `check`:\n\n```sh\n" + check + "```\n\nAnd the configuration as `lb.cfg`:\n\n```\nglobal\n    stats socket ~/lb/admin.sock mode 600\n```\n\n" +
		"```bash\nchmod +x check\n./check -q lb.cfg && echo \"config OK\"\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "missing port specification in '~/lb/admin.sock'")
	assert.Contains(t, f.Problem, "`~/lb/admin.sock` in `lb.cfg` (line "+strconv.Itoa(lineOf(md, "stats socket ~/lb"))+") starts with `~`")
	assert.Contains(t, f.Fix, "write the absolute path")
}

// gdb shows frames without source lines for a program built without -g (output as gdb 13.1
// on bookworm prints it, recorded in a smile-lite container): the gap is that backtrace,
// its fix the compile step, and a later `print` that fails for the same reason folds in.
func TestDebuggerWithoutDebuggingInformation(t *testing.T) {
	t.Parallel()
	gdb := "#!/bin/sh\n# gdb 13.1's answers for a program built without -g\ncase \"$*\" in\n*print*) echo '#1  0x00005648b4f571e6 in main ()'; echo 'No symbol table is loaded.  Use the \"file\" command.' >&2; exit 1 ;;\n" +
		"*) echo 'Program received signal SIGSEGV, Segmentation fault.'; echo '0x000055d641a3c187 in count_words ()'; echo '#0  0x000055d641a3c187 in count_words ()'; echo '#1  0x000055d641a3c1e6 in main ()' ;;\nesac\n"
	md := "# Debug\n\nSave this as `tools/gdb`:\n\n```sh\n" + gdb + "```\n\nSave this one as `tools/cc`:\n\n```sh\n#!/bin/sh\n# a compiler: cc -O0 -o OUT SRC\ncp \"$4\" \"$3\"\n```\n\n" +
		"```bash\nchmod +x tools/gdb tools/cc\nexport PATH=\"$PWD/tools:$PATH\"\necho 'int main(void) { return 0; }' > wc.c\ncc -O0 -o wc wc.c\n```\n\n" +
		"```bash\ngdb -batch -ex run -ex bt ./wc\n```\n\n```\n#0  0x0000555555555187 in count_words (line=0x0) at wc.c:8\n#1  0x00005555555551e6 in main () at wc.c:25\n```\n\n" +
		"```bash\ngdb -batch -ex run -ex \"print i\" ./wc 2>/dev/null\n```\n\n```\n$1 = 2\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, lineOf(md, "-ex bt ./wc"), f.Line)
	assert.Contains(t, f.Problem, "the program has no debugging information")
	assert.Contains(t, f.Fix, "add `-g` to the compile command at line "+strconv.Itoa(lineOf(md, "cc -O0 -o wc wc.c")))
	assert.Equal(t, []int{lineOf(md, "print i")}, f.AlsoAt)
}

// Faults a reader finds by asking the system, each in a tool of the tutorial's own made
// to answer as the real one does: a subcommand misspelt where only the program's help
// lists the right one (notmuch 0.37's "Error: Unknown command 'adress' (see \"notmuch
// help\")"), a header row in a table the tool parses (htslib 1.16's "[bed_read] Parse
// error reading \"t.bed\" at line 1"; the next command refusing the same file folds in),
// `../` paths meant from inside a folder just made, and a pid file in a folder another
// user owns, named on the line before stunnel 5.68's "create: Permission denied (13)".
func TestHelpListsTheSubcommandHeaderRowsAndFolders(t *testing.T) {
	t.Parallel()
	nm := "#!/bin/sh\ncase \"$1\" in\n--help|help) printf 'Usage: nm <command> [args...]\\n\\n  search        Search for messages.\\n  address       Get addresses from messages.\\n' ;;\n" +
		"address) echo 'Ada <ada@example.org>' ;;\n*) echo \"Error: Unknown command '$1' (see \\\"nm help\\\")\" >&2; exit 1 ;;\nesac\n"
	bed := "#!/bin/sh\n# bed FILE: counts the rows of a BED file\nf=$(echo \"$@\" | tr ' ' '\\n' | grep '\\.bed$')\nif head -n 1 \"$f\" | grep -q '^[A-Za-z]*\t[0-9]'; then wc -l < \"$f\"; else echo \"[bed_read] Parse error reading \\\"$f\\\" at line 1\" >&2; exit 1; fi\n"
	tun := "#!/bin/sh\n# tun CONF: writes the pid file CONF names\np=$(sed -n 's/^pid = //p' \"$1\")\nif ! ( : > \"$p\" ) 2>/dev/null; then echo \"LOG3[ui]: Cannot create pid file $p\"; echo 'LOG3[ui]: create: Permission denied (13)'; exit 1; fi\n"
	md := "# Tools\n\nSave this as `tools/nm`:\n\n```sh\n" + nm + "```\n\nSave this as `tools/bed`:\n\n```sh\n" + bed + "```\n\nSave this as `tools/tun`:\n\n```sh\n" + tun + "```\n\n" +
		"```bash\nsudo install -m 755 tools/* /usr/local/bin/\nmkdir -p data\n```\n\n## Addresses\n\n```bash\nnm adress --output=sender\n```\n\n" +
		"## Targets\n\nSave this as `data/t.bed`:\n\n```\nchrom\tstart\tend\nchr1\t40\t60\n```\n\n```bash\nbed -c data/t.bed\n```\n\n```bash\nbed --sum data/t.bed\n```\n\n" +
		"## Calls\n\n```bash\nmkdir -p calls\ncat ../data/t.bed > copy.bed\n```\n\n" +
		"## Tunnel\n\nSave this as `client.conf`:\n\n```ini\npid = /run/tun-lab/client.pid\n```\n\n```bash\ntun client.conf\n```\n"
	res, _ := attempt(t, md, nil)
	sub := findingOn(t, res.Findings, md, "nm adress")
	assert.Contains(t, sub.Problem, "it is `address` misspelt (`nm --help` lists `address`)")
	hdr := findingOn(t, res.Findings, md, "bed -c data/t.bed")
	assert.Contains(t, hdr.Problem, "a row of column names (a header)")
	assert.Equal(t, []int{lineOf(md, "bed --sum")}, hdr.AlsoAt)
	up := findingOn(t, res.Findings, md, "cat ../data/t.bed")
	assert.Contains(t, up.Fix, "add `cd calls` before line")
	pid := findingOn(t, res.Findings, md, "tun client.conf")
	assert.Contains(t, pid.Fix, "in `client.conf`")
	assert.NotEqual(t, "environment assumption", pid.Category)
	assert.Len(t, res.Findings, 4, "%+v", res.Findings)
}

// A command no package of its own name holds is looked up in the archive's Contents
// index, as packages.debian.org's search would (bookworm: bgzip is in tabix), and an
// install of a name Debian has no candidate for takes the package apt says replaces it.
func TestContentsIndexNamesThePackage(t *testing.T) {
	t.Parallel()
	md := "# Compress\n\n```bash\necho '>chr1' > ref.fa\nsudo apt-get update -qq\n```\n\n```bash\nbgzip -k ref.fa\n```\n\n```bash\nsudo apt-get install -y python\n```\n\n```bash\npython -c 'print(2)'\n```\n\n```bash\nsudo apt-get install -y tree=9.9\ntree --version\n```\n" +
		// what gcc 12.2 (bookworm) prints for a header no package installed (libcpp's
		// open_file_failed), from a script the tutorial writes
		"Save this as `build.sh`:\n\n```sh\nprintf '%s\\n' 'counter.c:3:10: fatal error: lmdb.h: No such file or directory' '    3 | #include <lmdb.h>' '      |          ^~~~~~~~' 'compilation terminated.' >&2\nexit 1\n```\n\n```bash\nsh build.sh\n```\n"
	res, _ := attempt(t, md, nil)
	// the header's package, from the index by its path (usr/include/lmdb.h)
	h := findingOn(t, res.Findings, md, "sh build.sh")
	assert.Contains(t, h.Fix, "sudo apt-get install -y liblmdb-dev")
	f := findingOn(t, res.Findings, md, "bgzip -k")
	assert.Contains(t, f.Fix, "sudo apt-get install -y tabix")
	assert.NotContains(t, f.Problem, "misspelt")
	// apt's own "However the following packages replace it: python-is-python3 2to3"
	py := findingOn(t, res.Findings, md, "install -y python")
	assert.Contains(t, py.Fix, "install `python-is-python3` instead of `python`")
	// apt's "E: Version '9.9' for 'tree' was not found": the reader installs tree unpinned
	pin := findingOn(t, res.Findings, md, "tree=9.9")
	assert.Contains(t, pin.Problem, "Debian has no version `9.9` of `tree`: the version it has is `")
	assert.Len(t, res.Findings, 4, "python and tree work after them: %+v", res.Findings)
}

// A TLS client refusing a certificate made for another name: the reader looks at what
// the server sends (openssl s_client) and uses a name it holds.
func TestCertificateForAnotherName(t *testing.T) {
	t.Parallel()
	md := "# TLS\n\n```bash\nopenssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -addext subjectAltName=DNS:localhost -keyout k.pem -out c.pem 2>/dev/null\n```\n\n" +
		"```bash\nopenssl s_server -quiet -accept 8643 -cert c.pem -key k.pem -www\n```\n\nLeave it running. In a second terminal:\n\n```bash\ncurl -sS --cacert c.pem https://127.0.0.1:8643/\n```\n"
	res, _ := attempt(t, md, nil)
	f := findingOn(t, res.Findings, md, "curl -sS --cacert")
	assert.Contains(t, f.Problem, "issued for `DNS:localhost` only")
	assert.Contains(t, f.Fix, "https://localhost:8643/")
	assert.Contains(t, f.Fix, "`IP:127.0.0.1`")
}

// A file built with here-documents by its full path from the home folder, read from the
// folder the session is in; a script that reads a variable the tutorial set without
// export (it prints only errors, exit 0); and an error about a line of the built file
// (remind 04.02's "reminders.rem(12): Expecting time after AT", exit 0), found in the
// here-document that wrote it.
func TestBuiltFileScriptVariableAndLineOfIt(t *testing.T) {
	t.Parallel()
	rem := "#!/bin/sh\n# rem FILE: lists the reminders of FILE (remind's answers for no name and for a missing file)\n[ -n \"$1\" ] || { echo \"Can't open file: \"; echo \"Error reading : Can't open file\"; exit 0; }\n" +
		"[ -r \"$1\" ] || { echo \"Can't access file: \\`$1': No such file or directory.\"; exit 1; }\n" +
		"n=0; while IFS= read -r l; do n=$((n+1)); case \"$l\" in *pm*) echo \"$1($n): Expecting time after AT\" ;; REM*) echo \"${l#REM }\" ;; esac; done < \"$1\"\n"
	md := "# Reminders\n\nSave this as `tools/rem`:\n\n```sh\n" + rem + "```\n\n```bash\nsudo install -m 755 tools/rem /usr/local/bin/\nmkdir -p ~/remlab\n```\n\n" +
		"```bash\ncat > ~/remlab/notes.rem <<'EOF'\nREM Payday\nEOF\n```\n\nList them:\n\n```bash\nrem notes.rem\n```\n\n```\nPayday\n```\n\n" +
		"Save this as `~/remlab/agenda.sh`:\n\n```sh\n#!/bin/sh\nrem \"$REMFILE\"\n```\n\n```bash\nREMFILE=~/remlab/notes.rem\nsh ~/remlab/agenda.sh\n```\n\n```\nPayday\n```\n\n" +
		"```bash\ncat >> notes.rem <<'EOF'\nREM Swimming AT 7pm\nEOF\nrem notes.rem\n```\n\n```\nPayday\nSwimming\n```\n"
	res, _ := attempt(t, md, nil)
	cd := findingOn(t, res.Findings, md, "rem notes.rem") // the first
	assert.Contains(t, cd.Fix, "cd ~/remlab")
	v := findingOn(t, res.Findings, md, "sh ~/remlab/agenda.sh")
	assert.Contains(t, v.Problem, "`agenda.sh` reads `$REMFILE`, and line "+strconv.Itoa(lineOf(md, "REMFILE=~"))+" set `REMFILE` without `export`")
	assert.Contains(t, v.Fix, "export REMFILE")
	var line *loop.Finding
	for i := range res.Findings {
		if strings.Contains(res.Findings[i].Problem, "Expecting time after AT") {
			line = &res.Findings[i]
		}
	}
	require.NotNil(t, line, "%+v", res.Findings)
	assert.Contains(t, line.Problem, "the error points at line "+strconv.Itoa(lineOf(md, "REM Swimming AT 7pm")))
}

// Tools of the tutorial's own, answering as the real ones do: a misspelt option that the
// help lists (a68g 3.1's `unrecognised option "--chek"`), an error that names no file
// (a68g's "error while opening source file, no such file or directory.") where the
// tutorial saved the file under a near name, clingo 5.4's "file could not be opened:"
// likewise, and proxy variables set on lines of their own for a program that reads its
// environment.
func TestMisspeltOptionUnnamedFileAndUnexportedProxy(t *testing.T) {
	t.Parallel()
	a68 := "#!/bin/sh\ncase \"$1\" in\n--help) printf 'Usage: a68 [options | filename]\\n  --check, --norun  Check syntax only.\\n  --clock           Report execution time.\\n' ;;\n" +
		"--*) echo \"a68: error: unrecognised option \\\"$1\\\".\" >&2; exit 1 ;;\n*) [ -r \"$1\" ] || { echo 'a68: error while opening source file, no such file or directory.' >&2; exit 1; }; echo ran ;;\nesac\n"
	asp := "#!/bin/sh\nfor f in \"$@\"; do [ -r \"$f\" ] || { printf '<cmd>: error: file could not be opened:\\n  %s\\n\\n*** ERROR: (asp): parsing failed\\n' \"$f\" >&2; exit 65; }; done; echo SATISFIABLE\n"
	via := "#!/bin/sh\n# via: prints the proxy a request would go through\n[ -n \"$http_proxy\" ] && echo \"Via: $http_proxy\" || exit 1\n"
	md := "# Tools\n\nSave this as `tools/a68`:\n\n```sh\n" + a68 + "```\n\nSave this as `tools/asp`:\n\n```sh\n" + asp + "```\n\nSave this as `tools/via`:\n\n```sh\n" + via + "```\n\n" +
		"```bash\nsudo install -m 755 tools/* /usr/local/bin/\n```\n\nSave this as `primes.a68`:\n\n```\nprint(2)\n```\n\n```bash\na68 prime.a68\n```\n\n```bash\na68 --chek primes.a68\n```\n\n" +
		"Save this as `shifts.lp`:\n\n```\nshift(1).\n```\n\n```bash\nasp shift.lp\n```\n\n```bash\nhttp_proxy=http://127.0.0.1:8899\nvia\n```\n"
	res, _ := attempt(t, md, nil)
	near := findingOn(t, res.Findings, md, "a68 prime.a68")
	assert.Contains(t, near.Problem, "but `primes.a68` does")
	opt := findingOn(t, res.Findings, md, "a68 --chek")
	assert.Contains(t, opt.Problem, "`--chek` is no option of `a68`: it is `--check` misspelt")
	lp := findingOn(t, res.Findings, md, "asp shift.lp")
	assert.Contains(t, lp.Problem, "but `shifts.lp` does")
	px := findingAt(res.Findings, lineOf(md, "http_proxy=")+1)
	require.NotNil(t, px, "%+v", res.Findings)
	assert.Contains(t, px.Problem, "sets `http_proxy` without `export`")
	assert.Len(t, res.Findings, 4, "%+v", res.Findings)
}

// A client asking this machine on its default port while the daemon the tutorial set up
// listens on another (tftp-hpa's `tftp 127.0.0.1 -c get …` after TFTP_ADDRESS=":6969":
// "Transfer timed out.").
func TestPortLeftOut(t *testing.T) {
	t.Parallel()
	daemon := "import os, socket, sys\nif os.fork():\n    sys.exit(0)\nos.setsid()\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.bind((\"127.0.0.1\", 6969))\nwhile True:\n    s.recvfrom(512)\n"
	ask := "import socket, sys\nport = int(sys.argv[2]) if len(sys.argv) > 2 else 69\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.settimeout(2)\ns.sendto(b\"x\", (sys.argv[1], port))\ntry:\n    s.recvfrom(512)\nexcept OSError:\n    print(\"Transfer timed out.\")\n    sys.exit(1)\n"
	md := "# Serve\n\nSave this as `daemon.py`:\n\n```python\n" + daemon + "```\n\nSave this as `ask.py`:\n\n```python\n" + ask + "```\n\nThe daemon listens on port 6969:\n\n```bash\npython3 daemon.py\nsleep 1\n```\n\n```bash\npython3 ask.py 127.0.0.1\n```\n"
	res, _ := attempt(t, md, nil)
	f := findingOn(t, res.Findings, md, "python3 ask.py")
	assert.Contains(t, f.Problem, "the command names no port")
	assert.Contains(t, f.Problem, "listens on 6969, the port line "+strconv.Itoa(lineOf(md, "s.bind"))+" sets")
	assert.Equal(t, "command failure", f.Category)
}

// A server started in a second terminal after its own `cd`, then a file saved "back in
// your first terminal": it goes where the first terminal is.
func TestFileSavedBackInTheFirstTerminal(t *testing.T) {
	t.Parallel()
	md := "# P\n\n```shell\nmkdir -p ~/lab/mock && cd ~/lab\n```\n\nOpen a **second terminal** and serve the `mock` folder on port 9000:\n\n```shell\ncd ~/lab/mock\npython3 -m http.server 9000 --bind 127.0.0.1\n```\n\nLeave it running.\n\n" +
		"Back in your first terminal (in `~/lab`), save this as `p.conf`:\n\n```apache p.conf\nPort 1\n```\n\n```shell\ncat p.conf\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Files, 1)
	assert.Equal(t, "/home/learner/lab/p.conf", res.Files[0].Path)
	assert.Empty(t, res.Findings)
}

// The prose right after a command's output says what a text means ("If you see
// `[Malformed Packet]` on a line, …"), and the command prints it: the files the tutorial
// wrote that what it reads was made from are named.
func TestWarnedSignAndWhatItWasMadeFrom(t *testing.T) {
	t.Parallel()
	md := "# Capture\n\nSave this as `queries.txt`:\n\n```\n0000 1a 2b\n```\n\nSave this as `answers.txt`:\n\n```\n0002 ff\n```\n\n" +
		"```bash\ncat queries.txt answers.txt > dump.hex\n```\n\n```bash\ncp dump.hex capture.hex\n```\n\n" +
		"```bash\nsed 's/^0002 ff$/[Malformed Packet]/' capture.hex\n```\n\n```\n0000 1a 2b\n0020 ff\n```\n\nIf you see `[Malformed Packet]` on a line, an offset in your dump is off.\n"
	res, _ := attempt(t, md, nil)
	f := findingOn(t, res.Findings, md, "sed 's/")
	assert.Contains(t, f.Problem, "printed `[Malformed Packet]`, which the tutorial says (line "+strconv.Itoa(lineOf(md, "If you see"))+") means trouble")
	assert.Contains(t, f.Problem, "`queries.txt` (line 5), `answers.txt` (line 11)")
	assert.Contains(t, f.Fix, "correct what the tutorial has the reader write in")
}

// A log searched for lines a quiet log level keeps out (tinyproxy 1.11's `LogLevel
// Warning` and its "Request (file descriptor …)" lines at Info).
func TestQuietLogLevel(t *testing.T) {
	t.Parallel()
	md := "# Proxy\n\nSave this as `proxy.conf`:\n\n```\nPort 8899\nLogFile \"logs/proxy.log\"\nLogLevel Warning\n```\n\n```bash\nmkdir -p logs && touch logs/proxy.log\ngrep -c 'Request (file descriptor' logs/proxy.log\n```\n\n```\n2\n```\n"
	res, _ := attempt(t, md, nil)
	f := findingOn(t, res.Findings, md, "grep -c 'Request")
	assert.Contains(t, f.Problem, "`LogLevel Warning` in `proxy.conf` (line "+strconv.Itoa(lineOf(md, "LogLevel Warning"))+") keeps everything below that level out of it")
}

// A file saved "in your home directory" before any `cd` is where the session stands in
// for the reader's home, so `./name` finds it there.
func TestFileSavedInTheHomeDirectoryBeforeAnyCd(t *testing.T) {
	t.Parallel()
	md := "# Load\n\nSave it as `notes-load.sh` in your home directory:\n\n```sh\necho loaded\n```\n\n```bash\nsh ./notes-load.sh\n```\n\n```\nloaded\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings)
}

// A server that reads an environment variable no step sets, whose value a settings table
// gives ("(`inbox` in the examples)"): the fix exports it, and the server, which "Back in
// the second terminal" says keeps its own terminal, runs again in the background.
func TestVariableValueFromTheTableAndServerKeptBusy(t *testing.T) {
	t.Parallel()
	md := "# S\n\nSave this as `srv.py`:\n\n```python\nimport os, http.server\nd = os.environ[\"SANDBOX_DIR\"]\nhttp.server.test(HandlerClass=http.server.SimpleHTTPRequestHandler, port=8732, bind='127.0.0.1')\n```\n\nStart it:\n\n```sh\npython3 srv.py\n```\n\n" +
		"Back in the second terminal, fetch the page:\n\n```sh\ncurl -sS -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:8732/\n```\n\n```\n200\n```\n\n| name | meaning |\n|---|---|\n| `SANDBOX_DIR` | folder the files go to (`inbox` in the examples) |\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, lineOf(md, "python3 srv.py"), f.Line)
	assert.Contains(t, f.Fix, "add `export SANDBOX_DIR=inbox` (the value line "+strconv.Itoa(lineOf(md, "| `SANDBOX_DIR`"))+" gives)")
}

// Recipes indented with spaces: make's "missing separator" at a line that begins with
// spaces (the real GNU make, 4.3 on bookworm, from Debian's mirror).
func TestMakefileRecipeIndentedWithSpaces(t *testing.T) {
	t.Parallel()
	md := "# Build\n\n```bash\nsudo apt-get update -qq && sudo apt-get install -y -qq make\n```\n\nSave this `Makefile`:\n\n```makefile\nhello:\n    echo hello\n```\n\n```bash\nmake hello\n```\n"
	res, _ := attempt(t, md, nil)
	f := findingOn(t, res.Findings, md, "make hello")
	assert.Contains(t, f.Problem, "line 2 of `Makefile` is indented with spaces, but make takes a recipe line only when it starts with a tab")
	assert.Contains(t, f.Fix, "with a tab")
}

// A script written with an unquoted here-document loses the variables it sets itself and
// its arguments: the shell expanded them, to nothing, while writing it. The run that
// names the emptied file after it folds into that finding.
func TestUnquotedHeredocEmptiesTheScriptsVariables(t *testing.T) {
	t.Parallel()
	md := "# Sweep\n\n```bash\ncat > sweep.sh <<EOF\n#!/bin/sh\nfor n in 1 2; do\n    echo \"run \\$1\" > sweep-$n.txt\n    echo \"wrote sweep-$n.txt\"\ndone\nEOF\nsh sweep.sh\n```\n\n```\nwrote sweep-1.txt\nwrote sweep-2.txt\n```\n\n```bash\ncat sweep-1.txt\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, lineOf(md, "sh sweep.sh"), f.Line)
	assert.Contains(t, f.Problem, "line "+strconv.Itoa(lineOf(md, "cat > sweep.sh"))+" writes `sweep.sh` with an unquoted here-document (`<<EOF`), so the shell expanded `$n` as it wrote the file")
	assert.Contains(t, f.Fix, "(`<<'EOF'`)")
}

// A program that finds its helpers through an environment variable the tutorial set
// without export asks the shell for them instead ("sh: 1: tax: not found"): that is the
// variable, not a missing program.
func TestHelperLookedUpThroughAnUnexportedVariable(t *testing.T) {
	t.Parallel()
	md := "# Macros\n\nSave this as `lib/tax`:\n\n```sh\necho 12\n```\n\nSave this as `calc.sh`:\n\n```sh\nif [ -n \"$CALC_MACROS\" ]; then PATH=\"$CALC_MACROS:$PATH\"; fi\nsh -c 'tax' || true\n```\n\n```bash\nCALC_MACROS=$PWD/lib\nsh calc.sh\n```\n\n```\n12\n```\n"
	res, _ := attempt(t, md, nil)
	f := findingOn(t, res.Findings, md, "sh calc.sh")
	assert.Contains(t, f.Fix, "export the variable at line "+strconv.Itoa(lineOf(md, "CALC_MACROS=$PWD/lib")))
}

// An install starts the package's service on a Debian machine (debhelper's postinst), so
// its client works right after it: redis-server, started when redis-cli finds nothing
// there. A service that does not start (fail2ban 1.0 with a jail whose log file is not
// there) leaves its client nothing to talk to, and no step starts it: one gap, the
// client's later commands folded in. A path in the author's own home folder in a file
// the reader writes (/home/example_user/…) is a placeholder nothing explains.
func TestServicesTheirInstallStarts(t *testing.T) {
	t.Parallel()
	md := "# Jail lab\n\n```bash\nsudo apt-get install -y redis-server fail2ban\n```\n\n" + // 1-7
		"Redis runs already:\n\n```bash\nredis-cli ping\n```\n\n" + // 8-13
		"```bash\nmkdir -p ~/lab && touch ~/lab/app.log\n```\n\n" + // 14-17
		"Create `/etc/fail2ban/jail.d/lab.local`:\n\n```ini\n[sshd]\nenabled = false\n\n[lab]\nenabled = true\nfilter = sshd\nlogpath = /home/example_user/lab/app.log\nbackend = polling\n```\n\n" +
		"```bash\nsudo fail2ban-client -t\n```\n\n" +
		"```bash\nsudo fail2ban-client status\nsudo fail2ban-client status lab\n```\n"
	res, _ := attempt(t, md, func(b *config.StudentBehavior) { b.TimeoutSeconds = 60 })
	at := func(text string) *loop.Finding { return findingOn(t, res.Findings, md, text) }
	assert.Nil(t, findingAt(res.Findings, lineOf(md, "redis-cli ping")), "%+v", res.Findings)
	f := at("fail2ban-client -t")
	assert.Contains(t, f.Problem, "`/home/example_user/lab/app.log`")
	assert.Contains(t, f.Problem, "`~/lab/app.log`")
	f = at("sudo fail2ban-client status") // the first of the two
	assert.Contains(t, f.Problem, "no step starts it")
	assert.Contains(t, f.Fix, "sudo systemctl start fail2ban")
	assert.Equal(t, []int{lineOf(md, "status lab")}, f.AlsoAt)
	assert.Len(t, res.Findings, 2, "%+v", res.Findings)
}

// A placeholder in angle brackets is a gap only when nothing tells the reader what goes
// there: not the prose anywhere (by its name or its words), not the name itself
// (`<your-netid>`, `<server-ip>`, `<your-phone-folder>`; not `<report-dir>`, a
// particular folder, nor `<your-cutoff>`, a value of a kind the reader has to be told).
func TestPlaceholdersNothingExplains(t *testing.T) {
	t.Parallel()
	md := "# Codes\n\nPrint the code for the staging account:\n\n```bash\necho code <STAGING_SEED>\n```\n\n" +
		"Tag the build:\n\n```bash\necho tag <RELEASE_MARK>\n```\n\nThe release mark is in the e-mail your team lead sent.\n\n" +
		"```bash\necho me <your-netid>\necho at <server-ip>\nls <your-phone-folder>\n```\n\nSave the errors in the team's report folder:\n\n```bash\necho x > <report-dir>/errors.txt\n```\n\n" +
		"Upload with the project's API key, then count from a day on:\n\n```bash\necho up <your-api-key>\necho since <your-cutoff>\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 3, "%+v", res.Findings)
	findingOn(t, res.Findings, md, "<your-cutoff>")
	f := findingOn(t, res.Findings, md, "<STAGING_SEED>")
	assert.Contains(t, f.Problem, "never says what it is")
	assert.Contains(t, f.Fix, "staging seed")
	f = findingOn(t, res.Findings, md, "<report-dir>")
	assert.Contains(t, f.Fix, "report dir")
}

// HTTPie reads a standard input that is not a terminal as the request body; at the
// reader's terminal it reads none, as with --ignore-stdin. A pipe the tutorial gives it
// stays its body.
func TestHTTPieAtATerminalReadsNoBody(t *testing.T) {
	t.Parallel()
	md := "# Items\n\n```bash\nmkdir -p ~/.local/bin && printf '#!/bin/sh\\necho \"args: $*\"\\n' > ~/.local/bin/http && chmod +x ~/.local/bin/http\nexport PATH=\"$HOME/.local/bin:$PATH\"\nhttp POST :8081/items name=tea\necho '{}' | http POST :8081/items\n```\n"
	res, _ := attempt(t, md, nil)
	require.Empty(t, res.Findings)
	out := map[int]string{}
	for _, c := range res.Commands {
		out[c.Line] = c.Output
	}
	assert.Contains(t, out[lineOf(md, "name=tea")], "args: --ignore-stdin POST :8081/items name=tea")
	assert.Contains(t, out[lineOf(md, "echo '{}'")], "args: POST :8081/items")
	assert.NotContains(t, out[lineOf(md, "echo '{}'")], "--ignore-stdin")
}

// A code generator's two refusals as capnp 0.9 words them: a schema under a near name
// ("shape.schema: no such file", lower case, without "or directory"), and an output
// folder given as LANG:DIR that nothing made ("-o c++:gen: output location is
// inaccessible or is not a directory"). The fake generator is the tutorial's own script.
// (The Student goes on with each fix applied, so `ls gen/` then lists the file.)
func TestGeneratorMissingSchemaAndOutputFolder(t *testing.T) {
	t.Parallel()
	gen := "#!/bin/sh\n[ -f \"$2\" ] || { echo \"gen: $2: no such file\" >&2; exit 1; }\nd=${1#*:}\n[ -d \"$d\" ] || { echo \"gen: -o ${1#-o}: output location is inaccessible or is not a directory\" >&2; exit 1; }\ntouch \"$d/out.h\"\n"
	md := "# Gen\n\nSave the schema as `shapes.schema`:\n\n```text\nstruct Shape {}\n```\n\nSave this as `gen.sh`:\n\n```sh\n" + gen + "```\n\n" +
		"```bash\nsh gen.sh -oc++:. shape.schema\n```\n\nThen write the code into its own folder:\n\n```bash\nsh gen.sh -oc++:gen shapes.schema\nls gen/\n```\n"
	res, _ := attempt(t, md, nil)
	near := findingOn(t, res.Findings, md, "sh gen.sh -oc++:. shape.schema")
	assert.Contains(t, near.Problem, "`shapes.schema` does")
	out := findingOn(t, res.Findings, md, "sh gen.sh -oc++:gen shapes.schema")
	assert.Contains(t, out.Fix, "mkdir -p gen")
	assert.Len(t, res.Findings, 2, "%+v", res.Findings)
}

// A command written for a folder the page never enters, whose `../` path and other files
// are all there from it, when the folders were made with a brace list under ~ (`mkdir -p
// ~/lab/{db,queries}`); a request to a local port that no step serves, where the text
// says Python's built-in web server publishes a folder there.
func TestCommandForASubfolderAndAServerNeverStarted(t *testing.T) {
	t.Parallel()
	md := "# Lab\n\n```bash\nmkdir -p ~/lab/{db,queries,reports}\ncd ~/lab\n```\n\n" +
		"Save the references as `db/refs.fa` and the primers as `queries/primers.fa`:\n\n```fasta\n>r1\nACGT\n```\n\n```fasta\n>p1\nACG\n```\n\n" +
		"## Primers\n\nCompare them (the check says only that a file is not accessible, as blastn 2.12 does):\n\n```bash\nsh -c 'for f; do [ -e \"$f\" ] || { echo \"Argument error: File is not accessible: $f\"; exit 1; }; done' check primers.fa ../db/refs.fa\n```\n\n" +
		"## Report\n\n```bash\ncd ~/lab\necho '<p>q1</p>' > reports/q1.html\n```\n\n" +
		"Your `reports/` folder is published by a small web server on port 8000 (we use Python's built-in one). Check that the report is listed:\n\n```bash\ncurl -sS http://localhost:8000/ | grep q1.html\n```\n"
	res, _ := attempt(t, md, nil)
	sub := findingOn(t, res.Findings, md, "check primers.fa ../db/refs.fa")
	assert.Contains(t, sub.Fix, "cd queries")
	assert.Contains(t, sub.Problem, "but it is from `queries`, which no step changes into")
	web := findingOn(t, res.Findings, md, "curl -sS http://localhost:8000/")
	assert.Contains(t, web.Problem, "nothing listens on port 8000")
	assert.Contains(t, web.Fix, "`python3 -m http.server 8000 --directory reports`")
	assert.Len(t, res.Findings, 2, "%+v", res.Findings)
}

// A bash script the tutorial saves, run with `sh` (dash on Debian), which refuses its
// `set -o pipefail`; a program folded into a multi-call tool of a package the tutorial
// installed (`gitlog` for `git log`, as mupdf-tools' `mutool draw` stands for the old
// `mudraw`); an encoder that cannot open its output in a folder nothing made, saying so
// in flac 1.4's words.
func TestBashUnderShSubcommandAndUnwritableOutputFolder(t *testing.T) {
	t.Parallel()
	enc := "#!/bin/sh\nd=${1#--output-prefix=}\nif [ ! -d \"$d\" ]; then printf 'in.wav: ERROR initializing encoder\\n\\nAn error occurred opening the output file; it is likely that the output\\ndirectory does not exist or is not writable, the output file already exists and\\nis not writable, or the disk is full.\\n' >&2; exit 1; fi\ntouch \"$d/in.flac\"\n"
	md := "# Tools\n\nSave this as `thumbs.sh`:\n\n```bash\n#!/usr/bin/env bash\nset -euo pipefail\nwidths=(200 600)\necho \"${widths[@]}\"\n```\n\nRun it:\n\n```bash\nsh thumbs.sh\n```\n\n" +
		"```bash\nsudo apt-get install -y git\ngit init -q repo && cd repo\ngit -c user.name=Ada -c user.email=ada@learner.test commit -q --allow-empty -m one\ngitlog --oneline\n```\n\n" +
		"Save this as `enc.sh`:\n\n```sh\n" + enc + "```\n\nEncode into the release folder:\n\n```bash\nsh enc.sh --output-prefix=Release/Sounds/\n```\n"
	res, _ := attempt(t, md, nil)
	sh := findingOn(t, res.Findings, md, "sh thumbs.sh")
	assert.Contains(t, sh.Problem, "`thumbs.sh` is a bash script (its first line is `#!/usr/bin/env bash`)")
	assert.Equal(t, "bash thumbs.sh", sh.Edit.Replace)
	sub := findingOn(t, res.Findings, md, "gitlog --oneline")
	assert.Contains(t, sub.Problem, "has it as the subcommand `git log`")
	assert.Equal(t, "git log --oneline", sub.Edit.Replace)
	out := findingOn(t, res.Findings, md, "sh enc.sh --output-prefix=Release/Sounds/")
	assert.Contains(t, out.Fix, "mkdir -p Release/Sounds")
	assert.Len(t, res.Findings, 3, "%+v", res.Findings)
}

// A program that says it needs root, naming no path (nmap 7.93's SYN scan); a request to
// a port other than the one the server the tutorial left running listens on, set in its
// configuration file rather than on its command line; a bash-only /dev/tcp in a script
// run with sh, whose output the tutorial shows; a scan of the reader's own network that
// cannot run here, right before it, is not the cause of that output.
func TestRootOnlyOtherPortAndDevTcpUnderSh(t *testing.T) {
	t.Parallel()
	md := "# Ports\n\n```bash\nsh -c 'echo \"You requested a scan type which requires root privileges.\"; echo QUITTING!; exit 1'\n```\n\n" +
		"Save this as `srv.conf`:\n\n```ini\nport=8765\n```\n\nStart the server in a second terminal and leave it running:\n\n```bash\npython3 -m http.server \"$(cut -d= -f2 srv.conf)\"\n```\n\n" +
		"Then ask it:\n\n```bash\ncurl -sS http://localhost:8766/\n```\n\nAnd for one file:\n\n```bash\ncurl -sS http://localhost:8766/srv.conf\n```\n\n" +
		"Scan your own network (it needs raw sockets):\n\n```bash\nsh -c 'echo \"Could not open a raw socket. Error: Operation not permitted (1)\"; exit 1'\n```\n\n" +
		"Save this as `portcheck.sh`:\n\n```sh\n#!/bin/sh\nfor port in \"$@\"; do\n  if (echo > /dev/tcp/127.0.0.1/\"$port\") 2>/dev/null; then echo \"$port open\"; else echo \"$port closed\"; fi\ndone\n```\n\n" +
		"and run it like this:\n\n```bash\nsh portcheck.sh 8765\n```\n\nwhich gives\n\n```\n8765 open\n```\n"
	res, _ := attempt(t, md, nil)
	root := findingOn(t, res.Findings, md, "requires root privileges")
	assert.Contains(t, root.Problem, "the program says it requires root privileges")
	port := findingOn(t, res.Findings, md, "curl -sS http://localhost:8766/")
	assert.Contains(t, port.Problem, "listens on port 8765")
	assert.Equal(t, "curl -sS http://localhost:8765/", port.Edit.Replace)
	assert.Equal(t, []int{lineOf(md, "curl -sS http://localhost:8766/srv.conf")}, port.AlsoAt, "the same wrong port again")
	tcp := findingOn(t, res.Findings, md, "sh portcheck.sh 8765")
	assert.Contains(t, tcp.Problem, "uses `/dev/tcp`, which only bash has")
}

// A request to a port the text says a tool of the tutorial serves, when no step starts
// it and an earlier gap stands: the tool's help lists the subcommand that serves.
func TestServerTheTextNamesButNeverStarts(t *testing.T) {
	t.Parallel()
	lab := "#!/bin/sh\ncase \"$1\" in\n  help) echo 'usage: lab COMMAND'; echo '  init   make a lab'; echo '  web    serve the lab over HTTP' ;;\n  init) mkdir -p lab ;;\nesac\n"
	md := "# Lab\n\nSave this as `labtool`:\n\n```sh\n" + lab + "```\n\n```bash\nsudo install -m 755 labtool /usr/local/bin/lab\ncat lab/notes.txt\nlab init\n```\n\n" +
		"lab comes with a read-only web viewer, on port 8099. Check that it lists the lab:\n\n```bash\ncurl -s http://127.0.0.1:8099/ | grep -o '<title>.*</title>'\n```\n"
	res, _ := attempt(t, md, nil)
	web := findingOn(t, res.Findings, md, "curl -s http://127.0.0.1:8099/")
	assert.Contains(t, web.Problem, "its help lists `lab web`, which no step runs")
	assert.Contains(t, web.Fix, "`lab web`, on port 8099")
	assert.Len(t, res.Findings, 2, "%+v", res.Findings)
	assert.True(t, namesPort("a web viewer, on port 8099. Check it:", "curl -s http://127.0.0.1:8099/"))
	assert.False(t, namesPort("a web viewer. Check it:", "curl -s http://127.0.0.1:8099/"))
}

// A data file given only after the run that needs it; once the tutorial gives it, a
// later failure of the same program is a gap of its own, not a consequence of the first
// (MiniZinc's "no solver with tag chuffed found" on bookworm, where the rota file is
// there by then).
func TestLaterFailureAfterAFileGivenLateIsItsOwn(t *testing.T) {
	t.Parallel()
	solve := "#!/bin/sh\nif [ \"$1\" = --solver ] && [ \"$2\" != gecode ]; then echo \"Config exception: no solver with tag $2 found\" >&2; exit 1; fi\n[ -f rota.dzn ] || { echo \"Error: error: Cannot open data file 'rota.dzn'.\" >&2; exit 1; }\necho happiness = 16\n"
	md := "# Rota\n\nSave this as `solve.sh`:\n\n```sh\n" + solve + "```\n\nRun it:\n\n```bash\nsh solve.sh rota.dzn\n```\n\n## The data\n\nSave this as `rota.dzn`:\n\n```text\nn = 4;\n```\n\n" +
		"Try another solver:\n\n```bash\nsh solve.sh --solver chuffed rota.dzn\n```\n"
	res, _ := attempt(t, md, nil)
	late := findingOn(t, res.Findings, md, "sh solve.sh rota.dzn")
	assert.Contains(t, late.Problem, "gives `rota.dzn` only at line")
	other := findingOn(t, res.Findings, md, "sh solve.sh --solver chuffed rota.dzn")
	assert.Contains(t, other.Problem, "no solver with tag chuffed found")
	assert.Len(t, res.Findings, 2, "%+v", res.Findings)
}

// A command skipped for a placeholder the text never explains, and the next command of
// its block, which reads what it was to make: one gap, on the placeholder.
func TestPlaceholderGapTakesTheFileItWasToMake(t *testing.T) {
	t.Parallel()
	md := "# Certificates\n\n```bash\nprintf 'cert for %s\\n' <team-id> > client.pem\ncat client.pem\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "needs a value for `<team-id>`")
	assert.Equal(t, []int{lineOf(md, "cat client.pem")}, f.AlsoAt)
}

// `echo $?` right after a command the tutorial shows failing prints that command's
// status, as in the reader's terminal, where each command is not a shell of its own.
func TestStatusOfTheCommandBefore(t *testing.T) {
	t.Parallel()
	md := "# Status\n\nA missing column is an error:\n\n```console\n$ sh -c 'echo \"tool: no column price\" >&2; exit 2'\ntool: no column price\n$ echo $?\n2\n```\n"
	res, _ := attempt(t, md, nil)
	assert.Empty(t, res.Findings)
	var ran []string
	for _, c := range res.Commands {
		ran = append(ran, c.Command+" → "+strings.TrimSpace(c.Output))
	}
	assert.Contains(t, ran, "echo $? → 2")
}

// A later step that writes its output over a file an earlier step wrote, which a still
// later step reads: the failure names both writers.
func TestFileOverwrittenByALaterStep(t *testing.T) {
	t.Parallel()
	md := "# Backups\n\n```bash\nmkdir -p notes logs\necho note > notes/n.txt\necho log > logs/l.txt\n```\n\n" +
		"Archive the notes:\n\n```bash\ntar cf - notes > backup.tar\n```\n\n" +
		"And the logs:\n\n```bash\ntar cf - logs > backup.tar\n```\n\n" +
		"Restore the note:\n\n```bash\nrm notes/n.txt\ntar xf backup.tar notes/n.txt\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, lineOf(md, "tar xf backup.tar"), f.Line)
	assert.Contains(t, f.Problem, "`backup.tar` holds what line "+strconv.Itoa(lineOf(md, "tar cf - logs"))+" (`tar cf - logs > backup.tar`) wrote")
	assert.Contains(t, f.Fix, "have line "+strconv.Itoa(lineOf(md, "tar cf - logs"))+" write to a file of its own")
}

// A program that refuses a file by its extension, where it took another file with the
// tutorial's usual one: the finding names the extension, and the file the refused run
// was to make (same name, its own extension) is a consequence.
func TestFileRefusedByItsExtension(t *testing.T) {
	t.Parallel()
	md := "# Convert\n\nSave this as `conv`:\n\n```sh\n#!/bin/sh\ncase \"$1\" in\n  *.txt) tr a-z A-Z < \"$1\" > \"${1%.txt}.out\" ;;\n  *) echo \"conv: bad argument $1\" >&2; exit 1 ;;\nesac\n```\n\n" +
		"```bash\nchmod +x conv\necho hello > a.txt\necho world > b.text\n./conv a.txt\n```\n\n" +
		"Now the second file:\n\n```bash\n./conv b.text\ncat b.out\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, lineOf(md, "./conv b.text"), f.Line)
	assert.Contains(t, f.Problem, "`./conv` took `a.txt` at line "+strconv.Itoa(lineOf(md, "./conv a.txt"))+", but refuses `b.text`")
	assert.Contains(t, f.Fix, "save the file as `b.txt`")
}

// A script that reads a data file by a name one letter from the one the tutorial saved,
// and a variable the tutorial sets only in a later (collapsed) step: both named, and the
// commands that need the variable are folded into its gap.
func TestMisnamedDataFileAndVariableSetLater(t *testing.T) {
	t.Parallel()
	md := "# Tides\n\nSave the readings as `tides.csv`:\n\n```text\nport,height\nBrest,6.41\n```\n\n" +
		"Save this as `top.sh`:\n\n```sh\ndata=$(cat \"tide.csv\" 2>/dev/null)\ntest -n \"$data\" || { echo 'top: no readings'; exit 1; }\n```\n\n```bash\nsh top.sh\n```\n\n" +
		"Put the data in the archive folder:\n\n```bash\nmkdir -p \"$TIDE_ARCHIVE\"\ncp tides.csv \"$TIDE_ARCHIVE/\"\n```\n\n" +
		"<details><summary>Make the folder permanent</summary>\n\n```bash\necho 'export TIDE_ARCHIVE=\"$HOME/archive\"' >> ~/.bashrc\nsource ~/.bashrc\n```\n\n</details>\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	typo, late := res.Findings[0], res.Findings[1]
	assert.Equal(t, lineOf(md, "sh top.sh"), typo.Line)
	assert.Contains(t, typo.Problem, "`top.sh` reads `tide.csv`, which does not exist: the tutorial saved `tides.csv`")
	assert.Equal(t, lineOf(md, "mkdir -p \"$TIDE_ARCHIVE\""), late.Line)
	assert.Contains(t, late.Problem, "the tutorial sets it only at line "+strconv.Itoa(lineOf(md, "echo 'export TIDE_ARCHIVE")))
	assert.Contains(t, late.Fix, "`source ~/.bashrc`")
	// the reader applies the fix (the block that sets it), and the copy then works
	cp := res.Commands[len(res.Commands)-1]
	assert.Equal(t, lineOf(md, "cp tides.csv"), cp.Line)
	assert.Zero(t, cp.ExitCode, cp.Output)
}

// An option a configuration file the tutorial wrote gives, which the program refuses,
// where its help lists one that starts the same way: the file's line is what to change.
func TestOptionRefusedFromAConfigFile(t *testing.T) {
	t.Parallel()
	md := "# Server\n\nSave this as `~/lab/srv`:\n\n```sh\n#!/bin/sh\ncase \"$1\" in\n  --help) printf '  --config-file arg\\n  --port arg\\n  --store-queue-on-shutdown   Store queue on shutdown.\\n' ;;\n" +
		"  --config-file=*) while read -r o; do case \"$o\" in --store-queue-on-shutdown|--port=*) ;; *) echo \"srv: unrecognised option '$o'\" >&2; exit 1 ;; esac; done < \"${1#--config-file=}\" ;;\nesac\n```\n\n" +
		"```bash\nchmod +x ~/lab/srv\n```\n\nWrite `~/lab/etc/srv.conf`:\n\n```text\n--port=4730\n--store-queue-on-exit\n```\n\n" +
		"Start it:\n\n```bash\ncd ~/lab && ./srv --config-file=etc/srv.conf\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Contains(t, f.Problem, "`etc/srv.conf` (which the tutorial wrote) gives `--store-queue-on-exit`")
	assert.Contains(t, f.Fix, "write `--store-queue-on-shutdown` instead of `--store-queue-on-exit`")
}

// A chat thread's steps: a script in a ~/bin made in the same session (not on PATH until
// ~/.profile runs again), a table shown ("mine looks like this") but never saved where
// the command reads it, a command given no input where a later step feeds it a file, and
// a variable exported from one the tutorial sets only further down.
func TestThreadGaps(t *testing.T) {
	t.Parallel()
	md := "# Jobs\n\n```sh\nmkdir -p ~/bin ~/.local/etc\nprintf '#!/bin/sh\\necho backed up\\n' > ~/bin/backup.sh\nchmod +x ~/bin/backup.sh\n```\n\n" +
		"try it by name:\n\n```sh\nbackup.sh\n```\n\n" +
		"now the table. mine looks like this:\n\n```\n# ~ jobtab for one user ~\n1 5 daily $HOME/bin/backup.sh\n```\n\n" +
		"check that it parses:\n\n```sh\ngrep -c daily ~/.local/etc/jobtab\n```\n\n" +
		"count the words of the list:\n\n```sh\nprintf 'a b\\n' > list.txt\nwc -w\n```\n\nlater, from the file:\n\n```sh\nwc -w < list.txt\n```\n\n" +
		"a second queue:\n\n```sh\nexport QUEUE_DIR=\"$NIGHT_DIR\"\nmkdir \"$QUEUE_DIR\"\n```\n\n```sh\nNIGHT_DIR=/tmp/night\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 4, "%+v", res.Findings)
	exact := func(l string) int { return slices.Index(strings.Split(md, "\n"), l) + 1 }
	path, table, input, export := res.Findings[0], res.Findings[1], res.Findings[2], res.Findings[3]
	assert.Equal(t, exact("backup.sh"), path.Line)
	assert.Contains(t, path.Problem, "`~/bin` is not on PATH in this shell")
	assert.Equal(t, lineOf(md, "grep -c daily"), table.Line)
	assert.Contains(t, table.Problem, "the tutorial shows what goes in `jobtab` at line "+strconv.Itoa(lineOf(md, "# ~ jobtab")-1))
	assert.Equal(t, exact("wc -w"), input.Line)
	assert.Contains(t, input.Fix, "`wc -w < list.txt`")
	assert.Equal(t, lineOf(md, "mkdir \"$QUEUE_DIR\""), export.Line)
	assert.Contains(t, export.Problem, "exports `QUEUE_DIR` from `$NIGHT_DIR`, which is not set yet")
}

// Two arguments in the wrong order: the missing one is a word an earlier run of the same
// program took before the file (fmt.sh stands in for xmlto 0.0.28, "xmlto FORMAT XML",
// which says "Input file …/html not found"), or the file this step makes, which later
// steps read (conv.sh reads its first argument and writes its second, as `xxd -r` does).
func TestArgumentsInTheWrongOrder(t *testing.T) {
	t.Parallel()
	md := "# Convert\n\nSave `fmt.sh`:\n\n```sh\n#!/bin/sh\n[ -f \"$2\" ] || { echo \"Input file $PWD/$2 not found\" >&2; exit 1; }\necho \"$1 of $2\"\n```\n\n" +
		"Save `conv.sh`:\n\n```sh\n#!/bin/sh\ntr a-z A-Z < \"$1\" > \"$2\"\n```\n\n" +
		"```bash\necho hello > page.xml\nsh fmt.sh man page.xml\nsh fmt.sh page.xml html\n```\n\n" +
		"```bash\nsh conv.sh up.txt page.xml\ncat up.txt\n```\n"
	res, _ := attemptProving(t, md, nil)
	f := findingOn(t, res.Findings, md, "sh fmt.sh page.xml html")
	assert.Contains(t, f.Problem, "the arguments are in the wrong order: `sh` takes the file last, as line")
	assert.Contains(t, f.Fix, "`sh fmt.sh html page.xml`")
	requireProven(t, *f)
	c := findingOn(t, res.Findings, md, "sh conv.sh up.txt page.xml")
	assert.Contains(t, c.Problem, "`up.txt` is what this step makes")
	assert.Contains(t, c.Fix, "`sh conv.sh page.xml up.txt`")
	assert.Len(t, res.Findings, 2, "`cat up.txt` works once the reader swaps them: %+v", res.Findings)
}

// A script calling a shell function the reader defined in their terminal; entr given a
// terminal as the reader's is, its script failing in front of the reader while entr
// keeps running (entr 5.3 from Debian 12).
func TestShellFunctionInAScriptAndAWatcher(t *testing.T) {
	t.Parallel()
	md := "# Notes\n\n```bash\nsudo apt-get update -qq\nsudo apt-get install -y -qq entr\necho note > a.md\ngreet() { echo \"hi $1\"; }\ngreet Ada\n```\n\n" +
		"Save `all.sh`:\n\n```sh\n#!/bin/sh\ngreet Ada\ngreet Lin\n```\n\n```bash\nsh all.sh\n```\n\n" +
		"Save `check.sh`:\n\n```bash\n#!/usr/bin/env bash\nset -euo pipefail\nnote=$1\necho \"$note ok\"\n```\n\n" +
		"Leave it checking on every save (Ctrl+C stops it):\n\n```bash\nchmod +x check.sh\nls a.md | entr ./check.sh\n```\n"
	res, _ := attempt(t, md, nil)
	f := findingOn(t, res.Findings, md, "sh all.sh")
	assert.Contains(t, f.Problem, fmt.Sprintf("`greet` is a shell function the reader defined at line %d", lineOf(md, "greet() {")))
	assert.Contains(t, f.Fix, "define the function `greet` in the script itself")
	w := findingOn(t, res.Findings, md, "entr ./check.sh")
	assert.Contains(t, w.Problem, "$1: unbound variable")
	assert.Contains(t, w.Fix, "`/_`")
	assert.Len(t, res.Findings, 2, "%+v", res.Findings)
	assert.True(t, slices.ContainsFunc(res.Coverage.Heuristics, func(n loop.Note) bool { return strings.Contains(n.Reason, "needs a terminal") }), "%+v", res.Coverage.Heuristics)
}

// A locale the system lacks, a `~` inside quotes, and a group the reader joined in the
// same session.
func TestLocaleQuotedTildeAndAGroupJoinedInTheSameSession(t *testing.T) {
	t.Parallel()
	md := "# Setup\n\n```bash\nexport LC_ALL=ja_JP.UTF-8\nprintf 'あ\\n' > kana.txt\nwc -m kana.txt\n```\n\n" +
		"```bash\nmkdir -p ~/www\nls \"~/www\"\n```\n\n" +
		"```bash\nsudo groupadd web\nsudo mkdir -p /srv/shared\nsudo chgrp web /srv/shared\nsudo chmod 2775 /srv/shared\nsudo usermod -aG web \"$(whoami)\"\ncp kana.txt /srv/shared/\n```\n"
	res, _ := attempt(t, md, nil)
	l := findingOn(t, res.Findings, md, "export LC_ALL")
	assert.Contains(t, l.Problem, "cannot change locale (ja_JP.UTF-8)")
	assert.Contains(t, l.Fix, "sudo locale-gen")
	q := findingOn(t, res.Findings, md, `ls "~/www"`)
	assert.Contains(t, q.Problem, "is inside quotes, where the shell does not expand `~`")
	g := findingOn(t, res.Findings, md, "cp kana.txt")
	assert.Contains(t, g.Problem, "writable by the group `web`, and line")
	assert.Contains(t, g.Fix, "newgrp web")
	assert.Len(t, res.Findings, 3, "%+v", res.Findings)
}

// A checksum list that does not match the file, a file named in another case, and a
// variable in single quotes where the page shows its value.
func TestChecksumCaseAndAVariableInSingleQuotes(t *testing.T) {
	t.Parallel()
	md := "# Reports\n\n```bash\nprintf 'a,b\\n' > orders.csv\n```\n\nSave the list next to it as `SHA256SUMS`:\n\n```text\n" + strings.Repeat("0", 64) + "  orders.csv\n```\n\n" +
		"```bash\nsha256sum -c SHA256SUMS\n```\n\nSave `Returns.csv`:\n\n```text\nid\n```\n\n```bash\ncat returns.csv\n```\n\n" +
		"```bash\nQ=lamp\necho 'No results for \"$Q\"' | tee e.txt\n```\n\n```text\nNo results for \"lamp\"\n```\n\n```bash\ngrep -q lamp e.txt\n```\n"
	res, _ := attempt(t, md, nil)
	s := findingOn(t, res.Findings, md, "sha256sum -c")
	// sha256sum of "a,b\n"
	assert.Contains(t, s.Fix, "`5be08c9684a1d25efcee09318204824278b08bbfb4aef973ffefd0b9d7478313`")
	c := findingOn(t, res.Findings, md, "cat returns.csv")
	assert.Contains(t, c.Problem, "differ only in case")
	v := findingOn(t, res.Findings, md, "echo 'No results")
	assert.Contains(t, v.Problem, "`$Q` is inside single quotes")
	assert.Contains(t, v.AlsoAt, lineOf(md, "grep -q lamp"))
	assert.Len(t, res.Findings, 3, "%+v", res.Findings)
}

// A second server on the port an earlier one still holds; a script run as a program
// where it had to be sourced; BSD sed's in-place option with an empty suffix, on GNU sed.
func TestPortHeldExportsLostAndBSDSed(t *testing.T) {
	t.Parallel()
	md := "# Serve\n\nStart the preview and leave it running:\n\n```bash\npython3 -m http.server 8123\n```\n\nIn a second terminal, serve the build too:\n\n```bash\npython3 -m http.server 8123 --directory /tmp\n```\n\n" +
		"Save `env.sh`:\n\n```sh\n#!/bin/sh\nexport OUT_DIR=/tmp/out\n```\n\n```bash\nchmod +x env.sh\n./env.sh\n```\n\nSave `use.sh`:\n\n```sh\n#!/bin/sh\nset -u\necho \"$OUT_DIR\"\n```\n\n```bash\nsh use.sh\n```\n\n" +
		"```bash\nprintf 'v1\\n' > v.txt\nsed -i '' 's/v1/v2/' v.txt\n```\n"
	res, _ := attemptProving(t, md, nil)
	p := findingOn(t, res.Findings, md, "--directory /tmp")
	assert.Contains(t, p.Problem, fmt.Sprintf("the server line %d started (`python3 -m http.server 8123`) is still running", lineOf(md, "python3 -m http.server 8123")))
	e := findingOn(t, res.Findings, md, "sh use.sh")
	assert.Contains(t, e.Problem, fmt.Sprintf("`OUT_DIR` is set by `./env.sh`, which line %d runs as a program", lineOf(md, "./env.sh")))
	assert.Contains(t, e.Fix, "`. ./env.sh`")
	s := findingOn(t, res.Findings, md, "sed -i ''")
	assert.Contains(t, s.Problem, "BSD (macOS) sed")
	requireProven(t, *s)
	assert.Len(t, res.Findings, 3, "%+v", res.Findings)
}

// What a reader's shell does not carry over: a script's `cd` and `umask` end with it,
// sudo resets the environment, a PATH line appended to ~/.bashrc waits for the next
// shell, a relative link target is read from the link's folder, and the machine's clock
// is UTC whatever zone the page's times are in. Each is named where the reader stops.
func TestWhatAShellDoesNotCarryOver(t *testing.T) {
	t.Parallel()
	md := "# Publish\n\nSave this as `publish.sh`:\n\n```sh\n#!/bin/sh\numask 077\ncd /srv/pub || exit 1\necho hello > page.txt\n```\n\n" +
		"Run it; it leaves you in the folder:\n\n```bash\nsudo mkdir -p /srv/pub && sudo chown \"$(id -un)\": /srv/pub\nchmod +x publish.sh && ./publish.sh\nls -l page.txt\n```\n\n" +
		"The web server reads it as www-data:\n\n```bash\nsudo -u www-data cat /srv/pub/page.txt\n```\n\n" +
		"Install it for everyone:\n\n```bash\nexport PUB_DIR=/srv/pub\nsudo sh -c ': \"${PUB_DIR:?PUB_DIR is not set}\"; echo ok'\n```\n\n" +
		"Put a tool in `~/bin` and on your PATH:\n\n```bash\nmkdir -p ~/bin && printf '#!/bin/sh\\necho tool 1.0\\n' > ~/bin/pubtool && chmod +x ~/bin/pubtool\necho 'export PATH=\"$HOME/bin:$PATH\"' >> ~/.bashrc\npubtool\n```\n\n" +
		"Keep the newest page under a fixed name:\n\n```bash\nmkdir -p pages && echo v1 > pages/v1.txt\nln -sf pages/v1.txt pages/current.txt\ncat pages/current.txt\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 5, "%+v", res.Findings)
	cd := findingOn(t, res.Findings, md, "ls -l page.txt")
	assert.Contains(t, cd.Problem, "a script runs in a process of its own: its `cd` ends with it")
	assert.Contains(t, cd.Fix, "add `cd /srv/pub`")
	requireProven(t, *cd)
	mask := findingOn(t, res.Findings, md, "sudo -u www-data cat")
	assert.Contains(t, mask.Problem, "`-rw-------`: `./publish.sh` (run at line 16) sets `umask 077`")
	requireProven(t, *mask)
	env := findingOn(t, res.Findings, md, "sudo sh -c")
	assert.Contains(t, env.Problem, "sudo resets the environment")
	assert.Contains(t, env.Fix, "sudo --preserve-env=PUB_DIR sh -c")
	requireProven(t, *env)
	at := map[int]loop.Finding{}
	for _, f := range res.Findings {
		at[f.Line] = f
	}
	rc := at[lineOf(md, "~/.bashrc")+1]
	assert.Contains(t, rc.Problem, "line 37 adds `~/bin` to PATH in `~/.bashrc`, but the running shell read `~/.bashrc` when it started")
	requireProven(t, rc)
	link := findingOn(t, res.Findings, md, "cat pages/current.txt")
	assert.Contains(t, link.Problem, "`pages/current.txt` is a symbolic link to `pages/v1.txt`, which does not exist")
	assert.Contains(t, link.Fix, "`ln -sf v1.txt pages/current.txt`")
	requireProven(t, *link)
}

// Times a page gives in its own zone, which a fresh machine (UTC, TZ unset) prints an hour
// or two earlier, summer time and all: the gap is the step that turns them into local
// time, and its fix (TZ set) is proven by the output the page shows.
func TestTimesInTheMachinesZone(t *testing.T) {
	t.Parallel()
	md := "# Calls\n\nThe office is in Berlin; every time on this page is Berlin time.\n\n```bash\nstart=$(date -d '2027-01-14 15:00 UTC' '+%H:%M')\necho \"call at $start\"\n```\n\n```\ncall at 16:00\n```\n\n" +
		"## Log\n\n```bash\nprintf '2024-03-05 10:00 start\\n2024-07-03 11:46 check\\n' > expected.txt\n{ date -d '2024-03-05 09:00 UTC' '+%F %H:%M start'; date -d '2024-07-03 09:46 UTC' '+%F %H:%M check'; } | diff expected.txt -\n```\n"
	res, _ := attemptProving(t, md, nil)
	require.Len(t, res.Findings, 2, "%+v", res.Findings)
	call := findingOn(t, res.Findings, md, "start=$(date")
	assert.Contains(t, call.Problem, "gives `15:00` where the tutorial has `16:00`: every time is one hour earlier than the page's")
	assert.Contains(t, call.Problem, "line 6 turns the times into the machine's local time")
	assert.Contains(t, call.Fix, "`export TZ=Europe/Berlin`")
	requireProven(t, *call)
	assert.Contains(t, call.FixEvidence, "printed what the tutorial shows")
	log := findingOn(t, res.Findings, md, "| diff expected.txt -")
	assert.Contains(t, log.Problem, "(an hour more or less under summer time)")
	requireProven(t, *log)
}

// Mistakes of the shell's own rules, named from the command and its error: spaces around
// `=`, an unquoted find pattern, `sh -c` given no $0, a leading zero in arithmetic, a
// script named like the module it imports, and the file a compressor replaced.
func TestShellMistakesNamedFromTheError(t *testing.T) {
	t.Parallel()
	md := "# Mistakes\n\n```bash\nmkdir -p scripts && touch scripts/a.sh scripts/b.sh && cd scripts\nLOGDIR = /tmp/logs\n```\n\n" +
		"```bash\nfind . -name *.sh\n```\n\n" +
		"```bash\nls *.sh | xargs -n 1 sh -c 'cp \"$1\" \"$1.bak\"'\n```\n\n" +
		"```bash\nn=08; echo $((n + 1))\n```\n\n" +
		"Save this as `json.py`:\n\n```python\nimport json\nprint(json.dumps({'a': 1}))\n```\n\n```bash\npython3 json.py\n```\n\n" +
		"```bash\necho hello > notes.txt && gzip notes.txt\ncat notes.txt\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 6, "%+v", res.Findings)
	assert.Contains(t, findingOn(t, res.Findings, md, "LOGDIR = ").Fix, "`LOGDIR=/tmp/logs`")
	assert.Contains(t, findingOn(t, res.Findings, md, "find . -name").Fix, "`find . -name '*.sh'`")
	assert.Contains(t, findingOn(t, res.Findings, md, "xargs -n 1 sh -c").Fix, "sh -c 'cp \"$1\" \"$1.bak\"' sh`")
	assert.Contains(t, findingOn(t, res.Findings, md, "n=08").Problem, "reads a number with a leading zero (`08`) as octal")
	assert.Contains(t, findingOn(t, res.Findings, md, "python3 json.py").Problem, "`import json` loads the script itself")
	assert.Contains(t, findingOn(t, res.Findings, md, "cat notes.txt").Problem, "line 32 compressed it with `gzip`")
}
