package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// 1.E1: no smile.json in the current directory means all defaults.
func TestLoadDefaultsWhenDefaultFileMissing(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, path := range []string{"", FileName} {
		cfg, warnings, err := Load(path)
		require.NoError(t, err, path)
		assert.Empty(t, warnings)
		assert.Equal(t, Default(), cfg)
	}
}

func TestLoadReadsSmileJSONInCurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, FileName, `{"maxIterations": 4}`)
	cfg, _, err := Load("")
	require.NoError(t, err)
	assert.Equal(t, 4, cfg.MaxIterations)
}

func TestLoadExplicitMissingFileIsAnError(t *testing.T) {
	_, _, err := Load(filepath.Join(t.TempDir(), "nope.json"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "config file not found")
	assertInvalidInput(t, err)
}

func TestLoadDirectoryIsAnError(t *testing.T) {
	_, _, err := Load(t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a directory")
	assertInvalidInput(t, err)
}

// Scenario 1.1: every field is read; absent fields keep their defaults.
func TestLoadFullFileAndPartialOverlay(t *testing.T) {
	t.Parallel()
	full := `{
  "$schema": "./schema/smile.schema.json",
  "tutorial": "docs/getting-started.md",
  "llmProvider": "gemini",
  "llmRuntime": "api",
  "maxIterations": 5,
  "timeout": 600,
  "containerImage": "smile-lite:latest",
  "outputDir": "out",
  "failOn": "medium",
  "stallThreshold": 4,
  "studentBehavior": {
    "maxRetriesBeforeHelp": 2,
    "askOnMissingDependency": false,
    "askOnAmbiguousInstruction": false,
    "askOnCommandFailure": false,
    "askOnTimeout": false,
    "timeoutSeconds": 30,
    "patienceLevel": "high"
  },
  "container": {"keepOnFailure": false, "keepOnSuccess": true, "keepWork": true, "memory": "512m", "cpus": 0.5, "pidsLimit": 128},
  "observe": {"enabled": false, "port": 8080},
  "llm": {"baseURL": "http://localhost:8000/v1", "models": {"fast": "f", "standard": "s", "powerful": "p"},
          "maxSteps": 10, "maxConsecutiveErrors": 2, "contextTokenBudget": 20000, "retrySeconds": 60,
          "maxOutputTokens": {"fast": 1000, "standard": 2000, "powerful": 3000}, "api": "chat", "budget": {"maxTokens": 500000, "maxUSD": 2.5}}
}`
	cfg, warnings, err := Parse(FileName, []byte(full))
	require.NoError(t, err)
	assert.Empty(t, warnings)
	want := Config{
		Schema: "./schema/smile.schema.json", Tutorial: "docs/getting-started.md", LLMProvider: "gemini",
		LLMRuntime: "api", MaxIterations: 5, Timeout: 600, ContainerImage: "smile-lite:latest",
		OutputDir: "out", FailOn: "medium", StallThreshold: 4,
		StudentBehavior: StudentBehavior{MaxRetriesBeforeHelp: 2, TimeoutSeconds: 30, PatienceLevel: "high"},
		Container:       Container{KeepOnSuccess: true, KeepWork: true, Memory: "512m", CPUs: 0.5, PidsLimit: 128},
		Observe:         Observe{Port: 8080},
		LLM: LLM{BaseURL: "http://localhost:8000/v1", Models: Models{Fast: "f", Standard: "s", Powerful: "p"},
			MaxSteps: 10, MaxConsecutiveErrors: 2, ContextTokenBudget: 20000, RetrySeconds: 60,
			MaxOutputTokens: TierTokens{Fast: 1000, Standard: 2000, Powerful: 3000}, API: "chat", Budget: Budget{MaxTokens: 500000, MaxUSD: 2.5}},
	}
	assert.Equal(t, want, cfg)

	cfg, _, err = Parse(FileName, []byte(`{"studentBehavior": {"patienceLevel": "medium"}, "container": {"keepOnSuccess": true}}`))
	require.NoError(t, err)
	want = Default()
	want.StudentBehavior.PatienceLevel = "medium"
	want.Container.KeepOnSuccess = true
	assert.Equal(t, want, cfg, "nested fields left out keep their defaults")
}

func TestParseAcceptsBOMAndEmptyObject(t *testing.T) {
	t.Parallel()
	cfg, _, err := Parse(FileName, []byte("\xef\xbb\xbf{}\n"))
	require.NoError(t, err)
	assert.Equal(t, Default(), cfg)
}

// 1.E2: invalid JSON names line and column.
func TestParseSyntaxErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		in         string
		line, col  int
		msgContain string
	}{
		{"trailing comma", "{\n  \"maxIterations\": 5,\n}\n", 3, 1, "invalid character '}'"},
		{"missing comma", "{\n  \"maxIterations\": 5\n  \"timeout\": 9\n}", 3, 3, "after object key:value pair"},
		{"unclosed", "{\n  \"tutorial\": \"a.md\"\n", 3, 1, "unexpected end of file"},
		{"single quotes", "{'tutorial': 'a.md'}", 1, 2, "invalid character '\\''"},
		{"two documents", "{}\n{}", 2, 1, "unexpected content after"},
		{"empty file", "  \n", 1, 1, "the file is empty"},
		{"comment", "{\n  // note\n  \"timeout\": 1\n}", 2, 3, "invalid character '/'"},
		{"column counts characters", "{\"tutorial\": \"é\" x}", 1, 18, "invalid character 'x'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Parse(FileName, []byte(tt.in))
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.line, se.Line, "line")
			assert.Equal(t, tt.col, se.Column, "column")
			assert.Contains(t, se.Msg, tt.msgContain)
			assert.Contains(t, err.Error(), fmt.Sprintf("line %d, column %d", tt.line, tt.col))
			assert.Contains(t, err.Error(), "fix the JSON syntax")
			assertInvalidInput(t, err)
		})
	}
}

