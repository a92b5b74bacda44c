package none

// Hints name the real cause of a failure by looking at the container: the branch a
// repository really has, the virtual environment that exists, the project directory a
// tool was run outside of, a file with a similar name, a tool's known error.

import (
	"context"
	"fmt"
	"github.com/agnivade/levenshtein"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

var reGitRef = regexp.MustCompile(`(?i)invalid reference|src refspec \S+ does not match any|did not match any file|pathspec '[^']*' did not match|not a valid (?:object|branch) name|couldn't find remote ref`)

// gitHint names the branch a repository really has when a git command could not find
// the one the tutorial names ("" when not applicable).
func (ss *session) gitHint(ctx context.Context, rec loop.CommandRecord, output string) string {
	f := strings.Fields(rec.Command)
	if len(f) == 0 || !(f[0] == "git" || len(f) > 1 && f[1] == "git") || !reGitRef.MatchString(output) {
		return "" // git itself, or a tool's own `git` subcommand (`pass git push`)
	}
	def, _ := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "git config --get init.defaultBranch || echo master", Timeout: 10 * time.Second, User: ss.user})
	first := firstNonEmpty(strings.TrimSpace(def.Stdout), "master")
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && { git branch --format='%(refname:short)' 2>/dev/null | head -5; git symbolic-ref --short HEAD 2>/dev/null; } | sort -u", Timeout: 10 * time.Second, User: ss.user})
	if f[0] != "git" || err != nil || r.ExitCode != 0 || strings.TrimSpace(r.Stdout) == "" {
		// the repository is the tool's own (pass keeps its store elsewhere)
		return fmt.Sprintf("no such branch: on this Git, `git init` names the first branch `%s`", first)
	}
	branches := strings.Fields(r.Stdout)
	return fmt.Sprintf("no such branch: on this Git, `git init` names the first branch `%s` (branches now: `%s`)", first, strings.Join(branches, "`, `"))
}

// onDisk looks for a command in the directories installers put binaries in.
func (ss *session) onDisk(ctx context.Context, name string) string {
	var dirs []string
	for _, d := range []string{"$HOME/.local/bin", "$HOME/bin", "$HOME/.cargo/bin", "$HOME/go/bin", "/usr/local/go/bin", "$HOME/.deno/bin", "$HOME/.bun/bin", "$HOME/.npm-global/bin", "/usr/local/bin"} {
		dirs = append(dirs, d+"/"+name)
	}
	// a versioned directory of its own (Debian's /usr/lib/postgresql/15/bin)
	dirs = append(dirs, "/usr/lib/*/bin/"+name, "/usr/lib/*/*/bin/"+name, "/opt/*/bin/"+name)
	// root's program folders, which a Debian user's PATH leaves out
	dirs = append(dirs, "/usr/local/sbin/"+name, "/usr/sbin/"+name, "/sbin/"+name)
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "for f in " + strings.Join(dirs, " ") + "; do [ -x \"$f\" ] && { echo \"$f\"; break; }; done; true", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return ""
	}
	return strings.TrimSpace(r.Stdout)
}

// deadPathEntry is a directory the session's PATH names that does not exist, beside the
// directory the program is really in (/usr/lib/postgresql/16/bin when it is in …/15/bin).
func (ss *session) deadPathEntry(ctx context.Context, found string) string {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: script(`IFS=:; for d in $PATH; do [ -n "$d" ] && [ ! -d "$d" ] && echo "$d"; done; true`), Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return ""
	}
	home := path.Dir(path.Dir(path.Dir(found))) // /usr/lib/postgresql
	for _, d := range strings.Fields(r.Stdout) {
		if path.Base(d) == "bin" && path.Dir(path.Dir(d)) == home {
			return d
		}
	}
	return ""
}

var reActivate = regexp.MustCompile(`([\w./~-]*)/bin/activate: No such file`)

// venvHint names the virtual environments that exist when a tutorial activates one
// that does not ("" when not applicable).
func (ss *session) venvHint(ctx context.Context, output string) string {
	m := reActivate.FindStringSubmatch(output)
	if m == nil {
		return ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && ls -d */bin/activate .*/bin/activate 2>/dev/null | head -3", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || strings.TrimSpace(r.Stdout) == "" {
		return ""
	}
	var envs []string
	for _, f := range strings.Fields(r.Stdout) {
		envs = append(envs, "`"+strings.TrimSuffix(f, "/bin/activate")+"`")
	}
	return fmt.Sprintf("`%s` does not exist, but the virtual environment %s does", m[1], strings.Join(envs, ", "))
}

var reMissingPath = regexp.MustCompile(`([\w.~/-]+)(?:'|"|:)?:? (?:No such file or directory|cannot access)|cannot access '([^']+)'|can't open '?([\w./~-]+)`)

