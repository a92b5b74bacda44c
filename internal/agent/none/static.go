package none

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Checks that need the whole tutorial rather than one command's output: they read the
// steps as a newcomer would and find what will go wrong even where the sandbox could not
// get that far (a tool missing earlier, no network).

// static adds the findings of the whole-tutorial checks.
func (ss *session) static() {
	ss.missingCd()
	ss.versionsNeverInstalled()
	ss.pathAfterInstaller()
	ss.denoPermissions()
	ss.needsRoot()
	ss.unexplainedPlaceholders()
}

var (
	reSystemPath  = regexp.MustCompile(`(?:^|[\s>=])(/(?:etc|usr|opt|srv|boot|lib|var/(?:www|lib|log|opt|cache|spool|mail))(?:/\S*)?)`)
	reWrites      = map[string]bool{"mkdir": true, "touch": true, "cp": true, "mv": true, "rm": true, "ln": true, "chmod": true, "chown": true, "install": true, "tee": true, "rsync": true, "tar": true, "unzip": true}
	reRootSession = regexp.MustCompile(`(?i)root@\S*\s*#|\bas root\b|root shell|sudo -i|sudo su\b`)
)

// needsRoot: a command that changes a system path without sudo works only as root; a
// newcomer's shell is not root (the tutorial's own sudo elsewhere says so), so it fails
// with "Permission denied" on their machine even where the sandbox is root.
func (ss *session) needsRoot() {
	usesSudo := false
	for _, s := range ss.steps {
		if s.command != nil && strings.Contains(" "+s.command.Text, " sudo ") {
			usesSudo = true
		}
	}
	if !usesSudo || ss.user != "" {
		// a tutorial written for a root shell (a container, a server console), or one
		// the learner follows: their own run shows the Permission denied
		return
	}
	for _, s := range ss.steps {
		if s.kind != runStep || strings.Contains(" "+s.command.Text+" ", " sudo ") || reRootSession.MatchString(s.block.Content) || reRootSession.MatchString(s.lead) {
			continue
		}
		for _, part := range splitList(s.command.Text) {
			w := firstWord(part)
			m := reSystemPath.FindStringSubmatch(part)
			redirect := strings.Contains(part, ">") && m != nil && strings.Contains(part, "> "+m[1])
			if m == nil || !reWrites[w] && !redirect {
				continue
			}
			ss.staticFinding(s, "command failure", fmt.Sprintf("`%s` (line %d) changes `%s` without sudo: that works only as root, and a newcomer's shell is not (the tutorial uses sudo elsewhere), so it fails with Permission denied", firstLine(s.command.Text), s.line, m[1]),
				fmt.Sprintf("run it with sudo at line %d: `sudo %s`", s.line, strings.TrimSpace(part)), &loop.Edit{Replace: "sudo " + strings.TrimSpace(s.command.Text)})
			break
		}
	}
}

var (
	reDenoRun   = regexp.MustCompile(`^deno\s+(?:run\s+)?((?:-\S+\s+)*)[\w./-]+\.(?:ts|js|mjs|tsx|jsx)\b`)
	reDenoNet   = regexp.MustCompile(`(?:^|\s)(?:-A|--allow-all|-N|--allow-net(?:=\S*)?)(?:\s|$)`)
	reServesNet = regexp.MustCompile(`(?i)listening on|https?://` + localHost + `|Deno\.serve|\bhttp server\b`)
)

