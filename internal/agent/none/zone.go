package none

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// reClock: a time of day (16:00, 9:05:30).
var reClock = regexp.MustCompile(`\b([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?\b`)

// clockShift: shown and got say the same but for their times of day, and every shown time
// is the printed one moved by whole hours, minutes alike, the same way and by the same
// amount but for daylight saving time (an hour more in summer): the hours of the first
// time (shown minus printed, -12 to 12; 0 when not so), whether others differ by the
// hour of summer time, and the first times that differ.
func clockShift(shown, got string) (hours int, summer bool, want, have string) {
	s, g := reClock.FindAllStringSubmatch(shown, -1), reClock.FindAllStringSubmatch(got, -1)
	if len(s) == 0 || len(s) != len(g) || strings.Join(strings.Fields(reClock.ReplaceAllString(shown, "#")), " ") != strings.Join(strings.Fields(reClock.ReplaceAllString(got, "#")), " ") {
		return 0, false, "", ""
	}
	for k := range s {
		if s[k][2] != g[k][2] {
			return 0, false, "", ""
		}
		hs, _ := strconv.Atoi(s[k][1])
		hg, _ := strconv.Atoi(g[k][1])
		d := (hs-hg+36)%24 - 12
		switch {
		case d == 0 || k > 0 && (d > 0) != (hours > 0):
			return 0, false, "", ""
		case k == 0:
			hours, want, have = d, s[k][0], g[k][0]
		case abs(d-hours) == 1:
			summer = true
		case d != hours:
			return 0, false, "", ""
		}
	}
	return hours, summer, want, have
}

// diffSides: the lines a diff's output gives as the first file's and as the second's
// (normal `<`/`>` or unified `-`/`+`), each side joined.
func diffSides(output string) (first, second string) {
	var a, b []string
	for _, l := range strings.Split(output, "\n") {
		switch {
		case strings.HasPrefix(l, "< "):
			a = append(a, l[2:])
		case strings.HasPrefix(l, "> "):
			b = append(b, l[2:])
		case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
			a = append(a, l[1:])
		case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
			b = append(b, l[1:])
		}
	}
	return strings.Join(a, "\n"), strings.Join(b, "\n")
}

// reSetsZone: a step that sets the time zone (the variable, or the machine's).
var reSetsZone = regexp.MustCompile(`\bTZ=|timedatectl\s+set-timezone|/etc/localtime|/etc/timezone|dpkg-reconfigure\s+tzdata|tzselect`)

// zoneSet: an earlier step, or a file the tutorial wrote, sets the time zone.
func (ss *session) zoneSet() bool {
	for _, c := range ss.res.Commands {
		if reSetsZone.MatchString(c.Command) {
			return true
		}
	}
	for _, content := range ss.written {
		if reSetsZone.MatchString(content) {
			return true
		}
	}
	return false
}

// reZoneName: a time zone of the tz database (Europe/Berlin).
var reZoneName = regexp.MustCompile(`\b(?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?\b`)

// reISODay: a day written as 2027-01-14.
var reISODay = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)

// reCapWord: a capitalised word of the prose (a city the page names).
var reCapWord = regexp.MustCompile(`\b[A-Z][a-z]+(?:_[A-Z][a-z]+)?\b`)

