package none

import (
	"context"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// A ranScript is a script the tutorial wrote that an earlier step ran as a program (`./env.sh`,
// `sh publish.sh`): in a process of its own, so what it changes in its shell (variables,
// the folder, the umask) ends with it.
type ranScript struct {
	line    int    // the line of the step that ran it
	name    string // the script as that step names it
	file    string // where the tutorial wrote it (absolute)
	content string
}

// scriptsRun: the scripts the tutorial wrote that steps before line ran as programs, and
// that worked, in order.
func (ss *session) scriptsRun(line int) []ranScript {
	var out []ranScript
	for _, c := range ss.res.Commands {
		if c.Line >= line || c.ExitCode != 0 {
			continue
		}
		for _, part := range splitList(c.Command) {
			w := strings.Fields(strings.TrimPrefix(strings.TrimSpace(part), "!"))
			if len(w) > 0 && w[0] == "sudo" {
				w = w[1:]
			}
			if len(w) == 0 {
				continue
			}
			script := w[0]
			if (script == "sh" || script == "bash" || script == "mksh" || script == "dash" || script == "ksh" || script == "zsh") && len(w) > 1 {
				script = w[1]
			} else if !strings.HasPrefix(script, "./") && !strings.HasPrefix(script, "/") && !strings.HasPrefix(script, "~/") {
				continue
			}
			for _, p := range slices.Sorted(maps.Keys(ss.written)) {
				if path.Base(p) == path.Base(script) {
					out = append(out, ranScript{line: c.Line, name: script, file: p, content: ss.written[p]})
					break
				}
			}
		}
	}
	return out
}

// exportsLost: the failure names a variable unset that a script the tutorial wrote sets,
// and an earlier step ran that script as a program rather than sourcing it: the variable,
// that step's line and the script.
func (ss *session) exportsLost(rec loop.CommandRecord, output string) (string, int, string) {
	m := reUnsetName.FindStringSubmatch(output)
	if m == nil {
		return "", 0, ""
	}
	sets := regexp.MustCompile(`(?m)^\s*(?:export\s+)?` + m[1] + `=`)
	for _, sc := range ss.scriptsRun(rec.Line) {
		if sets.MatchString(sc.content) {
			return m[1], sc.line, sc.name
		}
	}
	return "", 0, ""
}

// reScriptCd: a `cd` to a folder at the top level of a script (not in a subshell or a
// function's braces on the same line): `cd /srv/x || exit 1`.
var reScriptCd = regexp.MustCompile(`(?m)^[ \t]*cd[ \t]+("[^"\n]+"|'[^'\n]+'|[^\s;&|()]+)`)

// cdLost: a relative file the failed command needs is not in the reader's folder but in
// the one a script an earlier step ran changes to: the script's `cd` moved only its own
// process. Returns the file, that folder and the script ("" when none).
func (ss *session) cdLost(ctx context.Context, rec loop.CommandRecord, output string) (string, string, ranScript) {
	if !reNotThere.MatchString(output) || ss.task.Sandbox == nil {
		return "", "", ranScript{}
	}
	var names []string
	for k, f := range strings.Fields(rec.Command) {
		f = strings.Trim(f, `"'`)
		if k == 0 || strings.HasPrefix(f, "-") || strings.HasPrefix(f, "/") || strings.HasPrefix(f, "~") || strings.HasPrefix(f, "$") || !looksLikePath(f) || !namesArg(output, path.Base(f)) {
			continue
		}
		names = append(names, f)
	}
	if len(names) == 0 {
		return "", "", ranScript{}
	}
	scripts := ss.scriptsRun(rec.Line)
	for i := len(scripts) - 1; i >= 0; i-- {
		sc := scripts[i]
		for _, m := range reScriptCd.FindAllStringSubmatch(sc.content, -1) {
			dir := strings.Trim(m[1], `"'`)
			for _, h := range []string{"$HOME", "${HOME}"} {
				if rest, ok := strings.CutPrefix(dir, h); ok {
					dir = "~" + rest
				}
			}
			if !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "~/") || strings.ContainsAny(dir, "$`*") {
				continue // (a folder relative to where it ran, or one it computes)
			}
			dir = ss.abs(dir)
			if dir == ss.cwd {
				continue
			}
			for _, n := range names {
				r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "[ ! -e " + shellQuote(path.Join(ss.cwd, n)) + " ] && [ -e " + shellQuote(path.Join(dir, n)) + " ]", Timeout: 10 * time.Second, User: rootUser})
				if err == nil && r.ExitCode == 0 {
					return n, dir, sc
				}
			}
		}
	}
	return "", "", ranScript{}
}

