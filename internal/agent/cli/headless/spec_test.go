package headless

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every command line the builder makes, for every role × provider, short and long
// prompt, with and without a model and extra directories, is accepted by the pinned
// version's parser as clis.json records it; and none uses a flag the table says not to.
func TestCommandLinesAreAcceptedByThePinnedCLIs(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{Claude, Codex, Gemini} {
		spec, ok := Spec(provider)
		require.True(t, ok, provider)
		for _, role := range []string{RoleStudent, RoleMentor} {
			for _, prompt := range []string{"Follow the tutorial.", "--looks-like-a-flag", strings.Repeat("x", MaxArgPrompt+1)} {
				for _, model := range []string{"", "some-model"} {
					inv, err := Command(provider, role, prompt, model)
					if provider == Codex && role == RoleMentor {
						require.ErrorIs(t, err, ErrNoCodexMentor)
						continue
					}
					require.NoError(t, err)
					inv = AddDirs(inv, provider, []string{"/workspace/tutorial", "/workspace/work"})
					p, rej := spec.Parse(inv.Args)
					require.Nil(t, rej, "%s %s %s rejects %q: %v", provider, spec.Version, role, inv.Args, rej)
					for _, f := range spec.Flags {
						if f.Deprecated != "" && provider != Gemini {
							assert.False(t, p.Has(f.Name), "%s: %s is deprecated: %s", provider, f.Name, f.Deprecated)
						}
					}
					// The prompt reaches the CLI where it reads it.
					if inv.Stdin == "" {
						got := p.Value("--prompt")
						if provider != Gemini {
							require.NotEmpty(t, p.Positional, "%s: the prompt is positional", provider)
							got = p.Positional[len(p.Positional)-1]
						}
						assert.Equal(t, prompt, got, provider)
					}
					if model != "" {
						assert.Equal(t, model, p.Value("--model"))
					}
				}
			}
		}
	}
}

// The parser refuses what the real CLIs refuse, with their text and exit codes; the
// research case first: gemini 0.9.0 had no stream-json (config.ts@v0.9.0 choices
// text/json), so a table row for it rejects the wrapper's gemini command line.
func TestSpecParseRejectsAsTheRealCLI(t *testing.T) {
	t.Parallel()
	claude, _ := Spec(Claude)
	codex, _ := Spec(Codex)
	gemini, _ := Spec(Gemini)
	tests := []struct {
		name string
		spec CLISpec
		args []string
		kind string
		code int
		text string
	}{
		{"claude unknown", claude, []string{"-p", "x", "--mode", "y"}, ExitUnknownFlag, 1, "error: unknown option '--mode'"},
		{"claude bad choice", claude, []string{"-p", "x", "--output-format", "xml"}, ExitBadValue, 1, "error: option '--output-format <format>' argument 'xml' is invalid. Allowed choices are text, json, stream-json."},
		{"claude stream-json without --verbose", claude, []string{"-p", "x", "--output-format", "stream-json"}, "stream_json_needs_verbose", 1, "Error: When using --print, --output-format=stream-json requires --verbose"},
		{"codex unknown", codex, []string{"exec", "--json", "--search", "p"}, ExitUnknownFlag, 2, "error: unexpected argument '--search' found"},
		{"codex bad sandbox", codex, []string{"exec", "--sandbox", "none", "p"}, ExitBadValue, 2, "error: invalid value 'none' for '--sandbox <SANDBOX_MODE>'\n  [possible values: read-only, workspace-write, danger-full-access]"},
		{"gemini unknown", gemini, []string{"-p", "x", "--all-files"}, ExitUnknownFlag, 1, "Unknown arguments: all-files, allFiles"},
		{"gemini unknown undashed", gemini, []string{"-p", "x", "--checkpointing"}, ExitUnknownFlag, 1, "Unknown argument: checkpointing"},
		{"gemini bad choice", gemini, []string{"-p", "x", "-o", "yaml"}, ExitBadValue, 1, "Invalid values:\n  Argument: output-format, Given: \"yaml\", Choices: \"text\", \"json\", \"stream-json\""},
		{"gemini both prompts", gemini, []string{"-p", "x", "more"}, ExitPromptConflict, 1, "Cannot use both a positional prompt and the --prompt (-p) flag together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, rej := tt.spec.Parse(tt.args)
			require.NotNil(t, rej)
			assert.Equal(t, tt.kind, rej.Kind)
			assert.Equal(t, tt.code, rej.ExitCode)
			assert.True(t, strings.HasPrefix(rej.Text, tt.text), rej.Text)
			assert.Equal(t, ErrUsage, ClassifyError(rej.Text), "a refused command line is a usage error, never retried")
			assert.Equal(t, strings.SplitN(tt.text, "\n\n", 2)[0], ErrorLines(rej.Text+"\n"+tt.spec.Help()), "the blocker quotes the error, not the help")
		})
	}
	// yargs accepts the camelCase form of a dashed option.
	_, rej := gemini.Parse([]string{"-p", "x", "--outputFormat", "json", "--skipTrust"})
	assert.Nil(t, rej)

	old := gemini
	old.Version = "0.9.0"
	old.Flags = append([]Flag(nil), gemini.Flags...)
	for i, f := range old.Flags {
		if f.Name == "--output-format" {
			old.Flags[i].Choices = []string{"text", "json"}
		}
	}
	inv, err := Command(Gemini, RoleStudent, "p", "")
	require.NoError(t, err)
	_, rej = old.Parse(inv.Args)
	require.NotNil(t, rej, "gemini 0.9.0 refuses --output-format stream-json")
	assert.Contains(t, rej.Text, `Given: "stream-json"`)
}

