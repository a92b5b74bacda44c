package none

import (
	"cmp"
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

// reCalloutTitle: the first line of an Obsidian or GitHub callout, and its title.
var reCalloutTitle = regexp.MustCompile(`^>\s*\[![\w-]+\][-+]?\s*(.*?)\s*$`)

// leadText is the prose that introduces a block: the paragraph right above it and, when
// the block sits in a list item, the item's own first paragraph (markup kept, so paths
// in backticks survive).
func leadText(t *tutorial.Tutorial, cb tutorial.CodeBlock) string {
	var paras [][]string
	var cur []string
	titleAt := cb.StartLine - 1 // where an AsciiDoc block title names the block
	for titleAt > 1 && reAsciiDocStyle.MatchString(strings.TrimSpace(t.Map.Line(titleAt))) {
		titleAt-- // ".hello.v" over "[source,coq]" over the fence
	}
	for n := cb.StartLine - 1; n >= 1 && n >= cb.StartLine-25 && len(paras) < 3; n-- {
		raw := t.Map.Line(n)
		l := strings.TrimSpace(tutorial.CodeTagsAsBackticks(raw)) // <p>Save it as <path>a.c</path>:</p>
		textileItem := false
		if m := reTextileItem.FindStringSubmatch(l); m != nil && len(cur) == 0 && len(paras) == 0 {
			// Textile's numbered item right above (Redmine's "# Install:"), which Markdown
			// reads as a heading: it says what the block is
			l, textileItem = m[1], true
		}
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") || strings.HasPrefix(l, "#") || reHighlightClose.MatchString(l) {
			break
		}
		if m := reCalloutTitle.FindStringSubmatch(l); m != nil && m[1] != "" && !strings.ContainsAny(m[1][len(m[1])-1:], ".:!?") {
			// an Obsidian or GitHub callout's title is a sentence of its own ("> [!danger]
			// Keep secrets out of git", then "> `.envrc` is fine to commit")
			l = "> " + m[1] + "."
		}
		if m := reSummary.FindStringSubmatch(t.Map.OriginalLine(n)); m != nil && summaryFile(m[1]) != "" {
			// a collapsed file, named by its summary (a raw HTML line, blank in Line):
			// <details><summary><code>data/books.csv</code></summary>
			l = "Filename: `" + summaryFile(m[1]) + "`"
		}
		if l == "" {
			if len(cur) > 0 {
				paras = append(paras, cur)
				cur = nil
			}
			continue
		}
		if strings.HasPrefix(l, "<") && reInlineTag.MatchString(l) {
			l = strings.TrimSpace(reTag.ReplaceAllString(l, "")) // a caption: <span class="filename">Filename: x</span>
		}
		// a heading's or caption's permalink, as Sphinx and MkDocs render it to Markdown:
		// "`shapes.py`[¶](#id1 "Permalink to this code")"
		l = strings.TrimSpace(rePermalink.ReplaceAllString(l, ""))
		if m := reLiquidCode.FindStringSubmatch(l); m != nil {
			l = codeTitleLead(m[1]) // GitBook's {% code title="pelicanconf.py (add)" %}
		}
		if m := reBlockTitle.FindStringSubmatch(l); m != nil && n == titleAt {
			l = "Filename: `" + m[1] + "`" // AsciiDoc's block title right above: ".counter.vhd"
		}
		if n > titleAt {
			continue // the block's style line, "[source,coq]"
		}
		if l == "" || strings.HasPrefix(l, "{{") || strings.HasPrefix(l, "{%") || strings.HasPrefix(l, "===") || strings.HasPrefix(l, "<") || rePlainContainer.MatchString(l) {
			continue // markup lines of tabs, shortcodes and VuePress's `::: v-pre`
		}
		// a word processor's export escapes what Markdown might read as markup:
		// **\~/policy\-review/drafts/loans\-v1.txt** is **~/policy-review/drafts/loans-v1.txt**
		l = unescapeProse(l)
		l = reDokuMono.ReplaceAllString(l, "`$1`")        // DokuWiki's ''~/team-week.ics''
		l = reTextileCode.ReplaceAllString(l, "$1`$2`$3") // Textile's @mkfeed.sh@

		l = reEmphPath.ReplaceAllStringFunc(l, func(m string) string {
			// *lib/todo.rb* and **Rakefile** name files as `lib/todo.rb` does
			// (a colon or comma only in a full path: **~/mail/cur/1699.M1P2.host:2,S**,
			// a Maildir file with its flags, not *e.g.,*)
			if inner := strings.Trim(m, "*_"); looksLikePath(inner) && (!strings.ContainsAny(inner, ":,") || strings.HasPrefix(inner, "/") || strings.HasPrefix(inner, "~/")) {
				return "`" + inner + "`"
			}
			return m
		})
		cur = append([]string{l}, cur...)
		if textileItem {
			paras = append(paras, cur)
			cur = nil
			break
		}
		if reListItem.MatchString(raw) && indentOf(raw) < indentOf(t.Map.Line(cb.StartLine))+1 {
			// the list item that holds the block: its first paragraph ends the lead
			paras = append(paras, cur)
			cur = nil
			break
		}
	}
	if len(cur) > 0 {
		paras = append(paras, cur)
	}
	if len(paras) == 0 {
		return cb.Lead
	}
	// nearest paragraph first in the slice; keep the nearest and the list item's start
	texts := []string{strings.Join(paras[0], " ")}
	if len(paras) > 1 && len(paras[0]) == 1 && len(paras[0][0]) < 80 && (reCaptionLine.MatchString(paras[0][0]) || reNumberedCaption.MatchString(paras[0][0])) {
		// a caption ("Filename: split.tcl") between the block and the sentence that says
		// what to do with it ("print it at the end of split.tcl:")
		texts = append([]string{strings.Join(paras[1], " ")}, texts...)
	} else if len(paras) > 1 && !reCaptionAlone.MatchString(texts[0]) {
		// (a caption alone right above the block names it, whatever list precedes it:
		// Antora's callout list under the block before)
		last := paras[len(paras)-1]
		if reListItem.MatchString(last[0]) {
			texts = append([]string{strings.Join(last, " ")}, texts...)
		}
	}
	return strings.Join(texts, " ")
}

// reBlockTitle: an AsciiDoc block title that names a file (".counter.vhd" on the line
// above the block, "._CoqProject"), not a dotfile (".bashrc").
var reBlockTitle = regexp.MustCompile(`^\.([A-Za-z0-9_][\w-]*(?:/[\w.-]+)*\.[A-Za-z]\w{0,6}|_[A-Za-z][\w-]+)$`)

// reAsciiDocStyle: an AsciiDoc block style line between a block's title and its
// delimiter ("[source,coq]", "[source,console,subs=attributes]").
var reAsciiDocStyle = regexp.MustCompile(`^\[(?:source|listing|literal)(?:,[^\]]*)?\]$`)

// reSavedAbove: a sentence that names the block above it ("Save it as `init.el`."), not
// the one below ("Save this as `calc.y`. Read … carefully:"), and the name.
var reSavedAbove = regexp.MustCompile("(?i)^\\s*(?:save|store|name|call) (?:it|that) as `([^`\\s]+)`")

// reLiquidCode: GitBook's `{% code title="app.py" %}` line over a fence, and its title.
var reLiquidCode = regexp.MustCompile(`^\{%-?\s*code\b[^%]*?\btitle="([^"]*)"[^%]*-?%\}$`)

// codeTitleLead says in words what a code title says of its block: "app.py" names the
// file, "app.py (add)" adds to it and "app.py (change this line)" changes part of it.
func codeTitleLead(title string) string {
	name, qualifier, _ := strings.Cut(strings.TrimSpace(title), " ")
	if !looksLikePath(name) && !knownNames[name] {
		return ""
	}
	switch q := strings.ToLower(qualifier); {
	case reAppendWord.MatchString(q):
		return "Add these lines to `" + name + "`:"
	case reChangeWord.MatchString(q):
		return "Change `" + name + "` so it looks like this:"
	}
	return "Filename: `" + name + "`"
}

