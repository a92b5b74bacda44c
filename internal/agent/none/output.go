package none

import (
	"context"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Output the tutorial shows: a console block's lines under a prompt, or a block the
// prose introduces as the output ("The output is similar to:"). A command that worked
// is compared with it loosely — only what a reader would call a contradiction is a gap:
// the tutorial shows output and the command printed nothing; it shows a count and the
// command printed another; it lists files the command did not list. Versions, dates,
// hashes, sizes, paths and ordering never count.

var (
	reVersionish = regexp.MustCompile(`\bv?\d+\.\d+(?:\.\d+)?\b`)
	reInteger    = regexp.MustCompile(`^\s*(\d+)\s*$`)
	reFileName   = regexp.MustCompile(`^[\w.-]+\.[A-Za-z0-9]{1,8}$|^[\w.-]+/$`)
	// commands that print nothing when they work
	quiet = map[string]bool{"cd": true, "export": true, "source": true, ".": true, "mkdir": true, "touch": true, "cp": true, "mv": true,
		"rm": true, "chmod": true, "ln": true, "set": true, "unset": true, "alias": true}
	reVersionCmd = regexp.MustCompile(`(?:^|\s)(?:--version|-v|-V|version)\b`)
)

// outputMismatch returns a problem when a command's real output contradicts the output
// the tutorial shows ("" when they agree loosely, or nothing is shown).
func outputMismatch(cmd, shown, got string) string {
	shown = strings.TrimSpace(shown)
	got = strings.TrimSpace(got)
	if strings.HasSuffix(strings.TrimSpace(cmd), "&") && reJobNotice.MatchString(shown) {
		return "" // "[1] 407": the job number the reader's shell prints for `… &`
	}
	if m := reOrEcho.FindStringSubmatch(cmd); m != nil && strings.Contains(shown, m[2]) && !strings.Contains(got, m[2]) {
		// `tftp … -c get no-such-file.cfg || echo "missing file detected"`: tftp-hpa 5.2
		// prints the server's error and exits 0, so the echo the tutorial shows never runs
		return fmt.Sprintf("`%s` exited with status 0, so `|| echo` did not print “%s”, which the tutorial shows: the program does not report this failure in its exit status", strings.TrimSpace(m[1]), m[2])
	}
	if status := httpError(got); shown != "" && status != "" && !strings.Contains(shown, status[:3]) {
		// curl without -f prints the error page and exits 0
		return fmt.Sprintf("`%s` got `%s` from the server, where the tutorial shows %s", firstLine(cmd), status, quoteShort(shown))
	}
	if reHTTPClient.MatchString(cmd) && !strings.Contains(cmd, "|") && shown != "" && !strings.Contains(shown, "<") && reHTMLPage.MatchString(got) {
		// "Hello, Ada!" shown, a whole HTML page (a framework's "not found" page) printed
		page := "an HTML page"
		if m := reHTMLTitle.FindStringSubmatch(got); m != nil {
			page += " titled " + quoteShort(strings.TrimSpace(m[1]))
		}
		return fmt.Sprintf("`%s` printed %s, where the tutorial shows %s", firstLine(cmd), page, quoteShort(shown))
	}
	if reHTTPClient.MatchString(cmd) && !strings.Contains(cmd, "|") && shown != "" && got != "" && !strings.Contains(shown, "...") && !strings.Contains(shown, "…") && nothingShared(shown, got) {
		// the page the tutorial shows, and an answer with none of its words
		why := fmt.Sprintf("`%s` printed %s, where the tutorial shows %s", firstLine(cmd), quoteShort(got), quoteShort(shown))
		if reHTTPSOnly.MatchString(got) {
			why += "; the server speaks HTTPS on that port, not plain HTTP"
		}
		return why
	}
	if good := reGoodState.FindString(shown); good != "" && !reBadState.MatchString(shown) {
		bad := reBadState.FindString(got)
		if reGoodState.MatchString(got) {
			// "[  PASSED  ] 5 tests." shown, "[  PASSED  ] 4 tests." and "[  FAILED  ] 1
			// test" printed: only a state in capitals counts beside a good one
			bad = reBadStateLoud.FindString(got)
		}
		if bad != "" {
			// supervisorctl status: RUNNING shown, BACKOFF printed
			why := fmt.Sprintf("the tutorial shows `%s` as %s, but it printed %s (%s)", firstLine(cmd), good, bad, quoteShort(keyLineOf(got, bad)))
			if d := failureDetail(got); d != "" {
				why += "; the failure: “" + loop.Clip(d, 200) + "”"
			}
			return why
		}
	}
	if shown != "" && helpText(got) && !helpText(shown) {
		// `./wordcount_test --gtest-filter=…`: an option it does not know, so its help
		return fmt.Sprintf("`%s` printed its help (%s) instead of the output the tutorial shows (%s)", firstLine(cmd), quoteShort(firstLine(got)), quoteShort(shown))
	}
	if m := reStatusLine.FindStringSubmatch(shown); m != nil {
		if g := reStatusLine.FindStringSubmatch(got); g != nil && g[1] != m[1] {
			// `./tests; echo "exit status: $?"`: 0 shown, 1 printed
			return fmt.Sprintf("the tutorial shows `%s` ending with status %s, but it ended with %s (%s)", firstLine(cmd), m[1], g[1], quoteShort(strings.TrimSpace(g[0])))
		}
	}
	if shown != "" && got != "" && !isPackageInstall(cmd) {
		if want, have := noneMade(shown, got); want != "" {
			// "Processed 1 article" shown, "Processed 0 articles" printed: whatever the
			// version or the timings, what it was to make was not made
			return fmt.Sprintf("the tutorial shows `%s` printing %s, but it printed %s", firstLine(cmd), quoteShort(want), quoteShort(have))
		}
	}
	if why := noSymbols(cmd, shown, got); why != "" {
		return why
	}
	if shown != "" && errorsOnly(got) && !errorsOnly(shown) && nothingShared(shown, got) {
		// the agenda shown, "Can't open file:" and "Error reading : Can't open file"
		// printed (with exit status 0): whatever the dates, nothing of it came out
		return fmt.Sprintf("`%s` printed only errors (%s) where the tutorial shows %s", firstLine(cmd), quoteShort(keyLine(got)), quoteShort(shown))
	}
	if shown == "" || quiet[firstWord(cmd)] || reVersionCmd.MatchString(cmd) || strings.Contains(shown, "...") || strings.Contains(shown, "…") ||
		reVersionish.MatchString(shown) || reDate.MatchString(shown) {
		return "" // banners, versions and dates differ from machine to machine
	}
	if q := quotedOnly(shown, got); q != "" {
		return q + hintFor(cmd)
	}
	if got == "" {
		if len(strings.Fields(shown)) == 0 {
			return ""
		}
		return fmt.Sprintf("the tutorial shows output for `%s` (%s), but the command printed nothing", firstLine(cmd), quoteShort(shown))
	}
	if m := reInteger.FindStringSubmatch(shown); m != nil {
		if g := reInteger.FindStringSubmatch(got); g != nil && g[1] != m[1] {
			return fmt.Sprintf("the tutorial shows %s for `%s`, but the command printed %s", m[1], firstLine(cmd), g[1])
		}
		return ""
	}
	if want, have := numberLines(shown), numberLines(got); len(want) > 1 && len(want) == len(have) && !slices.Equal(want, have) {
		// metaflac's sample rate and length, one per line: 48000 and 28800 shown
		return fmt.Sprintf("the tutorial shows %s for `%s`, but the command printed %s", strings.Join(want, ", "), firstLine(cmd), strings.Join(have, ", "))
	}
	if want, have := flippedState(shown, got); want != "" {
		// "8000 open" shown, "8000 closed" printed
		return fmt.Sprintf("the tutorial shows `%s` printing %s, but it printed %s", firstLine(cmd), quoteShort(want), quoteShort(have))
	}
	if missing := unlisted(cmd, shown, got); len(missing) > 0 {
		return fmt.Sprintf("the tutorial shows `%s` listing %s, but the command did not list %s", firstLine(cmd), strings.Join(missing, ", "), plural(len(missing), "it", "them"))
	}
	return ""
}

// unrelated: the failed command of f could not run here (an environment's), and it
// shares no program, file or argument with cmd.
func unrelated(f loop.Finding, cmd string) bool {
	if !f.Environment && loop.Categorize(f, f.Output) != loop.CategoryEnvironmentAssumption {
		return false
	}
	words := strings.Fields(f.Command)
	for _, w := range strings.Fields(cmd) {
		if w = strings.Trim(w, `"'`); len(w) >= 3 && !strings.HasPrefix(w, "-") && w != "sudo" && slices.Contains(words, w) {
			return false
		}
	}
	return true
}

// reStateLine: a line that is a name and its state ("8000 open", "web: running").
var reStateLine = regexp.MustCompile(`(?i)^\s*(\S+?):?\s+(open|closed|up|down|ok|failed|running|stopped|active|inactive|enabled|disabled|pass|fail|yes|no)\s*$`)

// flippedState: a line shown as a name and its state that the command printed with
// another state (the first such pair; "" when none).
func flippedState(shown, got string) (string, string) {
	states := map[string]string{}
	for _, l := range strings.Split(got, "\n") {
		if m := reStateLine.FindStringSubmatch(l); m != nil {
			states[m[1]] = strings.TrimSpace(l)
		}
	}
	for _, l := range strings.Split(shown, "\n") {
		m := reStateLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if have, ok := states[m[1]]; ok && !strings.EqualFold(reStateLine.FindStringSubmatch(have)[2], m[2]) {
			return strings.TrimSpace(l), have
		}
	}
	return "", ""
}

// numberLines are the lines of out when every line is one whole number (nil otherwise).
func numberLines(out string) []string {
	var nums []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		m := reInteger.FindStringSubmatch(l)
		if m == nil {
			return nil
		}
		nums = append(nums, m[1])
	}
	return nums
}