// denoPermissions: Deno runs a program with no permissions unless given them; a program
// that serves HTTP (its shown output says it listens, or the tutorial says it is a
// server) needs --allow-net (-N), else Deno prompts on a terminal or fails.
func (ss *session) denoPermissions() {
	for _, s := range ss.steps {
		if s.kind != runStep {
			continue
		}
		m := reDenoRun.FindStringSubmatch(strings.TrimSpace(s.command.Text))
		if m == nil || reDenoNet.MatchString(" "+m[1]) {
			continue
		}
		evidence := s.command.Output + "\n" + s.expected + "\n" + ss.proseAround(s.line, 15)
		if !reServesNet.MatchString(evidence) {
			continue
		}
		ss.staticFinding(s, "command failure", fmt.Sprintf("`%s` (line %d) runs a program that serves HTTP without network permission: Deno denies network access unless given `--allow-net` (`-N`), so it asks on a terminal or fails", firstLine(s.command.Text), s.line),
			fmt.Sprintf("run it as `deno run -N %s` (or `--allow-net`) at line %d", strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s.command.Text, "deno"), " run")), s.line), nil)
	}
}

// proseAround is the tutorial's text within n lines before line (what introduces it).
func (ss *session) proseAround(line, n int) string {
	m := ss.task.Tutorial.Map
	var b strings.Builder
	for k := max(1, line-n); k < line; k++ {
		b.WriteString(m.Line(k))
		b.WriteByte('\n')
	}
	return b.String()
}

// missingCd: a command names a file that the tutorial created (or showed in a tree) in
// a project directory, while the reader is still in the directory above it, because no
// `cd` into the project comes in between.
func (ss *session) missingCd() {
	cwd := "."
	known := map[string]map[string]bool{} // dir → names known in it
	projects := map[string]bool{}         // directories created by a scaffold, clone or mkdir
	addFile := func(dir, name string) {
		if known[dir] == nil {
			known[dir] = map[string]bool{}
		}
		known[dir][name] = true
	}
	reported := map[int]bool{}
	owner := map[string]int{} // folder and project → the finding that reports the missing cd
	for _, s := range ss.steps {
		switch {
		case s.kind == fileStep:
			dir := s.dir
			if path.Base(cwd) == strings.TrimSuffix(dir, "/") {
				dir = "" // "in the app directory" while in it
			}
			p := path.Join(cwd, joinDir(dir, s.file))
			addFile(path.Dir(p), path.Base(p))
		case s.kind == skipStep && strings.Contains(s.reason, "directory tree"):
			root, files := treeOf(s.block.Content)
			if root != "" && projects[path.Join(cwd, root)] {
				for _, f := range files {
					addFile(path.Join(cwd, root), f)
				}
			}
		case s.kind == runStep:
			text := s.command.Text
			for _, part := range splitList(text) {
				if d := cdTarget(part); d != "" && d != text {
					cwd = moveTo(cwd, d)
				}
			}
			if d := cdTarget(text); d != "" {
				switch {
				case d == "~" || strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~/") || strings.HasPrefix(d, "$"):
					cwd = "/" + d // outside the project tree the check knows
				default:
					cwd = path.Join(cwd, d)
				}
				continue
			}
			if strings.TrimSpace(text) == "cd" {
				cwd = "/~"
				continue
			}
			for _, tok := range tail1(strings.Fields(text)) {
				tok = strings.Trim(tok, `"'`)
				if strings.HasPrefix(tok, "-") || strings.Contains(tok, "/") || !looksLikePath(tok) || known[cwd][tok] {
					continue
				}
				for _, dir := range slices.Sorted(maps.Keys(projects)) {
					if path.Dir(dir) != cwd || !known[dir][tok] || reported[s.line] {
						continue
					}
					reported[s.line] = true
					if at, ok := owner[cwd+"\x00"+dir]; ok {
						// the same missing `cd` again: one gap, seen at every line until one
						if f := &ss.res.Findings[at]; f.Line != s.line && !slices.Contains(f.AlsoAt, s.line) {
							f.AlsoAt = append(f.AlsoAt, s.line)
						}
						continue
					}
					if at := ss.findingAt(s.line); at >= 0 && ss.res.Findings[at].Edit != nil && slices.Contains(ss.res.Findings[at].Edit.InsertBefore, "cd "+path.Base(dir)) {
						owner[cwd+"\x00"+dir] = at // the run already reported it there
						continue
					}
					ss.staticFinding(s, "missing step", fmt.Sprintf("`%s` (line %d) runs in the directory above `%s`, where `%s` is not: the tutorial never says `cd %s` after creating the project", firstLine(text), s.line, path.Base(dir), tok, path.Base(dir)),
						fmt.Sprintf("add `cd %s` before line %d", path.Base(dir), s.line), &loop.Edit{InsertBefore: []string{"cd " + path.Base(dir)}})
					owner[cwd+"\x00"+dir] = len(ss.res.Findings) - 1
				}
			}
			p := predict(text)
			for _, x := range p.paths {
				projects[path.Join(cwd, x)] = true
				addFile(cwd, x)
			}
		}
	}
}

