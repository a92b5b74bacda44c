package ghactiontest_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sha = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"

// The fake refuses what GitHub refuses, so tests fail where GitHub would.
func TestFakeGitHubRefusesLikeGitHub(t *testing.T) {
	t.Parallel()
	fake := ghactiontest.NewGitHub(t, "o", "r", "tok")
	fake.AddPR(1, sha, map[string]string{"a.md": "@@ -1,2 +1,4 @@\n x\n+y\n+z\n x"}) // lines 1-4 commentable
	c := github.NewClient(nil).WithAuthToken("tok")
	base, err := url.Parse(fake.URL() + "/")
	require.NoError(t, err)
	c.BaseURL = base
	ctx := context.Background()

	review := func(comments ...*github.DraftReviewComment) int {
		_, resp, _ := c.PullRequests.CreateReview(ctx, "o", "r", 1, &github.PullRequestReviewRequest{
			CommitID: github.String(sha), Event: github.String("COMMENT"), Comments: comments})
		return resp.StatusCode
	}
	line := func(start, end int) *github.DraftReviewComment {
		d := &github.DraftReviewComment{Path: github.String("a.md"), Body: github.String("b"), Line: github.Int(end), Side: github.String("RIGHT")}
		if start > 0 {
			d.StartLine, d.StartSide = github.Int(start), github.String("RIGHT")
		}
		return d
	}
	assert.Equal(t, http.StatusOK, review(line(0, 3)))
	assert.Equal(t, http.StatusOK, review(line(2, 4)))
	assert.Equal(t, http.StatusUnprocessableEntity, review(line(0, 9)), "line outside the diff")
	assert.Equal(t, http.StatusUnprocessableEntity, review(line(3, 3)), "start_line must precede line")
	assert.Equal(t, http.StatusUnprocessableEntity, review(line(4, 2)), "start_line after line")
	other := line(0, 1)
	other.Path = github.String("b.md")
	assert.Equal(t, http.StatusUnprocessableEntity, review(other), "file not in the pull request")
	var many []*github.DraftReviewComment
	for i := 0; i < 31; i++ {
		many = append(many, line(0, 2))
	}
	assert.Equal(t, http.StatusUnprocessableEntity, review(many...), "more than 30 comments in one review")
	assert.Equal(t, http.StatusUnprocessableEntity, review(), "a review without comments needs a body")

	var anns []*github.CheckRunAnnotation
	for i := 0; i < 51; i++ {
		anns = append(anns, &github.CheckRunAnnotation{Path: github.String("a.md"), StartLine: github.Int(1), EndLine: github.Int(1),
			AnnotationLevel: github.String("warning"), Message: github.String("m")})
	}
	check := func(a []*github.CheckRunAnnotation) int {
		_, resp, _ := c.Checks.CreateCheckRun(ctx, "o", "r", github.CreateCheckRunOptions{Name: "n", HeadSHA: sha,
			Status: github.String("completed"), Conclusion: github.String("success"),
			Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String("s"), Annotations: a}})
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusUnprocessableEntity, check(anns), "51 annotations")
	assert.Equal(t, http.StatusCreated, check(anns[:50]))
	bad := *anns[0]
	bad.AnnotationLevel = github.String("error")
	assert.Equal(t, http.StatusUnprocessableEntity, check([]*github.CheckRunAnnotation{&bad}), "annotation_level error does not exist")

	// File-level comments (REST "Create a review comment for a pull request").
	fileComment := func(path string, line *int, subject, commit string) int {
		_, resp, _ := c.PullRequests.CreateComment(ctx, "o", "r", 1, &github.PullRequestComment{Body: github.String("b"),
			CommitID: github.String(commit), Path: github.String(path), Line: line, SubjectType: github.String(subject)})
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusCreated, fileComment("a.md", nil, "file", sha))
	assert.Equal(t, http.StatusUnprocessableEntity, fileComment("b.md", nil, "file", sha), "file not in the pull request")
	assert.Equal(t, http.StatusUnprocessableEntity, fileComment("a.md", github.Int(2), "file", sha), "a file comment takes no line")
	assert.Equal(t, http.StatusUnprocessableEntity, fileComment("a.md", nil, "line", sha), "a line comment needs its line")
	assert.Equal(t, http.StatusUnprocessableEntity, fileComment("a.md", github.Int(9), "line", sha), "line outside the diff")
	assert.Equal(t, http.StatusUnprocessableEntity, fileComment("a.md", nil, "file", "1111111111111111111111111111111111111111"), "commit not in the pull request")

	// Editing a review's body (REST "Update a review for a pull request"): the author only.
	rv, _, err := c.PullRequests.CreateReview(ctx, "o", "r", 1, &github.PullRequestReviewRequest{CommitID: github.String(sha),
		Event: github.String("COMMENT"), Body: github.String("first")})
	require.NoError(t, err)
	_, resp, _ := c.PullRequests.UpdateReview(ctx, "o", "r", 1, rv.GetID(), "")
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode, "body is required")
	_, resp, _ = c.PullRequests.UpdateReview(ctx, "o", "r", 1, 999999, "x")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	got, _, err := c.PullRequests.UpdateReview(ctx, "o", "r", 1, rv.GetID(), "second")
	require.NoError(t, err)
	assert.Equal(t, "second", got.GetBody())
	assert.Equal(t, "github-actions[bot]", got.GetUser().GetLogin())
	fake.Login = "someone-else"
	_, resp, _ = c.PullRequests.UpdateReview(ctx, "o", "r", 1, rv.GetID(), "third")
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "another account's review")
	fake.Login = "github-actions[bot]"

	// GET /user: an installation token cannot call it; a personal token can.
	_, resp, _ = c.Users.Get(ctx, "")
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	fake.UserToken = true
	u, _, err := c.Users.Get(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, "github-actions[bot]", u.GetLogin())

	// File content at a commit (REST "Get repository content").
	fake.AddFile(sha, "docs/a.md", strings.Repeat("line of the tutorial\n", 20))
	fc, _, _, err := c.Repositories.GetContents(ctx, "o", "r", "docs/a.md", &github.RepositoryContentGetOptions{Ref: sha})
	require.NoError(t, err)
	assert.Contains(t, content(t, fc), "line of the tutorial\nline of the tutorial\n")
	_, _, resp, _ = c.Repositories.GetContents(ctx, "o", "r", "docs/b.md", &github.RepositoryContentGetOptions{Ref: sha})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "unknown path")
	_, _, resp, err = c.Repositories.GetContents(ctx, "o", "r", "docs/a.md", &github.RepositoryContentGetOptions{Ref: "0000000000000000000000000000000000000000"})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "unknown commit")
	assert.ErrorContains(t, err, "No commit found for the ref")

	// GraphQL viewer: the login of any token; other queries are errors with status 200.
	gql := func(q string) map[string]any {
		req, err := c.NewRequest(http.MethodPost, "../graphql", map[string]string{"query": q})
		require.NoError(t, err)
		var out map[string]any
		_, err = c.Do(ctx, req, &out)
		require.NoError(t, err)
		return out
	}
	assert.Equal(t, map[string]any{"data": map[string]any{"viewer": map[string]any{"login": "github-actions[bot]"}}}, gql("query { viewer { login } }"))
	assert.Contains(t, gql("query { repository(owner:\"o\", name:\"r\") { id } }"), "errors")

	fake.ReadOnly = true
	assert.Equal(t, http.StatusForbidden, review(line(0, 3)), "a fork's read-only token")
	assert.Equal(t, http.StatusForbidden, fileComment("a.md", nil, "file", sha), "a fork's read-only token")
	_, resp, _ = c.PullRequests.ListFiles(ctx, "o", "r", 1, nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "reading still works")
}

func content(t *testing.T, fc *github.RepositoryContent) string {
	t.Helper()
	s, err := fc.GetContent()
	require.NoError(t, err)
	return s
}
