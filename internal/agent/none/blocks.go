package none

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// What one code block holds: commands to run, a file to write, output or a tree (part
// of read.go's reading).

func shellSteps(cb tutorial.CodeBlock, lead, heuristic string) []step {
	cmds := cb.Commands
	if len(cmds) == 0 && !cb.Shell && len(cb.ContentLines) > 0 {
		lines := strings.Split(cb.Content, "\n")
		cmds = tutorial.SplitCommands(lines, cb.ContentLines[:min(len(lines), len(cb.ContentLines))], promptLines(lines))
	}
	if isTree(cb.Content) {
		return []step{{kind: skipStep, block: cb, line: cb.StartLine, lead: lead, reason: "a directory tree, not commands"}}
	}
	if notShell(cb.Content) {
		if reNamelessFile.MatchString(lead) || reFileWord.MatchString(lead) {
			return []step{{kind: askStep, block: cb, line: cb.StartLine, lead: lead, reason: "file content in a shell block"}}
		}
		return []step{{kind: skipStep, block: cb, line: cb.StartLine, lead: lead, reason: "not shell commands (configuration shown in a shell block)"}}
	}
	if len(cmds) == 0 {
		return []step{{kind: skipStep, block: cb, line: cb.StartLine, lead: lead, reason: "output only: no prompt line to run"}}
	}
	var out []step
	lines := strings.Split(cb.Content, "\n")
	for i := range cmds {
		c := &cmds[i]
		s := step{kind: runStep, block: cb, command: c, line: c.StartLine, lead: lead, reason: heuristic}
		if sys := commentSystem(lines, cb.ContentStartLine, c.StartLine); sys != "" {
			// "# macOS / Windows" above the line: that part of the block is for another system
			out = append(out, step{kind: skipStep, block: cb, command: c, line: c.StartLine, lead: lead, reason: "for another system (comment \"" + sys + "\")"})
			continue
		}
		// "Replace `USER` with your user name" names the placeholder; the reader's own name
		// or e-mail is any plausible value, which runs the same
		text, named := substituteNamed(c.Text, lead)
		text, shown := substituteShown(text, lead)
		text, personal := substitutePersonal(text)
		if notes := nonEmpty(named, shown, personal); len(notes) > 0 {
			sub := *c
			sub.Text = text
			s.command, s.reason = &sub, strings.Join(nonEmpty(append([]string{heuristic}, notes...)...), "; ")
		}
		if why := commandSkip(s.command.Text); why != "" {
			s.kind, s.reason = skipStep, why
		}
		out = append(out, s)
	}
	return out
}

// rePersonal is a placeholder for the reader's own name, e-mail, user name or student
// id: a value that works whatever it is (git config user.name "<your-name>", bzr whoami
// "<Your Name> <<student-id>@student.example.ac.uk>").
var rePersonal = regexp.MustCompile(`(?i)<\s*(?:your[ _-]?)?(?:full[ _-]?|first[ _-]?|git[ _-]?)?(name|e-?mail(?:[ _-]?address)?|user[ _-]?name|user|login|handle|author|student[ _-]?(?:id|number))\s*>|\bYOUR_(NAME|EMAIL|USERNAME|USER)\b|\byour[_-](name|email|username)\b`)

// substitutePersonal replaces the reader's own values with plausible ones and says so
// ("" when the command has none).
func substitutePersonal(cmd string) (string, string) {
	var used []string
	if markupSearch(cmd) {
		return cmd, "" // `grep '<name>' ridge.gpx`: an element of the file
	}
	out := rePersonal.ReplaceAllStringFunc(cmd, func(m string) string {
		used = append(used, m)
		l := strings.ToLower(m)
		switch {
		case strings.Contains(l, "mail"):
			return "ada@learner.test"
		case strings.Contains(l, "user") || strings.Contains(l, "login") || strings.Contains(l, "handle") || strings.Contains(l, "student"):
			return "ada"
		}
		return "Ada"
	})
	if len(used) == 0 {
		return cmd, ""
	}
	return out, "substituted the reader's own value for " + strings.Join(used, ", ")
}

// reReplaceWith: the prose names a placeholder and what the reader puts there ("Replace
// `USER` with your user name").
var reReplaceWith = regexp.MustCompile("(?i)\\b(?:replace|substitute)\\s+`([^`\\s]+)`\\s+(?:with|by|for)\\s+(?:your|the)\\s+(?:own\\s+)?(user ?name|login|name|e-?mail(?: address)?|home (?:directory|folder))")

// substituteNamed puts the reader's own value where the lead says to replace a word
// ("" when it names none, or the word is not in cmd or sits in single quotes, where the
// shell would not expand the value).
func substituteNamed(cmd, lead string) (string, string) {
	m := reReplaceWith.FindStringSubmatch(lead)
	if m == nil || !strings.Contains(cmd, m[1]) {
		return cmd, ""
	}
	value := ownValue(m[2], "$(id -un)", "$HOME") // the shell puts the reader's own in
	if strings.HasPrefix(value, "$") && inSingleQuotes(cmd, strings.Index(cmd, m[1])) {
		return cmd, ""
	}
	return strings.ReplaceAll(cmd, m[1], value), "put the reader's " + strings.ToLower(m[2]) + " for `" + m[1] + "`, as the prose says"
}

// reShownValue: the prose names a placeholder and the value its own output uses
// ("Replace `<studio name>` with your studio's name …; the output below uses *Lantern
// Games*").
var reShownValue = regexp.MustCompile("(?i)\\b(?:replace|substitute)\\s+`([^`]+)`\\s+(?:with|by)\\b[^.;]*[.;]\\s*(?:the (?:output|examples?|listing) (?:below|here) (?:uses?|shows?)|(?:this page|we) uses?)\\s+[*_`\"]+([^*_`\"]+)[*_`\"]+")

