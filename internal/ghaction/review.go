package ghaction

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/google/go-github/v60/github"
	"github.com/smile-loop/smile-loop/internal/report"
)

// Limits on what one run posts on a pull request.
const (
	// MaxCommentsPerReview is the most review comments sent in one review request.
	MaxCommentsPerReview = 30
	// MaxCommentsPerRun caps the review comments one run creates; the other gaps are
	// listed in the tutorial's summary review instead (and are all in the check run,
	// the step summary and the artifact).
	MaxCommentsPerRun = 50
)

// ReviewOutcome says what happened to each gap on the pull request.
type ReviewOutcome struct {
	Created, Updated, Unchanged, Deleted int
	FileComments                         int      // of Created: file-level comments (filter-mode file, nofilter)
	KeptReplied                          int      // outdated comments kept because someone replied
	Outside                              []int    // per tested tutorial order: gaps listed in its summary review
	Refused                              int      // comments GitHub refused (422): listed in the summary review
	OverCap                              int      // gaps over MaxCommentsPerRun: listed in the summary review
	Summaries                            int      // summary reviews created or edited
	Problems                             []string // what could not be posted and why, for the log
}

type desired struct {
	gap         fileGap
	fp          string
	start, line int // line 0: a file-level comment
	body        string
}

// Review turns gaps into review comments on the pull request's head commit, as the
// filter mode says: a comment on the gap's lines when they are in the diff (or added,
// for filter-mode added), a file-level comment for a gap elsewhere in a changed file
// (filter-mode file and nofilter). Every other gap of a tutorial is listed in one
// summary review per tutorial, which later runs edit instead of posting anew. Re-runs
// update or delete their own earlier comments (by fingerprint, marker scope and
// author) and leave unchanged ones alone. Only comments on the tested tutorials are
// considered outdated: jobs of a matrix leave each other's alone.
func (g *GitHub) Review(ctx context.Context, results []Result, files []PRFile, mode string) (ReviewOutcome, error) {
	var out ReviewOutcome
	diffs := map[string]PRFile{}
	for _, f := range files {
		if f.Status != "removed" {
			diffs[f.Path] = f
		}
	}
	inScope := map[string]bool{}
	outside := map[string][]fileGap{}
	var want []desired
	seen := map[string]bool{}
	for _, r := range results {
		if r.Err != "" || r.Report == nil {
			continue // no verdict: its comments and summary stay as they are
		}
		inScope[r.Tutorial] = true
		for _, gp := range r.gaps() {
			fp := fingerprint(gp)
			if seen[fp] {
				continue
			}
			seen[fp] = true
			d, ok := g.place(gp, diffs, mode)
			if !ok || len(want) >= MaxCommentsPerRun {
				if ok {
					out.OverCap++
				}
				outside[gp.Path] = append(outside[gp.Path], gp)
				continue
			}
			d.fp = fp
			want = append(want, d)
		}
	}

	existing, replied, err := g.ownComments(ctx)
	if err != nil {
		return out, err
	}
	var create []desired
	matched := map[int64]bool{}
	for _, d := range want {
		c, ok := existing[d.fp]
		if ok && c.GetPath() == d.gap.Path && c.GetLine() == d.line && c.GetStartLine() == d.start &&
			(d.line == 0) == (c.GetSubjectType() == "file") {
			matched[c.GetID()] = true
			if c.GetBody() == d.body {
				out.Unchanged++
				continue
			}
			if _, _, err := g.Client.PullRequests.EditComment(ctx, g.Event.Owner, g.Event.Repo, c.GetID(), &github.PullRequestComment{Body: github.String(d.body)}); err != nil {
				out.Problems = append(out.Problems, fmt.Sprintf("update review comment %d on %s: %s", c.GetID(), d.gap.Path, Why(err)))
				continue
			}
			out.Updated++
			continue
		}
		create = append(create, d)
	}
	g.deleteOutdated(ctx, existing, replied, matched, inScope, &out)

	var inline []desired
	for _, d := range create {
		if d.line > 0 {
			inline = append(inline, d)
			continue
		}
		if err := g.fileComment(ctx, d); err != nil {
			if statusOf(err) != http.StatusUnprocessableEntity {
				return out, fmt.Errorf("create file comment on %s: %w", d.gap.Path, err)
			}
			out.Refused++
			outside[d.gap.Path] = append(outside[d.gap.Path], d.gap)
			out.Problems = append(out.Problems, fmt.Sprintf("file comment on %s: %s; listed in the summary review instead", d.gap.Path, Why(err)))
			continue
		}
		out.Created++
		out.FileComments++
	}
	for i := 0; i < len(inline); i += MaxCommentsPerReview {
		batch := inline[i:min(i+MaxCommentsPerReview, len(inline))]
		err := g.createReview(ctx, "", batch)
		if err == nil {
			out.Created += len(batch)
			continue
		}
		if statusOf(err) != http.StatusUnprocessableEntity {
			return out, fmt.Errorf("create review with %d comments: %w", len(batch), err)
		}
		// GitHub refuses the whole review for one bad comment: post them one by one so
		// only the refused ones move to the summary review.
		for _, d := range batch {
			if err := g.createReview(ctx, "", []desired{d}); err != nil {
				if statusOf(err) != http.StatusUnprocessableEntity {
					return out, fmt.Errorf("create review comment on %s:%d: %w", d.gap.Path, d.line, err)
				}
				out.Refused++
				outside[d.gap.Path] = append(outside[d.gap.Path], d.gap)
				out.Problems = append(out.Problems, fmt.Sprintf("review comment on %s:%d: %s; listed in the summary review instead", d.gap.Path, d.line, Why(err)))
				continue
			}
			out.Created++
		}
	}
	for _, r := range results {
		out.Outside = append(out.Outside, len(outside[r.Tutorial]))
	}
	return out, g.summaries(ctx, results, outside, &out)
}

