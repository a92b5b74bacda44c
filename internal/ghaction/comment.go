package ghaction

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// Hidden markers that identify what smile-loop posted, so re-runs update or remove
// their own comments, reviews and issues instead of piling up.
const (
	markerPrefix = "<!-- smile-loop:"
	gapMarker    = markerPrefix + "gap fp="
	reviewMarker = markerPrefix + "review set="
	auditMarker  = markerPrefix + "audit path="
)

// fingerprint returns the gap's stable identity: the report's when it has one, else a
// hash of where and what it is.
func fingerprint(g Gap) string {
	if g.Fingerprint != "" {
		return sanitizeFP(g.Fingerprint)
	}
	h := sha256.Sum256([]byte(strings.Join([]string{g.Path, g.Category,
		strings.Join(strings.Fields(g.Problem), " "), strings.TrimSpace(g.Text)}, "\x00")))
	return hex.EncodeToString(h[:8])
}

var fpUnsafe = regexp.MustCompile(`[^A-Za-z0-9._:/-]`)

func sanitizeFP(s string) string { return fpUnsafe.ReplaceAllString(s, "_") }

// markerFP extracts the fingerprint from a comment body carrying gapMarker.
func markerFP(body string) (string, bool) {
	i := strings.LastIndex(body, gapMarker)
	if i < 0 {
		return "", false
	}
	rest := body[i+len(gapMarker):]
	end := strings.Index(rest, " -->")
	if end < 0 {
		return "", false
	}
	return rest[:end], true
}

var replaceRE = regexp.MustCompile("(?is)^\\s*replace\\s+`([^`]+)`\\s+with\\s+`([^`]*)`\\s*\\.?\\s*$")

// Replacement returns the new text of the gap's lines when its suggested fix is a
// literal replacement of them ("Replace `old` with `new`" where old occurs in those
// lines); ok is false for any other kind of fix.
func Replacement(g Gap) (string, bool) {
	m := replaceRE.FindStringSubmatch(g.SuggestedFix)
	if m == nil || g.Text == "" || !strings.Contains(g.Text, m[1]) {
		return "", false
	}
	if n := strings.Count(strings.TrimRight(g.Text, "\n"), "\n") + 1; n != g.last()-g.Line+1 {
		return "", false // the text does not cover exactly the gap's lines
	}
	return strings.Replace(strings.TrimRight(g.Text, "\n"), m[1], m[2], 1), true
}

// CommentBody renders the review comment of a gap. withSuggestion adds a `suggestion`
// block; callers pass it only when the comment covers exactly the gap's lines.
func CommentBody(g Gap, withSuggestion bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**smile-loop · %s gap**", EscapeInline(orDefault(g.Severity, "unrated")))
	if g.Heading != "" {
		fmt.Fprintf(&b, " in _%s_", EscapeInline(g.Heading))
	}
	fmt.Fprintf(&b, "\n\n%s\n", Escape(strings.TrimSpace(g.Problem)))
	if fix := strings.TrimSpace(g.SuggestedFix); fix != "" {
		fmt.Fprintf(&b, "\n**Suggested fix:** %s\n", Escape(fix))
	}
	if withSuggestion {
		if repl, ok := Replacement(g); ok {
			f := fence(repl)
			fmt.Fprintf(&b, "\n%ssuggestion\n%s\n%s\n", f, repl, f)
		}
	}
	if g.Evidence != nil {
		t := g.Evidence.text()
		f := fence(t)
		fmt.Fprintf(&b, "\n<details><summary>What the learner ran and saw</summary>\n\n%stext\n%s\n%s\n\n</details>\n", f, t, f)
	}
	var meta []string
	if g.Category != "" {
		meta = append(meta, "category `"+strings.ReplaceAll(g.Category, "`", "")+"`")
	}
	if g.ID != "" {
		meta = append(meta, "gap "+EscapeInline(g.ID))
	}
	meta = append(meta, "found by a simulated newcomer following this tutorial")
	fmt.Fprintf(&b, "\n<sub>%s</sub>\n%s%s -->", strings.Join(meta, " · "), gapMarker, fingerprint(g))
	return b.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// gapLine renders a gap as one Markdown list item (review body, summary, issue).
func gapLine(g Gap, link string) string {
	loc := fmt.Sprintf("%s:%d", g.Path, g.Line)
	if g.Line == 0 {
		loc = g.Path + " (line unknown)"
	} else if g.last() > g.Line {
		loc = fmt.Sprintf("%s:%d-%d", g.Path, g.Line, g.last())
	}
	if link != "" {
		loc = fmt.Sprintf("[`%s`](%s)", loc, link)
	} else {
		loc = "`" + loc + "`"
	}
	s := fmt.Sprintf("- %s **%s** — %s", loc, EscapeInline(orDefault(g.Severity, "unrated")), EscapeInline(g.Problem))
	if g.SuggestedFix != "" {
		s += " _Fix:_ " + EscapeInline(g.SuggestedFix)
	}
	return s
}

// blobLink links to the gap's lines at sha.
func blobLink(ev Event, sha string, g Gap) string {
	if ev.Owner == "" || sha == "" || g.Line == 0 {
		return ""
	}
	frag := fmt.Sprintf("#L%d", g.Line)
	if g.last() > g.Line {
		frag += fmt.Sprintf("-L%d", g.last())
	}
	return fmt.Sprintf("%s/%s/%s/blob/%s/%s%s", ev.Server, ev.Owner, ev.Repo, sha, g.Path, frag)
}
