package none

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// How a careful newcomer on Debian reads a tutorial before typing anything: which
// blocks are commands to run, which are files to create, and which are for another
// system, alternatives, examples or output. Every decision is recorded, so the report
// can say what was run, what was skipped and why.

type stepKind int

const (
	runStep  stepKind = iota // run a command
	fileStep                 // write (or append to) a file
	skipStep                 // not run, with a reason
	askStep                  // the reader is told to create a file but not where
)

// step is one thing the reader does (or deliberately does not do), in document order.
type step struct {
	kind    stepKind
	block   tutorial.CodeBlock
	command *tutorial.Command // runStep
	line    int               // the tutorial line the step stands on
	file    string            // fileStep: path as the tutorial gives it (relative to the session's directory)
	dir     string            // fileStep: the directory the prose names for it ("" when none)
	appendF bool
	prepend bool // fileStep: the block goes at the top of the file ("Insert this line at the very top of greet.scm")
	// beside: fileStep: the file goes in the folder of this earlier one ("to the same
	// folder", "next to it"), wherever the reader stands now
	beside string
	// before: fileStep: the block goes in above the last line holding this text ("just
	// above the closing `</project>` tag")
	before  string
	merge   bool // fileStep: the block shows part of the file as it should now read
	root    bool // runStep: typed at root's "# " prompt
	content string
	reason  string // skipStep: why; runStep/fileStep: how a heuristic decided ("" when the markup said so)
	// expected is the output the tutorial shows in a separate block right after the
	// command ("The output is similar to:")
	expected string
	lead     string // the prose that introduces the block
	// repl: runStep: the block is typed into the interpreter an earlier line started
	// (`octave-cli`, then cells); command is the cell, run after the cells that worked
	repl string
	// answers: runStep: what the reader types at the command's questions, in order, as a
	// session the tutorial shows below it has them ("" takes the default)
	answers []string
}

// commandsOf counts the commands a block holds (for coverage).
func (s step) commandCount() int {
	if s.command != nil {
		return 1
	}
	if n := len(s.block.Commands); n > 0 {
		return n
	}
	return 0
}

var (
	// "The output is similar to:", "you should see"
	reOutputLead = regexp.MustCompile(`(?i)(\boutput\b[^.]*(?:similar|like|look|is|should|will)|\boutput\s+shows?\b|\boutput\b\s*:?\s*$|you(?:'ll| will| should)? see\b|should (?:look|print|show|return|display)|will (?:look|print|show|display|return|output)|looks? (?:like|similar)|similar to\b|\bprints?:\s*$|\breturns?:\s*$|\bresponse\b.*:\s*$|example output|sample output|\b(?:get|see)\s+something like (?:this|that)\b|produces?:\s*$|\bwhich gives\s*:?\s*$)`)
	// "so Git stops and reports a conflict:": output, unless the block has prompts
	reOutputVerb = regexp.MustCompile(`(?i)\b(?:reports?|says|prints|shows|displays|responds|answers|complains|warns|confirms|tells you)\b[^.]*:\s*$`)
	// "Alternatively", "If your system doesn't have curl", "For example", "You can also"
	reAltLead = regexp.MustCompile(`(?i)^(?:\d+\.\s*)?(alternatively|or,|or you can|you (?:can|could|may) also|if you (?:prefer|'d prefer|would prefer|want to use|use|are using|'re using|need to|want to|also want|do not want|don't want|would like)|if your (?:system|machine|distribution|distro|shell)|however,?[^.]*\bcan also\b|for example|e\.g\.|(?:to )?request a specific|if installing (?:from|with|via|using)|when another|optionally)`)
	reDontRun = regexp.MustCompile(`(?i)\b(do not|don't) (?:run|execute|type)\b|\bnot meant to be run\b`)
	// "On Windows:", "For macOS"
	reOSLead = regexp.MustCompile(`(?i)^(?:\d+\.\s*)?(?:on|for|in|using|with) ([\w ./+-]+?)\s*[:,]?\s*$`)
	// tree drawings: ├── └── │
	reTree = regexp.MustCompile(`[├└│]|^\s*[|` + "`" + `]--`)
	// "Package: redis" lines: configuration, not commands
	reKeyValue = regexp.MustCompile(`^\s*[A-Z][\w-]*:\s+\S`)
	// imperative leads before untagged command blocks
	reRunLead = regexp.MustCompile(`(?i)\b(run|type|enter|execute|issue|invoke|use the (?:following )?command|command|terminal|shell|prompt|install|start|(?:create|make) (?:a|the|your) (?:new )?(?:` + "`[^`]+` " + `|[a-z]+ )?(?:directory|folder|project)|(?:check|verify|confirm|make sure|test) that)\b`)
	// parents whose sub-sections are alternatives to each other
	reMethodsHeading = regexp.MustCompile(`(?i)\b(methods?|options|alternatives|ways to|other ways|choose)\b`)
	// sub-sections naming an alternative way to install
	reAltMethodHeading = regexp.MustCompile(`(?i)^(git|manual(?:ly)?|source|from source|binary|binaries|docker|pip|pipx|cargo|npm|brew|homebrew|snap|package manager|github releases|unofficial|community)\b.*|.*\b(?:install(?:ation)?|upgrade|update) (?:from|with|via|using)\b.*|^manual (?:install|upgrade|update)`)
)

// reEveryFileIn: the prose says where every file of the tutorial goes ("Make a folder for
// this lab. Save every file from this sheet in it.").
var reEveryFileIn = regexp.MustCompile(`(?i)\b(?:save|put|keep|create|store) (?:every|all|each)(?: of)?(?: the| your)? files?\b[^.]*?\b(?:in it|in there|there|in (?:that|this|the new) (?:folder|directory))\b`)

// reNextFileIn: the lead of a mkdir says the block that follows goes in the new folder
// ("Create a scratch folder and save the following file in it.").
var reNextFileIn = regexp.MustCompile(`(?i)\b(?:save|put|keep|create|store|place|write)\b (?:the following|the next|this|the) (?:file|script|module|program|code)(?: below)?\b[^.]*?\b(?:in it|in there|there|in (?:that|this|the new) (?:folder|directory))\b`)

// everyFileIn is the directory a block creates with mkdir when its lead says every file
// goes in it ("" otherwise).
func everyFileIn(cb tutorial.CodeBlock, lead string) string {
	if !reEveryFileIn.MatchString(lead) {
		return ""
	}
	return mkdirIn(cb)
}

// nextFileIn is the directory a block creates with mkdir when its lead says the file that
// follows goes in it ("" otherwise).
func nextFileIn(cb tutorial.CodeBlock, lead string) string {
	if !reNextFileIn.MatchString(lead) {
		return ""
	}
	for _, l := range strings.Split(cb.Content, "\n") {
		if w := firstWord(strings.TrimPrefix(strings.TrimSpace(l), "$ ")); w == "cp" || w == "mv" || w == "install" {
			return "" // "Put the module there:" over `mkdir -p …` and `cp Tides.pmod …`: done
		}
	}
	return mkdirIn(cb)
}

// mkdirIn is the folder the block's mkdir makes ("" when it has none).
func mkdirIn(cb tutorial.CodeBlock) string {
	for _, l := range strings.Split(cb.Content, "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "$ "))
		if len(f) >= 2 && f[0] == "mkdir" {
			return f[len(f)-1]
		}
	}
	return ""
}

// reREPL: the prompt of an interactive interpreter at the start of a line (Prolog's
// `?-`, Python's `>>>`, irb, GHCi, Scala, Guile, SQLite, MySQL, psql).
var reREPL = regexp.MustCompile(`^(\?-|>>>|irb\([^)]*\):\d+:\d+>|ghci>|Prelude>|scala>|scheme@\([\w-]+\)>|sqlite>|mysql>|\w+=[#>]|iex\(\d+\)>|julia>|utop #|gap>)(?:\s|$)`)