// place decides where a gap's comment goes under the filter mode; ok is false when the
// gap gets no comment of its own.
func (g *GitHub) place(gp fileGap, diffs map[string]PRFile, mode string) (desired, bool) {
	f, changed := diffs[gp.Path]
	if !changed || gp.line() == 0 {
		return desired{}, false
	}
	hunks := f.Hunks
	if mode == FilterAdded {
		hunks = f.Added
	}
	start, line, inDiff := hunks.Anchor(gp.line(), gp.last())
	switch {
	case inDiff:
		exact := line == gp.last() && (start == gp.line() || start == 0 && gp.line() == line)
		return desired{gap: gp, start: start, line: line, body: g.marks().commentBody(gp, exact)}, true
	case mode == FilterFile || mode == FilterNone:
		return desired{gap: gp, body: g.marks().commentBody(gp, false)}, true
	}
	return desired{}, false
}

func (g *GitHub) deleteOutdated(ctx context.Context, existing map[string]*github.PullRequestComment, replied, matched map[int64]bool, inScope map[string]bool, out *ReviewOutcome) {
	fps := make([]string, 0, len(existing))
	for fp := range existing {
		fps = append(fps, fp)
	}
	sort.Strings(fps)
	for _, fp := range fps {
		c := existing[fp]
		if matched[c.GetID()] || !inScope[c.GetPath()] {
			continue
		}
		if replied[c.GetID()] {
			out.KeptReplied++
			continue
		}
		if _, err := g.Client.PullRequests.DeleteComment(ctx, g.Event.Owner, g.Event.Repo, c.GetID()); err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("delete outdated review comment %d: %s", c.GetID(), Why(err)))
			continue
		}
		out.Deleted++
	}
}

func (g *GitHub) createReview(ctx context.Context, body string, ds []desired) error {
	req := &github.PullRequestReviewRequest{CommitID: github.String(g.Event.SHA), Event: github.String("COMMENT")}
	if body != "" {
		req.Body = github.String(body)
	}
	for _, d := range ds {
		c := &github.DraftReviewComment{
			Path: github.String(d.gap.Path),
			Body: github.String(d.body),
			Line: github.Int(d.line),
			Side: github.String("RIGHT"),
		}
		if d.start > 0 && d.start < d.line {
			c.StartLine = github.Int(d.start)
			c.StartSide = github.String("RIGHT")
		}
		req.Comments = append(req.Comments, c)
	}
	_, _, err := g.Client.PullRequests.CreateReview(ctx, g.Event.Owner, g.Event.Repo, g.Event.PR, req)
	return err
}

// fileComment posts a file-level review comment (subject_type file: REST "Create a
// review comment for a pull request").
func (g *GitHub) fileComment(ctx context.Context, d desired) error {
	_, _, err := g.Client.PullRequests.CreateComment(ctx, g.Event.Owner, g.Event.Repo, g.Event.PR, &github.PullRequestComment{
		Body: github.String(d.body), CommitID: github.String(g.Event.SHA), Path: github.String(d.gap.Path),
		SubjectType: github.String("file"),
	})
	return err
}

