package none

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Prerequisites the tutorial declares: a "Prerequisites"/"Requirements"/"Before you
// begin" section, or a sentence such as "make sure you have Go 1.22+ installed" or "now
// that you have installed X". A declared tool the learner image lacks is a limitation of
// the environment (install it with smile.json's setup list), not a fault of the tutorial.
type prereqs map[string]int // tool name → line it is declared on

var (
	rePrereqHeading = regexp.MustCompile(`(?i)prerequisite|requirements?\b|before you (?:begin|start)|what you(?:'ll| will)? need|you(?:'ll| will) need|dependencies`)
	rePrereqPhrase  = regexp.MustCompile(`(?i)(you (?:must|need to|should|will need to) have|you(?:'ll| will)? need\b|make sure (?:that )?you have|ensure (?:that )?you have|verify that you have|requires?\b|required\b|you have installed|if you(?:'ve| have) installed|now that you(?:'ve| have) installed|an installation of|install(?:ed)? on your (?:machine|system|computer)|\[install [^\]]+\]|installation instructions|is not installed, follow|before installing)`)
)

// reInstallFirst: the prose tells the reader to install a named program themselves.
var reInstallFirst = regexp.MustCompile("(?i)\\binstall(?:ed)?\\s+`([a-z][\\w.+-]*)`\\s+(?:from\\s+[^,.;)]+\\s+)?(?:first|yourself|separately|beforehand)\\b")

// declared reads the prerequisites of a tutorial.
func declared(t *tutorial.Tutorial) prereqs {
	p := prereqs{}
	n := t.Map.LineCount()
	aptIn := aptSections(t)
	inSection := 0
	for ln := 1; ln <= n; ln++ {
		line := t.Map.Line(ln)
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "#") || strings.Contains(trim, `heading "`) {
			h := strings.TrimLeft(trim, "# ")
			if rePrereqHeading.MatchString(h) {
				inSection = ln
			} else if inSection > 0 {
				inSection = 0
			}
		}
		for _, m := range reInstallFirst.FindAllStringSubmatch(line, -1) {
			// "(install `cloudflared` from Cloudflare first)": a tool the table may not know
			if _, ok := p[toolOf(m[1]).Name]; !ok {
				p[toolOf(m[1]).Name] = ln
			}
		}
		if inSection == 0 && !rePrereqPhrase.MatchString(line) {
			continue
		}
		if aptIn[inSection] && (otherSystemInstall(trim) || reOtherOS.MatchString(line)) {
			// the section gives the Debian reader's install (a Debian tab); what only the
			// Fedora tab installs (`dnf install groff man-db`) or the macOS tab says
			// ("`man` is already installed") is not declared for them
			continue
		}
		for _, name := range toolsNamed(line) {
			if _, ok := p[name]; !ok {
				p[name] = ln
			}
		}
	}
	return p
}

// sectionStarts gives each line the line of the heading of the section it is in (0
// before the first heading).
func sectionStarts(t *tutorial.Tutorial) []int {
	n := t.Map.LineCount()
	out := make([]int, n+1)
	cur := 0
	for ln := 1; ln <= n; ln++ {
		if trim := strings.TrimSpace(t.Map.Line(ln)); strings.HasPrefix(trim, "#") || strings.Contains(trim, `heading "`) {
			cur = ln
		}
		out[ln] = cur
	}
	return out
}

// aptSections: the headings of the sections holding an apt install command.
func aptSections(t *tutorial.Tutorial) map[int]bool {
	out := map[int]bool{}
	for ln, start := range sectionStarts(t) {
		if _, apt := aptInstall(t.Map.Line(ln)); ln > 0 && apt {
			out[start] = true
		}
	}
	return out
}

// otherSystemInstall: a line that runs another system's package manager (`$ sudo dnf
// install groff man-db`, `brew install fpc`).
func otherSystemInstall(line string) bool {
	f := strings.Fields(strings.TrimLeft(line, "$#> "))
	if len(f) > 0 && f[0] == "sudo" {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	_, ok := otherOSPackageManagers[f[0]]
	return ok
}

var reBacktick = regexp.MustCompile("`([^`]+)`")

// toolsNamed lists the tools of the table that a line of prose names.
func toolsNamed(line string) []string {
	var out []string
	ticked := map[string]bool{}
	for _, m := range reBacktick.FindAllStringSubmatch(line, -1) {
		ticked[strings.ToLower(strings.Fields(m[1] + " x")[0])] = true
	}
	lower := strings.ToLower(line)
	for _, t := range tools {
		for _, a := range append([]string{strings.ToLower(t.Name)}, t.Aliases...) {
			if ticked[a] || nameIn(line, lower, a) {
				out = append(out, t.Name)
				break
			}
		}
	}
	return out
}

// nameIn finds alias a as a word of the line; short or everyday words ("go", "make")
// count only capitalised ("Go") so that "go to" is not Go.
func nameIn(line, lower, a string) bool {
	re := regexp.MustCompile(`(?:^|[^\w.-])` + regexp.QuoteMeta(a) + `(?:$|[^\w-])`)
	if everyday[a] {
		return false // only in backticks
	}
	if len(a) > 3 || strings.ContainsAny(a, "0123456789.") {
		return re.MatchString(lower)
	}
	capital := strings.ToUpper(a[:1]) + a[1:]
	reCap := regexp.MustCompile(`(?:^|[^\w.-])` + regexp.QuoteMeta(capital) + `(?:$|[^\w-])`)
	return reCap.MatchString(line)
}

var everyday = map[string]bool{"make": true, "node": true, "open": true, "port": true, "rust": false, "java": false, "ruby": false,
	"file": true, "tree": true, "zip": true, "look": true, "write": true, "host": true, "play": true, "rec": true, "free": true,
	"watch": true, "top": true, "column": true, "parallel": true, "dot": true, "age": true, "route": true, "convert": true,
	"identify": true, "compare": true, "import": true, "stream": true, "composite": true, "uptime": true,
	"http": true, "https": true, "cancel": true, "stack": true, "mix": true, "man": true, "ping": true, "bridge": true,
	"wish": true, "bat": true, "guild": true}

// declaredFor returns the line a tool providing command was declared on, 0 when not
// declared before line.
func (p prereqs) declaredFor(command string, before int) int {
	t := toolOf(command)
	if ln, ok := p[t.Name]; ok && ln < before {
		return ln
	}
	return 0
}
