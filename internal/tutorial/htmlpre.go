package tutorial

import (
	"html"
	"regexp"
	"strings"
)

// An HTML <pre> element written into the Markdown is a code block too: WordPress's
// Gutenberg markup (`<pre class="wp-block-code"><code>sudo apt update`), a Ghost or
// Medium export's code card (`<figure class="kg-card kg-code-card"><pre><code
// class="language-bash">`), a page pasted from a highlighter (`<div
// class="highlight"><pre>`). A browser shows its text, not its tags and entities, so
// that text is what a reader copies.
var (
	// rePreOpen: the element's start after wrappers that hold no text, with its <code>
	// when it has one
	rePreOpen = regexp.MustCompile(`(?is)^\s*(?:<(?:div|figure|section)\b[^<>]*>\s*)*<pre\b([^<>]*)>(?:<code\b([^<>]*)>)?`)
	// rePreClose: its end, then only a caption, closing wrappers and comments
	rePreClose = regexp.MustCompile(`(?is)(?:</code>\s*)?</pre>\s*(?:<figcaption\b[^<>]*>(.*?)</figcaption>\s*)?(?:</(?:div|figure|section)>\s*|<!--.*?-->\s*)*$`)
	// rePreLang: the language a highlighter class or attribute gives (`language-bash`,
	// `lang-sh`, `data-lang="bash"`, SyntaxHighlighter's `brush: bash;`)
	rePreLang = regexp.MustCompile(`(?i)(?:\b(?:language|lang)-([\w+#-]+)|\bdata-lang(?:uage)?\s*=\s*["']([\w+#-]+)|\bbrush:\s*([\w+#-]+))`)
)

// htmlPre reads text, an HTML block's lines (the first at line first), as one <pre>
// element. It returns the element's text lines with their line numbers (tags dropped,
// entities decoded), its info string (the language, and a caption naming a file as
// title="…"), and false when the block is something else.
func htmlPre(text string, first int) (lines []string, nos []int, info string, ok bool) {
	open := rePreOpen.FindStringSubmatchIndex(text)
	if open == nil {
		return nil, nil, "", false
	}
	closing := rePreClose.FindStringSubmatchIndex(text[open[1]:])
	if closing == nil {
		return nil, nil, "", false
	}
	body := text[open[1] : open[1]+closing[0]]
	if strings.Contains(strings.ToLower(body), "<pre") {
		return nil, nil, "", false // more than one element
	}
	attrs := text[open[2]:open[3]]
	if open[4] >= 0 {
		attrs += " " + text[open[4]:open[5]]
	}
	if m := rePreLang.FindStringSubmatch(attrs); m != nil {
		info = strings.ToLower(m[1] + m[2] + m[3])
	}
	if closing[2] >= 0 {
		if c := strings.TrimSpace(html.UnescapeString(reHTMLTag.ReplaceAllString(text[open[1]+closing[2]:open[1]+closing[3]], ""))); c != "" && !strings.ContainsAny(c, " \t\"") {
			info = strings.TrimSpace(info + ` title="` + c + `"`)
		}
	}
	ln := first + strings.Count(text[:open[1]], "\n")
	if strings.HasPrefix(body, "\n") { // a browser drops the newline right after <pre>
		body, ln = body[1:], ln+1
	}
	for i, l := range strings.Split(body, "\n") {
		lines = append(lines, html.UnescapeString(reHTMLTag.ReplaceAllString(reHTMLComment.ReplaceAllString(l, ""), "")))
		nos = append(nos, ln+i)
	}
	return lines, nos, info, true
}
