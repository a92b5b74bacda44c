package tutorial

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// prompt matches a console prompt: "$ ", "# ", "% ", optionally after "(venv) " or
// "user@host:~/dir".
var prompt = regexp.MustCompile(`^\s*(?:\([^)]*\)\s*)?(?:[\w.-]+@[\w.-]+(?::[^\s$#%]*)?\s*)?([$#%])(?:\s|$)`)

// promptStyle reports whether a shell block is written as a session: a line starts with
// a "$ " prompt (comments and output may come first).
func promptStyle(lines []string) bool {
	for _, l := range lines {
		if m := prompt.FindStringSubmatch(l); m != nil && m[1] == "$" && strings.TrimSpace(l) != "$" {
			return true
		}
	}
	return false
}

// IsDollarPrompt reports whether a line starts with a "$ " shell prompt, bare or after
// "user@host:~/dir" or "(venv) ".
func IsDollarPrompt(line string) bool {
	m := prompt.FindStringSubmatch(line)
	return m != nil && m[1] == "$" && strings.TrimSpace(line) != "$"
}

// SplitCommands splits shell text into commands: a console session (only prompt lines
// are commands, the rest is their output) or a script. lineNos are the tutorial lines of
// lines.
func SplitCommands(lines []string, lineNos []int, console bool) []Command {
	if console {
		return consoleCommands(lines, lineNos)
	}
	return scriptCommands(lines, lineNos)
}

// dollarPrompts reports whether a session uses "$ " prompts: then a bare "# " line is a
// comment, not a root prompt.
func dollarPrompts(lines []string) bool {
	for _, l := range lines {
		if m := prompt.FindStringSubmatch(l); m != nil && m[1] == "$" {
			return true
		}
	}
	return false
}

var reBareHash = regexp.MustCompile(`^\s*#`)

// consoleCommands splits a console session: prompt lines are commands (continued by a
// trailing backslash, open quotes, compound commands or here-documents; "> " secondary
// prompts are dropped), every other line is output of the command before it.
func consoleCommands(lines []string, lineNos []int) []Command {
	var out []Command
	dollar := dollarPrompts(lines)
	afterOutput := false // the line before is output of a command
	for i := 0; i < len(lines); {
		loc := prompt.FindStringSubmatchIndex(lines[i])
		if loc != nil && dollar && reBareHash.MatchString(lines[i]) {
			i++ // a comment in a "$ " session
			continue
		}
		if loc != nil && dollar && lines[i][loc[2]:loc[3]] == "%" && len(out) > 0 && (afterOutput || strings.Contains(lines[i], "   ")) {
			// in a "$ " session, a "% " line amid a command's output, or a row of columns,
			// is output (strace -c's "% time     seconds" header)
			loc = nil
		}
		afterOutput = false
		if loc == nil {
			afterOutput = strings.TrimSpace(lines[i]) != ""
			if len(out) > 0 {
				c := &out[len(out)-1]
				if c.Output != "" || lines[i] != "" {
					if c.Output != "" {
						c.Output += "\n"
					}
					c.Output += lines[i]
				}
			}
			i++
			continue
		}
		first := strings.TrimRight(lines[i][loc[1]:], " \t")
		if strings.TrimSpace(first) == "" {
			i++
			continue
		}
		n := joinCommand(lines, i, first, true)
		out = append(out, Command{Text: n.text, StartLine: lineNos[i], EndLine: lineNos[i+n.count-1]})
		i += n.count
	}
	for i := range out {
		out[i].Output = strings.TrimRight(out[i].Output, "\n ")
	}
	return out
}

// scriptCommands splits a shell script: every line that is not blank or a comment starts
// a command, which continues over backslash-newlines, open quotes, pipelines and lists
// ending in | && ||, compound commands (if … fi, for … done, { … }) and here-documents.
func scriptCommands(lines []string, lineNos []int) []Command {
	var out []Command
	for i := 0; i < len(lines); {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "#") {
			i++
			continue
		}
		n := joinCommand(lines, i, strings.TrimRight(lines[i], " \t"), false)
		out = append(out, Command{Text: n.text, StartLine: lineNos[i], EndLine: lineNos[i+n.count-1]})
		i += n.count
	}
	return out
}

type joined struct {
	text  string
	count int // physical lines used
}

