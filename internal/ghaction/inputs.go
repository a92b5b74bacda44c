package ghaction

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Comment modes of the comment-mode input.
const (
	ModeReview      = "review"      // review comments on the PR lines + check run
	ModeAnnotations = "annotations" // check-run annotations only
	ModeNone        = "none"        // report, summary, outputs and artifact only
)

// Filter modes of the filter-mode input (as reviewdog's -filter-mode): which gaps get a
// review comment of their own. The others are listed in the tutorial's summary review;
// every gap is in the check run, the step summary and the artifact whatever the mode.
const (
	FilterAdded   = "added"        // gaps on lines the pull request adds or changes
	FilterContext = "diff_context" // gaps on any line of the diff (added or context); the default
	FilterFile    = "file"         // also gaps elsewhere in a changed file, as file-level comments
	FilterNone    = "nofilter"     // as file: a gap in an unchanged file cannot carry a comment
)

// Inputs are the action.yml inputs, read from INPUT_* variables. Empty strings mean
// "use smile.json (or its default)".
type Inputs struct {
	Token         string
	Tutorials     []string // paths or globs (slash-separated, ** allowed)
	Config        string
	TrustedConfig string // a smile.json the workflow vouches for (its security-relevant settings apply)
	LLMProvider   string
	LLMRuntime    string
	FailOn        string
	CommentMode   string
	FilterMode    string // added, diff_context, file, nofilter
	Name          string // scopes smile-loop's markers: jobs with other names leave its comments alone
	MaxIterations int    // 0: from the config
	ChangedOnly   bool
	AuditIssues   bool
	OutputDir     string
	ArtifactName  string
	RetentionDays int // 0: the repository's default
	CheckName     string
	Image         string
	Command       string // run or discover
	ReportDir     string // post the reports found here instead of running
}

// InputError is an input the workflow must fix; it names the input.
type InputError struct {
	Input string
	Value string
	Want  string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("input %s=%q is invalid: want %s; fix the `with:` block of the workflow step", e.Input, e.Value, e.Want)
}

// InvalidInput marks the error for the exit-code mapping (exit 2).
func (e *InputError) InvalidInput() bool { return true }

// DefaultTutorials is the tutorials input's default.
const DefaultTutorials = "docs/**/*.md"

// ReadInputs reads and validates every input at once; all problems are joined.
func ReadInputs(getInput func(string) string) (Inputs, error) {
	in := Inputs{
		Token:         getInput("github-token"),
		Config:        getInput("config"),
		TrustedConfig: getInput("trusted-config"),
		LLMProvider:   strings.ToLower(getInput("llm-provider")),
		LLMRuntime:    strings.ToLower(getInput("llm-runtime")),
		FailOn:        strings.ToLower(getInput("fail-on")),
		CommentMode:   strings.ToLower(getInput("comment-mode")),
		FilterMode:    strings.ToLower(getInput("filter-mode")),
		Name:          getInput("name"),
		OutputDir:     getInput("output-dir"),
		ArtifactName:  getInput("artifact-name"),
		CheckName:     getInput("check-name"),
		Image:         getInput("container-image"),
		Command:       strings.ToLower(getInput("command")),
		ReportDir:     getInput("report-dir"),
	}
	var errs []error
	in.Tutorials = SplitList(getInput("tutorials"))
	if len(in.Tutorials) == 0 {
		in.Tutorials = []string{DefaultTutorials}
	}
	for _, t := range in.Tutorials {
		if strings.HasPrefix(t, "/") || strings.Contains("/"+t+"/", "/../") {
			errs = append(errs, &InputError{"tutorials", t, "paths or globs relative to the repository root, without .."})
		}
	}
	oneOf := func(name, v string, allowed ...string) {
		if v == "" {
			return
		}
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		errs = append(errs, &InputError{name, v, "one of " + strings.Join(allowed, ", ")})
	}
	oneOf("llm-provider", in.LLMProvider, "claude", "codex", "gemini", "none", "replay")
	oneOf("llm-runtime", in.LLMRuntime, "cli", "api")
	oneOf("fail-on", in.FailOn, "critical", "high", "medium", "low", "never")
	if in.CommentMode == "" {
		in.CommentMode = ModeReview
	}
	oneOf("comment-mode", in.CommentMode, ModeReview, ModeAnnotations, ModeNone)
	if in.FilterMode == "" {
		in.FilterMode = FilterContext
	}
	oneOf("filter-mode", in.FilterMode, FilterAdded, FilterContext, FilterFile, FilterNone)
	if len(in.Name) > 100 || strings.ContainsAny(in.Name, "\r\n<>") || strings.Contains(in.Name, "--") {
		errs = append(errs, &InputError{"name", in.Name, "a short name without line breaks, < > or --"})
	}
	if v := getInput("max-iterations"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			errs = append(errs, &InputError{"max-iterations", v, "a whole number of at least 1"})
		}
		in.MaxIterations = n
	}
	if v := getInput("retention-days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			errs = append(errs, &InputError{"retention-days", v, "a whole number of days, at least 1 (empty: the repository's default)"})
		}
		in.RetentionDays = n
	}
	boolean := func(name string, def bool) bool {
		v := strings.ToLower(getInput(name))
		switch v {
		case "":
			return def
		case "true", "yes", "1", "on":
			return true
		case "false", "no", "0", "off":
			return false
		}
		errs = append(errs, &InputError{name, v, "true or false"})
		return def
	}
	in.ChangedOnly = boolean("changed-only", true)
	in.AuditIssues = boolean("audit-issues", false)
	if in.OutputDir == "" {
		in.OutputDir = "smile-output"
	}
	if in.ArtifactName == "" {
		in.ArtifactName = "smile-report"
	}
	if strings.ContainsAny(in.ArtifactName, "\":<>|*?\\/\r\n") {
		errs = append(errs, &InputError{"artifact-name", in.ArtifactName, "a name without \" : < > | * ? \\ / or line breaks"})
	}
	if in.Command == "" {
		in.Command = "run"
	}
	oneOf("command", in.Command, "run", "discover")
	if in.CheckName == "" {
		in.CheckName = "smile-loop"
	}
	return in, errors.Join(errs...)
}

// SplitList splits a multi-line or comma-separated input into trimmed non-empty items.
func SplitList(v string) []string {
	var out []string
	for _, line := range strings.Split(v, "\n") {
		for _, item := range strings.Split(line, ",") {
			if item = strings.TrimSpace(item); item != "" && !strings.HasPrefix(item, "#") {
				out = append(out, item)
			}
		}
	}
	return out
}
