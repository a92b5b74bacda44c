package none

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// A container is markup around a code block that changes whether a reader runs it:
// a tab of a tab set (MkDocs `=== "Windows"`, pymdown `/// tab`, Docusaurus and
// Starlight `<TabItem>`, Mintlify `<Tab>`, Hugo `{{< tab >}}`, GitBook `{% tab %}`, GitLab `:::TabTitle`,
// MyST `:::{tab-item}`, DocC `@Tab("Linux") {`, Grav `[ui-tab title="macOS"]`), a code group whose blocks are tabs (Hugo `{{< code >}}`,
// VitePress `::: code-group`, Mintlify `<CodeGroup>`), or an aside (an admonition,
// MyST `:::{note}`, Starlight `<Aside>`, `<details>`).
type container struct {
	kind   string // "tab", "aside" or "plain" (a container that only changes how the text renders)
	label  string // the tab's label or the aside's title
	set    int    // tab set id (tabs of one set share it)
	indent int    // for indentation-scoped markup (MkDocs), else -1
	closer *regexp.Regexp
	start  int // line
}

var (
	reMkTab     = regexp.MustCompile(`^(\s*)===\+?\s+"([^"]*)"`)
	reMkAside   = regexp.MustCompile(`^(\s*)(?:!!!|\?\?\?\+?)\s+(\w+)(?:\s+"([^"]*)")?`)
	rePymdTab   = regexp.MustCompile(`^\s*///\s*tab\s*\|\s*(.*)$`)
	rePymdAside = regexp.MustCompile(`^\s*///\s*(\w+)(?:\s*\|\s*(.*))?$`)
	rePymdClose = regexp.MustCompile(`^\s*///\s*$`)
	// DocC: `@TabNavigator {` holding `@Tab("macOS") {` … `}`
	reDocCTabs  = regexp.MustCompile(`^\s*@TabNavigator\s*\{\s*$`)
	reDocCTab   = regexp.MustCompile(`^\s*@Tab\(\s*"([^"]*)"\s*\)\s*\{\s*$`)
	reDocuTabs  = regexp.MustCompile(`^\s*<Tabs\b`)
	reDocuItem  = regexp.MustCompile(`^\s*<Tab(?:Item)?\b([^>]*)>`) // Docusaurus/Starlight TabItem, Mintlify Tab
	reDocuItemX = regexp.MustCompile(`</Tab(?:Item)?>`)
	reDocuTabsX = regexp.MustCompile(`</Tabs>`)
	reHugoTabsX = regexp.MustCompile(`\{\{[<%]\s*/tab(?:s|pane)\s*[>%]\}\}`)
	reAttrLabel = regexp.MustCompile(`(?:label|value|title)=["{']+([^"'}]*)`)
	reDocuAside = regexp.MustCompile(`^\s*:::\s*(\w+)\s*(.*)$`)
	reDocuClose = regexp.MustCompile(`^\s*:::\s*$`)
	// reLiquidPlatform: a GitHub Docs platform block
	reLiquidPlatform = regexp.MustCompile(`^\s*\{%-?\s*(linux|mac|windows)\s*-?%\}\s*$`)
	// reZone, reZoneEnd: a Microsoft Learn zone for one pivot (or several, comma-separated)
	reZone    = regexp.MustCompile(`^\s*:::\s*zone\s+(?:pivot|target)="([^"]+)"`)
	reZoneEnd = regexp.MustCompile(`^\s*:::\s*zone-end\s*$`)
	// rePlainContainer: VuePress's `::: v-pre` and VitePress's `::: raw` change only how
	// what they hold is rendered
	rePlainContainer = regexp.MustCompile(`^\s*:::\s*(?:v-pre|raw)\s*$`)
	reDetails        = regexp.MustCompile(`(?i)^\s*<details\b`)
	reDetailsX       = regexp.MustCompile(`(?i)</details>`)
	reSummary        = regexp.MustCompile(`(?i)<summary>(.*?)</summary>`)
	reHugoTabs       = regexp.MustCompile(`^\s*\{\{[<%]\s*tab(?:s|pane)\b`) // Docsy's tabpane too
	reHugoTab        = regexp.MustCompile(`^\s*\{\{[<%]\s*tab\s+(?:(?:name|title|header)=)?"([^"]*)"`)
	reHugoTabX       = regexp.MustCompile(`\{\{[<%]\s*/tab\s*[>%]\}\}`)
	reHugoCode       = regexp.MustCompile(`^\s*\{\{[<%]\s*code\b`)
	reHugoCodeX      = regexp.MustCompile(`\{\{[<%]\s*/code\s*[>%]\}\}`)
	reHugoAside      = regexp.MustCompile(`^\s*\{\{[<%]\s*(admonition|note|warning|caution|tip|details|alert)\b([^>%]*)[>%]\}\}`)
	reHugoAsideX     = regexp.MustCompile(`\{\{[<%]\s*/(admonition|note|warning|caution|tip|details|alert)\s*[>%]\}\}`)
	// GitBook's (and Liquid themes') {% tabs %} … {% tab title="Debian" %} … {% endtab %} … {% endtabs %}
	reLiquidTabs  = regexp.MustCompile(`^\s*\{%-?\s*tabs\s*-?%\}`)
	reLiquidTabsX = regexp.MustCompile(`\{%-?\s*endtabs\s*-?%\}`)
	reLiquidTab   = regexp.MustCompile(`^\s*\{%-?\s*tab\s+(?:title=)?"([^"]*)"`)
	reLiquidTabX  = regexp.MustCompile(`\{%-?\s*endtab\s*-?%\}`)
	// Grav's shortcode-ui (and WordPress tab plugins): [ui-tabs] … [ui-tab title="macOS"] …
	// [/ui-tab] … [/ui-tabs], or [tabs] [tab title="…"] … [/tab] [/tabs]
	reBracketTabs  = regexp.MustCompile(`^\s*\[(?:ui-)?tabs\b[^\]]*\]\s*$`)
	reBracketTabsX = regexp.MustCompile(`\[/(?:ui-)?tabs\]`)
	reBracketTab   = regexp.MustCompile(`^\s*\[(?:ui-)?tab\s+(?:title|name|label)="([^"]*)"[^\]]*\]\s*$`)
	reBracketTabX  = regexp.MustCompile(`\[/(?:ui-)?tab\]`)
	reZolaAside    = regexp.MustCompile(`^\s*\{%\s*(details|note|warning|info)\b(.*)%\}`)
	reZolaEnd      = regexp.MustCompile(`^\s*\{%-?\s*end(?:details|note|warning|info)?\s*-?%\}`) // Zola's {% end %}, Liquid's {% enddetails %} (dev.to, Jekyll)
	reGHAlert      = regexp.MustCompile(`^\s*>\s*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]`)
	// VitePress `::: code-group` and Mintlify `<CodeGroup>`: their fenced blocks are tabs
	// named by the fence's label (```sh [npm], ```bash npm).
	reCodeGroup  = regexp.MustCompile(`^\s*(?::::\s*code-group\s*$|<CodeGroup\b[^>]*>\s*$)`)
	reCodeGroupX = regexp.MustCompile(`^\s*(?::::\s*$|</CodeGroup>)`)
	// VuePress 1's <CodeGroupItem title="Debian / Ubuntu" active> inside <CodeGroup>
	reCodeGroupItem  = regexp.MustCompile(`^\s*<CodeGroupItem\b([^>]*)>`)
	reCodeGroupItemX = regexp.MustCompile(`</CodeGroupItem>`)
	// vuepress-theme-hope: `::: tabs` or `::: code-tabs#shell` holding `@tab Label` (or
	// `@tab:active Label`) lines, closed by `:::`
	reHopeTabs = regexp.MustCompile(`^\s*:::\s*(?:code-)?tabs(?:#\S*)?\s*$`)
	reHopeTab  = regexp.MustCompile(`^\s*@tab(?::active)?\s+(.+?)\s*$`)
	// GitLab docs: ::Tabs, :::TabTitle Linux, ::EndTabs
	// docsify-tabs: `<!-- tabs:start -->`, `#### **Debian**` headings, `<!-- tabs:end -->`
	reDocsifyTabs  = regexp.MustCompile(`^\s*<!--\s*tabs:start\s*-->\s*$`)
	reDocsifyTab   = regexp.MustCompile(`^\s*#{1,6}\s+\*\*(.+?)\*\*\s*$`)
	reDocsifyTabsX = regexp.MustCompile(`^\s*<!--\s*tabs:end\s*-->\s*$`)
	reGLTabs       = regexp.MustCompile(`^\s*::Tabs\s*$`)
	reGLTab        = regexp.MustCompile(`^\s*:::TabTitle\s+(.+?)\s*$`)
	reGLTabsX      = regexp.MustCompile(`^\s*::EndTabs\s*$`)
	// MyST colon fences: ::::{tab-set}, :::{tab-item} Linux, :::{note}, closed by as many colons
	reMySTColon = regexp.MustCompile(`^\s*(:{3,})\{([\w-]+)\}\s*(.*?)\s*$`)
	// MDX components: Starlight <Aside>, Mintlify <Note>, <Warning>, <Tip>, <Info>, …
	reMDXAside = regexp.MustCompile(`^\s*<(Aside|Note|Warning|Tip|Info|Callout|Check|Danger|Caution|Details)\b[^>]*>`)
)

