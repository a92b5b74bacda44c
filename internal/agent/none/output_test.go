package none

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOutputMismatch(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, cmd, shown, got, want string
	}{
		{"same", "echo hi", "hi", "hi", ""},
		{"nothing printed", "grep -c error app.log", "3", "", "printed nothing"},
		{"another count", "wc -l < users.txt", "219", "12", "shows 219"},
		{"listing misses files", "ls", "app.py  README.md", "README.md", "listing app.py, but the command did not list it"},
		{"listing in another order", "ls", "b.txt a.txt", "a.txt\nb.txt", ""},
		{"versions differ", "python3 --version", "Python 3.12.1", "Python 3.11.2", ""},
		{"banner with a version", "sqlite3 books.db", "SQLite version 3.40.1 2022-12-28", "", ""},
		{"elided output", "pip install requests", "Collecting requests\n...", "", ""},
		{"quiet command", "cd app", "", "", ""},
		{"JSON strings in quotes", "jq '.[] | .name' users.json", "ada\ngrace", "\"ada\"\n\"grace\"", "with -r"},
		{"free text differs", "date", "Mon Jan 1 10:00:00 UTC 2024", "Tue Nov 24 19:00:00 UTC 2026", ""},
		{"nothing made of what it shows", "sitegen build", "Built 2 pages, 0 drafts in 0.31 seconds.", "WARNING bad date in post.md\nBuilt 0 pages, 0 drafts in 0.02 seconds.", "shows `sitegen build` printing “Built 2 pages”, but it printed “Built 0 pages”"},
		{"tests not collected", "pytest -q", "collected 3 items\n3 passed in 0.02s", "collected 0 items\nno tests ran in 0.01s", "“collected 3 items”"},
		{"other counts differ", "sitegen build", "Built 2 pages in 0.31 seconds.", "Built 3 pages in 0.02 seconds.", ""},
		{"a warning shown but not printed", "cc -Wall -o hello hello.c", "hello.c: 1 warning generated.", "hello.c: 0 warnings generated.", ""},
		{"a decimal is not a count", "bench run", "took 1.5 seconds for 4 runs", "took 0.5 seconds for 4 runs", ""},
		{"a count on the next line", "exiftool -r .", "    1 directories scanned\n    3 image files updated", "    1 directories scanned\n    0 image files updated", ""},
		{"a page where text is shown", "curl http://localhost:3000/hello/Ada", "Hello, Ada!", "<!DOCTYPE html>\n<html>\n<head><title>Page not found</title></head>\n<body>…</body></html>", "printed an HTML page titled “Page not found”, where the tutorial shows “Hello, Ada!”"},
		{"a page the tutorial shows", "curl http://localhost:8080/", "<h1>It works</h1>", "<!DOCTYPE html><html><h1>It works</h1></html>", ""},
		{"a history graph's revisions", "hg log -G", "o 1 Add salt\n@ 0 Start", "@ 0 Add salt", ""},
		{"package installs vary", "sudo apt-get install -y jq", "0 upgraded, 2 newly installed, 0 to remove", "0 upgraded, 0 newly installed, 0 to remove", ""},
		{"a backtrace without source lines", "gdb -batch -ex run -ex bt ./wc", "#0  0x0000555555555187 in count (line=0x0) at wc.c:8\n#1  0x00005555555551e6 in main () at wc.c:25", "#0  0x000055d641a3c187 in count ()\n#1  0x000055d641a3c1e6 in main ()", "names none (“#0 0x000055d641a3c187 in count ()”): the program has no debugging information"},
		{"numbers one per line", "metaflac --show-sample-rate --show-total-samples chime.flac", "48000\n28800", "44100\n26460", "shows 48000, 28800 for `metaflac --show-sample-rate --show-total-samples chime.flac`, but the command printed 44100, 26460"},
		{"the same numbers one per line", "metaflac --show-sample-rate --show-total-samples chime.flac", "48000\n28800", "48000\n28800", ""},
		{"a state flipped", "sh portcheck.sh 8000 9999", "8000 open\n9999 closed", "8000 closed\n9999 closed", "printing “8000 open”, but it printed “8000 closed”"},
		{"the same states", "sh portcheck.sh 8000 9999", "8000 open\n9999 closed", "8000 open\n9999 closed", ""},
		{"a backtrace with other addresses", "gdb -batch -ex run -ex bt ./wc", "#0  0x0000555555555187 in count (line=0x0) at wc.c:8", "#0  0x000055d641a3c187 in count (line=0x0) at wc.c:8", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := outputMismatch(tt.cmd, tt.shown, tt.got)
			if tt.want == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tt.want)
			}
		})
	}
}