// substituteShown puts the value the text's own output uses where the lead says to
// replace a placeholder, so the output shown below can be compared ("" when it names
// none).
func substituteShown(cmd, lead string) (string, string) {
	m := reShownValue.FindStringSubmatch(lead)
	if m == nil || !strings.Contains(cmd, m[1]) {
		return cmd, ""
	}
	return strings.ReplaceAll(cmd, m[1], m[2]), "put `" + m[2] + "` for `" + m[1] + "`, the value the text's output uses"
}

// ownValue is the reader's own value of a kind reReplaceWith names: login and home as
// given (the values themselves in a file, the shell's words in a command), a made-up
// e-mail or name otherwise.
func ownValue(kind, login, home string) string {
	switch kind = strings.ToLower(kind); {
	case strings.HasPrefix(kind, "user") || kind == "login":
		return login
	case strings.HasPrefix(kind, "home"):
		return home
	case strings.Contains(kind, "mail"):
		return "ada@learner.test"
	}
	return "Ada"
}

// inSingleQuotes: the byte at i is inside single quotes.
func inSingleQuotes(s string, i int) bool {
	return strings.Count(s[:i], "'")%2 == 1
}

// reNoScreen: options with which an editor or monitor runs and exits without a screen
// (`emacs --batch`, `emacs --script`, `vim -es`, `top -b -n 1`, `--version`).
var reNoScreen = regexp.MustCompile(`(?:^|\s)(?:--?batch|--script|-Q\s+--batch|-es|-Es|-b|--version|-version|--help|-h|-V)(?:\s|$)`)

var reFileWord = regexp.MustCompile(`(?i)\b(file|preferences|configuration|config)\b`)

// commandSkip says why a reader on Debian does not type this command ("" when they do).
func commandSkip(cmd string) string {
	w := firstWord(cmd)
	if sys, ok := otherOSPackageManagers[w]; ok {
		return "the package manager of " + sys
	}
	if p := placeholder(cmd); p != "" {
		return "needs a value the reader substitutes (" + p + ")"
	}
	if what, ok := interactive[w]; ok && !reNoScreen.MatchString(cmd) {
		return "opens " + what + " that waits for a person"
	}
	if guiOpeners[w] {
		return "opens a graphical program"
	}
	if strings.HasPrefix(strings.TrimSpace(cmd), "PS ") || strings.HasPrefix(strings.TrimSpace(cmd), "C:\\") {
		return "a Windows prompt"
	}
	return ""
}

// untaggedSteps reads an untagged or text block as commands when it is clearly a shell
// session ("$ " prompts) or a list of commands introduced as such.
//
// programs are those the tutorial names (prosePrograms): a block whose lines run one of
// them, under a lead that introduces it ("Load it into the interpreter:"), is commands too.
//
// heading is the heading right above the block, with no prose between ("" when there is
// prose, or another block): a block of commands right under "## A first repository" is
// the section's first step.
//
// ran are the programs earlier steps ran: a block of two lines or more that runs one of
// them again, every line a command, is the next step even under prose that does not
// introduce it ("I keep generated files in `gen/`." over `capnp compile -oc++:gen …` and
// `ls gen/`).
func untaggedSteps(cb tutorial.CodeBlock, lead string, programs, ran map[string]bool, heading string) ([]step, bool) {
	lines := strings.Split(cb.Content, "\n")
	if len(cb.ContentLines) < len(lines) {
		return nil, false
	}
	if strings.HasPrefix(strings.TrimSpace(cb.Content), "C:\\") || strings.HasPrefix(strings.TrimSpace(cb.Content), "PS") && strings.Contains(lines[0], ">") {
		return []step{{kind: skipStep, block: cb, line: cb.StartLine, lead: lead, reason: "a Windows prompt"}}, true
	}
	if promptLines(lines) {
		cb.Commands = tutorial.SplitCommands(lines, cb.ContentLines, true)
		return shellSteps(cb, lead, "untagged block read as a shell session ($ prompts)"), true
	}
	if rootSession(lines, programs) {
		// "# mkdir -p /srv/backup" on a page whose other blocks use "$ ": root's prompt
		cb.Commands = tutorial.SplitCommands(lines, cb.ContentLines, true)
		ss := shellSteps(cb, lead, "untagged block read as a root shell session (# prompts)")
		for i := range ss {
			ss[i].root = ss[i].kind == runStep
		}
		return ss, true
	}
	last := lastSentence(lead)
	if reOutputLead.MatchString(reNoOutput.ReplaceAllString(reParenthetical.ReplaceAllString(last, ""), "")) && !onlyInstalls(cb) {
		// (not "Make sure the result really is well-formed XML (no output means it is):",
		// nor an install under "Plain `diff` output is easier to read in colour, so also
		// install the colour filter:")
		return nil, false
	}
	switch {
	case (reRunLead.MatchString(lead) || onlyInstalls(cb)) && looksLikeShell(cb, programs):
	case strings.HasSuffix(strings.TrimSpace(lead), ":") && runsNamedProgram(cb, programs) && looksLikeShell(cb, programs):
	case strings.HasSuffix(strings.TrimSpace(lead), ":") && commandLines(cb):
		// "Create a password file with a user `alice`:" over
		// `mosquitto_passwd -c -b /etc/mosquitto/passwd alice s3cret`: a program with options
	case strings.HasSuffix(strings.TrimSpace(lead), ":") && looksLikeShell(cb, programs) && anyArguments(cb):
		// "Make a small tree to play with:" over `mkdir -p …`, `cd …`, `echo … > …`: every
		// line runs a well-known command
	case strings.HasSuffix(strings.TrimSpace(lead), ":") && looksLikeShell(cb, programs) && runsSpan(lastSentence(lead), cb):
		// "`build.sh` redoes steps 1 and 3 and prints the page count:" over `./build.sh`
	case writesWithShell(cb) && looksLikeShell(cb, programs):
		// "Create a manifest file:" over `printf '…' > manifest.txt` or `cat > x <<'EOF'`:
		// the command creates it
	case strings.HasSuffix(strings.TrimSpace(lead), ":") && oneMisspelt(cb, programs):
		// "To see which files are tracked:" over `dracs show files` and `darcs log`: the
		// reader types what is shown, typo and all
	case !strings.Contains(strings.TrimSpace(cb.Content), "\n") && !strings.ContainsAny(cb.Content, "<>[]") && anyArguments(cb) && reDebianName.MatchString(firstWord(strings.TrimSpace(cb.Content))) && namesWord(lead, firstWord(strings.TrimSpace(cb.Content))) && !reWriteVerb.MatchString(lead):
		// "If you grew up on tcpdump, good news: it reads pcapng files too." over
		// `tcpdump -nr queries.pcapng`: the one command that shows it
	case !reNotStepsHeading.MatchString(heading) && strings.Contains(strings.TrimSpace(cb.Content), "\n") && looksLikeShell(cb, programs) && anyArguments(cb) && programsRun(cb, ran):
		// the tutorial's own program again, on the next lines of the story (not its
		// forms under "## Synopsis")
	case heading != "" && !reNotStepsHeading.MatchString(heading) && strings.Contains(strings.TrimSpace(cb.Content), "\n") && looksLikeShell(cb, programs) && anyArguments(cb) && programsRun(cb, programs):
		// a block right under its heading: `mkdir ~/hello`, `cd ~/hello`, `darcs init`
	case heading != "" && !reNotStepsHeading.MatchString(heading) && !strings.Contains(strings.TrimSpace(cb.Content), "\n") && commandLines(cb) && headingFile(heading) == "":
		// "## 2. Quick look at page 1" over `mudraw -r 72 -o preview.png handout.pdf 1`
	default:
		return nil, false
	}
	cb.Commands = tutorial.SplitCommands(lines, cb.ContentLines, false)
	return shellSteps(cb, lead, "untagged block read as shell commands (the prose says to run it and every line starts with a known command)"), true
}