// mystAsides are the MyST/Sphinx directives that hold a side note.
var mystAsides = map[string]bool{"note": true, "tip": true, "hint": true, "warning": true, "caution": true, "attention": true,
	"danger": true, "error": true, "important": true, "seealso": true, "admonition": true, "dropdown": true, "sidebar": true, "aside": true}

// scopes maps every line of a tutorial to the containers around it.
type scopes struct {
	at   [][]container // at[line] (1-based)
	sets map[int][]string
	// codeGroup[line] is the Hugo {{< code >}} group a fenced block's opening line is in
	codeGroup map[int]int
	// qa: on a question-and-answer page, the parts the reader does not follow (the
	// question, the answers other than the one followed)
	qa []qaPart
}

// qaPart is a span of lines of a question-and-answer page that the reader skips.
type qaPart struct {
	from, to int
	why      string
}

// reAnswersHeading: the line that opens a Q&A page's answers ("## 3 Answers", "**2
// Answers** · Sorted by: …"); reAcceptedAnswer marks the asker's pick.
var (
	reAnswersHeading = regexp.MustCompile(`^(?:#{1,6}\s*|\*\*)?\d+\s+Answers?\b`)
	reAcceptedAnswer = regexp.MustCompile(`(?i)\baccepted answer\b|[✔✓]\s*[*_]{0,2}accepted\b`)
)