var (
	reAppendWord = regexp.MustCompile(`\b(?:add|adds|added|append|appended|insert|new lines?)\b`)
	reChangeWord = regexp.MustCompile(`\b(?:change|changed|edit|edited|update|updated|modify|modified|replace|excerpt|part)\b`)
)

// reTypeInto: the prose has the reader type the block into a file ("Type the program
// into `hello.asm`:").
var reTypeInto = regexp.MustCompile("(?i)\\btype\\s+(?:it|this|them|these lines|the (?:\\w+ )?(?:program|code|source|file|text|lines|listing|script|following))\\s+into\\s+`([^`\\s]+)`")

// reAndItsAs: a lead that goes on from the sentence that saved the block before ("and
// its testbench as `tb/updown_tb.v`:"), naming where this one goes.
var reAndItsAs = regexp.MustCompile("(?i)^(?:and|then|plus)\\s+(?:its|the|a|an|their)\\b[^.:`]*\\bas\\s+`([^`\\s]+)`")

// rePermalink: an anchor link whose text is only a mark (¶, #, §, 🔗).
var rePermalink = regexp.MustCompile(`\[(?:¶|#|§|🔗)\]\(#[^)\s]*(?:\s+"[^"]*")?\)`)

var reCaptionLine = regexp.MustCompile(`(?i)^[*_]{0,2}(?:filename|file|listing [\w.-]+):`)

// numberedCaption: the file a numbered caption at the end of lead names ("" when none).
func numberedCaption(lead string) string {
	lower := strings.ToLower(lead)
	i := max(strings.LastIndex(lower, "example "), strings.LastIndex(lower, "listing "))
	if i < 0 {
		return ""
	}
	if i > 0 && (lead[i-1] == '*' || lead[i-1] == '_') {
		i-- // the caption's emphasis
		if i > 0 && lead[i-1] == lead[i] {
			i--
		}
	}
	if m := reNumberedCaption.FindStringSubmatch(lead[i:]); m != nil && (i == 0 || lead[i-1] == ' ') {
		return m[1]
	}
	return ""
}

// reNumberedCaption: a book's numbered caption naming the file of the block below it
// ("*Example 3-1. hello.scm*", "Listing 2.4: src/app.py", Sphinx's "**Listing 1**
// `shapes.py`"), alone on its line.
var reNumberedCaption = regexp.MustCompile("(?i)^[*_]{0,2}(?:example|listing)\\s+\\d+(?:[-.]\\d+)*[.:]?[*_]{0,2}\\s+`?([\\w./~-]+\\.\\w+|[A-Z]\\w*file)`?[*_]{0,2}$")