// findingAt is the index of the finding reported at tutorial line ln, or -1.
func (ss *session) findingAt(ln int) int {
	for i, f := range ss.res.Findings {
		if f.Line == ln {
			return i
		}
	}
	return -1
}

// treeOf reads a directory tree drawing: its root name and the names below it.
func treeOf(content string) (string, []string) {
	lines := strings.Split(strings.TrimSpace(content), "\n")
	if len(lines) < 2 {
		return "", nil
	}
	root := strings.TrimSuffix(strings.TrimSpace(lines[0]), "/")
	if strings.ContainsAny(root, " ├└│") {
		return "", nil
	}
	var files []string
	for _, l := range lines[1:] {
		name := strings.TrimSpace(strings.TrimLeft(l, " │├└─|`-"))
		if i := strings.IndexAny(name, " #"); i > 0 {
			name = name[:i]
		}
		if name != "" {
			files = append(files, strings.TrimSuffix(name, "/"))
		}
	}
	return root, files
}

var (
	reVersion   = regexp.MustCompile(`^v?\d+(?:\.\d+)*$`)
	reUseVerb   = map[string]bool{"use": true, "exec": true, "run": true, "which": true, "local": true, "global": true, "shell": true}
	reEnvReload = regexp.MustCompile(`(?i)\bsource\s+[~$/."']|\b(restart|new (?:shell|terminal|session|window)|open a new|re-?open|reload|log ?out|log back in|exec \$SHELL|exec bash)\b|(?-i:\bPATH\b)|(?:^|\s)\. [~$]`)
)

// versionsNeverInstalled: a version manager is asked to use a version no step installed
// (`nvm exec 4.2` when only 14.7.0 was installed).
func (ss *session) versionsNeverInstalled() {
	installed := map[string][]string{}
	for _, s := range ss.steps {
		if s.command == nil || s.kind == skipStep && !strings.Contains(s.reason, "alternative") {
			continue
		}
		f := strings.Fields(s.command.Text)
		if len(f) < 3 {
			continue
		}
		tool, verb, arg := f[0], f[1], f[2]
		switch {
		case verb == "install" && s.kind == runStep:
			installed[tool] = append(installed[tool], arg)
		case reUseVerb[verb] && reVersion.MatchString(arg) && len(installed[tool]) > 0:
			if !versionInstalled(installed[tool], arg) {
				ss.staticFinding(s, "missing step", fmt.Sprintf("`%s` (line %d) uses version %s, which no earlier step installs (installed: %s), so %s answers that it is not installed", firstLine(s.command.Text), s.line, arg, strings.Join(installed[tool], ", "), tool),
					fmt.Sprintf("add `%s install %s` before line %d, or use a version installed earlier", tool, arg, s.line), &loop.Edit{InsertBefore: []string{tool + " install " + arg}})
			}
		}
	}
}

func versionInstalled(have []string, want string) bool {
	w := strings.TrimPrefix(want, "v")
	for _, h := range have {
		h = strings.TrimPrefix(h, "v")
		if h == w || strings.HasPrefix(h, w+".") || !reVersion.MatchString(h) && h != "node" {
			return true
		}
	}
	return false
}