// projectFiles are the files a tool looks for in the directory it runs in.
var projectFiles = []struct {
	re   *regexp.Regexp
	file string
}{
	{regexp.MustCompile(`(?i)no rule to make target|no targets specified and no makefile found`), "Makefile"},
	{regexp.MustCompile(`(?i)could not read package\.json|enoent[^\n]*package\.json`), "package.json"},
	{regexp.MustCompile(`(?i)could not find .Cargo\.toml.`), "Cargo.toml"},
	{regexp.MustCompile(`(?i)go\.mod file not found|cannot find main module`), "go.mod"},
	{regexp.MustCompile(`(?i)no configuration file provided: not found|can't find a suitable configuration file`), "compose.yaml"},
}

// projectHint finds the project a tool was run outside of: its project file is in a
// directory below the current one ("the Makefile is in `handbook/`").
func (ss *session) projectHint(ctx context.Context, rec loop.CommandRecord, output string) (string, string) {
	for _, pf := range projectFiles {
		if !pf.re.MatchString(output) {
			continue
		}
		if ok, _ := ss.exists(ctx, path.Join(ss.cwd, pf.file)); ok {
			return "", ""
		}
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && find . -mindepth 2 -maxdepth 3 -name " + shellQuote(pf.file) + " -not -path '*/node_modules/*' 2>/dev/null | head -n 2", Timeout: 10 * time.Second, User: ss.user})
		if err != nil {
			return "", ""
		}
		found := strings.Fields(r.Stdout)
		if len(found) != 1 {
			return "", ""
		}
		dir := strings.TrimPrefix(path.Dir(found[0]), "./")
		return fmt.Sprintf("the %s is in `%s/`, but the tutorial never says `cd %s`", pf.file, dir, dir), dir
	}
	return "", ""
}

// pathHint names files next to a missing one that the reader probably meant
// (`~/.ssh/id_rsa.pub` exists where `id_ed25519.pub` does not).
func (ss *session) pathHint(ctx context.Context, output string) (hint, missing, near string) {
	m := reMissingPath.FindStringSubmatch(output)
	if m == nil {
		return "", "", ""
	}
	p := firstNonEmpty(m[1], m[2], m[3])
	ext := path.Ext(p)
	if ext == "" || len(ext) > 6 {
		return "", "", ""
	}
	dir := path.Dir(p)
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && ls -1 " + shellQuote(dir) + " 2>/dev/null | head -n 500", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || strings.TrimSpace(r.Stdout) == "" {
		return "", "", ""
	}
	var names, nears []string
	base := path.Base(p)
	best := 3 // the closest names: GPL-3 for GPL-3.0 (the same name, spelt as this system spells it), not MPL-2.0
	for _, n := range strings.Fields(r.Stdout) {
		if n == base {
			continue
		}
		d := levenshtein.ComputeDistance(n, base)
		if len(n) >= 4 && strings.HasPrefix(base, n+".") {
			d = 0 // its name without the version's last part
		}
		switch {
		case d < best:
			best, nears = d, []string{path.Join(dir, n)}
		case d == best:
			nears = append(nears, path.Join(dir, n))
		}
		if strings.HasSuffix(n, ext) && len(names) < 3 {
			names = append(names, "`"+path.Join(dir, n)+"`")
		}
	}
	if len(nears) == 1 {
		return fmt.Sprintf("`%s` does not exist, but `%s` does: this system names the file differently", p, nears[0]), p, nears[0]
	}
	if len(names) == 0 {
		return "", "", ""
	}
	return fmt.Sprintf("`%s` does not exist, but %s does: the tutorial names a different file than the steps before it create", p, strings.Join(names, ", ")), "", ""
}

// movedHint names where a missing relative path is after all, one folder down (the
// tool wrote html/ into docs/ as a setting said): the only such path below the session's
// directory.
func (ss *session) movedHint(ctx context.Context, output string) (missing, found string) {
	p := ""
	var cands []string
	for _, m := range reMissingPath.FindAllStringSubmatch(output, -1) {
		cands = append(cands, firstNonEmpty(m[1], m[2], m[3]))
	}
	if reNotThere.MatchString(output) {
		// "module path: /home/learner/wordfreq/text.rkt": a file in the session's folder,
		// named by its full path
		for _, a := range reAbsPath.FindAllString(output, 5) {
			if rel, ok := strings.CutPrefix(a, ss.cwd+"/"); ok {
				cands = append(cands, rel)
			}
		}
	}
	for _, c := range cands {
		c = strings.TrimPrefix(c, "./")
		if c != "" && !strings.HasPrefix(c, "/") && !strings.HasPrefix(c, "~") && !strings.ContainsAny(c, "*?[") && (strings.Contains(c, "/") || path.Ext(c) != "") {
			p = c // the first path ("ls: cannot access 'html/index.html'" names ls first)
			break
		}
	}
	if p == "" {
		return "", ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && [ ! -e " + shellQuote(p) + " ] && find . -mindepth 2 -maxdepth 4 -path " + shellQuote("*/"+p) + " -not -path '*/node_modules/*' -not -path '*/.git/*' 2>/dev/null | head -n 2", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", ""
	}
	if f := strings.Fields(r.Stdout); len(f) == 1 {
		return p, strings.TrimPrefix(f[0], "./")
	}
	return "", ""
}