// replPrompt is the interpreter prompt a block opens with ("" when it does not): a
// session typed into a running program, with its answers, which is neither commands for
// a shell nor the content of a file.
func replPrompt(content string) string {
	for _, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if m := reREPL.FindStringSubmatch(t); m != nil {
			return m[1]
		}
		return ""
	}
	return ""
}

// reProgramSpan: a lone program name in code in the prose (`swipl`, `ledger`, `lua5.4`).
var reProgramSpan = regexp.MustCompile("`([a-z][a-z0-9_+-]*[a-z0-9](?:\\.[0-9]+)?)`")

// prosePrograms are the programs the tutorial names in its prose (a lone word in code)
// and those of the packages its commands install: a line of an untagged block that runs
// one of them is a command the tutorial means, though no table knows the program.
func prosePrograms(t *tutorial.Tutorial, blocks []tutorial.CodeBlock) map[string]bool {
	out := map[string]bool{}
	inBlock := map[int]bool{}
	for _, cb := range blocks {
		for ln := cb.StartLine; ln <= cb.EndLine; ln++ {
			inBlock[ln] = true
		}
		lines := make([]string, 0, len(cb.Commands))
		for _, c := range cb.Commands {
			lines = append(lines, c.Text)
		}
		if len(cb.Commands) == 0 && plainLangs[cb.Lang] {
			// an untagged or indented `sudo apt install rclone` installs it as well
			lines = strings.Split(cb.Content, "\n")
		}
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if f := strings.Fields(l); len(f) > 2 && reAptLine.MatchString(l) {
				for _, pkg := range f[2:] {
					for _, p := range packageCommands(pkg) {
						out[p] = true
					}
				}
			}
		}
	}
	for ln := 1; ln <= t.Map.LineCount(); ln++ {
		if inBlock[ln] {
			continue
		}
		for _, m := range reProgramSpan.FindAllStringSubmatch(tutorial.CodeTagsAsBackticks(t.Map.Line(ln)), -1) {
			out[m[1]] = true
		}
	}
	return out
}

// reFilesInto: the prose telling the reader to put the page's files into the folder
// the block makes ("Put the four files of this gist in one folder. … make the folder
// yourself and save each file into it").
var reFilesInto = regexp.MustCompile(`(?i)\b(?:put|save|copy|download|place)\b[^.]*\b(?:files|each file|every file)\b[^.]*\b(?:in|into) (?:it|one folder|the (?:same )?folder|a folder)\b`)

// intoFolder moves the files a page gives under their own headings (a gist's files) to
// where the prose tells the reader to save them into a folder: right after the block
// that makes and enters it, wherever the page shows them.
func intoFolder(t *tutorial.Tutorial, steps []step) []step {
	at := slices.IndexFunc(steps, func(s step) bool {
		return s.kind == runStep && s.command != nil && reFilesInto.MatchString(s.lead) && strings.Contains(" "+s.command.Text, " cd ")
	})
	if at < 0 {
		return steps
	}
	var files, rest []step
	for i, s := range steps {
		if s.kind == fileStep && s.file == headingFile(headingRightAbove(t, s.block)) && s.dir == "" && i != at {
			files = append(files, s)
			continue
		}
		rest = append(rest, s)
	}
	if len(files) == 0 {
		return steps
	}
	at = slices.IndexFunc(rest, func(s step) bool { return s.line == steps[at].line && s.kind == runStep })
	for at+1 < len(rest) && rest[at+1].block.StartLine == rest[at].block.StartLine && rest[at+1].kind == runStep {
		at++ // the block's last command
	}
	return slices.Concat(rest[:at+1], files, rest[at+1:])
}

// reMDLink: a Markdown link, its text kept.
var reMDLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)

// headingFile is the file a heading names all by itself: a gist's "📄 build.sh · Raw",
// "`src/main.rs`" ("" when the heading says anything else).
func headingFile(heading string) string {
	h := strings.TrimSpace(reMDLink.ReplaceAllString(heading, "$1"))
	h = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(h, "Raw")), "·"))
	h = strings.TrimLeftFunc(h, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '/' && r != '~' && r != '`'
	})
	h = strings.Trim(h, "`*_ ")
	if h == "" || strings.ContainsAny(h, " \t") || !looksLikePath(h) || path.Ext(h) == "" && !knownNames[path.Base(h)] {
		return ""
	}
	return h
}

// runsWritten: cb is one line that runs (as an interpreter's argument) the file the block
// prev was written to.
func runsWritten(cb tutorial.CodeBlock, steps []step, prev tutorial.CodeBlock) bool {
	line := strings.TrimSpace(cb.Content)
	f := strings.Fields(line)
	if strings.Contains(line, "\n") || len(f) < 2 || !knownCommands[f[0]] && !strings.HasPrefix(f[0], "python") {
		return false // (not Jupyter's "Writing counters.csv" under a %%writefile cell)
	}
	for _, s := range steps {
		if s.kind == fileStep && s.block.StartLine == prev.StartLine && f[1] == s.file {
			return true
		}
	}
	return false
}

// runNamed is the file a block's first comment names when the next block runs it by
// that name ("" when not): the comment is the file's name, the run is its use.
func runNamed(blocks []tutorial.CodeBlock, cb tutorial.CodeBlock) string {
	if cb.Shell || cb.Console || cb.Lang == "" {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(cb.Content), "\n")
	if strings.HasPrefix(lines[0], "#!") && len(lines) > 1 {
		lines = lines[1:]
	}
	m := reNameComment.FindStringSubmatch(strings.TrimSpace(lines[0]))
	if m == nil || !looksLikePath(m[1]) || path.Ext(m[1]) == "" {
		return ""
	}
	at := slices.IndexFunc(blocks, func(b tutorial.CodeBlock) bool { return b.StartLine == cb.StartLine })
	if at < 0 || at+1 >= len(blocks) || blocks[at+1].StartLine-cb.EndLine > 4 {
		return ""
	}
	for _, l := range strings.Split(blocks[at+1].Content, "\n") {
		if f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "$ ")); len(f) > 1 && slices.Contains(f[1:], m[1]) {
			return m[1]
		}
	}
	return ""
}

// secondNamed is the file a sentence names after the one the block right above was
// written to, when that sentence gives the two blocks their files in turn ("" when
// not).
func secondNamed(t *tutorial.Tutorial, blocks []tutorial.CodeBlock, cb tutorial.CodeBlock) string {
	prev, ok := blockRightBefore(t, blocks, cb)
	if !ok || prev.Shell || prev.Console || cb.Shell || cb.Console {
		return ""
	}
	lead := leadText(t, prev)
	first, _, _, named := fileTarget(prev, lead)
	if !named {
		return ""
	}
	sentence := lastSentence(lead)
	paths := rePathTick.FindAllStringSubmatch(sentence, -1)
	for i, p := range paths {
		if p[1] == first && i+1 < len(paths) && looksLikePath(paths[i+1][1]) && reWriteVerb.MatchString(sentence) {
			return paths[i+1][1]
		}
	}
	return ""
}

// stepPrograms are the programs the run steps so far run, well-known commands aside.
func stepPrograms(steps []step) map[string]bool {
	out := map[string]bool{}
	for _, s := range steps {
		if s.kind == runStep && s.command != nil {
			if w := firstWord(s.command.Text); !knownCommands[w] {
				out[w] = true
			}
		}
	}
	return out
}

// reToTheNoun: "to the journal", "into your Makefile".
var reToTheNoun = regexp.MustCompile(`(?i)\b(?:to|into|in|at the end of) (?:the|your) ([\w-]+)\b`)