// reFrameAt: a debugger's stack frame or stop with its source file and line ("#1
// 0x… in main () at wordcount.c:25", "Breakpoint 1, count_words (line=0x0) at
// wordcount.c:6"); reFrameBare: one without them ("#0  0x… in count_words ()"), all a
// program built without debugging information lets gdb say.
var (
	reFrameAt   = regexp.MustCompile(`(?m)(?:^#\d+\s+(?:0x[0-9a-f]+ in )?|^Breakpoint \d+, )[\w:<>~]+ \([^)\n]*\) at [\w./-]+:\d+`)
	reFrameBare = regexp.MustCompile(`(?m)^#\d+\s+0x[0-9a-f]+ in [\w:<>~]+ \(\)`)
)

// debuggers: programs that show a program's frames by source line when it was built with
// debugging information.
var debuggers = map[string]bool{"gdb": true, "gdb-multiarch": true, "lldb": true, "cgdb": true}

// noSymbols: the tutorial shows the debugger naming source files and lines, and it named
// none (or said "No symbol table is loaded"): the program was built without -g.
func noSymbols(cmd, shown, got string) string {
	if !debuggers[firstWord(cmd)] || !reFrameAt.MatchString(shown) || reFrameAt.MatchString(got) {
		return ""
	}
	if !reFrameBare.MatchString(got) && !strings.Contains(got, "No symbol table is loaded") {
		return ""
	}
	had := firstNonEmpty(reFrameBare.FindString(got), "No symbol table is loaded")
	return fmt.Sprintf("the tutorial shows `%s` naming source files and lines (%s), but it names none (%s): the program has no debugging information", firstLine(cmd), quoteShort(reFrameAt.FindString(shown)), quoteShort(strings.Join(strings.Fields(had), " ")))
}

// debuggee is the program a debugger command runs (`gdb -batch -ex run ./wordcount`,
// `gdb --args ./wc x.txt`): its last argument, or the one after --args ("" when none).
func debuggee(cmd string) string {
	w := strings.Fields(strings.Split(cmd, "2>")[0])
	if i := slices.Index(w, "--args"); i >= 0 && i+1 < len(w) {
		return w[i+1]
	}
	for i := len(w) - 1; i > 0; i-- {
		if prev := w[i-1]; !strings.HasPrefix(w[i], "-") && !strings.HasPrefix(prev, "-") || prev == "-batch" || prev == "-q" || prev == "--batch" {
			return w[i]
		}
	}
	return ""
}

// builtWithout: the command that built prog (`gcc … -o wordcount …`) and its line, to
// build it again with -g (nil when none ran).
func (ss *session) builtWithout(prog string) *loop.CommandRecord {
	base := path.Base(prog)
	for i := len(ss.res.Commands) - 1; i >= 0; i-- {
		c := ss.res.Commands[i]
		for _, part := range splitList(c.Command) {
			w := strings.Fields(part)
			if len(w) == 0 || !reCompiler.MatchString(w[0]+" ") || slices.ContainsFunc(w, func(a string) bool { return strings.HasPrefix(a, "-g") }) {
				continue
			}
			for j, a := range w {
				if a == "-o"+base || a == "-o" && j+1 < len(w) && path.Base(w[j+1]) == base {
					return &c
				}
			}
		}
	}
	return nil
}

// symbolsFix points f's fix at the compile step that left out -g and returns the program
// the debugger ran.
func (ss *session) symbolsFix(f *loop.Finding, cmd string) string {
	prog := debuggee(cmd)
	f.Fix = "build the program with debugging information (add `-g` to its compile command) before this step"
	if c := ss.builtWithout(prog); c != nil {
		f.Problem += fmt.Sprintf("; `%s` (line %d) compiled it without `-g`", firstLine(c.Command), c.Line)
		f.Fix = fmt.Sprintf("add `-g` to the compile command at line %d (`%s`), so that gdb can show source lines and variables", c.Line, firstLine(c.Command))
	}
	return prog
}

// emptiedBefore: the command printed nothing where the tutorial shows the contents of a
// file that the command right before names (as an argument or in its comment: `quilt
// refresh   # writes patches/fix-typo.patch`), which worked but printed a line other
// than the one the tutorial shows for it: that record and its shown output (nil when
// not so).
func (ss *session) emptiedBefore(rec loop.CommandRecord, output string) (*loop.CommandRecord, string) {
	prev := ss.recordBefore()
	if strings.TrimSpace(output) != "" || prev == nil || prev.ExitCode != 0 || prev.TimedOut || prev.Background || strings.TrimSpace(prev.Output) == "" {
		return nil, ""
	}
	named := false
	for _, a := range positional(tail1(strings.Fields(rec.Command))) {
		if looksLikePath(a) && strings.Contains(prev.Command, a) {
			named = true
		}
	}
	if !named {
		return nil, ""
	}
	for _, st := range ss.steps {
		if st.kind != runStep || st.line != prev.Line || st.command.Output == "" {
			continue
		}
		want := strings.TrimSpace(st.command.Output)
		if strings.Contains(want, "\n") || strings.Contains(strings.TrimSpace(prev.Output), "\n") || want == strings.TrimSpace(prev.Output) {
			return nil, "" // one status line each, and they differ
		}
		return prev, want
	}
	return nil, ""
}

// reOptionLine: a line of a program's help that defines an option; reUsage, its usage
// line.
var (
	reOptionLine = regexp.MustCompile(`(?m)^\s{1,10}--?[A-Za-z][\w-]*`)
	reUsage      = regexp.MustCompile(`(?im)^\s*usage:`)
)

// helpText: output that is a program's help: a usage line or many option lines.
func helpText(s string) bool {
	return len(reOptionLine.FindAllString(s, 5)) >= 4 || len(reOptionLine.FindAllString(s, 2)) >= 1 && reUsage.MatchString(s)
}

// reFailureLine: where a test runner says what failed ("tests/x_test.cc:8: Failure",
// "AssertionError: …", "Expected: …").
var reFailureLine = regexp.MustCompile(`(?m)^.*(?::\d+: Failure|AssertionError|[Aa]ssertion failed|^\s*Expected\b).*$`)

// failureDetail is the first failure a test runner describes, with the two lines after
// it (the values compared), joined on one line ("" when it describes none).
func failureDetail(out string) string {
	loc := reFailureLine.FindStringIndex(out)
	if loc == nil {
		return ""
	}
	lines := strings.Split(out[loc[0]:], "\n")
	var keep []string
	for _, l := range lines[:min(len(lines), 4)] {
		if t := strings.TrimSpace(l); t != "" {
			keep = append(keep, t)
		}
	}
	return strings.Join(keep, " ")
}

// respelledOption: a long option of cmd that the program's help does not define while it
// defines the same words with `_` and `-` swapped (`--gtest-filter` and
// `--gtest_filter`): the option, the help's spelling and the help's line for it.
func respelledOption(cmd, help string) (opt, other, helpLine string) {
	for _, f := range strings.Fields(cmd) {
		name, _, _ := strings.Cut(strings.Trim(f, `"'`), "=")
		if !strings.HasPrefix(name, "--") || !strings.ContainsAny(name[2:], "-_") {
			continue
		}
		if definesOption(help, name) != "" {
			continue
		}
		for _, alt := range []string{strings.ReplaceAll(name[2:], "-", "_"), strings.ReplaceAll(name[2:], "_", "-")} {
			if alt = "--" + alt; alt != name {
				if l := definesOption(help, alt); l != "" {
					return name, alt, l
				}
			}
		}
	}
	return "", "", ""
}