// referrer is the file the tutorial wrote that names p in its text (a module that
// requires "text.rkt"), "" when none or several do.
func (ss *session) referrer(p string) string {
	found := ""
	for f, content := range ss.written {
		if strings.Contains(content, `"`+p+`"`) || strings.Contains(content, "'"+p+"'") {
			if found != "" {
				return ""
			}
			found = f
		}
	}
	return found
}

// knownErrors are tools' own messages whose fix is known.
var knownErrors = []struct {
	re  *regexp.Regexp
	fix func(ctx context.Context, ss *session, m []string) string
}{
	{regexp.MustCompile(`Could not locate a Flask application`), func(ctx context.Context, ss *session, _ []string) string {
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && grep -l 'Flask(' *.py 2>/dev/null | head -n 2", Timeout: 10 * time.Second, User: ss.user})
		mod := "<module>"
		if err == nil {
			if f := strings.Fields(r.Stdout); len(f) == 1 {
				mod = strings.TrimSuffix(f[0], ".py")
			}
		}
		return fmt.Sprintf("`flask run` only finds app.py or wsgi.py by itself: run `flask --app %s run …` (or export FLASK_APP=%s)", mod, mod)
	}},
	// Octave 7's graphics_toolkit.m: "graphics_toolkit: qt toolkit is not available"
	{regexp.MustCompile(`graphics_toolkit: (\w+) toolkit is not available`), func(ctx context.Context, ss *session, m []string) string {
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `octave-cli -q --eval 'disp(strjoin(available_graphics_toolkits(), " "))' 2>/dev/null`, Timeout: 60 * time.Second, User: ss.user})
		have := "the ones `available_graphics_toolkits()` lists"
		if err == nil && r.ExitCode == 0 && strings.TrimSpace(r.Stdout) != "" {
			have = "`" + strings.Join(strings.Fields(r.Stdout), "`, `") + "`"
		}
		return fmt.Sprintf("this Octave has no %s toolkit; use one it has (%s), e.g. `graphics_toolkit(\"%s\")`", m[1], have, firstNonEmpty(firstWord(strings.TrimSpace(r.Stdout)), "gnuplot"))
	}},
	// bash 5.2 on Debian 12, where a fresh system has only C.UTF-8 (and POSIX): other
	// locales need the locales package and an entry in /etc/locale.gen, built by
	// locale-gen (locales 2.36, /usr/sbin/locale-gen)
	{reLocaleRefused, func(_ context.Context, _ *session, m []string) string {
		name, charset, _ := strings.Cut(m[1], ".")
		entry := m[1] + " " + strings.ToUpper(firstNonEmpty(charset, "UTF-8"))
		if strings.EqualFold(charset, "utf8") || strings.EqualFold(charset, "utf-8") {
			entry = name + ".UTF-8 UTF-8"
		}
		return fmt.Sprintf("the system has no `%s` locale: generate it before this step (`sudo apt-get install -y locales`, then `echo '%s' | sudo tee -a /etc/locale.gen && sudo locale-gen`), or use `C.UTF-8`, which Debian always has", m[1], entry)
	}},
	// coreutils 9.1's sha256sum -c (and md5sum, sha1sum, sha512sum, b2sum): a file whose
	// checksum differs from the list's is "NAME: FAILED", then a WARNING line
	{regexp.MustCompile(`(?m)^([^\s:]+): FAILED\n(?:[^\n]*\n)*?(md5sum|sha1sum|sha224sum|sha256sum|sha384sum|sha512sum|b2sum): WARNING: \d+ computed checksums? did NOT match`), func(ctx context.Context, ss *session, m []string) string {
		fix := fmt.Sprintf("the checksum the list gives for `%s` is not the checksum of `%s` as the tutorial has it written", m[1], m[1])
		if ss.task.Sandbox == nil {
			return fix + ": correct the list (or the file)"
		}
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: m[2] + " -- " + shellQuote(m[1]), Dir: ss.cwd, Timeout: 10 * time.Second, User: ss.user})
		if sum, _, _ := strings.Cut(strings.TrimSpace(r.Stdout), " "); err == nil && r.ExitCode == 0 && sum != "" {
			return fix + fmt.Sprintf(" (%s gives `%s`): put that checksum in the list, or give the file exactly as the list was made from", m[2], sum)
		}
		return fix + ": correct the list (or the file)"
	}},
	// bash 5.2 (globstar off, the default): `**` is an ordinary `*`, so notes/**/*.md
	// reaches one folder down only, and a pattern that matches nothing stays as it is
	{regexp.MustCompile(`'?([^\s':]*\*\*/[^\s':]*)'?: No such file or directory`), func(_ context.Context, _ *session, m []string) string {
		dir, _, _ := strings.Cut(m[1], "/**")
		return fmt.Sprintf("bash reads `**` as `*` unless `shopt -s globstar` is on, so the glob `%s` matched nothing: run `shopt -s globstar` before this step, or list the files another way (`find %s -name '%s'`)", m[1], firstNonEmpty(dir, "."), path.Base(m[1]))
	}},
	// bash 5.2 under `set -u`: "$1: unbound variable" is a script run without the
	// argument it reads; entr 5.3 passes the changed file only where `/_` stands
	{regexp.MustCompile(`line \d+: \$([1-9]): unbound variable`), func(_ context.Context, ss *session, m []string) string {
		return fmt.Sprintf("the script reads its argument `$%s` under `set -u`, but is run without one: pass it (a watcher such as entr puts the changed file's name where `/_` stands: `entr ./script.sh /_`)", m[1])
	}},
	// cronie 1.6 and Debian's cron 3.0pl1 (entry.c): a field out of its range; the five
	// fields are minute, hour, day of month, month, day of week
	{regexp.MustCompile(`"[^"\n]*":\d+: bad (minute|hour|day-of-month|month|day-of-week|day of week|day of month)`), func(_ context.Context, _ *session, m []string) string {
		return fmt.Sprintf("cron refused the entry's %s: the fields are minute (0-59), hour (0-23), day of month (1-31), month (1-12) and day of week (0-7), in that order; correct that field of the line", m[1])
	}},
	// OpenSSH 9.2 (sshkey.c, sshkey_perm_ok): a private key others can read is ignored
	{regexp.MustCompile(`Permissions 0?\d+ for '([^']+)' are too open`), func(_ context.Context, _ *session, m []string) string {
		return fmt.Sprintf("ssh ignores a private key that others can read: run `chmod 600 %s` after saving it", m[1])
	}},
	// Rake 13, lib/rake/clean.rb: CLEAN and CLOBBER are defined there, not by rake itself
	{regexp.MustCompile(`uninitialized constant (CLEAN|CLOBBER)\b`), func(_ context.Context, _ *session, m []string) string {
		return fmt.Sprintf("Rake defines `%s` only once the Rakefile loads `rake/clean`: add `require \"rake/clean\"` at the top of the Rakefile", m[1])
	}},
	// quilt 0.67, quilt/refresh.in: the patch holds no change since the files were added
	{regexp.MustCompile(`Nothing in patch (\S+)`), func(_ context.Context, _ *session, m []string) string {
		return fmt.Sprintf("quilt keeps a copy of each file when `quilt add` names it and puts into %s only what changed after that: run `quilt add` on a file before changing it", m[1])
	}},
	// Express 4 (4.18.2 in Debian 12's node-express), lib/request.js: req.body is set only
	// by a body-parsing middleware, so reading a field of it throws in the route; the
	// error page escapes the quotes
	{regexp.MustCompile(`(?s)Cannot read propert(?:y|ies) of undefined \(reading (?:'|&#39;)(\w+)(?:'|&#39;)\).*?[/\\]express[/\\]lib[/\\]`), func(_ context.Context, _ *session, m []string) string {
		return fmt.Sprintf("Express leaves `req.body` undefined until a body parser runs, so reading `%s` from it fails: add `app.use(express.json());` right after `const app = express();` (and restart the server)", m[1])
	}},
	// Ghostscript 10.0 (PostScript Language Reference, 3rd ed., §8.2 `show` and the
	// `nocurrentpoint` error): text and path operators draw from the current point, which
	// `translate`, `rotate` and `newpath` do not set
	{regexp.MustCompile(`Error: /nocurrentpoint in --(\w+)--`), func(_ context.Context, _ *session, m []string) string {
		return fmt.Sprintf("PostScript's `%s` starts at the current point, and the program sets none before it (`translate` and `rotate` move the axes, not the point): add `0 0 moveto` (or `x y moveto`) right before it", m[1])
	}},
	// libxml2 2.9 (xmlschemas.c, xmlSchemaComplexTypeErr): "Element '{urn:x}customer': This
	// element is not expected. Expected is ( customer )." The schema wants the element in
	// no namespace: XML Schema 1.0 Part 1 §3.3.2 makes local elements unqualified unless
	// the schema sets elementFormDefault="qualified", while the document puts them in its
	// default namespace.
	{regexp.MustCompile(`Element '\{([^}]+)\}([\w.-]+)': This element is not expected\. Expected is \( ([\w.-]+) \)`), func(_ context.Context, _ *session, m []string) string {
		if m[2] != m[3] {
			return ""
		}
		return fmt.Sprintf("the schema declares `%s` as a local element, which XML Schema leaves in no namespace, while the document puts it in `%s`: add `elementFormDefault=\"qualified\"` to the schema's `xs:schema` element", m[2], m[1])
	}},
	// Django 3.2–5.x, core/management/commands/makemigrations.py and migrate.py
	{regexp.MustCompile(`No installed app with label '(\w+)'`), func(_ context.Context, _ *session, m []string) string {
		return fmt.Sprintf("`startapp` creates an app but does not register it: add a step that adds `\"%s\"` (or its AppConfig) to INSTALLED_APPS in the project's settings.py", m[1])
	}},
}