// fileByNoun is the one file written so far that a sentence names by its kind: its
// extension or its name without one ("the journal" for 2026.journal); "" when none or
// several.
func fileByNoun(sentence string, written map[string]bool) string {
	m := reToTheNoun.FindStringSubmatch(sentence)
	if m == nil {
		return ""
	}
	noun := strings.ToLower(m[1])
	found := ""
	for f := range written {
		base := strings.ToLower(path.Base(f))
		ext := strings.TrimPrefix(path.Ext(base), ".")
		if ext == noun || strings.TrimSuffix(base, path.Ext(base)) == noun && ext == "" {
			if found != "" {
				return ""
			}
			found = f
		}
	}
	return found
}

// read turns the tutorial into steps.
func read(t *tutorial.Tutorial) []step {
	sc := scan(t.Map)
	blocks := allBlocks(t)
	var steps []step
	followed := map[string]string{} // methods parent heading path → the sub-section followed
	current := ""                   // the file the tutorial last told the reader to write
	written := map[string]bool{}    // files blocks were written to so far
	filesDir := ""                  // the directory the prose says every file goes in
	nextDir := ""                   // the directory the prose says the next file goes in
	programs := prosePrograms(t, blocks)
	var repl *replSession // the interpreter the reader is typing into, if any
	prevEnd := 0          // the last line of the block before
	for _, cb := range blocks {
		steps = append(steps, proseSteps(t, blocks, prevEnd+1, cb.StartLine-1)...)
		prevEnd = max(prevEnd, cb.EndLine)
		lead := leadText(t, cb)
		if nb, ok := notebookShell(cb); ok {
			cb = nb // a notebook cell of `!` lines: what a reader types in a terminal
		}
		if d := everyFileIn(cb, lead); d != "" {
			filesDir = d
		} else if d := nextFileIn(cb, lead); d != "" {
			nextDir = d
		}
		add := func(s step) {
			s.block, s.lead = cb, lead
			if s.line == 0 {
				s.line = cb.StartLine
			}
			if s.kind == fileStep && s.dir == "" && !strings.Contains(s.file, "/") && reSameFolder.MatchString(lastSentence(lead)) {
				// "I added `publish.sh` to the same folder:": where the file before went
				for k := len(steps) - 1; k >= 0; k-- {
					if steps[k].kind == fileStep {
						s.beside = steps[k].file
						break
					}
				}
			}
			steps = append(steps, s)
		}
		if d := mystDirective(cb.Info); mystAsides[d] {
			add(step{kind: skipStep, reason: "optional: inside a side note (MyST {" + d + "})"})
			continue
		}
		if f, content, appendF, ok := notebookFile(cb); ok {
			add(step{kind: fileStep, file: f, appendF: appendF, content: content, reason: "a notebook's `%%writefile` cell"})
			written[f], current = true, f
			continue
		}
		// prose that names a file to create with no block of its own comes first
		if f, dir, at := proseFile(t, cb); f != "" && !blockIsFile(cb, lead, f) {
			add(step{kind: fileStep, file: f, dir: dir, line: at, reason: "the prose says to create it; no content shown"})
			current = joinDir(dir, f)
		}
		if isTree(cb.Content) {
			add(step{kind: skipStep, reason: "a directory tree, not commands"})
			continue
		}
		if answers := shownAnswers(cb.Content); len(answers) > 0 && !cb.Shell {
			if i := askedBy(steps, cb); i >= 0 {
				// "Here is a complete session:" under `pelican-quickstart`: the reader
				// answers its questions as shown
				steps[i].answers = answers
				add(step{kind: skipStep, reason: fmt.Sprintf("the questions `%s` (line %d) asks, with the answers typed at them", firstLine(steps[i].command.Text), steps[i].line)})
				continue
			}
		}
		if reOutputTitle.MatchString(cb.Info) {
			// ```html title="Output"``` under a command: what the command prints
			attachOutput(steps, cb)
			add(step{kind: skipStep, reason: "expected output (its title says so)"})
			continue
		}
		if p := replPrompt(cb.Content); p != "" {
			add(step{kind: skipStep, reason: "typed at an interactive prompt (`" + p + "`), not in a shell or a file"})
			continue
		}
		if cb.Shell && notShell(cb.Content) && (reNamelessFile.MatchString(lead) || reFileWord.MatchString(lastSentence(lead))) && sc.skipByScope(cb.StartLine) == "" {
			if _, _, _, named := fileTarget(cb, lead); !named {
				add(step{kind: askStep, reason: "file content in a shell block"})
				continue
			}
		}
		shell := cb.Shell || sc.codeGroup[cb.StartLine] > 0 && (cb.Lang == "linux" || cb.Lang == "bash" || cb.Lang == "sh" || cb.Lang == "shell")
		if why := skipWhy(t, sc, blocks, cb, lead, followed); why != "" {
			if strings.HasPrefix(why, "expected output") {
				attachOutput(steps, cb)
			}
			// a skipped shell block keeps its commands, so whole-tutorial checks (an install
			// placed later, a version never installed) still see them
			if shell {
				for _, s := range shellSteps(cb, lead, "") {
					if s.command != nil {
						s.kind, s.reason = skipStep, why
						steps = append(steps, s)
					}
				}
				if len(cb.Commands) > 0 {
					continue
				}
			}
			add(step{kind: skipStep, reason: why})
			continue
		}
		fileLead := lead
		if strings.TrimSpace(lead) == "" {
			// a block right under a command block: "save the lines below as X" above the
			// commands names this block
			if prev, ok := blockRightBefore(t, blocks, cb); ok && (prev.Shell || prev.Console) && (reBelowWord.MatchString(leadText(t, prev)) || quietOnly(prev) && namesFileOf(cb, leadText(t, prev))) {
				// (or the commands only make and enter a folder, and the lead names a file
				// of this block's language: "…, and save the October export as
				// `data/sales.csv`:" over `mkdir -p …` and `cd …`, then the CSV)
				// (a console session of `$ ` lines is typed, whatever file its lead names:
				// "save this as `fib_py.py` in it:" over `$ mkdir -p ~/x && cd ~/x`)
				if _, _, _, prevIsFile := fileTarget(prev, leadText(t, prev)); !prevIsFile || prev.Console && promptLines(strings.Split(prev.Content, "\n")) {
					fileLead = leadText(t, prev)
				}
			}
		}
		if f := headingFile(headingRightAbove(t, cb)); f != "" && strings.TrimSpace(fileLead) == "" {
			// a gist's files, each under its name: "#### 📄 build.sh · [Raw](…)"
			fileLead = "Save this as `" + f + "`:"
		}
		if f := runNamed(blocks, cb); f != "" {
			// `# portcheck.py - connect() to each port`, then `python portcheck.py 8000`
			// in the block right after it
			if _, _, _, named := fileTarget(cb, fileLead); !named {
				fileLead = "Save this as `" + f + "`:"
			}
		}
		if f := secondNamed(t, blocks, cb); f != "" && strings.TrimSpace(fileLead) == "" {
			// "Save the amplicon as `queries/q1.fa` and the primers as
			// `queries/primers.fa`:" over two blocks: this is the second
			fileLead = "Save this as `" + f + "`:"
		}
		if f, content, ok := labelledFile(cb); ok {
			// DigitalOcean's `[label ~/lb/haproxy.cfg]` first line names the file
			switch {
			case reLooksLike.MatchString(lastSentence(fileLead)):
				add(step{kind: fileStep, file: f, merge: true, content: content, reason: "a part of " + f + " as it should now read"})
			default:
				add(step{kind: fileStep, file: f, content: content})
			}
			written[f] = true
			current = f
			continue
		}
		if f := mergeTarget(cb, fileLead); f != "" {
			// "In `bookshelf/urls.py`, add one line to `urlpatterns` so it looks like
			// this:": the part shown replaces its counterpart in the file
			add(step{kind: fileStep, file: f, merge: true, content: fileContent(cb), reason: "a part of " + f + " as it should now read"})
			current = f
			continue
		}
		if _, _, _, named := fileTarget(cb, fileLead); !named && !cb.Shell && !cb.Console && !looksLikeShell(cb, programs) {
			if m := reSavedAbove.FindStringSubmatch(firstSentence(proseAfter(t, cb.EndLine))); m != nil && looksLikePath(m[1]) {
				// the block, then "Save it as `babel-init.el`."
				fileLead = "Save this as `" + m[1] + "`:"
			}
		}
		if m := reChangePart.FindStringSubmatch(lastSentence(fileLead)); m != nil && written[m[1]] && !cb.Shell && !looksLikeShell(cb, programs) {
			// "Skip null entries by replacing the loop body in `wordcount.c`:": the part
			// shown replaces its counterpart in the file written before
			add(step{kind: fileStep, file: m[1], merge: true, content: fileContent(cb), reason: "a part of " + m[1] + " as it should now read"})
			current = m[1]
			continue
		}
		if file, dir, appendF, ok := fileTarget(cb, fileLead); ok && !isHeredocOnly(cb) && !(cb.Console && promptLines(strings.Split(cb.Content, "\n"))) {
			// (a console session of `$ ` lines is typed, whatever path the lead names)
			for _, again := range savedAgain(steps, fileLead, file) {
				// "Save your `wordfreq.icn` there, plus this `sample.txt`:" once the reader
				// has moved into a new folder: the file shown before goes there too
				add(again)
			}
			if dir == "" && filesDir != "" && !strings.HasPrefix(file, "/") && !strings.HasPrefix(file, "~") {
				dir = filesDir // "save every file from this sheet in it"
			}
			if dir == "" && nextDir != "" && !strings.HasPrefix(file, "/") && !strings.HasPrefix(file, "~") {
				dir = nextDir // "Create a scratch folder and save the following file in it."
			}
			nextDir = ""
			if m := reSaveItIn.FindStringSubmatch(firstSentence(proseAfter(t, cb.EndLine))); m != nil && dir == "" && !strings.Contains(file, "/") {
				dir = m[1] // the block, then "Save it in `~/project`, make it executable and run it:"
			}
			if m := reCreateIn.FindStringSubmatch(fileLead); m != nil && dir == "" && !strings.Contains(file, "/") && !looksLikePath(m[1]) {
				dir = m[1] // "Create the script below in `~/lab5` with your editor." over "**File:** `contact.sh`"
			}
			if !appendF && written[joinDir(dir, file)] && file == namedByLanguage(cb, fileLead) && !reAppendVerb.MatchString(fileLead) {
				// "In `app.py`, the part that matters:" once app.py exists: an excerpt
				add(step{kind: skipStep, reason: "an excerpt of " + file + ", which an earlier block wrote"})
				continue
			}
			if written[joinDir(dir, file)] && reChangePart.MatchString(lastSentence(fileLead)) {
				// "and change the counting loop in `main.rkt` to skip them:": the part shown
				// replaces its counterpart in the file written before
				add(step{kind: fileStep, file: file, dir: dir, merge: true, content: fileContent(cb), reason: "a part of " + file + " as it should now read"})
				current = joinDir(dir, file)
				continue
			}
			if m := reAbove.FindStringSubmatch(lastSentence(fileLead)); m != nil && !cb.Shell && !rePrepend.MatchString(lastSentence(fileLead)) {
				// "Paste the following into `build.xml`, just above the closing
				// `</project>` tag:"
				written[joinDir(dir, file)] = true
				add(step{kind: fileStep, file: file, dir: dir, before: m[1], content: fileContent(cb), reason: "inserted above `" + m[1] + "` in " + file})
				current = joinDir(dir, file)
				continue
			}
			if written[joinDir(dir, file)] && !appendF && opensMore(fileContent(cb)) {
				// notes.pl again from its first line to the middle of a sub, braces left
				// open: the part of the file the change is in, not all of it
				add(step{kind: fileStep, file: file, dir: dir, merge: true, content: fileContent(cb), reason: "a part of " + file + " as it should now read (it stops with brackets open)"})
				current = joinDir(dir, file)
				continue
			}
			prepend := written[joinDir(dir, file)] && rePrepend.MatchString(lastSentence(fileLead))
			written[joinDir(dir, file)] = true
			add(step{kind: fileStep, file: file, dir: dir, appendF: appendF && !prepend, prepend: prepend, content: fileContent(cb)})
			current = joinDir(dir, file)
			continue
		}
		switch {
		case repl != nil && repl.shell && typedAtShell(cb):
			// `$ fish`, then blocks of `> ` lines: typed into that shell
			ss, open := shellSessionSteps(cb, strings.Split(cb.Content, "\n"), cb.ContentLines, lead, repl)
			steps = append(steps, ss...)
			if !open {
				repl = nil
			}
		case shell:
			heuristic := ""
			if lines := strings.Split(cb.Content, "\n"); cb.Console && len(cb.Commands) == 0 && !promptLines(lines) && len(cb.ContentLines) >= len(lines) && (looksLikeShell(cb, programs) || bareCommands(lines) && !reOutputLead.MatchString(lastSentence(lead))) {
				// a codelab's `console` block of bare commands (`mkdir -p ~/x`, `cd ~/x`):
				// no prompt to tell them from output, and every line is a command
				cb.Commands = tutorial.SplitCommands(lines, cb.ContentLines, false)
				heuristic = "a console block without prompts, every line a known command"
			}
			ss := shellSteps(cb, lead, heuristic)
			repl = nil
			for i := range ss {
				// DigitalOcean's `super_user` fence: commands typed in root's shell
				ss[i].root = cb.Lang == "super_user" && ss[i].kind == runStep
				if r := replStart(ss[i]); r != nil && i == len(ss)-1 {
					// `octave-cli` as the block's last line, and cells to type into it below
					repl = r
					ss[i].kind, ss[i].reason = skipStep, "starts the "+r.prog+" interpreter; the "+r.lang+" blocks below are typed into it"
					if r.shell {
						ss[i].reason = "starts " + r.prog + "; the `> ` lines below are typed into it"
						// the `> ` lines the block shows under it are its first commands
						lines, at := blockLinesAfter(cb, ss[i].command.EndLine)
						more, open := shellSessionSteps(cb, lines, at, lead, r)
						ss = append(ss, more...)
						if !open {
							repl = nil
						}
						break
					}
				}
			}
			steps = append(steps, ss...)
		case repl != nil && repl.takes(cb):
			c := &tutorial.Command{Text: cb.Content, StartLine: cb.ContentStartLine, EndLine: cb.EndLine}
			add(step{kind: runStep, command: c, line: cb.ContentStartLine, repl: repl.prog, reason: "typed into " + repl.prog + ", started at line " + fmt.Sprint(repl.line)})
		case cb.Lang == "output" || cb.Lang == "log":
			// Linode's ```output fence under a ```command one: what the command prints
			if prev, ok := blockRightBefore(t, blocks, cb); ok && (prev.Shell || prev.Console || ranBlock(steps, prev)) {
				attachOutput(steps, cb)
			}
			add(step{kind: skipStep, reason: "output (its fence says so)"})
		case cb.Lang == "" || cb.Lang == "text" || cb.Lang == "txt" || cb.Lang == "plaintext" || noLanguage[cb.Lang]:
			prev, right := blockRightBefore(t, blocks, cb)
			if right && runsWritten(cb, steps, prev) {
				// `python portcheck.py 8000` right under the block written as portcheck.py
				lines := strings.Split(cb.Content, "\n")
				cb.Commands = tutorial.SplitCommands(lines, cb.ContentLines, promptLines(lines))
				steps = append(steps, shellSteps(cb, lead, "untagged block read as a command (it runs the file the block above was saved as)")...)
				continue
			}
			ran := stepPrograms(steps)
			if right && (prev.Shell || prev.Console || ranBlock(steps, prev)) {
				ran = nil // (`node up` under the command that printed it)
			}
			if ss, ok := untaggedSteps(cb, lead, programs, ran, headingRightAbove(t, cb)); ok {
				steps = append(steps, ss...)
				continue
			}
			if current != "" && reAppendVerb.MatchString(lead) && !looksLikeShell(cb, programs) && !namesOtherFile(t, lead, current) {
				add(step{kind: fileStep, file: current, appendF: true, content: fileContent(cb), reason: "a fragment of " + current + " (the prose says to add it)"})
				continue
			}
			if reNamelessFile.MatchString(lead) && !reOutputLead.MatchString(lead) {
				add(step{kind: askStep})
				continue
			}
			if prev, ok := blockRightBefore(t, blocks, cb); ok && (prev.Shell || prev.Console || ranBlock(steps, prev)) {
				// an untagged block right under a command block: what it prints
				attachOutput(steps, cb)
			}
		default:
			if current != "" && reAppendVerb.MatchString(lead) && sameLanguage(cb.Lang, current) {
				add(step{kind: fileStep, file: current, appendF: true, content: fileContent(cb), reason: "a fragment of " + current + " (the prose says to add it)"})
				continue
			}
			if f := fileByNoun(lastSentence(lead), written); f != "" && reAppend.MatchString(lastSentence(lead)) {
				// "Append it to the journal:" when the tutorial wrote 2026.journal
				add(step{kind: fileStep, file: f, appendF: true, content: fileContent(cb), reason: "appended to " + f + " (the prose names it by its kind)"})
				continue
			}
			if reNamelessFile.MatchString(lead) && !reOutputLead.MatchString(lead) {
				add(step{kind: askStep})
				continue
			}
			if prev, ok := blockRightBefore(t, blocks, cb); ok && dataLangs[cb.Lang] && (prev.Shell || prev.Console || ranBlock(steps, prev)) {
				// ```json right under `curl -s …/notes`: the answer it prints
				attachOutput(steps, cb)
				add(step{kind: skipStep, reason: "expected output (a " + cb.Lang + " block right under the command)"})
			}
		}
	}
	for i := range steps {
		if steps[i].kind == skipStep {
			continue
		}
		if heading := foreignHeadingOf(t, steps[i].line); heading != "" {
			steps[i].kind, steps[i].reason = skipStep, "section for another system ("+heading+")"
		}
	}
	skipPreviews(steps)
	skipRemoteSession(steps)
	steps = intoFolder(t, steps)
	steps = append(steps, proseSteps(t, blocks, prevEnd+1, t.Map.LineCount())...)
	steps = saveFromBelow(t, steps)
	followNeeded(steps)
	return steps
}

