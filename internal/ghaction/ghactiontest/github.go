// Package ghactiontest provides fakes of GitHub's REST API and of the Actions artifact
// service that speak the real wire formats and refuse what GitHub refuses, so Action
// mode is tested where GitHub would fail it.
package ghactiontest

import (
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

	"github.com/google/go-github/v60/github"
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
	// workflow's GITHUB_TOKEN), as GraphQL's viewer tells it. UserToken makes GET
	// /user answer with it, as for a personal token; without it GET /user is refused
	// as GitHub refuses an installation token.
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

// graphql answers the one GraphQL query smile-loop sends, `viewer { login }`, which
// installation tokens may ask too (https://docs.github.com/graphql/reference/queries#viewer);
// GraphQL reports problems with status 200 and an errors list.
func (g *GitHub) graphql(w http.ResponseWriter, body []byte) {
	var req struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.Query == "" {
		badJSON(w)
		return
	}
	if strings.Join(strings.Fields(req.Query), " ") != "query { viewer { login } }" {
		writeJSON(w, http.StatusOK, map[string]any{"errors": []map[string]string{{"message": "the fake answers only query { viewer { login } }"}}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"viewer": map[string]string{"login": g.Login}}})
}

// badJSON and notFound are GitHub's answers to a body it cannot parse and to an
// unknown resource.
func badJSON(w http.ResponseWriter) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
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
	if r.Method == http.MethodPost && r.URL.Path == "/graphql" {
		g.graphql(w, body)
		return
	}
	prefix := fmt.Sprintf("/repos/%s/%s", g.Owner, g.Repo)
	if !strings.HasPrefix(r.URL.Path, prefix) {
		notFound(w)
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
			notFound(w)
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
			notFound(w)
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
