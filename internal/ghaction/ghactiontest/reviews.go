package ghactiontest

// Pull request reviews and review comments, as GitHub's REST API takes them.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/smile-loop/smile-loop/internal/ghaction"
)

type draft struct {
	Path      *string `json:"path"`
	Position  *int    `json:"position"`
	Body      *string `json:"body"`
	Line      *int    `json:"line"`
	Side      *string `json:"side"`
	StartLine *int    `json:"start_line"`
	StartSide *string `json:"start_side"`
}

// MaxReviewComments is what the test expects smile-loop to respect per request.
const MaxReviewComments = ghaction.MaxCommentsPerReview

func (g *GitHub) createReview(w http.ResponseWriter, n int, body []byte) {
	var req struct {
		CommitID *string `json:"commit_id"`
		Body     *string `json:"body"`
		Event    *string `json:"event"`
		Comments []draft `json:"comments"`
	}
	sha, ok := g.decodeForPR(w, n, body, &req)
	if !ok {
		return
	}
	if req.CommitID != nil && *req.CommitID != sha {
		unprocessable(w, "commit_id is not part of the pull request")
		return
	}
	ev := ""
	if req.Event != nil {
		ev = *req.Event
	}
	switch ev {
	case "COMMENT", "REQUEST_CHANGES":
		if ev == "REQUEST_CHANGES" || len(req.Comments) == 0 {
			if req.Body == nil || *req.Body == "" {
				unprocessable(w, "Review body is required")
				return
			}
		}
	case "APPROVE", "":
	default:
		unprocessable(w, "event is invalid")
		return
	}
	if len(req.Comments) > MaxReviewComments {
		unprocessable(w, fmt.Sprintf("smile-loop sent %d comments in one review; its limit is %d", len(req.Comments), MaxReviewComments))
		return
	}
	hunks := map[string][][]int{}
	for _, f := range g.Files[n] {
		hunks[f.GetFilename()] = hunksOf(f.GetPatch())
	}
	for _, c := range req.Comments {
		if c.Path == nil || c.Body == nil || *c.Body == "" {
			unprocessable(w, "path and body are required")
			return
		}
		if c.Position != nil {
			unprocessable(w, "use line/side, not the deprecated position")
			return
		}
		hs, ok := hunks[*c.Path]
		if !ok || c.Line == nil {
			unprocessable(w, "Path could not be resolved")
			return
		}
		if c.Side != nil && *c.Side != "RIGHT" && *c.Side != "LEFT" {
			unprocessable(w, "side is invalid")
			return
		}
		end := inHunk(hs, *c.Line)
		if end < 0 {
			unprocessable(w, "Line could not be resolved")
			return
		}
		if c.StartLine != nil {
			if *c.StartLine >= *c.Line {
				unprocessable(w, "start_line must precede the end line")
				return
			}
			if inHunk(hs, *c.StartLine) != end {
				unprocessable(w, "Start line could not be resolved")
				return
			}
		}
	}
	g.nextID++
	rid := g.nextID
	rv := &github.PullRequestReview{ID: github.Int64(rid), Body: req.Body, CommitID: github.String(sha), State: github.String("COMMENTED"), User: g.user()}
	g.Reviews = append(g.Reviews, rv)
	for _, c := range req.Comments {
		g.nextID++
		pc := &github.PullRequestComment{ID: github.Int64(g.nextID), PullRequestReviewID: github.Int64(rid), Path: c.Path,
			Body: c.Body, Line: c.Line, StartLine: c.StartLine, Side: github.String("RIGHT"), CommitID: github.String(sha),
			CreatedAt: &github.Timestamp{Time: time.Now()}, User: g.user(), SubjectType: github.String("line")}
		if c.StartLine != nil {
			pc.StartSide = github.String("RIGHT")
		}
		g.Comments = append(g.Comments, pc)
	}
	writeJSON(w, http.StatusOK, rv)
}

// hunksOf lists, per hunk, the new-file lines GitHub accepts comments on. Written apart
// from ghaction.ParsePatch on purpose: the fake must not share the code it checks.
func hunksOf(patch string) [][]int {
	var hs [][]int
	line := 0
	for _, l := range strings.Split(patch, "\n") {
		if strings.HasPrefix(l, "@@ ") {
			var a, b, c, d int
			if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &a, &b, &c, &d); err != nil {
				if _, err := fmt.Sscanf(l, "@@ -%d +%d,%d @@", &a, &c, &d); err != nil {
					continue
				}
			}
			line = c
			hs = append(hs, nil)
			continue
		}
		if len(hs) == 0 || strings.HasPrefix(l, "-") || strings.HasPrefix(l, "\\") {
			continue
		}
		hs[len(hs)-1] = append(hs[len(hs)-1], line)
		line++
	}
	return hs
}

