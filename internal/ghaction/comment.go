package ghaction

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/smile-loop/smile-loop/internal/report"
)

// Hidden markers identify what smile-loop posted, so re-runs update or remove their own
// comments, reviews and issues instead of piling up. A `name` input scopes them
// (as reviewdog's tool_name): two workflows or matrix jobs with different names leave
// each other's comments alone.
type markers struct{ prefix string }

func newMarkers(name string) markers {
	if name == "" {
		return markers{prefix: "<!-- smile-loop:"}
	}
	return markers{prefix: "<!-- smile-loop/" + sanitizeFP(name) + ":"}
}

func (m markers) gap() string    { return m.prefix + "gap fp=" }
func (m markers) review() string { return m.prefix + "review path=" }
func (m markers) audit() string  { return m.prefix + "audit path=" }

// value extracts what follows marker in body ("" and false when absent).
func value(body, marker string) (string, bool) {
	i := strings.LastIndex(body, marker)
	if i < 0 {
		return "", false
	}
	rest := body[i+len(marker):]
	end := strings.Index(rest, " -->")
	if end < 0 {
		return "", false
	}
	return rest[:end], true
}

// fingerprint returns the gap's stable identity: the report's when it has one, else a
// hash of where and what it is.
func fingerprint(g fileGap) string {
	if g.Fingerprint != "" {
		return sanitizeFP(g.Fingerprint)
	}
	h := sha256.Sum256([]byte(strings.Join([]string{g.Path, string(g.Category),
		strings.Join(strings.Fields(g.Problem), " "), strings.TrimSpace(g.Location.Text)}, "\x00")))
	return hex.EncodeToString(h[:8])
}

var fpUnsafe = regexp.MustCompile(`[^A-Za-z0-9._:/-]`)

func sanitizeFP(s string) string { return fpUnsafe.ReplaceAllString(s, "_") }

var replaceRE = regexp.MustCompile("(?is)^\\s*replace\\s+`([^`]+)`\\s+with\\s+`([^`]*)`\\s*\\.?\\s*$")

// replacement returns the new text of the gap's lines when its suggested fix is a
// literal replacement of them ("Replace `old` with `new`" where old occurs in those
// lines); ok is false for any other kind of fix, for clipped text, and for a report
// from an untrusted artifact (its text is not the tutorial's).
func replacement(g fileGap) (string, bool) {
	if g.Suggestion != "" && g.FixVerified != nil && *g.FixVerified && !g.untrusted && g.line() > 0 {
		// a fix proven by re-running the tutorial with it applied, written for the gap's
		// own lines
		return g.Suggestion, true
	}
	m := replaceRE.FindStringSubmatch(g.SuggestedFix)
	text := g.Location.Text
	if g.untrusted || m == nil || text == "" || strings.HasSuffix(text, "…") || !strings.Contains(text, m[1]) {
		return "", false
	}
	if n := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1; n != g.last()-g.line()+1 {
		return "", false // the text does not cover exactly the gap's lines
	}
	return strings.Replace(strings.TrimRight(text, "\n"), m[1], m[2], 1), true
}

// commentBody renders the review comment of a gap. withSuggestion adds a `suggestion`
// block; callers pass it only when the comment covers exactly the gap's lines.
func (m markers) commentBody(g fileGap, withSuggestion bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**smile-loop · %s gap**", report.InlineMD(orDefault(string(g.Severity), "unrated")))
	if h := g.heading(); h != "" {
		fmt.Fprintf(&b, " in _%s_", report.InlineMD(h))
	}
	fmt.Fprintf(&b, "\n\n%s\n", report.ParagraphsMD(g.Problem))
	if fix := strings.TrimSpace(g.SuggestedFix); fix != "" {
		fmt.Fprintf(&b, "\n**Suggested fix:** %s\n", report.ParagraphsMD(fix))
	}
	if g.FixVerified != nil && *g.FixVerified && g.FixEvidence != "" {
		fmt.Fprintf(&b, "\n**Fix verified:** %s\n", report.InlineMD(g.FixEvidence))
	}
	if withSuggestion {
		if repl, ok := replacement(g); ok {
			b.WriteString("\n" + report.FenceMD(repl, "suggestion"))
		}
	}
	if t := evidenceText(g.Evidence); t != "" {
		fmt.Fprintf(&b, "\n<details><summary>What the learner ran and saw</summary>\n\n%s\n</details>\n", report.FenceMD(t, "text"))
	}
	var meta []string
	if g.Category != "" {
		meta = append(meta, "category "+report.CodeSpanMD(string(g.Category)))
	}
	meta = append(meta, "gap "+g.id(), "found by a simulated newcomer following this tutorial")
	fmt.Fprintf(&b, "\n<sub>%s</sub>\n%s%s -->", strings.Join(meta, " · "), m.gap(), fingerprint(g))
	return b.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// gapLine renders a gap as one Markdown list item (review body, summary, issue).
func gapLine(g fileGap, link string) string {
	loc := fmt.Sprintf("%s:%d", g.Path, g.line())
	if g.line() == 0 {
		loc = g.Path + " (line unknown)"
	} else if g.last() > g.line() {
		loc = fmt.Sprintf("%s:%d-%d", g.Path, g.line(), g.last())
	}
	loc = report.CodeSpanMD(loc)
	if link != "" {
		loc = fmt.Sprintf("[%s](%s)", loc, link)
	}
	s := fmt.Sprintf("- %s **%s** — %s", loc, report.InlineMD(orDefault(string(g.Severity), "unrated")), report.InlineMD(g.Problem))
	if g.SuggestedFix != "" {
		s += " _Fix:_ " + report.InlineMD(g.SuggestedFix)
	}
	return s
}

// blobLink links to the gap's lines at sha.
func blobLink(ev Event, sha string, g fileGap) string {
	if ev.Owner == "" || sha == "" || g.line() == 0 {
		return ""
	}
	frag := fmt.Sprintf("#L%d", g.line())
	if g.last() > g.line() {
		frag += fmt.Sprintf("-L%d", g.last())
	}
	return fmt.Sprintf("%s/%s/%s/blob/%s/%s%s", ev.Server, ev.Owner, ev.Repo, sha, pathEscape(g.Path), frag)
}

// pathEscape escapes each segment of a repository path for a URL.
func pathEscape(p string) string {
	seg := strings.Split(p, "/")
	for i, s := range seg {
		seg[i] = parens.Replace(url.PathEscape(s))
	}
	return strings.Join(seg, "/")
}

// parens are escaped too: an unbalanced one would end a Markdown link early.
var parens = strings.NewReplacer("(", "%28", ")", "%29")

// CommentBody is the review comment Action mode posts for gap i of r (unscoped
// markers), with a suggestion block when withSuggestion and the fix allows one.
func CommentBody(r Result, i int, withSuggestion bool) string {
	return newMarkers("").commentBody(r.gaps()[i], withSuggestion)
}