// The table is complete: each CLI has its version, sources on every flag, the exits the
// wrapper relies on, and its events; the version matches images/smile-base/Dockerfile.
func TestTableMatchesTheImage(t *testing.T) {
	t.Parallel()
	dockerfile, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "images", "smile-base", "Dockerfile"))
	require.NoError(t, err)
	args := map[string]string{Claude: "CLAUDE_CODE_VERSION", Codex: "CODEX_VERSION", Gemini: "GEMINI_CLI_VERSION"}
	for provider, arg := range args {
		spec, ok := Spec(provider)
		require.True(t, ok)
		m := regexp.MustCompile(`ARG ` + arg + `=(\S+)`).FindSubmatch(dockerfile)
		require.NotNil(t, m, arg)
		assert.Equal(t, spec.Version, string(m[1]), "%s: clis.json and the Dockerfile pin the same version", provider)
		assert.Contains(t, string(dockerfile), spec.Package+"@${"+arg+"}")
		assert.NotEmpty(t, spec.Why)
		assert.NotEmpty(t, spec.EventsSource)
		for _, f := range spec.Flags {
			assert.NotEmpty(t, f.Source, "%s %s", provider, f.Name)
		}
		for _, kind := range []string{ExitUnknownFlag, ExitBadValue, ExitMissingAuth} {
			e, ok := spec.ExitFor(kind, nil)
			require.True(t, ok, "%s: %s", provider, kind)
			assert.NotEmpty(t, e.Source)
			assert.NotZero(t, e.ExitCode)
		}
	}
	var doc map[string]any
	require.NoError(t, json.Unmarshal(clisJSON, &doc))
}

// The recorded streams (what the fake CLIs emit) follow the pinned versions' events.
func TestRecordedStreamsFollowTheTable(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "streams", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		provider, _, _ := strings.Cut(filepath.Base(f), "-")
		spec, ok := Spec(provider)
		require.True(t, ok, f)
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			assert.NoError(t, spec.CheckEvent(line), "%s: %s", f, line)
		}
	}
	claude, _ := Spec(Claude)
	assert.Error(t, claude.CheckEvent(`{"type":"result","subtype":"success"}`), "a result without usage is not 2.1.240's")
	assert.Error(t, claude.CheckEvent(`{"type":"progress"}`))
}

func TestErrorLines(t *testing.T) {
	t.Parallel()
	tests := []struct{ out, want string }{
		{out: "(node:12) [DEP0040] DeprecationWarning: punycode\nUnknown arguments: all-files, allFiles\nUsage: gemini [options]\n\nOptions:\n  -h, --help  Show help", want: "Unknown arguments: all-files, allFiles"},
		{out: "Please set an Auth method in your /home/learner/.gemini/settings.json or specify one of the following environment variables before running: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA\n", want: "Please set an Auth method in your /home/learner/.gemini/settings.json or specify one of the following environment variables before running: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA"},
		{out: "warning: `--full-auto` is deprecated\nerror: unexpected argument '--x' found\n\n  tip: …\n\nUsage: codex exec", want: "error: unexpected argument '--x' found"},
		{out: "something odd happened\nmore detail\n\nUsage: x", want: "something odd happened\nmore detail"},
		{out: "", want: ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ErrorLines(tt.out))
	}
}