// definesOption is the line of help that defines option o ("" when none does).
func definesOption(help, o string) string {
	re := regexp.MustCompile(`(?:^|[\s,|])` + regexp.QuoteMeta(o) + `(?:$|[\s,|=\[])`)
	for _, l := range strings.Split(help, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "-") && re.MatchString(t) {
			return strings.Join(strings.Fields(t), " ")
		}
	}
	return ""
}

// unlisted are the file names an `ls` the tutorial shows lists and the real one does not.
func unlisted(cmd, shown, got string) []string {
	if firstWord(cmd) != "ls" {
		return nil
	}
	var missing []string
	have := map[string]bool{}
	for _, f := range strings.Fields(got) {
		have[strings.TrimSuffix(f, "/")] = true
	}
	for _, f := range strings.Fields(shown) {
		if reFileName.MatchString(f) && !reVersionish.MatchString(f) && !have[strings.TrimSuffix(f, "/")] {
			missing = append(missing, f)
		}
	}
	return missing
}

// listedDir is the one folder an `ls` lists ("." for none, "" for several).
func listedDir(cmd string) string {
	var dirs []string
	for _, a := range strings.Fields(cmd)[1:] {
		if !strings.HasPrefix(a, "-") {
			dirs = append(dirs, a)
		}
	}
	switch len(dirs) {
	case 0:
		return "."
	case 1:
		return dirs[0]
	}
	return ""
}

// reCount: a count of things, in lower case, after the word that says what was done
// with them ("Processed 1 article", "collected 3 items"); not a part of a decimal or a
// version, nor a graph's marks and numbers (`o 1 Add salt`).
var reCount = regexp.MustCompile(`\b([A-Za-z][a-z]{3,})[ \t]+(\d+)[ \t]+([a-z][a-z-]{2,})\b`)

// reCountNotMade: counts that differ without anything missing (durations, warnings,
// errors a tutorial shows or avoids).
var reCountNotMade = regexp.MustCompile(`(?i)^(?:ms|s|secs?|seconds?|min|minutes?|hours?|days?|weeks?|months?|years?|warnings?|errors?|failures?|failed|skipped|notices?|vulnerabilit(?:y|ies)|bytes?|[kmg]i?b)$`)

// noneMade is a count the tutorial shows ("Processed 1 article") that the command
// printed as zero with the same words ("Processed 0 articles"), as the two phrases; ""
// when there is none.
func noneMade(shown, got string) (string, string) {
	zero := map[string]string{}
	for _, m := range reCount.FindAllStringSubmatchIndex(got, -1) {
		if got[m[4]:m[5]] == "0" && !partOfNumber(got, m[4], m[5]) {
			zero[strings.ToLower(got[m[2]:m[3]])+" "+singular(got[m[6]:m[7]])] = got[m[2]:m[7]]
		}
	}
	for _, m := range reCount.FindAllStringSubmatchIndex(shown, -1) {
		if n := shown[m[4]:m[5]]; n == "0" || partOfNumber(shown, m[4], m[5]) || reCountNotMade.MatchString(shown[m[6]:m[7]]) {
			continue
		}
		if have, ok := zero[strings.ToLower(shown[m[2]:m[3]])+" "+singular(shown[m[6]:m[7]])]; ok {
			return shown[m[2]:m[7]], have
		}
	}
	return "", ""
}

// partOfNumber: the digits at s[i:j] belong to a longer number (0.19, 1.2.3, 1,000).
func partOfNumber(s string, i, j int) bool {
	return i > 0 && strings.ContainsAny(s[i-1:i], ".,") || j < len(s) && strings.ContainsAny(s[j:j+1], ".,:") && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9'
}

// singular is a noun without its plural ending, in lower case ("articles" → "article").
func singular(w string) string {
	w = strings.ToLower(w)
	if strings.HasSuffix(w, "ies") {
		return strings.TrimSuffix(w, "ies") + "y"
	}
	return strings.TrimSuffix(w, "s")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func quoteShort(s string) string {
	lines := strings.Split(s, "\n")
	q := strings.TrimSpace(lines[0])
	if len(lines) > 1 {
		q += " …"
	}
	return "“" + loop.Clip(q, 80) + "”"
}

// reEchoVar: a variable a command expands (`$TIDEWATCH_PORT`, `${DB_URL}`).
var reEchoVar = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)

// shellOwnVars are set in every shell, whatever the tutorial does.
var shellOwnVars = map[string]bool{"HOME": true, "USER": true, "PATH": true, "PWD": true, "SHELL": true, "LOGNAME": true, "HOSTNAME": true, "OLDPWD": true, "LANG": true, "TERM": true, "UID": true, "RANDOM": true}

// unsetEchoed: an echo or printf of variables printed a shorter line than the one the
// tutorial shows, and those variables are not set in the session: why, with the error
// line the shell printed around it ("direnv: error … .envrc is blocked"), "" otherwise.
func (ss *session) unsetEchoed(ctx context.Context, cmd, shown, got string) string {
	if w := firstWord(cmd); w != "echo" && w != "printf" || strings.ContainsAny(cmd, "|>") || strings.TrimSpace(shown) == "" {
		return ""
	}
	want, have := strings.TrimSpace(firstLine(strings.TrimSpace(shown))), strings.TrimSpace(firstLine(strings.TrimSpace(got)))
	if len(have) >= len(want) {
		return ""
	}
	var unset []string
	for _, m := range reEchoVar.FindAllStringSubmatch(cmd, -1) {
		if !shellOwnVars[m[1]] && !slices.Contains(unset, "`$"+m[1]+"`") && !ss.exported(ctx, m[1]) {
			unset = append(unset, "`$"+m[1]+"`")
		}
	}
	if len(unset) == 0 {
		return ""
	}
	why := fmt.Sprintf("`%s` printed %s, where the tutorial shows %s: %s %s not set in the session", firstLine(cmd), quoteShort(have), quoteShort(want), strings.Join(unset, " and "), plural(len(unset), "is", "are"))
	for _, l := range strings.Split(got, "\n") {
		if l = strings.TrimSpace(l); l != have && reErrorLine.MatchString(l) {
			why += "; the shell also printed “" + loop.Clip(l, 200) + "”"
			break
		}
	}
	return why
}