func knownErrorFix(ctx context.Context, ss *session, output string) string {
	for _, k := range knownErrors {
		if m := k.re.FindStringSubmatch(output); m != nil {
			return k.fix(ctx, ss, m)
		}
	}
	return ""
}

// reUndefinedRef: the linker's "undefined reference to `pow'" (GNU ld; lld and gold say
// "undefined symbol: pow", tcc 0.9.27 "undefined symbol 'sqrt'").
var reUndefinedRef = regexp.MustCompile("undefined (?:reference to [`']|symbol: |symbol ')([A-Za-z_]\\w*)")

// linkLibs: functions of libraries the C compiler does not link by itself, by name or by
// prefix (glibc 2.34 and later has pthread, dl and rt inside libc, so those link).
var linkLibs = []struct {
	re  *regexp.Regexp
	lib string
}{
	{regexp.MustCompile(`^(?:a?(?:sin|cos|tan)h?|atan2|exp2?|expm1|log(?:2|10|1p)?|pow|sqrt|cbrt|hypot|floor|ceil|l?l?round|trunc|fmod|fmin|fmax|erfc?|tgamma|lgamma|nan|rint|l?l?rint|modf|frexp|ldexp)[fl]?$`), "m"},
	{regexp.MustCompile(`^(?:initscr|endwin|printw|mvprintw|wrefresh|refresh|getch|wgetch|newwin|cbreak|noecho|keypad|start_color|init_pair|mvaddstr|addstr)$`), "ncurses"},
	{regexp.MustCompile(`^(?:readline|add_history)$`), "readline"},
	{regexp.MustCompile(`^sqlite3_`), "sqlite3"},
	{regexp.MustCompile(`^(?:deflate|inflate)(?:Init_?|End)?$|^(?:compress|uncompress)2?$|^gz(?:open|read|write|close)$`), "z"},
	{regexp.MustCompile(`^(?:yywrap)$`), "fl"},
	{regexp.MustCompile(`^(?:crypt|crypt_r)$`), "crypt"},
	{regexp.MustCompile(`^curl_`), "curl"},
	{regexp.MustCompile(`^(?:SSL|SSL_CTX|TLS)_`), "ssl"},
	{regexp.MustCompile(`^(?:EVP|SHA\d*|MD5|RAND)_`), "crypto"},
	{regexp.MustCompile(`^png_`), "png"},
	{regexp.MustCompile(`^(?:pcre2_\w+?)_8$`), "pcre2-8"},
}

