// Package ghactiontest provides fakes of GitHub's REST API and of the Actions artifact
// service that speak the real wire formats and refuse what GitHub refuses, so Action
// mode is tested where GitHub would fail it.
package ghactiontest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/smile-loop/smile-loop/internal/ghaction"
)

// Failure is a canned error response for the next requests of a route.
type Failure struct {
	Status  int
	Header  map[string]string
	Message string
	DocURL  string
}

// Canned failures GitHub really sends.
var (
	RateLimited = Failure{Status: http.StatusTooManyRequests, Header: map[string]string{"Retry-After": "1"}, Message: "API rate limit exceeded"}
	Secondary   = Failure{Status: http.StatusForbidden, Header: map[string]string{"Retry-After": "1"},
		Message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
		DocURL:  "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}
	BadGateway = Failure{Status: http.StatusBadGateway, Message: "Server Error"}
	ReadOnly   = Failure{Status: http.StatusForbidden, Message: "Resource not accessible by integration",
		DocURL: "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"}
)

// Request is one request the fake received.
type Request struct {
	Method, Path string
	Body         []byte
}

// GitHub is a fake of the REST endpoints Action mode uses, for one repository.
type GitHub struct {
	Server *httptest.Server
	Owner  string
	Repo   string
	Token  string // the bearer token every request must carry
	// Login is the account the token posts as (default github-actions[bot], the
	// workflow's GITHUB_TOKEN). UserToken makes GET /user answer with it, as for a
	// personal token; without it GET /user is refused as GitHub refuses an
	// installation token.
	Login     string
	UserToken bool

	mu            sync.Mutex
	ReadOnly      bool // a fork PR's token: every write is 403
	HeadSHA       map[int]string
	Files         map[int][]*github.CommitFile
	Comments      []*github.PullRequestComment
	Reviews       []*github.PullRequestReview
	CheckRuns     []*CheckRun
	Issues        []*github.Issue
	IssueComments map[int][]string
	Contents      map[string]map[string]string // commit → path → file content (GET /contents)
	Requests      []Request
	fail          map[string][]Failure // "METHOD /path-pattern" → failures to serve first
	nextID        int64
}

// CheckRun is a check run with every annotation it received.
type CheckRun struct {
	ID          int64
	Name        string
	HeadSHA     string
	Status      string
	Conclusion  string
	Title       string
	Summary     string
	Annotations []*github.CheckRunAnnotation
}

// NewGitHub starts the fake for owner/repo; it closes with the test.
func NewGitHub(t testing.TB, owner, repo, token string) *GitHub {
	g := &GitHub{Owner: owner, Repo: repo, Token: token, Login: "github-actions[bot]", HeadSHA: map[int]string{},
		Files: map[int][]*github.CommitFile{}, IssueComments: map[int][]string{}, Contents: map[string]map[string]string{}, fail: map[string][]Failure{}, nextID: 1000}
	// the handler reads g.Server: assign it before serving the first request
	g.Server = httptest.NewUnstartedServer(http.HandlerFunc(g.serve))
	g.Server.Start()
	t.Cleanup(g.Server.Close)
	return g
}

// URL is the API base, as GITHUB_API_URL.
func (g *GitHub) URL() string { return g.Server.URL }

// FailNext makes the next len(fs) requests matching route ("POST /check-runs", a suffix
// of the path after /repos/{owner}/{repo}) answer with fs in order.
func (g *GitHub) FailNext(route string, fs ...Failure) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.fail[route] = append(g.fail[route], fs...)
}

// AddPR registers pull request n with its head commit and files (patch per file).
func (g *GitHub) AddPR(n int, sha string, files map[string]string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.HeadSHA[n] = sha
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		g.Files[n] = append(g.Files[n], &github.CommitFile{Filename: github.String(f), Status: github.String("modified"), Patch: github.String(files[f])})
	}
}

// AddFile makes path hold content at commit ref (for GET /contents/{path}?ref=).
func (g *GitHub) AddFile(ref, path, content string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.Contents[ref] == nil {
		g.Contents[ref] = map[string]string{}
	}
	g.Contents[ref][path] = content
}

// AddComment adds an existing review comment (from an earlier run or a person; its
// author is the token's account unless c.User says otherwise).
func (g *GitHub) AddComment(c *github.PullRequestComment) int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextID++
	c.ID = github.Int64(g.nextID)
	if c.User == nil {
		c.User = g.user()
	}
	g.Comments = append(g.Comments, c)
	return g.nextID
}