// checkOutput records a mismatch between a command's shown and real output.
// logged is what a server the tutorial started logged as errors meanwhile ("" when
// nothing): the cause of a wrong answer, or a consequence of an earlier gap.
func (ss *session) checkOutput(ctx context.Context, st step, rec loop.CommandRecord, output, logged string) {
	shown := st.command.Output
	if shown == "" {
		shown = st.expected
	}
	if reSessionOutput.MatchString(strings.TrimSpace(shown)) || replPrompt(shown) != "" || ownPrompt(shown, rec.Command) {
		// what it shows is a session typed into the program ("gnuplot> plot …"), which
		// the run, with no one at the keyboard, cannot show
		return
	}
	if reMakeUpToDate.MatchString(output) {
		if f, ok := ss.shellMistake(ctx, rec, output); ok {
			// `make test` with a folder named test: "make: 'test' is up to date."
			ss.taint(rec, ss.addFinding(rec, f, output))
			return
		}
	}
	if ss.zoneShifted(ctx, rec, shown, output, output) {
		// 16:00 -> 17:00 shown, 15:00 -> 16:00 printed, and nothing set TZ
		return
	}
	problem := outputMismatch(rec.Command, shown, output)
	if problem == "" {
		problem = ss.unsetEchoed(ctx, rec.Command, shown, output)
	}
	gone := 0
	if problem == "" {
		if name, at := ss.claimedGone(rec.Line, shown, output); name != "" {
			// "so that `old.tmp` is removed from the mirror", and the listing still has it
			problem = fmt.Sprintf("the tutorial says `%s` is gone (line %d) and shows it no longer listed, but `%s` still lists it", name, at, firstLine(rec.Command))
			gone = at
		}
	}
	if problem == "" {
		if said, wrote, at := ss.missedWritten(output); said != "" {
			// direnv's `dotenv` reads .env, and the tutorial saved the secrets as .env.local
			problem = fmt.Sprintf("`%s` printed “%s”, but the tutorial saved that file as `%s` (line %d): it names the same file two ways", firstLine(rec.Command), loop.Clip(said, 160), wrote, at)
		}
	}
	if problem == "" {
		if names, at, para := ss.saidAbsent(st, shown, output); len(names) > 0 {
			// "No `build/bundle.js`, no `debug.log`: rg reads the shop's `.gitignore`", and
			// ripgrep outside a Git repository lists them
			problem = fmt.Sprintf("`%s` printed %s, which the tutorial says it leaves out (line %d: “%s”)", firstLine(rec.Command), strings.Join(names, ", "), at, loop.Clip(para, 200))
		}
	}
	madeOf := "" // the tutorial's own files what the command reads was made from
	if problem == "" {
		if sign, at, said := ss.warnedSign(st, shown, output); sign != "" {
			// "If you see `[Malformed Packet]` on a line, a byte or an offset in your dump
			// is off": tshark printed it
			problem = fmt.Sprintf("`%s` printed `%s`, which the tutorial says (line %d) means trouble: “%s”", firstLine(rec.Command), sign, at, loop.Clip(said, 200))
			if from := ss.madeFrom(rec.Command, rec.Line); len(from) > 0 {
				madeOf = strings.Join(from, ", ")
				problem += fmt.Sprintf("; what it reads was made from %s, which the tutorial wrote", madeOf)
			}
		}
	}
	if problem == "" && ss.ownProgram(rec.Command) {
		problem = otherLines(rec.Command, shown, output)
	}
	if problem == "" {
		return
	}
	if script, feature := ss.bashFeatureUnderSh(rec.Command); script != "" {
		// `sh portcheck.sh` for a script that opens /dev/tcp: dash has no such path, so
		// every port reads as closed
		problem += fmt.Sprintf("; `%s` uses %s, which only bash has, but the step runs it with `%s` (dash on Debian): run it with `bash`", script, feature, firstWord(rec.Command))
	}
	if logged != "" {
		if r, ok := ss.rootWithError(logged); ok {
			// the server fails as an earlier step did (a driver that step found missing)
			ss.consequence(r, rec)
			return
		}
		problem += "; meanwhile the server logged: " + keyLine(logged)
		output += "\n" + logged
	}
	for r, rt := range ss.roots {
		if rt.finding >= 0 && strings.HasPrefix(ss.res.Findings[rt.finding].Problem, problem) {
			// the same command shows the same contradiction again (a rebuild after an
			// unrelated step): nothing changed what made it
			ss.consequence(r, rec)
			return
		}
	}
	if r, ok := ss.servesFailedConfig(rec.Command); ok {
		// dig answers nothing from a named started on the named.conf whose check failed
		ss.consequence(r, rec)
		return
	}
	host := reHostPort.FindString(rec.Command)
	if r, ok := ss.hostRoots[host]; ok && host != "" {
		// the same server answered wrongly before: this answer follows from that
		ss.consequence(r, rec)
		return
	}
	if ss.foldedRun >= 0 && strings.Contains(rec.Command, "$?") {
		// `echo $?` right after a command whose output was another gap's consequence (the
		// launcher found no tests because their compile failed)
		ss.consequence(ss.foldedRun, rec)
		return
	}
	if ss.lastFailedStep >= 0 && ss.lastFailedStep == ss.lastRun && ss.lastFailRoot >= 0 && ss.roots[ss.lastFailRoot].finding >= 0 && !unrelated(ss.res.Findings[ss.roots[ss.lastFailRoot].finding], rec.Command) {
		// the step right before failed: what it was to do is what this output shows (not
		// when they have nothing in common: a scan of the reader's own network, which
		// could not run here, and then a script of the tutorial's own)
		ss.consequence(ss.lastFailRoot, rec)
		return
	}
	if prev, want := ss.emptiedBefore(rec, output); prev != nil {
		// `quilt refresh   # writes patches/fix-typo.patch` said "Nothing in patch", then
		// `cat patches/fix-typo.patch` prints nothing: the step before is where it went wrong
		f := loop.Finding{
			Problem:  fmt.Sprintf("`%s` (line %d) printed %s where the tutorial shows %s, and what it was to write is empty: %s", firstLine(prev.Command), prev.Line, quoteShort(firstLine(strings.TrimSpace(prev.Output))), quoteShort(want), problem),
			Fix:      fmt.Sprintf("correct the steps up to line %d so that it does what the tutorial shows", prev.Line),
			Category: "command failure",
		}
		if fix := knownErrorFix(ctx, ss, prev.Output); fix != "" {
			f.Fix = fix
		}
		r := ss.addFinding(*prev, f, prev.Output)
		ss.consequence(r, rec)
		return
	}
	if prev := ss.refusedRequestBefore(rec); prev != nil {
		// the POST right before was answered with an error (curl exits 0): the list that
		// lacks its note follows from it
		f := loop.Finding{
			Problem:  fmt.Sprintf("`%s` (line %d) was refused by the server, which answered %s (curl does not fail on it), so what it was to add is missing later: %s", firstLine(prev.Command), prev.Line, quoteShort(firstLine(strings.TrimSpace(prev.Output))), problem),
			Fix:      fmt.Sprintf("correct the request at line %d so that the server accepts it", prev.Line),
			Category: "command failure",
		}
		if !reContentType.MatchString(prev.Command) && reJSONData.MatchString(prev.Command) {
			f.Problem += "; it sends JSON with `-d` but no `Content-Type: application/json` header, so curl labels it a form (application/x-www-form-urlencoded)"
			f.Fix = fmt.Sprintf("add `-H \"Content-Type: application/json\"` to the request at line %d (or use curl's `--json`)", prev.Line)
		}
		r := ss.addFinding(*prev, f, prev.Output)
		ss.consequence(r, rec)
		return
	}
	f := loop.Finding{
		Problem:  problem,
		Fix:      fmt.Sprintf("update the output shown after line %d to what the command prints on a fresh system, or correct the steps before it", rec.Line),
		Category: "failing check",
		Severity: "medium",
	}
	if madeOf != "" {
		f.Fix = fmt.Sprintf("correct what the tutorial has the reader write in %s so that line %d prints what the tutorial shows", madeOf, rec.Line)
		f.Category, f.Severity = "command failure", ""
	}
	if why, fix := curlGlob(rec.Command, rec.Line); why != "" {
		f.Problem += "; " + why
		f.Fix = fix
	}
	prog := ""
	if noSymbols(rec.Command, shown, output) != "" {
		prog = ss.symbolsFix(&f, rec.Command)
	}
	if strings.Contains(problem, "; the failure: ") {
		// a test the tutorial shows passing fails: the code under test (or the test) is wrong
		f.Fix = fmt.Sprintf("correct the code the tutorial has the reader write (or the test) so that the failing test passes, or show at line %d the failure the reader will see", rec.Line)
	}
	lost := ss.expandedHeredoc(rec)
	if lost.file != "" {
		// `cat > sweep.sh <<EOF` with `for n in 1 2 4` and `$n` in it, then `sh sweep.sh`
		// prints "wrote sweep-.json"
		lost.explain(&f)
		f.Severity = ""
	} else if name, at, set, script := ss.unexportedVar(ctx, rec); script != "" {
		// `REMFILE=~/remind-lab/reminders.rem`, then `sh agenda.sh`, which reads $REMFILE
		unexportedVarFor(&f, name, at, set, script)
		f.Severity = ""
	} else if names, at := ss.unexportedForPrograms(ctx, rec); len(names) > 0 {
		// `http_proxy=…` on its own line, then curl answers without the proxy
		unexportedFor(&f, names, at)
		f.Severity = ""
	}
	if reBadState.MatchString(output) {
		if why, fix := ss.processLogCause(ctx); why != "" {
			// supervisorctl's "Exited too quickly (process log may have details)"
			f.Problem += "; " + why
			f.Fix = fix
		}
	}
	if opt, other, helpLine := respelledOption(rec.Command, output); other != "" && helpText(output) {
		// the help it printed defines the option with `_` where the tutorial has `-`
		with := swapOption(strings.TrimSpace(rec.Command), opt, other)
		f.Problem += fmt.Sprintf("; it does not know `%s`, and its help defines `%s` (`%s`)", opt, other, loop.Clip(helpLine, 120))
		f.Fix = fmt.Sprintf("use `%s` instead of `%s` at line %d (`%s`)", other, opt, rec.Line, with)
		f.Edit = &loop.Edit{Replace: with}
		f.Category, f.Severity = "command failure", ""
	}
	if reHTTPSOnly.MatchString(output) {
		f.Fix = fmt.Sprintf("make the server speak plain HTTP on that port (a site address written with `http://`), or request `https://` at line %d", rec.Line)
	}
	if gone > 0 {
		if cmd, opt, ln := ss.deletingOption(ctx, gone); opt != "" {
			// rclone sync leaves excluded files on the destination without --delete-excluded
			f.Problem += fmt.Sprintf("; `%s` (line %d) does not delete it as run: its help offers `%s`", firstLine(cmd), ln, opt)
			f.Fix = fmt.Sprintf("add `%s` to the command at line %d (or stop saying at line %d that the file is removed)", opt, ln, gone)
		} else {
			f.Fix = fmt.Sprintf("make the step after line %d remove it (an option of the command, or an `rm`), or correct line %d and the output shown after line %d", gone, gone, rec.Line)
		}
	}
	if status := httpError(output); status != "" {
		if r, ok := ss.pageNotMade(rec.Command); ok {
			// the page the request asks for is what a failed step was to write
			ss.consequence(r, rec)
			return
		}
		f.Category, f.Severity = "command failure", ""
		if why, fix := ss.httpErrorCause(ctx, rec.Command, status); why != "" {
			f.Problem += "; " + why
			f.Fix = fix
		}
	}
	if fix := knownErrorFix(ctx, ss, output); fix != "" {
		// the error page of a framework whose cause is known
		f.Fix = fix
	}
	sv, name := ss.serverRefuses(logged)
	if sv != nil {
		// socat's `E unknown device/address "SHELL"` for `… SHELL:'tr a-z A-Z'`: what
		// its own command line asks for is wrong
		f.Category, f.Severity = "command failure", ""
		f.Fix = fmt.Sprintf("correct `%s` in the command at line %d", name, sv.line)
		if alt, helpLine := ss.helpAlternative(ctx, firstWord(sv.command), name); alt != "" {
			with := strings.Replace(strings.TrimSpace(sv.command), name, alt, 1)
			f.Problem += fmt.Sprintf("; `%s` knows no `%s`: its help offers `%s`", firstWord(sv.command), name, helpLine)
			f.Fix = fmt.Sprintf("use `%s` instead of `%s` at line %d (`%s`)", alt, name, sv.line, with)
		}
	}
	// a later request that finds nothing listening goes back to the state this shows
	ss.lastRoot = ss.addFinding(rec, f, output)
	ss.noteLost(lost, ss.lastRoot)
	if prog != "" {
		ss.noSymbols[ss.abs(prog)] = ss.lastRoot
	}
	if sv != nil {
		ss.moveTo(ss.lastRoot, sv.line, "the server started at line %d logs the error, about its own command line")
		if host != "" {
			ss.hostRoots[host] = ss.lastRoot
		}
	}
	if dir := listedDir(rec.Command); dir != "" {
		// `pdfinfo pages/page-3.pdf` after `ls pages` showed no page-3.pdf: the same gap
		for _, name := range unlisted(rec.Command, shown, output) {
			ss.taintPaths[ss.abs(path.Join(dir, name))] = ss.lastRoot
		}
	}
	if host != "" && reHTTPSOnly.MatchString(output) {
		// a server that speaks another protocol on that port: its every answer follows
		// (a 403 for one URL says nothing of the next)
		ss.hostRoots[host] = ss.lastRoot
	}
}