var reListItem = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+`)

var (
	reInlineTag = regexp.MustCompile(`(?i)^<(?:span|p|strong|em|b|i|code|small|figcaption|div)\b`)
	reTag       = regexp.MustCompile(`<[^<>]+>`)
	reEmphPath  = regexp.MustCompile(`(?:\*\*?|\b__?)[\w./~:,-]+(?:\*\*?|__?\b)`)
)

var (
	// a verb telling the reader to put the block into a file; the path must follow it in
	// the same sentence
	// reFolderNoun: what follows a path the prose calls a folder ("a `ci` folder")
	reFolderNoun = regexp.MustCompile(`^\s+(?:folder|directory|dir)\b`)
	reWriteVerb  = regexp.MustCompile(`(?i)\b(create|save|write|add|put|paste|place|copy|edit|update|open|replace|change|modify|append|insert|keep|store|export|wrote|created|saved|added|pasted|placed|edited|appended|kept|stored|exported)\b`)
	// "Create a file with this content:" without saying which
	reNamelessFile = regexp.MustCompile(`(?i)\b(create|save|put|paste|write|set up|add)\b[^.:]*\bfile\b`)
	// "Insert this line at the very top of greet.scm", "as the first line of run.sh"
	rePrepend  = regexp.MustCompile(`(?i)\b(?:at|to) the (?:very )?(?:top|beginning|start) of\b|\bas (?:the|its) (?:very )?first line\b`)
	reAppend   = regexp.MustCompile(`(?i)\b(append|add\b[^.]*?\b(?:to|at the end of|under|below|beneath)|insert|(?:at|to) the end of)\b`)
	rePathTick = regexp.MustCompile("`([^`\\s]+)`")
	// the info string names the file: ```py title="app.py" (Docusaurus, MkDocs),
	// ```js [vite.config.js] (VitePress), ```rust,file=src/main.rs
	reInfoFile     = regexp.MustCompile(`(?:title|filename|file|name|file-name|caption)=["']?([^"'\s},]+)|\[([^\]\s]+)\]`)
	reFilenameLine = regexp.MustCompile("(?i)(?:^|[\\s*_])(?:filename|file):[*_]{0,2}\\s*`?([~\\w./-]+)`?")
	// knitr's cat engine writes the chunk to the file its options name (R Markdown,
	// Bookdown): ```{cat, engine.opts = list(file = "data/ref.fa")}
	reKnitrFile = regexp.MustCompile(`^\{cat\b[^}]*\bengine\.opts\s*=\s*list\([^)]*\bfile\s*=\s*["']([^"']+)["']`)
	reListing   = regexp.MustCompile(`<Listing[^>]*file-name="([^"]+)"`)
	knownNames  = map[string]bool{"Dockerfile": true, "Makefile": true, "Procfile": true, "Gemfile": true, "Vagrantfile": true, "Justfile": true, "Caddyfile": true, "Jenkinsfile": true, ".env": true,
		"Rakefile": true, "Brewfile": true, "Pipfile": true, "Containerfile": true, "Taskfile": true, "Snakefile": true, "Earthfile": true,
		"Guardfile": true, "Capfile": true, "Podfile": true, "Berksfile": true}
)

// fileTarget finds the file a block should be written to: an info-string name, a
// "Filename:" line or <Listing file-name>, or a sentence of the lead with a write verb
// and a path after it ("Create `report.sh` with…", "in `app.py`, add:").
func fileTarget(cb tutorial.CodeBlock, lead string) (file, dir string, appendF, ok bool) {
	// a title= attribute names a file more surely than a VitePress [label], which is
	// often a tab's title ([Debian/Ubuntu])
	if m := reInfoFile.FindStringSubmatch(cb.Info); m != nil && (m[1] != "" && infoNamesFile(m[1], cb.Content) || m[2] != "" && looksLikePath(m[2])) {
		// "Append these lines to the end of `report.lua`:" over ```lua title="report.lua"
		f := m[1] + m[2]
		for _, q := range rePathTick.FindAllStringSubmatch(lastSentence(lead), -1) {
			if strings.HasSuffix(q[1], "/"+strings.TrimPrefix(f, "./")) && looksLikePath(q[1]) {
				f = q[1] // "Save this script as `~/repo/hooks/pre-commit`:" over :caption: hooks/pre-commit
			}
		}
		return f, "", reAppend.MatchString(lastSentence(lead)) && strings.Contains(lead, path.Base(f)), true
	}
	if m := reZennFile.FindStringSubmatch(cb.Info); m != nil && looksLikePath(m[1]) && !strings.HasPrefix(cb.Info, "diff") {
		// (not Zenn's ```diff:fw.hex, a change to the file shown as a diff)
		// Zenn's ```c:lookup.c, the language and the file's name (not ```bash:terminal)
		return m[1], "", reAppend.MatchString(lastSentence(lead)) && strings.Contains(lead, path.Base(m[1])), true
	}
	if m := reListing.FindStringSubmatch(lead); m != nil && looksLikePath(m[1]) {
		return m[1], "", appendsTo(lead, m[1]), true
	}
	if m := reKnitrFile.FindStringSubmatch(cb.Info); m != nil && !strings.HasSuffix(m[1], "/") {
		return m[1], "", false, true
	}
	if f := strings.Fields(cb.Info); len(f) == 2 && !cb.Shell && looksLikePath(f[1]) && !strings.ContainsAny(f[1], "[]") {
		// Mintlify's title after the language, a file's path: ```python app.py (and
		// "Append one more hook in the same way:" over ```yaml .pre-commit-config.yaml)
		return f[1], "", appendsTo(lead, f[1]) || reAppend.MatchString(lastSentence(lead)), true
	}
	if m := reTypeInto.FindStringSubmatch(lastSentence(lead)); m != nil && looksLikePath(m[1]) && !cb.Shell {
		// "Type the program into `hello.asm` (comments start with `;`):"
		return m[1], "", false, true
	}
	if m := reAndItsAs.FindStringSubmatch(lastSentence(lead)); m != nil && looksLikePath(m[1]) {
		// "Save the design as `rtl/updown.v`:" over one block, then "and its testbench
		// as `tb/updown_tb.v`:" over the next
		return m[1], "", false, true
	}
	if f := numberedCaption(lead); f != "" {
		// "Create the first file with your editor." over "*Example 3-1. hello.scm*"
		return f, "", appendsTo(lead, f), true
	}
	for rest := lead; ; {
		m := reFilenameLine.FindStringSubmatchIndex(rest)
		if m == nil {
			break
		}
		if f := rest[m[2]:m[3]]; looksLikePath(f) || strings.Contains(f, "/") && !strings.Contains(f, "://") || reFilenameCaption.MatchString(lead) {
			// "Add a procedure … at the end of *split.tcl*:" over "Filename: split.tcl"
			return f, "", appendsTo(lead, f), true
		}
		rest = rest[m[2]:] // "the data file: Filename: `data/books.csv`": the next one
	}
	ss := sentences(lead)
	for i, sentence := range ss {
		v := reWriteVerb.FindStringIndex(sentence)
		if v == nil || i < len(ss)-1 && reSavedAbove.MatchString(sentence) || reNegated.MatchString(sentence[:v[0]]) {
			// ("Save it as `babel-init.el`. Now a report, `report.org`:": the block above;
			// "…, `gen/contacts_pb2.py`; never edit it by hand:" writes nothing)
			continue
		}
		if reThatFile.MatchString(sentence[v[0]:]) && !rePathTick.MatchString(sentence[v[0]:]) {
			// "Create that file in your home directory": the path named just before
			if ps := rePathTick.FindAllStringSubmatch(lead[:strings.Index(lead, sentence)+v[0]], -1); len(ps) > 0 {
				if p := ps[len(ps)-1][1]; looksLikePath(p) {
					return p, "", reAppend.MatchString(sentence), true
				}
			}
		}
		matches := rePathTick.FindAllStringSubmatchIndex(sentence, -1)
		if k := slices.IndexFunc(matches, func(m []int) bool { return reThisBefore.MatchString(sentence[:m[0]]) }); k > 0 {
			// "Save your `wordfreq.icn` there, plus this `sample.txt`:": the block is the
			// one it points at
			matches = append([][]int{matches[k]}, append(matches[:k:k], matches[k+1:]...)...)
		}
		inDir := "" // "save it next to the first one in `~/bin`, as `prune-backups.sh`:"
		for _, m := range matches {
			p := sentence[m[2]:m[3]]
			if reAsNext.MatchString(sentence[m[1]:]) && reInBefore.MatchString(sentence[:m[0]]) {
				inDir = p
				continue
			}
			if reFolderNoun.MatchString(sentence[m[1]:]) {
				continue // "Create a `ci` folder with `mkdir -p ci`, then save the following as `ci/run-all.sh`."
			}
			// a script saved under a bare name ("save the script as `csvsum`")
			script := strings.HasPrefix(strings.TrimSpace(cb.Content), "#!") && reBareName.MatchString(path.Base(p)) && !strings.Contains(p, "://")
			// a file in a folder with no extension ("Create `conf/distributions` with this
			// content:" over an untagged block)
			bare := !cb.Shell && strings.Contains(p, "/") && !strings.HasPrefix(p, "http") && reBareName.MatchString(path.Base(p)) && reWithContent.MatchString(sentence[m[1]:])
			// a name without an extension the sentence ends on, after "as" ("Save it next
			// to the export as `SHA256SUMS`:")
			named := !cb.Shell && reAsBefore.MatchString(sentence[:m[0]]) && reEndsHere.MatchString(sentence[m[1]:]) && reBareFile.MatchString(p)
			if m[0] > v[0] && (looksLikePath(p) || script || bare || named) {
				// a shell block is file content only when the prose says to create or save it
				shebang := strings.HasPrefix(strings.TrimSpace(cb.Content), "#!")
				// (or names a file of the block's own shell, "Put this in `flags.zsh`:", or
				// calls it a file: "put one function in it, `~/.zfunc/mkcd` (the file
				// holds only the body)")
				ownShell := sameLanguage(cb.Lang, p) || reFileWord.MatchString(sentence[m[1]:])
				if cb.Shell && runsFile(cb.Content, p) {
					// "Save it as `~/cal-publish.sh` and run it:" over `chmod +x
					// cal-publish.sh`, `./cal-publish.sh`: the block runs the file above
					return "", "", false, false
				}
				if cb.Shell && !shebang && !ownShell && (!reCreateVerb.MatchString(sentence) || looksLikeShell(cb, nil) && !reScriptFile.MatchString(p) && !strings.Contains(strings.ToLower(sentence), "script")) {
					// commands are not the content of a data file: "save the lines below
					// as `access.log`" names the block after them
					return "", "", false, false
				}
				if d := reInDir.FindStringSubmatch(sentence[m[1]:]); d != nil && !reHereDir.MatchString(d[1]) {
					dir = strings.Trim(d[1], "`")
					if strings.EqualFold(dir, "home") {
						dir = "~" // "in your home directory"
					}
				}
				if dir == "" && inDir != "" && !strings.Contains(p, "/") {
					dir = inDir
				}
				return p, dir, reAppend.MatchString(sentence), true
			}
		}
	}
	if f := commentNamed(cb, lead); f != "" {
		// "Both together in `pace.sh`: …" over a script whose comment starts `# pace.sh`;
		// "`units` also reads `~/.units`. Mine has …" over `# ~/.units -- personal additions`
		return f, "", false, true
	}
	if f := namedByLanguage(cb, lead); f != "" {
		// ("Enable them at the end of `_config.yml`:" appends)
		return f, "", reAppend.MatchString(lastSentence(lead)), true
	}
	if m := reAppositionFile.FindStringSubmatch(lastSentence(lead)); m != nil && !cb.Shell && !plainLangs[cb.Lang] && !dataLangs[cb.Lang] && looksLikePath(m[1]) {
		// "Now a report that uses it, `report.pike`:" over the program
		return m[1], "", false, true
	}
	if m := reFileNamedLast.FindStringSubmatch(lastSentence(lead)); m != nil && !cb.Shell && looksLikePath(m[1]) {
		// "Rain comes from a separate logger, so it gets its own small file, `rain.cdl`:"
		return m[1], "", false, true
	}
	return "", "", false, false
}

// reAsBefore, reEndsHere, reBareFile: "… as `SHA256SUMS`:", a file's name without an
// extension at the end of the sentence.
var (
	reAsBefore = regexp.MustCompile(`(?i)\bas\s+$`)
	reEndsHere = regexp.MustCompile(`^\s*[:.]?\s*$`)
	reBareFile = regexp.MustCompile(`^[A-Za-z][\w-]*$`)
)

// reAsNext, reInBefore: "in `~/bin`, as `x`": the folder, then the file's name.
var (
	reAsNext   = regexp.MustCompile("^,?\\s+as\\s+`")
	reInBefore = regexp.MustCompile(`(?i)\b(?:in|into|under|inside)\s+$`)
)

// reZennFile: Zenn's info string, the language then a colon and the file's name.
var reZennFile = regexp.MustCompile(`^[\w+#.-]+:([^\s:{}=]+)$`)

// reAppositionFile: a sentence that ends by naming, after a comma, the file it speaks of.
var reAppositionFile = regexp.MustCompile("(?i),\\s+`([^`\\s]+\\.[A-Za-z]\\w*)`\\s*:\\s*$")

// reThisBefore: words that point at the block below, right before a file's name.
var reThisBefore = regexp.MustCompile(`(?i)\b(?:this|the following)\s*$`)

// reFileNamedLast: a sentence that ends by naming a file, right before the block.
var reFileNamedLast = regexp.MustCompile("(?i)\\bfile,?\\s+(?:called\\s+|named\\s+)?`([^`\\s]+)`\\s*:\\s*$")

// reNameComment: a comment line that starts with a word, the file's name when it is one
// ("# pace.sh DISTANCE MINUTES", "// src/main.rs", "-- init.lua: settings").
var reNameComment = regexp.MustCompile(`^(?:#|//|--|;+|%)\s*([^\s:,]+)[:,]?(?:\s|$)`)

// commentNamed is the file a block is when its first comment line (under a `#!` line)
// starts with the file's name and the lead names that same file in code ("" when not).
func commentNamed(cb tutorial.CodeBlock, lead string) string {
	lines := strings.Split(strings.TrimSpace(cb.Content), "\n")
	shebang := strings.HasPrefix(lines[0], "#!")
	if shebang {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		return ""
	}
	m := reNameComment.FindStringSubmatch(strings.TrimSpace(lines[0]))
	if m == nil || !looksLikePath(m[1]) {
		return ""
	}
	if cb.Shell && !shebang && (!strings.HasSuffix(strings.TrimSpace(lead), ":") || strings.Contains(strings.Join(lines[1:], "\n"), path.Base(m[1]))) {
		// commands start with comments too: a shell block is the file only under a lead
		// that presents it ("`.envrc` in the project root:") and when it does not use it
		return ""
	}
	for _, q := range rePathTick.FindAllStringSubmatch(lead, -1) {
		if q[1] == m[1] || looksLikePath(q[1]) && path.Base(q[1]) == path.Base(m[1]) && (strings.HasSuffix(q[1], "/"+m[1]) || strings.HasSuffix(m[1], "/"+q[1])) {
			return q[1]
		}
	}
	return ""
}

// namedByLanguage: the sentence right before a block that is not shell is a file name in
// code and a colon ("`transport.mod`:"), or names one file, in code, whose extension is
// the block's language, and ends with a colon ("First a
// warm-up, `greet.php`:", "`db.php` creates the table:"), or it names none and the
// paragraph names just one ("Now `api.php`. It checks the JSON first:"): the block is
// that file.
func namedByLanguage(cb tutorial.CodeBlock, lead string) string {
	t := strings.TrimSpace(lead)
	if cb.Shell && !strings.HasPrefix(strings.TrimSpace(cb.Content), "#!") {
		return "" // (a script with its `#!` line is a file: "And the script, `tally.zsh`:")
	}
	if m := reCaptionAlone.FindStringSubmatch(t); m != nil && (looksLikePath(m[1]) || strings.HasPrefix(strings.TrimSpace(cb.Content), "#!") && reBareName.MatchString(path.Base(m[1])) && !strings.Contains(m[1], "://")) {
		// a paragraph that is only the file's name, "**`src/wordcount.h`**" (or a
		// script's, "`bin/tide-report`:" over its `#!` line)
		return m[1]
	}
	if !strings.HasSuffix(t, ":") {
		return ""
	}
	last := lastSentence(strings.TrimSuffix(t, ":"))
	if reOutputLead.MatchString(last) {
		return ""
	}
	ms := rePathTick.FindAllStringSubmatch(last, -1)
	if len(ms) == 1 && looksLikePath(ms[0][1]) && (sameLanguage(cb.Lang, ms[0][1]) || strings.TrimSpace(last) == "`"+ms[0][1]+"`" || reHereIs.MatchString(last)) {
		// "`transport.mod`:" alone over a block: a caption, whatever the language; so is
		// "Here's **wordcount.cabal**, just like the one `cabal init` gives you:"
		return ms[0][1]
	}
	for _, m := range ms {
		if looksLikePath(m[1]) && sameLanguage(cb.Lang, m[1]) {
			return "" // the sentence names several files of the block's language
		}
	}
	// "Now `api.php`. … I use `json_validate()` to reject broken JSON:": the paragraph
	// names one file of the block's language, and its last sentence no other file
	var named []string
	for _, m := range rePathTick.FindAllStringSubmatch(t, -1) {
		if looksLikePath(m[1]) && sameLanguage(cb.Lang, m[1]) && !slices.Contains(named, m[1]) {
			named = append(named, m[1])
		}
	}
	if len(named) != 1 {
		return ""
	}
	return named[0]
}

// reCaptionAlone: a paragraph that is only a file name in code, maybe emphasized, maybe
// after "File" ("**File `geom.c`**"), maybe with a remark in parentheses after it (a
// Jira ticket's "*Makefile* (new version for `host/`; `CC` is left to the caller)"), or
// an attachment's icon before it and its details after it (a Slack export's "📎
// **build.sh** · Shell · 6 lines").
var reCaptionAlone = regexp.MustCompile("^(?:[\\p{So}\\p{Sk}]\\x{FE0F}?\\s*)?[*_]{0,2}(?:(?i:file|filename|listing)\\s*:?[*_]{0,2}\\s*)?`([^`\\s]+)`[*_]{0,2}(?:\\s+\\([^()]*\\)|(?:\\s+·\\s+[^`·]+)+)?:?$")

// reHereIs: a sentence that presents what follows ("Here's `x`", "Here is the `x` we
// use"), which names a file when it names one path.
var reHereIs = regexp.MustCompile(`(?i)^(?:here's|here is|this is)\b`)

// noteAfter is the text of the paragraph or note right under the block that ends at
// line (HTML tags dropped, `<code>` written as backticks); "" when a heading or another
// block comes first.
func (ss *session) noteAfter(line int) string {
	t := ss.task.Tutorial
	if t == nil || line <= 0 {
		return ""
	}
	var para []string
	for n := line + 1; n <= t.Map.LineCount() && n <= line+8; n++ {
		l := strings.TrimSpace(t.Map.Line(n))
		if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			break
		}
		if l == "" && len(para) > 0 && !strings.HasPrefix(para[0], "<") {
			break // a plain paragraph ends at its blank line; a note at its closing tag
		}
		para = append(para, l)
		if strings.HasPrefix(l, "</div") || strings.HasPrefix(l, "</aside") {
			break
		}
	}
	text := tutorial.CodeTagsAsBackticks(strings.Join(para, " "))
	return strings.TrimSpace(reTag.ReplaceAllString(text, ""))
}

