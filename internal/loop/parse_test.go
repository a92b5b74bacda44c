package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseStudentOutputFiles(t *testing.T) {
	t.Parallel()
	want := map[string]StudentOutput{
		"claude-fenced.txt":      {Status: StudentAskMentor, CurrentStep: "Step 2: Install the dependencies"},
		"codex-plain.txt":        {Status: StudentCompleted, CurrentStep: "Run the app"},
		"gemini-prose-after.txt": {Status: StudentCannotComplete, CurrentStep: "Configure the API key"},
		"trailing-commas.txt":    {Status: StudentAskMentor, CurrentStep: "Start the server"},
		"truncated.txt":          {Status: StudentAskMentor, CurrentStep: "Step 4 - Run the tests"},
		"two-objects.txt":        {Status: StudentCompleted},
		"draft-and-final.txt":    {Status: StudentCompleted},
		"python-dict.txt":        {Status: StudentAskMentor, CurrentStep: "Install Node"},
		"snake-case.txt":         {Status: StudentAskMentor, CurrentStep: "Create the database"},
		"comments.txt":           {Status: StudentCompleted},
		"nested.txt":             {Status: StudentCannotComplete},
		"braces-in-prose.txt":    {Status: StudentAskMentor, CurrentStep: "Render the template"},
		"crlf.txt":               {Status: StudentCompleted},
		"unicode.txt":            {Status: StudentAskMentor, CurrentStep: "Étape 3 — installer"},
		// issue 13: quoted output after the result must not flip the verdict
		"result-then-quoted-state.txt": {Status: StudentAskMentor, CurrentStep: "Step 3: Poll the job"},
		"result-then-k8s-failed.txt":   {Status: StudentCompleted, CurrentStep: "Step 6: Check the pod"},
		// issue 13: a result after a code listing with many braces is found
		"code-braces-then-result.txt": {Status: StudentCannotComplete, CurrentStep: "Deploy the handlers"},
		// issue 13: status beats result, currentStep beats step, whatever the map order
		"ambiguous-keys.txt": {Status: StudentAskMentor, CurrentStep: "B"},
	}
	files, err := filepath.Glob("testdata/student-outputs/*.txt")
	require.NoError(t, err)
	require.Len(t, files, len(want))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			got, err := ParseStudentOutput(string(raw))
			require.NoError(t, err)
			w := want[filepath.Base(f)]
			assert.Equal(t, w.Status, got.Status)
			if w.CurrentStep != "" {
				assert.Equal(t, w.CurrentStep, got.CurrentStep)
			}
		})
	}
}

func TestParseStudentOutputFields(t *testing.T) {
	t.Parallel()
	got, err := ParseStudentOutput("{'status': 'ask_mentor', 'attempted_actions': 'ran x', 'commandsRun': ['a', 'b'], 'filesCreated': None}")
	require.NoError(t, err)
	assert.Equal(t, []string{"ran x"}, got.AttemptedActions)
	assert.Equal(t, []string{"a", "b"}, got.CommandsRun)
	assert.Nil(t, got.FilesCreated)

	got, err = ParseStudentOutput("```json\n{\"status\": \"ask_mentor\", \"problem\": \"it said \\\"no\\\" and }{ stopped\"}\n```")
	require.NoError(t, err)
	assert.Equal(t, `it said "no" and }{ stopped`, got.Problem)
}

func TestParseStudentOutputFailures(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"",
		"I could not finish the tutorial, sorry.",
		`{"message": "hello"}`,
		`{"status": "thinking"}`,
		"```json\n```",
	} {
		_, err := ParseStudentOutput(raw)
		assert.True(t, errors.Is(err, ErrStudentOutput), "%q: %v", raw, err)
	}
}

// realistic Student results, then the ways models wrap and damage them.
var corpusResults = []StudentOutput{
	{Status: StudentCompleted, CurrentStep: "Run the app", AttemptedActions: []string{"python3 -m venv .venv", "pip install flask"}, Summary: "The server answered on port 5000", FilesCreated: []string{"app.py"}, CommandsRun: []string{"python3 app.py"}},
	{Status: StudentAskMentor, CurrentStep: "Install dependencies", AttemptedActions: []string{"npm install"}, Problem: "bash: npm: command not found", QuestionForMentor: "How do I get npm? The tutorial starts with npm install.", Summary: "Cloned the repo", CommandsRun: []string{"git clone https://example.com/repo.git", "npm install"}},
	{Status: StudentCannotComplete, CurrentStep: "Create an account", Reason: "A paid subscription is required to get an API key", Summary: "Read the tutorial"},
	{Status: StudentAskMentor, CurrentStep: "Configure", Problem: "The step says \"edit the config\" but does not say which file: `config.yaml` or `.env`?", QuestionForMentor: "Which file is \"the config\"?", AttemptedActions: []string{"ls", "cat README.md"}},
	{Status: StudentAskMentor, CurrentStep: "Step 5: Test", Problem: "FAILED tests/test_app.py::test_index - AssertionError: assert 404 == 200\n1 failed, 2 passed", QuestionForMentor: "Should / return 200?", CommandsRun: []string{"pytest -q"}},
	{Status: StudentCompleted, Summary: "No actions required: the tutorial is conceptual", AttemptedActions: []string{}},
	{Status: StudentAskMentor, CurrentStep: "Build", Problem: "C:\\path\\with\\backslashes and tabs\tand unicode ✓ — “quotes”", QuestionForMentor: "Is {curly} a placeholder?"},
}