// serverRefuses: the error a server logged quotes a word of its own command line
// (socat's `E unknown device/address "SHELL"` for `… SHELL:'tr a-z A-Z'`): that server
// and the word (nil when not so).
func (ss *session) serverRefuses(logged string) (*server, string) {
	for _, l := range strings.Split(logged, "\n") {
		m := reServerLogged.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		at, _ := strconv.Atoi(m[1])
		for i := range ss.servers {
			sv := &ss.servers[i]
			if sv.line != at {
				continue
			}
			for _, q := range reQuotedWord.FindAllStringSubmatch(m[2], -1) {
				if regexp.MustCompile(`(?:^|[\s'"])` + regexp.QuoteMeta(q[1]) + `(?:[:=,\s'"]|$)`).MatchString(sv.command) {
					return sv, q[1]
				}
			}
		}
	}
	return nil, ""
}

var (
	// reServerLogged: a line serverErrors marked as a server's
	reServerLogged = regexp.MustCompile(`^\[server at line (\d+)\] (.*)$`)
	// reQuotedWord: a word an error quotes
	reQuotedWord = regexp.MustCompile(`["'‘“]([A-Za-z][\w-]{1,30})["'’”]`)
)

// helpAlternative: the one entry of prog's help whose line speaks of word without being
// it (socat 1.7.4's `system:<shell-command>` for SHELL), as word is spelt (SYSTEM), and
// that help line; "" when no single entry does.
func (ss *session) helpAlternative(ctx context.Context, prog, word string) (string, string) {
	if !reDebianName.MatchString(path.Base(prog)) || ss.task.Sandbox == nil {
		return "", ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && " + shellQuote(prog) + " -h 2>&1 | head -n 400", Timeout: 10 * time.Second, User: ss.user})
	if err != nil {
		return "", ""
	}
	lower := strings.ToLower(word)
	alt, line := "", ""
	for _, l := range strings.Split(r.Stdout, "\n") {
		t := strings.TrimSpace(l)
		if !strings.Contains(strings.ToLower(t), lower) {
			continue
		}
		m := reHelpEntry.FindStringSubmatch(t)
		if m == nil || strings.EqualFold(m[1], word) {
			continue
		}
		if alt != "" && !strings.EqualFold(alt, m[1]) {
			return "", "" // several
		}
		alt, line = m[1], strings.Fields(t)[0]
	}
	if alt != "" && word == strings.ToUpper(word) {
		alt = strings.ToUpper(alt)
	}
	return alt, line
}

// reHelpEntry: the name a help line opens with (`system:<shell-command>`, `--output`).
var reHelpEntry = regexp.MustCompile(`^(-{0,2}[A-Za-z][\w-]*)[:\s=<\[,]`)

// servesFailedConfig: cmd asks a server on this machine, and that server was started
// (by a step that worked) on a file that an earlier failed step checked or needed
// (`named-checkconf -z named.conf` failed, then `named -c ~/lab/named.conf` started): what
// it answers follows from that failure. The root of the failed step, when there is one.
func (ss *session) servesFailedConfig(cmd string) (int, bool) {
	if !reLocalURL.MatchString(cmd) && !strings.Contains(cmd, "@127.0.0.1") && !strings.Contains(cmd, "@localhost") {
		return 0, false
	}
	for r := len(ss.roots) - 1; r >= 0; r-- {
		rt := ss.roots[r]
		if rt.finding < 0 {
			continue
		}
		failed := ss.res.Findings[rt.finding].Command
		for _, c := range ss.res.Commands {
			if c.Line <= rt.line || c.ExitCode != 0 || firstWord(c.Command) == firstWord(failed) || firstWord(c.Command) == firstWord(cmd) {
				continue
			}
			for _, f := range strings.Fields(failed) {
				if b := path.Base(strings.Trim(f, `"'`)); strings.Contains(b, ".") && !strings.HasPrefix(f, "-") && sharesFile(c.Command, b) {
					return r, true
				}
			}
		}
	}
	return 0, false
}

// sharesFile: an argument of cmd is a file named base (in whatever directory).
func sharesFile(cmd, base string) bool {
	for _, f := range strings.Fields(cmd) {
		if path.Base(strings.Trim(f, `"'`)) == base {
			return true
		}
	}
	return false
}

// reHostPort: the host and port a URL names.
var reHostPort = regexp.MustCompile(`https?://[^/\s"']+`)

// httpError is the error status of an HTTP answer a request printed ("403 Forbidden"),
// "" when it printed none.
func httpError(output string) string {
	for _, re := range []*regexp.Regexp{reHTTPStatus, reHTMLStatus, rePyHTTPError} {
		if m := re.FindStringSubmatch(output); m != nil && m[1] >= "400" {
			return m[1] + " " + strings.TrimSpace(m[2])
		}
	}
	return ""
}

var (
	reHTTPStatus = regexp.MustCompile(`(?m)^HTTP/[\d.]+ ([1-5]\d\d) ?(.*)$`)
	reHTMLStatus = regexp.MustCompile(`<title>\s*([45]\d\d) ([^<]+)</title>`)
	// Python's http.server: "<p>Error code: 404</p>\n<p>Message: File not found.</p>"
	rePyHTTPError = regexp.MustCompile(`Error code: ([45]\d\d)</p>\s*<p>Message: ([^<.]+)`)
	reShebang     = regexp.MustCompile(`^#!\s*(\S+)(?:\s+(\S+))?`)
	reURLPath     = regexp.MustCompile(`https?://[^/\s"']+(/[^?#\s"']*)`)
)

// reHTMLPage: a whole HTML document; reHTMLTitle, its title.
var (
	reHTMLPage  = regexp.MustCompile(`(?i)<!DOCTYPE html|<html[\s>]`)
	reHTMLTitle = regexp.MustCompile(`(?is)<title>([^<]{1,80})</title>`)
)

// pageNotMade is the root of a failed step that was to write the page a request asks for
// (its file name, or index.html for a folder's URL).
func (ss *session) pageNotMade(cmd string) (int, bool) {
	m := reURLPath.FindStringSubmatch(cmd)
	if m == nil {
		return 0, false
	}
	names := []string{path.Base(m[1])}
	if strings.HasSuffix(m[1], "/") {
		names = []string{"index.html", "index.htm", "index.php"}
	}
	for p, r := range ss.taintPaths {
		if slices.Contains(names, path.Base(p)) {
			return r, true
		}
	}
	return 0, false
}

// indexDirective: how a web server's own configuration names the file it serves for a
// folder's URL (without it, a request for "/" is refused: 403 Forbidden).
var indexDirective = map[string]string{"lighttpd": "index-file.names", "nginx": "index", "apache2": "DirectoryIndex", "httpd": "DirectoryIndex"}

// httpErrorCause explains an HTTP error a request to a server the tutorial started got:
// a script it wrote whose interpreter (its #! line) is missing, or a folder's URL that the
// server's configuration gives no index file for.
func (ss *session) httpErrorCause(ctx context.Context, cmd, status string) (string, string) {
	m := reURLPath.FindStringSubmatch(cmd)
	if m == nil {
		return "", ""
	}
	urlPath := m[1]
	if strings.HasPrefix(status, "5") {
		for _, p := range slices.Sorted(maps.Keys(ss.written)) {
			if path.Base(p) != path.Base(urlPath) {
				continue
			}
			sb := reShebang.FindStringSubmatch(ss.written[p])
			if sb == nil {
				continue
			}
			interp := sb[1]
			if path.Base(interp) == "env" && sb[2] != "" {
				interp = sb[2]
			}
			if ss.task.Sandbox == nil {
				continue
			}
			r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "command -v " + shellQuote(interp) + " >/dev/null", Timeout: 10 * time.Second, User: ss.user})
			if err != nil || r.ExitCode == 0 {
				continue
			}
			alt := ""
			if t := toolOf(path.Base(interp)); t.Debian != "" {
				alt = " (" + t.Debian + ")"
			}
			if path.Base(interp) == "python" {
				alt = " (Debian's is `python3`)"
			}
			return fmt.Sprintf("`%s`, which the server runs, starts with `%s`, and `%s` is not installed here%s", path.Base(p), strings.TrimSpace(sb[0]), path.Base(interp), alt),
				fmt.Sprintf("make the first line of `%s` name an interpreter the reader has (`#!/usr/bin/env python3` for Python), or install `%s`", path.Base(p), path.Base(interp))
		}
	}
	if strings.HasPrefix(status, "502") || strings.HasPrefix(status, "503") || strings.HasPrefix(status, "504") {
		if file, port, listening := ss.deadBackend(ctx, cmd); file != "" {
			// a proxy whose configuration sends requests where nothing listens
			why := fmt.Sprintf("the proxy could not reach its backend: `%s` sends requests to port %s, where nothing listens", path.Base(file), port)
			if len(listening) > 0 {
				why += fmt.Sprintf("; the servers started here listen on %s", quoteList(listening))
			}
			return why, fmt.Sprintf("make the backend port in `%s` the one the backend server listens on (or start the backend on port %s), then restart the proxy", path.Base(file), port)
		}
	}
	if strings.HasPrefix(status, "403") && strings.HasSuffix(urlPath, "/") {
		for _, srv := range ss.servers {
			if !srv.running() {
				continue
			}
			if d, ok := indexDirective[path.Base(firstWord(srv.command))]; ok {
				return fmt.Sprintf("the folder's URL is refused: the server's configuration (line %d starts it) names no index file, so it does not serve `index.html` for `%s`", srv.line, urlPath),
					fmt.Sprintf("add `%s` naming `index.html` to the server's configuration, or request the file itself (`%sindex.html`)", d, urlPath)
			}
		}
	}
	return "", ""
}

