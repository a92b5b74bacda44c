package none

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// reANSI: a terminal escape sequence (colour, cursor movement).
var reANSI = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

func combine(stdout, stderr string) string {
	// colours a program prints anyway (mkdocs' WARNING) are not text to compare or quote
	stdout, stderr = reANSI.ReplaceAllString(stdout, ""), reANSI.ReplaceAllString(stderr, "")
	stdout, stderr = strings.TrimRight(stdout, "\n"), strings.TrimRight(stderr, "\n")
	switch {
	case stdout == "":
		return stderr
	case stderr == "":
		return stdout
	}
	return stdout + "\n" + stderr
}

// tail keeps the end of s, at most n bytes, without splitting a UTF-8 sequence.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8Start(s[i]) {
		i++
	}
	return "…" + s[i:]
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

var (
	reProgress  = regexp.MustCompile(`^\s*(?:\d+(?:\.\d+)?%|[#=>.\s]{8,}|\d+\s+\d+\s+\d+\s+\d+|  % Total)|\r`)
	reErrorLine = regexp.MustCompile(`(?i)\b(error|fatal|failed|failure|cannot|can't|could not|couldn't|unable|not found|no such|does not exist|doesn't exist|denied|refused|invalid|unknown|missing|not installed|unbound|undefined|undeclared|not defined|unresolved|panic|exception|traceback|extra argument|unrecognized)\b|\w(?:Error|Exception)\b`)
)

// reNoise: lines package managers print on every run that say nothing about a failure.
// reSummaryError: a tool's closing line that only says the real error came before it
// (a compiler driver's "Error: /usr/bin/ppcx64 returned an error exitcode").
var reSummaryError = regexp.MustCompile(`(?i)^error: failed to push some refs|^error: called from$|error is not recoverable: exiting now|^traceback \(most recent call last\)|^fatal: the remote end hung up|(?:^|\] )aborting\.?$|^error: could not compile|^make: \*\*\* .*error \d+|^npm err! a complete log|^\(?warnings? treated as errors?\b|^\d+ (?:errors?|warnings?)(?: generated)?\.?$|^\S+\s+: ok=\d+ |returned an error exit ?code|\breturned \d+ exit status|^(?:fatal: )?compilation (?:aborted|terminated)\.?$|\bthere were \d+ errors\b|\bdue to (?:\w+ )?errors\.?$|^compilation failed: \d+ error\(s\)|^(?:build|render|compilation|link) failed\.?$|^fatal error in parser: cannot parse input\.?$|unrecoverable error, exit code \d+$`)

var reNoise = regexp.MustCompile(`^(?:.*\(Location of the symbol related to previous (?:error|warning)\)$|error: ignoring const execution_exception& while preparing to exit|debconf: |dpkg-preconfigure: |WARNING: apt does not have a stable CLI|\(Reading database|Reading package lists|Building dependency tree|Reading state information|Try '[\w.+-]+ --help'|(?:Run|See|Try) '[\w.+ -]+ (?:--help|-h|help)' for|\((?:See|Use|Run|Try)\b[^()]*\)$|Tasks: TOP =>|Run with --(?:stacktrace|info|debug|scan)\b|For more information,? try\b)`)

// keyLine is the most informative line of a command's output: the last line that reads
// like an error, else the last line that is not a progress meter; without the time stamp
// and process tag a log line starts with, which differ from run to run.
func keyLine(output string) string {
	return reLogStamp.ReplaceAllString(mostInformative(output), "")
}