// qaParts finds the question and the answers of a Q&A page, each answer ending at a
// thematic break: the followed answer is the accepted one, or else the first; the
// others, and the question with the asker's own commands, are skipped.
func qaParts(m *tutorial.LineMap) []qaPart {
	n := m.LineCount()
	head := 0
	for ln := 1; ln <= n; ln++ {
		if reAnswersHeading.MatchString(strings.TrimSpace(m.Line(ln))) {
			if b, ok := m.BlockAt(ln); ok && (b.Kind == tutorial.KindHeading || b.Kind == tutorial.KindParagraph) {
				head = ln
				break
			}
		}
	}
	if head == 0 {
		return nil
	}
	var answers [][2]int
	start := head + 1
	for ln := head + 1; ln <= n+1; ln++ {
		if ln <= n {
			if b, ok := m.BlockAt(ln); !ok || b.Kind != tutorial.KindThematicBreak || b.StartLine != ln {
				continue
			}
		}
		answers = append(answers, [2]int{start, ln - 1})
		start = ln + 1
	}
	followed := -1
	for i, a := range answers {
		for ln := a[0]; ln <= a[1] && followed < 0; ln++ {
			if b, ok := m.BlockAt(ln); ok && b.Kind != tutorial.KindFencedCode && b.Kind != tutorial.KindIndentedCode && b.Kind != tutorial.KindHTMLCode && reAcceptedAnswer.MatchString(m.Line(ln)) {
				followed = i
			}
		}
	}
	for i, a := range answers {
		if followed < 0 && hasCode(m, a) {
			followed = i // the first answer with steps, when none is marked accepted
		}
	}
	why := "the question's own commands (a Q&A page: the answers start at line " + strconv.Itoa(head) + ")"
	var parts []qaPart
	from := 1
	if followed >= 0 {
		for _, b := range questionSetup(m, head, answers[followed]) {
			// the asker's block that makes the file the answer works on ("For testing I
			// generate a fake log: … > app.log") is the reader's first step
			parts = append(parts, qaPart{from: from, to: b[0] - 1, why: why})
			from = b[1] + 1
		}
	}
	parts = append(parts, qaPart{from: from, to: head, why: why})
	for i, a := range answers {
		if i != followed {
			parts = append(parts, qaPart{from: a[0], to: a[1], why: "another answer of the Q&A page (the reader follows the one at line " + strconv.Itoa(answers[max(followed, 0)][0]) + ")"})
		}
	}
	return parts
}

// reMadeFile: a command line that writes a file by redirection (`… > app.log`) or makes
// one (`touch notes.txt`).
var reMadeFile = regexp.MustCompile(`(?m)(?:[^>]>|\btouch)\s*([\w./~-]+)\s*$`)