// reOwnHome: the prose says the home directory in the file stands for the reader's own.
var reOwnHome = regexp.MustCompile("(?i)(?:instead of|replace|replacing|in place of|rather than)\\s+`((?:/home|/Users)/[\\w.-]+)`")

// reThatFile: the verb's object is a file named before it ("Create that file in …",
// "… from `~/.ledgerrc`, so I keep this there:").
var reThatFile = regexp.MustCompile(`(?i)^\w+\s+(?:that|this|the) file\b|^\w+\s+it\b|^\w+\s+(?:this|these(?: lines)?|them)\s+(?:there|in (?:it|there|that file))\b`)

// reNegated: a verb the sentence forbids ("never edit it", "do not change it").
var reNegated = regexp.MustCompile(`(?i)\b(?:never|not|don't|do not|doesn't|no need to)\s+(?:\w+\s+)?$`)

var reBareName = regexp.MustCompile(`^[a-z][\w-]*$`)

// reWithContent: words after a path that say the block is what it holds ("with this
// content", "containing", "with the following lines").
var reWithContent = regexp.MustCompile(`(?i)^\W*(?:with (?:this|these|the following|the)\b|containing\b|that (?:holds|contains)\b)`)

// reFilenameCaption: a lead that ends with a "Filename: name" caption, which names a
// file even without an extension (mdBook's "Filename: dune-project").
var reFilenameCaption = regexp.MustCompile("(?i)\\bfilename:\\s*`?[\\w.-]+`?\\s*$")

