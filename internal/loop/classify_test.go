package loop

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		command  string
		exit     int
		output   string
		timedOut bool
		want     FailureClass
		summary  string // substring of the summary
	}{
		{"success", "ls", 0, "a b", false, "", ""},
		{"bash command not found", "node --version", 127, "bash: line 1: node: command not found", false, ClassMissingDependency, "`node`"},
		{"sh not found", "jq .", 127, "sh: 1: jq: not found", false, ClassMissingDependency, "`jq`"},
		{"ldc2 without cc", "ldc2 hello.d", 1, "Error: cannot find program `cc`", false, ClassMissingDependency, "`cc`"},
		{"rustc without cc", "cargo build", 101, "error: linker `cc` not found\n  |\n  = note: No such file or directory (os error 2)", false, ClassMissingDependency, "`cc`"},
		{"qmake without g++", "qmake ../greeter.pro", 3, "Project ERROR: Cannot run compiler 'g++'. Output:\n===================\nsh: 1: g++: not found\n===================\nMaybe you forgot to setup the environment?", false, ClassMissingDependency, "`g++`"},
		{"exit 127 without text", "foo", 127, "", false, ClassMissingDependency, "foo"},
		{"python module", "python3 app.py", 1, "Traceback (most recent call last):\n  File \"app.py\", line 1\nModuleNotFoundError: No module named 'flask'", false, ClassMissingDependency, "module `flask`"},
		{"python2 import", "python app.py", 1, "ImportError: No module named requests", false, ClassMissingDependency, "`requests`"},
		{"node module", "node index.js", 1, "Error: Cannot find module 'express'\nRequire stack:", false, ClassMissingDependency, "`express`"},
		{"apt package", "apt-get install -y nodejs-lts", 100, "E: Unable to locate package nodejs-lts", false, ClassMissingDependency, "package `nodejs-lts`"},
		{"pip no version", "pip install foo-bar", 1, "ERROR: Could not find a version that satisfies the requirement foo-bar (from versions: none)", false, ClassMissingDependency, "foo-bar"},
		{"go missing package", "go run .", 1, "main.go:3:8: no required module provides package github.com/x/y; to add it:", false, ClassMissingDependency, "github.com/x/y"},
		{"C header", "make", 2, "src/a.c:1:10: fatal error: openssl/ssl.h: No such file or directory", false, ClassMissingDependency, "openssl/ssl.h"},
		{"timed out", "sleep 100", -1, "", true, ClassTimeout, "did not finish"},
		{"exit 124", "timeout 5 curl x", 124, "", false, ClassTimeout, "timed out"},
		{"pytest", "pytest -q", 1, "F.\n=========== 1 failed, 1 passed in 0.02s ===========", false, ClassTestFailure, "1 failed"},
		{"go test", "go test ./...", 1, "--- FAIL: TestX (0.00s)\nFAIL\tgithub.com/a/b\t0.01s", false, ClassTestFailure, "FAIL"},
		{"jest", "npx jest", 1, "Tests:       1 failed, 3 passed, 4 total", false, ClassTestFailure, "failed"},
		{"npm test generic", "npm test", 1, "something broke", false, ClassTestFailure, "tests failed"},
		{"eslint", "npx eslint src", 1, "/src/a.js\n  1:1  error  'x' is defined but never used  no-unused-vars", false, ClassLintFailure, "lint"},
		{"flake8", "flake8 app.py", 1, "app.py:1:1: F401 'os' imported but unused", false, ClassLintFailure, "lint"},
		{"traceback", "python3 app.py", 1, "Traceback (most recent call last):\n  File \"app.py\", line 2, in <module>\n    1/0\nZeroDivisionError: division by zero", false, ClassRuntimeError, "ZeroDivisionError"},
		{"go panic", "go run .", 2, "panic: runtime error: index out of range [3] with length 2\n\ngoroutine 1 [running]:", false, ClassRuntimeError, "panic: runtime error"},
		{"segfault", "./a.out", 139, "Segmentation fault (core dumped)", false, ClassRuntimeError, "crashed"},
		{"signal exit", "./a.out", 139, "", false, ClassRuntimeError, "signal 11"},
		{"permission denied", "./run.sh", 126, "bash: ./run.sh: Permission denied", false, ClassToolingError, "not executable"},
		{"network", "curl https://example.com", 6, "curl: (6) Could not resolve host: example.com", false, ClassToolingError, "Could not resolve host"},
		{"plain failure", "grep foo bar.txt", 2, "grep: bar.txt: No such file or directory", false, ClassCommandFailure, "No such file"},
		{"no output", "false", 1, "", false, ClassCommandFailure, "no output"},
		{"unknown exit", "x", -1, "", false, ClassUnknown, "without an exit code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, summary := Classify(tt.command, tt.exit, tt.output, tt.timedOut)
			assert.Equal(t, tt.want, got)
			assert.Contains(t, summary, tt.summary)
			assert.NotContains(t, summary, "\n", "the summary is one line")
		})
	}
}

func TestMissingDependencyName(t *testing.T) {
	t.Parallel()
	kind, name := MissingDependency(127, "bash: npm: command not found")
	assert.Equal(t, "command", kind)
	assert.Equal(t, "npm", name)
	kind, name = MissingDependency(127, "/usr/bin/env: ‘guile’: No such file or directory")
	assert.Equal(t, "command", kind)
	assert.Equal(t, "guile", name, "the interpreter a script's #! names")
	kind, name = MissingDependency(127, "bash: line 1: ./calc: No such file or directory")
	assert.Equal(t, "command", kind)
	assert.Equal(t, "./calc", name, "the program at the end of a pipeline, not its first word")
	kind, name = MissingDependency(1, "all good")
	assert.Empty(t, kind)
	assert.Empty(t, name)
}

func BenchmarkClassify(b *testing.B) {
	out := "Traceback (most recent call last):\n  File \"app.py\", line 2, in <module>\n    1/0\nZeroDivisionError: division by zero"
	for b.Loop() {
		Classify("python3 app.py", 1, out, false)
	}
}