// 1.E5, 1.E6 and type errors: every problem is reported at once, each naming the path,
// the bad value, what is allowed and how to fix it.
func TestParseReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	in := `{
  "llmProvider": "gpt4",
  "llmRuntime": "http",
  "maxIterations": -1,
  "timeout": 0,
  "failOn": "Critical!",
  "studentBehavior": {"patienceLevel": "High", "timeoutSeconds": "60", "askOnTimeout": "yes", "maxRetriesBeforeHelp": 0},
  "container": {"memory": "lots", "cpus": 0, "pidsLimit": 1.5},
  "observe": {"port": 70000}
}`
	_, _, err := Parse(FileName, []byte(in))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assertInvalidInput(t, err)
	byPath := map[string]Problem{}
	for _, p := range ve.Problems {
		byPath[p.Path] = p
	}
	tests := []struct {
		path     string
		value    string
		contains []string
	}{
		{"llmProvider", `"gpt4"`, []string{"not allowed", `"claude", "codex", "gemini", "none", "replay"`, `default ("claude")`}},
		{"llmRuntime", `"http"`, []string{`"cli", "api"`}},
		{"maxIterations", "-1", []string{"too small", "minimum is 1", "default (10)"}},
		{"timeout", "0", []string{"minimum is 1", "default (1800)"}},
		{"failOn", `"Critical!"`, []string{"not allowed", `"never"`}},
		{"studentBehavior.patienceLevel", `"High"`, []string{`"low", "medium", "high"`, `write "high"`}},
		{"studentBehavior.timeoutSeconds", `"60"`, []string{"is a string, but it must be an integer", "(60, not \"60\")"}},
		{"studentBehavior.askOnTimeout", `"yes"`, []string{"must be a boolean", "true or false"}},
		{"studentBehavior.maxRetriesBeforeHelp", "0", []string{"minimum is 1"}},
		{"container.memory", `"lots"`, []string{"Docker memory size", `"2g"`}},
		{"container.cpus", "0", []string{"greater than 0"}},
		{"container.pidsLimit", "1.5", []string{"must be an integer"}},
		{"observe.port", "70000", []string{"too large", "maximum is 65535"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p, ok := byPath[tt.path]
			require.True(t, ok, "no problem reported for %s; got %v", tt.path, ve.Problems)
			assert.Equal(t, tt.value, p.Value)
			for _, c := range tt.contains {
				assert.Contains(t, p.Message, c)
			}
			assert.Contains(t, err.Error(), tt.path+": ")
		})
	}
	assert.Len(t, ve.Problems, len(tests), "exactly one problem per bad field: %v", ve.Problems)
	assert.Contains(t, err.Error(), "13 problems")
}

func TestParseWrongTopLevelType(t *testing.T) {
	t.Parallel()
	_, _, err := Parse(FileName, []byte(`["tutorial.md"]`))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Problems, 1)
	assert.Contains(t, ve.Error(), "(top level): ")
	assert.Contains(t, ve.Problems[0].Message, "must be an object")
}

func TestParseReplayNeedsScenario(t *testing.T) {
	t.Parallel()
	_, _, err := Parse(FileName, []byte(`{"llmProvider": "replay"}`))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Problems, 1)
	assert.Equal(t, "scenario", ve.Problems[0].Path)
	assert.Contains(t, ve.Problems[0].Message, `add "scenario"`)

	dir := t.TempDir()
	scenario := writeFile(t, dir, "s.json", "{}")
	cfg, _, err := Parse(FileName, []byte(`{"llmProvider": "replay", "scenario": "`+filepath.ToSlash(scenario)+`"}`))
	require.NoError(t, err)
	assert.Equal(t, scenario, cfg.Scenario)

	_, _, err = Parse(FileName, []byte(`{"llmProvider": "replay", "scenario": "`+filepath.ToSlash(filepath.Join(dir, "missing.json"))+`"}`))
	require.ErrorAs(t, err, &ve)
	assert.Contains(t, ve.Problems[0].Message, "not found")
}