// reToNoun: what a sentence adds something to ("add one line to the same anacrontab").
var reToNoun = regexp.MustCompile(`(?i)\b(?:to|into|in) (?:the|your|that) (?:same )?([\w.-]+)`)

// fileNouns: words that name the file being written, whatever it is.
var fileNouns = map[string]bool{"file": true, "script": true, "config": true, "configuration": true, "end": true, "bottom": true, "top": true, "program": true, "module": true}

// namesOtherFile: the lead adds the block to a file it names by a word that is not the
// file the tutorial last wrote, and that the tutorial uses as a file's name elsewhere
// ("add one line to the same anacrontab" after prune-backups.sh, where the commands read
// ~/.local/etc/anacrontab; not "add albums data to the list of albums").
func namesOtherFile(t *tutorial.Tutorial, lead, current string) bool {
	for _, sentence := range sentences(lead) {
		v := reAppendVerb.FindStringIndex(sentence)
		if v == nil {
			continue
		}
		m := reToNoun.FindStringSubmatch(sentence[v[0]:])
		if m == nil || fileNouns[strings.ToLower(m[1])] || strings.Contains(strings.ToLower(path.Base(current)), strings.ToLower(m[1])) {
			return false
		}
		return regexp.MustCompile("[/`]" + regexp.QuoteMeta(m[1]) + "(?:[`\\s\"']|$)").MatchString(t.Body)
	}
	return false
}