// questionSetup: the fenced blocks of a Q&A page's question (before line head) that make
// a file the followed answer names, as line spans.
func questionSetup(m *tutorial.LineMap, head int, answer [2]int) [][2]int {
	var said []string
	for ln := answer[0]; ln <= answer[1]; ln++ {
		said = append(said, m.Line(ln))
	}
	text := strings.Join(said, "\n")
	var out [][2]int
	for ln := 1; ln < head; ln++ {
		b, ok := m.BlockAt(ln)
		if !ok || b.Kind != tutorial.KindFencedCode || b.StartLine != ln {
			continue
		}
		var content []string
		for l := b.StartLine + 1; l < b.EndLine; l++ {
			content = append(content, m.Line(l))
		}
		for _, f := range reMadeFile.FindAllStringSubmatch(strings.Join(content, "\n"), -1) {
			if name := path.Base(f[1]); len(name) >= 3 && strings.Contains(text, name) {
				out = append(out, [2]int{b.StartLine, b.EndLine})
				break
			}
		}
		ln = b.EndLine
	}
	return out
}

// hasCode: a code block starts in the span.
func hasCode(m *tutorial.LineMap, span [2]int) bool {
	for ln := span[0]; ln <= span[1]; ln++ {
		if b, ok := m.BlockAt(ln); ok && b.StartLine == ln && (b.Kind == tutorial.KindFencedCode || b.Kind == tutorial.KindIndentedCode || b.Kind == tutorial.KindHTMLCode) {
			return true
		}
	}
	return false
}