// missingLib: the library a failed link needs and the function that showed it ("m",
// "pow" for "undefined reference to `pow'").
func missingLib(output string) (lib, fn string) {
	for _, m := range reUndefinedRef.FindAllStringSubmatch(output, -1) {
		for _, l := range linkLibs {
			if l.re.MatchString(m[1]) {
				return l.lib, m[1]
			}
		}
	}
	return "", ""
}

// linkRule is the tutorial line of the link command in a Makefile the tutorial wrote
// (the one recipe line that runs the compiler with -o and without -c), 0 when there is
// none or more than one.
func (ss *session) linkRule() int {
	found := 0
	for p, content := range ss.written {
		if b := path.Base(p); b != "Makefile" && b != "makefile" && b != "GNUmakefile" && path.Ext(b) != ".mk" {
			continue
		}
		for n, l := range strings.Split(content, "\n") {
			if !strings.HasPrefix(l, "\t") || !strings.Contains(l, "-o ") || strings.Contains(l, " -c ") || !reCompiler.MatchString(l) {
				continue
			}
			ln := ss.tutorialLine(p, n+1)
			if ln == 0 || found != 0 && found != ln {
				return 0
			}
			found = ln
		}
	}
	return found
}

// reCompiler: a recipe that runs a C or C++ compiler driver.
var reCompiler = regexp.MustCompile(`\$[({](?:CC|CXX|LINK\.\w+)[)}]|(?:^|\s)(?:gcc|g\+\+|cc|c\+\+|clang\+?\+?)(?:-\d+)?\s`)

// reAskedFlag: the error itself says which option the command needs ("Must run --resync
// to recover.", "re-run with --force-confold", "use the -k (--keep) option to keep local files").
var reAskedFlag = regexp.MustCompile(`(?i)\b(?:must|need to|needs|please|you (?:can|should|must|may need to|have to)|re-?run(?: \w+)?|run(?: it| again| this| the command)?|use|pass|add|specify|requires?|retry)(?:\s+(?:run|use|pass|add|specify|with|the|option|flag|again))*\s+['"` + "`" + `]?(?:-[a-zA-Z]\s+\(|-[a-zA-Z]\s+or\s+)?(--[a-z][a-z0-9-]+)\b`)

// noHelpFlags: options an error names for more information, not as the cure.
var noHelpFlags = map[string]bool{"--help": true, "--version": true, "--verbose": true, "--debug": true, "--usage": true}

// askedFlag is the long option the error output says the command needs and that the
// command does not already have ("" when none).
// reAdvisoryLine: a log line that only warns or informs (MariaDB 10.11's "[Warning] You
// need to use --log-bin to make --expire-logs-days … work." before the real "[ERROR]"):
// what it asks for is not why the command failed.
var reAdvisoryLine = regexp.MustCompile(`(?i)\[(?:warning|warn|note|info|notice)\]|^\s*warning\b|\blevel=(?:warn|info)\b`)