// reGlobbedURL: a URL curl reads as a pattern: braces or brackets in it (`?q=up{job="x"}`),
// with the option that turns that off not given.
var reGlobbedURL = regexp.MustCompile(`(?:^|[\s|;&(])curl\s[^|;&]*?(https?://[^\s'"]*[{}\[\]][^\s'"]*|['"]https?://[^'"]*[{}\[\]][^'"]*['"])`)

// reIPv6Host: an IPv6 address as a URL's host (`http://[::1]:8080/`), which curl takes as
// it is.
var reIPv6Host = regexp.MustCompile(`//\[[0-9a-fA-F:.]+\]`)

// reGlobOff: curl told to take the URL as it is.
var reGlobOff = regexp.MustCompile(`\s(?:-g|--globoff)\b`)

// curlGlob explains a curl request whose URL holds `{…}` or `[…]`: curl expands them as a
// pattern (a list or a range) and requests something else ("" when that is not so).
func curlGlob(cmd string, line int) (string, string) {
	m := reGlobbedURL.FindStringSubmatch(reIPv6Host.ReplaceAllString(cmd, "//host"))
	if m == nil || reGlobOff.MatchString(cmd) {
		return "", ""
	}
	return fmt.Sprintf("curl reads `{…}` and `[…]` in a URL as a glob pattern, so `%s` is not the URL it requests", loop.Clip(strings.Trim(m[1], `'"`), 80)),
		fmt.Sprintf("add `-g` (`--globoff`) to the curl command at line %d, or let curl encode the query (`-G --data-urlencode`)", line)
}

// reBackendPort: a backend's address in a proxy's configuration (Varnish's `.port =
// "8080";`, nginx's `proxy_pass http://127.0.0.1:8080;`, Caddy's `reverse_proxy
// localhost:8080`, HAProxy's `server web1 127.0.0.1:8080`).
var reBackendPort = regexp.MustCompile(`(?m)\.port\s*=\s*"?(\d{2,5})"?|(?:proxy_pass|reverse_proxy|ProxyPass\s+\S+|server\s+[\w.-]+|upstream)\s+(?:https?://)?` + localHost + `?:(\d{2,5})\b`)

// deadBackend: a configuration file the tutorial wrote names a backend port that no
// process in the container listens on, while the request's own port is served (the proxy
// answers): the file, that port, and the ports that do listen (the request's left out).
func (ss *session) deadBackend(ctx context.Context, cmd string) (file, port string, listening []string) {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cat /proc/net/tcp /proc/net/tcp6 2>/dev/null", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", "", nil
	}
	listen := map[string]bool{}
	for _, l := range strings.Split(r.Stdout, "\n") {
		f := strings.Fields(l)
		if len(f) < 4 || f[3] != "0A" { // LISTEN
			continue
		}
		if i := strings.LastIndexByte(f[1], ':'); i >= 0 {
			if n, err := strconv.ParseUint(f[1][i+1:], 16, 16); err == nil {
				listen[strconv.FormatUint(n, 10)] = true
			}
		}
	}
	asked := ""
	if m := rePort.FindStringSubmatch(cmd); m != nil {
		asked = m[1]
	}
	for _, p := range slices.Sorted(maps.Keys(listen)) {
		if p != asked {
			listening = append(listening, p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(ss.written)) {
		for _, m := range reBackendPort.FindAllStringSubmatch(ss.written[p], -1) {
			if bp := m[1] + m[2]; bp != asked && !listen[bp] {
				return p, bp, listening
			}
		}
	}
	return "", "", nil
}

// reDiffers: what differs between two runs of one error (paths, line numbers, spacing).
var reDiffers = regexp.MustCompile(`(?:/[\w.+@-]+)+|\d+`)

// rootWithError is the root finding whose error the server logged (a PDO driver that
// the tutorial's own script found missing), by its key line with paths and numbers left
// out.
func (ss *session) rootWithError(logged string) (int, bool) {
	norm := func(s string) string { return strings.Join(strings.Fields(reDiffers.ReplaceAllString(s, "#")), " ") }
	text := norm(logged)
	for i, r := range ss.roots {
		if r.finding < 0 {
			continue
		}
		f := ss.res.Findings[r.finding]
		if k := norm(keyLine(f.Output)); len(k) >= 12 && strings.Contains(text, k) {
			return i, true
		}
	}
	return 0, false
}

// reSessionOutput: output that opens with an interactive program's own prompt.
var reSessionOutput = regexp.MustCompile(`^[\w.-]+> \S`)

// ownPrompt: a line of shown output starts with the program's own prompt, after a banner
// ("Mono C# Shell, …", then "csharp> 6 * 7"): a session typed into it.
func ownPrompt(shown, cmd string) bool {
	prog := path.Base(firstWord(cmd))
	if len(prog) < 2 {
		return false
	}
	for _, l := range strings.Split(shown, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prog+"> ") {
			return true
		}
	}
	return false
}