// pathAfterInstaller: a `curl … | sh` installer puts its tool in a directory the current
// shell does not search yet; the tutorial then uses the tool without saying to open a
// new shell or source the profile the installer changed.
func (ss *session) pathAfterInstaller() {
	for i, s := range ss.steps {
		if s.kind != runStep || !rePipeSh.MatchString(s.command.Text) {
			continue
		}
		tools := predict(s.command.Text).tools
		if len(tools) == 0 {
			continue
		}
		for j := i + 1; j < len(ss.steps); j++ {
			u := ss.steps[j]
			if u.kind == runStep && reEnvReload.MatchString(u.command.Text) {
				break
			}
			if ss.hintBetween(s.line, u.line) {
				break
			}
			if u.kind != runStep || !contains(tools, firstWord(u.command.Text)) || ss.worked(u.line) {
				continue
			}
			name := firstWord(u.command.Text)
			ss.staticFinding(u, "missing step", fmt.Sprintf("`%s` (line %d) runs in the same shell as the installer at line %d, but the tutorial never says to restart the shell or update PATH: installers like this add their directory to PATH only for new shells, so `%s` is not found yet", firstLine(u.command.Text), u.line, s.line, name),
				fmt.Sprintf("after the installer (line %d), tell the reader to open a new terminal or run `source ~/.bashrc` (or the env file the installer prints) before using `%s`", s.line, name), nil)
			break
		}
	}
}

// hintBetween: the prose between two lines says to reload the shell or mentions PATH.
func (ss *session) hintBetween(from, to int) bool {
	m := ss.task.Tutorial.Map
	for n := from + 1; n < to && n <= m.LineCount(); n++ {
		if reEnvReload.MatchString(m.Line(n)) {
			return true
		}
	}
	return false
}

