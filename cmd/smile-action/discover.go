package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/sethvargo/go-githubactions"
	"github.com/smile-loop/smile-loop/internal/ghaction"
)

// cmdDiscover lists the tutorials to test as a strategy.matrix: the changed ones on a
// pull request, every match of the globs otherwise. In a workflow it also sets the
// `matrix` output.
func cmdDiscover(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "discover")
	tutorials := fs.String("tutorials", "", "tutorial paths or globs, comma-separated (default: the tutorials input, else "+ghaction.DefaultTutorials+")")
	root := fs.String("root", "", "repository root (default: GITHUB_WORKSPACE, else the current directory)")
	all := fs.Bool("all", false, "on a pull request, list every matching tutorial, not only the changed ones")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	gha := githubactions.New(githubactions.WithGetenv(e.getenv), githubactions.WithWriter(e.stderr))
	in, err := ghaction.ReadInputs(gha.GetInput)
	if err != nil {
		return err
	}
	if *tutorials != "" {
		in.Tutorials = ghaction.SplitList(*tutorials)
	}
	if *all {
		in.ChangedOnly = false
	}
	ws := *root
	if ws == "" {
		ws = workspace(e)
	}
	m, err := discover(ctx, e, gha, in, ws)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(e.stdout, m.JSON())
	return err
}

// discover finds the tutorials and publishes the matrix output when in a workflow.
func discover(ctx context.Context, e *env, gha *githubactions.Action, in ghaction.Inputs, ws string) (ghaction.Matrix, error) {
	var ev ghaction.Event
	if e.getenv("GITHUB_EVENT_NAME") != "" {
		var err error
		if ev, err = ghaction.ReadEvent(e.getenv); err != nil {
			return ghaction.Matrix{}, err
		}
	}
	gh, err := newGitHub(e, in.Token, ev)
	if err != nil {
		return ghaction.Matrix{}, err
	}
	var changed func(context.Context) ([]ghaction.PRFile, error)
	if ev.IsPR() && in.ChangedOnly {
		if gh == nil {
			return ghaction.Matrix{}, usageError{fmt.Errorf("listing the files of pull request #%d needs a token: set the github-token input or GITHUB_TOKEN, or pass --all", ev.PR)}
		}
		changed = gh.ChangedFiles
	}
	d := ghaction.Discovery{Workspace: ws, Patterns: in.Tutorials, ChangedOnly: in.ChangedOnly}
	list, err := d.Tutorials(ctx, ev, changed)
	if err != nil {
		return ghaction.Matrix{}, err
	}
	m := ghaction.MatrixOf(list)
	if e.getenv("GITHUB_OUTPUT") != "" {
		if err := setOutput(gha, "matrix", m.JSON()); err != nil {
			return m, err
		}
	}
	e.log.Info("discovered tutorials", "count", len(list), "patterns", strings.Join(in.Tutorials, ","))
	return m, nil
}

// setOutput writes an output, turning go-githubactions' panic on an unwritable
// GITHUB_OUTPUT into an error.
func setOutput(gha *githubactions.Action, k, v string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("write output %s to GITHUB_OUTPUT: %v", k, r)
		}
	}()
	gha.SetOutput(k, v)
	return nil
}

// workspace is the repository checkout: GITHUB_WORKSPACE, else the current directory.
func workspace(e *env) string {
	if ws := e.getenv("GITHUB_WORKSPACE"); ws != "" {
		return ws
	}
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}

// newGitHub returns the REST client for the event's repository, nil without a token.
func newGitHub(e *env, token string, ev ghaction.Event) (*ghaction.GitHub, error) {
	if token == "" {
		token = e.getenv("GITHUB_TOKEN")
	}
	if token == "" {
		return nil, nil
	}
	c, err := ghaction.NewClient(token, e.getenv("GITHUB_API_URL"), ghaction.DefaultRetry, e.log)
	if err != nil {
		return nil, err
	}
	return &ghaction.GitHub{Client: c, Event: ev, Log: e.log}, nil
}