func inHunk(hs [][]int, line int) int {
	for i, h := range hs {
		for _, l := range h {
			if l == line {
				return i
			}
		}
	}
	return -1
}

func (g *GitHub) findComment(id string) int {
	n, _ := strconv.ParseInt(id, 10, 64)
	for i, c := range g.Comments {
		if c.GetID() == n {
			return i
		}
	}
	return -1
}

func (g *GitHub) editComment(w http.ResponseWriter, id string, body []byte) {
	i := g.findComment(id)
	if i < 0 {
		notFound(w)
		return
	}
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		badJSON(w)
		return
	}
	b, ok := req["body"].(string)
	if !ok || b == "" || len(req) != 1 {
		unprocessable(w, "only body can be edited")
		return
	}
	g.Comments[i].Body = github.String(b)
	writeJSON(w, http.StatusOK, g.Comments[i])
}

func (g *GitHub) deleteComment(w http.ResponseWriter, id string) {
	i := g.findComment(id)
	if i < 0 {
		notFound(w)
		return
	}
	g.Comments = append(g.Comments[:i], g.Comments[i+1:]...)
	w.WriteHeader(http.StatusNoContent)
}

// createComment is REST "Create a review comment for a pull request"
// (https://docs.github.com/rest/pulls/comments#create-a-review-comment-for-a-pull-request):
// body, commit_id and path are required; subject_type "file" comments on the whole file
// and takes no line; otherwise line is required and must be in the diff. A path the
// pull request does not change cannot be resolved (422).
func (g *GitHub) createComment(w http.ResponseWriter, n int, body []byte) {
	var req struct {
		draft
		CommitID    *string `json:"commit_id"`
		SubjectType *string `json:"subject_type"`
		InReplyTo   *int64  `json:"in_reply_to"`
	}
	sha, ok := g.decodeForPR(w, n, body, &req)
	if !ok {
		return
	}
	if req.Body == nil || *req.Body == "" || req.CommitID == nil || req.Path == nil {
		unprocessable(w, "body, commit_id and path are required")
		return
	}
	if *req.CommitID != sha {
		unprocessable(w, "commit_id is not part of the pull request")
		return
	}
	var file *github.CommitFile
	for _, f := range g.Files[n] {
		if f.GetFilename() == *req.Path {
			file = f
		}
	}
	if file == nil {
		unprocessable(w, "Path could not be resolved")
		return
	}
	st := "line"
	if req.SubjectType != nil {
		st = *req.SubjectType
	}
	switch st {
	case "file":
		if req.Line != nil {
			unprocessable(w, "line is not allowed for subject_type file")
			return
		}
	case "line":
		if req.Line == nil || inHunk(hunksOf(file.GetPatch()), *req.Line) < 0 {
			unprocessable(w, "Line could not be resolved")
			return
		}
	default:
		unprocessable(w, "subject_type is invalid")
		return
	}
	g.nextID++
	pc := &github.PullRequestComment{ID: github.Int64(g.nextID), Path: req.Path, Body: req.Body, Line: req.Line,
		CommitID: github.String(sha), SubjectType: github.String(st), User: g.user(), CreatedAt: &github.Timestamp{Time: time.Now()}}
	g.Comments = append(g.Comments, pc)
	writeJSON(w, http.StatusCreated, pc)
}

// updateReview is REST "Update a review for a pull request"
// (https://docs.github.com/rest/pulls/reviews#update-a-review-for-a-pull-request):
// body is required; only the review's author can edit it (403 otherwise).
func (g *GitHub) updateReview(w http.ResponseWriter, n int, id string, body []byte) {
	rid, _ := strconv.ParseInt(id, 10, 64)
	var rv *github.PullRequestReview
	for _, r := range g.Reviews {
		if r.GetID() == rid {
			rv = r
		}
	}
	if _, ok := g.HeadSHA[n]; !ok || rv == nil {
		notFound(w)
		return
	}
	var req struct {
		Body *string `json:"body"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		badJSON(w)
		return
	}
	if req.Body == nil || *req.Body == "" {
		unprocessable(w, "body is required")
		return
	}
	if rv.GetUser().GetLogin() != g.Login {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
		return
	}
	rv.Body = req.Body
	writeJSON(w, http.StatusOK, rv)
}

// decodeForPR decodes a request about pull request n into v and returns its head
// commit; it has answered (400 or 404) when ok is false.
func (g *GitHub) decodeForPR(w http.ResponseWriter, n int, body []byte, v any) (sha string, ok bool) {
	if err := json.Unmarshal(body, v); err != nil {
		badJSON(w)
		return "", false
	}
	if sha, ok = g.HeadSHA[n]; !ok {
		notFound(w)
	}
	return sha, ok
}