func indentOf(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// scan reads the tutorial's lines once, tracking tab sets and asides. Fenced code is
// skipped so markup shown inside code is not taken for structure.
func scan(m *tutorial.LineMap) *scopes {
	n := m.LineCount()
	sc := &scopes{at: make([][]container, n+2), sets: map[int][]string{}, codeGroup: map[int]int{}}
	var stack []container
	nextSet := 0
	lastMkSet := map[int]int{} // indent → set id of the MkDocs tab set still open at that indent
	group := 0
	inGroup := 0
	var fence string
	// the page-wide choices: Microsoft Learn's zone pivots, GitHub Docs' platforms
	zoneSet, platformSet := 0, 0
	// openTab opens a tab of set (a new set when 0) and records its label.
	openTab := func(label string, set int, indent int, closer *regexp.Regexp, ln int) {
		if set == 0 {
			nextSet++
			set = nextSet
		}
		sc.sets[set] = append(sc.sets[set], label)
		stack = append(stack, container{kind: "tab", label: label, set: set, indent: indent, closer: closer, start: ln})
	}
	for ln := 1; ln <= n; ln++ {
		line := m.OriginalLine(ln)
		if t := m.Line(ln); t != line && strings.HasPrefix(strings.TrimSpace(t), ":::") {
			line = t // a MyST directive fence the parser reads as colons (tutorial.mystFences)
		}
		trim := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trim, fence) && strings.Trim(trim, fence[:1]) == "" {
				fence = ""
			}
			sc.at[ln] = append([]container(nil), stack...)
			continue
		}
		if trim != "" {
			ind := indentOf(line)
			// indentation-scoped containers end at a line indented no deeper than they are
			for len(stack) > 0 && stack[len(stack)-1].indent >= 0 && ind <= stack[len(stack)-1].indent {
				stack = stack[:len(stack)-1]
			}
			for k := range lastMkSet {
				if k > ind || (k == ind && !reMkTab.MatchString(line)) {
					delete(lastMkSet, k)
				}
			}
		}
		switch {
		case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
			f := trim[:3]
			for _, c := range trim[3:] {
				if c != rune(f[0]) {
					break
				}
				f += string(c)
			}
			fence = f
			if inGroup > 0 {
				sc.codeGroup[ln] = inGroup
			}
		case reCodeGroup.MatchString(line):
			group++
			inGroup = group
			stack = append(stack, container{kind: "group", indent: -1, closer: reCodeGroupX, start: ln})
		case reCodeGroupItem.MatchString(line):
			// VuePress: <CodeGroup> of <CodeGroupItem title="…">: the group is a tab set
			for k := len(stack) - 1; k >= 0; k-- {
				if stack[k].kind == "group" {
					nextSet++
					stack[k].kind, stack[k].set = "tabs", nextSet
					inGroup = 0
					break
				}
			}
			label := ""
			if mm := reAttrLabel.FindAllStringSubmatch(reCodeGroupItem.FindStringSubmatch(line)[1], -1); len(mm) > 0 {
				label = mm[len(mm)-1][1]
			}
			openTab(label, sc.enclosingSet(stack), -1, reCodeGroupItemX, ln)
		case reDocsifyTabs.MatchString(line):
			nextSet++
			stack = append(stack, container{kind: "tabs", set: nextSet, indent: -1, closer: reDocsifyTabsX, start: ln})
		case reDocsifyTab.MatchString(line) && len(stack) > 0 && (stack[len(stack)-1].closer == reDocsifyTabsX || stack[len(stack)-1].closer == reDocsifyTab):
			// docsify-tabs: `#### **conda**` opens a tab, up to the next one
			if k := len(stack) - 1; stack[k].kind == "tab" {
				stack = stack[:k]
			}
			openTab(reDocsifyTab.FindStringSubmatch(line)[1], sc.enclosingSet(stack), -1, reDocsifyTab, ln)
		case reGLTabs.MatchString(line):
			nextSet++
			stack = append(stack, container{kind: "tabs", set: nextSet, indent: -1, closer: reGLTabsX, start: ln})
		case reGLTab.MatchString(line):
			if k := len(stack) - 1; k >= 0 && stack[k].kind == "tab" && stack[k].closer == reGLTab {
				stack = stack[:k] // the previous tab ends where the next one starts
			}
			openTab(reGLTab.FindStringSubmatch(line)[1], sc.enclosingSet(stack), -1, reGLTab, ln)
		case reMySTColon.MatchString(line):
			mm := reMySTColon.FindStringSubmatch(line)
			closer := regexp.MustCompile(`^\s*` + mm[1] + `\s*$`)
			switch {
			case mm[2] == "tab-set":
				nextSet++
				stack = append(stack, container{kind: "tabs", set: nextSet, indent: -1, closer: closer, start: ln})
			case mm[2] == "tab-item":
				openTab(mm[3], sc.enclosingSet(stack), -1, closer, ln)
			case mystAsides[mm[2]]:
				stack = append(stack, container{kind: "aside", label: strings.TrimSpace(mm[2] + " " + mm[3]), indent: -1, closer: closer, start: ln})
			default: // another directive: neutral, but its closing colons are its own
				stack = append(stack, container{kind: "directive", indent: -1, closer: closer, start: ln})
			}
		case reMDXAside.MatchString(line):
			ma := reMDXAside.FindStringSubmatch(line)
			closer := regexp.MustCompile(`</` + ma[1] + `>`)
			if !closer.MatchString(line) { // a one-line note holds no code block
				stack = append(stack, container{kind: "aside", label: ma[1], indent: -1, closer: closer, start: ln})
			}
		case reMkTab.MatchString(line):
			mt := reMkTab.FindStringSubmatch(line)
			ind := len(mt[1])
			set, ok := lastMkSet[ind]
			if !ok {
				nextSet++
				set = nextSet
				lastMkSet[ind] = set
			}
			sc.sets[set] = append(sc.sets[set], mt[2])
			stack = append(stack, container{kind: "tab", label: mt[2], set: set, indent: ind, start: ln})
		case reMkAside.MatchString(line):
			ma := reMkAside.FindStringSubmatch(line)
			stack = append(stack, container{kind: "aside", label: strings.TrimSpace(ma[2] + " " + ma[3]), indent: len(ma[1]), start: ln})
		case rePymdTab.MatchString(line):
			// consecutive pymdown tabs form one set unless marked "new"
			openTab(strings.TrimSpace(rePymdTab.FindStringSubmatch(line)[1]), sc.prevPymdSet(ln, m), -1, rePymdClose, ln)
		case rePymdAside.MatchString(line) && !rePymdClose.MatchString(line):
			ma := rePymdAside.FindStringSubmatch(line)
			stack = append(stack, container{kind: "aside", label: strings.TrimSpace(ma[1] + " " + ma[2]), indent: -1, closer: rePymdClose, start: ln})
		case reDocCTabs.MatchString(line):
			// DocC's `@TabNavigator {` … `}`: its content is indented under it
			nextSet++
			stack = append(stack, container{kind: "tabs", set: nextSet, indent: indentOf(line), start: ln})
		case reDocCTab.MatchString(line):
			openTab(reDocCTab.FindStringSubmatch(line)[1], sc.enclosingSet(stack), indentOf(line), nil, ln)
		case reDocuTabs.MatchString(line):
			nextSet++
			stack = append(stack, container{kind: "tabs", set: nextSet, indent: -1, closer: reDocuTabsX, start: ln})
		case reDocuItem.MatchString(line):
			attrs := reDocuItem.FindStringSubmatch(line)[1]
			label := ""
			if mm := reAttrLabel.FindAllStringSubmatch(attrs, -1); len(mm) > 0 {
				label = mm[len(mm)-1][1]
			}
			openTab(label, sc.enclosingSet(stack), -1, reDocuItemX, ln)
		case reHopeTabs.MatchString(line):
			// vuepress-theme-hope: `::: code-tabs#shell`, then `@tab Debian / Ubuntu` lines
			nextSet++
			stack = append(stack, container{kind: "tabs", set: nextSet, indent: -1, closer: reDocuClose, start: ln})
		case reHopeTab.MatchString(line) && sc.enclosingSet(stack) != 0:
			if k := len(stack) - 1; k >= 0 && stack[k].kind == "tab" && stack[k].closer == reHopeTab {
				stack = stack[:k] // the previous tab ends where the next one starts
			}
			openTab(reHopeTab.FindStringSubmatch(line)[1], sc.enclosingSet(stack), -1, reHopeTab, ln)
		case reLiquidPlatform.MatchString(line):
			// GitHub Docs' `{% linux %}` … `{% endlinux %}`, `{% mac %}`, `{% windows %}`:
			// one choice of platform for the whole page, as its tool switcher makes
			if platformSet == 0 {
				nextSet++
				platformSet = nextSet
			}
			platform := reLiquidPlatform.FindStringSubmatch(line)[1]
			openTab(platform, platformSet, -1, regexp.MustCompile(`^\s*\{%-?\s*end`+platform+`\s*-?%\}`), ln)
		case reZone.MatchString(line):
			// Microsoft Learn's `:::zone pivot="platform-linux"` … `:::zone-end`: the page's
			// pivots are one choice for the whole page
			if zoneSet == 0 {
				nextSet++
				zoneSet = nextSet
			}
			openTab(reZone.FindStringSubmatch(line)[1], zoneSet, -1, reZoneEnd, ln)
		case reDocuAside.MatchString(line) && !reDocuClose.MatchString(line) && !reZoneEnd.MatchString(line):
			ma := reDocuAside.FindStringSubmatch(line)
			kind := "aside"
			if rePlainContainer.MatchString(line) {
				// VuePress `::: v-pre`, VitePress `::: raw`: shown as is, not set aside
				kind = "plain"
			}
			stack = append(stack, container{kind: kind, label: strings.TrimSpace(ma[1] + " " + ma[2]), indent: -1, closer: reDocuClose, start: ln})
		case reDetails.MatchString(line):
			label := ""
			if s := reSummary.FindStringSubmatch(line); s != nil {
				label = s[1]
			} else if ln+1 <= n {
				if s := reSummary.FindStringSubmatch(m.OriginalLine(ln + 1)); s != nil {
					label = s[1]
				}
			}
			stack = append(stack, container{kind: "aside", label: "details " + label, indent: -1, closer: reDetailsX, start: ln})
		case reHugoTabs.MatchString(line):
			nextSet++
			stack = append(stack, container{kind: "tabs", set: nextSet, indent: -1, closer: reHugoTabsX, start: ln})
		case reHugoTab.MatchString(line):
			openTab(reHugoTab.FindStringSubmatch(line)[1], sc.enclosingSet(stack), -1, reHugoTabX, ln)
		case reHugoCode.MatchString(line):
			group++
			inGroup = group
		case reHugoCodeX.MatchString(line):
			inGroup = 0
		case reHugoAside.MatchString(line):
			ma := reHugoAside.FindStringSubmatch(line)
			stack = append(stack, container{kind: "aside", label: strings.TrimSpace(ma[1] + " " + ma[2]), indent: -1, closer: reHugoAsideX, start: ln})
		case reLiquidTabs.MatchString(line):
			nextSet++
			stack = append(stack, container{kind: "tabs", set: nextSet, indent: -1, closer: reLiquidTabsX, start: ln})
		case reLiquidTab.MatchString(line):
			openTab(reLiquidTab.FindStringSubmatch(line)[1], sc.enclosingSet(stack), -1, reLiquidTabX, ln)
		case reBracketTabs.MatchString(line):
			nextSet++
			stack = append(stack, container{kind: "tabs", set: nextSet, indent: -1, closer: reBracketTabsX, start: ln})
		case reBracketTab.MatchString(line):
			openTab(reBracketTab.FindStringSubmatch(line)[1], sc.enclosingSet(stack), -1, reBracketTabX, ln)
		case reZolaAside.MatchString(line):
			ma := reZolaAside.FindStringSubmatch(line)
			stack = append(stack, container{kind: "aside", label: strings.TrimSpace(ma[1] + " " + ma[2]), indent: -1, closer: reZolaEnd, start: ln})
		case reGHAlert.MatchString(line):
			// a GitHub alert lasts as long as its blockquote
			end := ln
			for end+1 <= n && strings.HasPrefix(strings.TrimSpace(m.OriginalLine(end+1)), ">") {
				end++
			}
			for k := ln; k <= end; k++ {
				sc.at[k] = append(append([]container(nil), stack...), container{kind: "aside", label: reGHAlert.FindStringSubmatch(line)[1], indent: -1, start: ln})
			}
			ln = end
			continue
		default:
			// a closing line ends the innermost container it closes
			for i := len(stack) - 1; i >= 0; i-- {
				if c := stack[i]; c.closer != nil && c.closer.MatchString(line) {
					for _, gone := range stack[i:] {
						if gone.kind == "group" {
							inGroup = 0
						}
					}
					stack = stack[:i]
					break
				}
			}
		}
		sc.at[ln] = append([]container(nil), stack...)
	}
	sc.qa = qaParts(m)
	return sc
}

