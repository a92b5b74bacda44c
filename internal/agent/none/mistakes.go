package none

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// Shell mistakes a newcomer copies from a page and that the error names plainly once one
// knows the shell: each is found by the command and what it printed, and fixed on the
// line itself.

// reSpacedAssign: an assignment written with spaces around `=` (`DIR = "$HOME/x"`, `export
// DIR = x`): bash runs DIR as a command, or export sees `=` as a name.
var reSpacedAssign = regexp.MustCompile(`^\s*(export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s+=\s*(\S.*)?$`)

// reSpacedAssignError: what bash says of it.
var reSpacedAssignError = regexp.MustCompile(`command not found|not a valid identifier`)

// reFindUnquoted: find told a pattern the shell expanded first (bookworm's findutils 4.9
// says "paths must precede expression" and "possible unquoted pattern after predicate").
var reFindUnquoted = regexp.MustCompile(`paths must precede expression|possible unquoted pattern`)

// reFindGlob: find's name test with an unquoted glob.
var reFindGlob = regexp.MustCompile(`(-i?name|-i?path|-i?wholename)\s+([^\s'"\\]*[*?\[][^\s'"]*)`)

// reShCDollarOne: `sh -c '… $1 …'` given its arguments with nothing for $0 (`sh -c '…'
// {}`, or xargs appending them): the first becomes $0 and $1 is empty.
var reShCDollarOne = regexp.MustCompile(`\b((?:ba|da)?sh\s+-c\s+('[^']*\$\{?1[^']*'|"[^"]*\$\{?1[^"]*"))(\s+\{\}|\s*(?:\\?;|\+|\||$))`)

// reOctal: bash reading a number with a leading zero as octal.
var reOctal = regexp.MustCompile(`value too great for base \(error token is "(0[0-9]+)"\)`)

// reCompressInPlace: a compressor that replaces its input by the compressed file unless
// told to keep it: the program and the file.
var reCompressInPlace = regexp.MustCompile(`^\s*(gzip|bzip2|xz|lzip|plzip|lzma|zstd\s+--rm|pigz)\s+((?:-[A-Za-z0-9]+\s+)*)([^\s|<>;&-][^\s|<>;&]*)\s*$`)

// reKeepsInput: a compressor's options that keep the input (-k), write to standard output
// (-c), decompress (-d) or only test (-t).
var reKeepsInput = regexp.MustCompile(`-\w*[kcdt]`)

// reShadowedModule: Python importing the script's own file for a module of its library.
var reShadowedModule = regexp.MustCompile(`partially initialized module '([A-Za-z_][A-Za-z0-9_]*)'|module '([A-Za-z_][A-Za-z0-9_]*)' has no attribute`)

// reMakeUpToDate: make finding its goal up to date (a folder of that name, with no rule
// saying the target is not a file).
var reMakeUpToDate = regexp.MustCompile(`make: '([^']+)' is up to date\.`)

