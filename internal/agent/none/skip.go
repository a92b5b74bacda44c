package none

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Which blocks a newcomer on Debian leaves alone when reading (another system, an
// alternative, an example), and why (part of read.go's reading).

// reParenthetical: an aside in parentheses within a sentence.
var reParenthetical = regexp.MustCompile(`\s*\([^()]*\)`)

var reAppendVerb = regexp.MustCompile(`(?i)\b(paste|add|insert|append|beneath|below|above|after|replace|update|change)\b`)

// plainLangs: info strings of blocks that show text (output) rather than code.
var plainLangs = map[string]bool{"": true, "text": true, "txt": true, "plaintext": true, "output": true, "plain": true, "log": true}

// noLanguage are info strings that name no language, read like an untagged block:
// Confluence's export of its code macro, highlight.js's and Pygments' "no highlighting"
// classes, and the DocBook elements pandoc keeps as a fence's class (```` ``` screen ````
// for <screen>, a terminal session or its output; <programlisting>, <literallayout>).
var noLanguage = map[string]bool{"syntaxhighlighter-pre": true, "none": true, "nohighlight": true, "no-highlight": true, "code": true, "pre": true, "default": true, "sourcecode": true, "generic": true,
	"screen": true, "programlisting": true, "literallayout": true}

func init() {
	for l := range noLanguage {
		plainLangs[l] = true
	}
}

// reCrontabEdit: the block is a line for the reader's crontab, edited interactively.
var reCrontabEdit = regexp.MustCompile(`(?i)crontab -e\b|\b(?:to|in|into) (?:your|the) crontab\b`)

// reNewerInstead: another way to install, for a newer release than the distribution's
// ("To get the latest release on Linux, macOS or BSD use the install script instead:").
var reNewerInstead = regexp.MustCompile(`(?i)\b(?:latest|newest|most recent|newer|up-to-date)\b[^.]*\binstead\b|\binstead\b[^.]*\b(?:latest|newest|most recent|newer)\b (?:release|version|build)`)

// reNoOutput: prose saying a command prints nothing when it works ("no output means it
// is valid", "It prints nothing, because the check succeeds:").
var reNoOutput = regexp.MustCompile(`(?i)\b(?:(?:no|without any|without) output|(?:prints|shows|outputs|says|displays) nothing)\b[^.;]*`)

// reOwnSetup: a step for readers who have something a fresh machine does not ("If you
// have a printer configured, send the copy to it:").
var reOwnSetup = regexp.MustCompile(`(?i)^if you(?: have|'ve got|’ve got) (?:a|an|access to|your own)\b[^.]*:\s*$`)

// otherMachine: the machines of a lab, a course or a company, not the reader's own.
// reOtherMachine: a step for them ("On a lab machine, copy the starter files:");
// reOtherMachineHere, the same said at the end of the sentence that introduces the
// block ("Submit your answers from a lab machine:").
const otherMachine = `(?:a|the|any|one of the) (?:lab|school|university|campus|course|class|department|office|work|company|shared|cluster|login)(?: \w+)? (?:machines?|computers?|servers?|workstations?|hosts?|nodes?|pcs?)`

var (
	reOtherMachine     = regexp.MustCompile(`(?i)^\s*on ` + otherMachine + `\b`)
	reOtherMachineHere = regexp.MustCompile(`(?i)\s(?:on|from) ` + otherMachine + `:\s*$`)
)

// skipWhy says why a whole block is not followed ("" when it is).
func skipWhy(t *tutorial.Tutorial, sc *scopes, blocks []tutorial.CodeBlock, cb tutorial.CodeBlock, lead string, followed map[string]string) string {
	if windowsLangs[cb.Lang] {
		return "a " + cb.Lang + " block (Windows)"
	}
	if why := sc.skipByScope(cb.StartLine); why != "" && !neededFile(sc, blocks, cb, lead, why) {
		return why
	}
	if why := groupSkip(sc, blocks, cb); why != "" {
		return why
	}
	last := lastSentence(lead)
	if prev, ok := blockRightBefore(t, blocks, cb); ok && cb.Lang != "output" && reEitherOr.MatchString(leadText(t, prev)) && (strings.TrimSpace(lead) == "" || strings.TrimSpace(lead) == strings.TrimSpace(leadText(t, prev))) {
		return "an alternative to the block right above it (\"" + loop.Clip(lastSentence(lead), 80) + "\")"
	}
	if reDontRun.MatchString(lead) {
		return "the tutorial says not to run it"
	}
	if reCrontabEdit.MatchString(last) {
		return "a crontab entry, added with `crontab -e` (no cron daemon runs in the container)"
	}
	if m := reOSLead.FindStringSubmatch(last); m != nil && reOtherOS.MatchString(m[1]) && !reLinux.MatchString(m[1]) {
		return "for another system (\"" + strings.TrimSpace(last) + "\")"
	}
	if reOtherMachine.MatchString(firstSentence(lead)) || reOtherMachine.MatchString(last) || reOtherMachineHere.MatchString(last) {
		return "for readers on another machine (\"" + loop.Clip(last, 80) + "\")"
	}
	if reOwnSetup.MatchString(last) {
		return "optional: only for a reader with the setup it names (\"" + loop.Clip(last, 80) + "\")"
	}
	if reAltLead.MatchString(firstSentence(lead)) || reAltLead.MatchString(last) {
		if !reNotYet.MatchString(lead) {
			return "an alternative or example (\"" + loop.Clip(firstSentence(lead), 80) + "\")"
		}
	}
	if reNewerInstead.MatchString(last) {
		return "an alternative for a newer release than Debian's (\"" + loop.Clip(last, 80) + "\")"
	}
	if reExampleLead.MatchString(last) && !reRunLeadStrong.MatchString(last) && !reTheExample.MatchString(last) {
		return "an example (\"" + loop.Clip(last, 80) + "\")"
	}
	// an aside in parentheses ("(… wherever a file says `use quadrature`)") is not what
	// the sentence says of the block
	// nor are words in code ("write the summary into a `reports` folder:")
	// and "no output means it is valid" says the command prints nothing
	// and a purpose clause is not either ("sorted by path so that everyone's output looks
	// the same:")
	bare := reSoThat.ReplaceAllString(reNoOutput.ReplaceAllString(reCodeSpan.ReplaceAllString(reParenthetical.ReplaceAllString(last, ""), "code"), ""), "")
	if (cb.Shell || plainLangs[cb.Lang]) && (reOutputLead.MatchString(bare) || outputVerb(bare) && !promptLines(strings.Split(cb.Content, "\n"))) && !reRunLeadStrong.MatchString(last) && !(cb.Shell && reInlineOutput.MatchString(last)) && !reMakeClause.MatchString(last) && !explainsOptions(last, cb) && !runsSpan(last, cb) && !piped(cb) && !onlyInstalls(cb) && !(cb.Shell && (outputBelow(t, blocks, cb) || writesWithShell(cb))) {
		return "expected output (\"" + loop.Clip(last, 80) + "\")"
	}
	if why := alternativeSection(t, cb.StartLine, followed); why != "" {
		return why
	}
	return ""
}

// explainsOptions: the lead explains options the block's command has ("`-I proto` says
// where imports are found, `--python_out` where code goes:"), so the block is that
// command, not what it prints.
func explainsOptions(lead string, cb tutorial.CodeBlock) bool {
	// (an option in bold is named as one in code: "**-s** prints statistics")
	for _, m := range append(reCodeSpan.FindAllString(lead, -1), reBoldOption.FindAllString(lead, -1)...) {
		opt := strings.Fields(strings.Trim(m, "`*"))
		if len(opt) > 0 && strings.HasPrefix(opt[0], "-") && len(opt[0]) > 1 && slices.ContainsFunc(strings.Fields(cb.Content), func(w string) bool {
			return w == opt[0] || strings.HasPrefix(w, opt[0]+"=")
		}) {
			return true
		}
	}
	return false
}

// reBoldOption: an option written in bold, **-s** or **--stat**.
var reBoldOption = regexp.MustCompile(`\*\*--?[\w-]+\*\*`)

// outputVerb: the lead says what the command answers ("so Git stops and reports a
// conflict:"); the same words as nouns ("We give debconf the answers first:") do not.
func outputVerb(lead string) bool {
	m := reOutputVerb.FindStringIndex(lead)
	if m == nil {
		return false
	}
	before := strings.Fields(lead[:m[0]])
	return len(before) == 0 || !determiners[strings.ToLower(before[len(before)-1])]
}

// runsSpan: a line of the block runs a script the sentence quotes (`./build.sh`), or is
// a command the sentence quotes while another runs a well-known command ("`capnp id`
// prints a fresh random one each time, so yours will not match mine:" over `mkdir -p
// ~/demo && cd ~/demo` and `capnp id`): the block runs it, it does not show what it
// prints.
func runsSpan(sentence string, cb tutorial.CodeBlock) bool {
	lines := strings.Split(cb.Content, "\n")
	for _, q := range reCodeSpan.FindAllStringSubmatch(sentence, -1) {
		// "`build.sh` redoes steps 1 and 3 and prints the page count:" over `./build.sh`
		if looksLikePath(q[1]) && slices.ContainsFunc(lines, func(l string) bool { f := strings.Fields(l); return len(f) > 0 && f[0] == "./"+q[1] }) {
			return true
		}
	}
	known := slices.ContainsFunc(lines, func(l string) bool {
		return knownCommands[firstWord(strings.TrimSpace(l))] && len(strings.Fields(l)) > 1
	})
	if !known {
		return false
	}
	for _, q := range reCodeSpan.FindAllStringSubmatch(sentence, -1) {
		if strings.Contains(q[1], " ") && slices.ContainsFunc(lines, func(l string) bool { return strings.TrimSpace(l) == strings.TrimSpace(q[1]) }) {
			return true
		}
	}
	return false
}

// rePipedLine: a command line that feeds a file to a program or pipes into a well-known
// filter (`./logtime < events.log | wc -l`), which no program's output reads like.
var rePipedLine = regexp.MustCompile(`^(?:\./|~/|[a-z])[\w./+-]*(?:\s+[^|<>]*)?\s(?:<\s*[\w./~-]+|\|\s*(?:wc|grep|sort|head|tail|tee|xargs|cut|awk|sed|uniq|tr|jq)\b)`)

// piped: a line of a shell block pipes or redirects as a command does: the block is the
// command, whatever the sentence above says it prints.
func piped(cb tutorial.CodeBlock) bool {
	if !cb.Shell {
		return false
	}
	for _, l := range strings.Split(cb.Content, "\n") {
		if rePipedLine.MatchString(strings.TrimSpace(l)) {
			return true
		}
	}
	return false
}

var determiners = map[string]bool{"the": true, "its": true, "your": true, "their": true, "his": true, "her": true, "our": true, "my": true, "these": true, "those": true, "a": true, "an": true, "some": true, "all": true}

// blockRightBefore is the block that ends right above cb (only blank lines and HTML
// comments between).
func blockRightBefore(t *tutorial.Tutorial, blocks []tutorial.CodeBlock, cb tutorial.CodeBlock) (tutorial.CodeBlock, bool) {
	for i, b := range blocks {
		if b.StartLine != cb.StartLine || i == 0 {
			continue
		}
		prev := blocks[i-1]
		for n := prev.EndLine + 1; n < cb.StartLine; n++ {
			// (WordPress's `<!-- /wp:code -->` and `<!-- wp:preformatted -->` between)
			if strings.TrimSpace(t.Map.Line(n)) != "" && !reCommentLine.MatchString(t.Map.Line(n)) {
				return tutorial.CodeBlock{}, false
			}
		}
		return prev, true
	}
	return tutorial.CodeBlock{}, false
}

// outputBelow: the block right under cb is plain text, what cb prints ("`--opprint`
// prints an aligned table:" over the command, then the table).
func outputBelow(t *tutorial.Tutorial, blocks []tutorial.CodeBlock, cb tutorial.CodeBlock) bool {
	for i, b := range blocks {
		if b.StartLine == cb.StartLine && i+1 < len(blocks) {
			next, ok := blockRightBefore(t, blocks, blocks[i+1])
			return ok && next.StartLine == cb.StartLine && !blocks[i+1].Shell && plainLangs[blocks[i+1].Lang]
		}
	}
	return false
}

// reMakeClause: the sentence's last clause tells the reader to make something ("To see
// what a failure looks like, make a scratch file …:"), whatever it says of output before.
var reMakeClause = regexp.MustCompile(`(?i)(?:^|[,;]\s*)(?:make|create|write|save|generate|build|prepare|set up)\s+(?:a|an|the|your|this|these|some|one|two|three)\b[^,;]*:\s*$`)

// reExampleLead: "Noninteractive example:", "Example:", "For instance:"
var reExampleLead = regexp.MustCompile(`(?i)(?:\bexamples?|for instance)\s*:?\s*$`)

// reTheExample: the examples are what the step works on ("Compile the first example:",
// "Make a folder for the examples:"), not a sample command.
var reTheExample = regexp.MustCompile(`(?i)\b(?:the|this|these|those|that|our|your)\s+(?:\w+\s+)?examples?\s*:?\s*$`)

var reEitherOr = regexp.MustCompile(`(?i)\beither\b|\b\w+ or \w+ command|one of the following|\bor\b[^.]*\bcommand\b`)

var (
	reNotYet        = regexp.MustCompile(`(?i)if you (?:have not|haven't|did not|didn't)`)
	reRunLeadStrong = regexp.MustCompile(`(?i)\b(?:run|type|enter|execute)\b`)
	// reInlineOutput: the output given inline ("this one prints `5`:"): the shell block
	// below is the command that prints it
	reInlineOutput = regexp.MustCompile("(?i)\\b(?:prints|shows|returns|outputs|displays|says)\\s+`[^`]+`")
	// reSoThat: a purpose clause, to the end of the sentence
	reSoThat = regexp.MustCompile(`(?i)\bso that\b[^.:]*`)
)

// alternativeSection skips sub-sections that are alternatives to one already followed:
// the children of an "Installation methods" heading, or a "Manual install" next to the
// install section the reader followed.
func alternativeSection(t *tutorial.Tutorial, line int, followed map[string]string) string {
	hp := t.Map.HeadingPath(line)
	for depth := len(hp) - 1; depth >= 1; depth-- {
		parent := strings.Join(hp[:depth], "\x00")
		child := hp[depth]
		methods := reMethodsHeading.MatchString(hp[depth-1])
		alt := reAltMethodHeading.MatchString(child)
		first, ok := followed[parent]
		if !ok {
			if !alt || methods {
				followed[parent] = child
			}
			continue
		}
		if !methods && !alt {
			continue
		}
		if first != child {
			return "an alternative to \"" + first + "\" (section \"" + child + "\")"
		}
	}
	return ""
}

// foreignHeadingOf is the heading above line that is for another system ("" when none).
func foreignHeadingOf(t *tutorial.Tutorial, line int) string {
	subject := map[string]bool{} // what the tutorial's title names is its subject
	for _, w := range append(reOtherOS.FindAllString(docTitle(t), -1), reDistro.FindAllString(docTitle(t), -1)...) {
		subject[strings.ToLower(strings.TrimSpace(w))] = true
	}
	for _, h := range t.Map.HeadingPath(line) {
		if !foreignHeading(h) {
			continue
		}
		named := append(reOtherOS.FindAllString(h, -1), reDistro.FindAllString(h, -1)...)
		if !slices.ContainsFunc(named, func(w string) bool { return !subject[strings.ToLower(strings.TrimSpace(w))] }) {
			continue // "Install and start fish" in "Scripting with fish"
		}
		return h
	}
	return ""
}

// docTitle is the heading that encloses the whole tutorial, its first heading to its
// last line ("Scripting with fish" names the subject, not another system); "" when
// there is none.
func docTitle(t *tutorial.Tutorial) string {
	last := t.Map.HeadingPath(t.Map.LineCount())
	if len(last) == 0 {
		return ""
	}
	for n := 1; n <= t.Map.LineCount(); n++ {
		if p := t.Map.HeadingPath(n); len(p) > 0 {
			if p[0] == last[0] {
				return last[0]
			}
			return ""
		}
	}
	return ""
}

var reDebianish = regexp.MustCompile(`(?i)\b(debian|ubuntu|raspberry pi os|apt|linux mint|pop!_os)\b`)

// reDistro: another distribution named as a word of its own ("Arch", not the project
// name "arch-diagrams"; "Void Linux", not "returns void").
var reDistro = regexp.MustCompile(`(?i)(?:^|[^\w-])(fedora|centos|red ?hat|rhel|amazon linux|opensuse|suse|arch|manjaro|alpine|gentoo|funtoo|void linux|nix(?:os)?|kiss linux|android|freebsd|netbsd|openbsd)(?:$|[^\w-])`)

func foreignHeading(h string) bool {
	if !reOtherOS.MatchString(h) && !reDistro.MatchString(h) {
		return false
	}
	if reDebianish.MatchString(h) {
		return false
	}
	// "macOS and Linux": Linux named and no other distribution
	if reLinux.MatchString(h) && !reDistro.MatchString(h) {
		return false
	}
	return true
}

// shellSteps turns a shell block into one step per command, skipping the commands a
// Debian reader would not type.

// neededFile: a block a side note gives as a file to save ("Save this as `gen-users.sh`")
// that a step outside any side note, further on, uses: the reader saves it.
func neededFile(sc *scopes, blocks []tutorial.CodeBlock, cb tutorial.CodeBlock, lead, why string) bool {
	if !strings.HasPrefix(why, "optional: inside a side note") {
		return false
	}
	f, _, _, ok := fileTarget(cb, lead)
	if !ok {
		return false
	}
	re := regexp.MustCompile(`(?:^|[\s/'"=<])` + regexp.QuoteMeta(path.Base(f)) + `(?:$|[\s'";|&>)])`)
	for _, b := range blocks {
		if b.StartLine > cb.EndLine && sc.skipByScope(b.StartLine) == "" && (b.Shell || b.Console) && re.MatchString(b.Content) {
			return true
		}
	}
	return false
}
