package none

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

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
	content string
	reason  string // skipStep: why; runStep/fileStep: how a heuristic decided ("" when the markup said so)
	lead    string // the prose that introduces the block
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
	reOutputLead = regexp.MustCompile(`(?i)(\boutput\b[^.]*(?:similar|like|look|is|should|will|shows?)|\boutput\b\s*:?\s*$|you(?:'ll| will| should)? see\b|should (?:look|print|show|return|display)|will (?:look|print|show|display|return|output)|looks? (?:like|similar)|similar to\b|\bprints?:\s*$|\breturns?:\s*$|\bresponse\b.*:\s*$|example output|sample output|produces?:\s*$)`)
	// "Alternatively", "If your system doesn't have curl", "For example", "You can also"
	reAltLead = regexp.MustCompile(`(?i)^(?:\d+\.\s*)?(alternatively|or,|or you can|you (?:can|could|may) also|if you (?:prefer|'d prefer|would prefer|want to use|use|are using|'re using|need to|want to|do not want|don't want|would like)|if your (?:system|machine|distribution|distro|shell)|however,?[^.]*\bcan also\b|for example|e\.g\.|(?:to )?request a specific|if installing (?:from|with|via|using)|when another|optionally)`)
	reDontRun = regexp.MustCompile(`(?i)\b(do not|don't) (?:run|execute|type)\b|\bnot meant to be run\b`)
	// "On Windows:", "For macOS"
	reOSLead = regexp.MustCompile(`(?i)^(?:\d+\.\s*)?(?:on|for|in|using|with) ([\w ./+-]+?)\s*[:,]?\s*$`)
	// tree drawings: ├── └── │
	reTree = regexp.MustCompile(`[├└│]|^\s*[|` + "`" + `]--`)
	// "Package: redis" lines: configuration, not commands
	reKeyValue = regexp.MustCompile(`^\s*[A-Z][\w-]*:\s+\S`)
	// imperative leads before untagged command blocks
	reRunLead = regexp.MustCompile(`(?i)\b(run|type|enter|execute|issue|invoke|use the (?:following )?command|command|terminal|shell|prompt|install|start|create (?:a|the|your) (?:new )?(?:directory|folder|project))\b`)
	// parents whose sub-sections are alternatives to each other
	reMethodsHeading = regexp.MustCompile(`(?i)\b(methods?|options|alternatives|ways to|other ways|choose)\b`)
	// sub-sections naming an alternative way to install
	reAltMethodHeading = regexp.MustCompile(`(?i)^(git|manual(?:ly)?|source|from source|binary|binaries|docker|pip|pipx|cargo|npm|brew|homebrew|snap|package manager|github releases|unofficial|community)\b.*|.*\b(?:install(?:ation)?|upgrade|update) (?:from|with|via|using)\b.*|^manual (?:install|upgrade|update)`)
)

