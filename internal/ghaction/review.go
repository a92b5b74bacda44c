package ghaction

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/google/go-github/v60/github"
)

// MaxCommentsPerReview is the most review comments smile-loop sends in one review request.
const MaxCommentsPerReview = 30

// ReviewOutcome says what happened to each gap on the pull request.
type ReviewOutcome struct {
	Created, Updated, Unchanged, Deleted int
	KeptReplied                          int   // outdated comments kept because someone replied
	Outside                              []Gap // gaps not on a diff line (in the review body)
	Refused                              []Gap // comments GitHub refused (422): in the review body too
	BodyPosted                           bool
	Problems                             []string // what could not be posted and why, for the log
}

type desired struct {
	gap         Gap
	fp          string
	start, line int
	body        string
}

// Review turns gaps into review comments on the pull request's head commit: one comment
// per gap on its lines when they are in the diff, at most MaxCommentsPerReview per
// request; the rest go to the review body. Re-runs update or delete their own earlier
// comments (by fingerprint) and leave unchanged ones alone. Only comments on the tested
// tutorials are considered outdated: jobs of a matrix leave each other's alone.
func (g *GitHub) Review(ctx context.Context, gaps []Gap, files []PRFile, tested []string) (ReviewOutcome, error) {
	inScope := map[string]bool{}
	for _, t := range tested {
		inScope[t] = true
	}
	var out ReviewOutcome
	hunks := map[string]Hunks{}
	for _, f := range files {
		if f.Status != "removed" {
			hunks[f.Path] = f.Hunks
		}
	}
	var want []desired
	seen := map[string]bool{}
	for _, gp := range gaps {
		fp := fingerprint(gp)
		if seen[fp] {
			continue
		}
		seen[fp] = true
		hs, ok := hunks[gp.Path]
		start, line, inDiff := hs.Anchor(gp.Line, gp.last())
		if !ok || !inDiff {
			out.Outside = append(out.Outside, gp)
			continue
		}
		exact := line == gp.last() && (start == gp.Line || start == 0 && gp.Line == line)
		want = append(want, desired{gap: gp, fp: fp, start: start, line: line, body: CommentBody(gp, exact)})
	}

	existing, replied, err := g.ownComments(ctx)
	if err != nil {
		return out, err
	}
	var create []desired
	matched := map[int64]bool{}
	for _, d := range want {
		c, ok := existing[d.fp]
		if ok && c.GetPath() == d.gap.Path && c.GetLine() == d.line && c.GetStartLine() == d.start {
			matched[c.GetID()] = true
			if c.GetBody() == d.body {
				out.Unchanged++
				continue
			}
			if _, _, err := g.Client.PullRequests.EditComment(ctx, g.Event.Owner, g.Event.Repo, c.GetID(), &github.PullRequestComment{Body: github.String(d.body)}); err != nil {
				out.Problems = append(out.Problems, fmt.Sprintf("update review comment %d on %s:%d: %s", c.GetID(), d.gap.Path, d.line, Why(err)))
				continue
			}
			out.Updated++
			continue
		}
		create = append(create, d)
	}
	// Outdated own comments: removed unless a person replied to them.
	ids := make([]string, 0, len(existing))
	for fp := range existing {
		ids = append(ids, fp)
	}
	sort.Strings(ids)
	for _, fp := range ids {
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

	// The gaps outside the diff ride in the body of the first review, unless an
	// earlier run already posted the same set.
	body := ""
	if len(out.Outside) > 0 {
		body = g.reviewBody(out.Outside)
		posted, err := g.bodyAlreadyPosted(ctx, body)
		if err != nil {
			return out, err
		}
		if posted {
			body = ""
		}
	}
	for i := 0; i < len(create); i += MaxCommentsPerReview {
		batch := create[i:min(i+MaxCommentsPerReview, len(create))]
		err := g.createReview(ctx, body, batch)
		if err == nil {
			out.Created += len(batch)
			out.BodyPosted = out.BodyPosted || body != ""
			body = ""
			continue
		}
		if statusOf(err) != http.StatusUnprocessableEntity {
			return out, fmt.Errorf("create review with %d comments: %w", len(batch), err)
		}
		// GitHub refuses the whole review for one bad comment: post them one by one so
		// only the refused ones move to the review body.
		for _, d := range batch {
			if err := g.createReview(ctx, "", []desired{d}); err != nil {
				if statusOf(err) != http.StatusUnprocessableEntity {
					return out, fmt.Errorf("create review comment on %s:%d: %w", d.gap.Path, d.line, err)
				}
				out.Refused = append(out.Refused, d.gap)
				out.Problems = append(out.Problems, fmt.Sprintf("review comment on %s:%d: %s; listed in the review body instead", d.gap.Path, d.line, Why(err)))
				continue
			}
			out.Created++
		}
	}
	if len(out.Refused) > 0 {
		// The refused comments join the gaps outside the diff in one body.
		body = g.reviewBody(append(append([]Gap(nil), out.Outside...), out.Refused...))
		posted, err := g.bodyAlreadyPosted(ctx, body)
		if err != nil {
			return out, err
		}
		if posted {
			body = ""
		}
	}
	if body == "" {
		return out, nil
	}
	if err := g.createReview(ctx, body, nil); err != nil {
		return out, fmt.Errorf("create review with the gaps outside the diff: %w", err)
	}
	out.BodyPosted = true
	return out, nil
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

// ownComments lists smile-loop's review comments by fingerprint, and which comments
// have replies.
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
			if fp, ok := markerFP(c.GetBody()); ok && c.InReplyTo == nil {
				if prev, dup := own[fp]; dup && prev.GetID() > c.GetID() {
					continue
				}
				own[fp] = c
			}
		}
		if resp.NextPage == 0 {
			return own, replied, nil
		}
		opt.Page = resp.NextPage
	}
}

// reviewBody lists the gaps that could not be anchored on a diff line.
func (g *GitHub) reviewBody(gaps []Gap) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### smile-loop: %d gap(s) outside the lines this pull request changes\n\n", len(gaps))
	b.WriteString("A simulated newcomer got stuck here too; these lines are not part of the diff, so they cannot carry a review comment.\n\n")
	fps := make([]string, 0, len(gaps))
	for _, gp := range gaps {
		b.WriteString(gapLine(gp, blobLink(g.Event, g.Event.SHA, gp)) + "\n")
		fps = append(fps, fingerprint(gp))
	}
	if u := g.Event.RunURL(); u != "" {
		fmt.Fprintf(&b, "\nFull report: [workflow run](%s)\n", u)
	}
	sort.Strings(fps)
	h := sha256.Sum256([]byte(strings.Join(fps, ",")))
	fmt.Fprintf(&b, "%s%s -->", reviewMarker, hex.EncodeToString(h[:8]))
	return b.String()
}

// bodyAlreadyPosted reports whether an earlier review carries the same gap set.
func (g *GitHub) bodyAlreadyPosted(ctx context.Context, body string) (bool, error) {
	i := strings.Index(body, reviewMarker)
	marker := body[i:]
	opt := &github.ListOptions{PerPage: 100}
	for {
		rs, resp, err := g.Client.PullRequests.ListReviews(ctx, g.Event.Owner, g.Event.Repo, g.Event.PR, opt)
		if err != nil {
			return false, fmt.Errorf("list reviews of pull request #%d: %w", g.Event.PR, err)
		}
		for _, r := range rs {
			if strings.Contains(r.GetBody(), marker) {
				return true, nil
			}
		}
		if resp.NextPage == 0 {
			return false, nil
		}
		opt.Page = resp.NextPage
	}
}