func promptLines(lines []string) bool {
	for _, l := range lines {
		if tutorial.IsDollarPrompt(l) {
			return true
		}
	}
	return false
}

// reBareCommand: a line that reads as a command and not as output: a lower-case program
// name (after sudo) and its arguments, no "name:" label, no table of capitals.
var reBareCommand = regexp.MustCompile(`^(?:sudo\s+)?[a-z][a-z0-9._+-]*(?:\s+[^:\s][^\n]*)?$`)

// bareCommands: every line of a prompt-less console block reads as a command, and one
// of them at least has arguments (`equivs-build lab-tools`, then `lab-hello`).
func bareCommands(lines []string) bool {
	n, args := 0, false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "# ") {
			continue
		}
		if !reBareCommand.MatchString(t) || strings.HasSuffix(t, ":") {
			return false
		}
		n++
		args = args || len(strings.Fields(t)) > 1
	}
	return n > 0 && args
}

// reAptLine: a Debian package-manager command, which nothing but a shell runs.
var reAptLine = regexp.MustCompile(`^(?:sudo\s+)?(?:apt|apt-get)\s+(?:-\S+\s+)*(?:install|update)\b`)

// onlyInstalls: every line of the block is an apt command ("On Debian it is packaged as
// xmlstarlet:" over an indented `sudo apt install xmlstarlet`).
func onlyInstalls(cb tutorial.CodeBlock) bool {
	n := 0
	for _, l := range strings.Split(cb.Content, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if !reAptLine.MatchString(t) {
			return false
		}
		n++
	}
	return n > 0
}

// rootSession: every line that is not blank is "# " and a known command with arguments
// (a comment would be prose: "# create the parent").
func rootSession(lines []string, programs map[string]bool) bool {
	var cmds []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		rest, ok := strings.CutPrefix(t, "# ")
		if !ok || len(strings.Fields(rest)) < 2 {
			return false
		}
		cmds = append(cmds, rest)
	}
	return len(cmds) > 0 && looksLikeShell(tutorial.CodeBlock{Content: strings.Join(cmds, "\n")}, programs)
}

// looksLikeShell: every non-blank, non-comment line starts with a known command or
// runs a program from the working directory (./name).
func looksLikeShell(cb tutorial.CodeBlock, programs map[string]bool) bool {
	n := 0
	end := "" // the word that ends the here-document being read
	for _, l := range strings.Split(cb.Content, "\n") {
		t := strings.TrimSpace(l)
		if end != "" {
			if t == end {
				end = ""
			}
			continue // a here-document's text
		}
		if t == "" || strings.HasPrefix(t, "#") || reAssignOnly.MatchString(t) {
			continue // (`PCAP=dns.pcapng` over `bash dns-summary.sh`: set for the next line)
		}
		if m := reHeredoc.FindStringSubmatch(t); m != nil {
			end = m[1]
		}
		n++
		// (or a command of a tool the knowledge table knows, with arguments: `xmllint
		// --noout messy.xhtml` under "Make sure the result really is well-formed XML")
		if w := firstWord(t); !knownCommands[w] && !strings.HasPrefix(w, "./") && !((programs[w] || isKnownTool(w)) && len(strings.Fields(t)) > 1) {
			return false
		}
	}
	return n > 0
}

// namesWord: sentence holds word as a word of its own.
func namesWord(sentence, word string) bool {
	return word != "" && regexp.MustCompile(`(?i)(?:^|[^\w-])`+regexp.QuoteMeta(word)+`(?:$|[^\w-])`).MatchString(sentence)
}

// reNotStepsHeading: a heading over blocks that show a form or a result, not steps.
var reNotStepsHeading = regexp.MustCompile(`(?i)\b(?:synopsis|usage|syntax|output|results?|example|reference|options)\b`)

// reCommentLine: a line that is one HTML comment.
var reCommentLine = regexp.MustCompile(`^\s*<!--.*-->\s*$`)

