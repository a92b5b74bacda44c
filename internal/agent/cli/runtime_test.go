package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/agent/cli/headless"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
)

// binDir holds smile-wrapper and the fake CLIs, built once for the package's tests.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "smile-cli-bin-")
	if err != nil {
		panic(err)
	}
	for _, b := range []struct{ pkg, out string }{
		{"../../../wrappers/smile-wrapper", "smile-wrapper"},
		{"./testdata/fakecli", "fakecli"},
	} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, b.out), b.pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			panic(fmt.Sprintf("build %s: %v\n%s", b.pkg, err, out))
		}
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fakeInstall installs the wrapper and the fake CLI under the provider's name.
func fakeInstall(provider string) []File {
	return []File{
		{HostPath: filepath.Join(binDir, "smile-wrapper"), Name: "smile-wrapper"},
		{HostPath: filepath.Join(binDir, "fakecli"), Name: provider},
	}
}

func newAPI(t *testing.T) *loop.Server {
	srv, err := loop.NewServer(loop.ServerOptions{Addr: "127.0.0.1", ContainerHost: "127.0.0.1"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

const tutorialPrompt = "# Greet\nInstall nothing, then run:\n$ echo setting up\n$ ./greet --version\n"

func TestStudentAsksMentorAdvisesStudentCompletes(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{headless.Claude, headless.Codex, headless.Gemini} {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			sb := looptest.NewHostSandbox(t)
			api := newAPI(t)
			argsLog := sb.Path("/args.log")
			opts := Options{Provider: provider, Install: fakeInstall(provider), Env: map[string]string{"FAKECLI_ARGS": "/args.log"}, Backoff: 10 * time.Millisecond}
			opts.Env["FAKECLI_ARGS"] = argsLog
			student, mentor := NewStudent(opts), NewMentor(opts)
			ctx := context.Background()
			ev := &looptest.Recorder{}

			api.SetTurn(loop.TurnStudent, 1, &loop.APITask{Prompt: tutorialPrompt})
			r1, err := student.Attempt(ctx, loop.StudentTask{Iteration: 1, Prompt: tutorialPrompt, Sandbox: sb, Callback: api, Events: ev})
			require.NoError(t, err)
			assert.Equal(t, loop.StudentAskMentor, r1.Status, r1.Raw)
			assert.Equal(t, "./greet --version", r1.CurrentStep)
			require.Len(t, r1.Commands, 2)
			assert.Equal(t, "echo setting up", r1.Commands[0].Command)
			assert.Equal(t, 0, r1.Commands[0].ExitCode)
			assert.Equal(t, 127, r1.Commands[1].ExitCode, "exit code from the stream (codex) or the shim (claude, gemini)")
			assert.Equal(t, loop.ClassMissingDependency, r1.Commands[1].Class)
			assert.Equal(t, loop.TriggerMissingDependency, r1.Trigger)
			require.Len(t, r1.Findings, 1)
			assert.Equal(t, "./greet --version", r1.Findings[0].Command)
			require.Len(t, r1.LLMCalls, 1)
			assert.Equal(t, provider, r1.LLMCalls[0].Provider)
			assert.Positive(t, r1.LLMCalls[0].TokensIn)
			assert.Equal(t, 250, r1.LLMCalls[0].TokensOut)
			if provider == headless.Claude {
				assert.InDelta(t, 0.0123, r1.LLMCalls[0].CostUSD, 1e-9)
			}
			assert.Len(t, ev.Events(), 2)

			api.SetTurn(loop.TurnMentor, 1, &loop.APITask{Prompt: "The student failed: " + r1.Problem})
			m, err := mentor.Advise(ctx, loop.MentorTask{Iteration: 1, Prompt: "The student failed: " + r1.Problem, Student: r1, Sandbox: sb, Callback: api})
			if provider == headless.Codex {
				// codex reads files only through a shell: New gives it the api runtime's Mentor.
				require.ErrorIs(t, err, headless.ErrNoCodexMentor)
			} else {
				require.NoError(t, err)
				assert.Contains(t, m.Notes, "NOTES: the tutorial assumes a tool it never installs")
				assert.Contains(t, m.Notes, "./greet --version")
				assert.False(t, m.Unresolvable)
			}

			prompt2 := tutorialPrompt + "\nMentor notes:\nFIX$ printf '#!/bin/sh\\necho hello 1.0\\n' > greet && chmod +x greet\n"
			api.SetTurn(loop.TurnStudent, 2, &loop.APITask{Prompt: prompt2})
			r2, err := student.Attempt(ctx, loop.StudentTask{Iteration: 2, Prompt: prompt2, Sandbox: sb, Callback: api, Events: ev})
			require.NoError(t, err)
			assert.Equal(t, loop.StudentCompleted, r2.Status, r2.Raw)
			require.Len(t, r2.Commands, 3)
			for _, c := range r2.Commands {
				assert.Equal(t, 0, c.ExitCode, c.Command)
				assert.Empty(t, c.Class)
			}
			assert.Contains(t, r2.Commands[2].Output, "hello 1.0")

			// The CLI ran with the role's permission flags, and never saw the wrapper's token.
			data, err := os.ReadFile(argsLog)
			require.NoError(t, err)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			assert.NotContains(t, string(data), api.Token())
			if provider == headless.Codex {
				require.Len(t, lines, 2)
				return
			}
			require.Len(t, lines, 3)
			var mentorArgs []string
			require.NoError(t, json.Unmarshal([]byte(lines[1]), &mentorArgs))
			want, _ := headless.Command(provider, headless.RoleMentor, "x", "")
			assert.Subset(t, mentorArgs, want.Args[2:])
			// The Mentor's file tools may read the Student's work directory.
			switch provider {
			case headless.Claude:
				assert.Contains(t, mentorArgs, "--add-dir")
			case headless.Gemini:
				assert.Contains(t, mentorArgs, "--include-directories")
			}
			assert.NotContains(t, string(data), api.Token())
		})
	}
}

// A tutorial near the 100 KiB limit makes a prompt too long for one argument: it goes
// through stdin, and the run works the same.
func TestLongPromptRuns(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{headless.Claude, headless.Codex, headless.Gemini} {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			sb := looptest.NewHostSandbox(t)
			api := newAPI(t)
			prompt := "# Big\n<!-- " + strings.Repeat("filler ", 150<<10/7) + " -->\n$ echo big-ok\n"
			require.Greater(t, len(prompt), 128<<10)
			api.SetTurn(loop.TurnStudent, 1, &loop.APITask{Prompt: prompt})
			r, err := NewStudent(Options{Provider: provider, Install: fakeInstall(provider)}).
				Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: prompt, Sandbox: sb, Callback: api})
			require.NoError(t, err)
			assert.Equal(t, loop.StudentCompleted, r.Status, r.Reason+r.Raw)
			require.Len(t, r.Commands, 1)
			assert.Contains(t, r.Commands[0].Output, "big-ok")
		})
	}
}

