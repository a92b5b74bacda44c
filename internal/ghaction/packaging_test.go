package ghaction_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v4"
)

const repoRoot = "../.."

type actionYML struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs map[string]struct {
		Description string  `yaml:"description"`
		Required    bool    `yaml:"required"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
	} `yaml:"outputs"`
	Runs struct {
		Using      string   `yaml:"using"`
		Image      string   `yaml:"image"`
		Entrypoint string   `yaml:"entrypoint"`
		Args       []string `yaml:"args"`
	} `yaml:"runs"`
}

func readAction(t *testing.T) actionYML {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	require.NoError(t, err)
	var a actionYML
	require.NoError(t, yaml.Unmarshal(b, &a))
	return a
}

func TestActionYML(t *testing.T) {
	t.Parallel()
	a := readAction(t)
	assert.NotEmpty(t, a.Name)
	assert.NotEmpty(t, a.Description)
	assert.NotEmpty(t, a.Branding.Icon)
	assert.NotEmpty(t, a.Branding.Color)
	assert.Equal(t, "docker", a.Runs.Using) // the image: distribution_test.go
	assert.Empty(t, a.Runs.Entrypoint, "the Dockerfile's ENTRYPOINT runs Action mode")
	assert.Empty(t, a.Runs.Args, "Action mode reads INPUT_* variables, not arguments")

	// Every input Action mode reads is declared, documented and has a default; nothing
	// declared is ignored.
	read := map[string]bool{}
	_, _ = ghaction.ReadInputs(func(name string) string { read[name] = true; return "" })
	var declared []string
	for name, in := range a.Inputs {
		declared = append(declared, name)
		assert.NotEmpty(t, in.Description, name)
		assert.False(t, in.Required, "%s: every input has a default", name)
		assert.NotNil(t, in.Default, "%s has no default", name)
		assert.True(t, read[name], "input %s is declared but never read", name)
	}
	for name := range read {
		assert.Contains(t, declared, name, "input %s is read but not declared in action.yml", name)
	}
	for _, name := range []string{"github-token", "tutorials", "config", "llm-provider", "llm-runtime", "fail-on", "comment-mode", "max-iterations", "changed-only", "audit-issues"} {
		assert.Contains(t, declared, name)
	}
	assert.Equal(t, "${{ github.token }}", *a.Inputs["github-token"].Default)
	assert.Equal(t, ghaction.DefaultTutorials, *a.Inputs["tutorials"].Default)
	assert.Equal(t, "review", *a.Inputs["comment-mode"].Default)
	for _, name := range []string{"status", "gaps", "report-json", "report-markdown", "report-sarif", "matrix"} {
		assert.NotEmpty(t, a.Outputs[name].Description, "output %s", name)
	}
}

type workflow struct {
	Name        string            `yaml:"name"`
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		If          string            `yaml:"if"`
		Needs       any               `yaml:"needs"`
		Permissions map[string]string `yaml:"permissions"`
		Outputs     map[string]string `yaml:"outputs"`
		Strategy    struct {
			Matrix any `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []struct {
			ID   string            `yaml:"id"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

func readWorkflow(t *testing.T, name string) (workflow, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "examples", "workflows", name))
	require.NoError(t, err)
	var w workflow
	require.NoError(t, yaml.Unmarshal(b, &w), name)
	return w, string(b)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var usesLine = regexp.MustCompile(`(?m)uses:\s*([^@\s]+)@(\S+)(.*)$`)

func TestExampleWorkflows(t *testing.T) {
	t.Parallel()
	inputs := readAction(t).Inputs
	files, err := filepath.Glob(filepath.Join(repoRoot, "examples", "workflows", "*.yml"))
	require.NoError(t, err)
	require.Len(t, files, 4)
	for _, f := range files {
		w, raw := readWorkflow(t, filepath.Base(f))
		// Other people's actions are pinned by commit (a tag can be moved), the tag kept
		// in a comment for readers and update tools.
		for _, m := range usesLine.FindAllStringSubmatch(raw, -1) {
			if m[1] == "smile-loop/smile-loop" {
				continue
			}
			assert.Regexp(t, `^[0-9a-f]{40}$`, m[2], "%s: %s is pinned by commit SHA", f, m[1])
			assert.Regexp(t, `^\s*# v\d`, m[3], "%s: %s names its tag in a comment", f, m[1])
		}
		assert.NotEmpty(t, w.Name, f)
		assert.NotEmpty(t, w.Permissions, "%s: top-level permissions are explicit", f)
		assert.NotContains(t, w.On, "pull_request_target", "%s: untrusted code never runs with a write token", f)
		for job, j := range w.Jobs {
			for _, s := range j.Steps {
				if strings.HasPrefix(s.Uses, "smile-loop/smile-loop@") {
					for k := range s.With {
						assert.Contains(t, inputs, k, "%s job %s: with.%s is not an input of action.yml", f, job, k)
					}
				}
			}
		}
	}

	t.Run("docs-pr", func(t *testing.T) {
		w, _ := readWorkflow(t, "docs-pr.yml")
		assert.Equal(t, []string{"pull_request"}, keys(w.On))
		pr := w.On["pull_request"].(map[string]any)
		paths := pr["paths"].([]any)
		require.NotEmpty(t, paths)
		for _, p := range paths {
			assert.Regexp(t, `^(docs/|smile\.json$)`, p)
		}
		assert.Equal(t, map[string]string{"contents": "read", "pull-requests": "write", "checks": "write"}, w.Permissions)
	})
	t.Run("nightly-audit", func(t *testing.T) {
		w, _ := readWorkflow(t, "nightly-audit.yml")
		assert.Equal(t, []string{"schedule", "workflow_dispatch"}, keys(w.On))
		assert.Equal(t, map[string]string{"contents": "read"}, w.Permissions)
		d := w.Jobs["discover"]
		require.Len(t, d.Steps, 2)
		assert.Equal(t, "discover", d.Steps[1].With["command"])
		assert.Equal(t, "${{ steps."+d.Steps[1].ID+".outputs.matrix }}", d.Outputs["matrix"])
		a := w.Jobs["audit"]
		assert.Equal(t, "discover", a.Needs)
		assert.Equal(t, "${{ fromJSON(needs.discover.outputs.matrix) }}", a.Strategy.Matrix)
		assert.Equal(t, "write", a.Permissions["issues"])
		assert.Equal(t, "true", a.Steps[1].With["audit-issues"])
		assert.Equal(t, "${{ matrix.tutorial }}", a.Steps[1].With["tutorials"])
		assert.Contains(t, a.Steps[1].With["artifact-name"], "${{", "artifact names are unique per matrix job")
	})
	t.Run("fork-safe pair", func(t *testing.T) {
		run, runText := readWorkflow(t, "fork-pr-run.yml")
		assert.Equal(t, []string{"pull_request"}, keys(run.On))
		assert.Equal(t, map[string]string{"contents": "read"}, run.Permissions)
		assert.NotContains(t, runText, "secrets.", "the untrusted run gets no secret")
		step := run.Jobs["run"].Steps[1]
		assert.Equal(t, "none", step.With["llm-provider"])
		assert.Equal(t, "none", step.With["comment-mode"])

		post, postText := readWorkflow(t, "fork-pr-comment.yml")
		assert.Equal(t, []string{"workflow_run"}, keys(post.On))
		wr := post.On["workflow_run"].(map[string]any)
		assert.Equal(t, []any{run.Name}, wr["workflows"], "triggered by the untrusted run")
		assert.Equal(t, []any{"completed"}, wr["types"])
		assert.NotContains(t, postText, "actions/checkout", "the privileged job never checks out the pull request")
		c := post.Jobs["comment"]
		for _, s := range c.Steps {
			assert.Empty(t, s.Run, "the privileged job runs no shell on the artifact")
		}
		assert.Contains(t, c.If, "github.event.workflow_run.event == 'pull_request'")
		require.Len(t, c.Steps, 2)
		assert.True(t, strings.HasPrefix(c.Steps[0].Uses, "actions/download-artifact@"))
		assert.Equal(t, "${{ github.event.workflow_run.id }}", c.Steps[0].With["run-id"])
		assert.Equal(t, c.Steps[0].With["path"], c.Steps[1].With["report-dir"])
		assert.Equal(t, "write", post.Permissions["pull-requests"])
	})
}