func askedFlag(cmd, output string) string {
	if strings.Contains(cmd, "\n") {
		return ""
	}
	var errs []string
	for _, l := range strings.Split(output, "\n") {
		if !reAdvisoryLine.MatchString(l) {
			errs = append(errs, l)
		}
	}
	for _, m := range reAskedFlag.FindAllStringSubmatch(strings.Join(errs, "\n"), -1) {
		flag := strings.ToLower(m[1])
		if noHelpFlags[flag] || strings.Contains(" "+cmd+" ", " "+flag) {
			continue
		}
		return flag
	}
	return ""
}

// reSocketGone: a client that found no socket or nothing listening
// ("unix:///home/learner/app/supervisor.sock no such file", "Connection refused", "Could
// not get hold of varnishd, is it running?").
var reSocketGone = regexp.MustCompile(`(?i)\.sock\b.*(?:no such file|refused|not found)|(?:no such file|refused)[^\n]*\.sock\b|\bis (?:it|the [\w-]+) running\?`)

// daemonDown is the root of a failed start of the daemon this client talks to: a program
// sharing the first five letters of its name (supervisorctl and supervisord, redis-cli and
// redis-server), when the client could not reach its socket.
func (ss *session) daemonDown(rec loop.CommandRecord, output string) (int, bool) {
	if !reSocketGone.MatchString(output) {
		return 0, false
	}
	client := firstWord(rec.Command)
	for r := len(ss.roots) - 1; r >= 0; r-- {
		f := ss.roots[r].finding
		if f < 0 {
			continue
		}
		daemon := firstWord(ss.res.Findings[f].Command)
		if daemon != client && len(client) >= 5 && len(daemon) >= 5 && client[:5] == daemon[:5] && !ss.recovered[ss.roots[r].line] {
			return r, true
		}
	}
	return 0, false
}

// reConfigArg: an option whose value is a configuration file (`-c supervisor.conf`,
// `--config=app.toml`).
var reConfigArg = regexp.MustCompile(`(?:^|\s)(-{1,2}([A-Za-z][\w-]*))(?:\s+|=)(\S+\.(?:conf|cfg|ini|toml|ya?ml|json))(?:\s|$)`)

// droppedConfig is the option an earlier command of the same program passed and this
// one leaves out ("" when none): a configuration file (config true: without it the
// program looks for its default file), or else a `--name=value` setting of a command that
// worked (`goaccess access.log --log-format=COMBINED …`, then `goaccess access.log -o
// summary.html`). What names an output is never one.
func (ss *session) droppedConfig(rec loop.CommandRecord) (opt string, config bool) {
	prog := firstWord(rec.Command)
	if prog == "" || strings.Contains(rec.Command, "\n") {
		return "", false
	}
	setting := ""
	for i := len(ss.res.Commands) - 1; i >= 0; i-- {
		c := ss.res.Commands[i]
		if c.Line >= rec.Line || firstWord(c.Command) != prog {
			continue
		}
		if m := reConfigArg.FindStringSubmatch(c.Command); m != nil && c.ExitCode == 0 && !outputOption[m[2]] && !strings.Contains(rec.Command, m[3]) {
			// (a run that worked with it: `lnav -i contrib/x.json` that failed explains
			// nothing)
			return m[1] + " " + m[3], true
		}
		if setting != "" || c.ExitCode != 0 {
			continue
		}
		for _, m := range reSettingArg.FindAllStringSubmatch(c.Command, -1) {
			if !outputOption[m[2]] && !strings.Contains(rec.Command, m[1]+"=") {
				setting = m[1] + "=" + m[3]
				break
			}
		}
	}
	return setting, false
}

// ignoredConfig: the program a failed command runs is a Python tool that a
// pyproject.toml the tutorial wrote configures (`[tool.flake8]`), and the tool's code
// never names pyproject.toml (flake8 5 reads setup.cfg, tox.ini and .flake8 only): the
// file, the line that wrote it, and the configuration files the tool's code names
// instead ("" when not so).
func (ss *session) ignoredConfig(ctx context.Context, cmd string) (file string, at int, instead []string) {
	prog := path.Base(firstWord(cmd))
	if !reDebianName.MatchString(prog) {
		return "", 0, nil
	}
	section := regexp.MustCompile(`(?m)^\[tool\.` + regexp.QuoteMeta(prog) + `[\].]`)
	for _, f := range slices.Sorted(maps.Keys(ss.written)) {
		if path.Base(f) != "pyproject.toml" || !section.MatchString(ss.written[f]) || len(ss.segments[f]) == 0 {
			continue
		}
		// the tool's own package, found as Python finds it; grep says whether its code
		// ever names pyproject.toml, and which configuration files it names
		script := `d=$(python3 -c 'import importlib.util,sys; s=importlib.util.find_spec(sys.argv[1]); print(s.submodule_search_locations[0] if s and s.submodule_search_locations else "")' ` + shellQuote(prog) + ` 2>/dev/null); ` +
			`[ -n "$d" ] || exit 3; grep -rqsI pyproject "$d" && exit 4; grep -rhosI -E '"(setup\.cfg|tox\.ini|\.[a-z0-9_-]+rc|\.` + regexp.QuoteMeta(prog) + `)"' "$d" | sort -u | head -n 5`
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: script, Timeout: 20 * time.Second, User: ss.user})
		if err != nil || r.ExitCode != 0 {
			return "", 0, nil
		}
		for _, n := range strings.Fields(r.Stdout) {
			instead = append(instead, strings.Trim(n, `"`))
		}
		return f, ss.segments[f][0].block.StartLine, instead
	}
	return "", 0, nil
}