func TestRateLimitIsRetriedWithBackoffThenSucceeds(t *testing.T) {
	t.Parallel()
	sb := looptest.NewHostSandbox(t)
	api := newAPI(t)
	prompt := "FAKECLI:RATE_LIMIT=2\n$ echo ok\n"
	api.SetTurn(loop.TurnStudent, 1, &loop.APITask{Prompt: prompt})
	s := NewStudent(Options{Provider: headless.Claude, Install: fakeInstall(headless.Claude), Backoff: 10 * time.Millisecond})
	r, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: prompt, Sandbox: sb, Callback: api})
	require.NoError(t, err)
	assert.Equal(t, loop.StudentCompleted, r.Status)
	require.Len(t, r.LLMCalls, 3, "two failed runs and the good one")
	assert.Contains(t, r.LLMCalls[0].Error, "rate_limit: API Error: 429")
	assert.Empty(t, r.LLMCalls[2].Error)
}

func TestPersistentProviderErrorBecomesABlockerWithItsMessage(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{headless.Claude, headless.Codex, headless.Gemini} {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			sb := looptest.NewHostSandbox(t)
			api := newAPI(t)
			prompt := "FAKECLI:AUTH\n$ echo ok\n"
			api.SetTurn(loop.TurnStudent, 1, &loop.APITask{Prompt: prompt})
			s := NewStudent(Options{Provider: provider, Install: fakeInstall(provider), Backoff: time.Millisecond, MaxAttempts: 3})
			r, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: prompt, Sandbox: sb, Callback: api})
			require.NoError(t, err)
			assert.Equal(t, loop.StudentCannotComplete, r.Status)
			assert.Contains(t, r.Reason, "failed (auth) after 3 attempt(s)")
			assert.Contains(t, r.Reason, "invalid x-api-key")
			assert.Len(t, r.LLMCalls, 3)

			if provider == headless.Codex {
				return // the codex Mentor is the api runtime's
			}
			api.SetTurn(loop.TurnMentor, 1, &loop.APITask{Prompt: prompt})
			m, err := NewMentor(Options{Provider: provider, Install: fakeInstall(provider), Backoff: time.Millisecond, MaxAttempts: 2}).
				Advise(context.Background(), loop.MentorTask{Iteration: 1, Prompt: prompt, Sandbox: sb, Callback: api})
			require.NoError(t, err)
			assert.True(t, m.Unresolvable)
			assert.Contains(t, m.Notes, "invalid x-api-key")
		})
	}
}