func corpusVariants(o StudentOutput) map[string]string {
	compact, _ := json.Marshal(o)
	pretty, _ := json.MarshalIndent(o, "", "  ")
	p := string(pretty)
	withTrailing := strings.ReplaceAll(p, "\"\n}", "\",\n}")
	withTrailing = strings.ReplaceAll(withTrailing, "\"\n  ]", "\",\n  ]")
	cut := len(p) * 3 / 4
	for cut < len(p) && p[cut] != ' ' {
		cut++
	}
	return map[string]string{
		"compact":              string(compact),
		"pretty":               p,
		"fenced":               "```json\n" + p + "\n```",
		"fenced-no-lang":       "```\n" + p + "\n```",
		"fenced-JSON":          "```JSON\n" + p + "\n```\n",
		"prose-before":         "Here is my result after following the tutorial:\n\n" + p,
		"prose-after":          p + "\n\nLet me know if you need more details.",
		"prose-both":           "Sure! I tried every step.\n```json\n" + p + "\n```\nThat's where I am.",
		"trailing-commas":      withTrailing,
		"trailing-fenced":      "Result:\n```json\n" + withTrailing + "\n```",
		"truncated":            p[:cut],
		"truncated-fenced":     "```json\n" + p[:cut],
		"draft-then-final":     `{"status": "ask_mentor", "problem": "draft"}` + "\nOn reflection, the final result:\n" + p,
		"object-in-prose":      "Note: I used {\"x\": 1} as the request body.\n" + p,
		"nested":               `{"result": ` + string(compact) + `}`,
		"array":                "[" + string(compact) + "]",
		"crlf":                 strings.ReplaceAll("```json\n"+p+"\n```", "\n", "\r\n"),
		"bom":                  "\ufeff" + p,
		"indented":             "    " + strings.ReplaceAll(p, "\n", "\n    "),
		"status-capitalised":   strings.Replace(string(compact), `"status":"`+o.Status, `"status":"`+strings.ToUpper(o.Status[:1])+o.Status[1:], 1),
		"status-hyphen":        strings.Replace(string(compact), `"status":"`+o.Status, `"status":"`+strings.ReplaceAll(o.Status, "_", "-"), 1),
		"js-comment":           "{\n  // result\n" + p[1:],
		"markdown-heading":     "## Result\n\n```json\n" + p + "\n```\n\n## Notes\nNone.",
		"xml-tags":             "<result>\n" + p + "\n</result>",
		"json-then-explain":    string(compact) + "\nExplanation: the step {x} was unclear.",
		"double-fence":         "```json\n" + `{"status": "ask_mentor", "problem": "first attempt"}` + "\n```\nRetrying...\n```json\n" + p + "\n```",
		"leading-whitespace":   "\n\n\t" + p + "\n\n",
		"tool-transcript":      "$ npm install\nbash: npm: command not found\n{exit 127}\n\nFinal JSON:\n" + p,
		"stringified-in-field": `{"output": ` + strconvQuote(string(compact)) + `, "status": "` + o.Status + `"}`,
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestParseStudentOutputCorpus is success criterion 4.S2: at least 99% of realistic
// Student outputs are parsed, with the status the Student meant.
func TestParseStudentOutputCorpus(t *testing.T) {
	t.Parallel()
	total, parsed := 0, 0
	var failures []string
	for i, o := range corpusResults {
		for name, raw := range corpusVariants(o) {
			total++
			got, err := ParseStudentOutput(raw)
			if err == nil && got.Status == o.Status {
				parsed++
				continue
			}
			failures = append(failures, fmt.Sprintf("result %d / %s: status %q err %v", i, name, got.Status, err))
		}
	}
	rate := float64(parsed) / float64(total)
	t.Logf("parsed %d of %d (%.1f%%)", parsed, total, 100*rate)
	assert.GreaterOrEqual(t, rate, 0.99, "failures:\n%s", strings.Join(failures, "\n"))
}

func FuzzParseStudentOutput(f *testing.F) {
	for _, o := range corpusResults {
		for _, raw := range corpusVariants(o) {
			f.Add(raw)
		}
	}
	f.Add("{")
	f.Add(`{"status": "completed"`)
	f.Add("```json\n{'status': 'ask_mentor', ")
	f.Fuzz(func(t *testing.T, raw string) {
		out, err := ParseStudentOutput(raw)
		if err != nil {
			if !errors.Is(err, ErrStudentOutput) {
				t.Fatalf("error does not wrap ErrStudentOutput: %v", err)
			}
			return
		}
		switch out.Status {
		case StudentCompleted, StudentAskMentor, StudentCannotComplete:
		default:
			t.Fatalf("status %q outside the spec", out.Status)
		}
	})
}

func BenchmarkParseStudentOutput(b *testing.B) {
	raw := corpusVariants(corpusResults[1])["truncated-fenced"]
	for b.Loop() {
		_, _ = ParseStudentOutput(raw)
	}
}