// reSettingArg: a long option given its value with `=` (`--log-format=COMBINED`).
var reSettingArg = regexp.MustCompile(`(?:^|\s)(--([A-Za-z][\w-]*))=([^\s'"]+)`)

// outputOption: option names whose value is where the output goes, which one run may
// leave out or change without harm.
var outputOption = map[string]bool{"o": true, "O": true, "out": true, "output": true, "output-file": true, "outfile": true, "outdir": true, "output-dir": true, "log-file": true, "logfile": true}

// reUnboundName: a name the compiler or interpreter does not know, in the words of a few
// languages (Racket, Erlang, Python, Octave, JavaScript).
var reUnboundName = regexp.MustCompile(`([\w?!*<>=/+.:-]+): unbound identifier|undefined function:? ([\w:/.]+)|name '(\w+)' is not defined|'(\w+)' undefined|(\w+) is not defined|Undeclared routines?:\s+([\w-]+) used at`)

// reExportList: the words a module uses to list what other files may use.
var reExportList = regexp.MustCompile(`\(provide\b|^-export\(|module\.exports|^export\b|__all__`)

// unexported explains a name the run does not know that a file the tutorial wrote
// defines but does not export ("", "" when it is not such a name); edit adds the name to
// a one-line `(provide …)` list.
func (ss *session) unexported(output string) (problem, fix string, edit *loop.Edit) {
	m := reUnboundName.FindStringSubmatch(output)
	if m == nil {
		return "", "", nil
	}
	name := firstNonEmpty(m[1], m[2], m[3], m[4], m[5], m[6])
	if i := strings.LastIndexAny(name, ":/"); i >= 0 && m[2] != "" {
		name = name[i+1:] // Erlang's mod:fun/arity
	}
	q := regexp.QuoteMeta(name)
	def := regexp.MustCompile(`(?m)\(define\s+\(?` + q + `[\s)]|^\s*def\s+` + q + `\b|^\s*function\s+(?:\[?[\w, ]*\]?\s*=\s*)?` + q + `\b|^` + q + `\(.*\)\s*->|^\s*(?:our\s+)?(?:multi\s+)?sub\s+` + q + `\b`)
	rakuSub := regexp.MustCompile(`(?m)^\s*(?:our\s+)?(?:multi\s+)?sub\s+` + q + `\b.*$`)
	for _, p := range slices.Sorted(maps.Keys(ss.written)) {
		content := ss.written[p]
		if !def.MatchString(content) {
			continue
		}
		if path.Ext(p) == ".m" && path.Base(p) != name+".m" {
			// Octave and MATLAB look a function up by its file's name
			want := path.Join(path.Dir(ss.rel(p)), name+".m")
			return fmt.Sprintf("`%s` is defined in `%s`, but Octave and MATLAB find a function only in a file named after it (`%s`)", name, ss.rel(p), path.Base(want)),
				fmt.Sprintf("save the function as `%s` (or name the function after its file)", want),
				&loop.Edit{InsertBefore: []string{"mv " + ss.rel(p) + " " + want}}
		}
		if sub := rakuSub.FindString(content); sub != "" && strings.Contains(content, " is export") && !strings.Contains(sub, "is export") {
			// Raku: `sub shout(…) is export {`, and `sub greet(…) {` without the trait
			return fmt.Sprintf("`%s` is defined in `%s`, which does not export it (other subs there are marked `is export`, `%s` is not)", name, ss.rel(p), name),
				fmt.Sprintf("mark `sub %s` in `%s` with `is export`", name, ss.rel(p)),
				&loop.Edit{InsertBefore: []string{fmt.Sprintf(`sed -i -E '/^\s*(our\s+)?(multi\s+)?sub\s+%s\b/s/\s*\{\s*$/ is export {/' %s`, q, ss.rel(p))}}
		}
		ex, line := "", ""
		for _, l := range strings.Split(content, "\n") {
			if ex = reExportList.FindString(strings.TrimSpace(l)); ex != "" {
				line = strings.TrimSpace(l)
				break
			}
		}
		if ex == "" {
			return "", "", nil
		}
		list := strings.Trim(strings.TrimSpace(ex), "(")
		if list == "provide" && strings.HasSuffix(line, ")") && strings.Count(line, "(") == strings.Count(line, ")") {
			// (provide tokenize) → (provide tokenize stop-word?)
			edit = &loop.Edit{InsertBefore: []string{fmt.Sprintf("sed -i 's|^%s$|%s|' %s", sedPattern(line), sedReplacement(strings.TrimSuffix(line, ")")+" "+name+")"), ss.rel(p))}}
		}
		return fmt.Sprintf("`%s` is defined in `%s`, which does not export it (its `%s` list leaves it out)", name, ss.rel(p), list),
			fmt.Sprintf("add `%s` to the `%s` list of `%s`", name, list, ss.rel(p)), edit
	}
	return "", "", nil
}