// joinCommand gathers the command starting at lines[i] (whose text, prompt removed, is
// first) with every line that continues it.
func joinCommand(lines []string, i int, first string, console bool) joined {
	var sc shellScanner
	parts := []string{first}
	used := 1
	cur := first
	for {
		sc.scan(cur)
		// Here-documents: their bodies follow the line that opened them.
		for len(sc.heredocs) > 0 && i+used < len(lines) {
			h := sc.heredocs[0]
			body := lines[i+used]
			if console {
				body = strings.TrimPrefix(body, "> ")
			}
			parts = append(parts, body)
			used++
			check := body
			if h.stripTabs {
				check = strings.TrimLeft(check, "\t")
			}
			if strings.TrimRight(check, " \t") == h.delim {
				sc.heredocs = sc.heredocs[1:]
			}
		}
		if !sc.continues() || i+used >= len(lines) {
			break
		}
		next := lines[i+used]
		if console {
			if prompt.MatchString(next) && !sc.inQuote() {
				break // a new prompt ends an unterminated command
			}
			next = strings.TrimPrefix(strings.TrimPrefix(next, ">"), " ")
		}
		next = strings.TrimRight(next, " \t")
		parts = append(parts, next)
		used++
		cur = next
	}
	return joined{text: strings.Join(parts, "\n"), count: used}
}

type heredoc struct {
	delim     string
	stripTabs bool
}

// shellScanner follows just enough shell syntax, line by line, to know whether a command
// goes on: quotes, backslash-newline, trailing operators, compound-command depth and
// pending here-documents.
type shellScanner struct {
	quote    byte // ' " or ` while inside quotes
	depth    int  // open if/case/do/{ and $( … )
	parens   int
	trailing bool // the line ended with \ or an operator that needs more
	heredocs []heredoc
}

func (s *shellScanner) inQuote() bool { return s.quote != 0 }

func (s *shellScanner) continues() bool {
	return s.quote != 0 || s.trailing || s.depth > 0 || s.parens > 0 || len(s.heredocs) > 0
}

var unquote = strings.NewReplacer("'", "", `"`, "", `\`, "")

var openers = map[string]int{"if": 1, "case": 1, "do": 1, "{": 1, "fi": -1, "esac": -1, "done": -1, "}": -1}

// scan reads one physical line.
func (s *shellScanner) scan(line string) {
	s.trailing = false
	cmdPos := s.quote == 0
	word := strings.Builder{}
	wordIsCmd := cmdPos
	flush := func() {
		if word.Len() == 0 {
			return
		}
		w := word.String()
		word.Reset()
		next := false
		if wordIsCmd {
			if d, ok := openers[w]; ok {
				s.depth = max(s.depth+d, 0)
			}
			switch w {
			case "if", "then", "else", "elif", "do", "while", "until", "!", "{", "time":
				next = true
			}
		}
		if strings.HasSuffix(w, "()") {
			next = true
		}
		wordIsCmd = next
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if s.quote != 0 {
			switch {
			case c == '\\' && s.quote != '\'' && i+1 < len(line):
				i++
			case c == s.quote:
				s.quote = 0
			}
			continue
		}
		switch c {
		case '\\':
			if i+1 >= len(line) {
				flush()
				s.trailing = true
				return
			}
			word.WriteByte(c)
			word.WriteByte(line[i+1])
			i++
		case '\'', '"', '`':
			s.quote = c
			word.WriteByte(c)
		case '#':
			if word.Len() == 0 { // a comment
				flush()
				s.trailingOperator(line[:i])
				return
			}
			word.WriteByte(c)
		case ' ', '\t':
			flush()
		case ';', '&', '|':
			flush()
			wordIsCmd = true
			if c == ';' && i+1 < len(line) && line[i+1] == ';' {
				i++
			}
		case '(':
			if i+1 < len(line) && line[i+1] == ')' { // "name()" of a function definition
				word.WriteString("()")
				i++
				continue
			}
			if (i > 0 && line[i-1] == '$') || word.Len() == 0 {
				s.parens++
			}
			word.WriteByte(c)
		case ')':
			if s.parens > 0 {
				s.parens--
			}
			flush()
			wordIsCmd = true
		case '<':
			if i+1 < len(line) && line[i+1] == '<' && (i+2 >= len(line) || line[i+2] != '<') {
				flush()
				j := i + 2
				h := heredoc{}
				if j < len(line) && line[j] == '-' {
					h.stripTabs = true
					j++
				}
				for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
					j++
				}
				k := j
				for k < len(line) && !strings.ContainsRune(" \t;&|<>()", rune(line[k])) {
					k++
				}
				h.delim = unquote.Replace(line[j:k])
				if h.delim != "" {
					s.heredocs = append(s.heredocs, h)
				}
				i = k - 1
				continue
			}
			flush()
			for i+1 < len(line) && line[i+1] == '<' { // <<< here-string
				i++
			}
		default:
			word.WriteByte(c)
		}
	}
	flush()
	if s.quote == 0 {
		s.trailingOperator(line)
	}
}

// trailingOperator notes a line that ends in | && || (the command goes on).
func (s *shellScanner) trailingOperator(line string) {
	t := strings.TrimRight(line, " \t")
	if strings.HasSuffix(t, "|") || strings.HasSuffix(t, "&&") {
		s.trailing = true
	}
}