// headingRightAbove is the text of the heading right above cb, blank lines and comments
// aside ("" when something else is).
func headingRightAbove(t *tutorial.Tutorial, cb tutorial.CodeBlock) string {
	n := cb.StartLine - 1
	for n >= 1 && (strings.TrimSpace(t.Map.Line(n)) == "" || reCommentLine.MatchString(t.Map.Line(n))) {
		n-- // (and WordPress's `<!-- /wp:heading -->`)
	}
	b, ok := t.Map.BlockAt(n)
	switch {
	case !ok || b.Kind != tutorial.KindHeading:
		return ""
	case strings.HasPrefix(strings.TrimSpace(t.Map.Line(b.StartLine)), "<"):
		return b.Text // `<h2 class="wp-block-heading">Installing</h2>`
	}
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(t.Map.Line(n)), "#"))
}

// oneMisspelt: the block has two lines or more, and is commands in every way but one
// line whose program is a known one misspelt (two edits or fewer: `dracs` for darcs).
func oneMisspelt(cb tutorial.CodeBlock, programs map[string]bool) bool {
	lines := strings.Split(cb.Content, "\n")
	if len(lines) < 2 || looksLikeShell(cb, programs) {
		return false
	}
	fixed := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		w := firstWord(t)
		if t == "" || strings.HasPrefix(t, "#") || knownCommands[w] || programs[w] || len(w) < 4 || len(strings.Fields(t)) < 2 {
			continue
		}
		if fixed {
			return false
		}
		p := onlyNear(programs, w, 2)
		if len(p) < 4 {
			return false
		}
		lines[i] = strings.Replace(l, w, p, 1)
		fixed = true
	}
	cb.Content = strings.Join(lines, "\n")
	return fixed && looksLikeShell(cb, programs)
}

// programsRun: a line of the block runs one of the programs the tutorial names.
func programsRun(cb tutorial.CodeBlock, programs map[string]bool) bool {
	for _, l := range strings.Split(cb.Content, "\n") {
		if w := firstWord(strings.TrimSpace(l)); programs[w] {
			return true
		}
	}
	return false
}

// reOptionCommand: a command line: a program's name, then arguments with an option among
// them (`mosquitto_passwd -c -b /etc/mosquitto/passwd alice pw`).
var reOptionCommand = regexp.MustCompile(`^(?:sudo\s+)?[a-z][\w.+-]*(?:\s+[^\s=:]\S*)*?\s+--?[a-zA-Z][\w-]*(?:\s+\S+)*$`)

// commandLines: every line of the block (at most three) reads as a command line with an
// option, and none as a setting (`key = value`, `key: value`).
func commandLines(cb tutorial.CodeBlock) bool {
	n := 0
	for _, l := range strings.Split(cb.Content, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		n++
		if n > 3 || !reOptionCommand.MatchString(t) || strings.Contains(strings.Fields(t)[0], ":") {
			return false
		}
	}
	return n > 0
}

// reHeredoc: a command that starts a here-document, and the word that ends it.
var reHeredoc = regexp.MustCompile(`<<-?\s*['"]?(\w+)['"]?`)

// reShellWrite: a command line that writes a file through a redirection or a
// here-document (`printf '…' > manifest.txt`, `cat > notes.txt <<'EOF'`).
var reShellWrite = regexp.MustCompile(`^\S+\s.*(?:>>?\s*[\w~./-]+\s*(?:<<|$)|<<-?\s*['"]?\w+['"]?\s*(?:>>?\s*[\w~./-]+\s*)?$)`)

// writesWithShell: the block's first command writes a file with the shell.
func writesWithShell(cb tutorial.CodeBlock) bool {
	for _, l := range strings.Split(cb.Content, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			return reShellWrite.MatchString(t)
		}
	}
	return false
}

// anyArguments: some line of the block runs a command with arguments.
func anyArguments(cb tutorial.CodeBlock) bool {
	for _, l := range strings.Split(cb.Content, "\n") {
		if len(strings.Fields(l)) > 1 {
			return true
		}
	}
	return false
}

// runsNamedProgram: some line of the block runs, with arguments, a program the tutorial
// names in its prose.
func runsNamedProgram(cb tutorial.CodeBlock, programs map[string]bool) bool {
	for _, l := range strings.Split(cb.Content, "\n") {
		t := strings.TrimSpace(l)
		if programs[firstWord(t)] && len(strings.Fields(t)) > 1 {
			return true
		}
	}
	return false
}

func isTree(content string) bool {
	if strings.HasPrefix(strings.TrimSpace(content), "$ ") {
		return false // a command at a prompt, and the tree it prints (`tree`, a test launcher)
	}
	lines := 0
	tree := 0
	for _, l := range strings.Split(content, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines++
		if reTree.MatchString(l) {
			tree++
		}
	}
	return tree > 0 && tree*2 >= lines
}

// notShell: every line is "Key: value" (an apt preferences file, a header block).
func notShell(content string) bool {
	return everyLineMatches(content, reKeyValue)
}

// everyLineMatches: text has a line that is not blank, and every such line matches re.
func everyLineMatches(text string, re *regexp.Regexp) bool {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !re.MatchString(l) {
			return false
		}
		n++
	}
	return n > 0
}

// isHeredocOnly: a shell block that writes its files with here-documents, which run as
// commands; a script (`#!` first) keeps its here-documents and here-strings (`<<<`)
// inside the file it is saved as.
func isHeredocOnly(cb tutorial.CodeBlock) bool {
	return cb.Shell && !strings.HasPrefix(strings.TrimSpace(cb.Content), "#!") && reHeredocStart.MatchString(cb.Content)
}

// reHeredocStart: a here-document's `<<WORD` (or `<<-'WORD'`), not a here-string `<<<`.
var reHeredocStart = regexp.MustCompile(`(?:^|[^<])<<-?\s*['"]?\w`)

// fileContent is the block's text as the reader copies it: for Rust, rustdoc's hidden
// "# " lines are not shown on the page and are left out.
func fileContent(cb tutorial.CodeBlock) string {
	c := cb.Content
	if cb.Lang == "rust" || cb.Lang == "rs" {
		var keep []string
		for _, l := range strings.Split(c, "\n") {
			t := strings.TrimSpace(l)
			if t == "#" || strings.HasPrefix(t, "# ") {
				continue
			}
			keep = append(keep, l)
		}
		c = strings.Join(keep, "\n")
	}
	return c
}