// reDate: a date or a time of day in output, which differs from run to run (2026-03-09,
// 21:47, anacron's 20260309).
var reDate = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}(?::\d{2})?\b|\b(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\b`)

// quotedOnly: every line the command printed is a line the tutorial shows, in quotes
// (JSON strings where the tutorial shows bare words).
func quotedOnly(shown, got string) string {
	s := strings.Split(strings.TrimSpace(shown), "\n")
	g := strings.Split(strings.TrimSpace(got), "\n")
	if len(s) != len(g) {
		return ""
	}
	for i := range s {
		a, b := strings.TrimSpace(s[i]), strings.TrimSpace(g[i])
		if a == b || b != `"`+a+`"` {
			return ""
		}
	}
	return fmt.Sprintf("the tutorial shows %s, but the command prints the values in quotes (%s)", quoteShort(shown), quoteShort(got))
}

// hintFor is a tool's own way to print what the tutorial shows.
func hintFor(cmd string) string {
	if firstWord(cmd) == "jq" {
		return "; jq prints raw strings only with -r"
	}
	return ""
}

// reHomeDir: a home directory in shown output or a file (/home/alice, /Users/bob, /root).
var reHomeDir = regexp.MustCompile(`(?:/home|/Users)/[\w.-]+|/root\b`)

// sameHome writes every home directory as ~, so output shown for /home/alice compares
// with output for the learner's home.
func sameHome(s string) string { return reHomeDir.ReplaceAllString(s, "~") }

// serverLines are the lines of output that serverErrors added.
func serverLines(output string) string {
	var out []string
	for _, l := range strings.Split(output, "\n") {
		if strings.HasPrefix(l, "[server at line ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// reMissingLine: an output line saying a file is not there.
var reMissingLine = regexp.MustCompile(`(?i)not found|no such file`)

// missedWritten: a line of output says a file is not found whose name is the start of a
// file the tutorial wrote in the session's folder (`.env` for `.env.local`), and there is
// no such file: that line, the written file and the line that wrote it.
func (ss *session) missedWritten(output string) (string, string, int) {
	for _, l := range strings.Split(output, "\n") {
		if !reMissingLine.MatchString(l) {
			continue
		}
		for _, tok := range strings.Fields(l) {
			tok = strings.Trim(tok, "'\"‘’“”:,()")
			base := path.Base(tok)
			if len(base) < 3 || !looksLikePath(base) && !strings.HasPrefix(base, ".") {
				continue
			}
			for _, st := range ss.steps {
				w := path.Base(st.file)
				if st.kind != fileStep || w == base || !strings.HasPrefix(w, base+".") && !strings.HasPrefix(w, base+"-") {
					continue
				}
				if _, ok := ss.written[path.Join(ss.cwd, base)]; ok || path.Dir(ss.abs(joinDir(st.dir, st.file))) != ss.cwd {
					continue
				}
				return strings.TrimSpace(l), joinDir(st.dir, st.file), st.line
			}
		}
	}
	return "", "", 0
}

// reNoItem: prose naming, in code, what a listing does not have ("No `debug.log`").
var reNoItem = regexp.MustCompile("(?i)(?:^|[,;:]\\s*|\\.\\s+)no `([^`\\s]+)`")

// saidAbsent: the paragraph right after the command's block says, item by item, what
// the listing leaves out ("No `build/bundle.js`, no `node_modules/`, …"), and the command
// printed some of them where the shown output does not: those names (in code), the
// paragraph's line and its text.
func (ss *session) saidAbsent(st step, shown, got string) ([]string, int, string) {
	t := ss.task.Tutorial
	if shown == "" || got == "" || t == nil || st.block.EndLine <= 0 {
		return nil, 0, ""
	}
	para := proseAfter(t, st.block.EndLine)
	var names []string
	for _, m := range reNoItem.FindAllStringSubmatch(para, -1) {
		name := strings.TrimSuffix(m[1], "/")
		if strings.Contains(got, name) && !strings.Contains(shown, name) {
			names = append(names, "`"+m[1]+"`")
		}
	}
	if len(names) == 0 {
		return nil, 0, ""
	}
	at := st.block.EndLine + 1
	for at < t.Map.LineCount() && strings.TrimSpace(t.Map.Line(at)) == "" {
		at++
	}
	return names, at, para
}

// reGoneWord: prose saying a step removes something ("so that `old.tmp` is removed from
// the mirror", "`draft.md` is deleted").
var reGoneWord = regexp.MustCompile(`(?i)\b(?:removed?|deleted?|gone|excluded|no longer (?:there|listed|present))\b`)

// claimedGone is a file the section's prose before line says a step removes, which the
// command's real output still lists while the output the tutorial shows does not ("",
// 0 when none); at is the prose line.
func (ss *session) claimedGone(line int, shown, got string) (string, int) {
	if shown == "" || got == "" {
		return "", 0
	}
	m := ss.task.Tutorial.Map
	listed := func(text, name string) bool {
		for _, f := range strings.Fields(text) {
			if path.Base(strings.TrimSuffix(f, "/")) == name {
				return true
			}
		}
		return false
	}
	for n := line - 1; n >= 1 && n >= line-30; n-- {
		b, ok := m.BlockAt(n)
		if ok && b.Kind == tutorial.KindHeading {
			break
		}
		if !ok || b.Kind != tutorial.KindParagraph && b.Kind != tutorial.KindListItem {
			continue // prose only, not a block's code
		}
		text := m.Line(n)
		if !reGoneWord.MatchString(text) {
			continue
		}
		for _, sent := range sentences(text) {
			if !reGoneWord.MatchString(sent) {
				continue
			}
			for _, c := range reCodeSpan.FindAllStringSubmatch(sent, -1) {
				name := path.Base(c[1])
				if reFileName.MatchString(name) && listed(got, name) && !listed(shown, name) {
					return name, n
				}
			}
		}
	}
	return "", 0
}

// reSubcommand: a word after a program that names one of its commands (`rclone sync`).
var reSubcommand = regexp.MustCompile(`^[a-z][a-z-]*$`)

// reDeleteOption: an option in a program's help that deletes or removes things.
var reDeleteOption = regexp.MustCompile(`(?m)(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:delete|remove|prune|purge)[a-z0-9-]*|--(?:delete|remove|prune|purge)[a-z0-9-]*)`)

// deletingOption is an option of the command the prose at line at introduces (the first
// one run after it) that its help says deletes things and the command does not use:
// preferably one that names what the prose says is gone ("excluded").
func (ss *session) deletingOption(ctx context.Context, at int) (cmd, opt string, line int) {
	for _, s := range ss.steps {
		if s.kind != runStep || s.line <= at || s.command == nil {
			continue
		}
		cmd = strings.TrimSpace(s.command.Text)
		f := strings.Fields(cmd)
		if len(f) == 0 || strings.Contains(cmd, "\n") {
			return "", "", 0
		}
		help, ok := ss.programHelp(ctx, f)
		if !ok {
			return "", "", 0
		}
		words := strings.ToLower(ss.task.Tutorial.Map.Line(at))
		for _, o := range reDeleteOption.FindAllString(help, -1) {
			if strings.Contains(cmd, o) {
				continue
			}
			if opt == "" {
				opt = o
			}
			for _, w := range strings.Split(strings.TrimPrefix(o, "--"), "-") {
				if len(w) > 4 && !reDeleteOption.MatchString("--"+w) && strings.Contains(words, w[:len(w)-1]) {
					return cmd, o, s.line // --delete-excluded where the prose says "excluded"
				}
			}
		}
		return cmd, opt, s.line
	}
	return "", "", 0
}

// States a status command prints: a service or program that works, and one that does
// not (supervisorctl, systemctl, docker ps, test runners).
var (
	reGoodState = regexp.MustCompile(`\b(?:RUNNING|active \(running\)|PASS(?:ED)?|healthy|Up \d)`)
	// reBadStateLoud: the states of reBadState a program prints in capitals
	reBadStateLoud = regexp.MustCompile(`\b(?:FATAL|BACKOFF|EXITED|STOPPED|FAILED|FAIL|ERROR)\b`)
	// reStatusLine: a line that gives a command's exit status (`echo "exit status: $?"`)
	reStatusLine = regexp.MustCompile(`(?im)^.*\bexit(?:ed)? (?:status|code)\W{0,3}(\d+)\W*$`)
	reBadState   = regexp.MustCompile(`\b(?:FATAL|BACKOFF|EXITED|STOPPED|FAILED|FAIL|ERROR|failed|inactive \(dead\)|unhealthy|Exited \(\d+\))`)
)

// keyLineOf is the line of text holding word.
func keyLineOf(text, word string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word) {
			return strings.TrimSpace(l)
		}
	}
	return word
}

// reDropPrivilege: a daemon run by an ordinary user that was told to switch users.
var reDropPrivilege = regexp.MustCompile(`(?i)setuid|setgid|drop privilege|change (?:to )?user|switch(?:ing)? users?|initgroups`)

// reUserSetting: a configuration line naming the user a program runs as.
var reUserSetting = regexp.MustCompile(`(?m)^\s*(user\s*[=:]?\s*[\w.-]+)\s*;?\s*$`)

// processLogCause is the error line in the logs written in the session's folder in the
// last minutes, and for a daemon that could not switch users, the setting in a file the
// tutorial wrote that asks it to ("" when nothing is found).
func (ss *session) processLogCause(ctx context.Context) (string, string) {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && find . -maxdepth 3 -name '*.log' -mmin -10 -size +0 2>/dev/null | head -n 5 | xargs -r tail -q -n 5", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", ""
	}
	line := ""
	for _, l := range strings.Split(r.Stdout, "\n") {
		if t := strings.TrimSpace(l); t != "" && (reErrorLine.MatchString(t) || reDropPrivilege.MatchString(t)) {
			line = t
		}
	}
	if line == "" {
		return "", ""
	}
	why := "its log says: " + loop.Clip(line, 160)
	if !reDropPrivilege.MatchString(line) {
		return why, ""
	}
	for _, p := range slices.Sorted(maps.Keys(ss.written)) {
		if m := reUserSetting.FindStringSubmatch(ss.written[p]); m != nil {
			return why + fmt.Sprintf("; `%s` asks it to switch users, which only root can do", strings.TrimSpace(m[1])),
				fmt.Sprintf("remove `%s` from `%s` (the program then runs as the reader), or start it as root", strings.TrimSpace(m[1]), path.Base(p))
		}
	}
	return why, ""
}

