package none

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
	"github.com/smile-loop/smile-loop/internal/sandbox"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

func TestFileTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, info, lead string
		file             string
		appendF          bool
	}{
		{"create with path", "python", "Create a file called `app.py` with this content:", "app.py", false},
		{"save as", "", "Save the following as `src/config.yaml`.", "src/config.yaml", false},
		{"append", "", "Add these lines to `requirements.txt`:", "requirements.txt", true},
		{"dockerfile", "", "Create a `Dockerfile`:", "Dockerfile", false},
		{"info title", `python title="hello.py"`, "", "hello.py", false},
		{"run is not write", "", "Run `app.py` and open http://localhost:8000 in your browser.", "", false},
		{"output block", "text", "You should see:", "", false},
		{"command in backticks", "", "Create it with `touch app.py`:", "", false},
		{"path before verb", "", "In `app.py` we now edit nothing; the output looks like this:", "", false},
		{"numbered caption", "scheme", "Create the first file with your editor. *Example 3-1. hello.scm*", "hello.scm", false},
		{"listing caption", "", "Listing 2.4: src/app.py", "src/app.py", false},
		{"caption naming no file", "", "The output is shown in Example 3-2. Output", "", false},
		{"example in prose", "", "For example 3 files. Then:", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			file, _, app, ok := fileTarget(tutorial.CodeBlock{Block: tutorial.Block{Info: tt.info}}, tt.lead)
			assert.Equal(t, tt.file != "", ok)
			assert.Equal(t, tt.file, file)
			assert.Equal(t, tt.appendF, app)
		})
	}
}

func TestIsServer(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]bool{
		"python3 -m http.server 8000": true,
		"uvicorn main:app --reload":   true,
		"npm start":                   true,
		"npm run dev":                 true,
		"npm install":                 false,
		"python3 -m http.server &":    false,
		"docker compose up -d":        false,
		"flask run --port 5000":       true,
		"python3 app.py":              false,
	} {
		assert.Equal(t, want, isServer(cmd), cmd)
	}
}

func TestStepTimeout(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]time.Duration{
		"sudo apt install -y cargo":                        900 * time.Second,
		"sudo apt-get -q update":                           300 * time.Second,
		"python3 -m pip install requests":                  300 * time.Second,
		"cd wc && cargo build --release":                   300 * time.Second,
		"cmake --build build":                              300 * time.Second,
		"make":                                             300 * time.Second,
		"ansible-playbook -i hosts site.yml":               300 * time.Second,
		"tar -cf - logs | zstd -q -T0 -19 -o logs.tar.zst": 300 * time.Second,
		"xz -9 big.tar":                                    300 * time.Second,
		"zstd -q notes.txt":                                60 * time.Second,
		"cargo run":                                        60 * time.Second,
		"npm run dev":                                      60 * time.Second,
		"ls -l":                                            60 * time.Second,
		"echo 'apt install is slow' > notes":               60 * time.Second,
	} {
		assert.Equal(t, want, stepTimeout(60, cmd), cmd)
	}
}

func TestSplitCwd(t *testing.T) {
	t.Parallel()
	rest, cwd := splitCwd("warning\n" + cwdMarker + "/workspace/work/proj\n")
	assert.Equal(t, "warning", rest)
	assert.Equal(t, "/workspace/work/proj", cwd)
}

func TestMentorFixes(t *testing.T) {
	t.Parallel()
	res, err := Mentor{}.Advise(context.Background(), loop.MentorTask{Student: loop.StudentResult{Findings: []loop.Finding{
		{Line: 12, Class: loop.ClassMissingDependency, ExitCode: 127, Command: "node --version", Output: "bash: line 1: node: command not found", Problem: "line 12: missing command `node`", AlsoAt: []int{20}},
		{Line: 15, Class: loop.ClassMissingDependency, ExitCode: 1, Command: "python3 app.py", Output: "ModuleNotFoundError: No module named 'flask'", Problem: "p"},
		{Line: 18, Class: loop.ClassTestFailure, ExitCode: 1, Problem: "tests failed"},
		{Line: 22, Category: loop.CategoryAmbiguousInstruction, Problem: "no file name"},
		{Category: loop.CategoryMissingPrerequisite, Problem: "python3: command not found"},
	}}})
	require.NoError(t, err)
	require.Len(t, res.Fixes, 5)
	assert.Contains(t, res.Fixes[0], "never installs `node`")
	assert.Contains(t, res.Fixes[0], "before line 12")
	assert.Contains(t, res.Fixes[1], "pip install flask")
	assert.Contains(t, res.Fixes[2], "tests at line 18")
	// a finding without a failure class or a line (an LLM Student's): by its category
	assert.Contains(t, res.Fixes[3], "the file name")
	assert.Equal(t, `List "python3" as a prerequisite before this step and show how to install it (with the version the tutorial expects).`, res.Fixes[4])
	assert.Contains(t, res.Notes, "also at lines 20")
	assert.False(t, res.Unresolvable)
}