func TestMissingBranch(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"fatal: invalid reference: main":                                          "main",
		"`git switch main` fails: fatal: invalid reference: main; no such branch": "main",
		"error: src refspec main does not match any":                              "main",
		"error: pathspec 'feature/x' did not match any file(s) known to git":      "feature/x",
		"Everything up-to-date":                                                   "",
	} {
		assert.Equal(t, want, missingBranch(in), in)
	}
}

func TestPHPPackage(t *testing.T) {
	ss := &session{written: map[string]string{"/w/db.php": "<?php\n$db = new PDO('sqlite:' . __DIR__ . '/n.sqlite');\n"}}
	pkg, what := ss.phpPackage("PHP Fatal error:  Uncaught PDOException: could not find driver in /w/db.php:2")
	assert.Equal(t, "php-sqlite3", pkg)
	assert.Equal(t, "PHP's PDO driver for sqlite", what)
	pkg, _ = ss.phpPackage("PHP Fatal error:  Uncaught Error: Call to undefined function mb_strlen() in /w/a.php:3")
	assert.Equal(t, "php-mbstring", pkg)
	pkg, _ = ss.phpPackage(`PHP Fatal error:  Uncaught Error: Class "DOMDocument" not found in /w/a.php:3`)
	assert.Equal(t, "php-xml", pkg)
	pkg, _ = ss.phpPackage("PHP Fatal error:  Uncaught Error: Call to undefined function json_validate() in /w/a.php:3")
	assert.Empty(t, pkg, "a function of a newer PHP is no extension to install")
}

func TestOwnPrompt(t *testing.T) {
	shown := "Mono C# Shell, type \"help;\" for help\n\nEnter statements below.\ncsharp> 6 * 7\n42\ncsharp> quit;\n"
	assert.True(t, ownPrompt(shown, "csharp"))
	assert.False(t, ownPrompt("csharp> is how the prompt looks", "mono"), "another program's prompt")
}

func TestTestRunnerFailuresStatusLinesAndHelpText(t *testing.T) {
	t.Parallel()
	shown := "[==========] 5 tests from 2 test suites ran. (0 ms total)\n[  PASSED  ] 5 tests.\nexit status: 0"
	got := "[ RUN      ] CountWords.Tabs\ntests/wc_test.cc:8: Failure\nExpected equality of these values:\n  count_words(\"one\\ttwo\")\n[  FAILED  ] CountWords.Tabs (0 ms)\n[  PASSED  ] 4 tests.\n[  FAILED  ] 1 test, listed below:\nexit status: 1"
	why := outputMismatch(`./wc_test; echo "exit status: $?"`, shown, got)
	assert.Contains(t, why, "but it printed FAILED")
	assert.Contains(t, why, `the failure: “tests/wc_test.cc:8: Failure Expected equality of these values: count_words("one\ttwo")`)
	assert.Contains(t, outputMismatch(`./run; echo "exit status: $?"`, "done\nexit status: 0", "done\nexit status: 3"), "ending with status 0, but it ended with 3")
	assert.Empty(t, outputMismatch("pytest", "5 passed, 0 failed", "5 passed, 0 failed"), "the same summary")

	help := "This program contains tests written using Google Test.\n\nTest Selection:\n  --gtest_list_tests\n      List the names of all tests.\n  --gtest_filter=POSITIVE_PATTERNS[-NEGATIVE_PATTERNS]\n      Run only the tests that match.\n  --gtest_also_run_disabled_tests\n  --gtest_repeat=[COUNT]\n"
	assert.Contains(t, outputMismatch("./wc_test --gtest-filter='CountWords.*'", "Note: Google Test filter = CountWords.*\n[  PASSED  ] 4 tests.", help), "printed its help")
	opt, other, line := respelledOption("./wc_test --gtest-filter='CountWords.*'", help)
	assert.Equal(t, []string{"--gtest-filter", "--gtest_filter", "--gtest_filter=POSITIVE_PATTERNS[-NEGATIVE_PATTERNS]"}, []string{opt, other, line})
	assert.Equal(t, "./wc_test --gtest_filter='CountWords.*'", swapOption("./wc_test --gtest-filter='CountWords.*'", opt, other))
	assert.Empty(t, outputMismatch("prog --help", "Usage: prog [options]\n  -a\n  -b", help), "help shown, help printed")
}