// Snapshot returns copies of the state under the lock.
func (g *GitHub) Snapshot() (comments []*github.PullRequestComment, reviews []*github.PullRequestReview, runs []*CheckRun, issues []*github.Issue) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append(comments, g.Comments...), append(reviews, g.Reviews...), append(runs, g.CheckRuns...), append(issues, g.Issues...)
}

// Count returns how many requests matched method and path suffix.
func (g *GitHub) Count(method, suffix string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, r := range g.Requests {
		if r.Method == method && strings.HasSuffix(r.Path, suffix) {
			n++
		}
	}
	return n
}

// user is the token's account as GitHub shows it on what it posts.
func (g *GitHub) user() *github.User {
	typ := "User"
	if strings.HasSuffix(g.Login, "[bot]") {
		typ = "Bot"
	}
	return &github.User{Login: github.String(g.Login), Type: github.String(typ)}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func unprocessable(w http.ResponseWriter, errs ...string) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
		"message": "Unprocessable Entity", "errors": errs,
		"documentation_url": "https://docs.github.com/rest", "status": "422"})
}

func (g *GitHub) serve(w http.ResponseWriter, r *http.Request) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.Requests = append(g.Requests, Request{Method: r.Method, Path: r.URL.Path, Body: body})
	if r.Header.Get("Authorization") != "Bearer "+g.Token {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials"})
		return
	}
	if r.Method == http.MethodGet && r.URL.Path == "/user" {
		// REST "Get the authenticated user": an installation token (GITHUB_TOKEN) is
		// refused with 403 "Resource not accessible by integration".
		if !g.UserToken {
			writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration",
				"documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user"})
			return
		}
		writeJSON(w, http.StatusOK, g.user())
		return
	}
	prefix := fmt.Sprintf("/repos/%s/%s", g.Owner, g.Repo)
	if !strings.HasPrefix(r.URL.Path, prefix) {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	p := strings.TrimPrefix(r.URL.Path, prefix)
	route := r.Method + " " + routeOf(p)
	if fs := g.fail[route]; len(fs) > 0 {
		f := fs[0]
		g.fail[route] = fs[1:]
		for k, v := range f.Header {
			w.Header().Set(k, v)
		}
		writeJSON(w, f.Status, map[string]string{"message": f.Message, "documentation_url": f.DocURL})
		return
	}
	if g.ReadOnly && r.Method != http.MethodGet {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": ReadOnly.Message, "documentation_url": ReadOnly.DocURL})
		return
	}
	if r.Method == http.MethodGet && strings.HasPrefix(p, "/contents/") {
		g.contents(w, strings.TrimPrefix(p, "/contents/"), r.URL.Query().Get("ref"))
		return
	}
	seg := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case route == "GET /pulls/{n}":
		n, _ := strconv.Atoi(seg[1])
		sha, ok := g.HeadSHA[n]
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		writeJSON(w, http.StatusOK, &github.PullRequest{Number: github.Int(n), State: github.String("open"), Head: &github.PullRequestBranch{SHA: github.String(sha)}})
	case route == "GET /pulls/{n}/files":
		n, _ := strconv.Atoi(seg[1])
		page(w, r, g.Files[n])
	case route == "GET /pulls/{n}/comments":
		page(w, r, g.Comments)
	case route == "GET /pulls/{n}/reviews":
		page(w, r, g.Reviews)
	case route == "POST /pulls/{n}/reviews":
		n, _ := strconv.Atoi(seg[1])
		g.createReview(w, n, body)
	case route == "POST /pulls/{n}/comments":
		n, _ := strconv.Atoi(seg[1])
		g.createComment(w, n, body)
	case route == "PUT /pulls/{n}/reviews/{id}":
		n, _ := strconv.Atoi(seg[1])
		g.updateReview(w, n, seg[3], body)
	case route == "PATCH /pulls/comments/{id}":
		g.editComment(w, seg[2], body)
	case route == "DELETE /pulls/comments/{id}":
		g.deleteComment(w, seg[2])
	case route == "POST /check-runs":
		g.createCheck(w, body)
	case route == "PATCH /check-runs/{id}":
		g.updateCheck(w, seg[1], body)
	case route == "GET /issues":
		var open []*github.Issue
		for _, i := range g.Issues {
			if i.GetState() == r.URL.Query().Get("state") || r.URL.Query().Get("state") == "all" {
				open = append(open, i)
			}
		}
		page(w, r, open)
	case route == "POST /issues":
		var req github.IssueRequest
		if json.Unmarshal(body, &req) != nil || req.GetTitle() == "" {
			unprocessable(w, "title is required")
			return
		}
		g.nextID++
		iss := &github.Issue{ID: github.Int64(g.nextID), Number: github.Int(len(g.Issues) + 1), Title: req.Title, Body: req.Body,
			State: github.String("open"), User: g.user()}
		g.Issues = append(g.Issues, iss)
		writeJSON(w, http.StatusCreated, iss)
	case route == "PATCH /issues/{n}":
		n, _ := strconv.Atoi(seg[1])
		if n < 1 || n > len(g.Issues) {
			writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		var req github.IssueRequest
		_ = json.Unmarshal(body, &req)
		iss := g.Issues[n-1]
		if req.Title != nil {
			iss.Title = req.Title
		}
		if req.Body != nil {
			iss.Body = req.Body
		}
		if req.State != nil {
			if s := req.GetState(); s != "open" && s != "closed" {
				unprocessable(w, "state must be open or closed")
				return
			}
			iss.State = req.State
		}
		writeJSON(w, http.StatusOK, iss)
	case route == "POST /issues/{n}/comments":
		n, _ := strconv.Atoi(seg[1])
		var c github.IssueComment
		if json.Unmarshal(body, &c) != nil || c.GetBody() == "" {
			unprocessable(w, "body is required")
			return
		}
		g.IssueComments[n] = append(g.IssueComments[n], c.GetBody())
		writeJSON(w, http.StatusCreated, c)
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
	}
}