// prevPymdSet is the set of a pymdown tab that closed right before line ln (only blank
// lines between), so consecutive tabs form one set.
func (sc *scopes) prevPymdSet(ln int, m *tutorial.LineMap) int {
	for k := ln - 1; k >= 1; k-- {
		t := strings.TrimSpace(m.OriginalLine(k))
		if t == "" {
			continue
		}
		if rePymdClose.MatchString(t) {
			// find the tab this closer ended
			for j := k - 1; j >= 1; j-- {
				if rePymdTab.MatchString(m.OriginalLine(j)) {
					for _, c := range sc.at[j] {
						if c.kind == "tab" && c.start == j {
							return c.set
						}
					}
				}
				if rePymdClose.MatchString(strings.TrimSpace(m.OriginalLine(j))) || rePymdAside.MatchString(m.OriginalLine(j)) && !rePymdTab.MatchString(m.OriginalLine(j)) {
					return 0
				}
			}
		}
		return 0
	}
	return 0
}

func (sc *scopes) enclosingSet(stack []container) int {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].kind == "tabs" {
			return stack[i].set
		}
	}
	return 0
}

// Tab labels for the learner's Debian release (12, bookworm), and for older releases.
var (
	reBookworm     = regexp.MustCompile(`(?i)\b(?:debian\s+(?:\d+\s*(?:and|&|/|,)\s*)?12|bookworm)\b`)
	reOlderRelease = regexp.MustCompile(`(?i)\b(?:older|earlier|legacy|before)\b`)
)