var reScriptFile = regexp.MustCompile(`\.(?:sh|bash|zsh|ksh)$|^[^.]*$`)

var reCreateVerb = regexp.MustCompile(`(?i)\b(create|save|write|created|saved|wrote)\b.*\b(file|script|as|with|named|called|containing)\b`)

// sentences splits text at ". ", "! ", "? " and ": " (paths keep their dots).
func sentences(text string) []string { return reSentenceEnd.Split(text, -1) }

var reSentenceEnd = regexp.MustCompile(`[.!?:]\s+`)

// repeatsStart: the new block begins with the file's first line, so it is the whole file
// again (a listing that shows the file with the addition), not an addition to append.
func repeatsStart(old, block string) bool {
	first := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if t := strings.TrimSpace(l); t != "" {
				return t
			}
		}
		return ""
	}
	f := first(old)
	return f != "" && f == first(block)
}

// appendsTo: a sentence of the lead that names the file says to add to it ("print it at
// the end of split.tcl", "append to app.py").
func appendsTo(lead, file string) bool {
	base := path.Base(file)
	for _, sentence := range sentences(lead) {
		if strings.Contains(sentence, base) && !reFilenameLine.MatchString(sentence) && reAppend.MatchString(sentence) {
			return true
		}
	}
	return false
}

// infoNamesFile: a name the info string gives a block (title="usr/bin/hello") is a file
// when it looks like a path, is a relative path with a directory, or is a bare name over
// a script with a shebang (title="hello").
func infoNamesFile(name, content string) bool {
	if looksLikePath(name) {
		return true
	}
	if strings.ContainsAny(name, "$*?<>|;&(){}=\"'") || strings.Contains(name, "://") || strings.HasSuffix(name, "/") {
		return false
	}
	return strings.Contains(name, "/") || reBareName.MatchString(name) && strings.HasPrefix(strings.TrimSpace(content), "#!") ||
		reCamelName.MatchString(name) && strings.ToUpper(name) != name && !displayNames[name]
}

// reCamelName: a file name of a build tool's kind, one word in CamelCase without an
// extension (SConstruct, BuildFile), as a title= names it; displayNames are words of that
// shape that name a language or a product instead.
var reCamelName = regexp.MustCompile(`^[A-Z][a-z]*[A-Z][A-Za-z]*$`)

var displayNames = map[string]bool{"JavaScript": true, "TypeScript": true, "CoffeeScript": true, "PowerShell": true, "GitHub": true, "GitLab": true, "PostgreSQL": true,
	"MySQL": true, "MariaDB": true, "SQLite": true, "MongoDB": true, "GraphQL": true, "PyPI": true, "NuGet": true, "WebAssembly": true, "LaTeX": true, "BibTeX": true, "TeX": true,
	"OpenSSL": true, "OpenSSH": true, "FreeBSD": true, "OpenBSD": true, "NetBSD": true, "MacOS": true, "DevTools": true, "VSCode": true, "IntelliJ": true, "XeLaTeX": true, "LuaLaTeX": true}

func looksLikePath(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") || strings.ContainsAny(s, "$*?<>|;&(){}=\"'") || strings.HasSuffix(s, "/") {
		return false
	}
	base := path.Base(s)
	if knownNames[base] {
		return true
	}
	if (strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~/")) && strings.Count(s, "/") >= 2 && !strings.Contains(s, " ") && colonInName(s) {
		return true // an absolute path, extension or not: /etc/nginx/sites-available/hello
	}
	if strings.HasPrefix(s, "http") {
		return false
	}
	if strings.HasPrefix(base, ".") && len(base) > 2 && !strings.Contains(base[1:], ".") {
		return true // a dotfile: ~/.sqliterc, .env
	}
	dot := strings.LastIndexByte(base, '.')
	return dot > 0 && dot < len(base)-1 && !strings.Contains(base[dot+1:], " ")
}

// colonInName: a path's colon, if it has one, is part of its file name, as in a Maildir
// file's flags (`cur/1699258500.M101P4242.host:2,S`), not a list of paths
// (`/usr/lib:/lib`) nor a file and a line number (`/etc/app.conf:12`).
func colonInName(s string) bool {
	before, after, ok := strings.Cut(path.Base(s), ":")
	if !strings.Contains(s, ":") {
		return true
	}
	return ok && before != "" && after != "" && !strings.ContainsAny(after, ":/") && strings.Trim(after, "0123456789") != ""
}

func ensureNL(s string) string {
	if strings.HasSuffix(s, "\n") {
		return ""
	}
	return "\n"
}