// reYourFile: "your `wordfreq.icn`", a file the reader has from before, in a sentence
// that says to save or copy files.
var (
	reYourFile  = regexp.MustCompile("(?i)\\byour\\s+`([^`\\s]+)`")
	reSaveVerbs = regexp.MustCompile(`(?i)\b(?:save|put|copy|keep|place)\b`)
)

// savedAgain: the steps that write again, where the reader now is, the files of the
// tutorial that a sentence of the lead has the reader save beside the block's file
// ("Save your `wordfreq.icn` there, plus this `sample.txt`"), with what they last held.
func savedAgain(steps []step, lead, file string) []step {
	var out []step
	for _, sentence := range sentences(lead) {
		if !reSaveVerbs.MatchString(sentence) {
			continue
		}
		for _, m := range reYourFile.FindAllStringSubmatch(sentence, -1) {
			if m[1] == file || !looksLikePath(m[1]) {
				continue
			}
			for j := len(steps) - 1; j >= 0; j-- {
				if s := steps[j]; s.kind == fileStep && s.file == m[1] && s.content != "" && !s.merge && !s.appendF && !s.prepend && s.before == "" {
					out = append(out, step{kind: fileStep, file: m[1], content: s.content, reason: fmt.Sprintf("saved again where the reader now is, as line %d shows it", s.line)})
					break
				}
			}
		}
	}
	return out
}

// reSaveBelow: the prose has the reader save the files a section further down shows
// before going on ("save the four files from the *Files* section below under
// `tools/lnav/` in it:"), naming the section.
var reSaveBelow = regexp.MustCompile(`(?i)\bsave\b[^.]{0,60}\bfiles?\b[^.]{0,20}\bthe [*_]*([\w -]+?)[*_]* section below\b`)

// saveFromBelow writes the files of a section further down where the prose has the reader
// save them, right after the block of that step: a pull request's "How to test" over
// its "Files" section.
func saveFromBelow(t *tutorial.Tutorial, steps []step) []step {
	for i := 0; i < len(steps); i++ {
		m := reSaveBelow.FindStringSubmatch(steps[i].lead)
		if m == nil || steps[i].kind == fileStep {
			continue
		}
		name := strings.ToLower(strings.TrimSpace(m[1]))
		at := i // the last step of the block the sentence leads
		for at+1 < len(steps) && steps[at+1].block.StartLine == steps[i].block.StartLine && steps[at+1].kind != fileStep {
			at++
		}
		var moved, rest []step
		for j, s := range steps {
			if j > at && s.kind == fileStep && s.line > steps[i].line {
				if h := t.Map.HeadingPath(s.line); len(h) > 0 && strings.HasPrefix(strings.ToLower(strings.Trim(h[len(h)-1], "*_ ")), name) {
					s.reason = fmt.Sprintf("saved where line %d says to (\"%s\")", steps[i].line, loop.Clip(m[0], 80))
					moved = append(moved, s)
					continue
				}
			}
			rest = append(rest, s)
		}
		if len(moved) == 0 {
			continue
		}
		out := append(append(append([]step(nil), rest[:at+1]...), moved...), rest[at+1:]...)
		return out
	}
	return steps
}

