package ghaction

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/google/go-github/v60/github"
)

// Event is what Action mode needs from the workflow's trigger.
type Event struct {
	Name     string // GITHUB_EVENT_NAME: pull_request, push, schedule, workflow_dispatch, …
	Owner    string
	Repo     string
	SHA      string // the commit to annotate: the PR head, else GITHUB_SHA
	PR       int    // pull request number, 0 when not a PR event
	Fork     bool   // the PR comes from another repository: the token is read-only
	Schedule string // cron of a schedule event
	RunID    string
	Server   string // https://github.com
}

// IsPR reports whether the event is a pull request.
func (e Event) IsPR() bool { return e.PR > 0 }

// EnvError is a runner variable that is missing or unreadable.
type EnvError struct {
	Name string
	Err  error
}

func (e *EnvError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("runner variable %s: %v; run in a GitHub Actions job or set it", e.Name, e.Err)
	}
	return fmt.Sprintf("runner variable %s is not set; run in a GitHub Actions job or set it", e.Name)
}
func (e *EnvError) Unwrap() error { return e.Err }

// InvalidInput marks the error for the exit-code mapping.
func (e *EnvError) InvalidInput() bool { return true }

// ReadEvent reads the event from GITHUB_EVENT_NAME and the payload at GITHUB_EVENT_PATH,
// as the runner provides them.
func ReadEvent(getenv func(string) string) (Event, error) {
	ev := Event{
		Name:   getenv("GITHUB_EVENT_NAME"),
		SHA:    getenv("GITHUB_SHA"),
		RunID:  getenv("GITHUB_RUN_ID"),
		Server: strings.TrimRight(getenv("GITHUB_SERVER_URL"), "/"),
	}
	if ev.Server == "" {
		ev.Server = "https://github.com"
	}
	if repo := getenv("GITHUB_REPOSITORY"); repo != "" {
		ev.Owner, ev.Repo, _ = strings.Cut(repo, "/")
	}
	if ev.Name == "" {
		return ev, &EnvError{Name: "GITHUB_EVENT_NAME"}
	}
	p := getenv("GITHUB_EVENT_PATH")
	if p == "" {
		return ev, &EnvError{Name: "GITHUB_EVENT_PATH"}
	}
	payload, err := os.ReadFile(p)
	if err != nil {
		return ev, &EnvError{Name: "GITHUB_EVENT_PATH", Err: err}
	}
	switch ev.Name {
	case "pull_request", "pull_request_target":
		var pe github.PullRequestEvent
		if err := json.Unmarshal(payload, &pe); err != nil {
			return ev, &EnvError{Name: "GITHUB_EVENT_PATH", Err: fmt.Errorf("decode %s payload: %w", ev.Name, err)}
		}
		pr := pe.GetPullRequest()
		if pr == nil || pe.GetNumber() == 0 && pr.GetNumber() == 0 {
			return ev, &EnvError{Name: "GITHUB_EVENT_PATH", Err: errors.New("pull_request payload without a pull request")}
		}
		ev.PR = pe.GetNumber()
		if ev.PR == 0 {
			ev.PR = pr.GetNumber()
		}
		if sha := pr.GetHead().GetSHA(); sha != "" {
			ev.SHA = sha
		}
		base := pr.GetBase().GetRepo().GetFullName()
		if base == "" {
			base = pe.GetRepo().GetFullName()
		}
		head := pr.GetHead().GetRepo()
		// A deleted fork has a null head repository; it is still a fork.
		ev.Fork = head == nil || !strings.EqualFold(head.GetFullName(), base)
		if ev.Owner == "" && base != "" {
			ev.Owner, ev.Repo, _ = strings.Cut(base, "/")
		}
	case "schedule":
		var s struct {
			Schedule string `json:"schedule"`
		}
		if err := json.Unmarshal(payload, &s); err != nil {
			return ev, &EnvError{Name: "GITHUB_EVENT_PATH", Err: fmt.Errorf("decode schedule payload: %w", err)}
		}
		ev.Schedule = s.Schedule
	case "workflow_run":
		var wr github.WorkflowRunEvent
		if err := json.Unmarshal(payload, &wr); err != nil {
			return ev, &EnvError{Name: "GITHUB_EVENT_PATH", Err: fmt.Errorf("decode workflow_run payload: %w", err)}
		}
		if sha := wr.GetWorkflowRun().GetHeadSHA(); sha != "" {
			ev.SHA = sha
		}
		if ev.Owner == "" {
			ev.Owner, ev.Repo, _ = strings.Cut(wr.GetRepo().GetFullName(), "/")
		}
	default:
		var r struct {
			Repository *github.Repository `json:"repository"`
		}
		if err := json.Unmarshal(payload, &r); err != nil {
			return ev, &EnvError{Name: "GITHUB_EVENT_PATH", Err: fmt.Errorf("decode %s payload: %w", ev.Name, err)}
		}
		if ev.Owner == "" && r.Repository != nil {
			ev.Owner, ev.Repo, _ = strings.Cut(r.Repository.GetFullName(), "/")
		}
	}
	if ev.Owner == "" || ev.Repo == "" {
		return ev, &EnvError{Name: "GITHUB_REPOSITORY"}
	}
	return ev, nil
}

// RunURL is the link to the workflow run, "" when unknown.
func (e Event) RunURL() string {
	if e.RunID == "" {
		return ""
	}
	return fmt.Sprintf("%s/%s/%s/actions/runs/%s", e.Server, e.Owner, e.Repo, e.RunID)
}

// TrustModelURL is the README's section on what a pull request can and cannot decide.
const TrustModelURL = "https://github.com/smile-loop/smile-loop#trust-model"

// TrustWarning is the loud warning for a trigger that runs with the base repository's
// secrets and a write token while the pull request's content is untrusted, "" for
// other events.
func TrustWarning(ev Event) string {
	if ev.Name != "pull_request_target" {
		return ""
	}
	return "smile-loop runs on pull_request_target: this job has the base repository's secrets and a write token while the tutorial comes from the pull request. " +
		"A tutorial runs arbitrary commands; if this workflow checks out the pull request's code, its author can reach those secrets. " +
		"Use the fork-safe pair (pull_request + workflow_run) instead; see " + TrustModelURL
}

// logEscaper escapes line breaks as the toolkit's escapeData does for a command's
// message (actions/toolkit packages/core/src/command.ts), so a value cannot start a
// line of its own.
var logEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// LogText makes s safe inside one plain line of the Actions log: the runner reads a
// workflow command (`::error::…`) at the start of any line, so a line break in a file
// name would inject one.
func LogText(s string) string { return logEscaper.Replace(s) }