// write writes a file step to the path the tutorial names, checking first that the
// directory the prose names exists.
func (ss *session) write(ctx context.Context, s step) error {
	rel := joinDir(s.dir, s.file)
	p := rel
	if strings.HasPrefix(p, "~/") {
		p = path.Join(firstNonEmpty(ss.home, "/root"), p[2:])
	}
	if !path.IsAbs(p) {
		p = path.Join(ss.cwd, p)
	}
	if dir := ss.besideDir(s); dir != "" {
		p = path.Join(dir, s.file) // "to the same folder" as the file before
	} else if s.dir == "~" && ss.cwd == loop.WorkMount {
		// "Save it as `notes-load` in your home directory" while the session has not
		// left the folder it started in, which stands for the home folder the reader's
		// terminal opens in (their `./notes-load` runs it from there)
		p = path.Join(ss.cwd, s.file)
	} else if s.dir != "" && path.Base(ss.cwd) == strings.TrimSuffix(s.dir, "/") {
		// "in the app directory" while the reader is in it
		p = path.Join(ss.cwd, s.file)
	} else if s.dir != "" && !path.IsAbs(s.dir) && s.dir != "~" {
		if ok, _ := ss.exists(ctx, ss.abs(s.dir)); !ok {
			ss.missingDir(s)
			p = path.Join(ss.cwd, s.file) // where the reader most likely is: the project directory
		}
	} else if !s.appendF && s.content != "" && !strings.Contains(s.file, "/") {
		// "open `main.rs`": the file is not where the reader stands but is one the
		// project already has (src/main.rs); "create `books/urls.py`" names its place
		if ok, _ := ss.exists(ctx, p); !ok {
			if found := ss.findFile(ctx, path.Base(s.file)); found != "" {
				p = found
			}
		}
	}
	content := s.content
	// what the prose says of the file's placeholders, before it or in the note right
	// under it ("Replace <code>alex</code> with your user name.")
	for _, about := range []string{s.lead, ss.noteAfter(s.block.EndLine)} {
		if m := reOwnHome.FindStringSubmatch(about); m != nil && ss.home != "" {
			// "write the full path to your own home directory instead of /home/alice"
			content = strings.ReplaceAll(content, m[1], ss.home)
		}
		if m := reReplaceWith.FindStringSubmatch(about); m != nil && strings.Contains(content, m[1]) {
			// "Replace `<you>` with your login name": a file is not expanded by a shell, so
			// the value itself goes in
			content = strings.ReplaceAll(content, m[1], ownValue(m[2], cmp.Or(ss.user, "root"), cmp.Or(ss.home, "/root")))
		}
	}
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	first := 1 // the file line the block's first line becomes
	if s.merge {
		old, err := ss.task.Sandbox.ReadFile(ctx, p, 1<<20)
		if merged, at, ok := mergeFragment(string(old), content); err == nil && ok {
			content, first = merged, at
		} else if err == nil && len(old) > 0 && !repeatsStart(string(old), content) {
			// no single counterpart: the reader adds it to what is there
			first = strings.Count(string(old)+ensureNL(string(old)), "\n") + 1
			content = string(old) + ensureNL(string(old)) + content
		}
	} else if s.before != "" {
		if old, err := ss.task.Sandbox.ReadFile(ctx, p, 1<<20); err == nil && len(old) > 0 {
			text := string(old)
			at := len(text) + len(ensureNL(text)) // no such line: the reader adds it at the end
			if i := strings.LastIndex(text, s.before); i >= 0 {
				at = strings.LastIndex(text[:i], "\n") + 1
			}
			text += ensureNL(text)
			first = strings.Count(text[:at], "\n") + 1
			content = text[:at] + content + text[at:]
		}
	} else if s.prepend {
		if old, err := ss.task.Sandbox.ReadFile(ctx, p, 1<<20); err == nil && !strings.HasPrefix(string(old), content) {
			content += string(old)
		}
	} else if s.appendF {
		old, err := ss.task.Sandbox.ReadFile(ctx, p, 1<<20)
		if err == nil && len(old) > 0 && !repeatsStart(string(old), content) {
			content = string(old) + ensureNL(string(old)) + content
		}
	} else if content == "" {
		if ok, _ := ss.exists(ctx, p); ok {
			return nil // "create main.go" when it exists: nothing to do
		}
	} else if line := keptShebang(ss.written[p], content); line != "" {
		// notes.pl again from `use Mojolicious::Lite` on, its changed lines marked: the
		// reader edits the file, whose `#!` line stays
		content = line + "\n" + content
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: s.line, Reason: "a new version of " + rel + " shown without its first line (`" + line + "`), which the reader's file keeps"})
	}
	if err := ss.writeFile(ctx, p, content); err != nil {
		if ctx.Err() != nil {
			return err
		}
		rec := loop.CommandRecord{Iteration: ss.task.Iteration, Step: section(ss.task.Tutorial, s.line), Line: s.line,
			Command: "write " + rel, ExitCode: 1, Output: err.Error(), Class: loop.ClassToolingError, Summary: "could not write " + rel + ": " + err.Error()}
		ss.res.Commands = append(ss.res.Commands, rec)
		ss.addFinding(rec, loop.Finding{Problem: rec.Summary, Fix: "check the path the tutorial gives for " + rel}, err.Error())
		return nil
	}
	ss.cov.Files++
	if ss.written == nil {
		ss.written = map[string]string{}
	}
	ss.written[p] = content
	delete(ss.taintPaths, p) // (a file given after its first use is there from now on)
	if first > 1 {
		ss.segments[p] = append(ss.segments[p], segment{block: s.block, first: first})
	} else {
		ss.segment(p, s, content)
	}
	ss.res.Files = append(ss.res.Files, loop.FileRecord{Iteration: ss.task.Iteration, Path: p, Size: int64(len(content))})
	ss.res.FilesCreated = append(ss.res.FilesCreated, p)
	verb := "wrote"
	if s.appendF {
		verb = "appended to"
	} else if s.prepend {
		verb = "put at the top of"
	}
	ss.res.AttemptedActions = append(ss.res.AttemptedActions, fmt.Sprintf("line %d: %s %s (%d bytes)", s.line, verb, p, len(content)))
	ss.task.Events.Emit(loop.NewEvent(loop.EventStepEnd, loop.StepData{Step: "write " + rel, Line: s.line, OK: true}))
	return nil
}

// keptShebang is the #! line of a file the tutorial wrote before (old) when a new
// version of it (content) starts as the old one went on after that line; "" otherwise.
func keptShebang(old, content string) string {
	first, rest, ok := strings.Cut(old, "\n")
	if !ok || !strings.HasPrefix(first, "#!") || strings.HasPrefix(content, "#!") {
		return ""
	}
	next, _, _ := strings.Cut(strings.TrimLeft(rest, "\n"), "\n")
	start, _, _ := strings.Cut(content, "\n")
	if strings.TrimSpace(next) == "" || strings.TrimSpace(start) != strings.TrimSpace(next) {
		return ""
	}
	return first
}

// exists reports whether p exists in the container.
func (ss *session) exists(ctx context.Context, p string) (bool, error) {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "test -e " + shellQuote(p), Timeout: 10 * time.Second, User: ss.user})
	if err != nil {
		return false, err
	}
	return r.ExitCode == 0, nil
}

// findFile finds a file named base below the session's directory (3 levels at most),
// "" when there is none or more than one.
func (ss *session) findFile(ctx context.Context, base string) string {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "find " + shellQuote(ss.cwd) + " -maxdepth 3 -name " + shellQuote(base) + " -type f -not -path '*/node_modules/*' -not -path '*/.git/*' 2>/dev/null | head -n 2", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return ""
	}
	lines := strings.Fields(strings.TrimSpace(r.Stdout))
	if len(lines) != 1 {
		return ""
	}
	return lines[0]
}

// dirs lists the directories right below the session's directory.
func (ss *session) dirs(ctx context.Context) []string {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && ls -1p 2>/dev/null | grep '/$'", Timeout: 10 * time.Second, User: ss.user})
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Fields(r.Stdout) {
		out = append(out, strings.TrimSuffix(l, "/"))
	}
	return out
}

// writeFile writes a file block's content. Outside /workspace it goes through a shell
// of the learner, as the tutorial's own `cat > /etc/...` would: the sandbox's WriteFile
// copies such paths as root, which the learner may not be (security review #12).
func (ss *session) writeFile(ctx context.Context, p, content string) error {
	if ss.user == "" && strings.HasPrefix(p, "/workspace/") {
		if _, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "mkdir -p " + shellQuote(path.Dir(p)), Timeout: 10 * time.Second, User: ss.user}); err != nil {
			return err
		}
		return ss.task.Sandbox.WriteFile(ctx, p, []byte(content), 0o644)
	}
	// as the learner, as an editor would save it; a system path (the tutorial says
	// to create /etc/…) needs the learner's sudo, as it would on their machine
	dir := shellQuote(path.Dir(p))
	q := shellQuote(p)
	cmd := "{ mkdir -p " + dir + " 2>/dev/null || sudo -n mkdir -p " + dir + "; } && { { cat > " + q + "; } 2>/dev/null || sudo -n tee " + q + " >/dev/null; }"
	res, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: cmd, Stdin: []byte(content), Timeout: 30 * time.Second, User: ss.user})
	if err != nil {
		return err
	}
	if res.ExitCode != 0 && ss.rootExec {
		// the learner's sudo cannot elevate here: save it as root, as their sudo would
		cmd = "mkdir -p " + dir + " && cat > " + q
		if res, err = ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: cmd, Stdin: []byte(content), Timeout: 30 * time.Second, User: rootUser}); err != nil {
			return err
		}
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%s", strings.TrimSpace(res.Stderr+res.Stdout))
	}
	return nil
}

// A segment is the part of a written file that one block gave: the file line its first
// content line became.
type segment struct {
	block tutorial.CodeBlock
	first int // 1-based file line of the block's first content line
}