// routeOf replaces numeric path segments with placeholders.
func routeOf(p string) string {
	seg := strings.Split(strings.Trim(p, "/"), "/")
	for i, s := range seg {
		if _, err := strconv.Atoi(s); err == nil {
			switch {
			case i > 0 && seg[i-1] == "comments":
				seg[i] = "{id}"
			case i > 0 && (seg[i-1] == "check-runs" || seg[i-1] == "reviews"):
				seg[i] = "{id}"
			default:
				seg[i] = "{n}"
			}
		}
	}
	return "/" + strings.Join(seg, "/")
}

// page serves a list with GitHub's per_page/page parameters and Link header.
func page[T any](w http.ResponseWriter, r *http.Request, items []T) {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 {
		per = 30
	}
	pg, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if pg <= 0 {
		pg = 1
	}
	lo, hi := min((pg-1)*per, len(items)), min(pg*per, len(items))
	if hi < len(items) {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(pg+1))
		w.Header().Set("Link", fmt.Sprintf(`<http://%s%s?%s>; rel="next"`, r.Host, r.URL.Path, q.Encode()))
	}
	out := items[lo:hi]
	if out == nil {
		out = []T{}
	}
	writeJSON(w, http.StatusOK, out)
}

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
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	sha, ok := g.HeadSHA[n]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
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
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
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
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	g.Comments = append(g.Comments[:i], g.Comments[i+1:]...)
	w.WriteHeader(http.StatusNoContent)
}

type checkReq struct {
	Name        string  `json:"name"`
	HeadSHA     string  `json:"head_sha"`
	Status      *string `json:"status"`
	Conclusion  *string `json:"conclusion"`
	CompletedAt *string `json:"completed_at"`
	Output      *struct {
		Title       *string                      `json:"title"`
		Summary     *string                      `json:"summary"`
		Text        *string                      `json:"text"`
		Annotations []*github.CheckRunAnnotation `json:"annotations"`
	} `json:"output"`
}

func validOutput(w http.ResponseWriter, req checkReq) bool {
	if req.Output == nil {
		return true
	}
	o := req.Output
	if o.Title == nil || o.Summary == nil {
		unprocessable(w, "output.title and output.summary are required")
		return false
	}
	if len([]rune(*o.Summary)) > ghaction.MaxSummary || o.Text != nil && len([]rune(*o.Text)) > ghaction.MaxSummary {
		unprocessable(w, "output.summary is too long (maximum is 65535 characters)")
		return false
	}
	if len(o.Annotations) > ghaction.MaxAnnotationsPerRequest {
		unprocessable(w, "Only 50 annotations are allowed per request")
		return false
	}
	for _, a := range o.Annotations {
		if a.GetPath() == "" || a.StartLine == nil || a.EndLine == nil || a.GetMessage() == "" {
			unprocessable(w, "annotation path, start_line, end_line, annotation_level and message are required")
			return false
		}
		switch a.GetAnnotationLevel() {
		case "notice", "warning", "failure":
		default:
			unprocessable(w, "annotation_level must be notice, warning or failure")
			return false
		}
		if a.GetEndLine() < a.GetStartLine() {
			unprocessable(w, "end_line must not precede start_line")
			return false
		}
	}
	return true
}