func TestParseMemoryBelowDockerMinimum(t *testing.T) {
	t.Parallel()
	_, _, err := Parse(FileName, []byte(`{"container": {"memory": "1m"}}`))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "container.memory", ve.Problems[0].Path)
	for _, ok := range []string{"6m", "512M", "2g", "1.5g", "1GiB", "3000000000"} {
		_, _, err := Parse(FileName, []byte(`{"container": {"memory": "`+ok+`"}}`))
		assert.NoError(t, err, ok)
	}
}

func TestParseHugeIntegerNamesTheField(t *testing.T) {
	t.Parallel()
	_, _, err := Parse(FileName, []byte(`{"studentBehavior": {"timeoutSeconds": 1e40}}`))
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "studentBehavior.timeoutSeconds", ve.Problems[0].Path)
}

// 1.E3: unknown fields are ignored; near-misses earn a warning naming the intended field.
func TestParseUnknownFieldsAndNearMisses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string // intended field paths named by the warnings, in order
	}{
		{"future field is silent", `{"telemetry": {"enabled": true}, "x-custom": 1}`, nil},
		{"singular", `{"maxIteration": 3}`, []string{`"maxIteration" is ignored; did you mean "maxIterations"`}},
		{"british spelling", `{"studentBehaviour": {"patienceLevel": "high"}}`, []string{`did you mean "studentBehavior"`}},
		{"case", `{"LLMProvider": "none", "Tutorial": "a.md"}`, []string{`"LLMProvider" is ignored; did you mean "llmProvider"`, `did you mean "tutorial"`}},
		{"snake case", `{"max_iterations": 3}`, []string{`did you mean "maxIterations"`}},
		{"nested truncated", `{"studentBehavior": {"patience": "high"}}`, []string{`"studentBehavior.patience" is ignored; did you mean "studentBehavior.patienceLevel"`}},
		{"nested typo", `{"container": {"keepOnFailur": false}}`, []string{`did you mean "container.keepOnFailure"`}},
		{"misplaced", `{"patienceLevel": "high"}`, []string{`did you mean "studentBehavior.patienceLevel"`}},
		{"timout", `{"timout": 5}`, []string{`did you mean "timeout"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, warnings, err := Parse(FileName, []byte(tt.in))
			require.NoError(t, err)
			require.Len(t, warnings, len(tt.want), "%v", warnings)
			for i, w := range tt.want {
				assert.Contains(t, warnings[i], w)
				assert.True(t, strings.HasPrefix(warnings[i], FileName+": "), warnings[i])
			}
			assert.Equal(t, Default().MaxIterations, cfg.MaxIterations, "unknown fields do not set anything")
		})
	}
}

// encoding/json matches names case-insensitively; smile.json does not: a differently
// cased field is unknown (with a warning), never an unvalidated value (found by FuzzParse).
func TestParseIgnoresDifferentlyCasedFields(t *testing.T) {
	t.Parallel()
	cfg, warnings, err := Parse(FileName, []byte(`{"MaxIterations": -4, "Container": {"memory": "0A00"}, "container": {"Memory": "bad"}}`))
	require.NoError(t, err)
	assert.Equal(t, Default(), cfg)
	assert.Len(t, warnings, 3)
}

func TestParseWarningsSurviveValidationErrors(t *testing.T) {
	t.Parallel()
	_, warnings, err := Parse(FileName, []byte(`{"maxIteration": 3, "maxIterations": 0}`))
	require.Error(t, err)
	assert.Len(t, warnings, 1)
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	require.NoError(t, Default().Validate())
	cfg := Default()
	cfg.LLMProvider = "gpt"
	cfg.MaxIterations = -3
	var ve *ValidationError
	require.ErrorAs(t, cfg.Validate(), &ve)
	assert.Len(t, ve.Problems, 2)
}

// 1.E4
func TestValidateTutorialPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "tutorial.md")
	err := ValidateTutorialPath(missing)
	require.Error(t, err)
	assert.Equal(t, "Tutorial not found: "+missing, err.Error())
	assert.True(t, errors.Is(err, os.ErrNotExist))
	assertInvalidInput(t, err)

	assert.ErrorContains(t, ValidateTutorialPath(dir), "is a directory")
	require.NoError(t, ValidateTutorialPath(writeFile(t, dir, "ok.md", "# Hi\n")))
}

func TestDefaultIsValid(t *testing.T) {
	t.Parallel()
	raw := `{}`
	cfg, warnings, err := Parse(FileName, []byte(raw))
	require.NoError(t, err)
	assert.Empty(t, warnings)
	assert.Equal(t, Default(), cfg)
}

func assertInvalidInput(t *testing.T, err error) {
	t.Helper()
	var in interface{ InvalidInput() bool }
	require.True(t, errors.As(err, &in), "%T is not an InvalidInput error", err)
	assert.True(t, in.InvalidInput())
}
