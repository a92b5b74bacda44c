package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/smile-loop/smile-loop/internal/agent/none"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// canary is a secret planted in hostile inputs; it must appear in no output.
const canary = "sk-canary-7f3c9a1e5b2d4680"

var t0 = time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)

func at(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }

func fixedNow() time.Time { return time.Date(2026, 2, 2, 10, 30, 0, 0, time.UTC) }

func loadTutorial(t testing.TB, name string) *tutorial.Tutorial {
	t.Helper()
	path := filepath.Join("testdata", name)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	tut, err := tutorial.Parse(path, raw)
	require.NoError(t, err)
	return tut
}

func baseState(tutorialPath string, status loop.Status) *loop.State {
	cfg := config.Default()
	cfg.LLMProvider = "claude"
	return &loop.State{
		SchemaVersion: loop.StateSchemaVersion, RunID: "run-0001", Tutorial: tutorialPath, Config: cfg,
		Status: status, Phase: loop.PhaseDone, StartTime: t0, MentorNotes: []string{},
		FinalResult: &loop.FinalResult{Status: status},
	}
}

// cleanState: the Student completes on iteration 1 (7.E4, 9.E1).
func cleanState() *loop.State {
	st := baseState("testdata/tutorial.md", loop.StatusCompleted)
	st.Iteration = 1
	st.EndTime = at(42)
	st.FinalResult.Summary = "Followed every step; the API answers on port 3000."
	st.History = []loop.Iteration{{
		Iteration: 1, Started: at(1), Ended: at(41),
		Student: &loop.StudentResult{
			StudentOutput: loop.StudentOutput{Status: loop.StudentCompleted, Summary: "Installed, built, ran and tested the API.",
				CommandsRun: []string{"npm install", "npm test"}, FilesCreated: []string{"package-lock.json"}},
			Commands: []loop.CommandRecord{
				{Iteration: 1, Line: 14, Command: "npm install", Duration: 12500 * time.Millisecond, Output: "added 120 packages in 12s\n"},
				{Iteration: 1, Line: 15, Command: "npm run build", Duration: 3 * time.Second, Output: "> tsc\n"},
				{Iteration: 1, Line: 31, Command: "npm start", Background: true, Duration: 5 * time.Second, Output: "listening on :3000\n"},
				{Iteration: 1, Line: 38, Command: "npm test", Duration: 4200 * time.Millisecond, Output: "PASS  test/api.test.js\nTests: 3 passed\n"},
			},
			Files: []loop.FileRecord{{Iteration: 1, Path: "package-lock.json", Size: 48213}},
			LLMCalls: []loop.LLMCall{
				{Agent: "student", Provider: "claude", Model: "claude-sonnet-4", TokensIn: 5120, TokensOut: 830, Duration: 9 * time.Second},
			},
		},
	}}
	return st
}