// chosenTab is the tab a Debian reader follows in a set: the one whose label names
// Debian 12 (bookworm), else the first naming Linux (or Debian, Unix, bash) and not an
// older release; else the first that names no other system (the default tool); "" when
// every tab is for another system.
func chosenTab(labels []string) string {
	var linux []string
	for _, l := range labels {
		if reLinux.MatchString(l) || strings.EqualFold(strings.TrimSpace(l), "bash") {
			linux = append(linux, l)
		}
	}
	for _, l := range linux {
		if reBookworm.MatchString(l) {
			return l // "Debian 12" over "Debian 10 and older"
		}
	}
	for _, l := range linux {
		if !reOlderRelease.MatchString(l) {
			return l
		}
	}
	if len(linux) > 0 {
		return linux[0]
	}
	for _, l := range labels {
		if !reOtherOS.MatchString(l) {
			return l
		}
	}
	return ""
}

// reRequiredAside: a note whose title makes it part of the path, not an aside.
var reRequiredAside = regexp.MustCompile(`(?i)\b(?:before you (?:start|begin)|prerequisites?|requirements?|you(?:'ll| will)? need)\b`)

// skipByScope says why a reader skips a block at line ln because of its containers
// ("" when they follow it).
func (sc *scopes) skipByScope(ln int) string {
	if ln <= 0 || ln >= len(sc.at) {
		return ""
	}
	for _, p := range sc.qa {
		if ln >= p.from && ln <= p.to {
			return p.why
		}
	}
	for _, c := range sc.at[ln] {
		switch c.kind {
		case "tab":
			if chosen := chosenTab(sc.sets[c.set]); c.label != chosen {
				if chosen == "" {
					return "tab \"" + c.label + "\" is for another system"
				}
				return "tab \"" + c.label + "\" (followed \"" + chosen + "\" instead)"
			}
		case "aside":
			if reRequiredAside.MatchString(c.label) {
				continue // "Before you start": what the reader must have, checked like any step
			}
			if summary, ok := strings.CutPrefix(c.label, "details "); ok && summaryFile(summary) != "" {
				continue // a file's contents, collapsed under its name: <summary><code>data/books.csv</code></summary>
			} else if ok {
				// <details><summary>Debian / Ubuntu</summary>, then macOS, then Windows:
				// disclosure widgets used as tabs, one per system
				if reDebianish.MatchString(summary) || reLinux.MatchString(summary) && !reDistro.MatchString(summary) {
					continue
				}
				if foreignHeading(summary) {
					return "for another system (" + strings.TrimSpace(reTag.ReplaceAllString(summary, "")) + ")"
				}
			}
			return "optional: inside a side note (" + strings.TrimSpace(c.label) + ")"
		}
	}
	return ""
}