func TestMissingCLINamesItAndHowToInstall(t *testing.T) {
	t.Parallel()
	sb := looptest.NewHostSandbox(t)
	api := newAPI(t)
	api.SetTurn(loop.TurnStudent, 1, &loop.APITask{Prompt: "p"})
	// Only the wrapper is installed, and PATH cannot contain a real gemini... unless the
	// host has one; name a provider binary that cannot exist instead.
	s := NewStudent(Options{Provider: headless.Gemini, Install: []File{{HostPath: filepath.Join(binDir, "smile-wrapper"), Name: "smile-wrapper"}}})
	if _, err := exec.LookPath("gemini"); err == nil {
		t.Skip("a real gemini CLI is on this host's PATH")
	}
	_, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "p", Sandbox: sb, Callback: api})
	var mc *MissingCLIError
	require.ErrorAs(t, err, &mc)
	assert.Equal(t, "gemini", mc.CLI)
	assert.Contains(t, err.Error(), "npm install -g @google/gemini-cli")
	assert.True(t, mc.EnvironmentUnavailable())
}

func TestMissingWrapperIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	sb := looptest.NewHostSandbox(t)
	api := newAPI(t)
	s := NewStudent(Options{Provider: headless.Claude, Wrapper: "smile-wrapper-that-does-not-exist"})
	_, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "p", Sandbox: sb, Callback: api})
	var we *WrapperError
	require.ErrorAs(t, err, &we)
	assert.True(t, we.EnvironmentUnavailable())
	assert.Contains(t, err.Error(), "use the smile-base image")
}

func TestNoCallbackIsAnError(t *testing.T) {
	t.Parallel()
	_, err := NewStudent(Options{Provider: "claude"}).Attempt(context.Background(), loop.StudentTask{Sandbox: looptest.NewHostSandbox(t)})
	assert.ErrorContains(t, err, "no wrapper API")
}

func TestWrapperGetsItsSecretsOnlyThroughExecEnv(t *testing.T) {
	t.Parallel()
	sb := looptest.NewHostSandbox(t)
	api := newAPI(t)
	api.SetTurn(loop.TurnStudent, 1, &loop.APITask{Prompt: "$ echo hi\n"})
	s := NewStudent(Options{Provider: headless.Codex, Install: fakeInstall(headless.Codex)})
	_, err := s.Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: "$ echo hi\n", Sandbox: sb, Callback: api})
	require.NoError(t, err)
	require.Len(t, sb.Requests(), 1)
	assert.Equal(t, api.Token()+"\n", string(sb.Requests()[0].Stdin), "the turn's token goes on standard input")
	for k, v := range sb.Requests()[0].Env {
		assert.NotContains(t, v, api.Token(), "not in the environment (%s), which the tutorial's processes can read", k)
	}
	assert.NotContains(t, sb.Requests()[0].Command, api.Token())
	// Nothing written into the container carries the token.
	_ = filepath.Walk(sb.Root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && info.Size() < 1<<20 {
			data, _ := os.ReadFile(p)
			assert.NotContains(t, string(data), api.Token(), p)
		}
		return nil
	})
}

func TestUnwrapShell(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{in: "bash -lc 'ls -la'", want: "ls -la"},
		{in: `bash -lc 'echo '\''hi'\'''`, want: "echo 'hi'"},
		{in: "ls", want: "ls"},
		{in: "bash -lc ls", want: "bash -lc ls"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, unwrapShell(tt.in))
	}
}

func TestUnparseableOutputKeepsTheRaw(t *testing.T) {
	t.Parallel()
	p := headless.Payload{Provider: headless.Claude, Stream: `{"type":"result","subtype":"success","is_error":false,"result":"I did some things but no JSON","usage":{"input_tokens":1,"output_tokens":2}}`}
	r := studentResult(p, 1, "", loop.Discard)
	assert.Empty(t, r.Status)
	assert.NotEmpty(t, r.ParseError)
	assert.Equal(t, "I did some things but no JSON", r.Raw)
}

func TestShimMatchesQuotedCommands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ran, cmd string
		want     bool
	}{
		{ran: "greet --version", cmd: "greet --version", want: true},
		{ran: `source /tmp/snap.sh && eval 'echo '\''hi'\''' < /dev/null && pwd -P >| /tmp/cwd`, cmd: "echo 'hi'", want: true},
		{ran: `eval 'echo '"'"'hi'"'"''`, cmd: "echo 'hi'", want: true},
		{ran: `eval "echo \"hi\""`, cmd: `echo "hi"`, want: true},
		{ran: "ls -la", cmd: "greet", want: false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, shimMatches(tt.ran, tt.cmd), tt.ran)
	}
}