// segment records which block wrote which lines of p (an append adds to what is there).
func (ss *session) segment(p string, s step, content string) {
	if ss.segments == nil {
		ss.segments = map[string][]segment{}
	}
	if s.prepend {
		// the lines shown go first; what was there moves down
		added := strings.Count(strings.TrimSuffix(s.content, "\n"), "\n") + 1
		segs := []segment{{block: s.block, first: 1}}
		for _, g := range ss.segments[p] {
			segs = append(segs, segment{block: g.block, first: g.first + added})
		}
		ss.segments[p] = segs
		return
	}
	if !s.appendF {
		ss.segments[p] = []segment{{block: s.block, first: 1}}
		return
	}
	added := strings.Count(strings.TrimSuffix(s.content, "\n"), "\n") + 1
	ss.segments[p] = append(ss.segments[p], segment{block: s.block, first: strings.Count(strings.TrimSuffix(content, "\n"), "\n") + 2 - added})
}

// tutorialLine is the tutorial line that gave line n of the written file p (0 when no
// block of the tutorial shows that line as it is in the file).
func (ss *session) tutorialLine(p string, n int) int {
	lines := strings.Split(ss.written[p], "\n")
	if n < 1 || n > len(lines) || ss.task.Tutorial == nil {
		return 0
	}
	want := strings.TrimSpace(lines[n-1])
	if want == "" {
		return 0
	}
	segs := ss.segments[p]
	for i := len(segs) - 1; i >= 0; i-- {
		sg := segs[i]
		if idx := n - sg.first; idx >= 0 && idx < len(sg.block.ContentLines) {
			if ln := sg.block.ContentLines[idx]; strings.TrimSpace(ss.task.Tutorial.Map.Line(ln)) == want {
				return ln
			}
		}
	}
	// lines the reader's copy leaves out (a caption option) shift the count: the one
	// tutorial line of the file's blocks with that text
	found := 0
	for _, sg := range segs {
		for _, ln := range sg.block.ContentLines {
			if strings.TrimSpace(ss.task.Tutorial.Map.Line(ln)) == want {
				if found != 0 {
					return 0
				}
				found = ln
			}
		}
	}
	return found
}

// reFileLine: an error naming a line of a file ("While parsing file \"x.journal\", line
// 17", "File \"app.py\", line 3", "calc.y:31:", "main.go:12:5:", OpenSCAD's "syntax
// error in file bracket.scad, line 16", htslib's "Parse error reading \"data/targets.bed\" at
// line 1", remind's "reminders.rem(12): Expecting time after AT").
var reFileLine = regexp.MustCompile(`(?m)(?:(?:parsing file|File) "([^"]+)"|\bin file ([\w./+-]+\.\w+)), line (\d+)|(?:^|[\s(])((?:/|\./|~/)?[\w./+-]+\.\w+):(\d+)(?::\d+)?:|(?i:reading|parsing|in) "([^"]+)" at line (\d+)|^([\w./~-]+\.\w+)\((\d+)\): `)

// fileLineRef is the file and the line number a match of reFileLine names.
func fileLineRef(m []string) (name, num string) {
	return firstNonEmpty(m[1], m[2], m[4], m[6], m[8]), firstNonEmpty(m[3], m[5], m[7], m[9])
}

// contentLine is the tutorial line inside a block the tutorial wrote to a file that the
// output's error points at, the last such reference winning (0 when none).
func (ss *session) contentLine(output string) int {
	at, _ := ss.contentLineOf(output)
	return at
}

// contentLineOf is contentLine and the file (its absolute path) that holds the line.
func (ss *session) contentLineOf(output string) (int, string) {
	at, file := 0, ""
	for _, m := range reFileLine.FindAllStringSubmatch(output, -1) {
		name, num := fileLineRef(m)
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		if ln := ss.tutorialLine(ss.abs(name), n); ln > 0 {
			at, file = ln, ss.abs(name)
		}
	}
	return at, file
}

// builtLineOf is contentLineOf for a file the tutorial built with commands (`cat >>
// reminders.rem <<'EOF'`) rather than wrote from a block: the line the error points at,
// read from the file, found in one command of the tutorial (0 when none, or several).
func (ss *session) builtLineOf(ctx context.Context, output string) (int, string) {
	for _, m := range reFileLine.FindAllStringSubmatch(output, 3) {
		name, num := fileLineRef(m)
		if _, ok := ss.written[ss.abs(name)]; ok || num == "" {
			continue
		}
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `sed -n "${n}p" -- "$f"`, Env: map[string]string{"n": num, "f": ss.abs(name)}, Timeout: 10 * time.Second, User: ss.user})
		if err != nil || r.ExitCode != 0 {
			continue
		}
		want := strings.TrimSpace(r.Stdout)
		if want == "" {
			continue
		}
		found := 0
		for _, st := range ss.steps {
			if st.kind != runStep || st.command == nil || !strings.Contains(st.command.Text, "<<") {
				continue
			}
			lines := strings.Split(st.command.Text, "\n")
			if len(lines) != st.command.EndLine-st.command.StartLine+1 {
				continue // (continued lines joined: no line numbers to give)
			}
			for i, l := range lines {
				if strings.TrimSpace(l) == want {
					if found != 0 {
						return 0, ""
					}
					found = st.command.StartLine + i
				}
			}
		}
		if found > 0 {
			return found, ss.abs(name)
		}
	}
	return 0, ""
}

// relocate names, in finding r, the line of the tutorial's file content that its error
// points at (a transaction that does not balance, a syntax error): that line is what to
// change. The finding stays on the step where the reader gets stuck; file contents are
// not where a newcomer notices anything.
func (ss *session) relocate(ctx context.Context, r int, output string) {
	ln, file := ss.contentLineOf(output)
	if ln <= 0 {
		ln, file = ss.builtLineOf(ctx, output)
	}
	if ln <= 0 || ss.roots[r].finding < 0 {
		return
	}
	if _, ok := ss.badContent[file]; !ok {
		// later commands that refuse the same file for what is in it follow from this
		ss.badContent[file] = r
	}
	f := &ss.res.Findings[ss.roots[r].finding]
	text := strings.TrimSpace(ss.task.Tutorial.Map.Line(ln))
	f.Problem += fmt.Sprintf(" — the error points at line %d, in the file the tutorial wrote (`%s`)", ln, loop.Clip(text, 100))
	if mark, other := foreignComment(text, ss.written[file]); mark != "" {
		// a shell-style `# …` comment in an OpenSCAD file, whose comments are `// …`
		f.Problem += fmt.Sprintf("; the line starts with `%s`, which is not a comment in this file, whose other comments start with `%s`", mark, other)
		f.Fix = fmt.Sprintf("write the comment at line %d with `%s` instead of `%s`", ln, other, mark)
		return
	}
	if headerRow(ss.written[file]) && text == firstContentLine(ss.written[file]) {
		// "chrom start end name" over rows of a name and numbers, in a BED file
		f.Problem += "; that line is a row of column names (a header), and the program reads every line as data"
		f.Fix = fmt.Sprintf("remove the header row (line %d) from the file, or mark it as a comment if the format has comments", ln)
		return
	}
	if !strings.Contains(f.Fix, fmt.Sprintf("line %d", ln)) && knownErrorFix(ctx, ss, output) == "" {
		// (a tool's known error has its own fix: the schema to change, not the document
		// line the error points at)
		f.Fix = fmt.Sprintf("correct line %d of the file the tutorial has the reader write (`%s`), then ", ln, loop.Clip(strings.TrimSpace(ss.task.Tutorial.Map.Line(ln)), 60)) + f.Fix
	}
}