// groupSkip handles Hugo {{< code >}} groups, whose fenced blocks are tabs named by
// their info string (linux, docker, windows): the Linux one is followed.
//
// ReadMe groups fenced blocks written one right under the other, each titled after its
// language (```shell Debian / Ubuntu, then ```shell macOS), into tabs the same way.
func groupSkip(sc *scopes, blocks []tutorial.CodeBlock, cb tutorial.CodeBlock) string {
	var labels []string
	if g, ok := sc.codeGroup[cb.StartLine]; ok {
		for _, b := range blocks {
			if sc.codeGroup[b.StartLine] == g {
				labels = append(labels, groupLabel(b))
			}
		}
	} else {
		for _, b := range adjacentTitled(blocks, cb) {
			labels = append(labels, groupLabel(b))
		}
	}
	if len(labels) < 2 || distinctFiles(labels) {
		return "" // a group of different files (```go [freq.go], ```go [main.go]): each is written
	}
	if chosen, own := chosenTab(labels), groupLabel(cb); chosen != own {
		return "tab \"" + own + "\" of a code group (followed \"" + chosen + "\" instead)"
	}
	return ""
}

// adjacentTitled: the run of fenced blocks that holds cb, each opening on the line right
// after the one before it closes and each with a title after its language (nil when cb
// has no title or stands alone).
func adjacentTitled(blocks []tutorial.CodeBlock, cb tutorial.CodeBlock) []tutorial.CodeBlock {
	titled := func(b tutorial.CodeBlock) bool {
		return b.Kind == tutorial.KindFencedCode && len(strings.Fields(b.Info)) >= 2
	}
	at := slices.IndexFunc(blocks, func(b tutorial.CodeBlock) bool { return b.StartLine == cb.StartLine })
	if at < 0 || !titled(cb) {
		return nil
	}
	from, to := at, at
	for from > 0 && titled(blocks[from-1]) && blocks[from-1].EndLine+1 == blocks[from].StartLine {
		from--
	}
	for to+1 < len(blocks) && titled(blocks[to+1]) && blocks[to].EndLine+1 == blocks[to+1].StartLine {
		to++
	}
	if from == to {
		return nil
	}
	return blocks[from : to+1]
}

var reFenceLabel = regexp.MustCompile(`\[([^\]]+)\]`)

// groupLabel names a block's tab in a code group: VitePress's ```sh [npm], Mintlify's
// ```bash npm, else the info string's language (Hugo's ```linux).
func groupLabel(cb tutorial.CodeBlock) string {
	if m := reFenceLabel.FindStringSubmatch(cb.Info); m != nil {
		return m[1]
	}
	if f := strings.Fields(cb.Info); len(f) >= 2 && !strings.ContainsAny(f[1], "={}") {
		return strings.Join(f[1:], " ")
	}
	return cb.Lang
}

// distinctFiles: every label names a file and no two are one file in two languages
// (vite.config.js and vite.config.ts are alternatives; freq.go and main.go are not).
func distinctFiles(labels []string) bool {
	stems := map[string]bool{}
	for _, l := range labels {
		if !looksLikePath(l) {
			return false
		}
		stem := strings.TrimSuffix(l, path.Ext(l))
		if stems[stem] {
			return false
		}
		stems[stem] = true
	}
	return true
}

// summaryFile is the file a <details> summary names and nothing else
// (`<code>data/books.csv</code>`; not "Solution to Exercise 4.2"), "" when none.
func summaryFile(summary string) string {
	f := strings.TrimSpace(reTag.ReplaceAllString(summary, ""))
	// Hugo Book's {{< details "Tides.pmod" open >}}: the title in quotes, maybe open
	f = strings.Trim(strings.TrimSpace(strings.TrimSuffix(f, " open")), `"'`)
	if strings.ContainsAny(f, " \t") || !looksLikePath(f) {
		return ""
	}
	return f
}