var langExt = map[string][]string{
	"go": {".go"}, "python": {".py"}, "py": {".py"}, "javascript": {".js", ".mjs", ".cjs"}, "js": {".js", ".mjs"},
	"typescript": {".ts"}, "ts": {".ts"}, "rust": {".rs"}, "rs": {".rs"}, "toml": {".toml"}, "yaml": {".yaml", ".yml"},
	"yml": {".yaml", ".yml"}, "json": {".json"}, "html": {".html", ".htm", ".tt", ".tmpl", ".ep", ".erb", ".j2", ".jinja", ".mustache", ".hbs"}, "css": {".css"}, "java": {".java"}, "ruby": {".rb", ".ru", ".rake", ".gemspec"},
	"c": {".c", ".h"}, "cpp": {".cpp", ".cc", ".h"}, "php": {".php"}, "r": {".r", ".R"}, "prolog": {".pl", ".pro"},
	"perl": {".pl", ".pm", ".psgi", ".t", ".cgi"}, "lua": {".lua"}, "tcl": {".tcl"}, "xml": {".xml"}, "ini": {".ini", ".cfg", ".conf"},
	"csv": {".csv"}, "sql": {".sql"}, "meson": {"meson.build"}, "erlang": {".erl", ".escript"}, "octave": {".m"},
	"matlab": {".m"}, "nim": {".nim"}, "haskell": {".hs"}, "kotlin": {".kt"}, "swift": {".swift"}, "scala": {".scala"},
	"markdown": {".md"}, "md": {".md"}, "asciidoc": {".adoc"}, "rst": {".rst"}, "dockerfile": {"Dockerfile"},
	"makefile": {"Makefile"}, "make": {"Makefile"}, "cmake": {"CMakeLists.txt", ".cmake"}, "sh": {".sh", ".profile"}, "bash": {".sh", ".bash", ".bashrc", ".bash_profile", ".bash_aliases", ".profile"},
	"zsh": {".zsh", ".sh", ".zshrc", ".zshenv", ".zprofile"}, "fish": {".fish"}, "ksh": {".ksh", ".kshrc"}, "text": {".txt"}, "txt": {".txt"},
	"fortran": {".f90", ".f95", ".f03", ".f08", ".f", ".for"}, "scheme": {".scm", ".ss"}, "lisp": {".lisp", ".lsp", ".cl"},
	"ocaml": {".ml", ".mli"}, "elixir": {".ex", ".exs"}, "julia": {".jl"}, "clojure": {".clj"}, "racket": {".rkt"},
	"d": {".d"}, "pascal": {".pas", ".pp"}, "ada": {".adb", ".ads"}, "nasm": {".asm"}, "asm": {".s", ".asm"},
	"gnuplot": {".gp", ".plt", ".gnuplot"}, "jinja": {".j2", ".jinja"}, "jinja2": {".j2", ".jinja"},
	"ledger": {".ledger", ".journal", ".dat"}, "yacc": {".y"}, "bison": {".y"}, "lex": {".l"}, "flex": {".l"},
	"awk": {".awk"}, "sed": {".sed"}, "vim": {".vim"}, "groovy": {".groovy", ".gradle"}, "proto": {".proto"},
	"terraform": {".tf"}, "hcl": {".hcl", ".tf"}, "nix": {".nix"}, "tex": {".tex"}, "latex": {".tex"}, "zig": {".zig"},
	"dart": {".dart"}, "csharp": {".cs"}, "cs": {".cs"}, "fsharp": {".fs", ".fsx"}, "jsx": {".jsx"}, "tsx": {".tsx"},
	"vue": {".vue"}, "svelte": {".svelte"}, "graphql": {".graphql", ".gql"}, "nginx": {".conf"}, "apache": {".conf", ".htaccess"},
	"systemd": {".service", ".timer", ".socket"}, "desktop": {".desktop"}, "guile": {".scm"}, "elisp": {".el"},
}

func sameLanguage(lang, file string) bool {
	if lang != "" && path.Ext(file) == "."+lang {
		return true // a language named by its extension (org, el, scm)
	}
	for _, e := range langExt[lang] {
		if strings.HasSuffix(file, e) {
			return true
		}
	}
	return false
}

func joinDir(dir, file string) string {
	if dir == "" {
		return file
	}
	return path.Join(dir, file)
}