// code records a code block, its commands and its lead.
func (b *builder) code(idx int, n ast.Node) {
	segs := n.Lines()
	lines := make([]string, segs.Len())
	lineNos := make([]int, segs.Len())
	for i := range lines {
		s := segs.At(i)
		lines[i] = strings.TrimSuffix(string((&s).Value(b.src)), "\n")
		lineNos[i] = b.lineOf(s.Start)
	}
	b.codeLines(idx, lines, lineNos)
}

// codeLines records block idx as a code block of lines (at lineNos).
func (b *builder) codeLines(idx int, lines []string, lineNos []int) {
	blk := &b.m.blocks[idx]
	if strings.HasPrefix(blk.Info, "{") {
		var opts []string
		lines, lineNos, opts = directiveOptions(lines, lineNos)
		if len(opts) > 0 {
			blk.Info += " " + strings.Join(opts, " ")
		}
	}
	content := strings.Join(lines, "\n")
	blk.Text = content
	cb := CodeBlock{Content: content, Lang: language(blk.Info), ContentLines: lineNos}
	if len(lineNos) > 0 {
		cb.ContentStartLine = lineNos[0]
	} else if blk.Kind == KindFencedCode {
		cb.ContentStartLine = min(blk.StartLine+1, blk.EndLine)
	} else {
		cb.ContentStartLine = blk.StartLine
	}
	cb.Shell = shellLangs[cb.Lang]
	cb.Console = consoleLangs[cb.Lang]
	if cb.Shell && !cb.Console && promptStyle(lines) {
		cb.Console = true // a bash block written as a session: "$ npm install"
	}
	if cb.Shell {
		cb.Commands = SplitCommands(lines, lineNos, cb.Console)
	}
	if b.lastLeaf >= 0 {
		// (an HTML block's plain text is "" unless it ends with a <p>: htmlParagraph)
		if k := b.m.blocks[b.lastLeaf].Kind; k == KindParagraph || k == KindHTML {
			cb.Lead = b.m.plain[b.lastLeaf]
		}
	}
	b.lastLeaf = idx
	cb.Block = *blk
	b.m.code = append(b.m.code, cb)
}

// reDirectiveOption: a MyST directive's option line, ":caption: greet.py".
var reDirectiveOption = regexp.MustCompile(`^:([\w-]+):(?:\s+(.*))?$`)

// directiveOptions takes a MyST directive's leading option lines (":caption: greet.py",
// ":emphasize-lines: 4,5", and the blank line after them) out of its content and returns
// them as info-string attributes (caption=greet.py): they are not code.
func directiveOptions(lines []string, nos []int) ([]string, []int, []string) {
	var opts []string
	i := 0
	for ; i < len(lines); i++ {
		m := reDirectiveOption.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			break
		}
		if v := strings.TrimSpace(m[2]); v != "" && !strings.ContainsAny(v, " \t\"'") {
			opts = append(opts, m[1]+"="+v)
		} else {
			opts = append(opts, m[1])
		}
	}
	if i == 0 {
		return lines, nos, nil
	}
	if i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	return lines[i:], nos[i:], opts
}

// language is the first word of an info string, lower-cased: "bash", "{.python}" → "python".
func language(info string) string {
	f := strings.Fields(info)
	if len(f) == 0 {
		return ""
	}
	l := strings.ToLower(f[0])
	switch l {
	case "{code-block}", "{code}", "{sourcecode}", "{code-cell}":
		// MyST/Sphinx directives: the language is their argument
		if len(f) > 1 {
			return strings.ToLower(f[1])
		}
		return ""
	}
	if m := reRemarkupLang.FindStringSubmatch(info); m != nil {
		// Phabricator's Remarkup: ```lang=sh, or ```name=src/app.py, lang=python
		return strings.ToLower(m[1])
	}
	l = strings.TrimLeft(l, "{.")
	// (HackMD/CodiMD: `bash=` numbers the lines, `bash=101` from 101, `bash!` wraps them)
	if i := strings.IndexAny(l, "{},:=!"); i >= 0 {
		l = l[:i]
	}
	return l
}

// reRemarkupLang: Remarkup's language attribute of a fence (`lang=sh`), among its others.
var reRemarkupLang = regexp.MustCompile(`(?:^|[\s,])lang=([\w+#-]+)`)

var shellLangs = map[string]bool{
	"bash": true, "sh": true, "shell": true, "zsh": true, "ksh": true,
	"console": true, "shell-session": true, "shellsession": true, "sh-session": true, "terminal": true,
	// DigitalOcean's community tutorials: `command` for the user's shell, `super_user` for root's
	"command": true, "super_user": true,
}

var consoleLangs = map[string]bool{
	"console": true, "shell-session": true, "shellsession": true, "sh-session": true, "terminal": true,
}