// followNeeded runs the optional blocks that make what later steps use and nothing else
// makes: "If you don't want to try this on your real notes first, make a small practice
// folder:" on a fresh machine, where there are no notes, before `rdiff-backup backup
// ~/notes …`.
func followNeeded(steps []step) {
	for i := range steps {
		s := &steps[i]
		if s.kind != skipStep || s.command == nil || !strings.HasPrefix(s.reason, "an alternative or example") && !strings.HasPrefix(s.reason, "optional") {
			continue
		}
		var made []string
		for j := range steps {
			if steps[j].block.StartLine == s.block.StartLine && steps[j].command != nil {
				for _, p := range predict(steps[j].command.Text).paths {
					if strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "/") {
						made = append(made, p, path.Dir(p))
					}
				}
			}
		}
		if len(made) == 0 || madeBefore(steps, s.block.StartLine, made) || !usedLater(steps, s.line, made) {
			continue
		}
		for j := range steps {
			if t := &steps[j]; t.block.StartLine == s.block.StartLine && t.command != nil && t.kind == skipStep {
				t.kind, t.reason = runStep, "followed although optional ("+t.reason+"): later steps use what it makes, and no other step makes it"
			}
		}
	}
}

// madeBefore: a step of an earlier block that runs makes one of the paths.
func madeBefore(steps []step, block int, paths []string) bool {
	for _, s := range steps {
		if s.block.StartLine >= block || s.kind != runStep || s.command == nil {
			continue
		}
		for _, p := range predict(s.command.Text).paths {
			if slices.Contains(paths, p) {
				return true
			}
		}
	}
	return false
}

// usedLater: a step after line that runs names one of the paths (not "~" or "/").
func usedLater(steps []step, line int, paths []string) bool {
	for _, s := range steps {
		if s.line <= line || s.kind != runStep || s.command == nil {
			continue
		}
		for _, p := range paths {
			if p != "~" && p != "/" && p != "." && refersTo(s.command.Text, p) {
				return true
			}
		}
	}
	return false
}

// skipPreviews skips commands that run a script the tutorial only creates later (a
// README's usage example above its install steps): they show what is coming.
func skipPreviews(steps []step) {
	for i := range steps {
		s := &steps[i]
		if s.kind != runStep || s.command == nil {
			continue
		}
		w := firstWord(s.command.Text)
		if !strings.HasPrefix(w, "./") && !(strings.Contains(w, "/") && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~")) {
			continue
		}
		target := path.Clean(strings.TrimPrefix(w, "./"))
		for j, later := range steps {
			if later.kind != fileStep || path.Base(later.file) != path.Base(target) {
				continue
			}
			if j > i {
				s.kind, s.reason = skipStep, fmt.Sprintf("a preview: the tutorial creates `%s` later (line %d)", later.file, later.line)
			}
			break
		}
	}
}

// reSSHLogin: an ssh that opens a shell on another machine (no remote command).
var reSSHLogin = regexp.MustCompile(`^ssh(?:\s+-[46AaCfGgKkMNnqsTtVvXxYy]+|\s+-[BbcDEeFIiJLlmOoPpQRSWw]\s*\S+)*\s+([\w.@-]+)\s*$`)

// skipRemoteSession: `ssh tftp01.lab.example.internal` logs in to another machine, and the
// block's commands after it are typed there: none of them runs here.
func skipRemoteSession(steps []step) {
	remote, block, at := "", -1, 0
	for i := range steps {
		s := &steps[i]
		if s.kind != runStep || s.command == nil {
			continue
		}
		if block >= 0 && s.block.StartLine == block {
			s.kind, s.reason = skipStep, fmt.Sprintf("typed on `%s`, where line %d's ssh logged in", remote, at)
			continue
		}
		block = -1
		if m := reSSHLogin.FindStringSubmatch(strings.TrimSpace(s.command.Text)); m != nil && s.command.EndLine < s.block.EndLine-1 && !reLocalHost.MatchString(m[1]) {
			remote, block, at = m[1], s.block.StartLine, s.line
			s.kind, s.reason = skipStep, fmt.Sprintf("logs in to `%s`, a machine of the reader's own, which the sandbox cannot reach", remote)
		}
	}
}

// dataLangs: languages of data a command prints (an API's JSON answer) as well as of
// files.
var dataLangs = map[string]bool{"json": true, "xml": true, "html": true, "yaml": true, "yml": true, "csv": true}

// reOutputTitle: a block's title or caption that says it is output.
var reOutputTitle = regexp.MustCompile(`(?i)\b(?:title|caption)\s*=\s*"(?:output|result|terminal output|expected output|response)"`)

// opensMore: text that opens more braces, brackets or parentheses than it closes: a
// program cut off in the middle.
func opensMore(text string) bool {
	for _, p := range []string{"{}", "[]", "()"} {
		if strings.Count(text, p[:1]) > strings.Count(text, p[1:]) {
			return true
		}
	}
	return false
}

// quietOnly: every command of the block prints nothing when it works (mkdir, cd…).
func quietOnly(cb tutorial.CodeBlock) bool {
	for _, c := range cb.Commands {
		for _, part := range splitList(c.Text) {
			if !quiet[firstWord(part)] {
				return false
			}
		}
	}
	return len(cb.Commands) > 0
}

// namesFileOf: the last sentence of lead names, in code after a write verb, a file in
// cb's language.
func namesFileOf(cb tutorial.CodeBlock, lead string) bool {
	last := lastSentence(lead)
	v := reWriteVerb.FindStringIndex(last)
	if v == nil || cb.Lang == "" {
		return false
	}
	for _, m := range rePathTick.FindAllStringSubmatch(last[v[1]:], -1) {
		if looksLikePath(m[1]) && sameLanguage(cb.Lang, m[1]) {
			return true
		}
	}
	return false
}

// reBelowWord: prose that points past the block it stands over ("save the lines below
// as `access.log`"), unlike a sentence that only names a file ("morbo restarts the
// application whenever you save `notes.pl`").
var reBelowWord = regexp.MustCompile(`(?i)\b(?:below|following|next|underneath|after (?:it|this|that|them))\b`)

// reAbove: the prose puts the block into a file above a line it quotes ("just above the
// closing `</project>` tag", "before the line `exit 0`").
var reAbove = regexp.MustCompile("(?i)\\b(?:just |right |directly )?(?:above|before) the (?:closing |last |final )?(?:line )?`([^`]+)`")

// reChangePart: the prose changes a named part of a file ("change the counting loop in
// `main.rkt`", "update the handler of `app.js`").
var reChangePart = regexp.MustCompile("(?i)\\b(?:chang|updat|modif|edit|rewrit|replac|adjust)(?:e|es|y|ies|ing|ying)?\\s+(?:the|its|your)\\s+[\\w -]{1,40}?\\s+(?:in|of)\\s+`([^`\\s]+)`")

// reCreateIn: the lead says to create the block's file in a folder it gives by an
// absolute or home path.
var reCreateIn = regexp.MustCompile("(?i)\\b(?:create|save|write|put|place|keep|store)\\b[^.;:]*?\\bin\\s+`([~/][\\w./~-]*)`")

// reSaveItIn: prose right under a file's block that says which folder it goes in.
var reSaveItIn = regexp.MustCompile("(?i)^\\s*(?:save|put|place|keep) (?:it|this|the (?:file|script|program)) (?:in|into|under|to) (?:the folder |the directory )?`([~./]?[\\w./~-]+)`")

// ranBlock: the last step read is a command of block b (an untagged block read as
// commands).
func ranBlock(steps []step, b tutorial.CodeBlock) bool {
	return len(steps) > 0 && steps[len(steps)-1].kind == runStep && steps[len(steps)-1].block.StartLine == b.StartLine
}

