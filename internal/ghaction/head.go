package ghaction

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"
	"github.com/smile-loop/smile-loop/internal/report"
)

// AtHead returns results whose gap lines are those of each tutorial at the pull
// request's head commit, the commit review comments and the check run target. On
// pull_request, actions/checkout checks out the merge commit: when the base branch also
// changed a tutorial, its lines there differ from the head's. A gap whose text is not
// at its line at head is moved to the nearest place holding that text; a gap whose
// text is not in the head's file at all loses its line (it is then listed, not
// commented). problems says what could not be checked.
func (g *GitHub) AtHead(ctx context.Context, results []Result) (out []Result, problems []string) {
	out = make([]Result, len(results))
	for i, r := range results {
		out[i] = r
		if r.Report == nil || len(r.Report.Gaps) == 0 {
			continue
		}
		lines, err := g.fileAt(ctx, r.Tutorial, g.Event.SHA)
		if err != nil {
			problems = append(problems, fmt.Sprintf("read %s at the head commit to check gap lines: %s; lines are those of the checkout", r.Tutorial, Why(err)))
			continue
		}
		rc := *r.Report
		rc.Gaps = make([]report.Gap, len(r.Report.Gaps))
		for j, gp := range r.Report.Gaps {
			rc.Gaps[j] = relocate(gp, lines)
		}
		out[i].Report = &rc
	}
	return out, problems
}

// fileAt reads a file's lines at ref (REST "Get repository content").
func (g *GitHub) fileAt(ctx context.Context, path, ref string) ([]string, error) {
	fc, _, _, err := g.Client.Repositories.GetContents(ctx, g.Event.Owner, g.Event.Repo, path, &github.RepositoryContentGetOptions{Ref: ref})
	if err != nil {
		return nil, err
	}
	if fc == nil {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	content, err := fc.GetContent()
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n"), nil
}

// relocate places a located gap on the lines holding its text in lines.
func relocate(gp report.Gap, lines []string) report.Gap {
	loc := gp.Location
	want := textLines(loc.Text)
	if !loc.Found || loc.Line <= 0 || len(want) == 0 {
		return gp
	}
	if matchAt(lines, loc.Line-1, want) {
		return gp
	}
	best := -1
	for i := range lines {
		if matchAt(lines, i, want) && (best < 0 || abs(i+1-loc.Line) < abs(best+1-loc.Line)) {
			best = i
		}
	}
	if best < 0 {
		gp.Location.Found, gp.Location.Line, gp.Location.EndLine = false, 0, 0
		return gp
	}
	shift := best + 1 - loc.Line
	gp.Location.Line += shift
	if gp.Location.EndLine > 0 {
		gp.Location.EndLine += shift
	}
	return gp
}

// textLines are the complete lines of a gap's text (a clipped last line is dropped).
func textLines(text string) []string {
	ls := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if strings.HasSuffix(text, "…") {
		ls = ls[:len(ls)-1]
	}
	if len(ls) == 1 && strings.TrimSpace(ls[0]) == "" {
		return nil
	}
	return ls
}

func matchAt(lines []string, i int, want []string) bool {
	if i < 0 || i+len(want) > len(lines) {
		return false
	}
	for k, w := range want {
		if strings.TrimRight(lines[i+k], " \t\r") != strings.TrimRight(w, " \t\r") {
			return false
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
