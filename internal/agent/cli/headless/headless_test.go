package headless

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommandEnforcesRolePermissionsThroughFlags(t *testing.T) {
	t.Parallel()
	flag := func(args []string, name string) string {
		for i, a := range args {
			if a == name && i+1 < len(args) {
				return args[i+1]
			}
		}
		return ""
	}
	tests := []struct {
		name, provider, role string
		check                func(t *testing.T, args []string)
	}{
		{name: "claude student", provider: Claude, role: RoleStudent, check: func(t *testing.T, a []string) {
			assert.Equal(t, "stream-json", flag(a, "--output-format"))
			assert.Contains(t, a, "--verbose")
			assert.Equal(t, "WebSearch,WebFetch,Agent,Task", flag(a, "--disallowedTools"))
			assert.Contains(t, flag(a, "--allowedTools"), "Bash")
			assert.Equal(t, "user", flag(a, "--setting-sources"), "the tutorial's .claude/ settings and hooks never load")
		}},
		{name: "claude mentor", provider: Claude, role: RoleMentor, check: func(t *testing.T, a []string) {
			for _, tool := range []string{"Bash", "Write", "Edit", "NotebookEdit", "Agent"} {
				assert.Contains(t, strings.Split(flag(a, "--disallowedTools"), ","), tool)
			}
			assert.Contains(t, flag(a, "--allowedTools"), "WebSearch")
			assert.NotContains(t, flag(a, "--allowedTools"), "Bash")
			assert.Equal(t, "user", flag(a, "--setting-sources"))
		}},
		{name: "codex student", provider: Codex, role: RoleStudent, check: func(t *testing.T, a []string) {
			require.GreaterOrEqual(t, len(a), 3)
			assert.Equal(t, []string{"exec", "--json", "--skip-git-repo-check"}, a[:3])
			assert.Equal(t, "danger-full-access", flag(a, "--sandbox"))
			assert.Equal(t, `web_search="disabled"`, flag(a, "-c"))
			assert.Equal(t, "PROMPT", a[len(a)-1])
			assert.Equal(t, "--", a[len(a)-2])
		}},
		{name: "gemini student", provider: Gemini, role: RoleStudent, check: func(t *testing.T, a []string) {
			assert.Equal(t, "stream-json", flag(a, "--output-format"))
			allowed := flag(a, "--allowed-tools")
			assert.Contains(t, allowed, "run_shell_command")
			assert.NotContains(t, allowed, "web")
			assert.NotContains(t, a, "--yolo")
			assert.Contains(t, a, "--skip-trust", "0.56 refuses a headless run in an untrusted folder")
		}},
		{name: "gemini mentor", provider: Gemini, role: RoleMentor, check: func(t *testing.T, a []string) {
			allowed := flag(a, "--allowed-tools")
			assert.NotContains(t, allowed, "run_shell_command")
			assert.NotContains(t, allowed, "write_file")
			assert.Contains(t, allowed, "google_web_search")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			inv, err := Command(tt.provider, tt.role, "PROMPT", "")
			require.NoError(t, err)
			assert.Equal(t, tt.provider, inv.Name)
			assert.Empty(t, inv.Stdin)
			tt.check(t, inv.Args)
		})
	}
	_, err := Command("none", RoleStudent, "p", "")
	assert.ErrorContains(t, err, "has no CLI runtime")
	_, err = Command(Codex, RoleMentor, "p", "")
	assert.ErrorIs(t, err, ErrNoCodexMentor, "codex reads files only through a shell: its Mentor is the api runtime")
	inv, _ := Command(Claude, RoleStudent, "p", "claude-opus-4-1")
	assert.Equal(t, "claude-opus-4-1", flag(inv.Args, "--model"))
	assert.Equal(t, []string{"-p", "p", "--output-format"}, inv.Args[:3])
}

func TestLongPromptsGoThroughStdin(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", MaxArgPrompt+1)
	for _, p := range []string{Claude, Codex, Gemini} {
		inv, err := Command(p, RoleStudent, long, "")
		require.NoError(t, err)
		assert.Equal(t, long, inv.Stdin, p)
		for _, a := range inv.Args {
			assert.Less(t, len(a), 1000, "%s: no long argument", p)
		}
	}
	inv, _ := Command(Codex, RoleStudent, long, "")
	assert.Equal(t, []string{"--", "-"}, inv.Args[len(inv.Args)-2:])
	inv, _ = Command(Claude, RoleStudent, long, "")
	assert.Equal(t, []string{"-p", "--output-format"}, inv.Args[:2])
}