// ownComments lists smile-loop's review comments (its marker, its scope, its author)
// by fingerprint, and which comments have replies.
func (g *GitHub) ownComments(ctx context.Context) (map[string]*github.PullRequestComment, map[int64]bool, error) {
	own := map[string]*github.PullRequestComment{}
	replied := map[int64]bool{}
	opt := &github.PullRequestListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := g.Client.PullRequests.ListComments(ctx, g.Event.Owner, g.Event.Repo, g.Event.PR, opt)
		if err != nil {
			return nil, nil, fmt.Errorf("list review comments of pull request #%d: %w", g.Event.PR, err)
		}
		for _, c := range cs {
			if c.InReplyTo != nil {
				replied[c.GetInReplyTo()] = true
			}
			fp, ok := value(c.GetBody(), g.marks().gap())
			if !ok || c.InReplyTo != nil || !g.authored(ctx, c.GetUser()) {
				continue
			}
			if prev, dup := own[fp]; dup && prev.GetID() > c.GetID() {
				continue
			}
			own[fp] = c
		}
		if resp.NextPage == 0 {
			return own, replied, nil
		}
		opt.Page = resp.NextPage
	}
}

// summaries keeps one summary review per tested tutorial that lists its gaps without a
// comment of their own: created once, edited when the list changes (REST "Update a
// review for a pull request"), left alone when it does not.
func (g *GitHub) summaries(ctx context.Context, results []Result, outside map[string][]fileGap, out *ReviewOutcome) error {
	posted, err := g.ownReviews(ctx)
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.Err != "" || r.Report == nil {
			continue
		}
		gaps := outside[r.Tutorial]
		prev, exists := posted[sanitizeFP(r.Tutorial)]
		if len(gaps) == 0 && !exists {
			continue
		}
		body := g.summaryBody(r.Tutorial, gaps)
		switch {
		case exists && prev.GetBody() == body:
		case exists:
			if _, _, err := g.Client.PullRequests.UpdateReview(ctx, g.Event.Owner, g.Event.Repo, g.Event.PR, prev.GetID(), body); err != nil {
				return fmt.Errorf("edit the summary review of %s: %w", r.Tutorial, err)
			}
			out.Summaries++
		default:
			if err := g.createReview(ctx, body, nil); err != nil {
				return fmt.Errorf("create the summary review of %s: %w", r.Tutorial, err)
			}
			out.Summaries++
		}
	}
	return nil
}

// ownReviews finds smile-loop's summary reviews by tutorial (the newest of each).
func (g *GitHub) ownReviews(ctx context.Context) (map[string]*github.PullRequestReview, error) {
	own := map[string]*github.PullRequestReview{}
	opt := &github.ListOptions{PerPage: 100}
	for {
		rs, resp, err := g.Client.PullRequests.ListReviews(ctx, g.Event.Owner, g.Event.Repo, g.Event.PR, opt)
		if err != nil {
			return nil, fmt.Errorf("list reviews of pull request #%d: %w", g.Event.PR, err)
		}
		for _, r := range rs {
			if p, ok := value(r.GetBody(), g.marks().review()); ok && g.authored(ctx, r.GetUser()) {
				own[p] = r
			}
		}
		if resp.NextPage == 0 {
			return own, nil
		}
		opt.Page = resp.NextPage
	}
}

// summaryBody lists a tutorial's gaps that have no comment of their own.
func (g *GitHub) summaryBody(tutorial string, gaps []fileGap) string {
	var b strings.Builder
	if len(gaps) == 0 {
		fmt.Fprintf(&b, "### smile-loop: %s\n\nEvery gap of this tutorial now has a comment on its line, or none is left.\n", report.CodeSpanMD(tutorial))
	} else {
		fmt.Fprintf(&b, "### smile-loop: %d gap(s) in %s without a comment on their line\n\n", len(gaps), report.CodeSpanMD(tutorial))
		b.WriteString("A simulated newcomer got stuck here too; these lines are not part of the diff (or over the comment limit), so they are listed here. This review is edited by each run.\n\n")
		for _, gp := range gaps {
			b.WriteString(gapLine(gp, blobLink(g.Event, g.Event.SHA, gp)) + "\n")
		}
	}
	if u := g.Event.RunURL(); u != "" {
		fmt.Fprintf(&b, "\nFull report: [workflow run](%s)\n", u)
	}
	fmt.Fprintf(&b, "%s%s -->", g.marks().review(), sanitizeFP(tutorial))
	return b.String()
}