// reUmask: a umask the tutorial sets (in a script or at the prompt) that takes the
// others' read permission away.
var reUmask = regexp.MustCompile(`(?m)^[ \t]*umask[ \t]+(0?[0-7][0-7][4-7])\b`)

// reAsOtherUser: a command run as another user than the reader (`sudo -u www-data …`).
var reAsOtherUser = regexp.MustCompile(`\b(?:sudo\s+(?:-\S+\s+)*-u\s*|runuser\s+(?:-\S+\s+)*-u\s+|su\s+-s\s+\S+\s+)([a-z_][a-z0-9_-]*)\b`)

// unreadable is a file another user cannot read because the mask a script or step set
// when it was made keeps everyone else out.
type unreadable struct {
	file, user, mode string
	umask            string // the mask
	at               int    // the line that set it (the step running the script)
	where            string // the script that set it ("" at the prompt)
}

// maskedFromOthers: the failed command runs as another user, who may not read a file the
// reader made while a umask the tutorial set (such as 077) kept it private.
func (ss *session) maskedFromOthers(ctx context.Context, rec loop.CommandRecord, output string) (unreadable, bool) {
	u := reAsOtherUser.FindStringSubmatch(rec.Command)
	d := deniedFile(output)
	if u == nil || d == "" || ss.task.Sandbox == nil || u[1] == "root" {
		return unreadable{}, false
	}
	file := ss.abs(d)
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "stat -c '%U %A' " + shellQuote(file), Timeout: 10 * time.Second, User: rootUser})
	if err != nil || r.ExitCode != 0 {
		return unreadable{}, false
	}
	owner, mode, _ := strings.Cut(strings.TrimSpace(r.Stdout), " ")
	if owner != ss.user || len(mode) != 10 || mode[7] == 'r' {
		return unreadable{}, false
	}
	x := unreadable{file: file, user: u[1], mode: mode}
	for _, sc := range ss.scriptsRun(rec.Line) {
		if m := reUmask.FindStringSubmatch(sc.content); m != nil {
			x.umask, x.at, x.where = m[1], sc.line, sc.name
		}
	}
	for _, c := range ss.res.Commands {
		if m := reUmask.FindStringSubmatch(c.Command); m != nil && c.Line < rec.Line && c.Line > x.at {
			x.umask, x.at, x.where = m[1], c.Line, ""
		}
	}
	return x, x.umask != ""
}

// explain: the problem and fix of a file kept from another user by a umask.
func (x unreadable) explain(rec loop.CommandRecord, f *loop.Finding) {
	set := fmt.Sprintf("line %d sets `umask %s`", x.at, x.umask)
	if x.where != "" {
		set = fmt.Sprintf("`%s` (run at line %d) sets `umask %s`", x.where, x.at, x.umask)
	}
	f.Problem = fmt.Sprintf("%s; `%s` is `%s`: %s, which applies to every file made after it, so the file is private to the reader and `%s` cannot read it", f.Problem, x.file, x.mode, set, x.user)
	f.Fix = fmt.Sprintf("make the file readable before line %d (`chmod 644 %s`), or keep the umask off that file (set it only where the private files are written)", rec.Line, x.file)
	f.Edit = &loop.Edit{InsertBefore: []string{"chmod 644 " + shellQuote(x.file)}}
	f.Category = "missing step"
}

// reRcAppend: a line appended to a shell's start-up file (`… >> ~/.bashrc`), and the file.
var reRcAppend = regexp.MustCompile(`(?:>>|\btee\s+-a)\s*["']?((?:~|\$HOME|\$\{HOME\})/\.(?:bashrc|bash_profile|profile|zshrc|kshrc|mkshrc))\b`)