func readStream(t *testing.T, name string) string {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "streams", name))
	require.NoError(t, err)
	return string(data)
}

func TestParseStreamRecordedFormats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider string
		cmds     []string
		exit     []int // -1: the stream does not say
		in, out  int
		cost     float64
		model    string
	}{
		{provider: Claude, cmds: []string{"echo hi", "greet --version"}, exit: []int{-1, -1}, in: 4512, out: 250, cost: 0.0123, model: "claude-sonnet-4-5-20250929"},
		{provider: Codex, cmds: []string{"bash -lc 'echo hi'", "bash -lc 'greet --version'"}, exit: []int{0, 127}, in: 4500, out: 250},
		{provider: Gemini, cmds: []string{"echo hi", "greet --version"}, exit: []int{-1, -1}, in: 4500, out: 250, model: "gemini-2.5-pro"},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			t.Parallel()
			s := ParseStream(tt.provider, readStream(t, tt.provider+"-ask.jsonl"))
			assert.Nil(t, s.Error)
			require.Len(t, s.Tools, len(tt.cmds))
			for i, c := range tt.cmds {
				assert.Equal(t, c, s.Tools[i].Command)
				assert.True(t, s.Tools[i].Done)
				if tt.exit[i] >= 0 {
					require.NotNil(t, s.Tools[i].ExitCode)
					assert.Equal(t, tt.exit[i], *s.Tools[i].ExitCode)
				} else {
					assert.Nil(t, s.Tools[i].ExitCode)
				}
			}
			assert.Contains(t, s.Tools[1].Output, "command not found")
			assert.Contains(t, s.FinalText, `"status":"ask_mentor"`)
			assert.Equal(t, tt.in, s.InputTokens)
			assert.Equal(t, tt.out, s.OutputTokens)
			assert.InDelta(t, tt.cost, s.CostUSD, 1e-9)
			if tt.model != "" {
				assert.Equal(t, tt.model, s.Model)
			}
		})
	}
}

func TestParseStreamErrors(t *testing.T) {
	t.Parallel()
	for _, p := range []string{Claude, Codex, Gemini} {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			s := ParseStream(p, readStream(t, p+"-ratelimit.jsonl"))
			require.NotNil(t, s.Error)
			assert.Equal(t, ErrRateLimit, s.Error.Kind)
			assert.Contains(t, s.Error.Message, "rate limit")
		})
	}
	// Garbage and unknown events never break parsing.
	s := ParseStream(Claude, "not json\n{\"type\":\"rate_limit_event\"}\n{broken\n")
	assert.Nil(t, s.Error)
	assert.Equal(t, 1, s.Events)
}

func TestClassifyError(t *testing.T) {
	t.Parallel()
	tests := []struct{ msg, want string }{
		{msg: `API Error: 429 {"type":"error","error":{"type":"rate_limit_error"}}`, want: ErrRateLimit},
		{msg: "exceeded retry limit, last status: 429 Too Many Requests", want: ErrRateLimit},
		{msg: "[API Error: got status: RESOURCE_EXHAUSTED]", want: ErrRateLimit},
		{msg: "API Error: 529 Overloaded", want: ErrRateLimit},
		{msg: "Invalid API key · Please run /login", want: ErrAuth},
		{msg: "unexpected status 401 Unauthorized: Incorrect API key provided", want: ErrAuth},
		{msg: "API key not valid. Please pass a valid API key.", want: ErrAuth},
		{msg: "exceeded retry limit, last status: 401 Unauthorized", want: ErrAuth},
		{msg: "Please set an Auth method in your ~/.gemini/settings.json or specify …", want: ErrAuth},
		{msg: "Not logged in · Please run /login", want: ErrAuth},
		{msg: "stream disconnected before completion: error sending request for url", want: ErrNetwork},
		{msg: "TypeError: fetch failed", want: ErrNetwork},
		{msg: "error: unexpected argument '--search' found", want: ErrUsage},
		{msg: "Unknown argument: all-files", want: ErrUsage},
		{msg: "Error: context window exceeded", want: ErrOther},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, ClassifyError(tt.msg))
		})
	}
}