// worked reports whether the command at line ran and succeeded.
func (ss *session) worked(line int) bool {
	for _, c := range ss.res.Commands {
		if c.Line == line {
			return c.ExitCode == 0 && !c.TimedOut
		}
	}
	return false
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// staticFinding records a finding of a whole-tutorial check at a step's line.
func (ss *session) staticFinding(s step, category, problem, fix string, edit *loop.Edit) {
	d := loop.Decide(ss.task.Behavior, loop.Observation{Ambiguous: true, Attempts: 1, NoRetry: true})
	f := loop.Finding{
		Step:      section(ss.task.Tutorial, s.line),
		Line:      s.line,
		EndLine:   s.line,
		Problem:   problem,
		Fix:       fix,
		Edit:      edit,
		Category:  category,
		Trigger:   d.Trigger,
		Iteration: ss.task.Iteration,
	}
	if s.command != nil {
		f.Quote, f.Command, f.EndLine = s.command.Text, s.command.Text, s.command.EndLine
	}
	ss.res.Findings = append(ss.res.Findings, f)
}

// moveTo is where `cd d` from cwd leads in the check's model of the directories.
func moveTo(cwd, d string) string {
	switch {
	case d == "~" || strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~/") || strings.HasPrefix(d, "$"):
		return "/" + d
	}
	return path.Join(cwd, d)
}

// reAngled: a placeholder in angle brackets (`<STAGING_SEED>`, `<lease-id>`).
var reAngled = regexp.MustCompile(`^<([A-Za-z][\w-]*)>$`)

// ownValueWords: words of a placeholder that name a value every reader has or makes up
// (`<your-netid>`, `<server-ip>`, `<LEASE_ID>` printed a step before): made of them alone,
// or with a word of readerWords, it explains itself.
var ownValueWords = map[string]bool{"user": true, "username": true, "login": true, "name": true,
	"password": true, "passphrase": true, "host": true, "hostname": true, "ip": true, "address": true, "server": true, "domain": true,
	"email": true, "mail": true, "port": true, "path": true, "dir": true, "directory": true, "folder": true, "file": true, "filename": true,
	"version": true, "id": true, "pid": true, "hash": true, "commit": true, "sha": true, "branch": true, "tag": true, "url": true, "number": true,
	"lease": true, "repo": true, "repository": true, "remote": true, "local": true, "new": true, "old": true,
	"netid": true, "uid": true, "account": true, "handle": true, "nickname": true, "initials": true}

// readerWords: words of a placeholder that make its value the reader's own (`<your-dpi>`).
var readerWords = map[string]bool{"your": true, "my": true, "you": true, "own": true}

// unexplainedPlaceholders: a command the reader cannot type as shown, because it holds a
// placeholder in angle brackets that the tutorial's prose never names, neither as it is
// written nor as the words it is made of (`<STAGING_SEED>` with no "staging seed"
// anywhere), and that names no value of the reader's own: they do not know what goes
// there.
func (ss *session) unexplainedPlaceholders() {
	prose := strings.ToLower(proseOf(ss.task.Tutorial))
	seen := map[string]bool{}
	for _, s := range ss.steps {
		if s.kind != skipStep || s.command == nil {
			continue
		}
		p := placeholder(s.command.Text)
		m := reAngled.FindStringSubmatch(p)
		if m == nil || seen[p] {
			continue
		}
		seen[p] = true
		words := strings.FieldsFunc(strings.ToLower(m[1]), func(r rune) bool { return r == '_' || r == '-' })
		// `<your-netid>`, `<server-ip>`, `<your-phone-folder>`: the reader's own; `<team-id>`,
		// `<report-dir>`: a particular team's, a particular folder, and `<your-cutoff>`: a
		// value of a kind the reader has to be told
		core := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return readerWords[w] })
		if len(core) == 0 || !slices.ContainsFunc(core, func(w string) bool { return !ownValueWords[w] }) || len(core) < len(words) && ownValueWords[core[len(core)-1]] {
			continue
		}
		if strings.Contains(prose, strings.ToLower(m[1])) || strings.Contains(prose, strings.Join(words, " ")) || strings.Contains(prose, strings.Join(core, " ")) {
			continue // ("the project's API key" explains `<your-api-key>`)
		}
		ss.staticFinding(s, loop.CategoryAmbiguousInstruction,
			fmt.Sprintf("`%s` (line %d) needs a value for `%s`, and the tutorial never says what it is or where the reader gets it (typed as shown, the shell reads `<` and `>` as redirections)", firstLine(s.command.Text), s.line, p),
			fmt.Sprintf("say before line %d what `%s` stands for (the %s) and where to find it, or give it", s.line, p, strings.Join(core, " ")), nil)
		ss.absorbMissing(s)
	}
}

// absorbMissing folds into the last finding, that of the skipped step s, the findings of
// the commands after it in its block that failed on a file that is not there: what the
// skipped command was to make (`cfssl gencert … -cn <team-id> … | cfssljson -bare
// client`, then `openssl verify … client.pem`).
func (ss *session) absorbMissing(s step) {
	last := len(ss.res.Findings) - 1
	kept := ss.res.Findings[:0]
	var also []int
	for i, f := range ss.res.Findings {
		if i != last && f.Line > s.line && f.Line <= s.block.EndLine && !f.Environment && reNotThere.MatchString(f.Output) {
			also = append(also, append([]int{f.Line}, f.AlsoAt...)...)
			continue
		}
		kept = append(kept, f)
	}
	if len(also) == 0 {
		return
	}
	ss.res.Findings = kept
	f := &ss.res.Findings[len(kept)-1]
	f.AlsoAt = append(f.AlsoAt, also...)
	slices.Sort(f.AlsoAt)
}

// proseOf is the tutorial's text outside its code blocks.
func proseOf(t *tutorial.Tutorial) string {
	blocks := allBlocks(t)
	var b strings.Builder
	for l := 1; l <= t.Map.LineCount(); l++ {
		if !inAnyBlock(blocks, l) {
			b.WriteString(unescapeProse(t.Map.Line(l)))
			b.WriteByte('\n')
		}
	}
	return b.String()
}