// moveTo puts finding r on tutorial line ln, saying why (a format with the line's %d);
// the line it was on becomes an "also at".
func (ss *session) moveTo(r, ln int, why string) {
	if ln <= 0 || ss.roots[r].finding < 0 {
		return
	}
	f := &ss.res.Findings[ss.roots[r].finding]
	if ln == f.Line {
		return
	}
	f.Problem += " — " + fmt.Sprintf(why, ln)
	f.AlsoAt = append([]int{f.Line}, f.AlsoAt...)
	f.Line, f.EndLine = ln, ln
	f.Quote = strings.TrimSpace(ss.task.Tutorial.Map.Line(ln))
}

// firstContentLine is the first line of content that is not blank, trimmed.
func firstContentLine(content string) string {
	for _, l := range strings.Split(content, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// headerRow: a table's first line holds only names where the rows below it have numbers,
// as many fields each ("chrom start end name" over "chr1 40 60 snp_window").
func headerRow(content string) bool {
	var rows [][]string
	for _, l := range strings.Split(content, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			rows = append(rows, f)
		}
	}
	if len(rows) < 2 || len(rows[0]) < 2 {
		return false
	}
	for _, w := range rows[0] {
		if !reHeaderName.MatchString(w) {
			return false
		}
	}
	numbers := false
	for _, r := range rows[1:] {
		if len(r) != len(rows[0]) {
			return false
		}
		for _, w := range r {
			if _, err := strconv.ParseFloat(w, 64); err == nil {
				numbers = true
			}
		}
	}
	return numbers
}

// reHeaderName: a column's name (letters first, no digits standing alone).
var reHeaderName = regexp.MustCompile(`^#?[A-Za-z][\w.-]*$`)

// commentMarks are what comments start with in the languages tutorials write.
var commentMarks = []string{"//", "#", "--", ";", "%"}

// foreignComment: line starts with one comment mark and the file's other comments (at
// the start of a line or after code) all start with another, at least twice: the two
// marks ("" when not so).
func foreignComment(line, content string) (mark, other string) {
	markOf := func(l string) string {
		for _, m := range commentMarks {
			if strings.HasPrefix(l, m) && !strings.HasPrefix(l, "#!") && !strings.HasPrefix(l, "#include") && !strings.HasPrefix(l, "#define") {
				return m
			}
		}
		return ""
	}
	if mark = markOf(line); mark == "" {
		return "", ""
	}
	count := map[string]int{}
	for _, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if t == line {
			continue
		}
		for _, m := range commentMarks {
			// at the start of a line, or after code ("width = 30;      // mm")
			if markOf(t) == m || strings.Contains(t, " "+m+" ") && m != "%" && m != ";" {
				count[m]++
			}
		}
	}
	if count[mark] > 0 || len(count) != 1 {
		return "", ""
	}
	for m, n := range count {
		if n >= 2 {
			return mark, m
		}
	}
	return "", ""
}

// mergeFragment puts a part of a file, as it should now read, in place of its
// counterpart in old: the one statement of old whose first line is the fragment's first
// line, up to the line that closes the bracket it opens (`urlpatterns = [` … `]`), or
// the indented body under it (`def main():`). It says where the fragment starts; ok is
// false when old has no single counterpart or the fragment is more than that statement.
func mergeFragment(old, frag string) (merged string, at int, ok bool) {
	lines := strings.Split(strings.TrimRight(old, "\n"), "\n")
	fl := strings.Split(strings.TrimRight(frag, "\n"), "\n")
	if len(fl) == 0 || strings.TrimSpace(fl[0]) == "" || len(fl) > 1 && statementEnd(fl) != len(fl)-1 {
		return "", 0, false
	}
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == strings.TrimSpace(fl[0]) {
			if start >= 0 {
				return "", 0, false
			}
			start = i
		}
	}
	if start < 0 {
		return "", 0, false
	}
	end := start + statementEnd(lines[start:])
	out := append(append(append([]string{}, lines[:start]...), fl...), lines[end+1:]...)
	return strings.Join(out, "\n") + "\n", start + 1, true
}

// statementEnd is the index of the last line of the statement that starts lines[0]:
// where the brackets it opens close, or the last line indented under a line ending in
// ':' (0 for a one-line statement).
// indentedBelow: the first line heads a section whose other lines are indented under it
// (HAProxy's `global` and its settings).
func indentedBelow(lines []string) bool {
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) != "" {
			return indentOf(l) > indentOf(lines[0])
		}
	}
	return false
}

// reDoBlock: a line that opens a block closed by a line `end` at its indentation.
var reDoBlock = regexp.MustCompile(`(?:\bdo(?:\s*\|[^|]*\|)?|\bthen|^(?:def|class|module|function|local function)\b.*[^,;])$`)

func statementEnd(lines []string) int {
	depth := 0
	for i, l := range lines {
		depth += strings.Count(l, "[") + strings.Count(l, "(") + strings.Count(l, "{") - strings.Count(l, "]") - strings.Count(l, ")") - strings.Count(l, "}")
		if depth <= 0 && i > 0 {
			return i
		}
		if i == 0 && depth <= 0 {
			block := reDoBlock.MatchString(strings.TrimSpace(l)) // Ruby, Elixir, Lua: `def x do` … `end`
			if !strings.HasSuffix(strings.TrimSpace(l), ":") && !block && !indentedBelow(lines) {
				return 0
			}
			in := indentOf(l)
			end := 0
			for j := 1; j < len(lines); j++ {
				if strings.TrimSpace(lines[j]) == "" {
					continue
				}
				if indentOf(lines[j]) <= in {
					if block && strings.TrimSpace(lines[j]) == "end" {
						end = j
					}
					break
				}
				end = j
			}
			return end
		}
	}
	return len(lines) - 1
}

// unescapeProse drops the backslash of Markdown's escapes (a backslash before ASCII
// punctuation) outside code spans, where it is literal: the text as a reader sees it.
func unescapeProse(l string) string {
	if !strings.Contains(l, `\`) {
		return l
	}
	var b strings.Builder
	inCode := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == '`' {
			inCode = !inCode
		} else if c == '\\' && !inCode && i+1 < len(l) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", l[i+1]) >= 0 {
			i++
			c = l[i]
		}
		b.WriteByte(c)
	}
	return b.String()
}

// reDokuMono: DokuWiki's monospace, two single quotes on each side.
var reDokuMono = regexp.MustCompile(`''([^'\s][^']*?)''`)

// runsFile: shell lines that make executable, run or source the file p.
func runsFile(content, p string) bool {
	b := regexp.QuoteMeta(path.Base(p))
	return regexp.MustCompile(`(?m)^\s*(?:\$\s+)?(?:chmod\s+\S+\s+(?:\S*/)?` + b + `\b|(?:sh|bash|source|\.)\s+(?:\S*/)?` + b + `\b|(?:\./|~/|/)\S*?` + b + `(?:\s|$))`).MatchString(content)
}

// reTextileItem: a line of Textile's numbered list (Redmine, Textpattern) that ends with a
// colon, as it introduces the block below it: "# Make a working folder and go there:".
var reTextileItem = regexp.MustCompile(`^#\s+([^#\s].*:)$`)

// reTextileCode: Textile's inline code, an at sign on each side (`@results.txt@`), between
// spaces or punctuation (not an e-mail address, which has one).
var reTextileCode = regexp.MustCompile(`(^|[\s(])@([^@\s](?:[^@\n]*[^@\s])?)@([\s.,:;!?)]|$)`)

// besideDir: the folder a file step goes in by the earlier file it names (step.beside):
// where the session saved that file ("" when none).
func (ss *session) besideDir(s step) string {
	if s.beside == "" {
		return ""
	}
	for _, w := range slices.Sorted(maps.Keys(ss.written)) {
		if path.Base(w) == path.Base(s.beside) {
			return path.Dir(w)
		}
	}
	return ""
}