func TestParseShimLog(t *testing.T) {
	t.Parallel()
	log := "127\t12\tZ3JlZXQgLS12ZXJzaW9u\nbad line\n0\t3\tZWNobyBoaQ==\n1\tx\t!!!\n"
	got := ParseShimLog(log)
	assert.Equal(t, []ShimRecord{{Command: "greet --version", ExitCode: 127, DurationMS: 12}, {Command: "echo hi", ExitCode: 0, DurationMS: 3}}, got)
}

func TestShimRecordsExitCodesOfBashCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	shim := filepath.Join(dir, "shim.sh")
	require.NoError(t, os.WriteFile(shim, []byte(Shim), 0o644))
	log := filepath.Join(dir, "cmd.log")
	for _, c := range []string{"exit 3", "echo ok", "nosuchcommand-xyz", `bash -c "exit 9"; true`} {
		cmd := exec.Command("bash", "-c", c)
		cmd.Env = append(os.Environ(), "BASH_ENV="+shim, "SMILE_CMDLOG="+log)
		_ = cmd.Run()
	}
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	recs := ParseShimLog(string(data))
	require.Len(t, recs, 4, "nested bash -c is not recorded twice")
	assert.Equal(t, ShimRecord{Command: "exit 3", ExitCode: 3}, ShimRecord{Command: recs[0].Command, ExitCode: recs[0].ExitCode})
	assert.Equal(t, 0, recs[1].ExitCode)
	assert.Equal(t, 127, recs[2].ExitCode)
	assert.Equal(t, 0, recs[3].ExitCode)
}

func TestParseStreamCodexEarlyItemType(t *testing.T) {
	t.Parallel()
	s := ParseStream(Codex, `{"type":"item.completed","item":{"id":"item_1","item_type":"command_execution","command":"bash -lc ls","aggregated_output":"a\n","exit_code":2,"status":"failed"}}
{"type":"item.completed","item":{"id":"item_2","item_type":"agent_message","text":"done"}}`)
	require.Len(t, s.Tools, 1)
	require.NotNil(t, s.Tools[0].ExitCode)
	assert.Equal(t, 2, *s.Tools[0].ExitCode)
	assert.Equal(t, "done", s.FinalText)
}

func TestAddDirs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		provider string
		want     []string
	}{
		{provider: Claude, want: []string{"--add-dir", "/a", "--add-dir", "/b"}},
		{provider: Gemini, want: []string{"--include-directories", "/a,/b"}},
	} {
		inv, err := Command(tt.provider, RoleMentor, "p", "")
		require.NoError(t, err)
		before := len(inv.Args)
		got := AddDirs(inv, tt.provider, []string{"/a", "/b"})
		assert.Equal(t, tt.want, got.Args[before:], tt.provider)
		assert.Len(t, inv.Args, before, "the original is not changed")
	}
}

// The Mentors load nothing the tutorial or the Student could have written: claude runs
// --bare (no hooks) with a fresh CLAUDE_CONFIG_DIR; gemini with its own system settings
// (hooks off, forbidden tools excluded) and a fresh home. The fresh directory is the
// runner's ("{dir}").
func TestMentorsLoadNoSettingsTheStudentCouldWrite(t *testing.T) {
	t.Parallel()
	c, err := Command(Claude, RoleMentor, "p", "")
	require.NoError(t, err)
	assert.Contains(t, c.Args, "--bare")
	assert.Equal(t, "{dir}/claude-config", c.Env["CLAUDE_CONFIG_DIR"])
	assert.Contains(t, c.Files, "claude-config/.keep")

	for _, role := range []string{RoleStudent, RoleMentor} {
		g, err := Command(Gemini, role, "p", "")
		require.NoError(t, err)
		var settings struct {
			Tools       struct{ Exclude []string }
			HooksConfig struct{ Enabled *bool }
		}
		require.NoError(t, json.Unmarshal(g.Files["gemini-settings.json"], &settings))
		require.NotNil(t, settings.HooksConfig.Enabled)
		assert.False(t, *settings.HooksConfig.Enabled)
		assert.Equal(t, "{dir}/gemini-settings.json", g.Env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"])
		if role == RoleMentor {
			assert.Equal(t, "{dir}/gemini-home", g.Env["GEMINI_CLI_HOME"])
			assert.True(t, g.IsolatedCwd)
			assert.Equal(t, []string{"run_shell_command", "write_file", "replace"}, settings.Tools.Exclude)
		} else {
			assert.Empty(t, g.Env["GEMINI_CLI_HOME"])
			assert.Equal(t, []string{"google_web_search", "web_fetch"}, settings.Tools.Exclude)
		}
	}
}