// reLogStamp: the time stamp, and the logger's name and pid, a log line opens with
// (fail2ban 1.0: "2026-03-02 08:16:02,118 fail2ban                [1136]: ERROR   …").
var reLogStamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s+(?:[\w.-]+\s*\[\d+\]:\s+)?`)

func mostInformative(output string) string {
	lines := strings.Split(strings.TrimSpace(output), "\n")
	if strings.Contains(output, "Traceback (most recent call last)") {
		// a Python traceback ends in the exception that says what failed, whatever the
		// program prints after it (borg's platform report: "Linux: Unknown Linux")
		for i := len(lines) - 1; i >= 0; i-- {
			if l := strings.TrimSpace(lines[i]); reRaised.MatchString(l) {
				return loop.Clip(l, 240)
			}
		}
	}
	for i, l := range lines {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "Debugger entered--Lisp error: ") {
			return loop.Clip(l, 240) // Emacs in batch mode: the error opens the frames
		}
		if i > 0 && reTraceHeader.MatchString(l) {
			// "Error: unbound variable: x", then "Call history:" and the frames, which
			// name the interpreter's internals ("(##core#undefined)"): the error is above
			if k := keyLine(strings.Join(lines[:i], "\n")); k != "" {
				return k
			}
			break
		}
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); reCurlError.MatchString(l) {
			// curl's one error line, before its advice ("curl failed to verify the
			// legitimacy of the server and therefore could not …")
			return loop.Clip(l, 240)
		}
	}
	if first := firstOfOneProgram(lines); first != "" {
		return first
	}
	// a line a log tags as tracing or information ("[trace] … 500 Internal Server
	// Error") counts only when no line tagged as an error says more
	for _, pass := range []struct{ summary, quiet bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		for i := len(lines) - 1; i >= 0; i-- {
			l := strings.TrimSpace(lines[i])
			if l != "" && (reErrorLine.MatchString(l) || reStarsError.MatchString(l)) && !reProgress.MatchString(lines[i]) && !reNoise.MatchString(l) &&
				reSummaryError.MatchString(l) == pass.summary && reQuietLevel.MatchString(l) == pass.quiet {
				return loop.Clip(l, 240)
			}
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && !reProgress.MatchString(lines[i]) && !reNoise.MatchString(l) {
			return loop.Clip(l, 240)
		}
	}
	return ""
}

// reQuietLevel: a log line tagged as tracing, debugging or information.
var reQuietLevel = regexp.MustCompile(`\[(?:trace|debug|info|notice)\]|\b(?:TRACE|DEBUG|INFO)\b`)

// tail1 is fields without the first (the program), empty when there is none.
func tail1(fields []string) []string {
	return fields[min(1, len(fields)):]
}

// nonEmpty is ss without its empty strings.
func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// firstOfOneProgram: when every error line comes from one program by name
// ("convert-im6.q16: attempt to perform an operation not allowed by the security policy
// `@blurb.txt'", then "convert-im6.q16: no images defined `para.png'"), the first says
// why and the rest follow from it ("" otherwise).
func firstOfOneProgram(lines []string) string {
	var errs []string
	prog := ""
	for _, raw := range lines {
		l := strings.TrimSpace(raw)
		if l == "" || !reErrorLine.MatchString(l) || reProgress.MatchString(raw) || reNoise.MatchString(l) || reSummaryError.MatchString(l) {
			continue
		}
		m := reProgramPrefix.FindStringSubmatch(l)
		if m == nil || prog != "" && m[1] != prog {
			return ""
		}
		prog = m[1]
		errs = append(errs, l)
	}
	if len(errs) < 2 {
		return ""
	}
	return loop.Clip(errs[0], 240)
}

// reProgramPrefix: a message that starts with the program's name and a colon, not a
// file and line (`main.c:3:`) nor a level (`ERROR:`).
var reProgramPrefix = regexp.MustCompile(`^([a-z][\w.+-]*[a-z0-9]): (?:[^\d]|$)`)

// reTraceHeader: the line that opens a list of frames printed after the error (CHICKEN's
// "Call history:", Lua's "stack traceback:", "Backtrace:").
var reTraceHeader = regexp.MustCompile(`(?i)^\s*(?:call history|stack traceback|backtrace|stack trace|call stack)\s*:\s*$`)

// reRaised: the exception line that ends a Python traceback.
var reRaised = regexp.MustCompile(`(?m)^\w+(?:\.\w+)*(?:Error|Exception): .+$`)