// pageZone: the time zone the page's times are in: one it names (Europe/Berlin), or the
// zone of a city it names ("the operators in Berlin") whose offset from UTC on the day
// is the shift ("" when none). The day is the first date of day in text, else today.
func (ss *session) pageZone(ctx context.Context, hours int, text string) string {
	if ss.task.Tutorial == nil || ss.task.Sandbox == nil {
		return ""
	}
	body := ss.task.Tutorial.Body
	day := time.Now().UTC().Format("2006-01-02")
	if d := reISODay.FindString(text); d != "" {
		day = d
	}
	var cands []string
	seen := map[string]bool{}
	for _, z := range reZoneName.FindAllString(body, -1) {
		if !seen[z] {
			seen[z] = true
			cands = append(cands, z)
		}
	}
	for _, w := range reCapWord.FindAllString(body, -1) {
		if !seen[w] {
			seen[w] = true
			cands = append(cands, w)
		}
	}
	if len(cands) == 0 {
		return ""
	}
	// each candidate: a zone as named, or the zones whose last part is the word
	script := fmt.Sprintf(`cd /usr/share/zoneinfo 2>/dev/null || exit 0; for w in %s; do case $w in */*) set -- "$w";; *) set -- */"$w";; esac; for z; do [ -f "$z" ] || continue; printf '%%s %%s\n' "$z" "$(TZ=$z date -d '%s 12:00 UTC' +%%z)"; done; done`, strings.Join(quoteAll(cands), " "), day)
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: script, Timeout: 10 * time.Second, User: rootUser})
	if err != nil || r.ExitCode != 0 {
		return ""
	}
	want := fmt.Sprintf("%+03d00", hours)
	for _, l := range strings.Split(r.Stdout, "\n") {
		if z, off, ok := strings.Cut(strings.TrimSpace(l), " "); ok && off == want {
			return z
		}
	}
	return ""
}

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for k, w := range words {
		out[k] = shellQuote(w)
	}
	return out
}

// reTimeConversion: a command that turns a time into the machine's local time (GNU date
// reading a date, which it prints in the local zone).
var reTimeConversion = regexp.MustCompile(`\bdate\s+(?:-\S+\s+)*(?:-d|--date)\b`)

// zoneShifted: the times the command printed are the page's moved by whole hours while
// nothing set the time zone: a finding for it (false when not so). shown is what the
// page shows and got what was printed (for a failing diff, the expected file's lines and
// the program's).
func (ss *session) zoneShifted(ctx context.Context, rec loop.CommandRecord, shown, got, output string) bool {
	hours, summer, want, have := clockShift(shown, got)
	if hours == 0 || ss.zoneSet() {
		return false
	}
	zone := ss.pageZone(ctx, hours, shown)
	named := "the page's times are another zone's"
	if zone != "" {
		named = fmt.Sprintf("the page's times are %s time", zone)
	}
	dir := "earlier" // (what was printed, against the page)
	if hours < 0 {
		dir = "later"
	}
	dst := ""
	if summer {
		dst = " (an hour more or less under summer time)"
	}
	f := loop.Finding{
		Problem: fmt.Sprintf("`%s` (line %d) gives `%s` where the tutorial has `%s`: every time is %s %s than the page's%s, all else the same; %s, but nothing sets the time zone (TZ), and a fresh Debian machine runs on UTC",
			firstLine(rec.Command), rec.Line, have, want, plural(abs(hours), "one hour", fmt.Sprintf("%d hours", abs(hours))), dir, dst, named),
		Fix:      fmt.Sprintf("set the time zone before line %d (`export TZ=%s`), or say which zone the times are in", rec.Line, firstNonEmpty(zone, "Region/City")),
		Category: "missing step",
	}
	if zone != "" {
		f.Edit = &loop.Edit{InsertBefore: []string{"export TZ=" + zone}}
	}
	r := ss.addFinding(rec, f, output)
	ss.taint(rec, r)
	if rec.ExitCode == 0 && ss.roots[r].finding >= 0 {
		// (shown output, not a failing diff: the proof is the times the page shows)
		ss.rechecks[ss.roots[r].finding] = recheck{line: rec.Line, command: rec.Command, ok: func(out string) bool {
			h, _, _, _ := clockShift(shown, out)
			return h == 0 && strings.Join(strings.Fields(out), " ") == strings.Join(strings.Fields(shown), " ")
		}}
	}
	// the step that turned the times into local ones, when an earlier command of the
	// block did (`start=$(date -d '… UTC' …)` above the listing that shows them)
	from := rec.Line // the block's first line
	for _, st := range ss.steps {
		if st.kind == runStep && st.line == rec.Line {
			from = st.block.StartLine
		}
	}
	for _, c := range ss.res.Commands {
		if c.Line < rec.Line && c.Line >= from && reTimeConversion.MatchString(c.Command) {
			ss.moveTo(r, c.Line, "line %d turns the times into the machine's local time")
			break
		}
	}
	return true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// reDiff: a command that compares files with diff.
var reDiff = regexp.MustCompile(`(?:^|[|;&(]\s*)diff\s`)