// sedPattern quotes s for a basic regular expression of `sed 's|…|…|'` in single quotes.
func sedPattern(s string) string {
	return strings.NewReplacer(`\`, `\\`, `.`, `\.`, `*`, `\*`, `[`, `\[`, `]`, `\]`, `^`, `\^`, `$`, `\$`, `|`, `\|`, `'`, `'\''`).Replace(s)
}

// sedReplacement quotes s for the replacement of `sed 's|…|…|'` in single quotes.
func sedReplacement(s string) string {
	return strings.NewReplacer(`\`, `\\`, `&`, `\&`, `|`, `\|`, `'`, `'\''`).Replace(s)
}

// reHelpCmd: a command that only prints its usage.
var reHelpCmd = regexp.MustCompile(`(?:^|\s)(?:--help|-h|help)\b`)

// configAfterStart names a configuration file of the failed command's program that the
// tutorial wrote after that program was already running (a server it started earlier
// reads the file only at start-up): "" when there is none.
// fileStem is a file's name without its extension, a leading dot kept out of both
// (".tallyrc" → "tallyrc", ".tmux.conf" → "tmux", "closures.groovy" → "closures").
func fileStem(p string) string {
	name := strings.TrimPrefix(path.Base(p), ".")
	return strings.TrimSuffix(name, path.Ext(name))
}

func (ss *session) configAfterStart(ctx context.Context, rec loop.CommandRecord) (file string, wrote, started int) {
	prog := path.Base(firstWord(rec.Command))
	if len(prog) < 3 {
		return "", 0, 0
	}
	// (only while a process of it still runs: tmux's server, not `units -t`, which read
	// the file anew each time)
	if r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "pgrep -x " + shellQuote(prog[:min(len(prog), 15)]), Timeout: 10 * time.Second, User: ss.user}); err != nil || r.ExitCode != 0 {
		return "", 0, 0
	}
	for _, st := range ss.steps {
		// the program's name in the file's name, not in its extension: .tmux.conf,
		// .tallyrc and prometheus.yml, not closures.groovy (a script for `groovy`)
		if st.kind != fileStep || st.line >= rec.Line || !strings.Contains(fileStem(st.file), prog) {
			continue
		}
		for _, c := range ss.res.Commands {
			if c.Line < st.line && path.Base(firstWord(c.Command)) == prog && c.ExitCode == 0 && !reVersionCmd.MatchString(c.Command) && !reHelpCmd.MatchString(c.Command) {
				// `prometheus --version` only printed its version: nothing was started
				return joinDir(st.dir, st.file), st.line, c.Line
			}
		}
	}
	return "", 0, 0
}

// reChoices: a program's list of the values it accepts, printed with its refusal (lnav
// 0.11: "The available themes are: default, eldar, …"; Python's argparse: "invalid
// choice: 'x' (choose from 'a', 'b')"; "expected one of: a, b").
var reChoices = regexp.MustCompile(`(?i)(?:(?:available|valid|possible|supported|known|allowed) [\w -]{0,20}?\b(?:are|is|include)\s*:?|choose from|(?:expected )?one of\s*:|must be one of\s*:?)\s*([^\n]+)`)

// nearChoice: a word of the command one or two letters away from exactly one of the
// values the program lists as accepted (monokai beside monocai): the word and the value
// ("" when none is that close).
func nearChoice(cmd, output string) (word, choice string) {
	var choices []string
	for _, m := range reChoices.FindAllStringSubmatch(output, -1) {
		for _, c := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ' ' || r == '|' || r == '(' || r == ')' }) {
			if c = strings.Trim(c, "'\"`“”‘’.;:[]{}"); c != "" && c != "or" && c != "and" {
				choices = append(choices, c)
			}
		}
	}
	if len(choices) < 2 {
		return "", ""
	}
	for _, tok := range strings.FieldsFunc(cmd, func(r rune) bool { return r == ' ' || r == '\t' || r == '=' || r == '\'' || r == '"' || r == ',' }) {
		tok = strings.Trim(tok, "`“”;:")
		if len(tok) < 4 || strings.HasPrefix(tok, "-") || slices.Contains(choices, tok) {
			continue
		}
		best, bestD, n := "", 3, 0 // (at most two edits, and fewer than half the word)
		for _, c := range choices {
			switch d := levenshtein.ComputeDistance(strings.ToLower(tok), strings.ToLower(c)); {
			case d >= len(tok)/2 || d > 2 || d > bestD:
			case d < bestD:
				best, bestD, n = c, d, 1
			default:
				n++
			}
		}
		if n == 1 {
			return tok, best
		}
	}
	return "", ""
}