// allBlocks is every code block of the tutorial plus Hugo {{< highlight >}} and Jekyll
// {% highlight %} pairs (which Markdown parsers see as paragraphs), in document order.
func allBlocks(t *tutorial.Tutorial) []tutorial.CodeBlock {
	blocks := append([]tutorial.CodeBlock(nil), t.Map.CodeBlocks()...)
	n := t.Map.LineCount()
	for ln := 1; ln <= n; ln++ {
		closer := reHighlightClose
		m := reHighlightOpen.FindStringSubmatch(t.Map.Line(ln))
		file := ""
		if f := reHugoFile.FindStringSubmatch(t.Map.Line(ln)); m == nil && f != nil {
			// Linode's {{< file "/etc/fail2ban/jail.d/webapp.local" ini >}}: a file's contents
			m, file, closer = []string{f[0], f[2]}, f[1], reHugoFileClose
		}
		doku := false
		if d := reDokuOpen.FindStringSubmatch(t.Map.Line(ln)); m == nil && file == "" && d != nil {
			doku = true
			// DokuWiki's <code bash> … </code>, and <file ini conf> … </file>, a file's
			// contents (its second word is the name it downloads as)
			m, closer = []string{d[0], d[2]}, reDokuCodeClose
			if d[1] == "file" {
				file, closer = firstNonEmpty(d[3], "-"), reDokuFileClose
			}
		}
		if m == nil && file == "" {
			// Docsy's {{< tab header="Debian / Ubuntu" lang="bash" >}}: the tab is the code
			if m = reDocsyCodeTab.FindStringSubmatch(t.Map.Line(ln)); m == nil {
				continue
			}
			closer = reHugoTabX
		}
		end := ln + 1
		for end <= n && !closer.MatchString(t.Map.Line(end)) {
			end++
		}
		if end > n {
			break
		}
		var lines []string
		var nos []int
		for k := ln + 1; k < end; k++ {
			lines = append(lines, t.Map.Line(k))
			nos = append(nos, k)
		}
		info := m[1]
		if file != "" && file != "-" {
			info = strings.TrimSpace(m[1] + ` title="` + file + `"`)
		}
		cb := tutorial.CodeBlock{Block: tutorial.Block{Kind: tutorial.KindFencedCode, StartLine: ln, EndLine: end, Info: info, Text: strings.Join(lines, "\n")},
			Lang: strings.ToLower(m[1]), Content: strings.Join(lines, "\n"), ContentStartLine: ln + 1, ContentLines: nos}
		cb.Shell = file == "" && (cb.Lang == "bash" || cb.Lang == "sh" || cb.Lang == "shell" || cb.Lang == "console")
		if cb.Shell {
			console := cb.Lang == "console" || promptLines(lines)
			cb.Console = console
			cb.Commands = tutorial.SplitCommands(lines, nos, console)
			if !console && !doku {
				// with `$ ` prompts the lines without one are the output already (DokuWiki
				// shows output in a <code> block of its own)
				cb.Commands = firstCommandOnly(cb.Commands, lines, nos)
			}
		}
		blocks = append(blocks, cb)
		ln = end
	}
	blocks = append(blocks, directiveBodies(t, blocks)...)
	for ln := 1; ln <= n; ln++ {
		// Killercoda's `sudo apt-get update`{{exec}}: an inline command the page runs
		if m := reInlineExec.FindStringSubmatch(t.Map.Line(ln)); m != nil {
			lines, nos := []string{m[1]}, []int{ln}
			blocks = append(blocks, tutorial.CodeBlock{Block: tutorial.Block{Kind: tutorial.KindFencedCode, StartLine: ln, EndLine: ln, Info: "bash", Text: m[1]},
				Lang: "bash", Shell: true, Content: m[1], ContentStartLine: ln, ContentLines: nos, Commands: tutorial.SplitCommands(lines, nos, false)})
		}
	}
	blocks = append(blocks, monospaceBlocks(t, blocks)...)
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].StartLine < blocks[j].StartLine })
	for i, cb := range blocks {
		// kramdown's attribute list on the line after a block belongs to it (Jekyll:
		// `{: data-filename="main.cpp" }` under the block names its file)
		if cb.EndLine < n {
			if m := reBlockIAL.FindStringSubmatch(t.Map.Line(cb.EndLine + 1)); m != nil {
				blocks[i].Info = strings.TrimSpace(cb.Info + " " + m[1])
			}
		}
	}
	return blocks
}

// directiveBodies are the indented code blocks that open a MyST directive's body right
// under its fence line (```{tab-item} Debian, then `    $ sudo apt install …`): MyST
// parses the body on its own, so they are code, where a Markdown parser reads them as
// the rest of the fence line's paragraph.
func directiveBodies(t *tutorial.Tutorial, have []tutorial.CodeBlock) []tutorial.CodeBlock {
	var out []tutorial.CodeBlock
	n := t.Map.LineCount()
	inBlock := func(ln int) bool {
		return slices.ContainsFunc(have, func(b tutorial.CodeBlock) bool { return b.StartLine <= ln && ln <= b.EndLine })
	}
	for ln := 1; ln < n; ln++ {
		if !reMySTColon.MatchString(t.Map.Line(ln)) || inBlock(ln) {
			continue
		}
		var lines []string
		var nos []int
		for k := ln + 1; k <= n && strings.TrimSpace(t.Map.Line(k)) != "" && strings.HasPrefix(strings.ReplaceAll(t.Map.Line(k), "\t", "    "), "    ") && !inBlock(k); k++ {
			lines = append(lines, strings.TrimPrefix(strings.ReplaceAll(t.Map.Line(k), "\t", "    "), "    "))
			nos = append(nos, k)
		}
		if len(lines) == 0 {
			continue
		}
		console := promptLines(lines)
		cb := tutorial.CodeBlock{Block: tutorial.Block{Kind: tutorial.KindIndentedCode, StartLine: nos[0], EndLine: nos[len(nos)-1], Text: strings.Join(lines, "\n")},
			Content: strings.Join(lines, "\n"), ContentStartLine: nos[0], ContentLines: nos, Shell: console, Console: console}
		if console {
			cb.Commands = tutorial.SplitCommands(lines, nos, true)
		}
		out = append(out, cb)
		ln = nos[len(nos)-1]
	}
	return out
}

// monospaceBlocks are the code a word processor exports without a fence, as untagged
// blocks whose lines are then judged like any untagged fence's: a paragraph that is a
// single code span (Google Docs' "`dwdiff --version`" on a line of its own) and a
// one-column table whose every row is one code span (its code box, "| `make` |" over
// "| :---- |", with `\|` for a pipe).
func monospaceBlocks(t *tutorial.Tutorial, have []tutorial.CodeBlock) []tutorial.CodeBlock {
	var out []tutorial.CodeBlock
	n := t.Map.LineCount()
	blank := func(ln int) bool { return ln < 1 || ln > n || strings.TrimSpace(t.Map.Line(ln)) == "" }
	inBlock := func(ln int) bool {
		return slices.ContainsFunc(have, func(b tutorial.CodeBlock) bool { return b.StartLine <= ln && ln <= b.EndLine })
	}
	add := func(lines []string, nos []int) {
		out = append(out, tutorial.CodeBlock{Block: tutorial.Block{Kind: tutorial.KindFencedCode, StartLine: nos[0], EndLine: nos[len(nos)-1], Text: strings.Join(lines, "\n")},
			Content: strings.Join(lines, "\n"), ContentStartLine: nos[0], ContentLines: nos})
	}
	for ln := 1; ln <= n; ln++ {
		if inBlock(ln) {
			continue
		}
		b, ok := t.Map.BlockAt(ln)
		if !ok {
			continue
		}
		switch {
		case b.Kind == tutorial.KindParagraph && b.StartLine == ln && b.EndLine == ln && blank(ln-1) && blank(ln+1):
			if m := reMonospaceLine.FindStringSubmatch(t.Map.Line(ln)); m != nil {
				add([]string{m[1]}, []int{ln})
			}
		case b.Kind == tutorial.KindTable && b.StartLine == ln:
			var lines []string
			var nos []int
			for k := b.StartLine; k <= b.EndLine; k++ {
				if k == b.StartLine+1 && reTableRule.MatchString(t.Map.Line(k)) {
					continue
				}
				m := reMonospaceCell.FindStringSubmatch(t.Map.Line(k))
				if m == nil {
					lines = nil
					break
				}
				lines = append(lines, strings.ReplaceAll(m[1], `\|`, "|"))
				nos = append(nos, k)
			}
			if len(lines) > 0 {
				add(lines, nos)
			}
			ln = b.EndLine
		}
	}
	return out
}

