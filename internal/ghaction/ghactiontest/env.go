package ghactiontest

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// FixtureDir returns the directory of the webhook payloads the tests use: this
// package's testdata/events, written from GitHub's documented payload schema.
func FixtureDir(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the ghactiontest package")
	}
	return filepath.Join(filepath.Dir(file), "testdata", "events")
}

// Fixture returns the path of one payload file.
func Fixture(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(FixtureDir(t), name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("payload %s: %v", name, err)
	}
	return p
}

// SharedFixtureDir returns ../shared/fixtures/github-events beside the repository root
// (real payloads GitHub sent), "" when it is absent; with CI=true its absence fails the
// test, since the conformance check must run in CI.
func SharedFixtureDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("repository root (go.mod) not found above the test's directory")
		}
		dir = parent
	}
	fx := filepath.Join(filepath.Dir(dir), "shared", "fixtures", "github-events")
	if _, err := os.Stat(filepath.Join(fx, "pull_request-opened.payload.json")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("real GitHub webhook payloads not found at %s (expected ../shared/fixtures/github-events beside the repository root; required when CI=true): %v", fx, err)
		}
		return ""
	}
	return fx
}

// Env is a runner environment for one test: variables plus the GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files.
type Env struct {
	mu   sync.Mutex
	Vars map[string]string
	Dir  string
}

// NewEnv returns a runner-like environment for event with the payload file; the
// workspace is a temp dir.
func NewEnv(t testing.TB, event, payload string) *Env {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	e := &Env{Dir: dir, Vars: map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   event,
		"GITHUB_EVENT_PATH":   payload,
		"GITHUB_REPOSITORY":   "Codertocat/Hello-World",
		"GITHUB_SHA":          "6113728f27ae82c7b1a177c8d03f9e96e0adf246",
		"GITHUB_RUN_ID":       "1234",
		"GITHUB_SERVER_URL":   "https://github.com",
		"GITHUB_WORKSPACE":    ws,
		"GITHUB_OUTPUT":       filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"),
	}}
	for _, f := range []string{"output", "summary.md"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// Set sets a variable.
func (e *Env) Set(k, v string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.Vars[k] = v
}

// Getenv is the environment lookup to inject (githubactions.WithGetenv).
func (e *Env) Getenv(k string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.Vars[k]
}

// Workspace is GITHUB_WORKSPACE.
func (e *Env) Workspace() string { return e.Getenv("GITHUB_WORKSPACE") }

// Summary returns the step summary written so far.
func (e *Env) Summary(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(e.Getenv("GITHUB_STEP_SUMMARY"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Outputs parses GITHUB_OUTPUT (name<<delimiter multi-line form and name=value).
func (e *Env) Outputs(t testing.TB) map[string]string {
	t.Helper()
	b, err := os.ReadFile(e.Getenv("GITHUB_OUTPUT"))
	if err != nil {
		t.Fatal(err)
	}
	return ParseOutputs(string(b))
}