// attachOutput gives an output block to the command right before it (the last command
// of the previous block, when nothing but prose lies between).
func attachOutput(steps []step, out tutorial.CodeBlock) {
	for i := len(steps) - 1; i >= 0; i-- {
		s := &steps[i]
		if s.command == nil {
			continue
		}
		if s.kind == runStep && s.block.EndLine < out.StartLine && out.StartLine-s.block.EndLine <= 6 && s.command.Output == "" {
			s.expected = knitrOutput(out.Content)
		}
		return
	}
}

// knitrOutput is an output block without the comment knitr puts before every line of a
// chunk's output ("#> chr1	120", or "## " by default) when every line has it.
func knitrOutput(content string) string {
	for _, re := range reKnitrComments {
		if everyLineMatches(content, re) {
			return re.ReplaceAllString(content, "")
		}
	}
	return content
}

// reKnitrComments: knitr's output comments, "#> " and the default "## ".
var reKnitrComments = []*regexp.Regexp{regexp.MustCompile(`(?m)^#>(?: |$)`), regexp.MustCompile(`(?m)^##(?: |$)`)}

// offeredDefault: the default a program offers at its question ("[en]", "(Y/n)", "[.]");
// reDefault finds it, reOffered finds a question with it offered right after
// ("Continue? [Y/n] y", "Project name [demo]: blog"; not a log line's "LOG5[ui]: …").
const offeredDefault = `(?:\[[^\]\n]{0,40}\]|\((?i:y/n|yes/no|n/y|no/yes)\))`

var (
	reDefault = regexp.MustCompile(offeredDefault)
	reOffered = regexp.MustCompile(`(?i)\?\s*` + offeredDefault + `(.*)$|\w\s+` + offeredDefault + `:(.*)$`)
)

// shownAnswers reads a shown interactive session (what a setup wizard asks and what the
// reader typed): "> What is your time zone? [Europe/Rome] Europe/Berlin" answers
// "Europe/Berlin", "> How many articles per page? [10]" takes the default (""). The answer
// follows the offered default, else the question mark of a "> " question; a placeholder
// for the reader's own name gets a plausible value. nil unless at least two lines are
// answered questions and none is a shell prompt.
func shownAnswers(content string) []string {
	var answers []string
	for _, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, "# ") {
			return nil
		}
		body, quoted := strings.CutPrefix(t, "> ")
		answer, asked := "", false
		ms := reDefault.FindAllStringIndex(body, -1)
		q, c := strings.Index(body, "?"), strings.Index(body+" ", ": ")
		switch {
		case quoted && ms != nil:
			// "> Do you want a URL prefix? e.g., https://example.com   (Y/n) n",
			// "> Project language [en]: fr"
			answer, asked = strings.TrimPrefix(body[ms[len(ms)-1][1]:], ":"), true
		case quoted && q > 0:
			answer, asked = body[q+1:], true // "> What will be the title? Field Notes"
		case quoted && c > 0:
			answer, asked = body[min(c+2, len(body)):], true // "> Project name: Widget"
		default:
			if m := reOffered.FindStringSubmatch(body); m != nil {
				answer, asked = m[1]+m[2], true
			}
		}
		if asked {
			answer, _ = substitutePersonal(strings.TrimSpace(answer))
			answers = append(answers, answer)
		}
	}
	if len(answers) < 2 {
		return nil
	}
	return answers
}

var (
	// reConfirmTyped: a confirmation question in a shown session with the reader's answer
	// after it ("Confirm request details: yes", "Proceed? [y/N] y")
	reConfirmTyped = regexp.MustCompile(`(?i)^(?:.*\b(?:confirm|continue|proceed|are you sure|overwrite|really)\b[^:?]*[:?]|.*[\[(](?:y/n|yes/no)[\])]\s*[:?]?)\s+(yes|y|no|n)\s*$`)
	// reAnswerYes: the prose tells the reader what to type at the question ("Answer `yes`
	// when asked to confirm", "Type `yes` and press Enter")
	reAnswerYes = regexp.MustCompile("(?i)\\b(?:answer|type|enter|reply)\\s+[`'\"“]?(yes|y)[`'\"”]?\\s+(?:when|at|to|and press (?:enter|return))\\b")
)

// confirmAnswers are what the reader types at a command's confirmation questions: the
// answers a shown session has after them, else the one the lead says to give (nil when
// neither).
func confirmAnswers(shown, lead string) []string {
	var answers []string
	for _, l := range strings.Split(shown, "\n") {
		if m := reConfirmTyped.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			answers = append(answers, m[1])
		}
	}
	if len(answers) == 0 {
		if m := reAnswerYes.FindStringSubmatch(lead); m != nil {
			answers = append(answers, m[1])
		}
	}
	return answers
}

// askedBy is the command a shown session belongs to: the last step read, a command of
// the block just above (only prose between, a few lines at most); -1 when there is none.
func askedBy(steps []step, session tutorial.CodeBlock) int {
	i := len(steps) - 1
	if i < 0 || steps[i].kind != runStep || steps[i].command == nil || steps[i].block.EndLine >= session.StartLine || session.StartLine-steps[i].block.EndLine > 10 {
		return -1
	}
	return i
}

// mystDirective is the directive of a MyST fence's info string ("{note}" → "note").
func mystDirective(info string) string {
	f := strings.Fields(info)
	if len(f) == 0 || !strings.HasPrefix(f[0], "{") || !strings.HasSuffix(f[0], "}") {
		return ""
	}
	return strings.Trim(f[0], "{}")
}

// reLooksLike: the block shows how (part of) a file should read after an edit.
var reLooksLike = regexp.MustCompile(`(?i)\b(?:so (?:that )?it (?:now )?(?:looks|reads) like|(?:should|will) now (?:look|read) like|(?:should|to) look like|looks like this now|make\b[^.]{0,60}\blook like)\b[^.]*:\s*$`)

// reLabelLine: DigitalOcean's label line that names a block's file (`[label app.py]`).
var reLabelLine = regexp.MustCompile(`^\[label ([^\]\s]+)\]$`)

// labelledFile is the file a block's `[label …]` first line names and the block's content
// without that line.
func labelledFile(cb tutorial.CodeBlock) (string, string, bool) {
	first, rest, _ := strings.Cut(cb.Content, "\n")
	m := reLabelLine.FindStringSubmatch(strings.TrimSpace(first))
	if m == nil || cb.Shell || !looksLikePath(m[1]) {
		return "", "", false
	}
	return m[1], rest, true
}

// reArity: a function named with its arity (`project/0`, `main/1`), not a path.
var reArity = regexp.MustCompile(`^[\w?!]+/\d+$`)

// mergeTarget is the file a block that is not shell shows part of, edited: the lead's
// last sentence names one file and says the block is how it should look.
func mergeTarget(cb tutorial.CodeBlock, lead string) string {
	last := lastSentence(lead)
	if cb.Shell || !reLooksLike.MatchString(last) {
		return ""
	}
	var files []string
	for _, m := range rePathTick.FindAllStringSubmatch(last, -1) {
		if looksLikePath(m[1]) && !reArity.MatchString(m[1]) && !slices.Contains(files, m[1]) {
			files = append(files, m[1])
		}
	}
	if len(files) != 1 {
		return ""
	}
	return files[0]
}

// replSession is an interpreter a shell line started with no script to run, into which
// the tutorial's later blocks of its language are typed.
type replSession struct {
	prog  string // the command that starts it, as the tutorial writes it
	lang  string // the language of the blocks typed into it
	line  int
	shell bool // a shell (`fish`): its commands are the `> ` lines of console blocks
}

// sessionShells: shells a tutorial starts from the reader's own to type the next
// commands into, at a `> ` prompt (fish's default).
var sessionShells = map[string]bool{"fish": true, "zsh": true, "ksh": true, "mksh": true, "tcsh": true, "csh": true, "dash": true}

// reShellPrompt: a command typed at a started shell's `> ` prompt.
var reShellPrompt = regexp.MustCompile(`^\s*>\s+(\S.*)$`)