// The rest runs the deterministic Student in a real container.

func startSandbox(t *testing.T, tutDir string) *sandbox.Docker {
	t.Helper()
	image := sandboxtest.RequireImage(t)
	out := t.TempDir()
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{Image: image, RunID: "none-test-" + filepath.Base(out), TutorialDir: tutDir,
		WorkDir: filepath.Join(out, "work"), LogsDir: filepath.Join(out, "logs")})
	require.NoError(t, err)
	require.NoError(t, sb.Start(ctx))
	t.Cleanup(func() { _ = sb.Close(context.Background(), true) })
	return sb
}

// stepsOf are the steps the Student announced, in order.
func stepsOf(r *looptest.Recorder) []string {
	var out []string
	for _, ev := range r.Events() {
		if ev.Type == loop.EventStepStart {
			out = append(out, ev.Data.(loop.StepData).Step)
		}
	}
	return out
}

// attempt runs the Student on md without the proven-fix re-runs, which change no finding
// and take as long again; tests of the proofs use attemptProving.
func attempt(t *testing.T, md string, mut func(*config.StudentBehavior)) (loop.StudentResult, *tutorial.Tutorial) {
	res, tut, _ := attemptEvents(t, md, mut)
	return res, tut
}

func attemptEvents(t *testing.T, md string, mut func(*config.StudentBehavior)) (loop.StudentResult, *tutorial.Tutorial, *looptest.Recorder) {
	t.Helper()
	return attemptWith(t, &Student{Grace: 2 * time.Second, SkipFixChecks: true}, md, mut)
}

// attemptProving is attempt with each fix proven in a fresh container, as `run` does.
func attemptProving(t *testing.T, md string, mut func(*config.StudentBehavior)) (loop.StudentResult, *tutorial.Tutorial) {
	t.Helper()
	res, tut, _ := attemptWith(t, &Student{Grace: 2 * time.Second}, md, mut)
	return res, tut
}

// attemptWith runs the Student s on md in a fresh container.
func attemptWith(t *testing.T, s *Student, md string, mut func(*config.StudentBehavior)) (loop.StudentResult, *tutorial.Tutorial, *looptest.Recorder) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "tutorial.md")
	require.NoError(t, os.WriteFile(path, []byte(md), 0o644))
	tut, err := tutorial.Load(path)
	require.NoError(t, err)
	sb := startSandbox(t, dir)
	b := config.Default().StudentBehavior
	b.TimeoutSeconds = 20
	if mut != nil {
		mut(&b)
	}
	// generous: on a loaded runner the fix proofs (fresh containers) take minutes, and a
	// proof cut short leaves the fix unproven
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	ev := &looptest.Recorder{}
	res, err := s.Attempt(ctx, loop.StudentTask{Iteration: 1, Tutorial: tut, Behavior: b, Sandbox: sb, Events: ev})
	require.NoError(t, err)
	return res, tut, ev
}

const sessionTutorial = "# Session\n" + // 1
	"\n" + // 2
	"```bash\n" + // 3
	"mkdir -p proj && cd proj\n" + // 4
	"export GREETING=hello\n" + // 5
	"python3 -m venv --without-pip .venv\n" + // 6
	"source .venv/bin/activate\n" + // 7
	"```\n" + // 8
	"\n" + // 9
	"Create a file named `app.py`:\n" + // 10
	"\n" + // 11
	"```python\n" + // 12
	"import os\n" + // 13
	"print(os.environ['GREETING'], os.getcwd())\n" + // 14
	"```\n" + // 15
	"\n" + // 16
	"```console\n" + // 17
	"$ python app.py\n" + // 18
	"hello /workspace/work/proj\n" + // 19
	"```\n" + // 20
	"\n" + // 21
	"```bash\n" + // 22
	"python3 -m http.server 8765\n" + // 23
	"```\n" + // 24
	"\n" + // 25
	"```bash\n" + // 26
	"curl -sf http://localhost:8765/app.py\n" + // 27
	"```\n"

func TestStudentRunsOneTerminalSession(t *testing.T) {
	t.Parallel()
	res, _, ev := attemptEvents(t, sessionTutorial, nil)
	assert.Equal(t, loop.StudentCompleted, res.Status, "%+v", res.Findings)
	steps := stepsOf(ev)
	require.Len(t, steps, 5)
	assert.True(t, strings.HasPrefix(steps[0], "step 1 of 5: Session: run mkdir -p proj"), steps[0])
	assert.True(t, strings.HasPrefix(steps[4], "step 5 of 5: "), steps[4])
	assert.Empty(t, res.Findings)
	var app, server, curl *loop.CommandRecord
	for i := range res.Commands {
		c := &res.Commands[i]
		switch {
		case c.Command == "python app.py":
			app = c
		case strings.HasPrefix(c.Command, "python3 -m http.server"):
			server = c
		case strings.HasPrefix(c.Command, "curl"):
			curl = c
		}
	}
	require.NotNil(t, app, "the console block's prompt line ran")
	assert.Equal(t, 18, app.Line)
	assert.Contains(t, app.Output, "hello /workspace/work/proj", "cd, export and the virtualenv carried over")
	require.NotNil(t, server)
	assert.True(t, server.Background, "the server was left running")
	require.NotNil(t, curl)
	assert.Contains(t, curl.Output, "print(os.environ", "the server serves the written file")
	require.Len(t, res.Files, 1)
	assert.Equal(t, "/workspace/work/proj/app.py", res.Files[0].Path)
	require.NoError(t, loop.ValidatePlan(res.Plan, 28))
	assert.Len(t, res.Plan, 5)
}