// gapsState: three iterations; the npm prerequisite and the vague setup script are seen
// twice (de-duplicated), a server that never returns, an unlocatable step, and a
// Student problem with no finding (synthesised).
func gapsState() *loop.State {
	st := baseState("testdata/tutorial.md", loop.StatusCompleted)
	st.Iteration = 3
	st.EndTime = at(245)
	st.MentorNotes = []string{"Install Node.js first.", "npm start keeps running."}
	npmMissing := loop.Finding{Step: "Install", Command: "npm install", ExitCode: 127, Class: loop.ClassMissingDependency,
		Trigger: loop.TriggerMissingDependency, Problem: "npm is not installed in the container.",
		Output: "bash: line 1: npm: command not found"}
	vague := loop.Finding{Step: "Linux", Quote: "Run the setup script to configure the database", Trigger: loop.TriggerAmbiguousInstruction,
		Problem: "The tutorial does not say which setup script or where it is.", Question: "Where is the setup script?"}
	st.History = []loop.Iteration{
		{
			Iteration: 1, Started: at(1), Ended: at(60),
			Student: &loop.StudentResult{
				StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor, CurrentStep: "Install", Problem: npmMissing.Problem,
					QuestionForMentor: "How do I get npm?", AttemptedActions: []string{"npm install", "which npm"}},
				Trigger:  loop.TriggerMissingDependency,
				Findings: []loop.Finding{npmMissing, vague},
				Commands: []loop.CommandRecord{
					{Iteration: 1, Step: "Install", Line: 14, Command: "npm install", ExitCode: 127, Duration: 40 * time.Millisecond,
						Output: "bash: line 1: npm: command not found\n", Class: loop.ClassMissingDependency, Summary: "npm: command not found"},
					{Iteration: 1, Command: "which npm", ExitCode: 1, Duration: 5 * time.Millisecond},
				},
				LLMCalls: []loop.LLMCall{{Agent: "student", Provider: "claude", Model: "claude-sonnet-4", TokensIn: 4000, TokensOut: 600, Duration: 7 * time.Second}},
				Plan: []loop.PlanStep{
					{ID: 1, Title: "Install", StartLine: 9, EndLine: 16},
					{ID: 2, Title: "Configure the database", StartLine: 18, EndLine: 24, DependsOn: []int{1}},
					{ID: 3, Title: "Run", StartLine: 26, EndLine: 33, DependsOn: []int{2}},
				},
			},
			Mentor: &loop.MentorRecord{
				Notes: "- Node.js and npm are not in the image: install them with `apt-get install -y nodejs npm`.\n" +
					"- The setup script lives at scripts/setup.sh in the repository root; the tutorial never says so.",
				Fixes:    []string{"Add a Prerequisites item: Node.js 20 with npm (`apt-get install -y nodejs npm`)."},
				LLMCalls: []loop.LLMCall{{Agent: "mentor", Provider: "claude", Model: "claude-opus-4", TokensIn: 6000, TokensOut: 400, Duration: 11 * time.Second, CostUSD: 0.12}},
				Started:  at(61), Ended: at(75),
			},
		},
		{
			Iteration: 2, Started: at(80), Ended: at(170),
			Student: &loop.StudentResult{
				StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor, CurrentStep: "Run",
					Problem: "npm start never returns."},
				Trigger: loop.TriggerTimeout,
				Findings: []loop.Finding{
					// The same vague instruction, quoted differently: one gap, iterations 1 and 2.
					{Step: "Configure the database", Quote: "Run the setup script", Trigger: loop.TriggerAmbiguousInstruction,
						Problem: "Still unclear which setup script is meant."},
					{Step: "Run", Command: "npm start", Class: loop.ClassTimeout, Trigger: loop.TriggerTimeout,
						Problem: "npm start never returns.", ExitCode: 124, Output: "> todo@1.0.0 start\nlistening on :3000"},
				},
				Commands: []loop.CommandRecord{
					{Iteration: 2, Line: 14, Command: "npm install", Duration: 9 * time.Second, Output: "added 120 packages\n"},
					{Iteration: 2, Line: 23, Command: "./scripts/setup.sh", Duration: 2 * time.Second, Output: "database ready\n"},
					{Iteration: 2, Line: 31, Command: "npm start", ExitCode: 124, TimedOut: true, Duration: 60 * time.Second,
						Output: "> todo@1.0.0 start\nlistening on :3000\n", Class: loop.ClassTimeout},
				},
				Files:    []loop.FileRecord{{Iteration: 2, Path: "db/todo.sqlite", Size: 8192}},
				LLMCalls: []loop.LLMCall{{Agent: "student", Provider: "claude", Model: "claude-sonnet-4", TokensIn: 7000, TokensOut: 900, Duration: 12 * time.Second}},
			},
			Mentor: &loop.MentorRecord{
				Notes:   "npm start runs a server that keeps running. Start it in the background (npm start &) and go on.",
				Started: at(171), Ended: at(180),
			},
		},
		{
			Iteration: 3, Started: at(181), Ended: at(244),
			Student: &loop.StudentResult{
				StudentOutput: loop.StudentOutput{Status: loop.StudentCompleted, Summary: "Completed with the Mentor's notes."},
				Findings: []loop.Finding{
					// Unlocatable: no such text in the tutorial.
					{Step: "Deploy to production", Problem: "The tutorial mentions deploying but never shows how."},
					// A line the Student recorded itself.
					{Line: 38, Problem: "npm test prints a deprecation warning the tutorial does not mention.", Command: "npm test"},
				},
				Commands: []loop.CommandRecord{
					{Iteration: 3, Line: 14, Command: "npm install", Duration: 9 * time.Second, Output: "added 120 packages\n"},
					{Iteration: 3, Line: 38, Command: "npm test", Duration: 4 * time.Second, Output: "(node) DeprecationWarning: ...\nTests: 3 passed\n"},
				},
				LLMCalls: []loop.LLMCall{{Agent: "student", Provider: "claude", Model: "claude-sonnet-4", TokensIn: 8000, TokensOut: 700, Duration: 10 * time.Second}},
			},
		},
	}
	return st
}