func TestComparisonsThatFindDifferences(t *testing.T) {
	t.Parallel()
	assert.True(t, foundDifferences("diff old.txt new.txt", "1c1\n< a\n---\n> b"))
	assert.True(t, foundDifferences("cvs diff -r 1.1 -r 1.2 greet.c", "Index: greet.c\n@@ -1 +1 @@\n-a\n+b"))
	assert.True(t, foundDifferences("cmp a b", "a b differ: byte 1, line 1"))
	assert.False(t, foundDifferences("diff old.txt missing.txt", "diff: missing.txt: No such file or directory"), "trouble, not differences")
	assert.False(t, foundDifferences("git diff --exit-code", "-a\n+b"), "asked to fail on differences")
	assert.False(t, foundDifferences("diff a b | head", "1c1"), "a pipeline's status is its own")
	// dwdiff 2.1.4 and wdiff 1.2.2 exit 1 when the words differ, as diff does
	assert.True(t, foundDifferences("dwdiff -P a.txt b.txt", "Members may borrow up to [-eight-] {+ten+} items."))
	assert.True(t, foundDifferences("wdiff -3 a.txt b.txt", "======================================================================\n {+or damaged+}\n"))
	assert.True(t, foundDifferences("diff -u a.txt b.txt > loans.patch", ""), "the differences went to the file")
	assert.True(t, foundDifferences("dwdiff -s a.txt b.txt > /dev/null", "old: 55 words  51 92% common  0 0% deleted  4 7% changed"))
	assert.False(t, foundDifferences("dwdiff a.txt b.txt > out.txt", "Can't open file a.txt: No such file or directory"))
	assert.False(t, foundDifferences("diff a b 2> err.txt", ""), "only the errors went to the file")
}

// The tutorial's own program printing none of the lines shown is a gap; a date, a
// version or a home folder of the author's is not.
func TestOtherLinesOfTheTutorialsOwnProgram(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "the tutorial shows `greet --greeting Howdy Ada` printing “Howdy, Ada!”, but it printed “--greeting, Howdy! …”",
		otherLines("greet --greeting Howdy Ada", "Howdy, Ada!", "--greeting, Howdy!\n--greeting, Ada!"))
	assert.Empty(t, otherLines("~/backup-demo.sh", "wrote /home/sam/backups/demo-2024-02-11.tar.zst", "wrote /home/learner/backups/demo-2026-11-27.tar.zst"))
	assert.Empty(t, otherLines("./hello", "Hello from /home/sam", "Hello from /home/learner"))
	assert.Empty(t, otherLines("./count words.txt", "the 5\ncat 4", "the 5\ncat 3"), "one line in common: a change, not another program")
}

func TestDebuggee(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "./wordcount", debuggee(`gdb -batch -ex run -ex "frame 1" -ex "print i" ./wordcount 2>/dev/null`))
	assert.Equal(t, "./wc", debuggee("gdb -q --args ./wc notes.txt"))
	assert.Equal(t, "./wordcount", debuggee("gdb -batch -x crash.gdb ./wordcount"))
}

func TestSingleQuotedVariablesFormatsAndDevices(t *testing.T) {
	t.Parallel()
	cmd := "gpsbabel -i gpx -f a.gpx -x 'track,move=$SHIFT' -o gpx -F b.gpx"
	assert.Equal(t, "$SHIFT", singleQuotedVar(cmd, `trackfilter-time: invalid value in move option "$SHIFT"!`))
	assert.Empty(t, singleQuotedVar(cmd, "trackfilter-time: invalid value in move option"), "an error that does not quote it as written")
	assert.Equal(t, `gpsbabel -i gpx -f a.gpx -x "track,move=$SHIFT" -o gpx -F b.gpx`, doubleQuoted(cmd, "$SHIFT"))
	assert.NotContains(t, predict(cmd).paths, "gpx", "-i gpx … -o gpx name formats")
	assert.Contains(t, predict("gcc -o wordcount wordcount.c").paths, "wordcount")
	assert.True(t, writesOnly("cc -O2 -o hello hello.c", "hello"))
	assert.False(t, writesOnly("./hello -o x hello", "hello"))
	assert.NotEmpty(t, reNoDevice.FindString("Found no Garmin USB devices."))
	assert.Empty(t, reNoDevice.FindString("No such file or directory"))
}