// gapsTutorial's missing tool (Deno) has no Debian package, so no recovery installs it
// and its second use stays a consequence however fast the machine is.
const gapsTutorial = "# Gaps\n" + // 1
	"\n" + // 2
	"```bash\n" + // 3
	"echo start\n" + // 4
	"deno --version\n" + // 5
	"```\n" + // 6
	"\n" + // 7
	"```bash\n" + // 8
	"python3 -c 'import flask'\n" + // 9
	"deno run app.ts\n" + // 10
	"false\n" + // 11
	"sleep 30\n" + // 12
	"```\n" + // 13
	"\n" + // 14
	"Create a file with the following content:\n" + // 15
	"\n" + // 16
	"```yaml\n" + // 17
	"port: 8080\n" + // 18
	"```\n"

func TestStudentFindsAllGapsInOnePass(t *testing.T) {
	t.Parallel()
	res, _ := attempt(t, gapsTutorial, func(b *config.StudentBehavior) { b.TimeoutSeconds = 3 })
	assert.Equal(t, loop.StudentAskMentor, res.Status)
	assert.Equal(t, loop.TriggerMissingDependency, res.Trigger, "the most specific trigger")
	type gap struct {
		line    int
		class   loop.FailureClass
		trigger loop.Trigger
		also    []int
	}
	var got []gap
	for _, f := range res.Findings {
		got = append(got, gap{f.Line, f.Class, f.Trigger, f.AlsoAt})
	}
	assert.Equal(t, []gap{
		{5, loop.ClassMissingDependency, loop.TriggerMissingDependency, []int{10}},
		{9, loop.ClassMissingDependency, loop.TriggerMissingDependency, nil},
		{11, loop.ClassCommandFailure, loop.TriggerCommandFailure, nil},
		{12, loop.ClassTimeout, loop.TriggerTimeout, nil},
		{17, "", loop.TriggerAmbiguousInstruction, nil},
	}, got)
	assert.Contains(t, res.Findings[1].Problem, "flask")
}

func TestStudentDisabledTriggersReportCannotComplete(t *testing.T) {
	t.Parallel()
	res, _ := attempt(t, "# T\n\n```bash\njq --version\n```\n", func(b *config.StudentBehavior) { b.AskOnMissingDependency = false })
	assert.Equal(t, loop.StudentCannotComplete, res.Status)
	require.Len(t, res.Findings, 1)
	assert.Equal(t, loop.TriggerNone, res.Findings[0].Trigger, "a disabled trigger never escalates (5.S2)")
	assert.Equal(t, 4, res.Findings[0].Line)
	assert.Contains(t, res.Reason, "disabled")
}

func TestStudentNoExecutableSteps(t *testing.T) {
	t.Parallel()
	tut, err := tutorial.Parse("t.md", []byte("# Concepts\n\nNothing to run here.\n"))
	require.NoError(t, err)
	res, err := (&Student{}).Attempt(context.Background(), loop.StudentTask{Tutorial: tut, Events: loop.Discard})
	require.NoError(t, err)
	assert.Equal(t, loop.StudentCompleted, res.Status)
	require.NotNil(t, res.Coverage)
	assert.Contains(t, res.Coverage.Inconclusive, "nothing could be checked", "a tutorial with nothing to run never passes")
}

func TestStudentKeepsAnUnknownServerRunning(t *testing.T) {
	t.Parallel()
	md := "# Server\n\n```bash\npython3 -c 'import http.server as h; print(\"Listening on http://localhost:8799\", flush=True); h.HTTPServer((\"\", 8799), h.SimpleHTTPRequestHandler).serve_forever()'\n```\n\n```bash\ncurl -sf -o /dev/null http://localhost:8799/ && echo up\n```\n"
	// the step's time must cover starting python on a loaded runner: the server is only
	// recognised once it has printed that it listens
	res, _ := attempt(t, md, func(b *config.StudentBehavior) { b.TimeoutSeconds = 10 })
	assert.Equal(t, loop.StudentCompleted, res.Status, "%+v", res.Findings)
	require.Len(t, res.Commands, 2)
	assert.True(t, res.Commands[0].Background)
	assert.Contains(t, res.Commands[1].Output, "up")
}
