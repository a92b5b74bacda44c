package loop

import (
	"fmt"
	"regexp"
	"strings"
)

// failure patterns, checked in this order after the exit code rules. Each pattern names
// the thing it extracts (a missing command, module or package) in its first group.
var (
	reCommandNotFound = []*regexp.Regexp{
		regexp.MustCompile(`(?m)(?:^|\s|:)([\w.+-]+): (?:command )?not found\s*$`),                                                            // bash: foo: command not found / sh: 1: foo: not found
		regexp.MustCompile(`(?m)command not found: ([\w.+-]+)`),                                                                               // zsh
		regexp.MustCompile(`(?m)exec: "([\w.+-]+)": executable file not found`),                                                               // Go, docker
		regexp.MustCompile(`(?m)'([\w.+-]+)' is not recognized as an internal or external`),                                                   // Windows docs copied
		regexp.MustCompile(`(?m)/usr/bin/env: [‘'"]([\w.+-]+)[’'"]: No such file or directory`),                                               // a script's #!/usr/bin/env interpreter
		regexp.MustCompile(`(?m)(?:^|\s)(?:ba|da)?sh: (?:line \d+: |\d+: )?(\.{0,2}/[\w./+-]+): (?:No such file or directory|not found)\s*$`), // ./prog that no step built
		regexp.MustCompile("(?m)cannot find program `([\\w.+-]+)`"),                                                                           // LDC 1.30 linking through the C compiler
		regexp.MustCompile("(?m)error: linker `([\\w.+-]+)` not found"),                                                                       // rustc
		regexp.MustCompile(`(?m)Cannot run compiler '([\w.+-]+)'`),                                                                            // qmake 5.15 ("Project ERROR: …")
	}
	reModule = []*regexp.Regexp{
		regexp.MustCompile(`ModuleNotFoundError: No module named '([\w.]+)'`),
		regexp.MustCompile(`No module named '?([\w.]+)'?`),
		regexp.MustCompile(`Cannot find module '([^']+)'`),
		regexp.MustCompile(`Cannot find package '([^']+)'`),
		regexp.MustCompile(`cannot find package "([^"]+)"`),
		regexp.MustCompile(`no required module provides package ([^\s;]+)`),
		regexp.MustCompile(`(?i)could not find a version that satisfies the requirement ([\w.\-\[\]]+)`),
		regexp.MustCompile(`(?i)No matching distribution found for ([\w.\-\[\]]+)`),
		regexp.MustCompile(`LoadError: cannot load such file -- ([\w/.-]+)`),
		regexp.MustCompile(`(?i)npm (?:ERR!|error) 404 .*'([^']+)@`),
		regexp.MustCompile(`error\[E0432\]: unresolved import ` + "`([^`]+)`"),
	}
	rePackage = []*regexp.Regexp{
		regexp.MustCompile(`E: Unable to locate package ([\w.+-]+)`),
		regexp.MustCompile(`E: Package '([\w.+-]+)' has no installation candidate`),
		regexp.MustCompile(`No package ([\w.+-]+) available`),
		regexp.MustCompile(`(?i)error: target not found: ([\w.+-]+)`),
		regexp.MustCompile(`Package ([\w.+-]+) was not found in the pkg-config search path`),
		regexp.MustCompile(`(?m)fatal error: ([\w/.+-]+\.h): No such file or directory`),
	}
	reTimeout = regexp.MustCompile(`(?i)\b(timed out|timeout expired|deadline exceeded)\b`)
	reTests   = []*regexp.Regexp{
		regexp.MustCompile(`(?m)^=+ .*\b\d+ failed\b.*=+$`), // pytest summary
		regexp.MustCompile(`(?m)^FAILED \S+::`),             // pytest short summary
		regexp.MustCompile(`(?m)^--- FAIL: `),               // go test
		regexp.MustCompile(`(?m)^FAIL\s+\S+`),               // go test package line
		regexp.MustCompile(`(?m)^Tests:\s+\d+ failed`),      // jest
		regexp.MustCompile(`(?m)^\s*\d+ failing\s*$`),       // mocha
		regexp.MustCompile(`(?m)^test result: FAILED`),      // cargo test
		regexp.MustCompile(`(?m)^FAILED \(failures=\d+`),    // unittest
	}
	reTestCommand = regexp.MustCompile(`(?:^|[\s;&|(])(pytest|py\.test|go test|jest|vitest|mocha|cargo test|npm (?:run )?test|yarn test|pnpm test|python3? -m (?:pytest|unittest)|rspec|phpunit|mvn test|gradle test|\./gradlew test|make test|tox)\b`)
	reLintCommand = regexp.MustCompile(`(?:^|[\s;&|(])(eslint|flake8|golint|golangci-lint|staticcheck|pylint|ruff|mypy|shellcheck|rubocop|prettier --check|black --check|npm run lint|yarn lint|go vet|cargo clippy|hadolint|markdownlint)\b`)
	reRuntime     = []*regexp.Regexp{
		regexp.MustCompile(`Traceback \(most recent call last\):`),
		regexp.MustCompile(`(?m)^panic: `),
		regexp.MustCompile(`(?i)segmentation fault`),
		regexp.MustCompile(`core dumped`),
		regexp.MustCompile(`Exception in thread "`),
		regexp.MustCompile(`(?m)^\s+at .+\(.+:\d+:\d+\)$`), // JS stack
		regexp.MustCompile(`(?m)^(?:Uncaught )?(?:TypeError|ReferenceError|SyntaxError|RangeError): `),
		regexp.MustCompile(`thread '.*' panicked at`),
		regexp.MustCompile(`(?m)^fatal error: (?:all goroutines are asleep|concurrent map)`),
	}
	reTooling = []*regexp.Regexp{
		regexp.MustCompile(`(?i)permission denied`),
		regexp.MustCompile(`(?i)no space left on device`),
		regexp.MustCompile(`(?i)could not resolve host|temporary failure in name resolution|name or service not known|network is unreachable|connection timed out`),
		regexp.MustCompile(`(?i)could not (?:open|get) lock`),
		regexp.MustCompile(`(?i)operation not permitted`),
		regexp.MustCompile(`(?i)are you root\?`),
	}
	reErrorLine = regexp.MustCompile(`(?im)^.*\b(error|fatal|failed|exception|cannot|can't|unable|no such)\b.*$`)
)