var (
	// a line that is one code span and nothing else, at the margin
	reMonospaceLine = regexp.MustCompile("^`([^`]+)`\\s*$")
	// a one-column table row that is one code span (`\|` is a pipe inside it)
	reMonospaceCell = regexp.MustCompile("^\\|\\s*`((?:[^`\\\\]|\\\\.)+)`\\s*\\|\\s*$")
	// a table's delimiter row of one column: | :---- |
	reTableRule = regexp.MustCompile(`^\|\s*:?-+:?\s*\|\s*$`)
)

// reBlockIAL: a kramdown block inline attribute list, `{: .class key="value" }`.
var reBlockIAL = regexp.MustCompile(`^\s*\{:\s*([^{}]*?)\s*\}\s*$`)

var (
	// Killercoda's inline command the page runs: `sudo apt-get update`{{exec}}
	reInlineExec = regexp.MustCompile("^\\s*`([^`]+)`\\{\\{\\s*exec(?:ute)?(?:\\s[^}]*)?\\}\\}\\s*$")
	// Hugo {{< highlight bash >}} … {{< /highlight >}}, Jekyll {% highlight bash %} … {% endhighlight %},
	// Eleventy's paired shortcode {% highlight "bash" %} … {% endhighlight %}
	reHighlightOpen = regexp.MustCompile(`^\s*(?:\{\{[<%]|\{%-?)\s*highlight\s+["']?(\w+)`)
	// Linode's {{< file "path" lang >}} … {{< /file >}}: the contents of the file named
	reHugoFile      = regexp.MustCompile(`^\s*\{\{<\s*file\s+"([^"]+)"(?:\s+(\w+))?\s*>\}\}\s*$`)
	reHugoFileClose = regexp.MustCompile(`^\s*\{\{<\s*/\s*file\s*>\}\}\s*$`)
	// DokuWiki's <code lang [file]> and <file lang [name]> blocks ("-" for no language)
	reDokuOpen       = regexp.MustCompile(`^\s*<(code|file)(?:\s+([\w+#.-]+))?(?:\s+([\w./~-]+))?\s*>\s*$`)
	reDokuCodeClose  = regexp.MustCompile(`^\s*</code>\s*$`)
	reDokuFileClose  = regexp.MustCompile(`^\s*</file>\s*$`)
	reHighlightClose = regexp.MustCompile(`^\s*(?:\{\{[<%]\s*/\s*highlight\s*[>%]\}\}|\{%-?\s*endhighlight\s*-?%\})`)
	// a Docsy tab whose content is code in the language it names (closed by reHugoTabX)
	reDocsyCodeTab = regexp.MustCompile(`^\s*\{\{<\s*tab\b[^>]*\blang="(\w+)"[^>]*>\}\}\s*$`)
)

// firstCommandOnly: a script block whose first command is followed by a blank line and
// lines that do not start with known commands shows the command and its output
// (`apt policy redis` and the version table).
func firstCommandOnly(cmds []tutorial.Command, lines []string, nos []int) []tutorial.Command {
	if len(cmds) < 2 {
		return cmds
	}
	for _, c := range cmds[1:] {
		if knownCommands[firstWord(c.Text)] {
			return cmds
		}
	}
	return cmds[:1]
}

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if ends := sentenceEnds(s); len(ends) > 0 {
		return s[:ends[0][0]+1]
	}
	return s
}

func lastSentence(s string) string {
	s = strings.TrimSpace(s)
	var parts []string
	from := 0
	for _, e := range sentenceEnds(s) {
		parts = append(parts, s[from:e[0]])
		from = e[1]
	}
	parts = append(parts, s[from:])
	for i := len(parts) - 1; i >= 0; i-- {
		if strings.TrimSpace(parts[i]) != "" {
			p := strings.TrimSpace(parts[i])
			if i == len(parts)-1 && strings.HasSuffix(s, ":") && !strings.HasSuffix(p, ":") {
				p += ":"
			}
			return p
		}
	}
	return s
}

// sentenceEnds are where sentences end in s (reSentenceEnd), except inside code spans:
// "fails with `error: Unknown module type: counter` (exit status 2):" is one sentence.
func sentenceEnds(s string) [][]int {
	var ends [][]int
	for _, e := range reSentenceEnd.FindAllStringIndex(s, -1) {
		if strings.Count(s[:e[0]], "`")%2 == 0 {
			ends = append(ends, e)
		}
	}
	return ends
}

// proseFile finds an instruction in the prose right above a block to create a file
// that the block is not the content of ("create a file called main.go in the web-service
// directory"): it returns the file, its directory and the line of the instruction.
func proseFile(t *tutorial.Tutorial, cb tutorial.CodeBlock) (file, dir string, line int) {
	for n := cb.StartLine - 1; n >= 1 && n >= cb.StartLine-12; n-- {
		l := t.Map.Line(n)
		if strings.HasPrefix(strings.TrimSpace(l), "```") || strings.HasPrefix(strings.TrimSpace(l), "#") {
			break
		}
		text := l
		if n+1 < cb.StartLine {
			text += " " + strings.TrimSpace(t.Map.Line(n+1))
		}
		m := reCreateCalled.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		file = strings.Trim(m[1], "`")
		if d := reInDir.FindStringSubmatch(text[strings.Index(text, m[0])+len(m[0]):]); d != nil && !reHereDir.MatchString(d[1]) {
			dir = strings.Trim(d[1], "`")
		}
		return file, dir, n
	}
	return "", "", 0
}