// shellSessionSteps reads the `> ` lines of lines (tutorial lines lineNos) as commands
// typed into the shell r, each with the lines under it as its output, until an `exit`
// (which ends the session: it reports false).
func shellSessionSteps(cb tutorial.CodeBlock, lines []string, lineNos []int, lead string, r *replSession) ([]step, bool) {
	var cmds []tutorial.Command
	open := true
	for i, l := range lines {
		m := reShellPrompt.FindStringSubmatch(l)
		switch {
		case m == nil && len(cmds) > 0 && open:
			c := &cmds[len(cmds)-1]
			c.Output = strings.TrimLeft(c.Output+"\n"+l, "\n")
		case m != nil && open && strings.TrimSpace(m[1]) == "exit":
			open = false
		case m != nil && open:
			cmds = append(cmds, tutorial.Command{Text: strings.TrimSpace(m[1]), StartLine: lineNos[i], EndLine: lineNos[i]})
		}
	}
	if len(cmds) == 0 {
		return nil, open
	}
	nb := cb
	nb.Commands = cmds
	for i := range nb.Commands {
		nb.Commands[i].Output = strings.TrimRight(nb.Commands[i].Output, "\n ")
	}
	out := shellSteps(nb, lead, "typed into "+r.prog+", started at line "+fmt.Sprint(r.line))
	for i := range out {
		if out[i].kind == runStep {
			out[i].repl = r.prog
		}
	}
	return out, open
}

// typedAtShell: a block of commands at a `> ` prompt (its first line that is not blank).
func typedAtShell(cb tutorial.CodeBlock) bool {
	for _, l := range strings.Split(cb.Content, "\n") {
		if strings.TrimSpace(l) != "" {
			return reShellPrompt.MatchString(l)
		}
	}
	return false
}

// replLanguages: interpreters a tutorial starts bare, and the info-string languages of
// the blocks typed into them.
var replLanguages = map[string][]string{"octave-cli": {"octave", "matlab"}, "octave": {"octave", "matlab"}, "R": {"r"},
	"python3": {"python", "py", "python3"}, "python": {"python", "py"}, "lua": {"lua"}, "lua5.4": {"lua"}}

// reBareOptions: nothing after the program but options that keep it interactive
// (`octave-cli --quiet`, `R --no-save`); `python --version` runs and exits.
var reBareOptions = regexp.MustCompile(`^(?:\s+(?:-q|-i|--quiet|--silent|--interactive|--no-gui|--norc|--no-init-file|--no-save|--vanilla|--no-site-file|-E|-u))*\s*$`)

// replStart is the interpreter a run step starts with no script (nil when it starts none).
func replStart(s step) *replSession {
	if s.kind != runStep || s.command == nil {
		return nil
	}
	text := strings.TrimSpace(s.command.Text)
	prog := firstWord(text)
	if sessionShells[prog] && reBareOptions.MatchString(text[len(prog):]) {
		return &replSession{prog: text, lang: "console", line: s.line, shell: true}
	}
	langs, ok := replLanguages[prog]
	if !ok || !reBareOptions.MatchString(text[strings.Index(text, prog)+len(prog):]) {
		return nil
	}
	return &replSession{prog: text, lang: langs[0], line: s.line}
}

// takes: the block is code in the interpreter's language (a MyST `{code-cell} octave`
// included), to be typed at its prompt.
func (r *replSession) takes(cb tutorial.CodeBlock) bool {
	lang := cb.Lang
	if f := strings.Fields(cb.Info); len(f) > 1 && mystDirective(cb.Info) == "code-cell" {
		lang = strings.ToLower(f[1])
	}
	return slices.Contains(replLanguages[firstWord(r.prog)], lang)
}

// blockLinesAfter is the content of cb below tutorial line after, with its lines.
func blockLinesAfter(cb tutorial.CodeBlock, after int) ([]string, []int) {
	lines := strings.Split(cb.Content, "\n")
	for i, n := range cb.ContentLines {
		if n > after && i < len(lines) {
			return lines[i:], cb.ContentLines[i:min(len(cb.ContentLines), len(lines))]
		}
	}
	return nil, nil
}

// reProseStart: a sentence that has the reader start a server, in another terminal and
// left running, with the command in code at its end ("Start it in a second terminal and
// leave it running: `cd ~/pantry && python3 api.py`").
var reProseStart = regexp.MustCompile("(?i)\\b(?:start|run|launch|serve)\\b[^`.]*\\b(?:leave it running|keep it running|in (?:another|a second|a new|a separate) (?:terminal|shell|window|tab))\\b[^`]*:\\s*`([^`]+)`\\.?\\s*$")

// reProseFile: a sentence that gives a short file's lines in code at its end ("Create
// *tags.txt* with one tag per line: `backup`, `upload`, `backup`, `disk`.").
var reProseFile = regexp.MustCompile("(?i)\\b(?:create|make|write)\\s+(?:an?\\s+(?:new\\s+)?(?:text\\s+)?file\\s+(?:called\\s+|named\\s+)?)?[*_`]{0,2}([\\w~/.-]+\\.\\w+)[*_`]{0,2}\\s+(?:with|containing|that (?:contains|holds))\\s+(?:one\\s+[\\w -]+?\\s+(?:per|on each|a)\\s+line|the\\s+lines)\\b[^:`]*:\\s*((?:`[^`]+`[\\s,;]*(?:and\\s+|or\\s+)?)+)\\.?\\s*$")

// proseSteps are the steps the prose between lines from and to holds in code, each as a
// step of its own on its line: the servers it starts, and the short files it gives line
// by line.
func proseSteps(t *tutorial.Tutorial, blocks []tutorial.CodeBlock, from, to int) []step {
	var out []step
	for ln := from; ln <= to; ln++ {
		line := t.Map.Line(ln)
		if inAnyBlock(blocks, ln) {
			continue
		}
		if m := reProseFile.FindStringSubmatch(line); m != nil {
			var lines []string
			for _, c := range reCodeSpan.FindAllString(m[2], -1) {
				lines = append(lines, strings.Trim(c, "`"))
			}
			cb := tutorial.CodeBlock{Block: tutorial.Block{Kind: tutorial.KindParagraph, StartLine: ln, EndLine: ln}, ContentStartLine: ln, Content: strings.Join(lines, "\n"), ContentLines: []int{ln}}
			out = append(out, step{kind: fileStep, block: cb, file: m[1], content: cb.Content + "\n", line: ln, lead: line, reason: "a file the prose gives line by line"})
			continue
		}
		m := reProseStart.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := strings.TrimSpace(m[1])
		cb := tutorial.CodeBlock{Block: tutorial.Block{Kind: tutorial.KindParagraph, StartLine: ln, EndLine: ln}, Lang: "bash", ContentStartLine: ln, Content: text, ContentLines: []int{ln}, Shell: true}
		cb.Commands = tutorial.SplitCommands([]string{text}, []int{ln}, false)
		for _, c := range cb.Commands {
			out = append(out, step{kind: runStep, block: cb, command: &c, line: ln, lead: line, reason: "a server the prose starts with a command in code"})
		}
	}
	return out
}

// inAnyBlock: line ln lies inside a code block.
func inAnyBlock(blocks []tutorial.CodeBlock, ln int) bool {
	for _, cb := range blocks {
		if ln >= cb.StartLine && ln <= cb.EndLine {
			return true
		}
	}
	return false
}

// reSameFolder: prose that puts a file where the one before it went.
var reSameFolder = regexp.MustCompile(`(?i)\b(?:(?:in|into|to)\s+the\s+same\s+(?:folder|directory|place)|next\s+to\s+it|alongside\s+it|beside\s+it)\b`)