// Classify assigns a failure class to an observed command and a one-line summary of
// what went wrong. A command that succeeded (exit 0, not timed out) has no class: "".
// Missing dependencies are recognised first, because they are the most actionable gap
// of a tutorial; then timeouts, test and lint failures, crashes and tooling problems.
func Classify(command string, exitCode int, output string, timedOut bool) (FailureClass, string) {
	if timedOut {
		return ClassTimeout, fmt.Sprintf("`%s` did not finish in time and was stopped", firstLine(command))
	}
	if exitCode == 0 {
		return "", ""
	}
	if kind, name := missingDependency(exitCode, output); name != "" {
		return ClassMissingDependency, fmt.Sprintf("missing %s `%s` (exit %d)", kind, name, exitCode)
	}
	if exitCode == 127 {
		return ClassMissingDependency, fmt.Sprintf("command not found (exit 127) running `%s`", firstWord(command))
	}
	if exitCode == 124 || reTimeout.MatchString(output) && !reTestCommand.MatchString(command) {
		return ClassTimeout, fmt.Sprintf("`%s` timed out (exit %d)", firstLine(command), exitCode)
	}
	for _, re := range reTests {
		if re.MatchString(output) {
			return ClassTestFailure, "tests failed: " + evidence(output, re)
		}
	}
	if reTestCommand.MatchString(command) {
		return ClassTestFailure, fmt.Sprintf("tests failed (exit %d): %s", exitCode, errorLine(output))
	}
	if reLintCommand.MatchString(command) {
		return ClassLintFailure, fmt.Sprintf("lint reported problems (exit %d): %s", exitCode, errorLine(output))
	}
	for _, re := range reRuntime {
		if re.MatchString(output) {
			return ClassRuntimeError, "the program crashed: " + runtimeSummary(output)
		}
	}
	if exitCode == 139 || exitCode == 134 {
		return ClassRuntimeError, fmt.Sprintf("the program crashed (exit %d, signal %d)", exitCode, exitCode-128)
	}
	if exitCode == 126 {
		return ClassToolingError, fmt.Sprintf("`%s` is not executable (exit 126)", firstWord(command))
	}
	for _, re := range reTooling {
		if re.MatchString(output) {
			return ClassToolingError, fmt.Sprintf("environment problem (exit %d): %s", exitCode, evidence(output, re))
		}
	}
	if exitCode < 0 {
		return ClassUnknown, "the command ended without an exit code"
	}
	return ClassCommandFailure, fmt.Sprintf("`%s` failed (exit %d): %s", firstLine(command), exitCode, errorLine(output))
}