func TestErrorAboutALineOfTheFileRead(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "reminders.rem(11): Expecting time after AT", reportedError("remind -q reminders.rem 2026-12-15", "Stand-up at 9:15\nreminders.rem(11): Expecting time after AT", "Stand-up at 9:15\nSwimming"))
	assert.Empty(t, reportedError("remind -q other.rem", "reminders.rem(11): Expecting time after AT", ""), "a file the command does not name")
}

func TestARunnerEchoingItsCommandKeepsTheVariable(t *testing.T) {
	t.Parallel()
	assert.Empty(t, singleQuotedVar(`hyperfine -P level 1 9 'gzip -{level} -c "$LOG" > /dev/null'`, "Benchmark 1: gzip -1 -c \"$LOG\" > /dev/null\nError: Command terminated with non-zero exit code: 1."))
}

func TestHeaderRowAndOwnAccount(t *testing.T) {
	t.Parallel()
	assert.True(t, headerRow("chrom\tstart\tend\tname\nchr1\t40\t60\tsnp\nchr2\t0\t40\tstart\n"))
	assert.False(t, headerRow("chr1\t40\t60\tsnp\nchr2\t0\t40\tstart\n"), "data from the first line")
	assert.False(t, headerRow("[server]\nport = 80\n"), "not a table")
	assert.NotEmpty(t, ownAccountSetup("notmuch only indexes what is on disk. To pull mail from an IMAP account, configure isync for your provider and run it before indexing:"))
	assert.Empty(t, ownAccountSetup("Log in to your account:"), "no set-up of a tool")
	assert.Empty(t, ownAccountSetup("Configure the server as below:"), "nothing of the reader's own")
}

func TestStartedInItsOwnTerminal(t *testing.T) {
	t.Parallel()
	assert.True(t, reOwnTerminal.MatchString("Start it in a fourth terminal, then fetch the page over plain HTTP from the third:"))
	assert.True(t, reStaysUp.MatchString("The prompt does not come back: stunnel now waits for connections and logs each one here."))
	assert.False(t, reOwnTerminal.MatchString("In a second terminal, fetch the page:"), "the request, not the server")
	assert.True(t, reKnitrError.MatchString(`{bash, label="unsorted-query", error=TRUE}`))
	assert.False(t, reKnitrError.MatchString(`{bash, error=FALSE}`))
}

func TestOnlyErrorsWhereTheTutorialShowsDatedLines(t *testing.T) {
	t.Parallel()
	shown := "2026/12/14 Weekly review: empty the inbox\n2026/12/15 Recycling bins out tonight"
	assert.Contains(t, outputMismatch("sh agenda.sh 2026-12-14", shown, "Can't open file: \nError reading : Can't open file"), "printed only errors")
	assert.Empty(t, outputMismatch("sh agenda.sh 2026-12-14", shown, "2026/12/21 Weekly review: empty the inbox"), "dates differ from machine to machine")
	assert.Empty(t, outputMismatch("ls nothing", "ls: cannot access 'nothing': No such file or directory", "ls: cannot access 'x': No such file or directory"), "an error shown")
	assert.True(t, reTryIt.MatchString("Try it if you like:"))
	m := reRefusedValue.FindStringSubmatch("pre-commit run: error: argument --hook-stage: invalid choice: 'pre-push' (choose from 'commit', 'push')")
	require.NotNil(t, m)
	n := reRefusedValue.FindStringSubmatch("=====> Expected one of commit, commit-msg, push but got: 'pre-push'")
	require.NotNil(t, n)
	assert.Equal(t, m[1], n[1])
}

func TestOrEchoThatNeverRan(t *testing.T) {
	t.Parallel()
	cmd := `tftp 127.0.0.1 6969 -c get no-such-file.cfg || echo "missing file detected"`
	assert.Contains(t, outputMismatch(cmd, "Error code 1: File not found\nmissing file detected", "Error code 1: File not found"), "exited with status 0, so `|| echo` did not print “missing file detected”")
	assert.Empty(t, outputMismatch(cmd, "Error code 1: File not found\nmissing file detected", "Error code 1: File not found\nmissing file detected"))
}