// reHTTPClient: a command that fetches a URL and prints the body.
var reHTTPClient = regexp.MustCompile(`^(?:curl|wget -qO-|wget -O-|http|https)\s.*(?:https?://|[\s'"]` + localHost + `:\d+)`)

// reHTTPSOnly: a TLS server's answer to a plain-HTTP request (Caddy, Go's net/http, nginx).
var reHTTPSOnly = regexp.MustCompile(`(?i)client sent an http request to an https server|plain http request was sent to https port`)

// reWordish: words a reader would recognise in a page or a message.
var reWordish = regexp.MustCompile(`[A-Za-z]{4,}`)

// reIfYouSee: prose telling what it means when the reader sees a quoted text.
var reIfYouSee = regexp.MustCompile("(?i)\\bif you (?:see|get)\\s+`([^`]{3,80})`")

// warnedSign: the prose right after the command's block, or after the output it shows,
// says what it means to see a text ("If you see `[Malformed Packet]` on a line, …"), and
// the command printed that text where the output shown has none: the text, the line of
// the sentence and the sentence.
func (ss *session) warnedSign(st step, shown, output string) (string, int, string) {
	if ss.task.Tutorial == nil || st.block.EndLine <= 0 {
		return "", 0, ""
	}
	end := st.block.EndLine
	if st.expected != "" {
		end = fenceAfter(ss.task.Tutorial, end)
	}
	for _, sentence := range sentences(proseAfter(ss.task.Tutorial, end)) {
		if m := reIfYouSee.FindStringSubmatch(sentence); m != nil && strings.Contains(output, m[1]) && !strings.Contains(shown, m[1]) {
			at := end + 1
			for at <= ss.task.Tutorial.Map.LineCount() && !strings.Contains(ss.task.Tutorial.Map.Line(at), m[1]) {
				at++
			}
			return m[1], at, sentence
		}
	}
	return "", 0, ""
}

// madeFrom: the files the tutorial wrote that the files cmd names were made from, each
// with the line of its block: the first earlier command that named such a file made it,
// from the other files it names, and so on, three commands back at most.
func (ss *session) madeFrom(cmd string, line int) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(cmd string, line, depth int)
	walk = func(cmd string, line, depth int) {
		for _, w := range strings.Fields(cmd)[min(1, len(strings.Fields(cmd))):] {
			w = strings.Trim(w, `"'`)
			if strings.HasPrefix(w, "-") || !looksLikePath(w) || seen[ss.abs(w)] {
				continue
			}
			seen[ss.abs(w)] = true
			if segs := ss.segments[ss.abs(w)]; len(segs) > 0 {
				out = append(out, fmt.Sprintf("`%s` (line %d)", w, segs[0].block.StartLine))
				continue
			}
			if depth == 3 {
				continue
			}
			for _, c := range ss.res.Commands {
				if c.Line >= line || c.ExitCode != 0 || !slices.Contains(strings.Fields(c.Command), w) {
					continue
				}
				walk(c.Command, c.Line, depth+1) // the first that named it
				break
			}
		}
	}
	walk(cmd, line, 0)
	return out
}

// errorsOnly: every line of text that says something is an error.
func errorsOnly(text string) bool {
	return everyLineMatches(text, reErrorLine)
}

// nothingShared: the shown text has a word, and none of its words is in got.
// reOrEcho: a command whose failure is to print a message (`tftp … || echo "missing"`).
var reOrEcho = regexp.MustCompile(`^([^|&;\n]+?)\s*\|\|\s*echo\s+["']([^"'\n]+)["']\s*$`)

func nothingShared(shown, got string) bool {
	words := reWordish.FindAllString(shown, -1)
	if len(words) == 0 {
		return false
	}
	lower := strings.ToLower(got)
	for _, w := range words {
		if strings.Contains(lower, strings.ToLower(w)) {
			return false
		}
	}
	return true
}

// scriptRunners run the script named after them (`python3 app.py`, `fish tally.fish`).
var scriptRunners = map[string]bool{"sh": true, "bash": true, "zsh": true, "fish": true, "python": true, "python3": true, "perl": true, "ruby": true, "node": true, "lua": true, "lua5.4": true, "tclsh": true, "php": true, "Rscript": true, "guile": true, "racket": true}

// codeExts: what a program the tutorial writes is named with (nothing, or its language).
var codeExts = map[string]bool{"": true, ".sh": true, ".bash": true, ".zsh": true, ".fish": true, ".py": true, ".pl": true, ".rb": true, ".js": true, ".mjs": true, ".lua": true, ".tcl": true, ".php": true, ".R": true, ".awk": true, ".scm": true, ".rkt": true}

// ownProgram: the command runs a program the tutorial wrote (`./tally.fish`, `python3
// app.py`, or `greet` after ~/.config/fish/functions/greet.fish): what it prints comes
// from the tutorial's own code, the same on every machine.
func (ss *session) ownProgram(cmd string) bool {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return false
	}
	run := f[0]
	if scriptRunners[run] && len(f) > 1 {
		run = f[1]
	}
	name := strings.TrimSuffix(path.Base(run), path.Ext(run))
	for _, w := range ss.res.Files {
		base := path.Base(w.Path)
		if ext := path.Ext(base); codeExts[ext] && strings.TrimSuffix(base, ext) == name && name != "" {
			return true
		}
	}
	return false
}

// otherLines: a short output the tutorial shows of which the run printed no line (their
// spaces evened out, the home folder aside), "" otherwise.
func otherLines(cmd, shown, got string) string {
	shown, got = strings.TrimSpace(shown), strings.TrimSpace(got)
	lines := strings.Split(shown, "\n")
	if shown == "" || got == "" || len(lines) > 6 || strings.Contains(shown, "...") || strings.Contains(shown, "…") || strings.Contains(shown, "<") ||
		reDate.MatchString(shown) || reVersionish.MatchString(shown) {
		return "" // (dates and versions differ from machine to machine)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(sameHome(got), "\n") {
		have[strings.Join(strings.Fields(l), " ")] = true
	}
	for _, l := range lines {
		if have[strings.Join(strings.Fields(sameHome(l)), " ")] {
			return ""
		}
	}
	return fmt.Sprintf("the tutorial shows `%s` printing %s, but it printed %s", firstLine(cmd), quoteShort(shown), quoteShort(got))
}

// reJobNotice: what an interactive shell prints for a job started with `&`.
var reJobNotice = regexp.MustCompile(`^\[\d+\]\s+\d+$`)

// reErrorBody: an API's error answer (FastAPI's `{"detail":[{"loc":…,"msg":"value is not
// a valid dict"…}]}`, `{"error": "…"}`); reContentType and reJSONData: a curl request's
// Content-Type header and a JSON body sent with -d.
var (
	reErrorBody   = regexp.MustCompile(`(?i)^\s*\{\s*"(?:detail|error|errors)"\s*:`)
	reContentType = regexp.MustCompile(`(?i)content-type|--json\b`)
	reJSONData    = regexp.MustCompile(`(?:-d|--data(?:-raw|-binary)?)\s+'\s*[\[{]`)
)

// refusedRequestBefore: the command right before rec, in the same block, is a request
// that changes something (POST, PUT, PATCH, or data sent) and was answered with an error
// body, exit 0: a later wrong answer follows from it.
func (ss *session) refusedRequestBefore(rec loop.CommandRecord) *loop.CommandRecord {
	prev := ss.recordBefore()
	if prev == nil || !reHTTPClient.MatchString(rec.Command) {
		return nil
	}
	if prev.ExitCode != 0 || !reHTTPClient.MatchString(prev.Command) || !reChangesState.MatchString(prev.Command) || rec.Line-prev.Line > 3 {
		return nil
	}
	if !reErrorBody.MatchString(prev.Output) {
		return nil
	}
	return prev
}

// reChangesState: a request that sends data or changes something on the server.
var reChangesState = regexp.MustCompile(`(?:-X\s*(?:POST|PUT|PATCH|DELETE)\b|\s(?:-d|--data\S*|--json|-F|--form)\s)`)