func (g *GitHub) createCheck(w http.ResponseWriter, body []byte) {
	var req checkReq
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	if req.Name == "" || req.HeadSHA == "" {
		unprocessable(w, "name and head_sha are required")
		return
	}
	if req.Conclusion != nil {
		switch *req.Conclusion {
		case "success", "failure", "neutral", "cancelled", "skipped", "timed_out", "action_required":
		default:
			unprocessable(w, "conclusion is invalid")
			return
		}
	}
	if req.Status != nil && *req.Status == "completed" && req.Conclusion == nil {
		unprocessable(w, "conclusion is required when status is completed")
		return
	}
	if !validOutput(w, req) {
		return
	}
	g.nextID++
	cr := &CheckRun{ID: g.nextID, Name: req.Name, HeadSHA: req.HeadSHA}
	if req.Status != nil {
		cr.Status = *req.Status
	}
	if req.Conclusion != nil {
		cr.Conclusion = *req.Conclusion
	}
	if req.Output != nil {
		cr.Title, cr.Summary, cr.Annotations = *req.Output.Title, *req.Output.Summary, req.Output.Annotations
	}
	g.CheckRuns = append(g.CheckRuns, cr)
	writeJSON(w, http.StatusCreated, map[string]any{"id": cr.ID, "name": cr.Name, "head_sha": cr.HeadSHA, "status": cr.Status, "conclusion": cr.Conclusion})
}

func (g *GitHub) updateCheck(w http.ResponseWriter, id string, body []byte) {
	n, _ := strconv.ParseInt(id, 10, 64)
	var cr *CheckRun
	for _, c := range g.CheckRuns {
		if c.ID == n {
			cr = c
		}
	}
	if cr == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	var req checkReq
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	if !validOutput(w, req) {
		return
	}
	if req.Output != nil {
		cr.Title, cr.Summary = *req.Output.Title, *req.Output.Summary
		cr.Annotations = append(cr.Annotations, req.Output.Annotations...)
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": cr.ID, "name": cr.Name})
}

// createComment is REST "Create a review comment for a pull request"
// (https://docs.github.com/rest/pulls/comments#create-a-review-comment-for-a-pull-request):
// body, commit_id and path are required; subject_type "file" comments on the whole file
// and takes no line; otherwise line is required and must be in the diff. A path the
// pull request does not change cannot be resolved (422).
func (g *GitHub) createComment(w http.ResponseWriter, n int, body []byte) {
	var req struct {
		Body        *string `json:"body"`
		CommitID    *string `json:"commit_id"`
		Path        *string `json:"path"`
		Line        *int    `json:"line"`
		Side        *string `json:"side"`
		SubjectType *string `json:"subject_type"`
		InReplyTo   *int64  `json:"in_reply_to"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	sha, ok := g.HeadSHA[n]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
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
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	var req struct {
		Body *string `json:"body"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
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

// contents is REST "Get repository content" for a file
// (https://docs.github.com/rest/repos/contents#get-repository-content): the file as
// base64 in lines of 60 characters; an unknown ref is 404 "No commit found for the ref
// …", an unknown path 404 "Not Found". The fake knows only the commits given to AddFile,
// so a ref is required.
func (g *GitHub) contents(w http.ResponseWriter, path, ref string) {
	files, ok := g.Contents[ref]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "No commit found for the ref " + ref,
			"documentation_url": "https://docs.github.com/rest/repos/contents#get-repository-content"})
		return
	}
	content, ok := files[path]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found",
			"documentation_url": "https://docs.github.com/rest/repos/contents#get-repository-content"})
		return
	}
	enc := base64.StdEncoding.EncodeToString([]byte(content))
	var b strings.Builder
	for len(enc) > 60 {
		b.WriteString(enc[:60] + "\n")
		enc = enc[60:]
	}
	b.WriteString(enc + "\n")
	name := path[strings.LastIndex(path, "/")+1:]
	writeJSON(w, http.StatusOK, map[string]any{"type": "file", "encoding": "base64", "size": len(content), "name": name,
		"path": path, "content": b.String(), "sha": fmt.Sprintf("%x", len(content))})
}