// reSaysNotFound: a command-not-found match that says so whatever the exit status (a
// compiler driver or build tool that could not run the program it needs).
var reSaysNotFound = regexp.MustCompile("command not found|executable file not found|not recognized|cannot find program|error: linker `|Cannot run compiler")

// MissingDependency returns the name of the command, module or package the output says
// is missing, and its kind ("command", "module", "package"); "" when none.
func MissingDependency(exitCode int, output string) (kind, name string) {
	return missingDependency(exitCode, output)
}

func missingDependency(exitCode int, output string) (string, string) {
	for _, re := range reModule {
		if m := re.FindStringSubmatch(output); m != nil {
			return "module", m[1]
		}
	}
	for _, re := range rePackage {
		if m := re.FindStringSubmatch(output); m != nil {
			return "package", m[1]
		}
	}
	for _, re := range reCommandNotFound {
		if m := re.FindStringSubmatch(output); m != nil {
			if exitCode == 127 || reSaysNotFound.MatchString(m[0]) {
				return "command", m[1]
			}
		}
	}
	return "", ""
}

// evidence is the line of output that matched re, trimmed.
func evidence(output string, re *regexp.Regexp) string {
	loc := re.FindStringIndex(output)
	if loc == nil {
		return errorLine(output)
	}
	start := strings.LastIndexByte(output[:loc[0]], '\n') + 1
	end := strings.IndexByte(output[loc[0]:], '\n')
	if end < 0 {
		end = len(output)
	} else {
		end += loc[0]
	}
	return Clip(strings.TrimSpace(output[start:end]), 160)
}

// errorLine picks the most telling line of a failing command's output: the last line
// that mentions an error, else the last non-empty line.
func errorLine(output string) string {
	if ms := reErrorLine.FindAllString(output, -1); len(ms) > 0 {
		return Clip(strings.TrimSpace(ms[len(ms)-1]), 160)
	}
	lines := strings.Split(strings.TrimSpace(output), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" {
			return Clip(s, 160)
		}
	}
	return "no output"
}

// runtimeSummary is the exception line of a traceback or the panic message.
func runtimeSummary(output string) string {
	lines := strings.Split(strings.TrimSpace(output), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "panic: ") {
			return Clip(strings.TrimSpace(l), 160)
		}
	}
	if strings.Contains(output, "Traceback (most recent call last):") {
		for i := len(lines) - 1; i >= 0; i-- {
			l := strings.TrimSpace(lines[i])
			if l != "" && !strings.HasPrefix(lines[i], " ") {
				return Clip(l, 160)
			}
		}
	}
	return errorLine(output)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return Clip(s, 100)
}

func firstWord(s string) string {
	f := strings.Fields(s)
	for _, w := range f {
		if strings.Contains(w, "=") && !strings.HasPrefix(w, "-") { // FOO=bar cmd
			continue
		}
		if w == "sudo" || w == "env" || w == "exec" {
			continue
		}
		return w
	}
	return s
}