// hostileState: text from the tutorial and the LLMs that tries to break the Markdown,
// ping people, and a canary secret everywhere.
func hostileState(outputPath string) *loop.State {
	st := baseState("testdata/hostile.md", loop.StatusBlocker)
	st.Iteration = 1
	st.EndTime = at(30)
	st.FinalResult.Reason = "Student reported cannot_complete: <b>installer</b> needs token " + canary
	evil := "<script>alert('x')</script> | col | ``` @org/team #1 GH-2 &#64;admin ![x](https://evil.example/p.png) [c](javascript:alert(1))\n## Fake heading\n<!-- c --> " + canary
	st.History = []loop.Iteration{{
		Iteration: 1, Started: at(1), Ended: at(29),
		Student: &loop.StudentResult{
			StudentOutput: loop.StudentOutput{Status: loop.StudentCannotComplete, CurrentStep: "Setup | step",
				Reason: "cannot continue: " + evil, AttemptedActions: []string{"curl ... | sh", "echo @octocat"}},
			Findings: []loop.Finding{
				{Step: "Setup | step", Quote: "Run the installer | then", Problem: evil,
					Command: "curl https://example.com/install.sh | sh", ExitCode: 22, Class: loop.ClassCommandFailure,
					Output: "````\n</details><script>x</script>\n@org/team " + canary + "\n````"},
				{Step: "@octocat | </td>", Problem: "Second: <img src=x onerror=alert(1)> ping @octocat about #3"},
			},
			Commands: []loop.CommandRecord{
				{Iteration: 1, Line: 11, Command: "curl -H 'Authorization: Bearer " + canary + "' https://example.com/install.sh | sh", ExitCode: 22,
					Duration: 800 * time.Millisecond, Output: "curl: (22) 401 | token " + canary + "\n", OutputPath: outputPath,
					Class: loop.ClassCommandFailure},
				{Iteration: 1, Command: "echo '```' && echo \"@org/team\" | cat", Duration: time.Millisecond, Output: "```\n@org/team\n"},
			},
			Files:    []loop.FileRecord{{Iteration: 1, Path: "weird|name`<b>.txt", Size: 3}},
			LLMCalls: []loop.LLMCall{{Agent: "student", Provider: "claude", Model: "model|<i>x</i>", TokensIn: 10, TokensOut: 20, Duration: time.Second, Error: "401 for key " + canary}},
			Raw:      "raw output with " + canary,
		},
		Mentor: &loop.MentorRecord{
			Notes:        "Hi @octocat! See #1. Use key " + canary + "\n```\n</details>\n```\n| a | b |",
			Unresolvable: true,
			Started:      at(20), Ended: at(29),
		},
	}}
	return st
}

func buildFixture(t testing.TB, name string) *Report {
	t.Helper()
	opts := Options{RuleFix: none.Fix, Now: fixedNow, RepoRoot: ".", Version: "v0.0.0-test", Secrets: []string{canary}}
	switch name {
	case "clean":
		return Build(cleanState(), loadTutorial(t, "tutorial.md"), opts)
	case "gaps":
		return Build(gapsState(), loadTutorial(t, "tutorial.md"), opts)
	case "hostile":
		return Build(hostileState(""), loadTutorial(t, "hostile.md"), opts)
	}
	t.Fatalf("unknown fixture %s", name)
	return nil
}

// --- validators ---

func compileSchema(t testing.TB, id string, schema []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	require.NoError(t, c.AddResource(id, doc))
	s, err := c.Compile(id)
	require.NoError(t, err)
	return s
}

// validateReportJSON checks data against the report's JSON Schema (9.S3).
func validateReportJSON(t testing.TB, data []byte) {
	t.Helper()
	schema, err := JSONSchema()
	require.NoError(t, err)
	s := compileSchema(t, SchemaID, schema)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	require.NoError(t, err)
	require.NoError(t, s.Validate(inst), "smile-report.json does not match its schema")
}

// validateSARIF checks data against the official SARIF 2.1.0 schema.
func validateSARIF(t testing.TB, data []byte) {
	t.Helper()
	schema, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	require.NoError(t, err)
	s := compileSchema(t, "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json", schema)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	require.NoError(t, err)
	require.NoError(t, s.Validate(inst), "smile-report.sarif does not match the SARIF 2.1.0 schema")
	var log map[string]any
	require.NoError(t, json.Unmarshal(data, &log))
	require.Equal(t, "2.1.0", log["version"])
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

func readFile(p string) ([]byte, error) { return os.ReadFile(p) }
