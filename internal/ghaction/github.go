package ghaction

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/google/go-github/v60/github"
)

// GitHub posts to one repository's REST API for one event.
type GitHub struct {
	Client *github.Client
	Event  Event
	Log    *slog.Logger
	// Name scopes the hidden markers (the name input): runs with another name leave
	// these comments, reviews and issues alone.
	Name string
	// Login is the account the token posts as; "" looks it up once (GET /user, and
	// github-actions[bot] for the workflow's GITHUB_TOKEN, which cannot call it). Only
	// comments, reviews and issues by this account are smile-loop's own, whatever
	// marker someone else's text carries.
	Login string

	loginDone bool
}

// actionsBot is the author of everything the workflow's GITHUB_TOKEN posts.
const actionsBot = "github-actions[bot]"

// PRFile is one file a pull request changes.
type PRFile struct {
	Path   string
	Status string // added, modified, removed, renamed, …
	Hunks  Hunks  // lines of the diff (added and context)
	Added  Hunks  // added lines only
}

func (g *GitHub) marks() markers { return newMarkers(g.Name) }

// authored reports whether u is the token's own account.
func (g *GitHub) authored(ctx context.Context, u *github.User) bool {
	if !g.loginDone {
		g.loginDone = true
		if g.Login == "" {
			g.Login = g.whoAmI(ctx)
		}
	}
	return u != nil && strings.EqualFold(u.GetLogin(), g.Login)
}

// whoAmI returns the token's login: GET /user (REST "Get the authenticated user") for a
// personal token; an installation token (the workflow's GITHUB_TOKEN, a GitHub App's)
// gets 403 "Resource not accessible by integration" there but may read GraphQL's
// viewer; failing both, the GITHUB_TOKEN's github-actions[bot].
func (g *GitHub) whoAmI(ctx context.Context) string {
	u, _, err := g.Client.Users.Get(ctx, "")
	if err == nil && u.GetLogin() != "" {
		return u.GetLogin()
	}
	if login, gqlErr := g.viewer(ctx); gqlErr == nil && login != "" {
		return login
	} else if g.Log != nil {
		g.Log.Info("could not look up the token's account; taking it for the workflow's GITHUB_TOKEN", "rest", Why(err), "graphql", gqlErr)
	}
	return actionsBot
}

// viewer asks GitHub's GraphQL API (POST /graphql, beside the REST base) for the login.
func (g *GitHub) viewer(ctx context.Context) (string, error) {
	req, err := g.Client.NewRequest(http.MethodPost, "../graphql", map[string]string{"query": "query { viewer { login } }"})
	if err != nil {
		return "", err
	}
	var resp struct {
		Data struct {
			Viewer struct {
				Login string `json:"login"`
			} `json:"viewer"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if _, err := g.Client.Do(ctx, req, &resp); err != nil {
		return "", err
	}
	if len(resp.Errors) > 0 {
		return "", errors.New(resp.Errors[0].Message)
	}
	return resp.Data.Viewer.Login, nil
}

// ChangedFiles lists every file of the pull request (pulls/{n}/files, all pages).
func (g *GitHub) ChangedFiles(ctx context.Context) ([]PRFile, error) {
	var out []PRFile
	opt := &github.ListOptions{PerPage: 100}
	for {
		files, resp, err := g.Client.PullRequests.ListFiles(ctx, g.Event.Owner, g.Event.Repo, g.Event.PR, opt)
		if err != nil {
			return nil, fmt.Errorf("list files of pull request #%d: %w", g.Event.PR, err)
		}
		for _, f := range files {
			hunks, added := parsePatch(f.GetPatch())
			out = append(out, PRFile{Path: f.GetFilename(), Status: f.GetStatus(), Hunks: hunks, Added: added})
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opt.Page = resp.NextPage
	}
}

// Why explains a failed GitHub call for the log: status, GitHub's message, and what
// usually causes it.
func Why(err error) string {
	var (
		er  *github.ErrorResponse
		rl  *github.RateLimitError
		abr *github.AbuseRateLimitError
	)
	switch {
	case errors.As(err, &rl):
		return fmt.Sprintf("primary rate limit exhausted until %s", rl.Rate.Reset.Format("15:04:05 MST"))
	case errors.As(err, &abr):
		return "secondary rate limit: " + abr.Message
	case errors.As(err, &er) && er.Response != nil:
		msg := fmt.Sprintf("HTTP %d %s", er.Response.StatusCode, er.Message)
		for _, e := range er.Errors {
			if e.Message != "" {
				msg += "; " + e.Message
			}
		}
		switch er.Response.StatusCode {
		case http.StatusForbidden, http.StatusNotFound:
			msg += " (the token cannot write here: a pull request from a fork gets a read-only token, or the workflow lacks the permission)"
		case http.StatusUnprocessableEntity:
			msg += " (GitHub refused the request's content)"
		case http.StatusTooManyRequests:
			msg += " (rate limited; retries exhausted)"
		default:
			if er.Response.StatusCode >= 500 {
				msg += " (GitHub is failing; retries exhausted)"
			}
		}
		return msg
	}
	return err.Error()
}

func statusOf(err error) int {
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	var rl *github.RateLimitError
	if errors.As(err, &rl) {
		return http.StatusForbidden
	}
	return 0
}
