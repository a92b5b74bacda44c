//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/none"
	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/report"
	"github.com/smile-loop/smile-loop/internal/sandbox"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// reportSecret is composed by the tutorial at run time (printf), so it reaches command
// output without being in the tutorial text.
const reportSecret = "sk-e2e-5f1d9c2b7a30"

const reportTutorial = "# Greeting tool\n" + // 1
	"\n" +
	"## Setup\n" + // 3
	"\n" +
	"Create the greeting file:\n" + // 5
	"\n" +
	"```bash\n" + // 7
	"mkdir -p app && echo hello > app/greeting.txt\n" + // 8
	"```\n" +
	"\n" +
	"## Use the tool\n" + // 11
	"\n" +
	"```bash\n" + // 13
	"greetctl --name world\n" + // 14
	"```\n" +
	"\n" +
	"## Check\n" + // 17
	"\n" +
	"```bash\n" + // 19
	"cat app/greeting.txt\n" + // 20
	"printf 'leaked: sk-e2e-%s\\n' 5f1d9c2b7a30 && exit 3\n" + // 21
	"```\n"

// A real deterministic run on the engine, then the report: every file written,
// validated, gaps on their lines, the secret nowhere.
func TestDeterministicRunReport(t *testing.T) {
	image := sandboxtest.RequireImage(t)
	root := t.TempDir()
	tutDir := filepath.Join(root, "tutorial")
	require.NoError(t, os.MkdirAll(tutDir, 0o755))
	path := filepath.Join(tutDir, "tutorial.md")
	require.NoError(t, os.WriteFile(path, []byte(reportTutorial), 0o644))
	tut, err := tutorial.Load(path)
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	logs := filepath.Join(root, "out", "logs")
	sb, err := sandbox.New(ctx, sandbox.Options{Image: image, RunID: "e2e-report", TutorialDir: tutDir,
		WorkDir: filepath.Join(root, "work"), LogsDir: logs, Memory: "512m", CPUs: 1})
	require.NoError(t, err)
	t.Cleanup(func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer ccancel()
		_ = sb.Close(cctx, true)
	})
	cfg := config.Default()
	cfg.LLMProvider = config.ProviderNone
	cfg.Tutorial = path
	stateDir := filepath.Join(root, "out")
	st, err := loop.Run(ctx, loop.Options{Config: cfg, Tutorial: tut, Sandbox: sb, Student: &none.Student{Grace: 2 * time.Second},
		Mentor: none.Mentor{}, StateDir: stateDir, Secrets: []string{reportSecret}})
	require.NoError(t, err)

	r := report.Build(st, tut, report.Options{Secrets: []string{reportSecret}, RepoRoot: root, LogsDir: logs, Version: "e2e"})
	files, err := report.Write(filepath.Join(root, "out", "report"), r)
	require.NoError(t, err)

	read := func(p string) []byte {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		return data
	}
	js, md, sarif, audit := read(files.JSON), read(files.Markdown), read(files.SARIF), read(files.Audit)
	for name, data := range map[string][]byte{"json": js, "md": md, "sarif": sarif, "audit": audit} {
		assert.NotContains(t, string(data), reportSecret, name)
	}

	schema, err := report.JSONSchema()
	require.NoError(t, err)
	validateWith(t, report.SchemaID, schema, js)
	_, file, _, _ := runtime.Caller(0)
	sarifSchema := read(filepath.Join(filepath.Dir(file), "..", "..", "internal", "report", "testdata", "sarif-schema-2.1.0.json"))
	validateWith(t, "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json", sarifSchema, sarif)

	back, err := report.Decode(js)
	require.NoError(t, err)
	assert.True(t, back.Failed("high"))
	lines := map[int]report.Gap{}
	for _, g := range back.Gaps {
		require.True(t, g.Location.Found, "%+v", g)
		lines[g.Location.Line] = g
	}
	greet, ok := lines[14]
	require.True(t, ok, "the missing tool is a gap at its line: %+v", back.Gaps)
	assert.Equal(t, report.MissingPrerequisite, greet.Category)
	assert.Equal(t, "greetctl --name world", greet.Location.Text)
	assert.Equal(t, []string{"Greeting tool", "Use the tool"}, greet.Location.HeadingPath)
	assert.Contains(t, greet.SuggestedFix, "greetctl")
	failing, ok := lines[21]
	require.True(t, ok, "the failing command is a gap at its line: %+v", back.Gaps)
	assert.Equal(t, 3, failing.Evidence.ExitCode)
	assert.Contains(t, failing.Evidence.Output, "leaked: ***")

	assert.Contains(t, string(md), "### Gap 1:")
	assert.Contains(t, string(sarif), `"uri": "tutorial/tutorial.md"`)
	assert.Contains(t, string(audit), "$ greetctl --name world")
	assert.True(t, strings.Count(string(audit), "[command ") >= 4, "every command in the audit log")
	assert.Len(t, back.AuditTrail.Commands, strings.Count(string(audit), "[command "))
}

func validateWith(t *testing.T, id string, schema, data []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource(id, doc))
	s, err := c.Compile(id)
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	require.NoError(t, err)
	require.NoError(t, s.Validate(inst))
}