// reRcSourced: a step that reads a start-up file again (or starts a new login shell).
var reRcSourced = regexp.MustCompile(`(?:^|[;&|]\s*)(?:source|\.)\s+\S*\.(?:bashrc|bash_profile|profile|zshrc|kshrc|mkshrc)\b|\bexec\s+(?:bash|\$SHELL)\b`)

// rcPathLine: a step before line appended to a start-up file a PATH line that names dir,
// and no step read that file again since: that step's line and the file as it names it
// (0 when none).
func (ss *session) rcPathLine(dir string, line int) (int, string) {
	at, rc := 0, ""
	for _, c := range ss.res.Commands {
		if c.Line >= line {
			continue
		}
		if m := reRcAppend.FindStringSubmatch(c.Command); m != nil && strings.Contains(c.Command, "PATH") && c.ExitCode == 0 {
			rel := strings.TrimPrefix(dir, ss.home)
			if rel != dir && (strings.Contains(c.Command, "$HOME"+rel) || strings.Contains(c.Command, "${HOME}"+rel) || strings.Contains(c.Command, "~"+rel)) || strings.Contains(c.Command, dir) {
				at, rc = c.Line, strings.NewReplacer("${HOME}", "~", "$HOME", "~").Replace(m[1])
			}
		} else if at > 0 && reRcSourced.MatchString(c.Command) {
			at = 0
		}
	}
	return at, rc
}

// A dangling link is a symbolic link the failed command reads whose target does not
// exist, while the target does exist relative to the folder the link was made from: `ln
// -s logs/2024-03.log logs/current.log` stores `logs/2024-03.log`, which is resolved from
// `logs/`, the link's own folder.
type dangling struct {
	link, target string // as the command names the link; the target as stored
	fixed        string // the target relative to the link's folder
	at           int    // the line that made the link (0 when not found)
}

// danglingLink: a file the failed command names is a link whose relative target was
// given from the reader's folder instead of the link's (ok false when not so).
func (ss *session) danglingLink(ctx context.Context, rec loop.CommandRecord, output string) (dangling, bool) {
	if ss.task.Sandbox == nil {
		return dangling{}, false
	}
	var links []string
	for _, w := range strings.Fields(rec.Command) {
		// a file the command names and the error says is not there
		w = strings.Trim(strings.TrimLeft(w, "<>"), `"'`)
		if w != "" && !strings.HasPrefix(w, "-") && strings.Contains(w, "/") && reNotThere.MatchString(output) && namesArg(output, w) {
			links = append(links, w)
		}
	}
	for _, c := range ss.res.Commands {
		// or a link the steps right before made, which the program reads by itself
		// (newsboat's ~/.newsboat/urls)
		if m := reSymlink.FindStringSubmatch(c.Command); m != nil && c.Line < rec.Line && c.Line >= rec.Line-10 && c.ExitCode == 0 {
			links = append(links, m[2])
		}
	}
	for _, w := range links {
		link := ss.abs(w)
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "[ -L " + shellQuote(link) + " ] && [ ! -e " + shellQuote(link) + " ] && readlink " + shellQuote(link), Timeout: 10 * time.Second, User: rootUser})
		if err != nil || r.ExitCode != 0 {
			continue
		}
		target := strings.TrimSpace(r.Stdout)
		if target == "" || path.IsAbs(target) {
			continue
		}
		// where the reader meant it: the target read from their own folder
		meant := path.Join(ss.cwd, target)
		if c, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "[ -e " + shellQuote(meant) + " ]", Timeout: 10 * time.Second, User: rootUser}); err != nil || c.ExitCode != 0 {
			continue
		}
		rel, err := relPath(path.Dir(link), meant)
		if err != nil {
			continue
		}
		d := dangling{link: w, target: target, fixed: rel}
		for _, c := range ss.res.Commands {
			if c.Line <= rec.Line && reLnCommand.MatchString(c.Command) && strings.Contains(c.Command, target) {
				d.at = c.Line
			}
		}
		return d, true
	}
	return dangling{}, false
}