var (
	reCreateCalled = regexp.MustCompile("(?i)\\bcreate (?:a|an|the) (?:new )?file (?:called|named) `?([\\w./-]+\\.\\w+)`?")
	reInDir        = regexp.MustCompile("(?i)^\\s*in (?:the|your) `?((?:[\\w./-]+))`?\\s+(?:directory|folder)")
	// "in the working directory", "in your current folder": where the reader already is
	reHereDir = regexp.MustCompile(`(?i)^(?:working|current|present|same|project)$`)
)

// String describes a step for the record ("line 12: run `make`").
func (s step) String() string {
	switch s.kind {
	case runStep:
		return fmt.Sprintf("line %d: run `%s`", s.line, firstLine(s.command.Text))
	case fileStep:
		return fmt.Sprintf("line %d: write %s", s.line, joinDir(s.dir, s.file))
	case askStep:
		return fmt.Sprintf("line %d: a file to create without a name", s.line)
	}
	return fmt.Sprintf("line %d: skipped (%s)", s.line, s.reason)
}

// blockIsFile: the block right after the instruction is that file's content.
func blockIsFile(cb tutorial.CodeBlock, lead, file string) bool {
	f, _, _, ok := fileTarget(cb, lead)
	return ok && path.Base(f) == path.Base(file)
}

var reComment = regexp.MustCompile(`^\s*#\s*(.+?)\s*:?\s*$`)

// commentSystem is the nearest comment line above line (within the block) when it names
// only other systems ("# macOS / Windows"); "" otherwise.
func commentSystem(lines []string, first, line int) string {
	for n := line - 1; n >= first; n-- {
		i := n - first
		if i < 0 || i >= len(lines) {
			break
		}
		m := reComment.FindStringSubmatch(lines[i])
		if m == nil || strings.HasPrefix(strings.TrimSpace(lines[i]), "#!") {
			continue
		}
		if len(m[1]) < 40 && reOtherOS.MatchString(m[1]) && !reLinux.MatchString(m[1]) {
			return m[1]
		}
		return ""
	}
	return ""
}

// A Jupyter notebook exported to Markdown (`jupyter nbconvert --to markdown`) shows its
// shell work as Python cells: in IPython `!cmd` runs cmd in a shell, `%cd dir` changes
// the notebook's folder, `%env NAME=value` sets a variable, `%%bash` (or `%%sh`) runs the
// whole cell in a shell and `%%writefile [-a] name` saves the rest of the cell as name.
var (
	reWriteFileMagic = regexp.MustCompile(`^%%writefile(\s+(?:-a|--append))?\s+(\S+)\s*$`)
	reShellCellMagic = regexp.MustCompile(`^%%(?:bash|sh|script (?:bash|sh))\s*$`)
	reLineMagic      = regexp.MustCompile(`^%(cd|env)(?:\s+(.*))?$`)
	notebookLangs    = map[string]bool{"python": true, "python3": true, "py": true, "ipython": true, "ipython3": true, "": true}
)

// notebookFile reads a `%%writefile name` cell: the file, its content and whether it is
// appended to (`-a`).
func notebookFile(cb tutorial.CodeBlock) (string, string, bool, bool) {
	if !notebookLangs[cb.Lang] {
		return "", "", false, false
	}
	lines := strings.Split(cb.Content, "\n")
	m := reWriteFileMagic.FindStringSubmatch(strings.TrimSpace(lines[0]))
	if m == nil {
		return "", "", false, false
	}
	return m[2], strings.Join(lines[1:], "\n"), m[1] != "", true
}

// notebookShell reads a cell that only runs shell commands (`!` lines, `%cd`, `%env`,
// comments, or a `%%bash` cell) as the shell block a reader at a terminal types: the
// lines keep their places in the tutorial. ok is false for any other cell (Python code,
// or `!` lines mixed with it).
func notebookShell(cb tutorial.CodeBlock) (tutorial.CodeBlock, bool) {
	if !notebookLangs[cb.Lang] || len(cb.ContentLines) == 0 {
		return cb, false
	}
	lines := strings.Split(cb.Content, "\n")
	lineNos := cb.ContentLines[:min(len(lines), len(cb.ContentLines))]
	lines = lines[:len(lineNos)]
	var text []string
	var at []int
	if reShellCellMagic.MatchString(strings.TrimSpace(lines[0])) {
		text, at = lines[1:], lineNos[1:]
	} else {
		magic := false
		for i, l := range lines {
			t := strings.TrimSpace(l)
			switch m := reLineMagic.FindStringSubmatch(t); {
			case t == "" || strings.HasPrefix(t, "#"):
				text = append(text, t)
			case strings.HasPrefix(t, "!") && len(t) > 1:
				text, magic = append(text, strings.TrimPrefix(t[1:], "!")), true
			case m != nil && m[1] == "cd":
				text, magic = append(text, strings.TrimSpace("cd "+m[2])), true
			case m != nil && m[1] == "env" && strings.Contains(m[2], "="):
				text, magic = append(text, "export "+strings.TrimSpace(m[2])), true
			default:
				return cb, false
			}
			at = append(at, lineNos[i])
		}
		if !magic {
			return cb, false
		}
	}
	if len(at) == 0 {
		return cb, false
	}
	nb := cb
	nb.Lang, nb.Shell, nb.Console = "bash", true, false
	nb.Content, nb.ContentLines, nb.ContentStartLine = strings.Join(text, "\n"), at, at[0]
	nb.Commands = tutorial.SplitCommands(text, at, false)
	return nb, true
}