// shellMistake: a finding for a mistake of the shell's own rules that rec's command and
// output show (false when none).
func (ss *session) shellMistake(ctx context.Context, rec loop.CommandRecord, output string) (loop.Finding, bool) {
	cmd := strings.TrimSpace(rec.Command)
	one := !strings.Contains(cmd, "\n")
	if m := reSpacedAssign.FindStringSubmatch(cmd); one && m != nil && reSpacedAssignError.MatchString(output) {
		fixed := m[1] + m[2] + "=" + m[3]
		return loop.Finding{
			Problem:  fmt.Sprintf("%s; a shell assignment takes no spaces around `=`: with them, bash reads `%s` as a command (or, after `export`, `=` as a name), and `%s` is never set", failureProblem(rec, output), m[2], m[2]),
			Fix:      fmt.Sprintf("write it without spaces at line %d: `%s`", rec.Line, fixed),
			Edit:     &loop.Edit{Replace: fixed},
			Category: "command failure",
		}, true
	}
	if m := reFindGlob.FindStringSubmatchIndex(cmd); one && m != nil && reFindUnquoted.MatchString(output) {
		glob := cmd[m[4]:m[5]]
		fixed := cmd[:m[4]] + "'" + glob + "'" + cmd[m[5]:]
		return loop.Finding{
			Problem:  fmt.Sprintf("%s; `%s` is not quoted, so the shell expands it to the matching files of the current folder before find sees it", failureProblem(rec, output), glob),
			Fix:      fmt.Sprintf("quote the pattern at line %d: `%s`", rec.Line, fixed),
			Edit:     &loop.Edit{Replace: fixed},
			Category: "command failure",
		}, true
	}
	if m := reShCDollarOne.FindStringSubmatchIndex(cmd); one && m != nil && reEmptyQuoted.MatchString(output) {
		fixed := cmd[:m[3]] + " sh" + cmd[m[3]:]
		return loop.Finding{
			Problem:  fmt.Sprintf("%s; with `sh -c 'script' arg`, the first argument after the script is `$0`, not `$1`, so `$1` is empty", failureProblem(rec, output)),
			Fix:      fmt.Sprintf("give `$0` a name before the arguments at line %d: `%s`", rec.Line, fixed),
			Edit:     &loop.Edit{Replace: fixed},
			Category: "command failure",
		}, true
	}
	if m := reOctal.FindStringSubmatch(output); m != nil {
		return loop.Finding{
			Problem:  fmt.Sprintf("%s; bash arithmetic reads a number with a leading zero (`%s`) as octal, where 8 and 9 are not digits", failureProblem(rec, output), m[1]),
			Fix:      "strip the leading zero before the arithmetic, or force base ten: `$((10#$n + 1))`",
			Category: "command failure",
		}, true
	}
	if file, at, prog := ss.compressedAway(ctx, rec, output); file != "" {
		return loop.Finding{
			Problem:  fmt.Sprintf("%s; `%s` is gone: line %d compressed it with `%s`, which replaces the file by the compressed one unless told to keep it", failureProblem(rec, output), file, at, prog),
			Fix:      fmt.Sprintf("keep the original at line %d (`%s -k …`), or read the compressed file here", at, prog),
			Category: "command failure",
		}, true
	}
	if m := reShadowedModule.FindStringSubmatch(output); m != nil {
		mod := m[1] + m[2]
		for _, w := range strings.Fields(cmd) {
			if strings.HasSuffix(w, ".py") && strings.TrimSuffix(path.Base(w), ".py") == mod {
				return loop.Finding{
					Problem:  fmt.Sprintf("%s; the script is named `%s`, so Python puts its folder first on the module path and `import %s` loads the script itself instead of the library's `%s`", failureProblem(rec, output), path.Base(w), mod, mod),
					Fix:      fmt.Sprintf("give the script a name no module has (for example `%s_tool.py`) and run that at line %d", mod, rec.Line),
					Category: "command failure",
				}, true
			}
		}
	}
	if m := reMakeUpToDate.FindStringSubmatch(output); m != nil && ss.task.Sandbox != nil {
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && [ -d " + shellQuote(m[1]) + " ] && ! grep -Eq '^\\.PHONY:.*\\b" + regexp.QuoteMeta(m[1]) + "\\b' Makefile makefile GNUmakefile 2>/dev/null", Timeout: 10 * time.Second, User: rootUser})
		if err == nil && r.ExitCode == 0 {
			return loop.Finding{
				Problem:  fmt.Sprintf("`%s` (line %d) runs nothing: make says `%s` is up to date, because a folder named `%s` exists and the Makefile never declares the target `.PHONY`, so make takes the folder for the target", firstLine(rec.Command), rec.Line, m[1], m[1]),
				Fix:      fmt.Sprintf("add `.PHONY: %s` to the Makefile", m[1]),
				Category: "command failure",
			}, true
		}
	}
	return loop.Finding{}, false
}

// compressedAway: the file the failed command misses was compressed in place by an
// earlier step: the file, that step's line and its program ("" when not so).
func (ss *session) compressedAway(ctx context.Context, rec loop.CommandRecord, output string) (string, int, string) {
	if !reNotThere.MatchString(output) {
		return "", 0, ""
	}
	for k := len(ss.res.Commands) - 1; k >= 0; k-- {
		c := ss.res.Commands[k]
		if c.Line >= rec.Line || c.ExitCode != 0 {
			continue
		}
		for _, part := range splitList(c.Command) {
			m := reCompressInPlace.FindStringSubmatch(part)
			if m == nil || reKeepsInput.MatchString(m[2]) || !strings.Contains(output, path.Base(m[3])) {
				continue
			}
			if !slices.ContainsFunc(strings.Fields(rec.Command), func(w string) bool { return path.Base(strings.Trim(w, `"'<>`)) == path.Base(m[3]) }) && !namesArg(output, path.Base(m[3])) {
				continue
			}
			return m[3], c.Line, firstWord(m[1])
		}
	}
	return "", 0, ""
}