// reSymlink: `ln -s TARGET LINK` on its own: the target and the link.
var reSymlink = regexp.MustCompile(`^\s*ln\s+(?:-[a-zA-Z]*s[a-zA-Z]*\s+)(?:-\S+\s+)*(\S+)\s+(\S+)\s*$`)

// reLnCommand: a command that runs ln.
var reLnCommand = regexp.MustCompile(`\bln\s`)

// relPath is target relative to the folder dir (both absolute, cleaned).
func relPath(dir, target string) (string, error) {
	d, t := strings.Split(strings.Trim(dir, "/"), "/"), strings.Split(strings.Trim(target, "/"), "/")
	k := 0
	for k < len(d) && k < len(t) && d[k] == t[k] {
		k++
	}
	if k == 0 {
		return "", fmt.Errorf("%s and %s share no folder", dir, target)
	}
	up := strings.Repeat("../", len(d)-k)
	return up + strings.Join(t[k:], "/"), nil
}

// explain: the problem and fix of a dangling link.
func (d dangling) explain(rec loop.CommandRecord, f *loop.Finding) {
	made := "the link"
	if d.at > 0 {
		made = fmt.Sprintf("the link line %d made", d.at)
	}
	f.Problem = fmt.Sprintf("%s; `%s` is a symbolic link to `%s`, which does not exist: %s stores the relative target as written, and a relative target is resolved from the link's own folder, not from the folder the reader was in", f.Problem, d.link, d.target, made)
	f.Fix = fmt.Sprintf("give the target relative to the link's folder (`ln -sf %s %s`), or an absolute one", d.fixed, d.link)
	f.Edit = &loop.Edit{InsertBefore: []string{"ln -sf " + shellQuote(d.fixed) + " " + shellQuote(d.link)}}
	f.Category = "command failure"
	if d.at > 0 && d.at != rec.Line {
		f.Fix += fmt.Sprintf(" at line %d", d.at)
	}
}

// reEnvMissing: an error that names an environment variable the program did not get:
// the shells' "NAME: not set" (and a `${NAME:?message}`'s own words), Tcl's
// `env(NAME)`, Python's KeyError, Perl's `$ENV{NAME}`.
var reEnvMissing = regexp.MustCompile(`\b([A-Z_][A-Z0-9_]*): (?:[^\n]*\bnot set\b|unbound variable|parameter null)|\benv\(([A-Z_][A-Z0-9_]*)\)|KeyError: '([A-Z_][A-Z0-9_]*)'|\$ENV\{([A-Z_][A-Z0-9_]*)\}`)

// reSudoKeepsEnv: sudo told to keep the caller's environment, or given the variable.
var reSudoKeepsEnv = regexp.MustCompile(`\bsudo\s+(?:-\S*\s+)*(?:-[a-zA-Z]*E\b|--preserve-env\b|[A-Z_][A-Z0-9_]*=)`)

// reSudoLead: a command line that starts with sudo, and what follows it.
var reSudoLead = regexp.MustCompile(`^\s*sudo\s+(.+)$`)

// sudoDropped: the failed command runs with sudo and misses a variable the reader's shell
// exports, which sudo's env_reset keeps from it: the variable ("" when not so).
func (ss *session) sudoDropped(ctx context.Context, rec loop.CommandRecord, output string) string {
	if ss.task.Sandbox == nil || strings.Contains(strings.TrimSpace(rec.Command), "\n") || !reSudoLead.MatchString(rec.Command) || reSudoKeepsEnv.MatchString(rec.Command) {
		return ""
	}
	m := reEnvMissing.FindStringSubmatch(output)
	if m == nil {
		return ""
	}
	name := m[1] + m[2] + m[3] + m[4]
	r, err := ss.task.Sandbox.Exec(ctx, ss.request(`export -p | grep -q '^declare -x `+name+`='`, false, 10*time.Second))
	if err != nil || r.ExitCode != 0 {
		return ""
	}
	return name
}