// read turns the tutorial into steps.
func read(t *tutorial.Tutorial) []step {
	sc := scan(t.Map)
	blocks := allBlocks(t)
	var steps []step
	followed := map[string]string{} // methods parent heading path → the sub-section followed
	current := ""                   // the file the tutorial last told the reader to write
	for _, cb := range blocks {
		lead := leadText(t, cb)
		add := func(s step) {
			s.block, s.lead = cb, lead
			if s.line == 0 {
				s.line = cb.StartLine
			}
			steps = append(steps, s)
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
		if cb.Shell && notShell(cb.Content) && (reNamelessFile.MatchString(lead) || reFileWord.MatchString(lastSentence(lead))) && sc.skipByScope(cb.StartLine) == "" {
			if _, _, _, named := fileTarget(cb, lead); !named {
				add(step{kind: askStep, reason: "file content in a shell block"})
				continue
			}
		}
		shell := cb.Shell || sc.codeGroup[cb.StartLine] > 0 && (cb.Lang == "linux" || cb.Lang == "bash" || cb.Lang == "sh" || cb.Lang == "shell")
		if why := skipWhy(t, sc, blocks, cb, lead, followed); why != "" {
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
		if file, dir, appendF, ok := fileTarget(cb, lead); ok && !isHeredocOnly(cb) {
			add(step{kind: fileStep, file: file, dir: dir, appendF: appendF, content: fileContent(cb)})
			current = joinDir(dir, file)
			continue
		}
		switch {
		case shell:
			steps = append(steps, shellSteps(cb, lead, "")...)
		case cb.Lang == "" || cb.Lang == "text" || cb.Lang == "txt" || cb.Lang == "plaintext":
			if ss, ok := untaggedSteps(cb, lead); ok {
				steps = append(steps, ss...)
				continue
			}
			if current != "" && reAppendVerb.MatchString(lead) && !looksLikeShell(cb) {
				add(step{kind: fileStep, file: current, appendF: true, content: fileContent(cb), reason: "a fragment of " + current + " (the prose says to add it)"})
				continue
			}
			if reNamelessFile.MatchString(lead) && !reOutputLead.MatchString(lead) {
				add(step{kind: askStep})
			}
		default:
			if current != "" && reAppendVerb.MatchString(lead) && sameLanguage(cb.Lang, current) {
				add(step{kind: fileStep, file: current, appendF: true, content: fileContent(cb), reason: "a fragment of " + current + " (the prose says to add it)"})
				continue
			}
			if reNamelessFile.MatchString(lead) && !reOutputLead.MatchString(lead) {
				add(step{kind: askStep})
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
	return steps
}

var reAppendVerb = regexp.MustCompile(`(?i)\b(paste|add|insert|append|beneath|below|above|after|replace|update|change)\b`)

// skipWhy says why a whole block is not followed ("" when it is).
func skipWhy(t *tutorial.Tutorial, sc *scopes, blocks []tutorial.CodeBlock, cb tutorial.CodeBlock, lead string, followed map[string]string) string {
	if windowsLangs[cb.Lang] {
		return "a " + cb.Lang + " block (Windows)"
	}
	if why := sc.skipByScope(cb.StartLine); why != "" {
		return why
	}
	if why := groupSkip(sc, blocks, cb); why != "" {
		return why
	}
	last := lastSentence(lead)
	if prev, ok := blockRightBefore(t, blocks, cb); ok && reEitherOr.MatchString(leadText(t, prev)) && (strings.TrimSpace(lead) == "" || strings.TrimSpace(lead) == strings.TrimSpace(leadText(t, prev))) {
		return "an alternative to the block right above it (\"" + loop.Clip(lastSentence(lead), 80) + "\")"
	}
	if reDontRun.MatchString(lead) {
		return "the tutorial says not to run it"
	}
	if m := reOSLead.FindStringSubmatch(last); m != nil && reOtherOS.MatchString(m[1]) && !reLinux.MatchString(m[1]) {
		return "for another system (\"" + strings.TrimSpace(last) + "\")"
	}
	if reAltLead.MatchString(firstSentence(lead)) || reAltLead.MatchString(last) {
		if !reNotYet.MatchString(lead) {
			return "an alternative or example (\"" + loop.Clip(firstSentence(lead), 80) + "\")"
		}
	}
	if (cb.Shell || cb.Lang == "") && reOutputLead.MatchString(last) && !reRunLeadStrong.MatchString(last) {
		return "expected output (\"" + loop.Clip(last, 80) + "\")"
	}
	if why := alternativeSection(t, cb.StartLine, followed); why != "" {
		return why
	}
	return ""
}

// blockRightBefore is the block that ends right above cb (only blank lines between).
func blockRightBefore(t *tutorial.Tutorial, blocks []tutorial.CodeBlock, cb tutorial.CodeBlock) (tutorial.CodeBlock, bool) {
	for i, b := range blocks {
		if b.StartLine != cb.StartLine || i == 0 {
			continue
		}
		prev := blocks[i-1]
		for n := prev.EndLine + 1; n < cb.StartLine; n++ {
			if strings.TrimSpace(t.Map.Line(n)) != "" {
				return tutorial.CodeBlock{}, false
			}
		}
		return prev, true
	}
	return tutorial.CodeBlock{}, false
}

var reEitherOr = regexp.MustCompile(`(?i)\beither\b|\b\w+ or \w+ command|one of the following|\bor\b[^.]*\bcommand\b`)

var (
	reNotYet        = regexp.MustCompile(`(?i)if you (?:have not|haven't|did not|didn't)`)
	reRunLeadStrong = regexp.MustCompile(`(?i)\b(run|type|enter|execute)\b`)
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
	for _, h := range t.Map.HeadingPath(line) {
		if foreignHeading(h) {
			return h
		}
	}
	return ""
}

var reDebianish = regexp.MustCompile(`(?i)\b(debian|ubuntu|raspberry pi os|apt|linux mint|pop!_os)\b`)
var reDistro = regexp.MustCompile(`(?i)\b(fedora|centos|red ?hat|rhel|amazon linux|opensuse|suse|arch|manjaro|alpine|gentoo|funtoo|void|nix|kiss|android|freebsd|netbsd|openbsd)\b`)

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
	for i := range cmds {
		c := &cmds[i]
		s := step{kind: runStep, block: cb, command: c, line: c.StartLine, lead: lead, reason: heuristic}
		if why := commandSkip(c.Text); why != "" {
			s.kind, s.reason = skipStep, why
		}
		out = append(out, s)
	}
	return out
}

var reFileWord = regexp.MustCompile(`(?i)\b(file|preferences|configuration|config)\b`)

// commandSkip says why a reader on Debian does not type this command ("" when they do).
func commandSkip(cmd string) string {
	w := firstWord(cmd)
	if sys, ok := otherOSPackageManagers[w]; ok {
		return "the package manager of " + sys
	}
	if rePlaceholder.MatchString(cmd) {
		return "needs a value the reader substitutes (" + rePlaceholder.FindString(cmd) + ")"
	}
	if what, ok := interactive[w]; ok {
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
func untaggedSteps(cb tutorial.CodeBlock, lead string) ([]step, bool) {
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
	last := lastSentence(lead)
	if reOutputLead.MatchString(last) || !reRunLead.MatchString(lead) || !looksLikeShell(cb) {
		return nil, false
	}
	cb.Commands = tutorial.SplitCommands(lines, cb.ContentLines, false)
	return shellSteps(cb, lead, "untagged block read as shell commands (the prose says to run it and every line starts with a known command)"), true
}

func promptLines(lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "$ ") {
			return true
		}
	}
	return false
}

// looksLikeShell: every non-blank, non-comment line starts with a known command.
func looksLikeShell(cb tutorial.CodeBlock) bool {
	n := 0
	for _, l := range strings.Split(cb.Content, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		n++
		if !knownCommands[firstWord(t)] {
			return false
		}
	}
	return n > 0
}

func isTree(content string) bool {
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
	n := 0
	for _, l := range strings.Split(content, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !reKeyValue.MatchString(l) {
			return false
		}
		n++
	}
	return n > 0
}

func isHeredocOnly(cb tutorial.CodeBlock) bool {
	return cb.Shell && strings.Contains(cb.Content, "<<")
}

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
	"yml": {".yaml", ".yml"}, "json": {".json"}, "html": {".html"}, "css": {".css"}, "java": {".java"}, "ruby": {".rb"},
	"c": {".c", ".h"}, "cpp": {".cpp", ".cc", ".h"},
}

func sameLanguage(lang, file string) bool {
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

// allBlocks is every code block of the tutorial plus Hugo {{< highlight >}} pairs (which
// Markdown parsers see as paragraphs), in document order.
func allBlocks(t *tutorial.Tutorial) []tutorial.CodeBlock {
	blocks := append([]tutorial.CodeBlock(nil), t.Map.CodeBlocks()...)
	n := t.Map.LineCount()
	for ln := 1; ln <= n; ln++ {
		m := reHighlightOpen.FindStringSubmatch(t.Map.Line(ln))
		if m == nil {
			continue
		}
		end := ln + 1
		for end <= n && !reHighlightClose.MatchString(t.Map.Line(end)) {
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
		cb := tutorial.CodeBlock{Block: tutorial.Block{Kind: tutorial.KindFencedCode, StartLine: ln, EndLine: end, Info: m[1], Text: strings.Join(lines, "\n")},
			Lang: strings.ToLower(m[1]), Content: strings.Join(lines, "\n"), ContentStartLine: ln + 1, ContentLines: nos}
		cb.Shell = cb.Lang == "bash" || cb.Lang == "sh" || cb.Lang == "shell" || cb.Lang == "console"
		if cb.Shell {
			console := cb.Lang == "console" || promptLines(lines)
			cb.Console = console
			cb.Commands = tutorial.SplitCommands(lines, nos, console)
			cb.Commands = firstCommandOnly(cb.Commands, lines, nos)
		}
		blocks = append(blocks, cb)
		ln = end
	}
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].StartLine < blocks[j].StartLine })
	return blocks
}

var (
	reHighlightOpen  = regexp.MustCompile(`^\s*\{\{[<%]\s*highlight\s+(\w+)`)
	reHighlightClose = regexp.MustCompile(`^\s*\{\{[<%]\s*/\s*highlight\s*[>%]\}\}`)
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
	if i := reSentenceEnd.FindStringIndex(s); i != nil {
		return s[:i[0]+1]
	}
	return s
}

func lastSentence(s string) string {
	s = strings.TrimSpace(s)
	parts := reSentenceEnd.Split(s, -1)
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
		if d := reInDir.FindStringSubmatch(text[strings.Index(text, m[0])+len(m[0]):]); d != nil {
			dir = strings.Trim(d[1], "`")
		}
		return file, dir, n
	}
	return "", "", 0
}

var (
	reCreateCalled = regexp.MustCompile("(?i)\\bcreate (?:a|an|the) (?:new )?file (?:called|named) `?([\\w./-]+\\.\\w+)`?")
	reInDir        = regexp.MustCompile("(?i)^\\s*in (?:the|your) `?([\\w./-]+)`?\\s+(?:directory|folder)")
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
