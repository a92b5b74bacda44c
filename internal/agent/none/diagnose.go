package none

import (
	"context"
	"fmt"
	"maps"
	"net"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agnivade/levenshtein"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

var (
	// the sandbox has no network (the reader has): DNS, refused or unreachable hosts,
	// package indexes that cannot be fetched
	reNetwork = regexp.MustCompile(`(?i)could not resolve host|unknown host [a-z0-9-]+(?:\.[a-z0-9-]+)+|temporary failure (?:in name resolution|resolving)|name or service not known|network is unreachable|failed to establish a new connection|getaddrinfo (?:enotfound|eai_again)|\benotfound\b|\beai_again\b|no such host|dial tcp|unable to access 'https?://|could not connect to|connection (?:refused|timed out)|failed to fetch|unable to locate package|has no installation candidate|no matching distribution found|could not fetch|network error|download failed|failed to download|tls handshake|certificate verify failed|could not read from remote repository|\berr_socket|econnrefused|econnreset|etimedout|spurious network error|failed to get .* from|error sending request`)
	// needs systemd as PID 1
	reSystemd = regexp.MustCompile(`(?i)system has not been booted with systemd|failed to connect to bus|running in chroot, ignoring|init system \(pid 1\)`)
	// needs a Docker Engine
	reDockerDaemon = regexp.MustCompile(`(?i)cannot connect to the docker daemon|docker daemon is not running|error during connect`)
	// needs hardware or a display
	reHardware = regexp.MustCompile(`(?i)/sys/class/|/dev/(?:tty[A-Z]|video|snd|kvm)|(?:cannot|can't) open display|no display|\$DISPLAY|couldn't find a tty|not a tty|not a terminal|inappropriate ioctl|ALSA lib [^\n]*(?:cannot find card|Unknown PCM)|no default audio device|jack server is not running`)
)

// networkExit: curl and wget exit codes that mean the host could not be reached (their
// quiet modes print nothing): curl 5, 6, 7, 28, 35, 56 (man curl, EXIT CODES); wget 4
// (man wget, EXIT STATUS).
func networkExit(rec loop.CommandRecord) bool {
	c := " " + rec.Command + " "
	if reLocalURL.MatchString(c) {
		return false // nothing listening locally is not the sandbox's network
	}
	switch {
	case strings.Contains(c, " curl ") && (rec.ExitCode == 5 || rec.ExitCode == 6 || rec.ExitCode == 7 || rec.ExitCode == 28 || rec.ExitCode == 35 || rec.ExitCode == 56):
		return true
	case strings.Contains(c, " wget ") && rec.ExitCode == 4:
		return true
	}
	return false
}

// sessionClients connect to a server and send it what the reader types.
var sessionClients = map[string]bool{"nc": true, "ncat": true, "netcat": true, "telnet": true, "socat": true}

// typedSession: the command is a client that sends the server what is typed at it, with
// nothing piped or redirected in (`nc localhost 11211`, `telnet localhost 25`).
func typedSession(cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	return sessionClients[firstWord(cmd)] && !strings.ContainsAny(cmd, "|<\n") && !strings.Contains(cmd, " -z")
}

// reNeedsTerminal: a full-screen program that could not take over a terminal.
var reNeedsTerminal = regexp.MustCompile(`(?i)video initiali[sz]ation failed|error opening terminal[^\n]*|cannot initiali[sz]e (?:the )?(?:screen|terminal)|terminal is not fully functional|open terminal failed[^\n]*|must be run from a terminal`)

// reAsked: a program waiting for a person's answer found standard input closed.
var reAsked = regexp.MustCompile(`(?i)\[y/n\]|\[yes/no\]|press (?:enter|return|any key)[^\n]*|EOFError: EOF when reading a line|inappropriate ioctl for device|input is not a terminal|not a tty|(?:username|password) for '[^']*':|enter passphrase`)

// localHost spells this machine in a URL or an address (one spelling for every pattern
// below that asks whether a client, server or proxy is local).
const localHost = `(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])`

var reLocalURL = regexp.MustCompile(`(?i)\b` + localHost + `(?::\d+)?\b`)

// reBashShebang: a script's first line asking for bash.
var reBashShebang = regexp.MustCompile(`^#!\s*(?:/usr)?/bin/(?:env\s+)?bash\b.*`)

// reDashRefusal: dash refusing what only bash knows (dash 0.5.12: "thumbs.sh: 3: set:
// Illegal option -o pipefail", "Syntax error: \"(\" unexpected", "[[: not found",
// "Bad substitution").
var reDashRefusal = regexp.MustCompile(`(?m)^[^:\n]+: \d+: (?:set: Illegal option -o|Syntax error:|\[\[: not found|[^:\n]+: Bad substitution|source: not found)`)

// bashUnderSh: the failed step runs, with sh or dash, a script the tutorial wrote whose
// first line asks for bash, and dash refused a bash construct. It returns the script and
// that first line ("" when not).
func (ss *session) bashUnderSh(rec loop.CommandRecord, output string) (string, string) {
	script, content := ss.shScript(rec.Command)
	if script == "" || !reDashRefusal.MatchString(output) {
		return "", ""
	}
	first, _, _ := strings.Cut(content, "\n")
	if !reBashShebang.MatchString(first) {
		return "", ""
	}
	return script, strings.TrimSpace(first)
}

// shScript: cmd runs, with sh or dash, a script the tutorial wrote; it returns the script
// as cmd names it and what the tutorial wrote in it ("" when not).
func (ss *session) shScript(cmd string) (string, string) {
	f := strings.Fields(cmd)
	if len(f) < 2 || (f[0] != "sh" && f[0] != "dash") {
		return "", ""
	}
	content, ok := ss.written[ss.abs(f[1])]
	if !ok {
		return "", ""
	}
	return f[1], content
}

// reBashOnly: what only bash has among the shells a script may be run with: its
// /dev/tcp and /dev/udp paths.
var reBashOnly = regexp.MustCompile(`/dev/(?:tcp|udp)/`)

// bashFeatureUnderSh: the step runs, with sh or dash, a script the tutorial wrote that
// uses what only bash has. It returns the script and the feature ("" when not).
func (ss *session) bashFeatureUnderSh(cmd string) (string, string) {
	script, content := ss.shScript(cmd)
	m := reBashOnly.FindString(content)
	if script == "" || m == "" {
		return "", ""
	}
	return script, "`" + strings.TrimSuffix(m, "/") + "`"
}

// reLocalPort: a local URL's port.
var reLocalPort = regexp.MustCompile(`(?i)\b` + localHost + `:(\d+)\b`)

// rePythonServer: prose naming Python's own web server ("we use Python's built-in one",
// "python's http.server").
var rePythonServer = regexp.MustCompile(`(?i)\bpython(?:3|'s)?\b[^.]*\b(?:built-in|builtin|http\.server)\b`)

// reServedDir: the folder the prose says a server publishes ("Your `reports/` folder is
// published by a small web server").
var reServedDir = regexp.MustCompile("`([\\w.~/-]+)/?`(?:\\s+(?:folder|directory))?[^.]*\\b(?:published|served|serves)\\b")

// namesPort: the prose says what listens on the port the request names ("a read-only
// web viewer of the repository, on port 8080").
func namesPort(lead, cmd string) bool {
	m := reLocalPort.FindStringSubmatch(cmd)
	return m != nil && regexp.MustCompile(`(?i)\bport\s+`+m[1]+`\b`).MatchString(lead)
}

// neverStarted is the gap of a client that finds nothing listening on a local port that
// no step serves (its caller says when that is so): what serves that port is a step the
// tutorial leaves out ("Your `reports/` folder is published by a small web server on port 8000 …
// (we use Python's built-in one)", then `curl -sS http://localhost:8000/`).
func (ss *session) neverStarted(ctx context.Context, rec loop.CommandRecord, output, lead string) (loop.Finding, bool) {
	m := reLocalPort.FindStringSubmatch(rec.Command)
	if m == nil {
		return loop.Finding{}, false
	}
	port := m[1]
	f := loop.Finding{
		Problem:  fmt.Sprintf("`%s` (line %d) cannot connect (%s): nothing listens on port %s, and no step before it starts a server there", firstLine(rec.Command), rec.Line, firstNonEmpty(keyLine(output), fmt.Sprintf("connection refused, exit %d", rec.ExitCode)), port),
		Fix:      fmt.Sprintf("start the server that listens on port %s before line %d (in a second terminal, left running), or say which one and how", port, rec.Line),
		Category: "missing step",
	}
	if rePythonServer.MatchString(lead) {
		start := "python3 -m http.server " + port
		if d := reServedDir.FindStringSubmatch(lead); d != nil {
			start += " --directory " + strings.TrimSuffix(d[1], "/")
		}
		f.Problem += "; the text says Python's built-in web server serves it, but never starts it"
		f.Fix = fmt.Sprintf("start it before line %d, in a second terminal left running: `%s`", rec.Line, start)
	} else if prog, sub := ss.serveCommand(ctx, lead); sub != "" {
		// "bup comes with a read-only web viewer of the repository, on port 8080": `bup
		// help` lists `web`
		f.Problem += fmt.Sprintf("; the text says `%s` serves it, and its help lists `%s %s`, which no step runs", prog, prog, sub)
		f.Fix = fmt.Sprintf("start it before line %d, in a second terminal left running (`%s %s`, on port %s)", rec.Line, prog, sub, port)
	}
	return f, true
}

// reServeSub: a subcommand that starts a program's own server, as its help lists it.
var reServeSub = regexp.MustCompile(`(?m)^\s*(web|serve|server|ui|httpd)\b`)

// serveCommand: the first program the sentence names (in code, or as its first word) that
// the reader has, and the subcommand its help lists to serve ("bup" and "web"); "" when
// none.
func (ss *session) serveCommand(ctx context.Context, lead string) (string, string) {
	if ss.task.Sandbox == nil {
		return "", ""
	}
	var progs []string
	for _, m := range reProgramSpan.FindAllStringSubmatch(lead, 3) {
		progs = append(progs, m[1])
	}
	for _, sentence := range sentences(lead) {
		if f := strings.Fields(sentence); len(f) > 0 && reDebianName.MatchString(f[0]) && !slices.Contains(progs, f[0]) {
			progs = append(progs, f[0]) // ("bup comes with a read-only web viewer")
		}
	}
	for _, p := range progs {
		if knownCommands[p] {
			continue // (coreutils and the like serve nothing, and `rm help` removes a file)
		}
		// (asked in an empty folder of its own, so that `help` names no file there)
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "command -v " + shellQuote(p) + " >/dev/null && cd \"$(mktemp -d)\" && { timeout 5 " + shellQuote(p) + " help; timeout 5 " + shellQuote(p) + " --help; } </dev/null 2>&1 | head -n 80", Timeout: 15 * time.Second, User: ss.user})
		if err != nil || r.Stdout == "" {
			continue
		}
		if m := reServeSub.FindStringSubmatch(r.Stdout); m != nil {
			return p, m[1]
		}
	}
	return "", ""
}

// reRemoteGit: git subcommands that talk to a remote (the network and an account).
// reGitLocal: a remote Git command that failed for a reason of the local repository (or
// a remote on this machine), which the network does not explain.
var reGitLocal = regexp.MustCompile(`(?i)src refspec \S+ does not match any|\[rejected\]|non-fast-forward|couldn't find remote ref`)

var reRefspec = regexp.MustCompile(`src refspec (\S+) does not match any`)

// reURL: a command naming a remote host.
var reURL = regexp.MustCompile(`\b(?:https?|ssh|git)://|\bgit@[\w.-]+:`)

var reRemoteGit = regexp.MustCompile(`^git\s+(?:-\S+\s+)*(?:push|pull|fetch|clone|ls-remote|submodule\s+update)\b`)

// reOtherSystem: skip reasons that mean the step is not for this reader's system.
var reOtherSystem = regexp.MustCompile(`another system|Windows|package manager of|\btab\b|for another`)

// reLocalRefused: a client that found nothing listening on this machine.
// A server reached through its Unix socket counts too: MariaDB 10.11's client "ERROR 2002
// (HY000): Can't connect to local server through socket '/run/mysqld/mysqld.sock' (2)",
// PostgreSQL 15's "connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\"
// failed: No such file or directory".
// darcs 2.16 says "Not a repository: http://localhost:8080 (CouldNotConnectToServer)".
// gearadmin 1.1.20 says "Error: Error connecting to localhost.".
var reLocalRefused = regexp.MustCompile(`(?i)(?:(?:failed|unable|cannot|can't|could not) to connect to|cannot connect to|couldn't connect to server|connection refused|econnrefused|error connecting to)[^\n]*` + localHost + `|` + localHost + `[^\n]*(?:connection refused|couldn't connect|couldnotconnect)` +
	`|can't connect to local (?:\w+ )?server through socket|connection to server on socket "[^"]*" failed` +
	// libxml2's xmllint: "warning: failed to load external entity \"http://localhost:8080/order.rng\""
	`|failed to load (?:external entity|HTTP resource)\s*"https?://` + localHost)

// reHostURL: a URL's scheme and host.
var reHostURL = regexp.MustCompile(`(?i)\b[a-z][\w+.-]*://(\[[^\]]*\]|[^/:\s'"]+)`)

// refusedHere: the connection was refused, and every URL the command names is on this
// machine (ab 2.3's "apr_socket_recv: Connection refused (111)" names no host), or it
// names no URL but a host option on this machine (`mosquitto_pub -h localhost`). On a
// machine without IPv6, a client that tries ::1 last says "Cannot assign requested
// address" (mosquitto_pub 2.0.11) when nothing listens on 127.0.0.1 either.
func refusedHere(cmd, output string) bool {
	lower := strings.ToLower(output)
	if !strings.Contains(lower, "connection refused") && !strings.Contains(lower, "cannot assign requested address") {
		return false
	}
	urls := reHostURL.FindAllStringSubmatch(cmd, -1)
	if len(urls) == 0 {
		return reLocalHostOption.MatchString(cmd)
	}
	for _, u := range urls {
		if !reLocalURL.MatchString(u[1]) {
			return false
		}
	}
	return len(urls) > 0
}

// reLocalHostOption: a host option naming this machine (`-h localhost`, `--host=127.0.0.1`).
var reLocalHostOption = regexp.MustCompile(`(?i)(?:^|\s)(?:-h|-H|--host(?:name)?)(?:\s+|=)['"]?` + localHost + `(?:['"\s]|$)`)

// reCurlLocal: curl asked for a URL on this machine (its first such argument).
var reCurlLocal = regexp.MustCompile(`(?:^|[\s|;&(])curl\s[^|;&]*?['"]?(https?://` + localHost + `(?::\d+)?[^\s'"|;&]*)`)

// refusedInPipe: a pipeline that failed, whose curl asks a local URL where nothing
// listens. `curl -s URL | grep x` exits with grep's 1 and hides curl's 7; asking
// the URL again alone says whether anything answers.
func (ss *session) refusedInPipe(ctx context.Context, cmd string) bool {
	if !strings.Contains(cmd, "|") || !strings.Contains(" "+cmd, " curl ") {
		return false
	}
	url := ""
	if m := reCurlLocal.FindStringSubmatch(cmd); m != nil {
		url = m[1]
	} else if p := ss.localProxy(); p != "" {
		url = p // `export http_proxy=http://127.0.0.1:3129` earlier: curl goes through it
	}
	if url == "" {
		return false
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "curl -sS -o /dev/null --max-time 5 " + shellQuote(url), Timeout: 10 * time.Second, User: ss.user})
	return err == nil && r.ExitCode == 7
}

// reProxyExport: a proxy for the session's HTTP clients set on this machine.
var reProxyExport = regexp.MustCompile(`(?:^|[\s;&])(?:export\s+)?(?:http|https|all|HTTP|HTTPS|ALL)_(?:proxy|PROXY)=["']?(https?://` + localHost + `(?::\d+)?)`)

// localProxy is the local proxy an earlier command exported for HTTP clients ("" when
// none).
func (ss *session) localProxy() string {
	for i := len(ss.res.Commands) - 1; i >= 0; i-- {
		if m := reProxyExport.FindStringSubmatch(ss.res.Commands[i].Command); m != nil {
			return m[1]
		}
	}
	return ""
}

// runsNewerFile: the command uses a file the tutorial wrote after the last step that
// failed (`gforth save-squares.fs` saved after `gforth locals.fs` failed): what it
// misses is that file's own doing, not what the failed step was to make.
func (ss *session) runsNewerFile(rec loop.CommandRecord) bool {
	if ss.lastFailedStep < 0 || ss.lastFailedStep >= len(ss.steps) {
		return false
	}
	failedAt := ss.steps[ss.lastFailedStep].line
	for p, segs := range ss.segments {
		if len(segs) == 0 || segs[len(segs)-1].block.StartLine <= failedAt || segs[len(segs)-1].block.StartLine >= rec.Line {
			continue
		}
		if refersTo(rec.Command, strings.TrimPrefix(p, ss.cwd+"/")) || refersTo(rec.Command, p) {
			return true
		}
	}
	return false
}

// taintedToolOf: the command runs or names a tool a failed step was meant to install.
func (ss *session) taintedToolOf(cmd string) (int, bool) {
	if r, ok := ss.taintTools[toolOf(firstWord(cmd)).Name]; ok {
		return r, true
	}
	for t, r := range ss.taintTools {
		if mentionsTool(cmd, t) {
			return r, true
		}
	}
	return 0, false
}

var systemdCommands = map[string]bool{"systemctl": true, "journalctl": true, "service": true, "loginctl": true}

// judge decides what a failed command means: a consequence of an earlier root, an
// unverifiable step (no network in the sandbox), an environment finding, or a gap.
func (ss *session) judge(ctx context.Context, i int, st step, rec loop.CommandRecord, output string) {
	if strings.TrimSpace(output) == "" && !rec.TimedOut {
		if said, cmd := ss.unquieted(ctx, st, rec); said != "" {
			// `haproxy -c -q -f x.cfg` exits 1 and says nothing: the reader drops -q to
			// see why
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: rec.Line, Reason: fmt.Sprintf("printed nothing; `%s` says why", cmd)})
			output, rec.Output = said, said
		}
	}
	if why, fix := ss.anticipated(st, output); why != "" {
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: rec.Line, Reason: "failed as the tutorial foresees right after it (\"" + loop.Clip(why, 100) + "\")"})
		if fix != "" && !ss.noVerify {
			ss.recover(ctx, st, []string{fix})
		}
		return
	}
	if name := shownValueQuoted(rec.Command, output, firstNonEmpty(st.command.Output, st.expected)); name != "" {
		// `jo heading='No results for "$QUERY"'` printed `$QUERY` where the page shows "lamp"
		with := doubleQuoted(strings.TrimSpace(rec.Command), "$"+name)
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("`%s` (line %d) printed `$%s` as written, where the tutorial shows its value: `$%s` is inside single quotes, where the shell does not expand variables", firstLine(rec.Command), rec.Line, name, name),
			Fix:      fmt.Sprintf("use double quotes around the argument with `$%s` at line %d (`%s`)", name, rec.Line, firstLine(with)),
			Category: "command failure",
			Edit:     &loop.Edit{Replace: with},
		}, output)
		ss.taint(rec, r)
		for _, p := range predict(rec.Command).paths {
			ss.wroteWrong[ss.abs(p)] = r // (empty-state.json, which tee wrote with `$QUERY` in it)
		}
		return
	}
	for _, p := range slices.Sorted(maps.Keys(ss.wroteWrong)) {
		if refersTo(rec.Command, ss.rel(p)) || refersTo(rec.Command, p) {
			// `jq -e '.heading | contains("lamp")' empty-state.json` on what that step wrote
			ss.consequence(ss.wroteWrong[p], rec)
			return
		}
	}
	if reLocaleRefused.MatchString(output) && reSetsLocale.MatchString(rec.Command) {
		// `export LC_ALL=de_DE.UTF-8` is its own gap, whatever failed before it
		r := ss.addFinding(rec, loop.Finding{Problem: failureProblem(rec, output), Fix: knownErrorFix(ctx, ss, output), Category: "missing step"}, output)
		ss.taint(rec, r)
		return
	}
	if first, second := diffSides(output); reDiff.MatchString(rec.Command) && ss.zoneShifted(ctx, rec, first, second, output) {
		// `… | diff expected.txt -`: the expected times are Berlin's, the printed UTC
		return
	}
	if m := reBSDSedInPlace.FindStringSubmatch(rec.Command); m != nil && rec.ExitCode != 0 {
		// GNU sed 4.9 reads `-i ''` as `-i` and the script '', then the expression as a file
		fixed := strings.Replace(strings.TrimSpace(rec.Command), m[0], m[1], 1)
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s; `-i ''` is the form of BSD (macOS) sed: Debian's GNU sed takes `-i` with no separate suffix, so it read `''` as the script and the expression as a file name", failureProblem(rec, output)),
			Fix:      fmt.Sprintf("write `sed -i` without `''` at line %d (`%s`)", rec.Line, firstLine(fixed)),
			Category: "command failure",
			Edit:     &loop.Edit{Replace: fixed},
		}, output)
		ss.taint(rec, r)
		return
	}
	if sv := ss.portHolder(rec, output); sv != nil {
		// `python3 -m http.server 8000` again while the one of step 6 still runs
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s; the server line %d started (`%s`) is still running and holds that port", failureProblem(rec, output), sv.line, firstLine(sv.command)),
			Fix:      fmt.Sprintf("tell the reader to stop the server of line %d (Ctrl+C in its terminal) before line %d, or give this one another port", sv.line, rec.Line),
			Category: "missing step",
		}, output)
		ss.taint(rec, r)
		return
	}
	if f, ok := ss.shellMistake(ctx, rec, output); ok {
		// `DIR = x`, `find . -name *.sh`, `sh -c '… $1' {}`, `$((08 + 1))`…
		r := ss.addFinding(rec, f, output)
		ss.taint(rec, r)
		if m := reSpacedAssign.FindStringSubmatch(strings.TrimSpace(rec.Command)); m != nil {
			ss.emptyVars[m[2]] = r // (what later reads it reads it empty)
		}
		return
	}
	if name := ss.sudoDropped(ctx, rec, output); name != "" {
		// `export FEED_DIR=/srv/feeds`, then `sudo ./publish.sh`, which reads it
		fixed := strings.Replace(strings.TrimSpace(rec.Command), "sudo ", "sudo --preserve-env="+name+" ", 1)
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s; the reader's shell exports `%s`, but sudo resets the environment (Debian's sudoers: `Defaults env_reset`), so the command it runs never gets it", failureProblem(rec, output), name),
			Fix:      fmt.Sprintf("keep the variable for sudo at line %d (`%s`, or `sudo -E …`)", rec.Line, fixed),
			Edit:     &loop.Edit{Replace: fixed},
			Category: "command failure",
		}, output)
		ss.taint(rec, r)
		return
	}
	if name, at, script := ss.exportsLost(rec, output); name != "" {
		// `./env.sh` exports REL_OUT in a shell of its own, gone when it ends
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s; `%s` is set by `%s`, which line %d runs as a program: what it exports ends with it, and the reader's shell never has `%s`", failureProblem(rec, output), name, script, at, name),
			Fix:      fmt.Sprintf("source the script at line %d (`. ./%s`) instead of running it", at, path.Base(script)),
			Category: "command failure",
		}, output)
		ss.taint(rec, r)
		return
	}
	if r, ok := ss.failedCrontabInstall(rec); ok {
		// `crontab -l` says "no crontab for …" after the step that was to install one failed
		ss.consequence(r, rec)
		return
	}
	if r, ok := ss.rootWithError(serverLines(output)); ok {
		// the server the request went to fails as an earlier step did
		ss.consequence(r, rec)
		return
	}
	if r, ok := ss.usesEmptied(ctx, rec.Command); ok {
		// `cp Tides.pmod "$PIKE_MODULE_PATH/"` after the mkdir of the same unset variable
		ss.consequence(r, rec)
		return
	}
	if debuggers[firstWord(rec.Command)] {
		if r, ok := ss.noSymbols[ss.abs(debuggee(rec.Command))]; ok && (reFrameBare.MatchString(output) || strings.Contains(output, "No symbol")) {
			// `print i` in a program gdb already found without debugging information
			ss.consequence(r, rec)
			return
		}
		if why := noSymbols(rec.Command, firstNonEmpty(st.command.Output, st.expected), output); why != "" {
			f := loop.Finding{Problem: why, Category: "command failure"}
			prog := ss.symbolsFix(&f, rec.Command)
			ss.noSymbols[ss.abs(prog)] = ss.addFinding(rec, f, output)
			return
		}
	}
	if f, ok := ss.relativeElsewhere(ctx, rec.Command, output, rec.Line); ok {
		// `varnishd -f lab.vcl` with lab.vcl right here: the program looks elsewhere
		r := ss.addFinding(rec, f, output)
		ss.taint(rec, r)
		return
	}
	kind, name := loop.MissingDependency(rec.ExitCode, output)
	if kind == "" && rec.ExitCode == 127 && !reUnsetVar.MatchString(output) {
		// (bash 5.2 exits 127 on `set -u`'s "unbound variable" too: the program ran)
		kind, name = "command", firstWord(rec.Command)
	}
	if m := reShNotFound.FindStringSubmatch(output); kind == "" && m != nil {
		kind, name = "command", m[1]+m[2]+m[3]+m[4] // a program the command runs (tar --zstd runs zstd)
	}
	if m := reGitNoSub.FindStringSubmatch(output); kind == "" && m != nil && (firstWord(rec.Command) == "git" || programOf(rec.Command) == "git") && !ss.isMisspeltSub(ctx, rec, output) {
		// "git: 'annex' is not a git command": git runs git-annex, which is not there
		kind, name = "command", "git-"+m[1]
	}
	if kind == "command" && reSystemBin.MatchString(name) {
		name = path.Base(name) // `/usr/sbin/lighttpd -v`: the program, by its full path
	}
	if kind == "command" {
		t := toolOf(name).Name
		if r, ok := ss.unfinishedInstall(name); ok {
			// the install that was to bring it ran out of time
			ss.consequence(r, rec)
			ss.missing[t] = r
			return
		}
		if r, ok := ss.taintTools[t]; ok {
			ss.consequence(r, rec)
			return
		}
		if r, ok := ss.missing[t]; ok {
			ss.consequence(r, rec)
			return
		}
		if at := ss.functionDefined(name, rec.Line); at > 0 && name != firstWord(rec.Command) {
			// build.sh calls `mdc`, a function the reader typed into their shell: the
			// script's own shell does not have it (bash passes on only exported ones)
			r := ss.addFinding(rec, loop.Finding{
				Problem:  fmt.Sprintf("%s; `%s` is a shell function the reader defined at line %d, in their interactive shell, and a script runs in a new shell that does not have it", failureProblem(rec, output), name, at),
				Fix:      fmt.Sprintf("define the function `%s` in the script itself (the line-%d definition, above its first use), or, for a bash script, run `export -f %s` before line %d", name, at, name, rec.Line),
				Category: "missing step",
			}, output)
			ss.missing[t] = r
			ss.taint(rec, r)
			return
		}
		if r, ok := ss.taintPaths[ss.abs(name)]; ok && strings.Contains(name, "/") {
			// `./wordfreq` after `polyc -o wordfreq …` failed, whatever ran in between
			ss.consequence(r, rec)
			return
		}
		if (strings.HasPrefix(name, "./") || strings.Contains(name, "/")) && ss.cwdRoot >= 0 {
			ss.consequence(ss.cwdRoot, rec)
			return
		}
		if f := (loop.Finding{Problem: failureProblem(rec, output)}); strings.Contains(name, "/") && ss.insideFix(ctx, &f, rec, output) {
			r := ss.addFinding(rec, f, output)
			ss.taint(rec, r)
			return
		}
		if strings.Contains(name, "/") && ss.prevFailed && ss.lastFailRoot >= 0 {
			// a program the failed step right before it (a build) would have made
			ss.consequence(ss.lastFailRoot, rec)
			return
		}
		if ss.aptSourceRoot >= 0 && ss.wroteNamed(name) {
			// `lab-hello`, a script the tutorial packaged, from the package apt could not
			// find in the tutorial's own repository
			ss.consequence(ss.aptSourceRoot, rec)
			return
		}
		if cmd, ln := ss.inlineInstall(name, rec.Line); cmd != "" && !ss.noVerify && ss.recover(ctx, st, []string{cmd}) {
			// "| Debian / Ubuntu | `sudo apt install mercurial` |": the reader ran it
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: rec.Line, Reason: fmt.Sprintf("installed with `%s`, which the prose gives at line %d", cmd, ln)})
			return
		}
		if r, ok := ss.unverifiedDownload(rec.Line); ok && ss.pre.declaredFor(name, rec.Line) == 0 && ss.laterInstall(i, name) == nil && !ss.aptInstalled(name) {
			// `git clone …` could not reach the network, so the program built from it
			// is not here either
			ss.consequence(r, rec)
			ss.missing[t] = r
			return
		}
		if f, ok := ss.pipFromDebian(ctx, rec, output); ok {
			// `python3 -m pip install --user pillow` on Debian 12: python3-pil
			r := ss.addFinding(rec, f, output)
			ss.taint(rec, r)
			return
		}
		if names, at := ss.unexportedForPrograms(ctx, rec); len(names) > 0 && name != firstWord(rec.Command) {
			// `REGINA_MACROS=…/lib` on a line of its own, then regina, which looks up the
			// function `tax` there and asks the shell for it instead: "sh: 1: tax: not found"
			f := loop.Finding{Problem: failureProblem(rec, output)}
			unexportedFor(&f, names, at)
			r := ss.addFinding(rec, f, output)
			ss.taint(rec, r)
			return
		}
		r := ss.missingCommand(ctx, i, st, rec, output, name)
		ss.missing[t] = r
		ss.taint(rec, r)
		return
	}
	if r, ok := ss.taintedToolOf(rec.Command); ok {
		ss.consequence(r, rec)
		return
	}
	if r, ok := ss.notDelivered(rec); ok {
		ss.consequence(r, rec)
		return
	}
	if r, ok := ss.failedOn(rec); ok {
		ss.consequence(r, rec)
		return
	}
	if r, ok := ss.refusesBadContent(rec, output); ok {
		// `recins … contacts.rec` aborts "due to integrity failures" after `recfix
		// contacts.rec` showed the line of contacts.rec that is wrong
		ss.consequence(r, rec)
		return
	}
	if reLocalRefused.MatchString(output) || refusedHere(rec.Command, output) || rec.ExitCode == 7 && strings.Contains(" "+rec.Command, " curl ") && reLocalURL.MatchString(rec.Command) || ss.refusedInPipe(ctx, rec.Command) {
		if r, ok := ss.serverDown(); ok {
			// nothing listens because the step that starts the server failed
			ss.consequence(r, rec)
			return
		}
		if sv, port, listen := ss.otherPort(ctx, rec); sv != nil {
			// aria2c's RPC port from its configuration file (6800), and a request to 6801
			host := reHostPort.FindString(rec.Command)
			if r, ok := ss.hostRoots[host]; ok && host != "" {
				ss.consequence(r, rec) // the same wrong port again
				return
			}
			f := loop.Finding{Problem: fmt.Sprintf("`%s` (line %d) cannot connect to port %s (%s), but the server the tutorial started at line %d (`%s`) listens on port %s", firstLine(rec.Command), rec.Line, port, firstNonEmpty(keyLine(output), fmt.Sprintf("connection refused, exit %d", rec.ExitCode)), sv.line, firstLine(sv.command), strings.Join(listen, ", ")),
				Fix: fmt.Sprintf("use port %s at line %d (the port the server listens on), or start the server on port %s", listen[0], rec.Line, port), Category: "command failure"}
			if len(listen) == 1 {
				f.Edit = &loop.Edit{Replace: strings.Replace(strings.TrimSpace(rec.Command), ":"+port, ":"+listen[0], 1)}
			}
			if r := ss.addFinding(rec, f, output); host != "" {
				ss.hostRoots[host] = r
			}
			return
		}
		if r, ok := ss.deafServer(rec, output); ok {
			// the server is still running, but what it logged is an error: it never
			// came to listen
			ss.consequence(r, rec)
			return
		}
		if up := ss.serversUp(); up != "" {
			f := loop.Finding{Problem: fmt.Sprintf("`%s` (line %d) cannot connect (%s), but the server the tutorial started listens on %s", firstLine(rec.Command), rec.Line, firstNonEmpty(keyLine(output), fmt.Sprintf("connection refused, exit %d", rec.ExitCode)), up),
				Fix: fmt.Sprintf("use the port the server was started on (%s) at line %d, or start the server on the port this step uses", up, rec.Line), Category: "command failure"}
			ss.addFinding(rec, f, output)
			return
		}
		if sv, ok := ss.stoppedServer(rec.Command); ok {
			if r, ok := ss.failedRestart(sv); ok {
				// stopped as the text says, and started again by a step that failed
				// (gearmand with a configuration file it refused)
				ss.consequence(r, rec)
				return
			}
			// "Stop the server with Ctrl+C", a change to its code, and requests to a server
			// that nobody started again
			f := loop.Finding{Problem: fmt.Sprintf("`%s` (line %d) cannot connect (%s): the server that line %d starts (`%s`) was stopped at line %d, as the text says, and no step starts it again", firstLine(rec.Command), rec.Line, firstNonEmpty(keyLine(output), fmt.Sprintf("connection refused, exit %d", rec.ExitCode)), sv.line, firstLine(sv.command), sv.stopped),
				Fix:      fmt.Sprintf("say to start the server again (`%s`) before line %d", firstLine(sv.command), rec.Line),
				Category: "missing step"}
			sv.root = ss.addFinding(rec, f, output) // later requests fail for the same reason
			return
		}
		if ss.serviceDown(rec, output) {
			return // the service a package installed is not running and does not start
		}
		installFailed := slices.ContainsFunc(ss.res.Commands, func(c loop.CommandRecord) bool { return c.ExitCode != 0 && isPackageInstall(c.Command) })
		if f, ok := ss.neverStarted(ctx, rec, output, st.lead); ok && (ss.lastRoot < 0 || len(ss.servers) == 0 && !installFailed && namesPort(st.lead, rec.Command)) {
			// (before an earlier gap takes it: the text says what serves that port, no
			// step started any server, and no install failed that might have started one)
			ss.addFinding(rec, f, output)
			return
		}
		if ss.lastRoot >= 0 {
			ss.consequence(ss.lastRoot, rec)
			return
		}
	}
	if blockRoot, ok := ss.blockRoots[st.block.StartLine]; ok && ss.roots[blockRoot].finding < 0 {
		// an earlier command of the same recipe could not run (no network): the rest of
		// the recipe depends on it
		ss.consequence(blockRoot, rec)
		ss.taint(rec, blockRoot)
		if cdTarget(rec.Command) != "" {
			ss.cwdRoot = blockRoot // `cd smalltalk` after a clone that could not run
		}
		return
	}
	if m := reAsked.FindString(output); m != "" {
		// the command waited for an answer; the run answers no prompt (stdin is closed)
		r := ss.unverified(rec, "asked for input at a prompt (\""+loop.Clip(strings.TrimSpace(m), 60)+"\"); the run answers no prompt, so its outcome says nothing")
		ss.taint(rec, r)
		return
	}
	if rec.TimedOut && isPackageInstall(rec.Command) && !reAsked.MatchString(output) {
		// apt was still unpacking when the step's time ran out: the sandbox's disk or
		// mirror was slow, which says nothing about the tutorial
		r := ss.unverified(rec, fmt.Sprintf("the package install was still running after %s, the time the run gives an install; a slow disk or mirror says nothing about the tutorial", rec.Duration.Round(time.Second)))
		ss.taint(rec, r)
		return
	}
	if rec.TimedOut && typedSession(rec.Command) {
		// `nc localhost 11211`, then lines the reader types: nobody types here
		r := ss.unverified(rec, "an interactive session with a server (`"+firstWord(rec.Command)+"`) waits for what the reader types; the run types nothing, so its outcome says nothing")
		ss.taint(rec, r)
		return
	}
	if m := reNeedsTerminal.FindString(output); m != "" {
		// a full-screen program (a text-mode IDE, an editor) that found no terminal
		r := ss.unverified(rec, "needs an interactive terminal (\""+loop.Clip(strings.TrimSpace(m), 60)+"\"); the run has none, so its outcome says nothing")
		ss.taint(rec, r)
		return
	}
	if rePublish.MatchString(rec.Command) && !notPublishers[programOf(rec.Command)] && !reGitRef.MatchString(output) {
		// `mkdocs gh-deploy`, `npm publish`: the reader's own remote and account (a
		// branch that does not exist fails before any remote is asked)
		r := ss.environment(rec, output, "publishes to the reader's own remote (a GitHub repository, a package registry) with their credentials, which the sandbox does not have",
			"nothing to change in the tutorial if it says what the step needs (a repository with push access, an account)")
		ss.taint(rec, r)
		return
	}
	if f, ok := ss.localAptSource(ctx, rec, output); ok {
		// `sudo apt update` with a `file:` source whose distribution the repository does
		// not serve: no network is involved (the same source line again later)
		if ss.aptSourceRoot >= 0 {
			ss.consequence(ss.aptSourceRoot, rec)
			return
		}
		ss.aptSourceRoot = ss.addFinding(rec, f, output)
		return
	}
	if _, apt := aptInstall(rec.Command); kind == "package" && apt && ss.aptSourceRoot >= 0 {
		// the package comes from the tutorial's own repository, which apt could not read
		ss.consequence(ss.aptSourceRoot, rec)
		return
	}
	if _, apt := aptInstall(rec.Command); kind == "package" && apt && ss.wrongPackage(ctx, st, rec, output, name) {
		return // "E: Unable to locate package …", "… has no installation candidate"
	}
	if _, apt := aptInstall(rec.Command); apt && ss.pinnedVersion(ctx, st, rec, output) {
		return // "E: Version '44.2+ds-1' for 'ngspice' was not found"
	}
	if reNetwork.MatchString(output) || networkExit(rec) || reRemoteGit.MatchString(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rec.Command), "sudo "))) && (!reGitLocal.MatchString(output) || reURL.MatchString(rec.Command)) {
		r := ss.unverified(rec, "needs the network, which the sandbox does not have ("+keyLine(output)+")")
		ss.taint(rec, r)
		if cdTarget(rec.Command) != "" {
			ss.cwdRoot = r
		}
		ss.offline = st.block.StartLine
		return
	}
	if m := reNoDevice.FindString(output); m != "" {
		// `gpsbabel -i garmin -f usb:`: "Found no Garmin USB devices."
		r := ss.environment(rec, output, fmt.Sprintf("`%s` talks to a device plugged into the reader's machine (“%s”), which the sandbox does not have", firstLine(rec.Command), strings.TrimSpace(m)),
			"nothing to change in the tutorial if it says that this step needs the device")
		ss.taint(rec, r)
		return
	}
	if host, at := ss.placeholderServer(rec); host != "" {
		// `task config taskd.server tasks.example.net:53589`, then `task sync`
		ss.environment(rec, output, fmt.Sprintf("`%s` works with the server line %d configured, `%s`, a placeholder for the reader's own server, which the sandbox does not have", firstLine(rec.Command), at, host),
			"nothing to change in the tutorial if it says that this step needs the reader's own server")
		return
	}
	if ss.cwdRoot >= 0 {
		ss.consequence(ss.cwdRoot, rec)
		ss.taint(rec, ss.cwdRoot)
		return
	}
	r, ok := 0, false
	if !redirectFailed(rec.Command, output) {
		// (a shell that could not open the output file never ran the program, whatever
		// its inputs: `… clean.csv > reports/x.json` with no reports/)
		r, ok = ss.dependsOnTainted(rec.Command)
	}
	if !ok {
		// the very error an earlier gap reported (the PDF build stops on the include the
		// HTML build could not find)
		r, ok = ss.sameError(output)
	}
	if !ok {
		// `black --check . && flake8 . && mypy .` after `flake8 .` failed alone: the
		// same check fails again inside the chain
		r, ok = ss.repeatsFailed(rec, output)
	}
	if !ok && (reNotThere.MatchString(output) || reMissingNamed.MatchString(output)) {
		// hello-1.0.tar.gz.minisig after `minisign -S -m hello-1.0.tar.gz` failed: a file
		// named after a failed step's input is what that step was to write
		r, ok = ss.derivedFromFailed(output)
	}
	if !ok && reNotThere.MatchString(output) {
		// the missing thing the error names by its full path is what a failed step was to
		// make (`borg create ::x` reaching the repository through $BORG_REPO)
		r, ok = ss.namesTainted(keyLine(output))
		if !ok {
			r, ok = ss.namesTaintedHere(output)
		}
	}
	if ok {
		ss.consequence(r, rec)
		ss.taint(rec, r)
		if cdTarget(rec.Command) != "" {
			ss.cwdRoot = r
		}
		return
	}
	switch {
	case ss.user == "" && reNotAsRoot.MatchString(output):
		r := ss.environment(rec, output, "refuses to run as root, which the sandbox's shell is (its container cannot use sudo); the reader runs it as an ordinary user",
			"nothing to change in the tutorial; run smile-loop with an image whose learner user can use sudo to check these steps")
		ss.taint(rec, r)
		ss.taintTools[toolOf(firstWord(rec.Command)).Name] = r // it refuses every time
		return
	case reSystemd.MatchString(output):
		ss.environment(rec, output, "needs systemd running as PID 1, which a container does not have; on the reader's machine it works",
			"nothing to change in the tutorial; to check these steps, run smile-loop with an image that boots systemd")
		ss.initScriptInstead(ctx, rec)
		return
	case reDockerDaemon.MatchString(output):
		ss.environment(rec, output, "needs a running Docker Engine, which the learner container does not have",
			"nothing to change in the tutorial if it names Docker as a prerequisite; otherwise add it under Prerequisites")
		return
	case reHardware.MatchString(output):
		ss.environment(rec, output, "needs hardware, a display or an interactive terminal, which the container does not have ("+keyLine(output)+")",
			"say in the tutorial what hardware or desktop the step needs")
		return
	}
	if dir := cdTarget(rec.Command); dir != "" && ss.lastRoot >= 0 && ss.lastFailedStep == i-1 && ss.names(i-1, dir) {
		// the step right before failed: it is what should have created the directory
		ss.consequence(ss.lastRoot, rec)
		ss.cwdRoot = ss.lastRoot
		return
	}
	if dir := cdTarget(rec.Command); dir != "" {
		if other, at := ss.sameNamedDir(dir, rec.Line); other != "" {
			// `cd ~/projects/bisect-demo` where line 55 made ~/bisect-demo
			r := ss.addFinding(rec, loop.Finding{
				Problem:  fmt.Sprintf("`cd %s` fails: there is no `%s`, but line %d made `%s`", dir, dir, at, other),
				Fix:      fmt.Sprintf("use `cd %s` at line %d (the folder the tutorial made), or make `%s` where line %d does", other, rec.Line, dir, at),
				Edit:     &loop.Edit{Replace: "cd " + other},
				Category: "command failure",
			}, output)
			ss.cwdRoot = r
			return
		}
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("`cd %s` fails: no earlier step creates the directory `%s`", dir, dir),
			Fix:      fmt.Sprintf("add `mkdir -p %s` (or the step that creates it) before line %d, or correct the directory name%s", dir, rec.Line, similarDir(ss.dirs(ctx), dir)),
			Edit:     &loop.Edit{InsertBefore: []string{"mkdir -p " + dir}},
			Category: "missing step",
		}, output)
		ss.cwdRoot = r
		return
	}
	if r, ok := ss.daemonDown(rec, output); ok {
		// supervisorctl cannot reach the socket of the supervisord that failed to start
		ss.consequence(r, rec)
		return
	}
	if ss.serviceDown(rec, output) {
		// fail2ban-client when the fail2ban service did not start
		return
	}
	if foreign, own, in := ss.foreignHome(ctx, rec); foreign != "" {
		// logpath = /home/example_user/f2b-lab/webapp.log in a jail the reader wrote
		where := "the command names"
		if in != "" {
			where = fmt.Sprintf("`%s`, which the tutorial has the reader write, names", ss.homeRel(in))
		}
		user := strings.SplitN(strings.TrimPrefix(foreign, "/home/"), "/", 2)[0]
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s; %s `%s`, in the home folder of a user `%s` the reader is not, which does not exist; the reader's own file is `%s`", failureProblem(rec, output), where, foreign, user, own),
			Fix:      fmt.Sprintf("say that `%s` stands for the reader's own user name (or write the path as `%s`, with the reader's home folder)", user, own),
			Category: "command failure",
		}, output)
		ss.taint(rec, r)
		return
	}
	if ss.expectedFailure(st, output) {
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: rec.Line, Reason: "failed as the tutorial shows (a deliberate error)"})
		return
	}
	if r, ok := ss.sameFailure(rec, output); ok {
		ss.consequence(r, rec)
		return
	}
	if r, ok := ss.sameRefusedValue(output); ok {
		// pre-commit 3.0.4 refused `--hook-stage pre-push` ("invalid choice: 'pre-push'"),
		// and then the configuration's `stages: [pre-push]` ("… but got: 'pre-push'")
		ss.consequence(r, rec)
		return
	}
	if r, ok := ss.varOfUnreadFile(output); ok {
		// `tide-report`'s TIDE_STATION is in .env.local, which a gap says nothing loads
		ss.consequence(r, rec)
		return
	}
	if r, ok := ss.editNeverMade(output); ok {
		// `bzr commit` after the merge of a branch whose `sed -i` found no file: nothing
		// changed because the edit did not happen
		ss.consequence(r, rec)
		return
	}
	if r, ok := ss.madeByFailedScript(output); ok {
		// a file the tutorial's own script would have written, had it run
		ss.consequence(r, rec)
		return
	}
	if missing, at := ss.insideFirstDir(ctx, rec, output); missing != "" {
		// `cd data && head -3 books.csv`, then `… data/books.csv` from the same shell
		dir := ss.homeRel(ss.cwd)
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("`%s` (line %d) fails: `%s` is relative to the folder above, but the session is still inside `%s`, which line %d entered (`%s`), and no step goes back", firstLine(rec.Command), rec.Line, missing, dir, at.Line, firstLine(at.Command)),
			Fix:      fmt.Sprintf("add `cd ..` before line %d (or run line %d's command in a subshell: `(cd %s && …)`)", rec.Line, at.Line, path.Base(ss.cwd)),
			Edit:     &loop.Edit{InsertBefore: []string{"cd .."}},
			Category: "missing step",
		}, output)
		ss.taint(rec, r)
		ss.cwdRoot = r
		return
	}
	if d, ok := ss.danglingLink(ctx, rec, output); ok {
		// `ln -sf logs/2024-03.log logs/current.log`, then `./logtime < logs/current.log`
		f := loop.Finding{Problem: failureProblem(rec, output)}
		d.explain(rec, &f)
		ss.taint(rec, ss.addFinding(rec, f, output))
		return
	}
	if file, dir, sc := ss.cdLost(ctx, rec, output); file != "" {
		// cal-publish.sh's `cd /srv/…/calendar`, and then `ls -l team.ics` in the reader's
		// shell, which never left ~
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s; `%s` is in `%s`, where `%s` (run at line %d) changes with `cd`, but a script runs in a process of its own: its `cd` ends with it, and the reader's shell is still in `%s`", failureProblem(rec, output), file, ss.homeRel(dir), sc.name, sc.line, ss.homeRel(ss.cwd)),
			Fix:      fmt.Sprintf("add `cd %s` before line %d (or give the file's full path there), and do not say the script leaves the reader in that folder", ss.homeRel(dir), rec.Line),
			Edit:     &loop.Edit{InsertBefore: []string{"cd " + shellQuote(dir)}},
			Category: "missing step",
		}, output)
		ss.taint(rec, r)
		return
	}
	if name, at := ss.givenLater(rec, output); name != "" {
		// minizinc rota.mzn rota.dzn, and rota.dzn shown a section further on
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s; the tutorial gives `%s` only at line %d, after this step needs it", failureProblem(rec, output), name, at),
			Fix:      fmt.Sprintf("move the step that creates `%s` (line %d) before line %d", name, at, rec.Line),
			Category: "missing step",
		}, output)
		// (the file, not the program: once line `at` writes it, a failure of the same
		// program is a gap of its own, as `minizinc --solver chuffed … rota.dzn` is)
		ss.taintPaths[ss.abs(name)] = r
		return
	}
	if missing, at, include := ss.contentNeverGiven(rec, output); missing != "" {
		// "Save it as nightly-report.sh:" above an include of a file the page never shows
		given := "nothing follows it"
		if include != "" {
			given = fmt.Sprintf("what follows is only `%s`, an include of a file the reader does not have", include)
		}
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s; line %d says to save `%s`, but the tutorial never shows what goes in it (%s)", failureProblem(rec, output), at, missing, given),
			Fix:      fmt.Sprintf("give the whole content of `%s` in a code block after line %d (or a link the reader can download it from)", missing, at),
			Category: "missing step",
		}, output)
		ss.taint(rec, r)
		ss.taintMissingArgs(ctx, rec.Command, r)
		return
	}
	if reNotThere.MatchString(output) && reBroughtFile.MatchString(st.lead) {
		// "To import someone else's public key that they sent you:": nothing here has it,
		// even when a file the reader made has a name like it (alex.asc)
		r := ss.unverified(rec, "needs a file the reader gets from someone else (\""+loop.Clip(lastSentence(st.lead), 80)+"\")")
		ss.taint(rec, r)
		return
	}
	if fixed, why := ss.swappedArgs(ctx, rec, output); fixed != "" {
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s; %s", failureProblem(rec, output), why),
			Fix:      fmt.Sprintf("swap them at line %d: `%s`", rec.Line, fixed),
			Category: "command failure",
			Edit:     &loop.Edit{Replace: fixed},
		}, output)
		ss.taint(rec, r)
		ss.taintMissingArgs(ctx, rec.Command, r)
		return
	}
	if _, near := ss.nearName(ctx, rec.Command, output); near != "" {
		// sweep-.json, which sweep.sh wrote for sweep-1.json once the shell had emptied $n
		if r := ss.lostVars[path.Base(near)]; r > 0 {
			ss.consequence(r-1, rec)
			return
		}
		if h, ran := ss.heredocMaking(path.Base(near), rec.Line); h.file != "" {
			// (the run of the script printed what it did without failing)
			f := loop.Finding{Problem: failureProblem(rec, output)}
			h.explain(&f)
			r := ss.addFinding(rec, f, output)
			ss.taint(rec, r)
			ss.noteLost(h, r)
			ss.moveTo(r, ran, "line %d runs that script")
			return
		}
	}
	if missing, near := ss.nearName(ctx, rec.Command, output); near != "" && !ss.proseVariableUnset(ctx, rec, output) {
		// "chord-faded.wav" where the tutorial made "chord-fade.wav": a name mismatch
		f := loop.Finding{
			Problem:  fmt.Sprintf("`%s` (line %d) fails: `%s` does not exist, but `%s` does; the tutorial names the same file two ways%s", firstLine(rec.Command), rec.Line, missing, near, caseOnly(missing, near)),
			Fix:      fmt.Sprintf("use one name for the file: `%s` at line %d (or create `%s` earlier)", near, rec.Line, missing),
			Category: "command failure",
		}
		if cmd := strings.TrimSpace(rec.Command); !strings.Contains(cmd, "\n") && strings.Count(cmd, missing) == 1 && !strings.Contains(cmd, near) {
			// the name the tutorial wrote, in place of the one it uses here
			f.Edit = &loop.Edit{Replace: strings.Replace(cmd, missing, near, 1)}
		} else if reNoRule.MatchString(output) && !strings.Contains(cmd, missing) {
			// the build file names it: the reader makes the file under that name too
			f.Edit = &loop.Edit{InsertBefore: []string{"cp " + shellQuote(near) + " " + shellQuote(missing)}}
		}
		r := ss.addFinding(rec, f, output)
		ss.taint(rec, r)
		ss.taintMissingArgs(ctx, rec.Command, r)
		if segs := ss.segments[ss.abs(near)]; len(segs) > 0 && path.Dir(near) != path.Dir(missing) && !strings.Contains(rec.Command, missing) && !reNoSuchInclude.MatchString(output) {
			// (a name a program looked for in a folder of its own, an include, stays on
			// the step that stops: which of the two names is wrong is the author's call)
			// a name inside a file the tutorial wrote, saved elsewhere under another name:
			// the block that saved it is where the two part
			ss.moveTo(r, segs[0].block.StartLine, "the tutorial saves the file under the other name at line %d")
		}
		return
	}
	if missing, prev := ss.printedInstead(rec, output); prev != nil {
		// `makeinfo --plaintext tide.texi`, then `head tide.txt`: the text went to the
		// terminal, not to a file
		write := strings.TrimSpace(prev.Command) + " > " + missing
		ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("`%s` (line %d) fails: `%s` was never written; `%s` (line %d) printed its result on standard output instead of saving it as `%s`", firstLine(rec.Command), rec.Line, missing, firstLine(prev.Command), prev.Line, missing),
			Fix:      fmt.Sprintf("have line %d save its output: `%s` (or the program's option for an output file)", prev.Line, write),
			Edit:     &loop.Edit{InsertBefore: []string{write}},
			Category: "command failure",
		}, output)
		return
	}
	if ss.prevFailed && ss.lastFailRoot >= 0 && !ss.runsNewerFile(rec) && !missesOwnOutput(rec.Command, output) && !reEmptyQuoted.MatchString(output) && (reNotThere.MatchString(output) || firstWord(rec.Command) == ss.lastFailTool && reEmptyState.MatchString(output) || strings.TrimSpace(output) == "" && !rec.TimedOut && isQuery(rec.Command)) {
		// a file or program the failed step right before it would have made, the same
		// tool going on from a state that step left broken, or a query that finds nothing
		// (`git config user.name` after the step that was to set it failed)
		ss.consequence(ss.lastFailRoot, rec)
		ss.taint(rec, ss.lastFailRoot)
		return
	}
	if r, ok := ss.sameBranchGap(output); ok {
		// the branch an earlier gap already found missing (main where Git made master)
		ss.consequence(r, rec)
		return
	}
	if tok, at := ss.laterMaker(i, rec, output); at != nil && (strings.Contains(tok, "/") || ss.findFile(ctx, path.Base(tok)) == "" && !ss.wroteElsewhere(ctx, rec.Command, output, tok)) {
		// `mcopy … ::/DOCS` right before `mmd … ::/DOCS`, `m4 -R site.m4f` before the
		// step that freezes it: the steps are in the wrong order (not when the file is
		// there already, in a folder below or where an earlier step wrote it by its full
		// path: the reader is in the wrong folder, as the missing-cd check below says)
		where := ""
		if h := ss.task.Tutorial.Map.HeadingPath(at.line); len(h) > 0 && section(ss.task.Tutorial, at.line) != section(ss.task.Tutorial, rec.Line) {
			where = ", under “" + h[len(h)-1] + "”"
		}
		ss.movedUp[at.line] = rec.Line
		ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("`%s` (line %d) fails: it needs `%s`, which the step that makes it, `%s` (line %d%s), only makes after it", firstLine(rec.Command), rec.Line, tok, firstLine(at.command.Text), at.line, where),
			Fix:      fmt.Sprintf("move `%s` (line %d) before line %d", firstLine(at.command.Text), at.line, rec.Line),
			Edit:     &loop.Edit{InsertBefore: []string{at.command.Text}},
			Category: "wrong order",
		}, output)
		return
	}
	if r, ok := ss.failedIdentity(output); ok {
		// no identity because the step that was to set it failed
		ss.consequence(r, rec)
		return
	}
	if ss.promptedAt > 0 && ss.promptedAt < rec.Line && reWrongSecret.MatchString(output) {
		// the passphrase a prompt asked for earlier: the sandbox answered it with an empty
		// line, where the reader types the one the tutorial uses later
		if r := ss.rootAtLine(ss.promptedAt); r >= 0 {
			ss.consequence(r, rec)
			return
		}
		ss.taint(rec, ss.unverified(rec, fmt.Sprintf("needs the passphrase the reader typed at line %d's prompt (the sandbox answered it with an empty line)", ss.promptedAt)))
		return
	}
	if f, ok := ss.pipFromDebian(ctx, rec, output); ok {
		// pip refusing Debian 12's system Python: Debian's package of the library
		r := ss.addFinding(rec, f, output)
		ss.taint(rec, r)
		return
	}
	if file := ss.lockedAnnexed(ctx, output); file != "" {
		// `cp new.wav take-02.wav` over a file git-annex has locked
		r := ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s: `%s` is a locked git-annex file, a link to a read-only object under .git/annex/objects, so nothing can write to it", failureProblem(rec, output), file),
			Fix:      fmt.Sprintf("unlock it before changing it: add `git annex unlock %s` before line %d", file, rec.Line),
			Edit:     &loop.Edit{InsertBefore: []string{"git annex unlock " + shellQuote(file)}},
			Category: "missing step",
		}, output)
		ss.taint(rec, r)
		return
	}
	if want, have := ss.needsNewer(ctx, rec, output); want != "" {
		// POV-Ray 3.7.0.10 (bookworm) on a scene that opens with `#version 3.8;`
		prog := programOf(rec.Command)
		ss.addFinding(rec, loop.Finding{
			Problem:  fmt.Sprintf("%s: it needs %s %s or later, and the reader's Debian has %s %s", failureProblem(rec, output), prog, want, prog, have),
			Fix:      fmt.Sprintf("write the step for %s %s, the version Debian ships (for a file that names its version, the %s it supports), or say how to install %s %s", prog, have, have, prog, want),
			Category: "command failure",
		}, output)
		return // (only the files that ask for it fail: the program is not tainted)
	}
	if x, ok := ss.maskedFromOthers(ctx, rec, output); ok {
		// `umask 077` in cal-publish.sh, then `sudo -u www-data head team.ics`
		f := loop.Finding{Problem: failureProblem(rec, output)}
		x.explain(rec, &f)
		ss.taint(rec, ss.addFinding(rec, f, output))
		return
	}
	denied, dir, owner, made := ss.notOwned(ctx, rec, output)
	if r, ok := ss.madeBySudoFix(dir); ok && made == 0 {
		// the folder an earlier gap's fix made with sudo: root's, as that gap's fix leaves it
		ss.consequence(r, rec)
		ss.taint(rec, r)
		return
	}
	f := loop.Finding{Problem: failureProblem(rec, output)}
	earlyAt := 0         // the line of an install step this failure comes before
	emptied := ""        // a variable whose being unset explains the failure
	var lost lostHeredoc // a script whose variables the shell emptied as it wrote it
	f.Fix, f.Edit = failureFix(rec, output)
	if dir != "" {
		// the learner is not root: a system folder needs sudo, and a folder the tutorial
		// made with sudo is root's until it is given to the reader
		f.Category = "command failure"
		group, added := ss.groupJoinedFor(ctx, dir, rec.Line)
		switch file, at := ss.writtenNaming(denied); {
		case added > 0:
			// `sudo usermod -aG www-data "$(whoami)"`, then a copy into the group's folder
			// from the same shell, which still runs with the groups it had at login
			f.Problem += fmt.Sprintf("; `%s` is writable by the group `%s`, and line %d adds the reader to that group, but a new group membership applies only to sessions started after it: this shell still runs without it", dir, group, added)
			f.Fix = fmt.Sprintf("after line %d, tell the reader to log out and back in (or run `newgrp %s`) before line %d", added, group, rec.Line)
			f.Edit = nil
		case made > 0:
			f.Problem += fmt.Sprintf("; `%s` belongs to root: line %d made it with sudo, so the reader has no permission to write there", dir, made)
			f.Fix = fmt.Sprintf("give the folder to the reader after line %d (`sudo chown \"$USER\": %s`), or run line %d with sudo", made, dir, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{`sudo chown "$USER": ` + dir}}
		case file != "":
			// lighttpd.conf's errorlog in /var/log/lighttpd, which is www-data's
			f.Problem += fmt.Sprintf("; `%s`, which the tutorial's `%s` (line %d) points at, belongs to %s and the reader's shell cannot write there", dir, path.Base(file), at, owner)
			mine := ss.homeRel(path.Join(path.Dir(file), path.Base(denied)))
			f.Fix = fmt.Sprintf("in `%s` (line %d), use a path the reader owns instead of `%s` (such as `%s`)", path.Base(file), at, denied, mine)
			f.Edit = &loop.Edit{InsertBefore: []string{fmt.Sprintf(`sed -i "s|%s|%s|" %s`, denied, strings.Replace(mine, "~", "$HOME", 1), ss.homeRel(file))}}
		default:
			f.Problem += fmt.Sprintf("; `%s` belongs to %s and the reader's shell is not root: no permission to write there", dir, owner)
			f.Fix = fmt.Sprintf("run line %d with sudo: `sudo %s`", rec.Line, firstLine(strings.TrimSpace(rec.Command)))
		}
		if f.Edit == nil && !strings.Contains(rec.Command, "\n") {
			f.Edit = &loop.Edit{Replace: "sudo " + strings.TrimSpace(rec.Command)}
		}
	}
	if m := reRootOnly.FindString(output); dir == "" && f.Edit == nil && m != "" && ss.user != "" && !reSudo.MatchString(rec.Command) && !strings.Contains(rec.Command, "\n") {
		// nmap 7.93's SYN scan: "You requested a scan type which requires root
		// privileges. QUITTING!"
		f.Problem += fmt.Sprintf("; the program says it %s, and the reader's shell is not root", strings.TrimSuffix(strings.ToLower(strings.TrimSpace(m)), "."))
		f.Fix = fmt.Sprintf("run line %d with sudo: `sudo %s` (or say that it needs root)", rec.Line, strings.TrimSpace(rec.Command))
		f.Edit = &loop.Edit{Replace: "sudo " + strings.TrimSpace(rec.Command)}
	}
	if f.Edit != nil {
		f.Category = "missing step"
	}
	if files := requiredFiles(output); f.Edit == nil && len(files) > 0 {
		// automake's GNU strictness: NEWS, AUTHORS, ChangeLog… that nothing creates
		f.Problem += fmt.Sprintf("; the build requires %s, which the tutorial never creates", quoteList(files))
		f.Fix = fmt.Sprintf("create them before line %d (`touch %s`), or relax the requirement (for Automake, `AM_INIT_AUTOMAKE([foreign])`)", rec.Line, strings.Join(files, " "))
		f.Edit = &loop.Edit{InsertBefore: []string{"touch " + strings.Join(files, " ")}}
		f.Category = "missing step"
	}
	if f.Edit == nil {
		if pkg, file := ss.pluginPackage(ctx, output); pkg != "" {
			// uwsgi-core without uwsgi-plugin-python3: "UNABLE to load uWSGI plugin:
			// /usr/lib/uwsgi/plugins/python3_plugin.so: cannot open shared object file"
			f.Problem += fmt.Sprintf("; `%s` is not installed: Debian ships it in `%s`, which the tutorial never installs", file, pkg)
			f.Fix = fmt.Sprintf("install `%s` before line %d (`sudo apt install %s`)", pkg, rec.Line, pkg)
			f.Edit = &loop.Edit{InsertBefore: []string{"sudo apt-get install -y " + pkg}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if file, here := ss.systemFileElsewhere(ctx, output); here != "" {
			// node -p "require('/usr/lib/nodejs/express/package.json')": Debian keeps its
			// JavaScript modules in /usr/share/nodejs
			f.Problem += fmt.Sprintf("; `%s` does not exist, but `%s` does: this system keeps it there", file, here)
			f.Fix = fmt.Sprintf("use `%s` at line %d", here, rec.Line)
			if !strings.Contains(rec.Command, "\n") {
				f.Edit = &loop.Edit{Replace: strings.ReplaceAll(strings.TrimSpace(rec.Command), file, here)}
			}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if pkg, file, by, rel, at := ss.skippedRecommend(ctx, output); pkg != "" {
			// pari-gp installed with --no-install-recommends, then "error opening elldata
			// file: `/usr/share/pari/elldata/ell0'": the data package it recommends
			f.Problem += fmt.Sprintf("; `%s` would come with `%s`, which `%s` %s and line %d leaves out", file, pkg, by, rel, at)
			f.Fix = fmt.Sprintf("install `%s` too (`sudo apt install %s`) before line %d", pkg, pkg, rec.Line)
			if rel == "recommends" {
				f.Fix += fmt.Sprintf(", or drop --no-install-recommends at line %d", at)
			}
			f.Edit = &loop.Edit{InsertBefore: []string{"sudo apt-get install -y " + pkg}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if dir, at := ss.dirMadeElsewhere(rec, output); dir != "" {
			// `mkdir -p ~/lb/web1`, then `echo … > web1/index.html` from elsewhere
			f.Problem += fmt.Sprintf("; line %d made that folder in `%s`, and no step changes into it", at, dir)
			f.Fix = fmt.Sprintf("add `cd %s` before line %d", dir, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{"cd " + dir}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if dir, at := ss.projectBelow(ctx, rec, output); dir != "" {
			// `mix new word_freq`, then `mix compile` in the folder above it
			f.Problem += fmt.Sprintf("; the project `%s` that line %d generated is one folder down, and the tutorial never says `cd %s`", dir, at, dir)
			f.Fix = fmt.Sprintf("add `cd %s` before line %d", dir, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{"cd " + dir}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if script, shebang := ss.bashUnderSh(rec, output); script != "" {
			// `sh thumbs.sh` for a script that starts `#!/usr/bin/env bash`: dash stops
			// at "set: Illegal option -o pipefail"
			with := strings.Replace(strings.TrimSpace(rec.Command), firstWord(rec.Command), "bash", 1)
			f.Problem += fmt.Sprintf("; `%s` is a bash script (its first line is `%s`), but the step runs it with `%s`, which is dash on Debian", script, shebang, firstWord(rec.Command))
			f.Fix = fmt.Sprintf("run it with bash at line %d: `%s`", rec.Line, with)
			f.Edit = &loop.Edit{Replace: with}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if lost = ss.expandedHeredoc(rec); lost.file != "" {
			// `cat > add-item.sh <<EOF` with `$1` in it, then `./add-item.sh coffee 5`
			lost.explain(&f)
		}
	}
	if f.Edit == nil {
		if name, at, set, script := ss.unexportedVar(ctx, rec); name != "" && singleQuotedVar(rec.Command, output) == "" {
			// (not when the error quotes `$SHIFT` as written: no shell expanded it)
			// `LOG=app.log`, then `hyperfine '… "$LOG" …'`: the program's own shell
			unexportedVarFor(&f, name, at, set, script)
		}
	}
	if f.Edit == nil {
		if name, at := ss.unexportedNamed(ctx, rec, output); name != "" {
			// `LAB_TOKEN=…` on a line of its own, then nats-server, whose lab.conf reads
			// $LAB_TOKEN: "variable reference for 'LAB_TOKEN' on line 7 can not be found"
			unexportedFor(&f, []string{name}, at)
		}
	}
	if f.Edit == nil {
		if names, at := ss.unexportedForPrograms(ctx, rec); len(names) > 0 {
			// `http_proxy=http://127.0.0.1:8899` on a line of its own, then curl, which
			// reads it from its environment
			unexportedFor(&f, names, at)
		}
	}
	if f.Edit == nil {
		if script := ss.unexecutable(ctx, rec.Command, output); script != "" {
			// a script the tutorial wrote runs through another program (a test runner, a
			// package builder) that needs it executable
			f.Problem += fmt.Sprintf("; `%s`, which the tutorial created, is not executable", script)
			f.Fix = fmt.Sprintf("make the script executable after creating it: add `chmod +x %s` before line %d", script, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{"chmod +x " + script}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if v, export, at := ss.unreadExport(ctx, rec, output); v != "" {
			// `echo 'export M4PATH=…' >> ~/.bashrc`, then m4 does not find its include
			f.Problem += fmt.Sprintf("; line %d adds `%s` to a start-up file, which the shell the reader is typing in has not read (nothing sources it or starts a new shell), so `%s` is not set here", at, firstLine(export), v)
			f.Fix = fmt.Sprintf("after line %d, run the export in the current shell too (`%s`), or tell the reader to open a new terminal", at, export)
			f.Edit = &loop.Edit{InsertBefore: []string{export}}
			f.Category = "missing step"
		}
	}
	varUnset := false // the cause is a variable no step set: no folder to make
	if f.Edit == nil && f.Category != "missing step" {
		if name, at := ss.unsetProseVariable(ctx, rec, output); name != "" {
			// "MINISIGN_CONFIG_DIR points there", and nothing sets it: minisign looks in
			// its default place
			f.Problem += fmt.Sprintf("; the tutorial counts on `%s` (line %d), but no step sets it, so `%s` looks in its default place", name, at, programOf(rec.Command))
			f.Fix = fmt.Sprintf("before line %d, add `export %s=…` with the value line %d describes (or pass the path on the command line)", rec.Line, name, at)
			f.Category, varUnset = "missing step", true
		}
	}
	if f.Edit == nil && f.Category != "missing step" {
		if at, name, from, set := ss.exportedEmpty(ctx, st, rec); set != nil {
			// `export TS_SOCKET="$NIGHT_QUEUE"`, then `tsp -S 1`, with NIGHT_QUEUE set in
			// the block below
			f.Problem += fmt.Sprintf("; line %d exports `%s` from `$%s`, which is not set yet: the tutorial sets it only at line %d (`%s`), so `%s` is empty", at.line, name, from, set.line, firstLine(set.command.Text), name)
			f.Fix = fmt.Sprintf("move `%s` (line %d) before line %d", firstLine(set.command.Text), set.line, at.line)
			f.Edit = &loop.Edit{InsertBefore: []string{set.command.Text, at.command.Text}}
			f.Category, varUnset = "missing step", true
		}
	}
	if f.Edit == nil && f.Category != "missing step" {
		if name, as, became := ss.unsetVariable(ctx, rec.Command, output); name != "" {
			// `openssl x509 -in "$EASYRSA_PKI/ca.crt"`: easyrsa sets it for itself only
			if at := ss.laterSetting(rec.Line, name); at != nil {
				// `mkdir -p "$PIKE_MODULE_PATH"` above the collapsed "Make the module path
				// permanent" that exports it (and reloads ~/.bashrc on the next line)
				var cmds []string
				for _, s := range ss.steps {
					if s.command != nil && s.block.StartLine == at.block.StartLine && s.line >= at.line {
						cmds = append(cmds, s.command.Text)
					}
				}
				f.Problem += fmt.Sprintf("; `$%s` is not set yet: the tutorial sets it only at line %d (`%s`), after this step, so %s", name, at.line, firstLine(at.command.Text), expandsTo(as, became))
				f.Fix = fmt.Sprintf("move the block of line %d (`%s`) before line %d", at.line, strings.Join(cmds, "`, `"), rec.Line)
				f.Edit = &loop.Edit{InsertBefore: cmds}
			} else {
				f.Problem += fmt.Sprintf("; `$%s` is not set in the reader's shell (no step sets or exports it), so %s", name, expandsTo(as, became))
				f.Fix = fmt.Sprintf("before line %d, add `export %s=…` with the value the tutorial means, or write the path out in full", rec.Line, name)
			}
			f.Category, varUnset, emptied = "missing step", true, name
		}
	}
	if f.Edit == nil {
		if file, dir := ss.writtenElsewhere(ctx, rec.Command, output); dir != "" {
			// the tutorial saved the file in a folder it never says to go into
			into := "no step changes into it"
			if ln := ss.laterCd(rec.Line, dir); ln > 0 {
				into = fmt.Sprintf("the tutorial changes into it only at line %d", ln)
			}
			f.Problem += fmt.Sprintf("; the tutorial saved `%s` in `%s`, but the session is in `%s` and %s", file, dir, ss.homeRel(ss.cwd), into)
			f.Fix = fmt.Sprintf("add `cd %s` before line %d", dir, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{"cd " + dir}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if dir, at := ss.fileInFolderMade(ctx, rec, output); dir != "" {
			// `cp -r /usr/share/openscad/examples/Basics ~/scad-examples`, then
			// `openscad -o letterblock.stl LetterBlock.scad` from the home folder
			f.Problem += fmt.Sprintf("; the file is in `%s`, which line %d made, and no step changes into it", dir, at)
			f.Fix = fmt.Sprintf("add `cd %s` before line %d", dir, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{"cd " + dir}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if old, have := ss.otherVersionPath(ctx, rec.Command); have != "" {
			// -I/usr/include/python3.10 where Debian has python3.11
			f.Problem += fmt.Sprintf("; `%s` does not exist here: this system has `%s`", old, have)
			f.Fix = fmt.Sprintf("use `%s` at line %d (or a path that does not name a version, such as the output of `python3-config --includes`)", have, rec.Line)
			if c := strings.TrimSpace(rec.Command); !strings.Contains(c, "\n") {
				f.Edit = &loop.Edit{Replace: strings.ReplaceAll(c, old, have)}
			}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if host, names, with := ss.certNameMismatch(ctx, rec, output); names != "" {
			// curl's "no alternative certificate subject name matches target host name
			// '127.0.0.1'" for a certificate made for localhost only
			f.Problem += fmt.Sprintf("; the server's certificate is issued for %s only (its subjectAltName), not for `%s`, the host the URL names", names, host)
			kind := "DNS"
			if net.ParseIP(host) != nil {
				kind = "IP"
			}
			f.Fix = fmt.Sprintf("use a name the certificate holds in the URL at line %d (`%s`), or add `%s:%s` to the certificate's subjectAltName", rec.Line, firstLine(with), kind, host)
			f.Edit = &loop.Edit{Replace: with}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		ss.insideFix(ctx, &f, rec, output)
	}
	if f.Edit == nil {
		if flag, lines := ss.flagLeftOut(rec); flag != "" {
			// `ldapsearch -LLL …` where every ldapsearch that worked had -x
			prog := programOf(rec.Command)
			f.Problem += fmt.Sprintf("; every `%s` that worked before (line %s) passes `%s`, which this one leaves out", prog, joinInts(lines), flag)
			f.Fix = fmt.Sprintf("add `%s` to the command at line %d, as at line %s", flag, rec.Line, joinInts(lines))
			if c := strings.TrimSpace(rec.Command); !strings.Contains(c, "\n") {
				i := strings.Index(c, prog) + len(prog)
				f.Edit = &loop.Edit{Replace: c[:i] + " " + flag + c[i:]}
			}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if file, dir, env := ss.offLoadPath(output); dir != "" {
			// the tutorial wrote the module, where the interpreter does not look
			f.Problem += fmt.Sprintf("; the tutorial saved `%s` under `%s`, which is not on the interpreter's load path", file, dir)
			f.Fix = fmt.Sprintf("add `%s` before line %d (or run it from `%s`)", env, rec.Line, dir)
			f.Edit = &loop.Edit{InsertBefore: []string{env}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if value, file, at := ss.tildeInFile(output); value != "" {
			// HAProxy 2.6: "'stats socket' : missing port specification in '~/lb/admin.sock'"
			f.Problem += fmt.Sprintf("; `%s` in `%s` (line %d) starts with `~`, which only a shell expands: the program takes the path as written", value, file, at)
			f.Fix = fmt.Sprintf("write the absolute path (`%s`) at line %d", path.Join(ss.home, strings.TrimPrefix(value, "~/")), at)
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if at := ss.definedLater(i, rec, output); at != nil {
			// `task context talk` in one section, `task context define talk …` in a later one
			f.Problem += fmt.Sprintf("; `%s` is defined only by a later step (line %d: `%s`)", ss.undefinedName(rec, output), at.line, firstLine(at.command.Text))
			f.Fix = fmt.Sprintf("move `%s` (line %d) before line %d", firstLine(at.command.Text), at.line, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{at.command.Text}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if bad, right, at := ss.misspeltSubcommand(ctx, rec, output); right != "" {
			// `bzr stauts` where the tutorial runs `bzr status` later (Breezy's own guess
			// is "stats")
			prog := programOf(rec.Command)
			if at > 0 {
				f.Problem += fmt.Sprintf("; `%s` is not a subcommand of `%s`: it is `%s` misspelt (the tutorial runs `%s %s` at line %d)", bad, prog, right, prog, right, at)
			} else {
				f.Problem += fmt.Sprintf("; `%s` is not a subcommand of `%s`: it is `%s` misspelt (`%s --help` lists `%s`)", bad, prog, right, prog, right)
			}
			f.Fix = fmt.Sprintf("write `%s %s` at line %d", prog, right, rec.Line)
			f.Edit = &loop.Edit{Replace: strings.Replace(strings.TrimSpace(rec.Command), " "+bad, " "+right, 1)}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if setting, file, at := ss.quietLogLevel(rec, output); setting != "" {
			// `grep -c 'Request (file descriptor' logs/tinyproxy.log` finds nothing under
			// `LogLevel Warning`
			f.Problem += fmt.Sprintf("; the log has no such lines: `%s` in `%s` (line %d) keeps everything below that level out of it", setting, path.Base(file), at)
			f.Fix = fmt.Sprintf("lower the level at line %d (for example to Info) so that the log holds the lines line %d looks for", at, rec.Line)
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if port, at := ss.portLeftOut(ctx, rec, output); port != "" {
			// `tftp 127.0.0.1 -c get hello.txt` after the tutorial set the server to :6969
			f.Problem += fmt.Sprintf("; the command names no port, so the client asks on its default one, but the server this machine runs listens on %s, the port line %d sets", port, at)
			f.Fix = fmt.Sprintf("give the port at line %d (%s), as the tutorial's other commands to that server do", rec.Line, port)
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if bad, right, file := ss.misspeltOption(ctx, rec, output); right != "" {
			// a68g's `unrecognised option "--chek"`, and `a68g --help` lists --check
			prog := programAfterCd(rec.Command)
			if file != "" {
				// gearmand's --config-file holds the options: "unrecognised option
				// '--store-queue-on-exit'", where its help lists --store-queue-on-shutdown
				f.Problem += fmt.Sprintf("; `%s` (which the tutorial wrote) gives `%s`, which is no option of `%s`: `%s --help` lists `%s`", ss.rel(file), bad, path.Base(prog), path.Base(prog), right)
				f.Fix = fmt.Sprintf("in `%s`, write `%s` instead of `%s`", ss.rel(file), right, bad)
				f.Edit = &loop.Edit{InsertBefore: []string{fmt.Sprintf("sed -i 's|%s|%s|' %s", bad, right, shellQuote(file))}}
			} else {
				with := strings.Replace(strings.TrimSpace(rec.Command), bad, right, 1)
				f.Problem += fmt.Sprintf("; `%s` is no option of `%s`: it is `%s` misspelt (`%s --help` lists `%s`)", bad, prog, right, prog, right)
				f.Fix = fmt.Sprintf("write `%s` at line %d (`%s`)", right, rec.Line, firstLine(with))
				f.Edit = &loop.Edit{Replace: with}
			}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if v := singleQuotedVar(rec.Command, output); v != "" {
			// gpsbabel's `-x 'track,move=$SHIFT'`: "invalid value in move option \"$SHIFT\""
			with := doubleQuoted(strings.TrimSpace(rec.Command), v)
			f.Problem += fmt.Sprintf("; `%s` is inside single quotes, so the shell passes it on as written, not its value", v)
			f.Fix = fmt.Sprintf("use double quotes around the argument with `%s` at line %d (`%s`)", v, rec.Line, firstLine(with))
			f.Edit = &loop.Edit{Replace: with}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if bad, right, kind := ss.misspeltValue(ctx, rec, output); right != "" {
			// gpsbabel's "Unknown filter 'simplfy,count=6'", and `gpsbabel -h` lists simplify
			with := strings.Replace(strings.TrimSpace(rec.Command), bad, right, 1)
			f.Problem += fmt.Sprintf("; `%s` is no %s `%s` knows: its help lists `%s`", bad, kind, programOf(rec.Command), right)
			f.Fix = fmt.Sprintf("write `%s` instead of `%s` at line %d (`%s`)", right, bad, rec.Line, firstLine(with))
			f.Edit = &loop.Edit{Replace: with}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if file, at, content := ss.shownNotSaved(ctx, rec, output); file != "" {
			// "mine looks like this:" over an anacrontab, then `anacron -t
			// ~/.local/etc/anacrontab`: the reader never learns where it goes
			f.Problem += fmt.Sprintf("; the tutorial shows what goes in `%s` at line %d, but never says to save it, nor where", path.Base(file), at)
			f.Fix = fmt.Sprintf("say at line %d to save that block as `%s`", at, file)
			save := "printf '%s\\n'"
			for _, l := range strings.Split(strings.TrimRight(content, "\n"), "\n") {
				save += " " + shellQuote(l)
			}
			f.Edit = &loop.Edit{InsertBefore: []string{"mkdir -p " + path.Dir(file), save + " > " + file}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if script, named, near := ss.misnamedInFile(ctx, rec.Command); near != "" {
			// tides.pike's Stdio.read_file("tide.csv") where the tutorial saved tides.csv:
			// Pike's read_file gives 0, and the error is about what came of it
			f.Problem += fmt.Sprintf("; `%s` reads `%s`, which does not exist: the tutorial saved `%s`", path.Base(script), named, near)
			f.Fix = fmt.Sprintf("in `%s`, write `%s` instead of `%s`", path.Base(script), near, named)
			f.Edit = &loop.Edit{InsertBefore: []string{fmt.Sprintf("sed -i 's|%s|%s|' %s", named, near, shellQuote(ss.rel(script)))}}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if bad, good, at := ss.otherExtension(rec, output); bad != "" {
			// `icont -c textutil.icon`: "bad argument", where `icont wordfreq.icn` worked
			want := strings.TrimSuffix(bad, path.Ext(bad)) + path.Ext(good)
			f.Problem += fmt.Sprintf("; `%s` took `%s` at line %d, but refuses `%s`: it goes by the file's extension, and `%s` is not `%s`", programOf(rec.Command), good, at, bad, path.Ext(bad), path.Ext(good))
			f.Fix = fmt.Sprintf("save the file as `%s` and use that name at line %d", want, rec.Line)
			if file := ss.abs(bad); ss.written[file] != "" && !strings.Contains(rec.Command, "\n") {
				f.Edit = &loop.Edit{InsertBefore: []string{"mv " + shellQuote(bad) + " " + shellQuote(want)}, Replace: strings.Replace(strings.TrimSpace(rec.Command), bad, want, 1)}
			}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if at, pkg, file := ss.laterInstallHolding(ctx, i, output); at != nil {
			// Icon's `link options` before the reply that installs icon-ipl, which holds
			// options.u1
			if r, ok := ss.earlyUse[at.line]; ok {
				ss.consequence(r, rec)
				return
			}
			earlyAt = at.line
			f.Problem += fmt.Sprintf("; `%s` is in Debian's %s, which only a later step installs (line %d: `%s`)", file, pkg, at.line, firstLine(at.command.Text))
			f.Fix = fmt.Sprintf("move the install step `%s` (line %d) before line %d", firstLine(at.command.Text), at.line, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{at.command.Text}}
			f.Category = "missing prerequisite"
		}
	}
	if f.Edit == nil {
		if file, at := ss.spaceIndentedRecipe(ctx, output); file != "" {
			// a Makefile copied from a page whose recipes lost their tab: "Makefile:2: ***
			// missing separator.  Stop."
			f.Problem += fmt.Sprintf("; line %d of `%s` is indented with spaces, but make takes a recipe line only when it starts with a tab", at, file)
			f.Fix = fmt.Sprintf("indent the recipe lines of `%s` with a tab, not spaces (and say so: pages and editors often turn tabs into spaces)", file)
			f.Edit = &loop.Edit{InsertBefore: []string{fmt.Sprintf(`sed -i 's/^ \+/\t/' %s`, shellQuote(file))}}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if pkg, what := ss.errorPackage(ctx, output); pkg != "" && ss.laterInstall(i, pkg) != nil {
			// `python3 -m aiosmtpd` in the Quick start, `apt install python3-aiosmtpd` under
			// Requirements below it
			at := ss.laterInstall(i, pkg)
			if r, ok := ss.earlyUse[at.line]; ok {
				ss.consequence(r, rec)
				return
			}
			earlyAt = at.line
			f.Problem += fmt.Sprintf("; %s is installed only by a later step (line %d: `%s`)", what, at.line, firstLine(at.command.Text))
			f.Fix = fmt.Sprintf("move the install step `%s` (line %d) before line %d", firstLine(at.command.Text), at.line, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{at.command.Text}}
			f.Category = "missing prerequisite"
		} else if pkg != "" {
			f.Problem += "; " + what + " is not installed"
			f.Fix = fmt.Sprintf("add a step before line %d that installs %s (on Debian: `sudo apt-get install -y %s`), or list it under Prerequisites", rec.Line, what, pkg)
			f.Edit = &loop.Edit{InsertBefore: []string{"sudo apt-get update && sudo apt-get install -y " + pkg}}
			f.Category = "missing step"
		}
	}
	if m := quotedTildeArg(rec.Command); m != nil && f.Edit == nil && !strings.Contains(rec.Command, "\n") && (reNotThere.MatchString(output) || reNoEntry.MatchString(output)) {
		// `mini_httpd -d "~/lab-www"`: the program gets the `~` as it is
		fixed := strings.Replace(rec.Command, m[0], `"$HOME/`+m[2]+`"`, 1)
		f.Problem += fmt.Sprintf("; `%s` is inside quotes, where the shell does not expand `~`, so the program looked for a folder named `~`", m[0])
		f.Fix = fmt.Sprintf("write `\"$HOME/%s\"` (or `~/%s` without quotes) at line %d", m[2], m[2], rec.Line)
		f.Edit = &loop.Edit{Replace: strings.TrimSpace(fixed)}
		f.Category = "command failure"
	}
	if f.Edit == nil {
		if name, value, at := ss.quotedTilde(rec); name != "" && (reNotThere.MatchString(output) || reNoEntry.MatchString(output) || rec.ExitCode == 127) {
			// export MANPATH="~/.local/share/man:", then `man greet` finds nothing
			fixed := strings.Replace(value, "~", "$HOME", -1)
			f.Problem += fmt.Sprintf("; line %d sets `%s` to `%s` with `~` inside quotes, where the shell does not expand it, so `%s` names a folder `~` that does not exist", at, name, value, name)
			f.Fix = fmt.Sprintf("write `$HOME` instead of `~` at line %d (`export %s=\"%s\"`)", at, name, fixed)
			f.Edit = &loop.Edit{InsertBefore: []string{fmt.Sprintf(`export %s="%s"`, name, fixed)}}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if m := reSudoRedirect.FindStringSubmatch(strings.TrimSpace(rec.Command)); m != nil && strings.Contains(output, m[1]+": Permission denied") {
			// sudo echo … > /var/www/alpha/index.html
			cmd := strings.TrimSpace(rec.Command)
			at := strings.LastIndex(cmd, ">")
			tee := "sudo tee"
			if at > 0 && cmd[at-1] == '>' {
				at, tee = at-1, "sudo tee -a"
			}
			with := fmt.Sprintf("%s | %s %s > /dev/null", strings.TrimSpace(strings.TrimPrefix(cmd[:at], "sudo ")), tee, m[1])
			f.Problem += fmt.Sprintf("; the redirection to `%s` is done by the reader's own shell, not by sudo, and the reader may not write there", m[1])
			f.Fix = fmt.Sprintf("write the file through sudo at line %d: `%s`", rec.Line, with)
			f.Edit = &loop.Edit{Replace: with}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if why, fix := curlGlob(rec.Command, rec.Line); why != "" {
			// `curl 'http://…/query?query=up{job="node"}'`
			f.Problem += "; " + why
			f.Fix = fix
		}
	}
	if f.Edit == nil {
		if opt, other, helpLine := ss.otherCaseOption(ctx, rec.Command, output); other != "" {
			// `fossil server -p 8080`: the port option is -P
			with := swapOption(strings.TrimSpace(rec.Command), opt, other)
			f.Problem += fmt.Sprintf("; `%s` is not an option here, but `%s` is: its help says `%s`", opt, other, loop.Clip(helpLine, 120))
			f.Fix = fmt.Sprintf("use `%s` instead of `%s` at line %d (`%s`)", other, opt, rec.Line, with)
			f.Edit = &loop.Edit{Replace: with}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if prog, pkg, version := ss.olderVersion(ctx, rec.Command, output); version != "" {
			// `restic backup --skip-if-unchanged` on a restic from before the flag
			f.Problem += fmt.Sprintf("; `%s` here is Debian's %s %s, which may be older than the version the tutorial was written for", prog, pkg, version)
			f.Fix = fmt.Sprintf("say which version of %s line %d needs and how to install it, or use what %s %s offers", prog, rec.Line, pkg, version)
		}
	}
	explained := false // the cause is named: not an error in the line the output points at
	if f.Edit == nil {
		if why, fix, edit := ss.unexported(output); why != "" {
			// (provide tokenize) in lib/text.rkt, then stop-word? used from main.rkt
			f.Problem += "; " + why
			f.Fix, f.Edit, explained = fix, edit, true
			if edit != nil {
				f.Category = "command failure"
			}
		}
	}
	if f.Edit == nil && !explained {
		if name := ss.unsetEnvRead(ctx, rec.Command+"\n"+output); name != "" {
			// env.py's os.environ["INVENTORY_DB_URL"] with nothing exporting it
			f.Problem += fmt.Sprintf("; the program reads the environment variable `%s`, which is not set: no step sets or exports it", name)
			f.Fix = fmt.Sprintf("before line %d, add `export %s=…` with the value the program needs", rec.Line, name)
			if value, at := ss.valueGiven(name); value != "" {
				// the settings table's "folder the `.eml` files are written to (`inbox` in
				// the examples)": the value the reader sets
				f.Fix = fmt.Sprintf("before line %d, add `export %s=%s` (the value line %d gives)", rec.Line, name, value, at)
				f.Edit = &loop.Edit{InsertBefore: []string{"export " + name + "=" + shellQuote(value)}}
			}
			f.Category, explained = "missing step", true
		}
	}
	if f.Edit == nil && !explained {
		if word, file, at, def := ss.definedInFile(rec); word != "" {
			// `units -t '40 min * bike' km` and ~/.units's `bike 18 kmh`
			f.Problem += fmt.Sprintf("; `%s` is defined by the tutorial's `%s` (line %d: `%s`), so that definition is the first suspect", word, file, at, def)
			f.Fix = fmt.Sprintf("check the definition of `%s` at line %d against what line %d expects, and correct it", word, at, rec.Line)
		}
	}
	if f.Edit == nil && !explained && !reTooNew.MatchString(output) {
		if file, wrote, started := ss.configAfterStart(ctx, rec); file != "" {
			// ~/.tmux.conf written after `tmux new-session` had started tmux's server
			prog := path.Base(firstWord(rec.Command))
			f.Problem += fmt.Sprintf("; the tutorial writes `%s` at line %d, but `%s` was already running from line %d and reads it only when it starts", file, wrote, prog, started)
			f.Fix = fmt.Sprintf("have the reader restart `%s` or reload `%s` after writing it (before line %d), or write it before line %d", prog, file, rec.Line, started)
		}
	}
	if f.Edit == nil && !explained {
		if ident, at, claim := ss.proseClaim(keyLine(output), rec.Line); at > 0 {
			// "Identifier not found "Result"" where the prose says Result works by default
			f.Problem += fmt.Sprintf("; the tutorial explains `%s` at line %d: “%s”, and this run disagrees", ident, at, claim)
			f.Fix = fmt.Sprintf("check what line %d says about `%s` against the reader's setup, and correct the claim or the code that relies on it (line %d fails)", at, ident, rec.Line)
		}
	}
	if f.Edit == nil {
		if file, at, instead := ss.ignoredConfig(ctx, rec.Command); file != "" {
			// flake8 5 with its settings under [tool.flake8] in pyproject.toml
			prog := path.Base(firstWord(rec.Command))
			f.Problem += fmt.Sprintf("; `%s` (line %d) configures it under `[tool.%s]`, but %s does not read pyproject.toml (its code never names it), so those settings are ignored", path.Base(file), at, prog, prog)
			f.Fix = fmt.Sprintf("move the `[tool.%s]` settings to a file %s reads, under `[%s]`", prog, prog, prog)
			if len(instead) > 0 {
				f.Fix += fmt.Sprintf(" (%s reads %s)", prog, quoteList(instead))
			}
			f.Fix += fmt.Sprintf(", before line %d", rec.Line)
			f.Category = "command failure"
			explained = true
		}
	}
	if f.Edit == nil && !explained && !reArgsRejected.MatchString(output) {
		// (not when the program refuses the arguments it was given)
		if opt, config := ss.droppedConfig(rec); opt != "" {
			// `supervisorctl restart hello` after `supervisorctl -c supervisor.conf status`
			cmd := strings.TrimSpace(rec.Command)
			prog := firstWord(cmd)
			at := strings.Index(cmd, prog) + len(prog)
			with := cmd[:at] + " " + opt + cmd[at:]
			if config {
				f.Problem += fmt.Sprintf("; earlier lines run `%s` with `%s`, this one does not, so it looks for its default configuration instead of `%s`", prog, opt, strings.Fields(opt)[1])
			} else {
				f.Problem += fmt.Sprintf("; earlier lines run `%s` with `%s` and it worked, this one leaves it out and relies on the default, which this system does not set", prog, opt)
			}
			f.Fix = fmt.Sprintf("pass `%s` at line %d too (`%s`)", opt, rec.Line, with)
			f.Edit = &loop.Edit{Replace: with}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if prog, files := ss.untrackedAtCommit(ctx, rec.Command, output); len(files) > 0 {
			// `echo … > todo.md` then `fossil commit`: the new file was never added
			add := prog + " add " + strings.Join(files, " ")
			verb := "are"
			if len(files) == 1 {
				verb = "is"
			}
			f.Problem += fmt.Sprintf("; %s %s new and never added, so `%s commit` has nothing to record", quoteList(files), verb, prog)
			f.Fix = fmt.Sprintf("add `%s` before line %d", add, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{add}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if flag := askedFlag(rec.Command, output); flag != "" {
			// rclone bisync's first run: "Must run --resync to recover."
			f.Problem += fmt.Sprintf("; the error asks for `%s`, which the command at line %d does not pass", flag, rec.Line)
			f.Fix = fmt.Sprintf("add `%s` to the command at line %d (`%s %s`), or say why this run needs it", flag, rec.Line, strings.TrimSpace(rec.Command), flag)
			f.Edit = &loop.Edit{Replace: strings.TrimSpace(rec.Command) + " " + flag}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil {
		if what, value, bad, with := refusedChars(rec.Command, output); with != "" {
			// CVS: "tag `v1.0' must not contain the characters `$,.:;@'"
			f.Problem += fmt.Sprintf("; the %s name `%s` holds %s, which the program does not accept in a %s name", what, value, quoteList(bad), what)
			f.Fix = fmt.Sprintf("use a %s name without %s at line %d and after (`%s`)", what, quoteList(bad), rec.Line, with)
			f.Edit = &loop.Edit{Replace: with}
			f.Category = "command failure"
		}
	}
	if f.Edit == nil {
		if hp, with, helpLine := ss.portAsHost(ctx, rec.Command, output); hp != "" {
			// `dig @127.0.0.1:5353 …`: dig reads the whole word as a host name
			f.Problem += fmt.Sprintf("; `%s` is read as one host name, and %s takes the port as an option: its help says `%s`", hp, firstWord(rec.Command), helpLine)
			f.Fix = fmt.Sprintf("pass the port with its option at line %d: `%s`", rec.Line, with)
			f.Edit = &loop.Edit{Replace: with}
			f.Category = "command failure"
		}
	}
	linkAt := 0
	lib, fn := missingLib(output)
	if f.Edit == nil && lib != "" {
		// pow() without -lm: the source is right, the link command leaves out a library
		f.Problem += fmt.Sprintf("; `%s` is in the library `lib%s`, which the link command does not name", fn, lib)
		f.Fix = fmt.Sprintf("add `-l%s` at the end of the link command at line %d, after the object files", lib, rec.Line)
		if linkAt = ss.linkRule(); linkAt > 0 {
			f.Fix = fmt.Sprintf("add `-l%s` at the end of the Makefile's link rule (line %d), or set `LDLIBS = -l%s`", lib, linkAt, lib)
		}
	}
	if m := reNoLinkLib.FindStringSubmatch(output); f.Edit == nil && lib == "" && m != nil {
		// polyc without libpolyml-dev: "/usr/bin/ld: cannot find -lpolyml"
		if pkg := ss.devPackage(ctx, m[1]); pkg != "" {
			f.Problem += fmt.Sprintf("; the linker finds no `lib%s`: Debian ships it for linking in `%s`, which the tutorial never installs", m[1], pkg)
			f.Fix = fmt.Sprintf("install `%s` before line %d (`sudo apt install %s`)", pkg, rec.Line, pkg)
			f.Edit = &loop.Edit{InsertBefore: []string{"sudo apt-get install -y " + pkg}}
			f.Category = "missing step"
		}
	}
	moved := ""
	if f.Edit == nil && lib == "" {
		var missing string
		if missing, moved = ss.movedHint(ctx, output); moved != "" {
			// not missing but elsewhere: nothing to create
			f.Problem += fmt.Sprintf("; `%s` is not there, but `%s` is: the files were written one folder down", missing, moved)
			f.Fix = fmt.Sprintf("use `%s` at line %d, or say where the earlier step puts its output", moved, rec.Line)
			if file := ss.referrer(missing); file != "" && !strings.Contains(rec.Command, missing) {
				// main.rkt's (require "text.rkt") for the lib/text.rkt the tutorial wrote
				f.Fix = fmt.Sprintf("in `%s`, refer to `%s` instead of `%s` (the tutorial saved it there)", ss.rel(file), moved, missing)
				f.Edit = &loop.Edit{InsertBefore: []string{fmt.Sprintf(`sed -i 's|"%s"|"%s"|' %s`, missing, moved, ss.rel(file))}}
				f.Category = "command failure"
			}
		}
	}
	if f.Edit == nil && moved == "" && !varUnset {
		if dir, at, rel := ss.upFromMadeDir(ctx, rec); dir != "" {
			// `mkdir -p calls`, then `bcftools mpileup -f ../data/ref.fa …` still in the
			// project folder: the ../ paths are meant from inside calls/
			made := fmt.Sprintf(", which line %d makes and no step changes into", at)
			if at == 0 {
				made = ", which no step changes into" // (the command's other files are there too)
			}
			f.Problem += fmt.Sprintf("; `%s` is not there from `%s`, but it is from `%s`%s", rel, ss.homeRel(ss.cwd), dir, made)
			f.Fix = fmt.Sprintf("add `cd %s` before line %d", dir, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{"cd " + dir}}
			f.Category = "missing step"
		}
	}
	if f.Edit == nil && moved == "" && !varUnset {
		dir := firstNonEmpty(ss.missingParent(ctx, output), ss.missingArgDir(ctx, rec.Command, output))
		if project := ss.dirOneDown(ctx, dir); project != "" {
			// docs/ is not here but in the project the step before made (mkdocs new
			// garden-notes): the reader was to go into it
			f.Problem += fmt.Sprintf("; there is no `%s` here, but `%s/%s` exists: the session is not in the project folder, and no step changes into it", dir, project, dir)
			f.Fix = fmt.Sprintf("add `cd %s` before line %d", project, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{"cd " + project}}
			f.Category = "missing step"
		} else if dir == ".git" || strings.HasPrefix(dir, ".git/") {
			// `cp hook.sh .git/hooks/pre-commit` in a folder no step made a repository
			f.Problem += fmt.Sprintf("; `%s` does not exist: `%s` is not a Git repository, and no step runs `git init` in it", dir, ss.homeRel(ss.cwd))
			f.Fix = fmt.Sprintf("add `git init` before line %d (or say that the folder must be a clone of a repository)", rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{"git init -q"}}
			f.Category = "missing step"
		} else if dir != "" {
			// the program writes into a directory nothing created
			f.Problem += fmt.Sprintf("; the directory `%s` does not exist and nothing in the tutorial creates it", dir)
			f.Fix = fmt.Sprintf("add `mkdir -p %s` before line %d (or say that the program needs it)", dir, rec.Line)
			f.Edit = &loop.Edit{InsertBefore: []string{"mkdir -p " + dir}}
			f.Category = "missing step"
		}
	}
	if hint, dir := ss.projectHint(ctx, rec, output); hint != "" {
		f.Problem += "; " + hint
		f.Fix = fmt.Sprintf("add `cd %s` before line %d", dir, rec.Line)
		f.Edit = &loop.Edit{InsertBefore: []string{"cd " + dir}}
		f.Category = "missing step"
	}
	if hint, missing, near := ss.pathHint(ctx, output); hint != "" {
		f.Problem += "; " + hint
		f.Category = "missing step"
		if cmd := strings.TrimSpace(rec.Command); near != "" && f.Edit == nil && !strings.Contains(cmd, "\n") && strings.Count(cmd, missing) == 1 {
			// /usr/share/common-licenses/GPL-3 for GPL-3.0
			f.Fix = fmt.Sprintf("use `%s` at line %d", near, rec.Line)
			f.Edit = &loop.Edit{Replace: strings.Replace(cmd, missing, near, 1)}
			f.Category = "command failure"
		}
	}
	if fix := knownErrorFix(ctx, ss, output); fix != "" {
		f.Fix = fix
	}
	if word, choice := nearChoice(rec.Command, output); word != "" && f.Edit == nil {
		// "unknown theme -- monokai" and the themes it has: monocai
		f.Problem += fmt.Sprintf("; of the values the program lists, `%s` is the one `%s` is close to", choice, word)
		f.Fix = fmt.Sprintf("write `%s` instead of `%s` at line %d", choice, word, rec.Line)
		if cmd := strings.TrimSpace(rec.Command); !strings.Contains(cmd, "\n") && strings.Count(cmd, word) == 1 {
			f.Edit = &loop.Edit{Replace: strings.Replace(cmd, word, choice, 1)}
		}
	}
	if hint, fix := ss.overwritten(rec.Command); hint != "" && f.Edit == nil {
		// `diff … hours … > loans.patch` after `diff … loans … > loans.patch`, then `patch
		// … < loans.patch`: the file holds the later step's output
		f.Problem += "; " + hint
		f.Fix = fix
	}
	if hint := ss.venvHint(ctx, output); hint != "" {
		f.Problem += "; " + hint
		f.Fix = "activate the virtual environment the tutorial created (" + hint + "), or create the one this line names"
		f.Category = "missing step"
	}
	if hint := ss.gitHint(ctx, rec, output); hint != "" {
		f.Problem += "; " + hint
		f.Fix = "use the branch the repository actually has (" + hint + "), or create it first"
		if m := reRefspec.FindStringSubmatch(output); m != nil {
			// pushing main from a repository whose first branch is master
			git := "git" // or the tool's own git subcommand (`pass git`), which works in its repository
			if w := strings.Fields(rec.Command); len(w) > 1 && w[0] != "git" && w[1] == "git" {
				git = w[0] + " git"
			}
			f.Fix = fmt.Sprintf("name the branch before pushing: add `%s branch -M %s` before line %d (or create the repository with `git init -b %s`)", git, m[1], rec.Line, m[1])
			f.Edit = &loop.Edit{InsertBefore: []string{git + " branch -M " + m[1]}}
			f.Category = "missing step"
		}
	}
	r = ss.addFinding(rec, f, output)
	ss.taint(rec, r)
	ss.noteLost(lost, r)
	if emptied != "" {
		ss.emptyVars[emptied] = r
	}
	if earlyAt > 0 {
		ss.earlyUse[earlyAt] = r
	}
	if reNotThere.MatchString(keyLine(output)) {
		// the file it could not read is missing for the lines after it too (`sed … greet.c`
		// in the wrong folder, then `head -1 greet.c`)
		ss.taintMissingArgs(ctx, rec.Command, r)
	}
	if linkAt > 0 {
		ss.moveTo(r, linkAt, "the link rule the tutorial wrote for the Makefile is line %d")
	} else if f.Edit == nil && !explained && kind == "" && lib == "" && serverLines(output) == "" && !reNotThere.MatchString(keyLine(output)) {
		// an error in what the tutorial wrote, not a missing piece
		ss.relocate(ctx, r, output)
	}
}

// reNotAsRoot: programs that refuse root (PostgreSQL's initdb and pg_ctl, Homebrew…).
// notOwned: a command run without sudo by the learner failed for want of rights on a path
// outside their own folders; it gives that path, the folder they cannot write, its owner, and the
// line of the step that made it with sudo (0 when the tutorial did not make it: a
// system folder).
func (ss *session) notOwned(ctx context.Context, rec loop.CommandRecord, output string) (string, string, string, int) {
	// (or it could not open a file it was to write, without saying why: pdftk-java 3.3's
	// "Error: Failed to open output file: /srv/handouts/week1-draft.pdf", the path on the
	// line after; a file that does not exist is another story)
	opened := reCannotOpen.MatchString(output) && !strings.Contains(strings.ToLower(output), "no such file")
	if ss.user == "" || reSudo.MatchString(rec.Command) || !reNeedsRoot.MatchString(output) && !opened {
		return "", "", "", 0
	}
	var m []string
	lines := strings.Split(output, "\n")
	for i, l := range lines {
		if reNeedsRoot.MatchString(l) {
			// (not the program that says so: Perl's die names its own source, "permission
			// denied: ./check-disk.sh at /usr/bin/chronic line 69.", and make's shell
			// its own path)
			if m = reDeniedPath.FindStringSubmatch(rePerlDieAt.ReplaceAllString(reShellSays.ReplaceAllString(l, ""), "")); m != nil {
				break
			}
			if i > 0 && reCannotOpen.MatchString(lines[i-1]) {
				// the path on the line before: stunnel's "Cannot create pid file
				// /run/stunnel4/client.pid", then "create: Permission denied (13)"
				if m = reDeniedPath.FindStringSubmatch(lines[i-1]); m != nil {
					break
				}
			}
		}
	}
	if m == nil && opened {
		for _, c := range reDeniedPath.FindAllStringSubmatch(output, 5) {
			if strings.Contains(rec.Command, c[1]) {
				m = c
				break
			}
		}
	}
	if m == nil || strings.HasPrefix(m[1], ss.home+"/") || strings.HasPrefix(m[1], loop.WorkMount+"/") || strings.HasPrefix(m[1], "/tmp/") {
		return "", "", "", 0
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `p=$__smile_denied; while [ ! -e "$p" ] && [ "$p" != / ]; do p=$(dirname "$p"); done; [ -d "$p" ] || p=$(dirname "$p"); [ "$(stat -c %u "$p")" != "$(id -u)" ] && [ ! -w "$p" ] && stat -c '%U %n' "$p"`,
		Env: map[string]string{"__smile_denied": m[1]}, Timeout: 10 * time.Second, User: ss.reader()})
	if err != nil || r.ExitCode != 0 {
		return "", "", "", 0
	}
	owner, dir, _ := strings.Cut(strings.TrimSpace(r.Stdout), " ")
	if dir == "" || dir == "/" {
		return "", "", "", 0
	}
	for _, st := range ss.steps {
		if st.line >= rec.Line {
			break
		}
		if owner == "root" && st.command != nil && (st.root || reSudo.MatchString(st.command.Text)) && reMakesDir.MatchString(st.command.Text) && strings.Contains(st.command.Text+" ", dir+" ") {
			return m[1], dir, owner, st.line
		}
	}
	return m[1], dir, owner, 0
}

// dirMadeElsewhere is the folder (as the tutorial wrote it: `~/lb`) in which an earlier
// step made the folder that a relative path of the failed command starts with, when the
// session is somewhere else, and that step's line.
func (ss *session) dirMadeElsewhere(rec loop.CommandRecord, output string) (string, int) {
	if !reNotThere.MatchString(keyLine(output)) {
		return "", 0
	}
	var firsts []string
	cmd := rec.Command
	if strings.Contains(cmd, "<<") {
		cmd = firstLine(cmd) // (not the here-document's text: "Run tools/kit-check.sh after …")
	}
	for _, part := range splitList(cmd) {
		fields := strings.Fields(part)
		for _, tok := range tail1(fields) { // a part may be empty: `cmd;`
			tok = strings.Trim(strings.TrimLeft(tok, "<>"), `"'`)
			if strings.Contains(tok, "/") && !strings.HasPrefix(tok, "/") && !strings.HasPrefix(tok, "~") && !strings.HasPrefix(tok, "-") && !strings.HasPrefix(tok, ".") && !strings.HasPrefix(tok, "$") {
				firsts = append(firsts, strings.SplitN(tok, "/", 2)[0])
			}
		}
	}
	for i := len(ss.steps) - 1; i >= 0 && len(firsts) > 0; i-- {
		st := ss.steps[i]
		if st.kind != runStep || st.line >= rec.Line {
			continue
		}
		for _, p := range predict(st.command.Text).paths {
			if !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, "/") {
				continue
			}
			// the folder itself or one it is in (`mkdir -p ~/isolab/tree/docs`, then
			// `tree/README.txt`)
			for _, q := range ancestors(p) {
				if slices.Contains(firsts, path.Base(q)) && ss.abs(path.Dir(q)) != ss.cwd {
					return path.Dir(q), st.line
				}
			}
		}
	}
	return "", 0
}

// fileInFolderMade: the failed command names a file, by a bare name, that the error
// says is missing, and a folder in the reader's home that one of the last steps made
// (mkdir, the copy's or clone's target) holds a file of that name: that folder, as the
// tutorial wrote it, and the line that made it ("", 0 when not so).
func (ss *session) fileInFolderMade(ctx context.Context, rec loop.CommandRecord, output string) (string, int) {
	if !reNotThere.MatchString(keyLine(output)) || ss.task.Sandbox == nil || ss.home == "" {
		return "", 0
	}
	var names []string
	for _, tok := range strings.Fields(firstLine(rec.Command)) {
		tok = strings.Trim(tok, `"'`)
		if !strings.Contains(tok, "/") && !strings.HasPrefix(tok, "-") && path.Ext(tok) != "" && looksLikePath(tok) && strings.Contains(output, tok) {
			names = append(names, tok)
		}
	}
	if len(names) == 0 {
		return "", 0
	}
	for _, st := range ss.recentRuns(rec.Line, 12) {
		for _, p := range predict(st.command.Text).paths {
			d := ss.abs(p)
			if !strings.HasPrefix(d, ss.home+"/") || d == ss.cwd || path.Ext(p) != "" {
				continue
			}
			for _, n := range names {
				// (not a file that is here: "fib.c:6:10: fatal error: Python.h: No such file")
				r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "[ ! -e " + shellQuote(path.Join(ss.cwd, n)) + " ] && [ -d " + shellQuote(d) + " ] && [ -f " + shellQuote(path.Join(d, n)) + " ]", Timeout: 10 * time.Second, User: ss.user})
				if err == nil && r.ExitCode == 0 {
					return p, st.line
				}
			}
		}
	}
	return "", 0
}

// recentRuns are the last n commands the tutorial has the reader run before line, the
// nearest first.
func (ss *session) recentRuns(line, n int) []step {
	var out []step
	for i := len(ss.steps) - 1; i >= 0 && len(out) < n; i-- {
		if st := ss.steps[i]; st.kind == runStep && st.line < line {
			out = append(out, st)
		}
	}
	return out
}

// reNoProject: a tool that finds no project (or its file) where it runs.
var reNoProject = regexp.MustCompile(`(?i)could not find|cannot find|not found|no such file|does not exist|no .{0,30}(?:project|manifest|package)|not (?:a|in a) .{0,20}(?:project|repository|workspace)`)

// projectBelow is the project folder a recent step generated (`mix new word_freq`,
// `cargo new app`) in the session's folder when a command fails there as if the project
// were missing, and the line that generated it.
func (ss *session) projectBelow(ctx context.Context, rec loop.CommandRecord, output string) (string, int) {
	if cdTarget(rec.Command) != "" || !reNoProject.MatchString(keyLine(output)) || ss.task.Sandbox == nil || reSystemInclude.MatchString(output) {
		// (a header included as <kclangc.h> is the system's, not the project's)
		return "", 0
	}
	for _, st := range ss.recentRuns(rec.Line, 8) {
		for _, part := range splitList(st.command.Text) {
			fields := strings.Fields(part)
			m := reScaffold.FindStringSubmatch(strings.Join(tail1(fields), " "))
			if m == nil || strings.HasPrefix(m[1], "-") || strings.Contains(m[1], "/") {
				continue
			}
			name := m[1]
			if i := slices.Index(fields, "clone"); i >= 0 {
				// `darcs clone hello hello-fix`: the copy is the last name
				if pos := positional(fields[i+1:]); len(pos) >= 2 && !strings.Contains(pos[len(pos)-1], "/") {
					name = pos[len(pos)-1]
				}
			}
			r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && [ -d " + shellQuote(name) + " ]", Timeout: 10 * time.Second, User: ss.user})
			if err == nil && r.ExitCode == 0 {
				return name, st.line
			}
		}
	}
	return "", 0
}

// reSystemInclude: the compiler shows an #include of a system header (in angle brackets)
// at the line it stopped.
var reSystemInclude = regexp.MustCompile(`#\s*include\s*<[\w./+-]+>`)

// madeBySudoFix is the root of a gap whose fix ran a step with sudo that names dir
// (`sudo mkdir -p /var/www/hello` for `mkdir -p /var/www/hello`).
func (ss *session) madeBySudoFix(dir string) (int, bool) {
	if dir == "" {
		return 0, false
	}
	for i, r := range ss.roots {
		if r.finding < 0 {
			continue
		}
		if e := ss.res.Findings[r.finding].Edit; e != nil && strings.HasPrefix(e.Replace, "sudo ") && refersTo(e.Replace, dir) {
			return i, true
		}
	}
	return 0, false
}

// writtenNaming is a file the tutorial wrote that names path p (a config's log file),
// and the line of the block that gave it.
func (ss *session) writtenNaming(p string) (string, int) {
	for _, f := range slices.Sorted(maps.Keys(ss.written)) {
		if refersTo(ss.written[f], p) {
			if segs := ss.segments[f]; len(segs) > 0 {
				return f, segs[0].block.StartLine
			}
		}
	}
	return "", 0
}

var (
	// reRootOnly: a program saying that it needs root, with no path to blame
	reRootOnly = regexp.MustCompile(`(?i)requires? (?:root|superuser) privileges|must be (?:run as )?root|you need to be root|only root can [\w ]+`)
	// reNeedsRoot: a failure for want of root
	reNeedsRoot = regexp.MustCompile(`(?i)permission denied|are you root|must be (?:run as )?root|you need to be root|requires? (?:root|superuser) privileges|only root can|operation not permitted|\bEACCES\b`)
	// reShellSays: the shell that reports it, by its full path, as make's recipes run it
	// ("/bin/sh: 1: ./mkversion.sh: Permission denied")
	reShellSays = regexp.MustCompile(`^/\S*/(?:ba|da|z)?sh: (?:line )?\d+: `)
	// rePerlDieAt: where a Perl program died, which its message ends with (" at
	// /usr/bin/chronic line 69.")
	rePerlDieAt = regexp.MustCompile(` at /\S+ line \d+\.?`)
	// reDeniedPath: the absolute path a denial names
	reDeniedPath = regexp.MustCompile(`(?:^|[\s'"‘“(])(/(?:[\w.+@%-]+/?)+)`)
	// reMakesDir: a command that creates a folder
	reMakesDir = regexp.MustCompile(`(?:^|[\s;&|])(?:mkdir|install -d|install --directory)\s`)
)

var reNotAsRoot = regexp.MustCompile(`(?i)cannot be run as root|(?:must|should) not be run as root|running as root is not (?:allowed|supported)|don't run this as root|refusing to run as root`)

// rePublish: a subcommand that publishes to a remote (`mkdocs gh-deploy`, `npm publish`,
// `twine upload`, `gem push`, `firebase deploy`).
var rePublish = regexp.MustCompile(`^\s*(?:sudo\s+)?[\w.-]+\s+(?:[\w.-]+\s+){0,2}(?:gh-deploy|deploy|publish|upload|push)(?:\s|$)`)

// notPublishers: version control, whose remote may well be local (a bare repository the
// tutorial made, where a failed push is the tutorial's), and file utilities, which take
// such words as names (`mkdir publish`).
var notPublishers = map[string]bool{"git": true, "quilt": true, "stg": true, "guilt": true, "hg": true, "svn": true, "fossil": true, "bzr": true, "brz": true,
	"mkdir": true, "cp": true, "mv": true, "rm": true, "ls": true, "cd": true, "cat": true, "touch": true, "echo": true, "printf": true,
	"ln": true, "chmod": true, "chown": true, "tar": true, "zip": true, "unzip": true, "rsync": true, "scp": true, "find": true, "grep": true}

// names reports whether step j's command could have made dir: it names it (its last
// element), or it unpacks, clones or generates something whose name it need not say.
func (ss *session) names(j int, dir string) bool {
	if j < 0 || j >= len(ss.steps) || ss.steps[j].command == nil {
		return false
	}
	base := path.Base(strings.TrimRight(dir, "/"))
	cmd := ss.steps[j].command.Text
	return base == "" || base == "." || base == "~" || strings.Contains(cmd, base) || reMakesDirs.MatchString(cmd)
}

// reMakesDirs: commands that make directories they need not name.
var reMakesDirs = regexp.MustCompile(`\b(?:tar|unzip|7z|bsdtar|git|hg|svn|curl|wget|gh)\b|\b(?:clone|checkout|new|init|create|generate|scaffold|startproject|startapp)\b`)

// isQuery: a command that only reads state and fails silently when it finds nothing
// (`git config user.name` unset, `grep -q`, `test -f`).
func isQuery(cmd string) bool {
	if parts := strings.Split(cmd, "|"); len(parts) > 1 && !strings.Contains(cmd, "||") && isQuery(parts[len(parts)-1]) {
		return true // `ogrinfo -so x.gpkg parks | grep Extent`: the filter found nothing
	}
	f := strings.Fields(cmd)
	switch firstWord(cmd) {
	case "grep", "egrep", "fgrep", "test", "[", "cmp", "diff", "getent", "which", "pgrep":
		return true
	case "git":
		return len(f) >= 2 && f[1] == "config" && len(positional(f[2:])) <= 1
	}
	return false
}

// reEmptyState: a tool finding nothing where an earlier step (that failed) would have
// left something: no commits, no revision.
var reEmptyState = regexp.MustCompile(`(?i)does not have any commits|no commits yet|bad default revision|unknown revision|ambiguous argument 'HEAD'|needed a single revision|not something we can merge|nothing to (?:commit|compare)`)

// reNotThere: a file, directory or local program that does not exist ("No such file or
// directory", capnp 0.9's "address-book.capnp: no such file").
var reNotThere = regexp.MustCompile(`(?i)no such file\b|: open error\b|cannot access|does not exist|not found|cannot open|can't open|cannot find file|failed to load external entity|file could not be opened`)

// recentRoot is the root of the most recent failure in the same section as st, if any.
func (ss *session) recentRoot(st step) (int, bool) {
	if ss.lastRoot < 0 {
		return 0, false
	}
	here := section(ss.task.Tutorial, st.line)
	if section(ss.task.Tutorial, ss.roots[ss.lastRoot].line) != here {
		return 0, false
	}
	return ss.lastRoot, true
}

// sameFailure folds a command that fails exactly as an earlier root did (the same
// program with the same error), e.g. a script without its execute bit run twice.
func (ss *session) sameFailure(rec loop.CommandRecord, output string) (int, bool) {
	key := failureKey(rec.Command, output)
	for i, r := range ss.roots {
		if r.finding < 0 {
			continue
		}
		f := ss.res.Findings[r.finding]
		if failureKey(f.Command, f.Output) == key || r.also != "" && r.also == key {
			return i, true
		}
	}
	return 0, false
}

// reGivenValue: a value the prose gives as an example or default ("(`inbox` in the
// examples)", "e.g. `inbox`", "defaults to `inbox`").
var reGivenValue = regexp.MustCompile("(?i)(?:\\(\\s*|e\\.g\\.,?\\s*|for example,?\\s*|such as\\s*|default(?:s to)?:?\\s*)`([^`\\s]+)`")

// valueGiven: the value the tutorial gives for environment variable name outside the
// commands it runs: `NAME=value` written anywhere, or the example or default on a line
// that names it (a settings table's row); the value and its line ("" when none, or
// several).
func (ss *session) valueGiven(name string) (string, int) {
	if ss.task.Tutorial == nil {
		return "", 0
	}
	assign := regexp.MustCompile("(?:^|[\\s`])" + regexp.QuoteMeta(name) + "=([^\\s`\"';&|]+)")
	value, at := "", 0
	for ln := 1; ln <= ss.task.Tutorial.Map.LineCount(); ln++ {
		l := ss.task.Tutorial.Map.Line(ln)
		if !strings.Contains(l, name) {
			continue
		}
		v := ""
		if m := assign.FindStringSubmatch(l); m != nil && !strings.Contains(m[1], "$") {
			v = m[1]
		} else if m := reGivenValue.FindStringSubmatch(l); m != nil && m[1] != name {
			v = m[1]
		}
		if v == "" {
			continue
		}
		if value != "" && value != v {
			return "", 0
		}
		value, at = v, ln
	}
	return value, at
}

// reQuietLogLevel: a configuration line that logs only warnings or worse.
var reQuietLogLevel = regexp.MustCompile(`(?im)^\s*((?:log_?level|log-level|verbosity)\s*[=:]?\s*"?(?:warn|warning|error|err|crit|critical|fatal|quiet|silent)"?)\s*;?\s*$`)

// quietLogLevel: the command looked in a log file for lines and found none, while a file
// the tutorial wrote sets a log level that keeps ordinary lines out: the setting, the
// file and its tutorial line.
func (ss *session) quietLogLevel(rec loop.CommandRecord, output string) (string, string, int) {
	if got := strings.TrimSpace(output); got != "" && got != "0" {
		return "", "", 0
	}
	reads := false
	for _, w := range strings.Fields(rec.Command) {
		if w = strings.Trim(w, `"'`); strings.HasSuffix(w, ".log") || strings.Contains(w, "logs/") {
			reads = true
		}
	}
	if !reads {
		return "", "", 0
	}
	for _, p := range slices.Sorted(maps.Keys(ss.written)) {
		content := ss.written[p]
		if m := reQuietLogLevel.FindStringSubmatchIndex(content); m != nil {
			n := strings.Count(content[:m[2]], "\n") + 1
			return content[m[2]:m[3]], p, ss.tutorialLine(p, n)
		}
	}
	return "", "", 0
}

// reNoAnswer: a client that got no answer from a server (no one listening, or a UDP
// request that timed out).
var reNoAnswer = regexp.MustCompile(`(?i)timed? ?out|connection refused|couldn't connect|could not connect|failed to connect|connection failed`)

// reClientPort: a client saying which port it tried (BaseX's "Connection failed (port:
// 1984).").
var reClientPort = regexp.MustCompile(`(?i)\bport:?\s*(\d{2,5})\b`)

// rePortNumber: a port a command line gives (`6969`, `:8080`, `--port=8080`).
var rePortNumber = regexp.MustCompile(`(?:^|[\s:=])\d{2,5}\b`)

// reHostArg: a client command naming a host of its own (`-h db.lab`, `--host=x`, `user@host`).
var reHostArg = regexp.MustCompile(`(?:^|\s)(?:-h\s*\S|--host\b|-H\s*\S)|\w@[\w.-]+`)

// reLocalHost: a client command asking this machine.
var reLocalHost = regexp.MustCompile(`\b(?:127\.0\.0\.1|localhost)\b`)

// portLeftOut: a client asked this machine without naming a port and got no answer, while
// the machine listens on one port (TCP or UDP) that a line of the tutorial before it
// names: that port and the line.
func (ss *session) portLeftOut(ctx context.Context, rec loop.CommandRecord, output string) (string, int) {
	cmd := firstLine(rec.Command)
	// (a client that names no host asks this machine too, when its error says which port
	// it tried)
	local := reLocalHost.MatchString(cmd) || reClientPort.MatchString(output) && !strings.Contains(cmd, "://") && !reHostArg.MatchString(cmd)
	if !local || !reNoAnswer.MatchString(output) || rePortNumber.MatchString(reLocalHost.ReplaceAllString(cmd, "")) || ss.task.Tutorial == nil {
		return "", 0
	}
	tried := ""
	if m := reClientPort.FindStringSubmatch(output); m != nil {
		tried = m[1]
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$4 == "0A" { split($2, a, ":"); print a[2] }'; cat /proc/net/udp /proc/net/udp6 2>/dev/null | awk 'NR > 1 && $4 == "07" { split($2, a, ":"); print a[2] }'`, Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", 0
	}
	found, at := "", 0
	for _, hex := range strings.Fields(r.Stdout) {
		n, err := strconv.ParseUint(hex, 16, 16)
		if err != nil || n < 2 {
			continue
		}
		port := strconv.FormatUint(n, 10)
		if port == tried {
			continue
		}
		re := regexp.MustCompile(`(?:^|[^\d.])` + port + `(?:$|[^\d.])`)
		for ln := 1; ln < rec.Line; ln++ {
			if re.MatchString(ss.task.Tutorial.Map.Line(ln)) {
				if found != "" && found != port {
					return "", 0 // several
				}
				found, at = port, ln
				break
			}
		}
	}
	return found, at
}

// reUnknownOption: a program refusing an option it quotes (a68g 3's `unrecognised option
// "--chek"`, getopt's "unrecognized option '--chek'", "unknown option: --chek").
var reUnknownOption = regexp.MustCompile(`(?i)(?:unrecogni[sz]ed|unknown|invalid|illegal|no such) option:?\s*["'‘]?(--?[A-Za-z][\w-]*)`)

// reHelpOption: an option as a program's help lists it.
var reHelpOption = regexp.MustCompile(`(?:^|[\s,|\[])(--?[A-Za-z][\w-]*)`)

// misspeltOption: the program refuses an option of the failed command, and its help lists
// one option, of as many dashes, an edit or two from it (the nearest first): that option
// and the one meant.
func (ss *session) misspeltOption(ctx context.Context, rec loop.CommandRecord, output string) (bad, right, file string) {
	m := reUnknownOption.FindStringSubmatch(output)
	prog := programAfterCd(rec.Command)
	if m == nil || len(strings.TrimLeft(m[1], "-")) < 3 || !reDebianName.MatchString(path.Base(prog)) {
		return "", "", ""
	}
	bad = m[1]
	given := false
	for _, w := range strings.Fields(rec.Command) {
		if o, _, _ := strings.Cut(strings.Trim(w, `"'`), "="); o == bad {
			given = true
		}
	}
	if !given {
		// a configuration file the tutorial wrote, which the command names, gives it
		for _, p := range slices.Sorted(maps.Keys(ss.written)) {
			if words := strings.ReplaceAll(rec.Command, "=", " "); (refersTo(words, path.Base(p)) || refersTo(words, ss.rel(p))) && regexp.MustCompile(`(?m)^\s*`+regexp.QuoteMeta(bad)+`(?:[\s=]|$)`).MatchString(ss.written[p]) {
				file, given = p, true
				break
			}
		}
	}
	if !given {
		return "", "", ""
	}
	help, ok := ss.programHelp(ctx, []string{prog})
	if !ok {
		return "", "", ""
	}
	dashes := len(bad) - len(strings.TrimLeft(bad, "-"))
	listed := map[string]bool{}
	for _, o := range reHelpOption.FindAllStringSubmatch(help, -1) {
		if len(o[1])-len(strings.TrimLeft(o[1], "-")) == dashes {
			listed[o[1]] = true
		}
	}
	if right = nearestListed(listed, bad, len(strings.TrimLeft(bad, "-"))); right != "" {
		return bad, right, file
	}
	if i := strings.LastIndex(bad, "-"); i > dashes && len(strings.TrimLeft(bad[:i], "-")) >= 6 {
		// the last word of the option is another (--store-queue-on-exit for
		// --store-queue-on-shutdown): the one listed option that starts the same way
		var same []string
		for o := range listed {
			if strings.HasPrefix(o, bad[:i+1]) {
				same = append(same, o)
			}
		}
		if len(same) == 1 {
			return bad, same[0], file
		}
	}
	return "", "", ""
}

// reRefusedValue: a program refusing a value it quotes, among the ones it knows
// ("invalid choice: 'pre-push' (choose from …)", "Expected one of commit, push but got:
// 'pre-push'").
var reRefusedValue = regexp.MustCompile(`(?i)(?:invalid choice|but got|invalid value|not a valid \w+|unknown \w+):?\s*['"‘]([^'"’\n]{2,40})['"’]`)

// sameRefusedValue: the output refuses the value an earlier gap's failure refused: the
// same wrong word, met again by another command.
func (ss *session) sameRefusedValue(output string) (int, bool) {
	m := reRefusedValue.FindStringSubmatch(output)
	if m == nil {
		return 0, false
	}
	for i, r := range ss.roots {
		if r.finding < 0 {
			continue
		}
		if o := reRefusedValue.FindStringSubmatch(ss.res.Findings[r.finding].Output); o != nil && o[1] == m[1] {
			return i, true
		}
	}
	return 0, false
}

var reDigits = regexp.MustCompile(`\d+`)

// reLetters: a letter.
var reLetters = regexp.MustCompile(`\pL`)

// reHexOffset: an address in a linker's or debugger's message (`(.text+0x10eb)`).
var reHexOffset = regexp.MustCompile(`0x[0-9a-fA-F]+`)

func failureKey(cmd, output string) string {
	for _, pf := range projectFiles {
		if pf.re.MatchString(output) {
			return firstWord(cmd) + "\x00no " + pf.file + " here"
		}
	}
	key := reErrorClass.ReplaceAllString(strings.TrimSpace(keyLine(output)), "")
	status := ""
	if m := reExitCodeNum.FindStringSubmatch(key); m != nil {
		status = "\x00" + m[1] // (numbers aside, but not the exit status a runner reports)
	}
	return mainWord(cmd) + "\x00" + reDigits.ReplaceAllString(key, "#") + status
}

// mainWord is the program a command line is about: its first word, or in a pipeline fed
// by echo, printf or cat, the program fed (`echo … | dune exec ./main.exe` is dune).
func mainWord(cmd string) string {
	w := firstWord(cmd)
	if stages := strings.Split(cmd, "|"); len(stages) > 1 && (w == "echo" || w == "printf" || w == "cat") {
		if n := firstWord(strings.TrimSpace(stages[1])); n != "" {
			return n
		}
	}
	return w
}

// reErrorClass: the class a message is raised as ("CommandError: No installed app…"
// from one subcommand, the bare message from another).
var reErrorClass = regexp.MustCompile(`^(?:[\w.]*(?:Error|Exception)|[Ee]rror):\s*`)

// expectedFailure: the tutorial shows this error on purpose (its shown output, or the
// block after it, holds the same error).
func (ss *session) expectedFailure(st step, output string) bool {
	shown := st.expected
	if st.command != nil && st.command.Output != "" {
		shown = st.command.Output
	}
	showsSuccess := shown != "" && !reErrorLine.MatchString(reQuoted.ReplaceAllString(shown, "''")) && !reCurlError.MatchString(shown)
	if st.block.EndLine > 0 && ss.task.Tutorial != nil && st.command != nil && !showsSuccess && saysItFails(proseAfter(ss.task.Tutorial, st.block.EndLine), st.command.Text, ss.programs()) {
		// the prose right after says it fails (when the block shows the command working,
		// the failure it tells of is another one: "Without a file it … exits with status 2")
		return true
	}
	if reOnPurpose.MatchString(lastSentence(st.lead)) {
		return true // "Try it on purpose:"
	}
	if ls := sentences(st.lead); st.command != nil && len(ls) >= 2 && reTryIt.MatchString(ls[len(ls)-1]) && saysItFails(ls[len(ls)-2], st.command.Text, ss.programs()) {
		// "If you mistype a month, remind … exits with status 1. Try it if you like:"
		return true
	}
	if reKnitrError.MatchString(st.block.Info) {
		return true // an R Markdown chunk that keeps its error: ```{bash, error=TRUE}
	}
	if st.command != nil && strings.HasSuffix(strings.TrimSpace(st.lead), ":") && saysItFails(lastSentence(st.lead), st.command.Text, ss.programs()) {
		return true // "par2 notices the damage and exits with status 1:"
	}
	if st.block.EndLine > 0 && ss.task.Tutorial != nil && quotesOutput(proseAfter(ss.task.Tutorial, st.block.EndLine), output) {
		return true // "You will see `ERROR: -g parent(jim, _): false` and then `1`."
	}
	output = withoutServerLines(output) // what the tutorial shows is the command's own output
	shownError := shown != "" && !showsSuccess
	if shown == "" || !shownError && reErrorLine.MatchString(output) {
		// nothing shown, or the tutorial shows a success and the run printed an error
		// besides (autoreconf's "installing" lines, then "error: required file")
		return false
	}
	// it printed what the tutorial shows: it does what the tutorial expects, whatever
	// its exit code (grep -c with no match, a deliberate error)
	// (its first line, when what it shows is an error; all of it otherwise: a progress
	// line the tutorial shows says nothing about an error after it)
	got := strings.Join(strings.Fields(sameHome(output)), " ")
	if first := strings.Join(strings.Fields(sameHome(strings.SplitN(strings.TrimSpace(shown), "\n", 2)[0])), " "); len(first) >= 4 &&
		strings.Contains(got, first) && (reErrorLine.MatchString(shown) && strings.Contains(got, shownErrorLine(shown)) || strings.Contains(got, strings.Join(strings.Fields(sameHome(shown)), " "))) {
		return true
	}
	if all := strings.Join(strings.Fields(sameHome(shown)), " "); all != "" && got == all {
		return true // grep -c printing the 0 the tutorial shows
	}
	if all := strings.Join(strings.Fields(sameHome(shown)), " "); len(nonEmpty(strings.Split(shown, "\n")...)) >= 3 && len(reLetters.FindAllString(all, -1)) >= 40 &&
		strings.Contains(reDigits.ReplaceAllString(got, "#"), reDigits.ReplaceAllString(all, "#")) {
		// all of what the tutorial shows but its timings (clingo's "Time : 0.001s"), with
		// the exit status a solver gives a result (10, satisfiable)
		return true
	}
	if !shownError {
		return false
	}
	for _, w := range reErrorWord.FindAllString(keyLine(output), -1) {
		if strings.Contains(shown, w) {
			return true
		}
	}
	return false
}

// shownErrorLine is the first line of shown output that reads like an error, its spaces
// evened out: a banner above it ("Loading …/00debian.el (source)...") says nothing about
// which error the tutorial expects.
func shownErrorLine(shown string) string {
	for _, l := range strings.Split(shown, "\n") {
		if reErrorLine.MatchString(l) {
			return strings.Join(strings.Fields(sameHome(l)), " ")
		}
	}
	return ""
}

// reSystemBin: a program named by its path in a system bin directory.
var reSystemBin = regexp.MustCompile(`^/(?:usr/(?:local/)?)?s?bin/[\w.+-]+$`)

// reCurlError: curl's "curl: (60) SSL certificate problem: …", an error in words
// reErrorLine does not know.
var reCurlError = regexp.MustCompile(`(?m)^curl: \(\d+\) `)

// withoutServerLines is output without the lines a running server logged meanwhile.
func withoutServerLines(output string) string {
	if !strings.Contains(output, "[server at line ") {
		return output
	}
	var out []string
	for _, l := range strings.Split(output, "\n") {
		if !strings.HasPrefix(l, "[server at line ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// reQuoted: a quoted name in output ('./missing', `error.log`), which says nothing of
// success or failure.
var reQuoted = regexp.MustCompile("'[^'\n]*'|`[^`\n]*`|\"[^\"\n]*\"")

// reErrorWord: the distinctive words of an error line (an exception type, an error code).
var reErrorWord = regexp.MustCompile(`\b[A-Z][a-zA-Z]*(?:Error|Exception)\b|\bE[A-Z]{3,}\b|\berror(?:\[|:)\s*\S+|\b[a-z]+Error\b`)

// reSystemctl: a systemctl line that starts, stops or looks at services, and its units.
var reSystemctl = regexp.MustCompile(`^(?:sudo\s+)?systemctl\s+(?:--[\w-]+\s+)*(start|restart|reload|status|stop|enable\s+--now|disable\s+--now)\s+([\w@.:\s-]+?)(?:\s+--[\w=-]+)*\s*$`)

// initScriptInstead does with a service's init script what a systemctl line the
// container cannot run does on the reader's machine, so that the steps after it meet
// the service as the reader does: `systemctl status slapd` (the package started it),
// `start`, `restart` and `enable --now` start it, `stop` stops it. Only for services
// whose package ships /etc/init.d/<name>; a note says what was done.
func (ss *session) initScriptInstead(ctx context.Context, rec loop.CommandRecord) {
	m := reSystemctl.FindStringSubmatch(strings.TrimSpace(firstLine(rec.Command)))
	if m == nil {
		return
	}
	action := "start"
	if strings.HasPrefix(m[1], "stop") || strings.HasPrefix(m[1], "disable") {
		action = "stop"
	}
	for _, unit := range strings.Fields(m[2]) {
		unit = strings.TrimSuffix(unit, ".service")
		if !reUnitName.MatchString(unit) {
			continue
		}
		cmd := fmt.Sprintf("[ -x /etc/init.d/%s ] && sudo service %s %s", unit, unit, action)
		r, err := ss.task.Sandbox.Exec(ctx, ss.request(cmd, false, 60*time.Second))
		if err != nil || r.ExitCode != 0 {
			continue
		}
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: rec.Line, Reason: fmt.Sprintf("did with `service %s %s` (its init script) what systemd does for this line on the reader's machine", unit, action)})
	}
}

// reUnitName: a service name an init script can have.
var reUnitName = regexp.MustCompile(`^[a-z0-9][\w.-]*$`)

// missingCommand makes the root of a command that is not installed.
func (ss *session) missingCommand(ctx context.Context, i int, st step, rec loop.CommandRecord, output, name string) int {
	t := toolOf(name)
	if systemdCommands[name] {
		r := ss.environment(rec, output, fmt.Sprintf("`%s` needs systemd, which a container does not have; on the reader's machine it works", name),
			"nothing to change in the tutorial; to check these steps, run smile-loop with an image that boots systemd")
		ss.initScriptInstead(ctx, rec)
		return r
	}
	if strings.Contains(name, "/") {
		if f, ok := ss.badShebang(ctx, name, rec.Line, output); ok {
			// ./signup.exp exists, but its #! line names an interpreter that is not there
			return ss.addFinding(rec, f, output)
		}
	}
	if at := ss.laterInstall(i, name); at != nil {
		if r, ok := ss.earlyUse[at.line]; ok {
			// swaks right after aiosmtpd, both installed by the one step below: one move
			ss.consequence(r, rec)
			return r
		}
		ss.earlyUse[at.line] = ss.addFinding(rec, loop.Finding{
			Problem: fmt.Sprintf("`%s` is used at line %d before the step that installs it (line %d: `%s`)", name, rec.Line, at.line, firstLine(at.command.Text)),
			Fix:     fmt.Sprintf("move the install step `%s` (line %d) before line %d", firstLine(at.command.Text), at.line, rec.Line),
			Edit:    &loop.Edit{InsertBefore: []string{at.command.Text}},
		}, output)
		return ss.earlyUse[at.line]
	}
	if cmd, ln := ss.laterInlineInstall(name, rec.Line); cmd != "" {
		// "> **Note:** `isoinfo` is part of the `genisoimage` package: `sudo apt install
		// genisoimage`." twenty lines after the first isoinfo
		return ss.addFinding(rec, loop.Finding{
			Problem: fmt.Sprintf("`%s` is used at line %d, but the tutorial says how to install it only at line %d (`%s`), after its first use", name, rec.Line, ln, cmd),
			Fix:     fmt.Sprintf("move `%s` (line %d) before line %d", cmd, ln, rec.Line),
			Edit:    &loop.Edit{InsertBefore: []string{strings.Replace(cmd, " install ", " install -y ", 1)}},
		}, output)
	}
	if ln := ss.pre.declaredFor(name, rec.Line); ln > 0 {
		setup := t.Debian
		if setup == "" {
			setup = "its installer (" + firstNonEmpty(t.Guide, "see the tutorial's link") + ")"
		}
		return ss.environment(rec, output,
			fmt.Sprintf("%s is a prerequisite the tutorial names (line %d), but the learner image does not have it (`%s`: command not found), so the steps that need it could not be checked", t.Name, ln, name),
			fmt.Sprintf("nothing to change in the tutorial; install %s before the run with smile.json's setup list (e.g. `%s`) or use an image that has it", t.Name, setup))
	}
	if s := ownAccountSetup(st.lead); s != "" {
		// "To pull mail from an IMAP account, configure isync for your provider and run
		// it before indexing:": the reader's own account, set up outside the tutorial
		return ss.environment(rec, output,
			fmt.Sprintf("`%s` is for the reader's own account, which the tutorial leaves them to set up (“%s”); the sandbox has neither the tool nor the account", name, loop.Clip(s, 120)),
			"nothing to change in the tutorial if it links to the tool's set-up guide")
	}
	if r, ok := ss.failedPathStep(ctx, name); ok {
		// `fish_add_path ~/bin` failed (no such folder yet), then `tally` was installed
		// into ~/bin: it is not on PATH because of that failure
		ss.consequence(r, rec)
		return r
	}
	if found := ss.onDisk(ctx, name); found != "" {
		if d := path.Dir(found); path.Base(d) == "sbin" {
			// apache2ctl is /usr/sbin/apache2ctl: root's folder, not on a user's PATH
			with := strings.Replace(strings.TrimSpace(rec.Command), name, found, 1)
			return ss.addFinding(rec, loop.Finding{
				Problem: fmt.Sprintf("`%s` is installed as `%s`, but `%s` is not on a normal user's PATH (only root's), so the reader's shell does not find it", name, found, d),
				Fix:     fmt.Sprintf("run it as `%s` at line %d and after (or with sudo, if it needs root), or have the reader add `%s` to PATH", with, rec.Line, d),
				// the reader who learns it once types the full path from then on: the
				// proof, and the rest of the run, have the folder on PATH
				Edit: &loop.Edit{InsertBefore: []string{fmt.Sprintf(`export PATH="$PATH:%s"`, d)}},
			}, output)
		}
		if at, rc := ss.rcPathLine(path.Dir(found), rec.Line); at > 0 {
			// `echo 'export PATH="$HOME/bin:$PATH"' >> ~/.bashrc`, then `logtime` in the
			// same shell, which read ~/.bashrc when it started
			return ss.addFinding(rec, loop.Finding{
				Problem:  fmt.Sprintf("`%s` is `%s`, and line %d adds `%s` to PATH in `%s`, but the running shell read `%s` when it started: the line applies only to shells started after it, and nothing reloads it", name, ss.homeRel(found), at, ss.homeRel(path.Dir(found)), rc, rc),
				Fix:      fmt.Sprintf("after line %d, have the reader run `source %s` (or open a new terminal) before line %d", at, rc, rec.Line),
				Edit:     &loop.Edit{InsertBefore: []string{"source " + rc}},
				Category: "missing step",
			}, output)
		}
		if d := path.Dir(found); ss.home != "" && d == path.Join(ss.home, "bin") {
			// Debian's ~/.profile puts ~/bin on PATH only if it exists when the login
			// shell starts: made in this session, it is not there yet
			made := ""
			for _, c := range ss.res.Commands {
				if c.Line < rec.Line && firstWord(c.Command) == "mkdir" && regexp.MustCompile(`(?:~|\$HOME|`+regexp.QuoteMeta(ss.home)+`)/bin\b`).MatchString(c.Command) {
					made = fmt.Sprintf(", and line %d made it in this same session", c.Line)
					break
				}
			}
			return ss.addFinding(rec, loop.Finding{
				Problem: fmt.Sprintf("`%s` is `~/bin/%s`, but `~/bin` is not on PATH in this shell: Debian's `~/.profile` adds `~/bin` to PATH only when the folder exists as the login shell starts%s", name, path.Base(found), made),
				Fix:     fmt.Sprintf("before line %d, have the reader run `source ~/.profile` (or log in again), or run it by its path, `~/bin/%s`", rec.Line, path.Base(found)),
				Edit:    &loop.Edit{InsertBefore: []string{". ~/.profile"}},
			}, output)
		}
		if dead := ss.deadPathEntry(ctx, found); dead != "" {
			// export PATH=/usr/lib/postgresql/16/bin where Debian has 15
			return ss.addFinding(rec, loop.Finding{
				Problem: fmt.Sprintf("`%s` is not found: the tutorial puts `%s` on PATH, which does not exist here; the program is `%s`", name, dead, found),
				Fix:     fmt.Sprintf("use the directory the installed version has, `%s`, where the tutorial sets PATH (or say which version the steps need)", path.Dir(found)),
				Edit:    &loop.Edit{InsertBefore: []string{fmt.Sprintf(`export PATH="%s:$PATH"`, path.Dir(found))}},
			}, output)
		}
		return ss.addFinding(rec, loop.Finding{
			Problem: fmt.Sprintf("`%s` is installed (%s) but not on PATH in this shell: the tutorial never says to restart the shell or add its directory to PATH", name, found),
			Fix:     fmt.Sprintf("after the install step, tell the reader to open a new shell or run `export PATH=\"%s:$PATH\"` before line %d", path.Dir(found), rec.Line),
			Edit:    &loop.Edit{InsertBefore: []string{fmt.Sprintf(`export PATH="%s:$PATH"`, path.Dir(found))}},
		}, output)
	}
	if _, known := knownTool(name); known && t.Debian != "" {
		// the table knows the package (`python` after installing python3-django is
		// python-is-python3): name it below, so the reader installs it and goes on
	} else if pkg, provides := ss.installedLookalike(ctx, name); pkg != "" {
		// `magick` after installing Debian's imagemagick (version 6: convert, mogrify…)
		return ss.addFinding(rec, loop.Finding{
			Problem: fmt.Sprintf("`%s` is not found although the tutorial installed `%s`: Debian's `%s` provides no `%s` command; it provides %s", name, pkg, pkg, name, quoteList(provides)),
			Fix:     fmt.Sprintf("use the commands Debian's `%s` has (%s) at line %d, or say which version of the tool the tutorial needs and how to install it", pkg, quoteList(provides), rec.Line),
		}, output)
	}
	if renamed, pkg := ss.renamedCommand(ctx, name); renamed != "" {
		// Debian's expect installs Expect's mkpasswd as expect_mkpasswd
		with := strings.Replace(strings.TrimSpace(rec.Command), name, renamed, 1)
		return ss.addFinding(rec, loop.Finding{
			Problem: fmt.Sprintf("`%s` is not found, but `%s`, which the tutorial installed, provides it as `%s`", name, pkg, renamed),
			Fix:     fmt.Sprintf("run `%s` at line %d (`%s`), or say that Debian names the command `%s`", renamed, rec.Line, with, renamed),
			Edit:    &loop.Edit{Replace: with},
		}, output)
	}
	if tool, sub, pkg := ss.subcommandCommand(ctx, name); tool != "" {
		// MuPDF's mudraw, now `mutool draw` in Debian's mupdf-tools
		with := strings.Replace(strings.TrimSpace(rec.Command), name, tool+" "+sub, 1)
		return ss.addFinding(rec, loop.Finding{
			Problem: fmt.Sprintf("`%s` is not found, but `%s`, which the tutorial installed, has it as the subcommand `%s %s`", name, pkg, tool, sub),
			Fix:     fmt.Sprintf("run `%s %s` at line %d (`%s`), or say that the tool is now a subcommand", tool, sub, rec.Line, with),
			Edit:    &loop.Edit{Replace: with},
		}, output)
	}
	if t.Debian == "" && t.Guide == "" {
		if pkg := ss.debianPackage(ctx, name); pkg != "" {
			t.Debian = "sudo apt-get install -y " + pkg
		} else if pkg := ss.commandPackage(ctx, name); pkg != "" {
			// `bgzip`, which Debian ships in tabix
			t.Debian = "sudo apt-get install -y " + pkg
		} else if right := ss.misspelt(ctx, name); right != "" {
			// `cyhton3 -3 -a fib.pyx` where the tutorial runs cython3 everywhere else
			with := strings.Replace(strings.TrimSpace(rec.Command), name, right, 1)
			f := loop.Finding{
				Problem:  fmt.Sprintf("`%s` is not a command of this system nor of any Debian package: it is `%s` misspelt", name, right),
				Fix:      fmt.Sprintf("write `%s` at line %d (`%s`)", right, rec.Line, firstLine(with)),
				Category: "command failure",
			}
			if !strings.Contains(with, "\n") {
				f.Edit = &loop.Edit{Replace: with}
			}
			return ss.addFinding(rec, f, output)
		}
	}
	if pkgs := strings.Fields(strings.TrimPrefix(t.Debian, "sudo apt-get install -y ")); len(pkgs) == 1 {
		if at := ss.laterInstall(i, pkgs[0]); at != nil {
			// gearadmin in step 4, and `apt-get install -y gearman-tools` in step 5
			if r, ok := ss.earlyUse[at.line]; ok {
				ss.consequence(r, rec)
				return r
			}
			ss.earlyUse[at.line] = ss.addFinding(rec, loop.Finding{
				Problem: fmt.Sprintf("`%s` is used at line %d before the step that installs it (line %d: `%s`, Debian's `%s` provides it)", name, rec.Line, at.line, firstLine(at.command.Text), pkgs[0]),
				Fix:     fmt.Sprintf("move the install step `%s` (line %d) before line %d", firstLine(at.command.Text), at.line, rec.Line),
				Edit:    &loop.Edit{InsertBefore: []string{at.command.Text}},
			}, output)
			return ss.earlyUse[at.line]
		}
	}
	how := ""
	switch {
	case t.Debian != "":
		how = fmt.Sprintf(" (on Debian: `%s`)", t.Debian)
	case t.Guide != "":
		how = " (see " + t.Guide + ")"
	}
	what := t.Name
	if what != name {
		what = fmt.Sprintf("%s, which provides `%s`", t.Name, name)
	}
	f := loop.Finding{
		Problem: fmt.Sprintf("`%s` is not installed: the tutorial uses %s at line %d but never installs it or lists it as a prerequisite", name, what, rec.Line),
		Fix:     fmt.Sprintf("add a step before line %d that installs %s%s, or list %s under Prerequisites with a link to its install guide", rec.Line, t.Name, how, t.Name),
	}
	if t.Debian != "" {
		install := t.Debian
		if strings.HasPrefix(install, "sudo apt-get install") {
			// a fresh container has no package lists; a fresh machine has: both work with this
			install = "sudo apt-get update && " + install
		}
		f.Edit = &loop.Edit{InsertBefore: []string{install}}
	}
	return ss.addFinding(rec, f, output)
}

// misspelt is the program name is a typo of: the one program the tutorial runs elsewhere
// that is two edits or fewer away (a swap of two letters is two), or else the one
// program on PATH that is a single edit away ("" when none, or several, are).
func (ss *session) misspelt(ctx context.Context, name string) string {
	if len(name) < 4 || strings.ContainsAny(name, "/$=") {
		return ""
	}
	used := map[string]bool{}
	for _, st := range ss.steps {
		if st.command == nil {
			continue
		}
		for _, part := range splitList(st.command.Text) {
			if w := firstWord(part); w != name && len(w) >= 3 && !strings.ContainsAny(w, "/$=") {
				used[w] = true
			}
		}
	}
	if w := onlyNear(used, name, 2); w != "" {
		return w
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "compgen -c | sort -u", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return ""
	}
	onPath := map[string]bool{}
	for _, w := range strings.Fields(r.Stdout) {
		if w != name && len(w) >= 3 {
			onPath[w] = true
		}
	}
	return onlyNear(onPath, name, 1)
}

// reExampleHost: a host under a domain reserved for examples (RFC 2606); reExampleServer,
// one given with its port, as a server is (`tasks.example.net:53589`).
var (
	reExampleHost   = regexp.MustCompile(`(?i)\b(?:[\w-]+\.)*example\.(?:com|net|org)\b`)
	reExampleServer = regexp.MustCompile(`(?i)\b(?:[\w-]+\.)*example\.(?:com|net|org):\d+\b`)
)

// reHomePath: a path in another home folder than the reader's (Linode's
// /home/example_user/…): the user, and the path below their home.
var reHomePath = regexp.MustCompile(`/home/([a-z_][a-z0-9_-]*)/([\w.@+/-]*[\w+-])`)

// foreignHome: the failed command, or a file the tutorial wrote for its program, names a
// path in the home folder of a user the reader is not, which does not exist, while the
// same path below the reader's own home does: the author's user name left in as an
// unexplained placeholder (prose that explains it has the file written with the reader's
// home already). It returns the path, the reader's counterpart, and where it was written
// ("" when the command itself names it).
func (ss *session) foreignHome(ctx context.Context, rec loop.CommandRecord) (foreign, own, in string) {
	if ss.home == "" {
		return "", "", ""
	}
	prog := programOf(rec.Command)
	type source struct{ text, file string }
	sources := []source{{rec.Command, ""}}
	for _, f := range slices.Sorted(maps.Keys(ss.written)) {
		content := ss.written[f]
		related := strings.Contains(rec.Command, path.Base(f))
		for _, part := range strings.Split(path.Dir(f), "/") {
			related = related || sameFamily(prog, part)
		}
		if related {
			sources = append(sources, source{content, f})
		}
	}
	for _, src := range sources {
		for _, m := range reHomePath.FindAllStringSubmatch(src.text, -1) {
			if "/home/"+m[1] == ss.home || m[1] == ss.user {
				continue
			}
			mine := path.Join(ss.home, m[2])
			r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "[ ! -e " + shellQuote(m[0]) + " ] && [ -e " + shellQuote(mine) + " ]", Timeout: 10 * time.Second, User: rootUser})
			if err == nil && r.ExitCode == 0 {
				return m[0], "~/" + m[2], src.file
			}
		}
	}
	return "", "", ""
}

// placeholderServer: an earlier command of the same program set it to talk to a server
// under an example domain (host and port), and the failed command names no host: that
// server and the line that set it.
func (ss *session) placeholderServer(rec loop.CommandRecord) (string, int) {
	prog := programOf(rec.Command)
	if prog == "" || reURL.MatchString(rec.Command) || reExampleHost.MatchString(rec.Command) {
		return "", 0
	}
	for k := len(ss.res.Commands) - 1; k >= 0; k-- {
		c := ss.res.Commands[k]
		if c.Line >= rec.Line || programOf(c.Command) != prog || c.ExitCode != 0 {
			continue
		}
		if h := reExampleServer.FindString(c.Command); h != "" {
			// (a server with its port, not a page title: `--html-report-title="example.org, …"`)
			return h, c.Line
		}
	}
	return "", 0
}

// reNotDefined: a program saying a name the command gives does not exist yet
// (Taskwarrior 2.6: "Context 'talk' not found.").
var reNotDefined = regexp.MustCompile(`(?i)\b[\w-]+ ['"‘]([\w.-]+)['"’] (?:not found|not defined|does not exist|doesn't exist|is not defined|unknown)`)

// undefinedName is the name reNotDefined finds in output ("" when none).
func (ss *session) undefinedName(rec loop.CommandRecord, output string) string {
	if m := reNotDefined.FindStringSubmatch(output); m != nil && slices.Contains(strings.Fields(rec.Command), m[1]) {
		return m[1]
	}
	return ""
}

// reDefineVerb: a subcommand that creates or defines what it names.
var reDefineVerb = regexp.MustCompile(`^(?:define|create|add|new|init|make|set|register|declare)$`)

// definedLater: the program says a name the failed command gives does not exist, and a
// later step of the same program defines that name (`task context define talk …`).
func (ss *session) definedLater(i int, rec loop.CommandRecord, output string) *step {
	name := ss.undefinedName(rec, output)
	if name == "" || strings.Contains(name, ".") {
		return nil // (a file's name is another story)
	}
	prog := programOf(rec.Command)
	for j := i + 1; j < len(ss.steps); j++ {
		s := ss.steps[j]
		if s.command == nil || s.kind != runStep || programOf(s.command.Text) != prog {
			continue
		}
		f := strings.Fields(firstLine(s.command.Text))
		if k := slices.Index(f, name); k > 1 && slices.ContainsFunc(f[1:k], func(w string) bool { return reDefineVerb.MatchString(w) }) {
			return &ss.steps[j]
		}
	}
	return nil
}

// reUnknownSub: a program refusing its first argument as a subcommand it does not have
// (Breezy 3.3 `brz: ERROR: unknown command "stauts"`, argparse's `invalid choice:
// 'stauts'`, Cobra's `unknown command "stauts" for "x"`, clap's `unrecognized subcommand
// 'stauts'`, Click's `No such command 'stauts'`, git 2.39's `git: 'stauts' is not a git
// command`).
var reUnknownSub = regexp.MustCompile(`(?i)unknown (?:sub)?command:?\s*["'‘]([\w-]+)["'’]|invalid choice: '([\w-]+)'|unrecognized subcommand '([\w-]+)'|no such (?:sub)?command:?\s*["'‘]([\w-]+)["'’]|'([\w-]+)' is not a [\w-]+ command`)

// isMisspeltSub: misspeltSubcommand finds the subcommand meant (`git stauts` where the
// tutorial runs `git status`: a typo, not a git-stauts to install).
func (ss *session) isMisspeltSub(ctx context.Context, rec loop.CommandRecord, output string) bool {
	_, right, _ := ss.misspeltSubcommand(ctx, rec, output)
	return right != ""
}

// misspeltSubcommand: the failed command's first argument is a subcommand its program
// refuses, and the tutorial runs the program elsewhere with the one subcommand two edits
// or fewer away: the misspelt word, the word meant and the line that runs it.
func (ss *session) misspeltSubcommand(ctx context.Context, rec loop.CommandRecord, output string) (string, string, int) {
	m := reUnknownSub.FindStringSubmatch(output)
	if m == nil {
		return "", "", 0
	}
	bad := firstNonEmpty(m[1:]...)
	prog := programOf(rec.Command)
	// the words right after the program: options, their values and the subcommand
	// (`git -C repo stauts`)
	head := func(cmd string) []string {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(cmd), "sudo "))
		if len(f) < 2 || f[0] != prog {
			return nil
		}
		return f[1:min(len(f), 5)]
	}
	if len(bad) < 3 || !slices.Contains(head(firstLine(rec.Command)), bad) {
		return "", "", 0
	}
	used, lines := map[string]bool{}, map[string]int{}
	for _, st := range ss.steps {
		if st.command == nil {
			continue
		}
		for _, part := range splitList(st.command.Text) {
			for _, w := range head(part) {
				if w != bad && !strings.HasPrefix(w, "-") && lines[w] == 0 {
					used[w], lines[w] = true, st.line
				}
			}
		}
	}
	if right := onlyNear(used, bad, 2); right != "" {
		return bad, right, lines[right]
	}
	// none the tutorial runs: the one its help lists (`notmuch adress`, and `notmuch
	// --help` lists address)
	help, ok := ss.programHelp(ctx, []string{prog})
	if !ok || len(bad) < 4 {
		return "", "", 0
	}
	listed := map[string]bool{}
	for _, w := range reHelpWord.FindAllString(help, -1) {
		listed[strings.ToLower(w)] = true
	}
	if right := nearestListed(listed, bad, len(bad)); right != "" {
		return bad, right, 0
	}
	return "", "", 0
}

// nearestListed is the one name a program's help lists that bad, of n letters, misspells:
// none when the help lists bad itself (refused for another reason), else the only name
// one edit away or, failing that, two, and never more edits than a third of n (`covert`
// is one edit from convert, two from count).
func nearestListed(listed map[string]bool, bad string, n int) string {
	if listed[bad] {
		return ""
	}
	for most := 1; most <= 2 && most <= n/3; most++ {
		if right := onlyNear(listed, bad, most); right != "" {
			return right
		}
	}
	return ""
}

// onlyNear is the one word of words that is at most `most` edits from name ("" when
// none, or several, are).
func onlyNear(words map[string]bool, name string, most int) string {
	found := ""
	for w := range words {
		if levenshtein.ComputeDistance(w, name) <= most {
			if found != "" {
				return ""
			}
			found = w
		}
	}
	return found
}

// badShebang: the script the command runs exists, but the interpreter its first line
// names does not; the fix points the line at the interpreter the reader has, when there is
// one of that name on PATH.
func (ss *session) badShebang(ctx context.Context, script string, line int, output string) (loop.Finding, bool) {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && [ -f " + shellQuote(script) + " ] && head -n 1 " + shellQuote(script), Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return loop.Finding{}, false
	}
	first := strings.TrimSpace(r.Stdout)
	sb := reShebang.FindStringSubmatch(first)
	if sb == nil || !path.IsAbs(sb[1]) {
		return loop.Finding{}, false
	}
	interp, prog := sb[1], path.Base(sb[1])
	if words := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(first[2:]), interp)); prog == "env" && len(strings.Fields(words)) > 1 && !strings.HasPrefix(words, "-") && strings.Contains(output, "in shebang lines") {
		// `#!/usr/bin/env poly --script`: Linux hands env "poly --script" as one
		// argument, and GNU env says "use -[v]S to pass options in shebang lines"
		return loop.Finding{
			Problem:  fmt.Sprintf("`%s` cannot start: its first line (`%s`) hands env `%s` as one program name, which does not exist; env splits it only with `-S`", script, first, words),
			Fix:      fmt.Sprintf("make the first line of `%s` `#!%s -S %s`", path.Base(script), interp, words),
			Edit:     &loop.Edit{InsertBefore: []string{fmt.Sprintf("sed -i '1s|^#! *%s |#!%s -S |' %s", sedReplacement(interp), sedReplacement(interp), shellQuote(script))}},
			Category: "command failure",
		}, true
	}
	if ok, _ := ss.exists(ctx, interp); ok {
		return loop.Finding{}, false // the interpreter is there: the failure is something else
	}
	c, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "command -v " + shellQuote(prog) + " || true", Timeout: 10 * time.Second, User: ss.user})
	if err != nil {
		return loop.Finding{}, false
	}
	found := strings.TrimSpace(c.Stdout)
	if !path.IsAbs(found) {
		t := toolOf(prog)
		fix := fmt.Sprintf("install %s before line %d, or make the first line of `%s` name an interpreter the reader has", t.Name, line, path.Base(script))
		if t.Debian != "" {
			fix = fmt.Sprintf("install %s before line %d (`%s`), or make the first line of `%s` name an interpreter the reader has", t.Name, line, t.Debian, path.Base(script))
		}
		return loop.Finding{
			Problem:  fmt.Sprintf("`%s` cannot start: its first line (`%s`) names `%s`, which is not installed", script, first, interp),
			Fix:      fix,
			Category: "missing prerequisite",
		}, true
	}
	return loop.Finding{
		Problem:  fmt.Sprintf("`%s` cannot start: its first line (`%s`) names `%s`, which does not exist here; the reader's `%s` is `%s`", script, first, interp, prog, found),
		Fix:      fmt.Sprintf("make the first line of `%s` `%s` (or `#!/usr/bin/env %s`)", path.Base(script), strings.Replace(first, interp, found, 1), prog),
		Edit:     &loop.Edit{InsertBefore: []string{fmt.Sprintf("sed -i '1s|^#! *%s|#!%s|' %s", sedReplacement(interp), sedReplacement(found), shellQuote(script))}},
		Category: "command failure",
	}, true
}

// reNothingToCommit: a version-control system's commit that found no change to record.
var reNothingToCommit = regexp.MustCompile(`(?i)nothing (?:to commit|added to commit|has changed|changed)|no changes (?:added )?to commit`)

// untrackedFiles lists, for each version-control system, the files of the check-out it
// does not track, one per line.
var untrackedFiles = map[string]string{
	"git":    "git ls-files --others --exclude-standard",
	"hg":     "hg status --unknown --no-status",
	"fossil": "fossil extras",
	"svn":    "svn status | sed -n 's/^? *//p'",
}

// untrackedAtCommit: a commit that found nothing to record, in a check-out holding files
// it does not track (the tutorial made them and never added them): the program and those
// files.
func (ss *session) untrackedAtCommit(ctx context.Context, cmd, output string) (string, []string) {
	f := strings.Fields(cmd)
	if len(f) < 2 || !reNothingToCommit.MatchString(output) || f[1] != "commit" && f[1] != "ci" {
		return "", nil
	}
	list, ok := untrackedFiles[f[0]]
	if !ok {
		return "", nil
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && " + list + " | head -n 6", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", nil
	}
	files := strings.Fields(r.Stdout)
	if len(files) == 0 || len(files) > 5 {
		return "", nil
	}
	return f[0], files
}

// renamedCommand: a command on PATH, from a package the tutorial installed, whose name is
// name with a prefix or suffix joined by `_`, `-` or `.` (expect_mkpasswd for mkpasswd),
// and that package; "" when there is not exactly one.
func (ss *session) renamedCommand(ctx context.Context, name string) (string, string) {
	if len(name) < 4 || strings.ContainsAny(name, "/.") {
		return "", ""
	}
	installed := ss.aptPackages(true)
	if len(installed) == 0 {
		return "", ""
	}
	q := regexp.QuoteMeta(name)
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "compgen -c | grep -E " + shellQuote("^([[:alnum:]]+[_-])"+q+"$|^"+q+"[_.-][[:alnum:]]+$") + " | sort -u | head -n 3", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", ""
	}
	cands := strings.Fields(r.Stdout)
	if len(cands) != 1 {
		return "", ""
	}
	pkg := ss.packageOf(ctx, cands[0])
	if !slices.Contains(installed, pkg) {
		return "", ""
	}
	return cands[0], pkg
}

// subcommandCommand: a command of a package the tutorial installed that name splits
// into, a prefix it shares and a subcommand its usage lists (mudraw: `mutool`, whose
// usage lists `draw`), and that package; "" when there is not exactly one.
func (ss *session) subcommandCommand(ctx context.Context, name string) (tool, sub, pkg string) {
	if len(name) < 5 || strings.ContainsAny(name, "/.") {
		return "", "", ""
	}
	installed := ss.aptPackages(true)
	if len(installed) == 0 {
		return "", "", ""
	}
	// each installed program that shares at least two leading letters with name, and the
	// rest of name (at least three letters) as a word of its usage
	script := `cd "$(mktemp -d)" && n=` + shellQuote(name) + `; dpkg -L ` + shellWords(installed) + ` 2>/dev/null | grep -E '^/usr/s?bin/[^/]+$' | sort -u | while read -r p; do c=${p##*/}; [ "$c" = "$n" ] && continue; l=0; while [ $l -lt ${#c} ] && [ "$(printf %s "$c" | cut -c1-$((l+1)))" = "$(printf %s "$n" | cut -c1-$((l+1)))" ]; do l=$((l+1)); done; [ $l -ge 2 ] && [ $((${#n}-l)) -ge 3 ] || continue; rest=$(printf %s "$n" | cut -c$((l+1))-); rest=${rest#[-_]}; if { timeout 5 "$p" </dev/null; timeout 5 "$p" --help </dev/null; } 2>&1 | grep -qw -- "$rest"; then echo "$c $rest"; fi; done | sort -u | head -n 3`
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: script, Timeout: 60 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", "", ""
	}
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if len(lines) != 1 || lines[0] == "" {
		return "", "", ""
	}
	f := strings.Fields(lines[0])
	if len(f) != 2 {
		return "", "", ""
	}
	return f[0], f[1], ss.packageOf(ctx, f[0])
}

// packageOf is the Debian package that installed the command on PATH ("" when none).
func (ss *session) packageOf(ctx context.Context, command string) string {
	p, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "dpkg -S \"$(readlink -f \"$(command -v " + shellQuote(command) + ")\")\" 2>/dev/null | head -n 1 | cut -d: -f1", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || p.ExitCode != 0 {
		return ""
	}
	return strings.TrimSpace(p.Stdout)
}

// Source checked out from the network, and the steps that build and install it.
var (
	reSourceClone = regexp.MustCompile(`^(?:sudo\s+)?(?:git\s+clone|hg\s+clone|svn\s+(?:co|checkout))\b`)
	reBuildStep   = regexp.MustCompile(`(?:^|[\s;&])(?:make(?:\s+-\S+)*\s+install|cmake\s+--install|ninja\s+install|meson\s+install|cargo\s+install\s+--path|pip3?\s+install\s+\.)\b`)
)

// unverifiedDownload is the root of the last source checkout that could not be checked
// (no network here) when a step after it and before line builds and installs it: the
// programs that build would have installed are missing at line as a result (the build's
// own tools, `make` among them, are not: they come before it).
func (ss *session) unverifiedDownload(line int) (int, bool) {
	for r := len(ss.roots) - 1; r >= 0; r-- {
		if ss.roots[r].finding >= 0 {
			continue
		}
		for _, c := range ss.res.Commands {
			if c.Line != ss.roots[r].line || !reSourceClone.MatchString(strings.TrimSpace(c.Command)) {
				continue
			}
			for _, st := range ss.steps {
				if st.line > c.Line && st.line < line && st.command != nil && reBuildStep.MatchString(st.command.Text) {
					return r, true
				}
			}
		}
	}
	return 0, false
}

// aptInstalled: an apt install step that ran names a package for the program name.
func (ss *session) aptInstalled(name string) bool {
	want := toolOf(name).Name
	for _, p := range ss.aptPackages(false) {
		if p == name || toolOf(p).Name == want {
			return true
		}
	}
	return false
}

// unfinishedInstall: an install that ran out of time named the package that provides
// the command (by the tool table, or by name), and its root.
func (ss *session) unfinishedInstall(name string) (int, bool) {
	debian := strings.Fields(toolOf(name).Debian)
	for _, c := range ss.installs() {
		if c.rec.TimedOut && slices.ContainsFunc(c.packages, func(p string) bool { return p == name || slices.Contains(debian, p) }) {
			if r := ss.rootAtLine(c.rec.Line); r >= 0 {
				return r, true
			}
		}
	}
	return 0, false
}

// aptPackages are the packages the apt install steps that ran name, in order (only those
// of steps that worked, when worked is set).
func (ss *session) aptPackages(worked bool) []string {
	var out []string
	for _, c := range ss.installs() {
		if !worked || c.rec.ExitCode == 0 {
			out = append(out, c.packages...)
		}
	}
	return out
}

// anInstall is an apt install step that ran, with the packages it names.
type anInstall struct {
	rec      *loop.CommandRecord
	packages []string
}

// installs are the apt install steps that ran, in order.
func (ss *session) installs() []anInstall {
	var out []anInstall
	for i := range ss.res.Commands {
		if pkgs, ok := aptInstall(ss.res.Commands[i].Command); ok {
			out = append(out, anInstall{&ss.res.Commands[i], pkgs})
		}
	}
	return out
}

// laterInstall finds a later step (run or skipped) that installs name.
func (ss *session) laterInstall(i int, name string) *step {
	for j := i + 1; j < len(ss.steps); j++ {
		s := ss.steps[j]
		if s.command == nil || s.kind == skipStep && reOtherSystem.MatchString(s.reason) || firstWord(s.command.Text) == "source" || firstWord(s.command.Text) == "." {
			continue
		}
		for _, t := range predict(s.command.Text).tools {
			if t == name || len(t) >= 3 && strings.HasPrefix(name, t+"-") {
				return &ss.steps[j]
			}
		}
		if pkgs, ok := aptInstall(s.command.Text); ok && slices.Contains(pkgs, name) {
			return &ss.steps[j] // a package by its name (python3-aiosmtpd)
		}
	}
	return nil
}

// dependsOnTainted: the command names a path a failed step was meant to create.
func (ss *session) dependsOnTainted(cmd string) (int, bool) {
	for p, r := range ss.taintPaths {
		rel := p
		if strings.HasPrefix(p, ss.cwd+"/") {
			rel = strings.TrimPrefix(p, ss.cwd+"/")
		}
		if (refersTo(cmd, rel) || refersTo(cmd, p)) && !writesOnly(cmd, rel) {
			return r, true
		}
	}
	return 0, false
}

// writesOnly: cmd names p only as what it writes (`-o gpx` after a failed `… -o gpx`
// predicted a file gpx): it does not need p to exist.
func writesOnly(cmd, p string) bool {
	w := strings.Fields(cmd)
	named := false
	for i, a := range w {
		if strings.Trim(a, `"'`) != p {
			continue
		}
		if i == 0 || w[i-1] != "-o" && w[i-1] != "--output" && w[i-1] != ">" {
			return false
		}
		named = true
	}
	return named
}

var (
	// rePassPrompt: a program asking for a passphrase or password
	rePassPrompt = regexp.MustCompile(`(?i)(?:enter|new|repeat|confirm|retype|verify)[^\n]{0,20}pass(?:phrase|word)[^\n]*:`)
	// reWrongSecret: a passphrase or password refused
	reWrongSecret = regexp.MustCompile(`(?i)pass(?:phrase|word)[^\n]{0,80}\b(?:incorrect|wrong|invalid|mismatch|does not match)|\b(?:incorrect|wrong|invalid|bad) pass(?:phrase|word)|decryption failed`)
)

// rootAtLine is the root recorded for the step at line, or -1.
func (ss *session) rootAtLine(line int) int {
	for i := len(ss.roots) - 1; i >= 0; i-- {
		if ss.roots[i].line == line {
			return i
		}
	}
	return -1
}

// reTimes: the clock times and dates in a log line.
var reTimes = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]?|\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?`)

// reTildePath: a path starting with `~/` that output quotes.
var reTildePath = regexp.MustCompile(`['"‘“](~/[^'"’”\s]+)['"’”]`)

// tildeInFile: an error quotes a `~/` path that a file the tutorial wrote holds (a
// program reading its configuration does not expand `~`): the path, the file and the
// tutorial line that has it.
func (ss *session) tildeInFile(output string) (string, string, int) {
	for _, m := range reTildePath.FindAllStringSubmatch(output, 3) {
		for _, st := range ss.steps {
			if st.kind != fileStep {
				continue
			}
			for k, l := range strings.Split(st.content, "\n") {
				if strings.Contains(l, m[1]) {
					return m[1], joinDir(st.dir, st.file), ss.blockLine(st, k)
				}
			}
		}
	}
	return "", "", 0
}

// reQuietFlag: an option that keeps a program from saying what went wrong.
var reQuietFlag = regexp.MustCompile(`\s(?:-q|--quiet|-qq)(?:\s|$)`)

// unquieted runs a failed one-line command that printed nothing again without its
// quiet option (no `cd`, no redirection): what it prints then, and that command.
func (ss *session) unquieted(ctx context.Context, st step, rec loop.CommandRecord) (string, string) {
	cmd := strings.TrimSpace(rec.Command)
	if strings.Contains(cmd, "\n") || !reQuietFlag.MatchString(cmd) || strings.Contains(cmd, "cd ") || strings.ContainsAny(cmd, "<>") {
		return "", ""
	}
	loud := strings.TrimSpace(reQuietFlag.ReplaceAllString(cmd+" ", " "))
	r, err := ss.task.Sandbox.Exec(ctx, ss.request(loud, st.root, 60*time.Second))
	if err != nil || r.TimedOut || r.ExitCode == 0 {
		return "", ""
	}
	stderr, _ := splitCwd(r.Stderr)
	return strings.TrimSpace(combine(r.Stdout, stderr)), loud
}

// reExitCodeNum: the exit status an error line reports.
var reExitCodeNum = regexp.MustCompile(`(?i)exit (?:code|status):? (\d+)`)

// sameError is the root of an earlier gap whose key error line this output repeats (the
// same file names it, whatever the time it was logged).
func (ss *session) sameError(output string) (int, bool) {
	norm := func(s string) string { return strings.Join(strings.Fields(reTimes.ReplaceAllString(s, "#")), " ") }
	short := func(key string) bool { return len(key) < 12 || len(key) < 20 && len(strings.Fields(key)) < 3 }
	key := norm(keyLine(output))
	if short(key) {
		return 0, false
	}
	for i, r := range ss.roots {
		if r.finding < 0 || ss.res.Findings[r.finding].Environment {
			continue
		}
		earlier := norm(keyLine(ss.res.Findings[r.finding].Output))
		if short(earlier) {
			continue // HTTPie's bare "error:" is in every error it prints
		}
		if a, b := reExitCodeNum.FindStringSubmatch(earlier), reExitCodeNum.FindStringSubmatch(key); a != nil && b != nil && a[1] != b[1] {
			continue // a runner's "non-zero exit code: 126" and "…: 1" are two failures
		}
		if oneWordApart(earlier, key) || !reSummaryError.MatchString(earlier) && quotesMessage(output, earlier) {
			// (a summary such as "not loaded due to errors." closes different errors alike)
			return i, true
		}
	}
	return 0, false
}

// repeatsFailed is the root of an earlier failed command that rec runs again as one part
// of a chain (`a && b`, `a; b`), when an error line of that failure, its paths and
// numbers aside, is in rec's output too.
func (ss *session) repeatsFailed(rec loop.CommandRecord, output string) (int, bool) {
	parts := reChainSep.Split(strings.TrimSpace(rec.Command), -1)
	if len(parts) < 2 {
		return 0, false
	}
	norm := func(s string) string { return strings.Join(strings.Fields(reDiffers.ReplaceAllString(s, "#")), " ") }
	have := map[string]bool{}
	for _, l := range strings.Split(output, "\n") {
		if n := norm(l); len(n) >= 12 {
			have[n] = true
		}
	}
	for i, rt := range ss.roots {
		if rt.finding < 0 || ss.res.Findings[rt.finding].Environment {
			continue
		}
		f := ss.res.Findings[rt.finding]
		if !slices.Contains(parts, strings.TrimSpace(f.Command)) {
			continue
		}
		for _, l := range strings.Split(f.Output, "\n") {
			if have[norm(l)] {
				return i, true
			}
		}
	}
	return 0, false
}

// reChainSep: what joins the commands of a chain on one line.
var reChainSep = regexp.MustCompile(`\s*(?:&&|\|\||;)\s*`)

// reGitNoSub: git found no program for a subcommand (git 2.39: "git: 'annex' is not a
// git command. See 'git --help'.").
var reGitNoSub = regexp.MustCompile(`git: '([a-z][\w-]*)' is not a git command`)

// reLevelPrefix: the label an error line starts with ("FAILED: ", "error: ").
var reLevelPrefix = regexp.MustCompile(`^(?i:(?:\w+ )?(?:failed|error|fatal|err)\b:?\s*)`)

// quotesMessage: output carries the message of the earlier error line, whatever the
// quoting (a server logging in logfmt what its checker printed: `err="parsing YAML file
// prometheus.yml: not a valid duration string: \"15\""`). Short messages never match.
func quotesMessage(output, earlier string) bool {
	bare := func(s string) string {
		return strings.Join(strings.Fields(strings.NewReplacer(`\`, "", `"`, "", "'", "").Replace(s)), " ")
	}
	msg := bare(reLevelPrefix.ReplaceAllString(earlier, ""))
	return len(msg) >= 30 && strings.Contains(bare(output), msg)
}

// oneWordApart: two error lines are the same, or differ in one word that names no file
// ("can't find window: 1" and "can't find pane: 1").
func oneWordApart(a, b string) bool {
	if a == b {
		return true
	}
	num := func(s string) string { return reDigits.ReplaceAllString(reHexOffset.ReplaceAllString(s, "#"), "#") }
	wa, wb := strings.Fields(num(a)), strings.Fields(num(b))
	if len(wa) != len(wb) || len(wa) < 3 {
		return false
	}
	diff := 0
	for i := range wa {
		if wa[i] != wb[i] {
			if diff++; diff > 1 || strings.ContainsAny(wa[i]+wb[i], "./'\"`") {
				return false
			}
		}
	}
	return true
}

// namesTainted: an error line that names, by its absolute path, something a failed step
// was to make.
func (ss *session) namesTainted(line string) (int, bool) {
	for p, r := range ss.taintPaths {
		if strings.Count(p, "/") >= 2 && refersTo(line, p) {
			return r, true
		}
	}
	return 0, false
}

// namesTaintedHere: a "not found" line of output that names, as the session's folder
// sees it, a file a failed step was to make there (tesseract reading the list of images
// that names para.png, which the failed convert was to write).
func (ss *session) namesTaintedHere(output string) (int, bool) {
	for _, l := range strings.Split(output, "\n") {
		if !reNotThere.MatchString(l) {
			continue
		}
		for p, r := range ss.taintPaths {
			if rel, ok := strings.CutPrefix(p, ss.cwd+"/"); ok && len(path.Base(rel)) >= 5 && strings.Contains(path.Base(rel), ".") && refersTo(l, rel) {
				return r, true
			}
		}
	}
	return 0, false
}

// reSystemData: a path into the system's shared data or libraries, which packages fill.
var reSystemData = regexp.MustCompile(`/usr/(?:share|lib)/[\w.+-]+(?:/[\w.+-]+)+`)

// skippedRecommend is the package that would have brought a missing system file the
// output names, when a package the tutorial installed recommends it and the install left
// recommendations out (--no-install-recommends), or suggests it: the package, the file,
// the package that recommends it and the install's line. "" when none fits: its name must
// hold a distinctive part of the file's path (pari-elldata for /usr/share/pari/elldata/…).
func (ss *session) skippedRecommend(ctx context.Context, output string) (pkg, file, by, rel string, at int) {
	files := reSystemData.FindAllString(output, 3)
	if len(files) == 0 {
		return "", "", "", "", 0
	}
	for _, in := range ss.installs() {
		if in.rec.ExitCode != 0 {
			continue
		}
		kinds := "Suggests"
		if strings.Contains(in.rec.Command, "--no-install-recommends") {
			kinds = "Recommends|Suggests"
		}
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "apt-cache depends --no-pre-depends " + strings.Join(in.packages, " ") + " 2>/dev/null | awk '$1 ~ /^[|]?(" + kinds + "):/ || /^[^ ]/ {print}'", Timeout: 20 * time.Second, User: ss.user})
		if err != nil || r.ExitCode != 0 {
			continue
		}
		owner := ""
		for _, l := range strings.Split(r.Stdout, "\n") {
			f := strings.Fields(l)
			if len(f) == 1 && !strings.HasPrefix(l, " ") {
				owner = f[0] // the package whose relations follow
				continue
			}
			if len(f) != 2 {
				continue
			}
			cand := strings.Trim(f[1], "<>")
			for _, file := range files {
				for _, part := range strings.Split(strings.TrimPrefix(file, "/usr/"), "/")[2:] {
					if len(part) >= 4 && strings.Contains(cand, strings.ToLower(part)) && !slices.Contains(in.packages, cand) {
						if c, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "[ ! -e " + shellQuote(file) + " ]", Timeout: 10 * time.Second, User: ss.user}); err == nil && c.ExitCode == 0 {
							return cand, file, owner, strings.ToLower(strings.Trim(f[0], "|:")), in.rec.Line
						}
					}
				}
			}
		}
	}
	return "", "", "", "", 0
}

// systemFileElsewhere: a path into the system's data or libraries that the output names
// and that does not exist, and the one place the system has it instead: the same folder
// and file under another root that shares a folder with it (/usr/lib/nodejs/express/
// package.json → /usr/share/nodejs/express/package.json); "" when none or several.
func (ss *session) systemFileElsewhere(ctx context.Context, output string) (file, here string) {
	for _, p := range reSystemData.FindAllString(output, 3) {
		parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
		if len(parts) < 4 {
			continue
		}
		tail := path.Join(parts[len(parts)-2:]...)
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "[ -e " + shellQuote(p) + " ] || find /usr /opt -path " + shellQuote("*/"+tail) + " -not -path '*/doc/*' 2>/dev/null | head -n 50; true", Timeout: 30 * time.Second, User: ss.user})
		if err != nil || r.ExitCode != 0 {
			continue
		}
		var found []string
		for _, c := range strings.Fields(r.Stdout) {
			for k := 2; k < len(parts)-2; k++ {
				// the same path from a folder of its own below /usr/<root> (nodejs/…),
				// under another root
				if len(parts[k]) >= 3 && strings.HasSuffix(c, "/"+path.Join(parts[k:]...)) && c != p {
					found = append(found, c)
					break
				}
			}
		}
		if len(found) == 1 {
			return p, found[0]
		}
	}
	return "", ""
}

// reMissingSystemFile: a program that could not load a file of the system's
// (a plugin, a module, a data file) under /usr/lib or /usr/share.
var reMissingSystemFile = regexp.MustCompile(`(/usr/(?:lib|share)/(?:x86_64-linux-gnu/|aarch64-linux-gnu/)?([\w.+-]+)/(?:[\w.+-]+/)*([\w.+-]+))\W{0,3}(?::\s*)?(?:cannot open shared object file|No such file or directory|not found)`)

// rePluginName: the parts of a plugin file's name that are not its subject
// (python3_plugin.so → python3, mod_rewrite.so → rewrite).
var rePluginName = regexp.MustCompile(`^(?:lib|mod_)|(?:[_-]plugin|[_-]module)?(?:\.so(?:\.\d+)*|\.\w+)$`)

// pluginPackage is the Debian package that holds a plugin or data file of the system
// that the output says a program could not load, found by the program's folder and the
// file's subject (/usr/lib/uwsgi/plugins/python3_plugin.so → uwsgi-plugin-python3), and
// that file; "" when the package lists name no such package, or it is installed.
func (ss *session) pluginPackage(ctx context.Context, output string) (pkg, file string) {
	m := reMissingSystemFile.FindStringSubmatch(output)
	if m == nil || ss.task.Sandbox == nil {
		return "", ""
	}
	prog, subject := strings.ToLower(m[2]), strings.ToLower(rePluginName.ReplaceAllString(m[3], ""))
	if !reDebianName.MatchString(prog) || !reDebianName.MatchString(subject) || len(prog) < 3 || len(subject) < 2 {
		return "", ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: fmt.Sprintf("apt-cache search --names-only '^%s.*[.+-]%s$' 2>/dev/null | cut -d' ' -f1", regexp.QuoteMeta(prog), regexp.QuoteMeta(subject)), Timeout: 20 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", ""
	}
	cands := strings.Fields(r.Stdout)
	if len(cands) == 0 {
		return "", ""
	}
	slices.SortFunc(cands, func(a, b string) int { return len(a) - len(b) })
	if c, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "dpkg -s " + shellQuote(cands[0]) + " >/dev/null 2>&1", Timeout: 10 * time.Second, User: ss.user}); err == nil && c.ExitCode == 0 {
		return "", "" // installed: the file is missing for another reason
	}
	return cands[0], m[1]
}

// failedOn: the command names what a failed step was working on when
// it failed: the last quoted name that step printed before its error (ldapadd's `adding
// new entry "uid=ada,ou=people,dc=example,dc=org"`, then "Object class violation"), so
// that `ldapwhoami -D uid=ada,ou=people,…` fails because the entry was never made; or
// its error says that the module that step was compiling is not there (compiledModule).
// The root of that step, when there is one.
func (ss *session) failedOn(rec loop.CommandRecord) (int, bool) {
	for r := len(ss.roots) - 1; r >= 0; r-- {
		rt := ss.roots[r]
		if rt.finding < 0 || rt.line == rec.Line {
			continue
		}
		var out string
		for _, c := range ss.res.Commands {
			if c.Line == rt.line {
				out = c.Output
			}
		}
		if ss.compiledModule(rt.line, rec.Command, rec.Output) {
			return r, true
		}
		qs := reQuotedName.FindAllStringSubmatch(out, -1)
		if len(qs) == 0 || !reObjectName.MatchString(qs[len(qs)-1][1]) {
			continue
		}
		if last := qs[len(qs)-1][1]; strings.Contains(rec.Command, last) {
			return r, true
		}
	}
	return 0, false
}

// reContentError: an error about what a file holds, not about the command.
var reContentError = regexp.MustCompile(`(?i)integrity|invalid|malformed|corrupt|parse error|syntax error|does not match|does not validate|not well-formed`)

// refusesBadContent: the command names a file whose content an earlier error pointed
// into, and its own error is about content too: the root of that earlier error.
func (ss *session) refusesBadContent(rec loop.CommandRecord, output string) (int, bool) {
	if !reContentError.MatchString(keyLine(output)) {
		return 0, false
	}
	for _, p := range slices.Sorted(maps.Keys(ss.badContent)) {
		if rel := ss.rel(p); refersTo(rec.Command, rel) || refersTo(rec.Command, p) {
			return ss.badContent[p], true
		}
	}
	return 0, false
}

// reCannotFind: an error saying that something asked for is not there.
var reCannotFind = regexp.MustCompile(`(?i)cannot find|can't find|could not find|not found|no such|unknown (?:module|library)|cannot load`)

// compiledModule: the command at tutorial line ln (which failed) compiled a source file
// of the tutorial's (`coqc … theories/Evens.v`), and the error in output says that the
// module of that name is not there ("Cannot find library Tut.Evens in loadpath"): it
// would have been, had that step worked.
func (ss *session) compiledModule(ln int, cmd, output string) bool {
	key := keyLine(output)
	if !reCannotFind.MatchString(key) || ss.recovered[ln] {
		// (a step that worked once the reader fixed it built its module)
		return false
	}
	for _, c := range ss.res.Commands {
		if c.Line != ln || c.ExitCode == 0 {
			continue
		}
		for _, f := range strings.Fields(c.Command)[1:] {
			f = strings.Trim(f, `"'`)
			stem := strings.TrimSuffix(path.Base(f), path.Ext(f))
			if path.Ext(f) == "" || len(stem) < 4 || strings.HasPrefix(f, "-") {
				continue
			}
			if _, ok := ss.written[ss.abs(f)]; ok && !namesStem(cmd, stem) && regexp.MustCompile(`\b`+regexp.QuoteMeta(stem)+`\b`).MatchString(output) {
				// (not a file of the command's own named after it: `-F export/ridge-loop.kml`)
				return true
			}
		}
	}
	return false
}

// reQuotedName: a name in double quotes long and specific enough to stand for one object
// (a directory entry's DN, a table, a path), not a word.
var reQuotedName = regexp.MustCompile(`"([^"\s]{12,})"`)

// reObjectName: what makes a quoted name one object's: a DN's =, a path's / or an
// address's @, which a program's own symbols ("WITHOUT-INTERRUPTS-BODY-3") lack.
var reObjectName = regexp.MustCompile(`[=/@]`)

// flagLeftOut is the one option that an earlier run of the same program that worked
// passed on top of every option this failed run passes, at least two (`ldapsearch -x
// -LLL -H … -b …` worked, `ldapsearch -LLL -H … -b …` fails), with the lines of such
// runs; "" when no run fits or those that fit disagree.
func (ss *session) flagLeftOut(rec loop.CommandRecord) (string, []int) {
	prog := programOf(rec.Command)
	if prog == "" || strings.Contains(rec.Command, "\n") {
		return "", nil
	}
	mine := optionsOf(rec.Command)
	if len(mine) < 2 {
		return "", nil // too little in common to call two runs the same command
	}
	flag := ""
	var lines []int
	for _, c := range ss.res.Commands {
		if c.Line >= rec.Line || c.ExitCode != 0 || programOf(c.Command) != prog {
			continue
		}
		theirs := optionsOf(c.Command)
		var extra []string
		for o := range theirs {
			if !mine[o] {
				extra = append(extra, o)
			}
		}
		covers := true
		for o := range mine {
			covers = covers && theirs[o]
		}
		if !covers || len(extra) != 1 || !reShortFlag.MatchString(extra[0]) {
			continue
		}
		if flag != "" && flag != extra[0] {
			return "", nil
		}
		flag = extra[0]
		lines = append(lines, c.Line)
	}
	return flag, lines
}

// programOf is the program a command line runs, through sudo.
func programOf(cmd string) string {
	return firstWord(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cmd), "sudo ")))
}

// programAfterCd is the program a command runs, after a `cd DIR &&` that leads it
// (`cd ~/gearlab && /usr/sbin/gearmand …`).
func programAfterCd(cmd string) string {
	if cd, rest, ok := strings.Cut(cmd, "&&"); ok && firstWord(strings.TrimSpace(cd)) == "cd" {
		return programOf(rest)
	}
	return programOf(cmd)
}

// optionsOf are the options a command passes, without their values.
func optionsOf(cmd string) map[string]bool {
	opts := map[string]bool{}
	for _, a := range strings.Fields(cmd)[1:] {
		if strings.HasPrefix(a, "-") && a != "-" && a != "--" {
			o, _, _ := strings.Cut(a, "=")
			opts[o] = true
		}
	}
	return opts
}

// reShortFlag: a single-letter option without a value (-x, -v).
var reShortFlag = regexp.MustCompile(`^-[A-Za-z]$`)

// notDelivered: a search that found nothing (grep's exit status 1) for a file the
// tutorial wrote inside a directory that a failed step was to install or copy
// (`pelican-themes --install ~/mytheme`, then `grep -c site.css output/index.html`):
// the file never got where the search looks. The root of that step, when there is one.
func (ss *session) notDelivered(rec loop.CommandRecord) (int, bool) {
	if rec.ExitCode != 1 || !slices.Contains(strings.Fields(rec.Command), "grep") {
		return 0, false
	}
	for r, rt := range ss.roots {
		if rt.finding < 0 {
			continue
		}
		for _, a := range strings.Fields(firstLine(ss.res.Findings[rt.finding].Command)) {
			if !strings.ContainsAny(a, "/~") || strings.Contains(a, "://") {
				continue
			}
			dir := ss.abs(a)
			for w := range ss.written {
				if base := path.Base(w); strings.HasPrefix(w, dir+"/") && strings.Contains(base, ".") && refersTo(rec.Command, base) {
					return r, true
				}
			}
		}
	}
	return 0, false
}

// ancestors are p and the folders it is in, innermost first, up to (not including) the
// root, the home's `~` or `.`.
func ancestors(p string) []string {
	var out []string
	for q := p; q != "/" && q != "~" && q != "." && q != ""; q = path.Dir(q) {
		out = append(out, q)
	}
	return out
}

// sameNamedDir is a folder an earlier command made (mkdir, a clone, a scaffold) by an
// absolute or home path whose name is dir's, somewhere else, and the line that made it
// ("", 0 when none, or several).
func (ss *session) sameNamedDir(dir string, before int) (string, int) {
	want := path.Base(strings.TrimSuffix(dir, "/"))
	var found string
	at := 0
	for _, c := range ss.res.Commands {
		if c.Line >= before || c.ExitCode != 0 {
			continue
		}
		for _, p := range predict(c.Command).paths {
			for _, q := range ancestors(p) {
				if (strings.HasPrefix(q, "~/") || strings.HasPrefix(q, "/")) && path.Base(q) == want && ss.abs(q) != ss.abs(dir) {
					if found != "" && ss.abs(found) != ss.abs(q) {
						return "", 0
					}
					found, at = q, c.Line
				}
			}
		}
	}
	return found, at
}

// similarDir suggests an existing directory whose name is close to want.
func similarDir(have []string, want string) string {
	want = strings.TrimSuffix(path.Base(want), "/")
	for _, h := range have {
		if h != want && (strings.HasPrefix(h, want) || strings.HasPrefix(want, h) && len(h) >= 3) {
			return fmt.Sprintf(" (the directory created earlier is `%s`)", h)
		}
	}
	return ""
}

var rePort = regexp.MustCompile(`(?:^|[\s:=])(\d{4,5})\b`)

// reEdits: a command that changes a file in place.
var reEdits = regexp.MustCompile(`^(?:sudo\s+)?(?:sed\s+(?:-\w*\s+)*-i|perl\s+-\w*i|patch\b)|[^>]>>?\s*[\w./~-]+\s*$`)

// reDefinedWord: a word of a command that a file could define (a unit, a host, a key).
var reDefinedWord = regexp.MustCompile(`[A-Za-z_][\w-]{2,}`)

// definedInFile: the failed command uses a word that a line of a data file the tutorial
// wrote starts by defining (`bike 18 kmh` in ~/.units, `db: host=…`), a file the command
// does not name: the word, the file, the tutorial line of the definition and that line.
func (ss *session) definedInFile(rec loop.CommandRecord) (string, string, int, string) {
	cmd := firstLine(rec.Command)
	words := map[string]bool{}
	for _, w := range reDefinedWord.FindAllString(strings.Join(strings.Fields(cmd)[1:], " "), -1) {
		words[w] = true
	}
	for _, st := range ss.steps {
		if st.kind != fileStep || st.line >= rec.Line || reSourceExt.MatchString(st.file) || strings.Contains(cmd, path.Base(st.file)) {
			continue
		}
		for i, l := range strings.Split(st.content, "\n") {
			f := strings.Fields(l)
			if len(f) < 2 || !words[strings.TrimRight(f[0], ":=")] || strings.HasPrefix(l, "#") {
				continue
			}
			return strings.TrimRight(f[0], ":="), joinDir(st.dir, st.file), ss.blockLine(st, i), strings.Join(f, " ")
		}
	}
	return "", "", 0, ""
}

// blockLine is the tutorial line of line k of what a file step writes, as tutorialLine
// finds it for a written file: the block's own line, when it shows that line as written
// (else the step's line).
func (ss *session) blockLine(st step, k int) int {
	lines := strings.Split(st.content, "\n")
	if k < len(lines) && k < len(st.block.ContentLines) {
		if ln := st.block.ContentLines[k]; strings.TrimSpace(ss.task.Tutorial.Map.Line(ln)) == strings.TrimSpace(lines[k]) {
			return ln
		}
	}
	return st.line
}

// reSourceExt: a program's source file, whose lines are code, not definitions.
var reSourceExt = regexp.MustCompile(`\.(?:c|h|cc|cpp|go|rs|py|rb|pl|pm|js|ts|java|kt|scala|lua|tcl|sh|bash|zsh|php|hs|ml|ex|exs|erl|clj|scm|rkt|lisp|el|f90|adb|ads|pas|d|nim|v|vhd|sv|cs|swift|m|r|jl|sql)$`)

// reUnsetVar: a shell or program saying a variable is not set.
var reUnsetVar = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*): (?:unbound variable|parameter not set)|KeyError: '([A-Za-z_][A-Za-z0-9_]*)'`)

// varOfUnreadFile: the failure is a variable not set that a file the tutorial wrote sets
// (`TIDE_STATION=brest` in .env.local), and an earlier gap names that file: its root.
func (ss *session) varOfUnreadFile(output string) (int, bool) {
	m := reUnsetVar.FindStringSubmatch(output)
	if m == nil {
		return 0, false
	}
	name := m[1] + m[2]
	for _, st := range ss.steps {
		if st.kind != fileStep || !slices.ContainsFunc(strings.Split(st.content, "\n"), func(l string) bool {
			return strings.HasPrefix(strings.TrimPrefix(strings.TrimSpace(l), "export "), name+"=")
		}) {
			continue
		}
		file := "`" + joinDir(st.dir, st.file) + "`"
		if r, ok := ss.latestGap(func(f loop.Finding) bool { return strings.Contains(f.Problem, file) }); ok {
			return r, true
		}
	}
	return 0, false
}

// latestGap is the newest root with a gap of its own that ok accepts.
func (ss *session) latestGap(ok func(loop.Finding) bool) (int, bool) {
	for r := len(ss.roots) - 1; r >= 0; r-- {
		if fi := ss.roots[r].finding; fi >= 0 && ok(ss.res.Findings[fi]) {
			return r, true
		}
	}
	return 0, false
}

// editNeverMade: a commit finds nothing to record, and an earlier edit the tutorial
// made failed with a gap of its own: the root of that gap.
func (ss *session) editNeverMade(output string) (int, bool) {
	if !reNothingToCommit.MatchString(output) {
		return 0, false
	}
	return ss.latestGap(func(f loop.Finding) bool { return reEdits.MatchString(strings.TrimSpace(f.Command)) })
}

// madeByFailedScript: the missing path is one a script the tutorial wrote (and whose run
// failed) mentions, so the failure is a consequence of that run.
func (ss *session) madeByFailedScript(output string) (int, bool) {
	m := reMissingPath.FindStringSubmatch(output)
	if m == nil {
		return 0, false
	}
	p := firstNonEmpty(m[1], m[2], m[3])
	first := strings.SplitN(strings.TrimPrefix(p, "./"), "/", 2)[0]
	if len(first) < 3 {
		return 0, false
	}
	for i, r := range ss.roots {
		if r.finding < 0 {
			continue
		}
		w := firstWord(ss.res.Findings[r.finding].Command)
		if !strings.HasPrefix(w, "./") && w != "bash" && w != "sh" {
			continue
		}
		for written, content := range ss.written {
			if (path.Base(written) == path.Base(strings.TrimPrefix(w, "./")) || strings.Contains(ss.res.Findings[r.finding].Command, path.Base(written))) && strings.Contains(content, first) && first != path.Base(written) {
				// (not the script itself, whose comment names it: "# greet.sh - lab 5")
				return i, true
			}
		}
	}
	return 0, false
}

// failedIdentity: Git has no identity and an earlier step that sets one (git config
// user.name or user.email) failed; it returns that step's root.
func (ss *session) failedIdentity(output string) (int, bool) {
	if !reGitIdentity.MatchString(output) {
		return 0, false
	}
	return ss.latestGap(func(f loop.Finding) bool {
		return firstWord(f.Command) == "git" && strings.Contains(f.Command, " config") && strings.Contains(f.Command, "user.")
	})
}

var (
	// reForesees: a sentence that foresees a failure ("If you get `No such file or
	// directory`, install it with …", "If the command is not found, …").
	reForesees      = regexp.MustCompile(`(?i)^(?:if|when|should)\b.*\b(?:get|see|says?|prints?|fails?|errors?|not found|no such file|missing|not installed|isn't installed)\b`)
	reNotFoundWords = regexp.MustCompile(`(?i)not found|no such file|not installed|isn't installed|missing`)
	// reFailureWords: a sentence that speaks of a failure
	reFailureWords  = regexp.MustCompile(`(?i)\b(?:errors?|fail(?:s|ed|ure)?|not found|no such|missing|not installed|denied|refused|complains?|warns?|warning|stops?|aborts?)\b`)
	reProseSentence = regexp.MustCompile(`[.!?]\s+`)
	reCodeSpan      = regexp.MustCompile("`([^`]+)`") // spaces allowed: a command or an error text
)

// anticipated: the prose right after the step's block foresees this failure and says
// what to do, so the tutorial handles it. It returns that sentence and the remedy
// command it names in backticks ("" when none); "" when the prose foresees nothing.
func (ss *session) anticipated(st step, output string) (string, string) {
	t := ss.task.Tutorial
	if t == nil || t.Map == nil || st.block.EndLine <= 0 {
		return "", ""
	}
	low := strings.ToLower(output)
	for _, sent := range reProseSentence.Split(proseAfter(t, st.block.EndLine), -1) {
		if !reForesees.MatchString(sent) {
			continue
		}
		seen := reNotFoundWords.MatchString(sent) && reNotThere.MatchString(output)
		fix := ""
		for _, q := range reCodeSpan.FindAllStringSubmatch(sent, -1) {
			span := q[1]
			switch {
			case len(span) >= 6 && !strings.HasPrefix(span, "-") && strings.Contains(low, strings.ToLower(span)) && (reErrorLine.MatchString(span) || reFailureWords.MatchString(sent)):
				// (not an option the prose and the error's advice both name: "If a command
				// fails, hyperfine stops; `--show-output` shows what it printed"; nor the
				// file a step makes: "When you don't pass `+O`, … so you get `hello.png`.")
				seen = true
			case fix == "" && knownCommands[firstWord(span)] && strings.Contains(span, " "):
				fix = span
			}
		}
		if seen {
			return sent, fix
		}
	}
	for _, sent := range reProseSentence.Split(proseAfter(t, st.block.EndLine), -1) {
		// "Nothing is that old yet, so it only says so (`NOTE: No increments older than …
		// found, exiting.`) and warns that it had nothing to do."
		if !reSaysVerb.MatchString(sent) {
			continue
		}
		for _, q := range reCodeSpan.FindAllStringSubmatch(sent, -1) {
			if elidedIn(q[1], low) {
				return sent, ""
			}
		}
	}
	return "", ""
}

// reEllipsis: where a quoted message leaves out what varies.
var reEllipsis = regexp.MustCompile(`…|\.\.\.`)

// reSaysVerb: prose telling what a program says.
var reSaysVerb = regexp.MustCompile(`(?i)\b(?:says?|prints?|warns?|reports?|answers?|complains?|tells? you)\b`)

// elidedIn: a message quoted with an ellipsis for what varies ("No increments older than
// … found") is in output: its parts, in order (case aside), at least 12 letters of them.
func elidedIn(span, output string) bool {
	parts := reEllipsis.Split(strings.ToLower(span), -1)
	if len(parts) < 2 {
		return false
	}
	total, at := 0, 0
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || p == "." {
			continue
		}
		i := strings.Index(output[at:], p)
		if i < 0 {
			return false
		}
		at += i + len(p)
		total += len(p)
	}
	return total >= 12
}

// reNoLinkLib: the linker missing a library the link names ("cannot find -lpolyml").
var reNoLinkLib = regexp.MustCompile(`cannot find -l([a-z0-9][\w+.-]*)`)

var reDebianName = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`)

// debianPackage is the Debian package named like a command the tools table does not
// know (stow, shellcheck, logrotate), when the container's package lists have one.
func (ss *session) debianPackage(ctx context.Context, name string) string {
	if !reDebianName.MatchString(name) {
		return ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "apt-cache show --no-all-versions -- " + name + " >/dev/null 2>&1", Timeout: 20 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return ""
	}
	return name
}

var reAbsPath = regexp.MustCompile(`(/[\w.+@-]+(?:/[\w.+@-]+)+)`)

// reNoParent: an error about a path whose folder is missing ("No such file or directory",
// supervisord's "The directory named as part of the path … does not exist").
var reNoParent = regexp.MustCompile(`(?i)no such file or directory|\bdirectory\b.*\bdoes(?: not|n't) exist`)

// missingParent is the directory (written with ~ for the home) that a path in a "No such
// file or directory" line lives in, when that directory, under the home, the work
// directory or /tmp, does not exist: a program that writes there needs it created first.
func (ss *session) missingParent(ctx context.Context, output string) string {
	for _, l := range strings.Split(output, "\n") {
		if !reNoParent.MatchString(l) {
			continue
		}
		for _, m := range reAbsPath.FindAllStringIndex(l, 3) {
			p := l[m[0]:m[1]]
			dir, home := path.Dir(p), firstNonEmpty(ss.home, "/root")
			if m[1] < len(l) && l[m[1]] == '/' || reDirItself.MatchString(l[:m[0]]) {
				// a folder, with its slash ("cp: target '/home/me/scratch/': No such file or
				// directory"), or named as one (git-annex's "Directory does not exist: /home/me/disk")
				dir = p
			}
			if !strings.HasPrefix(dir, home+"/") && !strings.HasPrefix(dir, loop.WorkMount+"/") && !strings.HasPrefix(dir, "/tmp/") {
				continue // only where a program keeps its own data
			}
			if rest, ok := strings.CutPrefix(dir, home+"/"); ok && strings.HasPrefix(rest, ".") && !ss.stepsName("/"+strings.SplitN(rest, "/", 2)[0]) {
				// POV-Ray 3.7's "cannot open the user configuration file
				// ~/.povray/3.7/povray.conf": a program's own settings folder, which it
				// reads when there is one; a tutorial no step of which names it needs none
				continue
			}
			r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "[ ! -e " + shellQuote(dir) + " ]", Timeout: 10 * time.Second, User: ss.user})
			if err != nil || r.ExitCode != 0 {
				continue
			}
			if strings.HasPrefix(dir, home+"/") {
				return "~" + strings.TrimPrefix(dir, home)
			}
			return dir
		}
	}
	return ""
}

// reDeniedFile: a file a program could not write or read for want of rights (coreutils'
// cp: "cannot create regular file 'take-02.wav': Permission denied", head's "cannot open
// 'x' for reading: Permission denied", cat's "cat: x: Permission denied").
var reDeniedFile = regexp.MustCompile(`(?:cannot create regular file|cannot open|can't open) ['"‘]([^'"’]+)['"’][^\n]*Permission denied|(?m)^[\w.+-]+: ([^\s:'"]+): Permission denied`)

// deniedFile: the file a permission error names ("" when none).
func deniedFile(output string) string {
	if m := reDeniedFile.FindStringSubmatch(output); m != nil {
		return m[1] + m[2]
	}
	return ""
}

// lockedAnnexed is the file, named in a permission error, that is a link into the
// git-annex object store of the session's repository ("" when not so).
func (ss *session) lockedAnnexed(ctx context.Context, output string) string {
	file := deniedFile(output)
	if file == "" || ss.task.Sandbox == nil {
		return ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && readlink " + shellQuote(file), Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 || !strings.Contains(r.Stdout, ".git/annex/objects/") {
		return ""
	}
	return file
}

// reDirItself: the words before a path that say the path is the missing folder.
var reDirItself = regexp.MustCompile(`(?i)\b(?:directory|folder) (?:does not|doesn't) exist:\s*["'‘“]?$`)

// dirOneDown is the folder right below the session's directory (or one further) that
// holds the relative directory dir, when exactly one does.
func (ss *session) dirOneDown(ctx context.Context, dir string) string {
	if dir == "" || strings.HasPrefix(dir, "/") || strings.HasPrefix(dir, "~") || strings.Contains(dir, "..") {
		return ""
	}
	dir = strings.Trim(strings.TrimPrefix(dir, "./"), "/")
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && find . -mindepth 2 -maxdepth 3 -type d -path " + shellQuote("*/"+dir) + " -not -path '*/node_modules/*' -not -path '*/.*' 2>/dev/null | head -n 2", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return ""
	}
	if f := strings.Fields(r.Stdout); len(f) == 1 {
		return strings.TrimSuffix(strings.TrimPrefix(f[0], "./"), "/"+dir)
	}
	return ""
}

// reRequiredFile: a build tool naming a file it requires ("required file './NEWS' not
// found").
var reRequiredFile = regexp.MustCompile(`required file '(?:\./)?([\w.-]+)' not found`)

// requiredFiles are the files a build tool says it requires, in order, once each.
func requiredFiles(output string) []string {
	var out []string
	for _, m := range reRequiredFile.FindAllStringSubmatch(output, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "`" + x + "`"
	}
	return strings.Join(q, ", ")
}

// unexportedForPrograms: variables named as the environment's are (in capitals, or a
// proxy's) that one of the two steps right before the failed command set on lines of
// their own, without `export`, and that no command since expands (`http_proxy=…`,
// `https_proxy=…`, then `curl …`): set for programs to read from their environment,
// which they do not get. The names and the line of the first.
func (ss *session) unexportedForPrograms(ctx context.Context, rec loop.CommandRecord) ([]string, int) {
	var recent []loop.CommandRecord
	for _, c := range ss.res.Commands {
		if c.Line < rec.Line {
			recent = append(recent, c)
		}
	}
	var names []string
	at := 0
	for k := len(recent) - 1; k >= 0 && k >= len(recent)-2; k-- {
		c := recent[k]
		a := reAssignOnly.FindStringSubmatch(strings.TrimSpace(c.Command))
		if a == nil || c.ExitCode != 0 {
			break
		}
		names, at = append([]string{a[1]}, names...), c.Line
	}
	var out []string
	for _, n := range names {
		if n != strings.ToUpper(n) && !strings.HasSuffix(n, "_proxy") {
			continue // a shell's own variable (`text=hello`), not an environment variable's name
		}
		used := regexp.MustCompile(`\$\{?` + n + `\b`)
		if used.MatchString(rec.Command) || exports(rec.Command, n) || ss.exported(ctx, n) {
			continue
		}
		out = append(out, n)
	}
	return out, at
}

// unexportedNamed: a variable named as the environment's are, in capitals, that the
// failed command's output names and an earlier step set on a line of its own without
// `export`, and that is not exported: its name and that step's line.
func (ss *session) unexportedNamed(ctx context.Context, rec loop.CommandRecord, output string) (string, int) {
	for k := len(ss.res.Commands) - 1; k >= 0; k-- {
		c := ss.res.Commands[k]
		if c.Line >= rec.Line || c.ExitCode != 0 {
			continue
		}
		a := reAssignOnly.FindStringSubmatch(strings.TrimSpace(c.Command))
		if a == nil || a[1] != strings.ToUpper(a[1]) || len(a[1]) < 3 {
			continue
		}
		if !regexp.MustCompile(`(?:^|[^\w$])`+regexp.QuoteMeta(a[1])+`(?:$|[^\w])`).MatchString(output) || exports(rec.Command, a[1]) || ss.exported(ctx, a[1]) {
			continue
		}
		return a[1], c.Line
	}
	return "", 0
}

// unexportedFor says in f that the variables names, set at line at, never reached the
// programs' environment, and exports them.
func unexportedFor(f *loop.Finding, names []string, at int) {
	f.Problem += fmt.Sprintf("; line %d sets %s without `export`, and no command expands %s: %s for the programs' environment, which a plain shell variable does not reach", at, quoteList(names), plural(len(names), "it", "them"), plural(len(names), "it is meant", "they are meant"))
	f.Fix = fmt.Sprintf("export %s at line %d (`export %s`)", plural(len(names), "the variable", "the variables"), at, strings.Join(names, " "))
	f.Edit = &loop.Edit{InsertBefore: []string{"export " + strings.Join(names, " ")}}
	f.Category = "command failure"
}

// unexportedVarFor says in f why the shell that reads `$name` (the program's own, or the
// one that runs script) does not have it, set at line at by set without export, and
// exports it.
func unexportedVarFor(f *loop.Finding, name string, at int, set, script string) {
	if script != "" {
		f.Problem += fmt.Sprintf("; `%s` reads `$%s`, and line %d set `%s` without `export`: the shell that runs the script does not have it", script, name, at, name)
	} else {
		f.Problem += fmt.Sprintf("; `$%s` is inside single quotes, so the program expands it in a shell of its own, and line %d set `%s` without `export`: that shell does not have it", name, at, name)
	}
	f.Fix = fmt.Sprintf("export the variable at line %d (`export %s`)", at, set)
	f.Edit = &loop.Edit{InsertBefore: []string{"export " + name}}
	f.Category = "command failure"
}

// reAssignOnly: a command that only sets a shell variable (`LOG=app.log`, `T=$(tr -dc
// 'a-z' < /dev/urandom | head -c 24)`, `NAME="two words"`).
var reAssignOnly = regexp.MustCompile(`^([A-Za-z_]\w*)=(?:\S*|\$\([^()]*\)|"[^"]*"|'[^']*')$`)

// unexportedVar: the failed command passes `$NAME` in single quotes to a program that
// runs it in its own shell, or runs a script the tutorial wrote that reads `$NAME`
// without setting it, and an earlier command set NAME without exporting it (and nothing
// exported it since): the name, that command's line and the command, and the script
// ("" for the quoted form).
func (ss *session) unexportedVar(ctx context.Context, rec loop.CommandRecord) (name string, at int, set, script string) {
	quoted := strings.Join(reSingleQuoted.FindAllString(rec.Command, -1), " ")
	names := reEchoVar.FindAllStringSubmatch(quoted, -1)
	from := map[string]string{}
	for _, w := range strings.Fields(rec.Command) {
		content, ok := ss.written[ss.abs(strings.Trim(w, `"'`))]
		if !ok {
			continue
		}
		for _, m := range reEchoVar.FindAllStringSubmatch(content, -1) {
			if !regexp.MustCompile(`(?m)^\s*(?:export\s+|local\s+|readonly\s+)?`+m[1]+`=`).MatchString(content) && from[m[1]] == "" {
				names, from[m[1]] = append(names, m), path.Base(w) // agenda.sh's "$REMFILE"
			}
		}
	}
	for _, m := range names {
		name, at, set := m[1], 0, ""
		for _, c := range ss.res.Commands {
			if c.Line >= rec.Line || c.ExitCode != 0 {
				continue
			}
			if a := reAssignOnly.FindStringSubmatch(strings.TrimSpace(c.Command)); a != nil && a[1] == name {
				at, set = c.Line, strings.TrimSpace(c.Command)
			} else if exports(c.Command, name) {
				at = 0
			}
		}
		if at > 0 && !ss.exported(ctx, name) {
			return name, at, set, from[name]
		}
	}
	return "", 0, "", ""
}

// exports: cmd exports the variable name (`export LOG`, `export A=1 LOG=app.log`).
func exports(cmd, name string) bool {
	for _, part := range splitList(cmd) {
		f := strings.Fields(part)
		if len(f) < 2 || f[0] != "export" {
			continue
		}
		for _, w := range f[1:] {
			if n, _, _ := strings.Cut(w, "="); n == name {
				return true
			}
		}
	}
	return false
}

// reSingleQuoted: a single-quoted word of a command line.
var reSingleQuoted = regexp.MustCompile(`'[^']*'`)

// reBadMode: a program refusing a file for its mode, or a runner reporting the shell's
// status for a file it could not execute (hyperfine 1.15's "Command terminated with
// non-zero exit code: 126").
var reBadMode = regexp.MustCompile(`(?i)permission denied|bad permissions|not (?:set as )?executable|exit (?:code|status):? 126\b`)

// unexecutable is a script the tutorial wrote (it starts with #!), as a file or by a
// command's redirection, that is not executable
// and that the failed command needs to run: the output names it beside a permission
// error, or a file the command reads (a test the runner runs) calls it as ./name. "" when none. The path is
// relative to the current directory when it is under it.
func (ss *session) unexecutable(ctx context.Context, cmd, output string) string {
	files := slices.Sorted(maps.Keys(ss.written))
	for _, p := range ss.made {
		// `cat > check-disk.sh <<'EOF'` with a #! line: a script a command wrote
		if _, ok := ss.written[p]; !ok && !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	// the script the permission error itself names comes first (Expect's `couldn't
	// execute "./signup.sh": permission denied` while running signup.exp)
	slices.SortStableFunc(files, func(a, b string) int {
		return boolRank(namedOnLine(output, reBadMode, path.Base(b))) - boolRank(namedOnLine(output, reBadMode, path.Base(a)))
	})
	for _, p := range files {
		content, wrote := ss.written[p]
		if wrote && !strings.HasPrefix(content, "#!") {
			continue
		}
		base := path.Base(p)
		// a program that runs it says so, or names it as its hook ("Commit blocked by
		// pre-commit hook (exit code 255) with no output")
		used := (reBadMode.MatchString(output) || strings.Contains(strings.ToLower(output), base+" hook")) && strings.Contains(output, base)
		for _, q := range files {
			if q != p && strings.Contains(ss.written[q], "./"+base) && (refersTo(cmd, ss.rel(q)) || refersTo(cmd, path.Dir(ss.rel(q)))) {
				used = true // a test file the command runs calls ./name
			}
		}
		if !used {
			continue
		}
		check := "[ -f " + shellQuote(p) + " ] && [ ! -x " + shellQuote(p) + " ]"
		if !wrote {
			check += " && [ \"$(head -c 2 " + shellQuote(p) + ")\" = '#!' ]"
		}
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: check, Timeout: 10 * time.Second, User: ss.user})
		if err == nil && r.ExitCode == 0 {
			return ss.rel(p)
		}
	}
	return ""
}

// namedOnLine: some line of output that re matches names name.
func namedOnLine(output string, re *regexp.Regexp, name string) bool {
	for _, l := range strings.Split(output, "\n") {
		if re.MatchString(l) && strings.Contains(l, name) {
			return true
		}
	}
	return false
}

// boolRank is 1 for true, 0 for false.
func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// reFileInLine: a file name with an extension in a line of output.
var reFileInLine = regexp.MustCompile(`\b[\w-]+\.[A-Za-z]\w{0,5}\b`)

// wroteElsewhere: writtenElsewhere finds file in another folder.
func (ss *session) wroteElsewhere(ctx context.Context, cmd, output, file string) bool {
	f, _ := ss.writtenElsewhere(ctx, cmd, output)
	return f == file
}

// writtenElsewhere: a relative file the failed command names, or its output says is not
// there, does not exist where the session is, while the tutorial wrote a file of that
// name in one other directory (“~“ for the home): the reader was to go there first. Both
// "" when there is none.
func (ss *session) writtenElsewhere(ctx context.Context, cmd, output string) (file, dir string) {
	buildFiles := makePrograms[path.Base(firstWord(cmd))] && reNoMakefile.MatchString(output)
	if !reNotThere.MatchString(output) && !buildFiles {
		return "", ""
	}
	names := positional(tail1(strings.Fields(cmd)))
	if buildFiles {
		// `bmake all` from the home folder: "don't know how to make all", the makefile
		// being elsewhere, which no error names
		names = append(names, "Makefile", "makefile", "BSDmakefile", "GNUmakefile")
	}
	for _, l := range strings.Split(output, "\n") {
		if !reNotThere.MatchString(l) {
			continue
		}
		for _, m := range reFileInLine.FindAllStringIndex(l, 3) {
			// a file the program looks for by itself (Ant's "Buildfile: build.xml does
			// not exist!"), not a part of a path or a source location
			// ("/work/todo/lib/todo_list.rb:13:in …")
			if (m[0] == 0 || l[m[0]-1] != '/') && !strings.HasPrefix(l[m[1]:], ":") {
				names = append(names, l[m[0]:m[1]])
			}
		}
	}
	for _, a := range names {
		if a == "" || path.IsAbs(a) || strings.HasPrefix(a, "~") || !namesFile(output, path.Base(a)) && !(buildFiles && strings.Contains(strings.ToLower(a), "makefile")) {
			continue // (gcc's "totp.c:5:10: fatal error: …" does not name `-o totp`)
		}
		if _, ok := ss.written[ss.abs(a)]; ok {
			continue
		}
		var dirs []string
		made := ss.madeFiles()
		for _, p := range append(made, ss.namedPaths()...) {
			if strings.HasSuffix(p, "/"+path.Clean(a)) {
				if d := strings.TrimSuffix(p, "/"+path.Clean(a)); d != ss.cwd && !slices.Contains(dirs, d) {
					if there, _ := ss.exists(ctx, p); slices.Contains(made, p) || there {
						// (`mksquashfs … ~/archive/lisbon.sqsh` made it there)
						dirs = append(dirs, d)
					}
				}
			}
		}
		if len(dirs) != 1 {
			continue
		}
		if ok, _ := ss.exists(ctx, ss.abs(a)); ok {
			continue
		}
		return a, ss.homeRel(dirs[0])
	}
	return "", ""
}

// makePrograms: make and its BSD and GNU namesakes.
var makePrograms = map[string]bool{"make": true, "bmake": true, "pmake": true, "gmake": true, "fmake": true}

// reNoMakefile: a make that found no makefile to read (GNU make's "No targets specified
// and no makefile found", bmake's "don't know how to make all").
var reNoMakefile = regexp.MustCompile(`(?i)no targets specified and no makefile found|no makefile found|don't know how to make\b`)

// laterCd is the line of the first step after line that changes into dir (0 when none).
func (ss *session) laterCd(line int, dir string) int {
	for _, st := range ss.steps {
		if st.kind == runStep && st.line > line && cdTarget(st.command.Text) != "" && ss.abs(cdTarget(st.command.Text)) == ss.abs(dir) {
			return st.line
		}
	}
	return 0
}

// insideFix adds to f what alreadyInside finds: `cd build`, then `./build/greeter`, a
// path that starts with the folder the session is already in. False when it finds nothing.
func (ss *session) insideFix(ctx context.Context, f *loop.Finding, rec loop.CommandRecord, output string) bool {
	name, inner := ss.alreadyInside(ctx, rec.Command, output)
	if inner == "" {
		return false
	}
	dir := path.Base(ss.cwd)
	f.Problem += fmt.Sprintf("; the session is already inside `%s` (`%s`), so `%s` looks for `%s/%s`; the file is `%s` here", dir, ss.homeRel(ss.cwd), name, dir, strings.TrimPrefix(name, "./"), inner)
	f.Fix = fmt.Sprintf("at line %d, run `%s` (the path from inside `%s`), or go back up with `cd ..` first", rec.Line, inner, dir)
	if cmd := strings.TrimSpace(rec.Command); !strings.Contains(cmd, "\n") && strings.Count(cmd, name) == 1 {
		f.Edit = &loop.Edit{Replace: strings.Replace(cmd, name, inner, 1)}
	}
	f.Category = "command failure"
	return true
}

// alreadyInside: a relative path in cmd that is not there and starts with the name of
// the folder the session is in, where the rest of it is (`./build/greeter` run inside
// build/): the path as written and the one that works from here ("" when none).
func (ss *session) alreadyInside(ctx context.Context, cmd, output string) (name, inner string) {
	here := path.Base(ss.cwd)
	if !reNotThere.MatchString(output) || here == "/" || here == "." {
		return "", ""
	}
	for _, part := range splitList(cmd) {
		for _, tok := range strings.Fields(part) {
			tok = strings.Trim(strings.TrimLeft(tok, "<>"), `"'`)
			rel := strings.TrimPrefix(tok, "./")
			first, rest, ok := strings.Cut(rel, "/")
			if !ok || first != here || rest == "" || !strings.Contains(output, path.Base(rest)) {
				continue
			}
			if there, _ := ss.exists(ctx, path.Join(ss.cwd, rel)); there {
				continue
			}
			if there, _ := ss.exists(ctx, path.Join(ss.cwd, rest)); there {
				if strings.HasPrefix(tok, "./") || tok == firstWord(part) {
					return tok, "./" + rest // a program run by its path keeps a slash
				}
				return tok, rest
			}
		}
	}
	return "", ""
}

// wrongPackage judges an apt install of a package Debian does not have, when the package
// lists are there (so the mirror answered and the name is wrong, not the network): a
// finding naming the packages that provide it or are named like it, shortest name first
// (protobuf-compiler before protobuf-compiler-grpc), and the reader goes on with the
// first of them. False when the lists are missing.
func (ss *session) wrongPackage(ctx context.Context, st step, rec loop.CommandRecord, output, name string) bool {
	q := shellQuote(name)
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `[ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' 2>/dev/null | head -n 1)" ] || exit 3
{ apt-cache showpkg ` + q + ` 2>/dev/null | sed -n '/^Reverse Provides:/,$p' | tail -n +2 | cut -d' ' -f1; apt-cache search --names-only "^${n}[0-9.-]" 2>/dev/null | cut -d' ' -f1; } | grep -v -e '-dev$' -e '-doc$' -e '-dbg$' | sort -u | awk '{ print length($0), $0 }' | sort -n -s -k1,1 | cut -d' ' -f2- | head -n 3`, Env: map[string]string{"n": regexp.QuoteMeta(name)}, Timeout: 30 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return false
	}
	alts := strings.Fields(r.Stdout)
	if m := reAptReplaces.FindStringSubmatch(output); m != nil {
		// apt's own answer: "However the following packages replace it:
		// python-is-python3 2to3"
		alts = strings.Fields(m[1])
	}
	if len(alts) == 0 {
		// python3-mkdocs where Debian's package is mkdocs, mkdocs where it is python3-…
		alts = ss.nameVariants(ctx, name)
	}
	if t, ok := knownTool(name); ok && len(alts) == 0 && t.Debian != "" {
		// `apt install mlr`: the command's name, where Debian's package is miller
		if pkgs := strings.Fields(strings.TrimPrefix(t.Debian, "sudo apt-get install -y ")); !slices.Contains(pkgs, name) {
			alts = pkgs[:1]
		}
	}
	f := loop.Finding{Problem: fmt.Sprintf("`%s` (line %d) fails: Debian has no installable package `%s` (%s)", firstLine(rec.Command), rec.Line, name, keyLine(output)),
		Fix: fmt.Sprintf("name the package Debian has at line %d, or say where `%s` comes from", rec.Line, name), Category: "command failure"}
	named := false // the package that has the command the tutorial runs next, found
	if pkg, _ := ss.providerAmong(ctx, alts, rec.Line); pkg == "" && len(name) >= 3 {
		// none of them has the command the tutorial runs next (`apt install task`, then
		// `task version`: not tasksel's task-thai, but taskwarrior): the packages named
		// after it, one by one
		if more := ss.namedAfter(ctx, name); len(more) > 0 {
			if pkg, cmd := ss.providerAmong(ctx, more, rec.Line); pkg != "" {
				alts, named = []string{pkg}, true
				f.Problem += fmt.Sprintf("; Debian's `%s` provides `%s`, which the tutorial runs next", pkg, cmd)
				f.Fix = fmt.Sprintf("install `%s` instead of `%s` at line %d", pkg, name, rec.Line)
			}
		}
		if !named {
			// nor any named like it: the package that holds the command the tutorial runs
			// next (`apt install htslib`, then `bgzip`: Debian's tabix)
			if cmd, pkg := ss.laterCommandPackage(ctx, rec.Line); pkg != "" {
				alts, named = []string{pkg}, true
				f.Problem += fmt.Sprintf("; `%s`, which the tutorial runs next, is in Debian's `%s`", cmd, pkg)
				f.Fix = fmt.Sprintf("install `%s` instead of `%s` at line %d", pkg, name, rec.Line)
			}
		}
	}
	if len(alts) > 0 && !named {
		f.Problem += fmt.Sprintf("; Debian packages it as %s", quoteList(alts))
		if pkg, cmd := ss.providerOfLater(ctx, alts, rec.Line); pkg != "" {
			// `apt install protobuf`, then `protoc`: protobuf-compiler, not the shorter
			// protobuf-codegen (Rust's generator)
			alts = append([]string{pkg}, slices.DeleteFunc(alts, func(a string) bool { return a == pkg })...)
			f.Problem += fmt.Sprintf("; of these, `%s` provides `%s`, which the tutorial runs next", pkg, cmd)
		}
		f.Fix = fmt.Sprintf("install `%s` instead of `%s` at line %d", alts[0], name, rec.Line)
	}
	root := ss.addFinding(rec, f, output)
	ss.taint(rec, root)
	if len(alts) == 0 || ss.noVerify {
		return true
	}
	// the reader installs the package named and goes on
	fixed := reAptNoPackageWord(name).ReplaceAllString(st.command.Text, "${1}"+alts[0]+"${2}")
	if fixed != st.command.Text && ss.substitute(ctx, st, fixed) {
		ss.clearTaint(rec.Command)
	}
	return true
}

// reAptReplaces: apt naming the packages that replace one it has no candidate for.
var reAptReplaces = regexp.MustCompile(`(?m)^However the following packages replace it:\s*\n\s+(\S.*)$`)

// namedAfter: up to eight Debian packages whose name is name and more letters
// (taskwarrior, tasksh and taskd for task).
func (ss *session) namedAfter(ctx context.Context, name string) []string {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `apt-cache search --names-only "^${n}[a-z]" 2>/dev/null | cut -d' ' -f1 | grep -v -e '-dev$' -e '-doc$' -e '-data$' | head -n 8`,
		Env: map[string]string{"n": regexp.QuoteMeta(name)}, Timeout: 30 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return nil
	}
	return strings.Fields(r.Stdout)
}

// providerOfLater: of several candidate packages, the one whose .deb puts on PATH a
// command the tutorial runs after line that is not installed yet, and that command ("",
// "" when none does or there is one candidate). The reader looks in the packages, as
// packages.debian.org's file search would: `apt-get download` and `dpkg-deb -c`.
func (ss *session) providerOfLater(ctx context.Context, pkgs []string, line int) (pkg, cmd string) {
	if len(pkgs) < 2 {
		return "", ""
	}
	return ss.providerAmong(ctx, pkgs, line)
}

// providerAmong is providerOfLater for any number of candidates, one included.
func (ss *session) providerAmong(ctx context.Context, pkgs []string, line int) (pkg, cmd string) {
	if len(pkgs) == 0 {
		return "", ""
	}
	var later []string
	for _, st := range ss.steps {
		if st.kind == runStep && st.line > line {
			if w := firstWord(st.command.Text); reDebianName.MatchString(w) && !slices.Contains(later, w) {
				later = append(later, w)
			}
		}
	}
	if len(later) == 0 {
		return "", ""
	}
	script := `d=$(mktemp -d) && cd "$d" || exit 1
for p in ` + shellWords(pkgs) + `; do apt-get download -q "$p" >/dev/null 2>&1 && for f in ./"$p"_*.deb; do dpkg-deb -c "$f" | awk -v p="$p" '$NF ~ /^\.\/usr\/s?bin\/[^\/]+$/ { n = $NF; sub(/.*\//, "", n); print p, n }'; done; done
for w in ` + shellWords(later) + `; do command -v "$w" >/dev/null 2>&1 || echo "missing $w"; done
cd / && rm -rf "$d"`
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: script, Timeout: 60 * time.Second, User: ss.user})
	if err != nil {
		return "", ""
	}
	provides := map[string]string{} // command → first package (in pkgs order) holding it
	missing := map[string]bool{}
	for _, l := range strings.Split(r.Stdout, "\n") {
		a, b, ok := strings.Cut(strings.TrimSpace(l), " ")
		switch {
		case !ok:
		case a == "missing":
			missing[b] = true
		case provides[b] == "":
			provides[b] = a
		}
	}
	for _, w := range later {
		if p := provides[w]; p != "" && missing[w] {
			return p, w
		}
	}
	return "", ""
}

// shellWords quotes each word for the shell and joins them with spaces.
func shellWords(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = shellQuote(w)
	}
	return strings.Join(q, " ")
}

// nameVariants are the packages Debian has under name with a language prefix added or
// taken away (python3-, python-, node-, ruby-, golang-, lib…-perl).
func (ss *session) nameVariants(ctx context.Context, name string) []string {
	var cands []string
	base := name
	for _, p := range []string{"python3-", "python-", "py3-", "node-", "ruby-", "golang-", "php-", "lua-"} {
		if b, ok := strings.CutPrefix(name, p); ok {
			base = b
			cands = append(cands, b)
		}
	}
	if base == name {
		cands = append(cands, "python3-"+name, "node-"+name, "ruby-"+name)
	}
	var out []string
	for _, c := range cands {
		if c != name && ss.debianPackage(ctx, c) != "" {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = ss.spelledLike(ctx, name)
	}
	return out
}

// spelledLike are the packages whose names are one letter away from name (colordiff for
// colourdiff: a misspelling, or the other spelling of a word), from the package lists.
func (ss *session) spelledLike(ctx context.Context, name string) []string {
	if len(name) < 5 || ss.task.Sandbox == nil {
		return nil
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `apt-cache pkgnames "$p" 2>/dev/null | awk -v n="$n" 'length($0) >= n - 1 && length($0) <= n + 1'`,
		Env: map[string]string{"p": name[:1], "n": fmt.Sprint(len(name))}, Timeout: 30 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return nil
	}
	var out []string
	for _, c := range strings.Fields(r.Stdout) {
		if c != name && levenshtein.ComputeDistance(c, name) == 1 {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	if len(out) > 3 {
		return nil // too many names like it to pick one
	}
	return out
}

// reAptNoVersion: apt has the package but not at the version the command pins.
var reAptNoVersion = regexp.MustCompile(`E: Version '([^']+)' for '([^']+)' was not found`)

// pinnedVersion judges an apt install that pins a version Debian does not have: a finding
// naming the version apt offers, and the reader goes on with the package unpinned.
func (ss *session) pinnedVersion(ctx context.Context, st step, rec loop.CommandRecord, output string) bool {
	m := reAptNoVersion.FindStringSubmatch(output)
	if m == nil {
		return false
	}
	version, pkg := m[1], m[2]
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `apt-cache policy -- "$p" 2>/dev/null | awk '/Candidate:/ { print $2; exit }'`, Env: map[string]string{"p": pkg}, Timeout: 20 * time.Second, User: ss.user})
	have := ""
	if err == nil && r.ExitCode == 0 {
		have = strings.TrimSpace(r.Stdout)
	}
	f := loop.Finding{
		Problem:  fmt.Sprintf("`%s` (line %d) fails: Debian has no version `%s` of `%s`", firstLine(rec.Command), rec.Line, version, pkg),
		Fix:      fmt.Sprintf("install `%s` without the version at line %d, or say where version %s comes from", pkg, rec.Line, version),
		Category: "command failure",
	}
	if have != "" && have != "(none)" {
		f.Problem += fmt.Sprintf(": the version it has is `%s`", have)
	}
	unpinned := strings.Replace(st.command.Text, pkg+"="+version, pkg, 1)
	if unpinned != st.command.Text {
		f.Edit = &loop.Edit{Replace: unpinned}
	}
	root := ss.addFinding(rec, f, output)
	ss.taint(rec, root)
	if unpinned != st.command.Text && !ss.noVerify && ss.substitute(ctx, st, unpinned) {
		// the reader installs the version Debian has and goes on
		ss.clearTaint(rec.Command)
	}
	return true
}

// reAptNoPackageWord matches name as a whole word of a command line.
func reAptNoPackageWord(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(name) + `(\s|$)`)
}

// loadPaths: how interpreters say a module is not on their load path, the file a module
// name is, and the variable that adds a directory to the path.
var loadPaths = []struct {
	re   *regexp.Regexp
	file func(string) string
	env  func(dir string) string
}{
	{regexp.MustCompile(`no code for module \(([^)]+)\)`), func(m string) string { return strings.Join(strings.Fields(m), "/") + ".scm" },
		func(d string) string {
			return `export GUILE_LOAD_PATH="` + d + `${GUILE_LOAD_PATH:+:$GUILE_LOAD_PATH}"`
		}},
	{regexp.MustCompile(`No module named '([\w.]+)'`), func(m string) string { return strings.ReplaceAll(m, ".", "/") + ".py" },
		func(d string) string { return `export PYTHONPATH="` + d + `${PYTHONPATH:+:$PYTHONPATH}"` }},
	{regexp.MustCompile(`module '([\w.]+)' not found`), func(m string) string { return strings.ReplaceAll(m, ".", "/") + ".lua" },
		func(d string) string { return `export LUA_PATH="` + d + `/?.lua;;"` }},
	{regexp.MustCompile(`Can't locate ([\w/]+\.pm) in @INC`), func(m string) string { return m },
		func(d string) string { return `export PERL5LIB="` + d + `${PERL5LIB:+:$PERL5LIB}"` }},
}

// offLoadPath: the module an interpreter could not find is a file the tutorial wrote, in
// a directory the interpreter does not search. It returns the file, that directory (~
// for the home) and the export that adds it; "" when not so.
func (ss *session) offLoadPath(output string) (file, dir, env string) {
	for _, lp := range loadPaths {
		m := lp.re.FindStringSubmatch(output)
		if m == nil {
			continue
		}
		rel := lp.file(m[1])
		pkg := "/" + strings.TrimSuffix(rel, path.Ext(rel)) + "/" // a package: a directory of modules
		for _, p := range slices.Sorted(maps.Keys(ss.written)) {
			d, ok := strings.CutSuffix(p, "/"+rel)
			if i := strings.Index(p, pkg); !ok && i > 0 {
				d, ok, rel = p[:i], true, strings.TrimPrefix(p[i:], "/")
			}
			if ok && d != ss.cwd {
				dir = ss.homeRel(d)
				return rel, dir, lp.env(strings.Replace(dir, "~", "$HOME", 1))
			}
		}
	}
	return "", "", ""
}

// reQuotedTildeSet: a variable set to a quoted value holding a `~` the shell leaves as it
// is (at the start, or after a colon of a search path).
var reQuotedTildeSet = regexp.MustCompile(`(?:^|[\s;&])(?:export\s+)?([A-Z_][A-Z0-9_]*)=(["'])((?:[^"'\n]*:)?~[^"'\n]*)["']`)

// reNoEntry: a program that found nothing by the name it was given ("No manual entry for
// greet").
var reNoEntry = regexp.MustCompile(`(?i)\bno (?:\w+ )?(?:entry|entries|match(?:es)?)\b`)

// quotedTilde: a search path that an earlier command set with a quoted `~` and that the
// failed command reads (PATH for a command not found, MANPATH for man, or a variable the
// command names): its name, value and line.
func (ss *session) quotedTilde(rec loop.CommandRecord) (name, value string, line int) {
	for i := len(ss.res.Commands) - 1; i >= 0; i-- {
		c := ss.res.Commands[i]
		if c.Line >= rec.Line {
			continue
		}
		for _, m := range reQuotedTildeSet.FindAllStringSubmatch(c.Command, -1) {
			prog := strings.ToLower(path.Base(firstWord(rec.Command)))
			readsIt := m[1] == "PATH" && rec.ExitCode == 127 || // a program in ~/bin, not found
				strings.HasSuffix(m[1], "PATH") && len(prog) >= 2 && strings.HasPrefix(strings.ToLower(m[1]), prog) // man and MANPATH
			if readsIt || strings.Contains(rec.Command, "$"+m[1]) || strings.Contains(rec.Command, "${"+m[1]) {
				return m[1], m[3], c.Line
			}
		}
	}
	return "", "", 0
}

// reQuotedIdent: a name an error line quotes (`Identifier not found "Result"`).
var reQuotedIdent = regexp.MustCompile("[\"'‘`]([A-Za-z_][\\w:-]{2,})[\"'’`]")

// proseClaim: the error line quotes a name that a sentence of the tutorial's prose before
// line explains in code: the name, the sentence's line and the sentence (0 when none).
func (ss *session) proseClaim(key string, line int) (ident string, at int, claim string) {
	t := ss.task.Tutorial
	if t == nil {
		return "", 0, ""
	}
	for _, m := range reQuotedIdent.FindAllStringSubmatch(key, 3) {
		ident = m[1]
		if looksLikePath(ident) {
			continue
		}
		for n := line - 1; n >= 1; n-- {
			b, ok := t.Map.BlockAt(n)
			if !ok || b.Kind != tutorial.KindParagraph && b.Kind != tutorial.KindListItem || !strings.Contains(t.Map.Line(n), "`"+ident+"`") {
				continue
			}
			var para []string
			for k := b.StartLine; k <= b.EndLine; k++ {
				para = append(para, strings.TrimSpace(t.Map.Line(k)))
			}
			for _, sent := range sentences(strings.Join(para, " ")) {
				if strings.Contains(sent, "`"+ident+"`") {
					return ident, n, loop.Clip(strings.TrimSpace(sent), 200)
				}
			}
		}
	}
	return "", 0, ""
}

// reRejectedShort: a program naming the one-letter option it does not know
// ("unrecognized command-line option or missing argument: -p", "invalid option -- 'p'").
var (
	reRejectedShort = regexp.MustCompile(`(?i)(?:unrecognized|unknown|invalid|illegal|bad)\b[^\n]*?\b(?:option|flag|switch)\b[^\n]*?[:\s'"‘](-[A-Za-z])\b`)
	reGetoptShort   = regexp.MustCompile(`(?i)(?:invalid|illegal|unrecognized) option -- '?([A-Za-z])\b`)
)

// otherCaseOption: the command passes a one-letter option the program refuses, and the
// program's help defines the same letter in the other case (-p and -P): the option, the
// one to use and the help's line for it ("" when not so).
func (ss *session) otherCaseOption(ctx context.Context, cmd, output string) (opt, other, helpLine string) {
	if m := reGetoptShort.FindStringSubmatch(output); m != nil {
		opt = "-" + m[1]
	} else if m := reRejectedShort.FindStringSubmatch(output); m != nil {
		opt = m[1]
	}
	if opt == "" || strings.Contains(cmd, "\n") {
		return "", "", ""
	}
	fields := strings.Fields(cmd)
	if !slices.Contains(fields, opt) {
		return "", "", ""
	}
	letter := opt[1:]
	other = "-" + strings.ToUpper(letter)
	if strings.ToUpper(letter) == letter {
		other = "-" + strings.ToLower(letter)
	}
	help, ok := ss.programHelp(ctx, fields)
	if !ok {
		return "", "", ""
	}
	// the help may still list opt, for a sibling command sharing the text (fossil's
	// `-p|--page` is for `ui`): the program's refusal is what counts
	if helpLine = definesOption(help, other); helpLine == "" {
		return "", "", ""
	}
	return opt, other, helpLine
}

// programHelp is the help of the program a command runs, read in the session's directory:
// its subcommand's own when the second word is one (`fossil ui`), from `--help` or, when
// that lists no option, from `PROG help`; false when the sandbox could not run it.
func (ss *session) programHelp(ctx context.Context, fields []string) (string, bool) {
	prog := shellQuote(fields[0])
	if len(fields) > 1 && reSubcommand.MatchString(fields[1]) {
		prog += " " + shellQuote(fields[1])
	}
	// `help` only when --help listed no option: for a program that takes it as an
	// operand (`rm help`, `dig help` asks the DNS) --help has already answered
	script := fmt.Sprintf("cd %s && { out=$(%s --help 2>&1); if printf '%%s\\n' \"$out\" | grep -q '^[[:space:]]*-'; then printf '%%s\\n' \"$out\"; else %s help 2>&1; fi; } | head -n 400", shellQuote(ss.cwd), prog, prog)
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: script, Timeout: 10 * time.Second, User: ss.user})
	if err != nil {
		return "", false
	}
	return r.Stdout, true
}

var (
	// reGluedPort: a host name or address with a port glued to it (`@127.0.0.1:5353`).
	reGluedPort = regexp.MustCompile(`^(@?)([\w.-]*\w):(\d{2,5})$`)
	// reNoSuchHost: a program that could not resolve a host name.
	reNoSuchHost = regexp.MustCompile(`(?i)couldn't get address for|could not resolve|name or service not known|unknown host|cannot resolve|no address associated`)
	// rePortOption: a help line defining the option that takes the port.
	// (DiG's "-p port (specify port number)", fossil's "-P|--port TCPPORT", "-p, --port=PORT")
	rePortOption = regexp.MustCompile(`(?im)^\s*(-[A-Za-z])(?:[ =]<?(?:tcp)?port\b|(?:,\s*|\|)--port\b)[^\n]*$`)
)

// portAsHost: the failed command glued a port to a host (`dig @127.0.0.1:5353`), the
// program could not resolve that as a name, and its help has an option for the port:
// the word, the command with the port passed by that option, and the help's line.
func (ss *session) portAsHost(ctx context.Context, cmd, output string) (word, with, helpLine string) {
	cmd = strings.TrimSpace(cmd)
	fields := strings.Fields(cmd)
	if len(fields) < 2 || strings.Contains(cmd, "\n") || !reNoSuchHost.MatchString(output) {
		return "", "", ""
	}
	for _, w := range fields[1:] {
		m := reGluedPort.FindStringSubmatch(w)
		if m == nil || !strings.Contains(output, m[2]+":"+m[3]) {
			continue
		}
		help, ok := ss.programHelp(ctx, fields[:1])
		if !ok {
			return "", "", ""
		}
		o := rePortOption.FindStringSubmatch(help)
		if o == nil {
			return "", "", ""
		}
		return w, strings.Replace(cmd, w, m[1]+m[2]+" "+o[1]+" "+m[3], 1), strings.Join(strings.Fields(o[0]), " ")
	}
	return "", "", ""
}

// swapOption replaces the option word opt of cmd with other.
func swapOption(cmd, opt, other string) string {
	f := strings.Fields(cmd)
	for i, w := range f {
		if w == opt || strings.HasPrefix(w, opt+"=") {
			f[i] = other + strings.TrimPrefix(w, opt) // `--gtest-filter='x.*'` keeps its value
			break
		}
	}
	return strings.Join(f, " ")
}

// reTooNew: a program refusing an option, subcommand or function it does not have.
var reTooNew = regexp.MustCompile(`(?i)\bunknown (?:flag|option|command|subcommand|shorthand flag|argument|switch)\b|\bunrecognized (?:option|arguments?|command)\b|\binvalid choice\b|\bno such (?:option|subcommand)\b|Call to undefined function|could not find function|has no attribute|undefined method|is not a [\w-]+ command|unexpected argument|\bsupports only\b|\bonly supports\b|\brequires? (?:a )?newer\b|\bis too old\b|\bminimum (?:required )?version\b`)

// olderVersion: the failed command (or the server it talked to) refused something
// newer than the program the image has, which comes from a Debian package: the
// program, its package and that package's version ("" when not so).
func (ss *session) olderVersion(ctx context.Context, cmd, output string) (prog, pkg, version string) {
	if !reTooNew.MatchString(output) {
		return "", "", ""
	}
	prog = firstWord(cmd)
	if logged := serverLines(output); logged != "" && reTooNew.MatchString(logged) {
		for _, s := range ss.servers {
			if s.running() {
				prog = firstWord(s.command)
			}
		}
	}
	if !reDebianName.MatchString(prog) {
		return "", "", ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `f=$(readlink -f "$(command -v ` + prog + `)") && p=$({ dpkg -S "$f" || dpkg -S "${f#/usr}"; } 2>/dev/null | head -n 1 | cut -d: -f1) && [ -n "$p" ] && dpkg-query -W -f '${Package} ${Version}' "$p"`, Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", "", ""
	}
	f := strings.Fields(r.Stdout)
	if len(f) != 2 {
		return "", "", ""
	}
	return prog, f[0], f[1]
}

// homeRel writes p with ~ for the reader's home, or relative to the work directory.
func (ss *session) homeRel(p string) string {
	if home := firstNonEmpty(ss.home, "/root"); p == home || strings.HasPrefix(p, home+"/") {
		return "~" + strings.TrimPrefix(p, home)
	}
	if r := strings.TrimPrefix(p, loop.WorkMount+"/"); r != p {
		return r
	}
	return p
}

// rel writes p relative to the current directory when it is under it.
func (ss *session) rel(p string) string {
	if r := strings.TrimPrefix(p, ss.cwd+"/"); r != p {
		return r
	}
	return p
}

// reBarePath: an unquoted relative path with a folder and an extension in an error line.
var reBarePath = regexp.MustCompile(`(?:^|\s)((?:[\w.-]+/)+[\w-]+(?:\.[\w-]+)+)(?:[\s:,;]|$)`)

// sameParts: two names made of the same parts, between dots, underscores or hyphens, in
// another order (db.lab.test and lab.test.db, tb_counter.vhd and counter_tb.vhd), which
// people mix up.
func sameParts(a, b string) bool {
	parts := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '_' || r == '-' })
	}
	pa, pb := parts(a), parts(b)
	if len(pa) < 3 || len(pa) != len(pb) || path.Ext(a) != path.Ext(b) && strings.ContainsAny(a+b, "_-") {
		return false
	}
	slices.Sort(pa)
	slices.Sort(pb)
	return slices.Equal(pa, pb)
}

// insideFirstDir: a relative path the failed command names, said to be missing, starts
// with the folder the session is in (`data/books.csv` from inside data/) and exists
// without that first part, and an earlier command of the session went into that folder:
// the path, and that command.
func (ss *session) insideFirstDir(ctx context.Context, rec loop.CommandRecord, output string) (string, loop.CommandRecord) {
	here := path.Base(ss.cwd)
	if !reNotThere.MatchString(output) && !reFileTrouble.MatchString(output) || ss.cwd == ss.home || here == "." || here == "/" {
		return "", loop.CommandRecord{}
	}
	for _, f := range strings.Fields(firstLine(rec.Command)) {
		f = strings.TrimRight(strings.Trim(f, `"'`), ";")
		rest, ok := strings.CutPrefix(f, here+"/")
		// (the error may name another file the program looks for from the same wrong
		// folder: newLISP's `(load "lib/text.lsp")` in the script, before data/visits.log)
		if !ok || rest == "" || strings.Contains(f, "$") {
			continue
		}
		check := "cd " + shellQuote(ss.cwd) + " && [ -e " + shellQuote(rest) + " ] && [ ! -e " + shellQuote(f) + " ]"
		if strings.ContainsAny(f, "*?") {
			// `for t in tests/test_*.sh` from inside tests/: the pattern matches there
			if !reGlobWord.MatchString(f) {
				continue
			}
			check = "cd " + shellQuote(ss.cwd) + " && set -- " + rest + " && [ -e \"$1\" ] && set -- " + f + " && [ ! -e \"$1\" ]"
		}
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: check, Timeout: 10 * time.Second, User: ss.user})
		if err != nil || r.ExitCode != 0 {
			continue
		}
		for i := len(ss.res.Commands) - 1; i >= 0; i-- {
			c := ss.res.Commands[i]
			if c.ExitCode == 0 && slices.ContainsFunc(splitList(c.Command), func(part string) bool {
				return strings.TrimSuffix(cdTarget(part), "/") == here || strings.HasSuffix(strings.TrimSuffix(cdTarget(part), "/"), "/"+here)
			}) {
				return f, c
			}
		}
	}
	return "", loop.CommandRecord{}
}

// reFileTrouble: a program saying it could not get at a file, in words other than
// reNotThere's (newLISP's "ERR: problem accessing file in function load").
var reFileTrouble = regexp.MustCompile(`(?i)problem accessing file|cannot read file|can't read file|unable to (?:open|read) file`)

// reGlobWord: a file pattern of plain characters, safe to expand unquoted.
var reGlobWord = regexp.MustCompile(`^[\w./*?-]+$`)

// madeByCommand: an earlier command that worked wrote the file at p (its output
// redirected there, `-o p`).
func (ss *session) madeByCommand(p string) bool {
	for _, c := range ss.res.Commands {
		if c.ExitCode != 0 {
			continue
		}
		for _, q := range predict(c.Command).paths {
			if ss.abs(q) == p { // (relative to the folder the session is in now)
				return true
			}
		}
	}
	return false
}

// givenLater: a file the failed command misses, by the name the error gives, that a
// later step of the tutorial writes (as a file, or by a command's redirection), and no
// earlier one does: its name and that step's line.
func (ss *session) givenLater(rec loop.CommandRecord, output string) (string, int) {
	if !reNotThere.MatchString(output) {
		return "", 0
	}
	var missing []string
	for _, l := range strings.Split(output, "\n") {
		if reNotThere.MatchString(l) {
			// (not the script that says so: "tests/test_table.sh: 5: eval: cannot open
			// tests/cases.tsv: No such file")
			missing = append(missing, reSourcePrefix.ReplaceAllString(l, ""))
		}
	}
	before := map[string]bool{}
	for _, st := range ss.steps {
		var name string
		switch {
		case st.kind == fileStep:
			name = path.Base(st.file)
		case st.kind == runStep && st.command != nil:
			if m := reHeredocTarget.FindStringSubmatch(firstLine(strings.TrimSpace(st.command.Text))); m != nil {
				name = path.Base(m[1])
			}
		}
		if name == "" || len(name) < 5 || !strings.Contains(name, ".") || !slices.ContainsFunc(missing, func(l string) bool { return strings.Contains(l, name) }) {
			continue
		}
		if st.line <= rec.Line {
			before[name] = true // written before: another story
		} else if !before[name] {
			return name, st.line
		}
	}
	return "", 0
}

// reSourcePrefix: the program or script, and its line, an error message starts with
// ("tests/test_table.sh: 5: ", "bash: line 1: ").
var reSourcePrefix = regexp.MustCompile(`^[\w./-]+:(?:\s*(?:line\s+)?\d+:)?\s`)

// reIncludeLine: a line that pulls a file into the page when the site is built, which a
// reader of the Markdown never sees: DocFX's `[!code-bash[](path)]`, Jekyll and
// Eleventy's `{% include path %}`, pymdown's `--8<-- "path"`, Hugo's readfile shortcode.
var reIncludeLine = regexp.MustCompile(`^\s*(\[!code(?:-[\w+#-]+)?\[[^\]]*\]\([^)]+\)\]|\{%-?\s*include(?:_relative)?\s+[^%]+%\}|-{2}8<-{2}\s*["'][^"']+["']|\{\{<\s*readfile\b[^>]*>\}\})\s*$`)

// reSaveFileSentence: a sentence ending with a colon that tells the reader to save or
// create a named file ("Save it as *nightly-report.sh* in *~/pipes*:").
var reSaveFileSentence = regexp.MustCompile("(?i)\\b(?:save|create|write|put)\\b[^.:]*?[*_`]{1,2}([\\w.~/-]+\\.\\w+)[*_`]{1,2}[^.:]*:\\s*$")

// contentNeverGiven: the failed command misses a file that a sentence before it tells the
// reader to save, with nothing after that sentence to save, no code block, only an
// include line or more prose (the file's name, the sentence's line, the include line).
func (ss *session) contentNeverGiven(rec loop.CommandRecord, output string) (string, int, string) {
	if !reNotThere.MatchString(output) {
		return "", 0, ""
	}
	t := ss.task.Tutorial
	blocks := allBlocks(t)
	for n := 1; n < rec.Line; n++ {
		m := reSaveFileSentence.FindStringSubmatch(t.Map.Line(n))
		if m == nil || inAnyBlock(blocks, n) || !namesFile(output, path.Base(m[1])) || !strings.Contains(rec.Command, path.Base(m[1])) {
			continue
		}
		if slices.ContainsFunc(ss.steps, func(st step) bool { return st.kind == fileStep && path.Base(st.file) == path.Base(m[1]) }) {
			continue
		}
		next := n + 1
		for next < rec.Line && strings.TrimSpace(t.Map.Line(next)) == "" {
			next++
		}
		if inAnyBlock(blocks, next) {
			continue // a block the Student did not take for the file: another story
		}
		include := ""
		if reIncludeLine.MatchString(t.Map.Line(next)) {
			include = strings.TrimSpace(t.Map.Line(next))
		}
		return path.Base(m[1]), n, include
	}
	return "", 0, ""
}

// tarShortSuffixes: the short suffixes of compressed tar archives, and the long ones
// they stand for (GNU tar's --auto-compress reads both).
var tarShortSuffixes = map[string]string{".tgz": ".tar.gz", ".taz": ".tar.gz", ".tbz": ".tar.bz2", ".tbz2": ".tar.bz2", ".tb2": ".tar.bz2",
	".txz": ".tar.xz", ".tzst": ".tar.zst", ".tzs": ".tar.zst", ".tlz": ".tar.lzma", ".tZ": ".tar.Z"}

// longTarName writes an archive's short suffix long (logs.tzst is logs.tar.zst).
func longTarName(name string) string {
	if long, ok := tarShortSuffixes[path.Ext(name)]; ok {
		return strings.TrimSuffix(name, path.Ext(name)) + long
	}
	return name
}

// namesFile: output names the file w as a whole name, not as the start of a longer one
// (`counter` in "counter.c:3:10: fatal error: …" is not named; in "cannot open counter." or
// "cat: pki/certs/counter: No such file" it is).
func namesFile(output, w string) bool {
	for i := 0; ; {
		k := strings.Index(output[i:], w)
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(w)
		before := at == 0 || output[at-1] == '/' || !isNameByte(output[at-1]) // a path's last part counts
		after := end == len(output) || !isNameByte(output[end]) || output[end] == '.' && (end+1 == len(output) || output[end+1] == ' ' || output[end+1] == '\n')
		if before && after {
			return true
		}
		i = at + 1
	}
}

// isNameByte: a byte that continues a file name.
func isNameByte(b byte) bool {
	return b == '.' || b == '-' || b == '_' || b == '/' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// nearName: a relative file that the failed command needs (an argument, or a name the
// output quotes as missing and a file the tutorial wrote mentions: a script opening
// marks.csv) does not exist, while the file the tutorial made instead does: one of a
// very similar name (same extension, one or two characters apart), or the only file of
// that extension the tutorial wrote there. Both are "" when there is none.
func (ss *session) nearName(ctx context.Context, cmd, output string) (missing, near string) {
	// (or it failed without a word: newLISP given a script that is not there exits 1
	// in silence)
	if !reNotThere.MatchString(output) && !reNoSuchInclude.MatchString(output) && !reNoRule.MatchString(output) && strings.TrimSpace(output) != "" {
		return "", ""
	}
	var names []string
	for _, m := range reNoRule.FindAllStringSubmatch(output, 3) {
		// a build tool with no file and no rule for a prerequisite (rake's "Don't know how
		// to build task 'stop-words.txt'")
		names = append(names, strings.Join(m[1:], ""))
	}
	fromSource := map[string]bool{} // names read off a source line: only a close name matches
	var args []string
	for k, f := range strings.Fields(cmd) {
		if f = strings.Trim(f, `"'`); k == 0 && !looksLikePath(f) {
			continue // the program, which its errors name (`a68g: error while opening …`)
		}
		if !strings.HasPrefix(f, "-") && namesFile(output, path.Base(f)) {
			names = append(names, f)
		} else if !strings.HasPrefix(f, "-") && looksLikePath(f) {
			args = append(args, f)
		}
	}
	if len(names) == 0 && len(args) == 1 && len(reFileInLine.FindAllString(output, -1)) == 0 {
		// an error that names no file (a68g's "error while opening source file, no such
		// file or directory."): the one file the command names
		names = args
	}
	var included []string
	for _, l := range strings.Split(output, "\n") {
		if m := reNoSuchInclude.FindStringSubmatch(l); m != nil {
			names = append(names, m[1]) // "@include: could not find invocation.texi"
			included = append(included, m[1])
			continue
		}
		if !reNotThere.MatchString(l) {
			continue
		}
		for _, n := range ss.namedOnSourceLine(l) {
			names = append(names, n)
			fromSource[n] = true
		}
		for _, m := range append(reQuotedFile.FindAllStringSubmatch(l, -1), reBarePath.FindAllStringSubmatch(l, -1)...) {
			// a name the tutorial wrote into a file ("loading from master file
			// zones/lab.test.db failed: file not found", named.conf's `file` line), which
			// the program may give in full (BaseX's "Resource '/home/…/xq-lab/data/
			// authors.xml' not found." for doc("data/authors.xml"))
			name, _ := strings.CutPrefix(m[1], ss.cwd+"/")
			for _, content := range ss.written {
				if strings.Contains(content, name) {
					names = append(names, name)
					delete(fromSource, name) // the error itself names it
					break
				}
			}
		}
	}
	for _, f := range names {
		if strings.HasPrefix(f, "/") || strings.HasPrefix(f, "~") || !looksLikePath(f) || len(path.Base(f)) < 5 {
			continue
		}
		dir := path.Join(ss.cwd, path.Dir(f))
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(dir) + " 2>/dev/null && [ ! -e " + shellQuote(path.Base(f)) + " ] && ls -1A", Timeout: 10 * time.Second, User: ss.user})
		if err != nil || r.ExitCode != 0 {
			continue
		}
		base := path.Base(f)
		var sameExt, within []string
		for _, have := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
			if have == "" || have == base {
				continue
			}
			if sameParts(have, base) || longTarName(have) == longTarName(base) {
				return f, path.Join(path.Dir(f), have) // db.lab.test for lab.test.db, logs.tar.zst for logs.tzst
			}
			if path.Ext(have) != path.Ext(base) {
				continue
			}
			if levenshtein.ComputeDistance(have, base) <= 2 {
				return f, path.Join(path.Dir(f), have)
			}
			content, ok := ss.written[path.Join(dir, have)]
			if !ok && ss.madeByCommand(path.Join(dir, have)) {
				ok = true // `task export > my-tasks.json`, then `… import tasks.json`
			}
			if ok && !strings.Contains(content, base) && !slices.Contains(strings.Fields(cmd), have) {
				// (not the file that names it, nor one the command reads itself)
				sameExt = append(sameExt, have)
				if strings.Contains(have, base) || strings.Contains(base, have) || abbreviates(have, base) {
					within = append(within, have) // books-html.xsl for html.xsl
				}
			}
		}
		if len(sameExt) == 1 && !fromSource[f] {
			return f, path.Join(path.Dir(f), sameExt[0])
		}
		if len(within) == 1 {
			return f, path.Join(path.Dir(f), within[0])
		}
	}
	for _, f := range names {
		if w := ss.nearWritten(f); w != "" {
			return f, w
		}
	}
	for _, f := range names {
		// `equivs-build lab-tools` after the tutorial wrote lab-tools.ctl: the name
		// without the extension the file was saved with
		if b := path.Base(f); reBareName.MatchString(b) && len(b) >= 4 && !strings.HasPrefix(f, "/") {
			var same []string
			for p := range ss.written {
				if path.Dir(p) == path.Join(ss.cwd, path.Dir(f)) && path.Ext(p) != "" && strings.TrimSuffix(path.Base(p), path.Ext(p)) == b {
					same = append(same, p)
				}
			}
			if len(same) == 1 {
				return f, ss.rel(same[0])
			}
		}
	}
	for _, f := range names {
		if w := ss.elsewhereBelow(ctx, cmd, output, f); w != "" {
			return f, w
		}
	}
	for _, f := range included {
		// Jekyll's "Could not locate the included file 'nav.html' in any of
		// [".../_includes"]" where the tutorial wrote _includes/site-nav.html: looked for
		// in a folder of the program's own, so any the tutorial wrote to
		var near []string
		for p, content := range ss.written {
			b := path.Base(p)
			if path.Ext(b) == path.Ext(f) && b != path.Base(f) && !strings.Contains(content, path.Base(f)) && (strings.Contains(b, path.Base(f)) || strings.Contains(path.Base(f), b) || sameParts(b, path.Base(f))) {
				near = append(near, p)
			}
		}
		if len(near) == 1 {
			return f, ss.rel(near[0])
		}
	}
	return "", ""
}

// reSourceLine: an error that names the file and line it comes from ("report.fs:2: No
// such file or directory", as Gforth reports a failed `include`).
var reSourceLine = regexp.MustCompile(`^([\w./-]+):(\d+):`)

// reFileToken: a file name with an extension in a line of source.
var reFileToken = regexp.MustCompile(`[\w./-]*\w\.[A-Za-z]\w*`)

// namedOnSourceLine: the file names on the line of a file the tutorial wrote that an
// error line points at (`include >>>arithmetic.fs<<<` at report.fs:2), when the
// error does not quote the name itself.
func (ss *session) namedOnSourceLine(errLine string) []string {
	m := reSourceLine.FindStringSubmatch(strings.TrimSpace(errLine))
	if m == nil {
		return nil
	}
	content, ok := ss.written[ss.abs(m[1])]
	n, _ := strconv.Atoi(m[2])
	lines := strings.Split(content, "\n")
	if !ok || n < 1 || n > len(lines) {
		return nil
	}
	var names []string
	for _, f := range reFileToken.FindAllString(lines[n-1], -1) {
		if f != m[1] && looksLikePath(f) {
			names = append(names, f)
		}
	}
	return names
}

// abbreviates: one name's stem is the start of the other's, with the same extension
// (arith.fs for arithmetic.fs).
func abbreviates(a, b string) bool {
	sa, sb := strings.TrimSuffix(a, path.Ext(a)), strings.TrimSuffix(b, path.Ext(b))
	if len(sa) > len(sb) {
		sa, sb = sb, sa
	}
	return len(sa) >= 4 && sa != sb && strings.HasPrefix(sb, sa)
}

// nearWritten is the one file the tutorial wrote, anywhere, whose name is one or two
// letters from base's (a template calls partial "head.html" and the tutorial saved
// layouts/partials/header.html), "" when the tutorial wrote a file of that very name
// or no such file.
func (ss *session) nearWritten(f string) string {
	base, found := path.Base(f), ""
	for p := range ss.written {
		b := path.Base(p)
		if b == base {
			return ""
		}
		if path.Ext(b) == path.Ext(base) && levenshtein.ComputeDistance(b, base) <= 2 {
			if found != "" {
				return ""
			}
			found = p
		}
	}
	return ss.rel(found)
}

// reNoSuchInclude: a file a program could not find by the name another file gives it
// (Texinfo's "@include: could not find invocation.texi").
var reNoSuchInclude = regexp.MustCompile("(?i)(?:could ?n[o']t|unable to) (?:find|locate|open) (?:the )?(?:file |include file |included file )?[`'‘\"]?([\\w./-]+\\.[A-Za-z]\\w*)\\b")

// elsewhereBelow: a relative path the command names and the error repeats, in a folder
// that does not exist here, while the one file of that name below the session's
// directory is elsewhere (`pki/certs/web01.crt` where easyrsa wrote
// `pki/issued/web01.crt`); "" when not so. A file the command names itself is not it
// (`cp src/a.txt build/a.txt` writes the second).
func (ss *session) elsewhereBelow(ctx context.Context, cmd, output, f string) string {
	if !strings.Contains(f, "/") || strings.HasPrefix(f, "/") || strings.HasPrefix(f, "~") || strings.Contains(f, "..") || !looksLikePath(f) || !strings.Contains(output, f) {
		return ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && [ ! -e " + shellQuote(path.Dir(f)) + " ] && find . -maxdepth 4 -name " + shellQuote(path.Base(f)) + " -not -path '*/.*' -not -path '*/node_modules/*' 2>/dev/null | head -n 2", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return ""
	}
	found := strings.Fields(r.Stdout)
	if len(found) != 1 {
		return ""
	}
	p := strings.TrimPrefix(found[0], "./")
	if strings.HasSuffix(p, "/"+f) || slices.ContainsFunc(strings.Fields(cmd), func(w string) bool { return strings.TrimPrefix(strings.Trim(w, `"'`), "./") == p }) {
		return "" // (the same path one folder down is movedHint's: written one level deeper)
	}
	return p
}

// reNoRule: a build tool that has neither the file a target needs nor a rule to make it
// (rake, make, ninja), or a test runner that finds no test file by that name (prove).
var reNoRule = regexp.MustCompile("(?i)don't know how to build task '([^']+)'|no rule to make target [`'‘]([^'’]+)['’]|'([^']+)', needed by '[^']+', missing and no known rule to make it|cannot detect source of '([^']+)'")

// reQuotedFile: a file name quoted in an error line (`marks.csv', "data.json").
var reQuotedFile = regexp.MustCompile("[`'‘\"]([\\w./-]+\\.\\w+)['’\"]")

// taintMissingArgs marks the relative file arguments of a failed command that do not
// exist after it: the files it would have written.
func (ss *session) taintMissingArgs(ctx context.Context, cmd string, r int) {
	var args []string
	for _, f := range strings.Fields(cmd) {
		f = strings.Trim(f, `"'`)
		if !strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "~") && looksLikePath(f) {
			args = append(args, shellQuote(f))
		}
	}
	if len(args) == 0 {
		return
	}
	res, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && for f in " + strings.Join(args, " ") + "; do [ -e \"$f\" ] || echo \"$f\"; done", Timeout: 10 * time.Second, User: ss.user})
	if err != nil || res.ExitCode != 0 {
		return
	}
	for _, f := range strings.Fields(res.Stdout) {
		if _, ok := ss.taintPaths[ss.abs(f)]; !ok {
			ss.taintPaths[ss.abs(f)] = r
		}
	}
}

// installedLookalike: a package that an earlier step of the tutorial installed and whose
// name contains the missing command's (imagemagick for magick), with the commands it
// does provide. "" when there is none.
func (ss *session) installedLookalike(ctx context.Context, name string) (string, []string) {
	if len(name) < 3 || strings.Contains(name, "/") {
		return "", nil
	}
	asked := false
	for _, pkg := range ss.aptPackages(true) {
		if pkg == name || !strings.Contains(pkg, strings.ToLower(name)) {
			continue
		}
		if !asked {
			// `info` after texinfo: Debian has a package of that very name, which the
			// install diagnosis names
			asked = true
			if r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "apt-cache show --no-all-versions " + shellQuote(name) + " >/dev/null 2>&1", Timeout: time.Minute, User: ss.user}); err == nil && r.ExitCode == 0 {
				return "", nil
			}
		}
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: providesScript(pkg), Timeout: time.Minute, User: ss.user})
		if err != nil || r.ExitCode != 0 {
			continue
		}
		if cmds := strings.Fields(r.Stdout); len(cmds) > 0 {
			return pkg, cmds
		}
	}
	return "", nil
}

// providesScript lists the commands a package and the packages of its own it depends on
// (named after it) put on PATH, each by its shortest name (convert, not convert-im6.q16,
// for imagemagick whose programs live in imagemagick-6.q16 behind alternatives; not
// perl's for texinfo).
func providesScript(pkg string) string {
	q := shellQuote(pkg)
	return "{ for p in " + q + " $(apt-cache depends --installed " + q + " 2>/dev/null | awk '/Depends:/{print $2}' | grep -F -e " + q + "); do dpkg -L \"$p\" 2>/dev/null; done; } | grep -E '^/usr/s?bin/[^/]+$' | sort -u > /tmp/.smile-provides; " +
		"ls -d /usr/bin/* /usr/sbin/* > /tmp/.smile-names; xargs -d '\\n' readlink -f < /tmp/.smile-names > /tmp/.smile-targets; " +
		"paste /tmp/.smile-targets /tmp/.smile-names | awk 'NR==FNR { want[$1] = 1; next } ($1 in want) { n = $2; sub(/.*\\//, \"\", n); if (!($1 in best) || length(n) < length(best[$1])) best[$1] = n } END { for (t in best) print best[t] }' /tmp/.smile-provides - | sort | head -n 8"
}

// reInlineApt: an apt install command written in the prose, in code.
var reInlineApt = regexp.MustCompile("`(?:(#)\\s+)?((?:sudo\\s+)?(?:apt|apt-get)\\s+(?:-\\S+\\s+)*install\\s+[^`]+)`")

// inlineInstall is an apt install command the prose (a paragraph or a table row, not a
// code block) gives before line for the tool that provides name, and its line.
func (ss *session) inlineInstall(name string, before int) (string, int) {
	if ss.task.Tutorial == nil {
		return "", 0
	}
	t := toolOf(name)
	pkgs := strings.Fields(strings.TrimPrefix(t.Debian, "sudo apt-get install -y "))
	for ln := 1; ln < before && ln <= ss.task.Tutorial.Map.LineCount(); ln++ {
		for _, m := range reInlineApt.FindAllStringSubmatch(ss.task.Tutorial.Map.Line(ln), -1) {
			args := strings.Fields(m[2])
			for _, a := range args {
				if a == name || slices.Contains(pkgs, a) || strings.EqualFold(a, t.Name) || aliasPackage(t, a) {
					cmd := strings.Replace(m[2], " install ", " install -y ", 1)
					if m[1] == "#" && !strings.HasPrefix(cmd, "sudo ") {
						cmd = "sudo " + cmd // "`# apt install borgbackup`": as root
					}
					return cmd, ln
				}
			}
		}
	}
	return "", 0
}

// laterInlineInstall is an apt install command the prose gives after line, in a
// paragraph that names the missing command in code ("`isoinfo` is part of the
// `genisoimage` package: `sudo apt install genisoimage`"), and its line ("", 0 when none).
func (ss *session) laterInlineInstall(name string, after int) (string, int) {
	if ss.task.Tutorial == nil {
		return "", 0
	}
	m := ss.task.Tutorial.Map
	for ln := after + 1; ln <= m.LineCount(); ln++ {
		for _, mm := range reInlineApt.FindAllStringSubmatch(m.Line(ln), -1) {
			para := ""
			for k := ln; k >= max(1, ln-3) && strings.TrimSpace(m.Line(k)) != "" && strings.TrimSpace(m.Line(k)) != ">"; k-- {
				para = m.Line(k) + "\n" + para
			}
			if strings.Contains(para, "`"+name+"`") || slices.Contains(strings.Fields(mm[2]), name) {
				return mm[2], ln
			}
		}
	}
	return "", 0
}

// aliasPackage: a package named after one of the tool's names with a version or flavour
// after it (`openjdk-17-jdk-headless` for Java).
func aliasPackage(t tool, pkg string) bool {
	for _, a := range t.Aliases {
		if len(a) >= 4 && strings.HasPrefix(pkg, a+"-") {
			return true
		}
	}
	return false
}

// reDirFlag: options whose value is a directory a program writes into.
var reDirFlag = regexp.MustCompile(`^(?:-path|--output-dir|--outdir|--out-dir|--target-dir|--destdir|--dest|--?output-directory)$`)

// reCannotOpen: how programs say they could not open or write a path.
// (rdiff-backup 2.2: "Unable to delete and/or create directory …"; flac 1.4: "An error
// occurred opening the output file; it is likely that the output directory does not
// exist")
var reCannotOpen = regexp.MustCompile(`(?i)no such file or directory|(?:cannot|can't|unable to|could not|failed to) (?:\w+ (?:and/or|or|and) )?(?:write|open|create)|error occurred opening`)

// reDirNoSuch: a folder (written with its slash) an error line starts with ("gen/: No
// such file or directory").
var reDirNoSuch = regexp.MustCompile(`(?m)^([\w.-]+(?:/[\w.-]+)*)/: No such file or directory`)

// reDirNotExist: a program saying that a relative directory it was given does not exist
// (pandas 1.5's to_csv: "OSError: Cannot save file into a non-existent directory:
// 'reports'"), or that an output location given as LANG:DIR is not one (capnp 0.9's
// "capnp compile: -o c++:gen: output location is inaccessible or is not a directory").
var reDirNotExist = regexp.MustCompile(`(?i)\b(?:path|directory|folder|dir)\s+['"‘“]([\w.-]+(?:/[\w.-]+)*/?)['"’”]\s+(?:does not|doesn't) exist|non-existent (?:directory|folder):\s+['"‘“]([\w.-]+(?:/[\w.-]+)*/?)['"’”]|[\w+-]+:([\w.-]+(?:/[\w.-]+)*/?): [^\n]*\b(?:inaccessible|is not a directory)\b`)

// relativeElsewhere: the program says a file named by a relative path on its command line
// is not there, in quotes, while it is in the current directory: the program resolves
// relative names against another directory (its own search path), and the absolute path
// is the fix.
func (ss *session) relativeElsewhere(ctx context.Context, cmd, output string, line int) (loop.Finding, bool) {
	if !reNotThere.MatchString(output) || strings.ContainsAny(cmd, "\n;&|") {
		return loop.Finding{}, false
	}
	fields := strings.Fields(cmd)
	for i := 1; i < len(fields); i++ {
		a := strings.Trim(fields[i], `"'`)
		if a == "" || strings.HasPrefix(a, "-") || path.IsAbs(a) || strings.HasPrefix(a, "~") || strings.Contains(a, "$") || !looksLikePath(a) || !quotedWhereMissing(output, a) {
			continue
		}
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && [ -f " + shellQuote(a) + " ]", Timeout: 10 * time.Second, User: ss.user})
		if err != nil || r.ExitCode != 0 {
			continue
		}
		with := slices.Clone(fields)
		with[i] = `"$PWD/` + a + `"`
		replace := strings.Join(with, " ")
		prog := path.Base(fields[0])
		return loop.Finding{
			Problem:  fmt.Sprintf("`%s` says `%s` is not there, but it is, in the current directory (`%s`): `%s` looks for a relative name somewhere else (its own search path), not where the reader is", prog, a, ss.homeRel(ss.cwd), prog),
			Fix:      fmt.Sprintf("give the file's absolute path at line %d (`%s`)", line, replace),
			Edit:     &loop.Edit{Replace: replace},
			Category: "command failure",
		}, true
	}
	return loop.Finding{}, false
}

// quotedWhereMissing: a line of output says that name, in quotes, is not there: the
// name comes after a word for opening or reading a file ("Cannot read -f file
// 'lab.vcl'") or right before the error ("'lab.vcl': No such file or directory"), not as
// the place an error was found in (`"temps.gp" line 5: cannot open …`).
func quotedWhereMissing(output, name string) bool {
	q := `['"‘` + "`" + `]` + regexp.QuoteMeta(name) + `['"’]`
	re := regexp.MustCompile(`(?i)\b(?:file|open|read|load|find|access|stat|include)\b\W+(?:[\w-]+\s+){0,2}` + q + `|` + q + `\s*[:(]\s*(?:no such file|does not exist|not found|cannot|can't)`)
	at := regexp.MustCompile(q + `\s*,?\s*line\s+\d+`) // POV-Ray 3.7: "File 'table.pov' line 2: Parse Error: Cannot open include file x.inc."
	for _, l := range strings.Split(output, "\n") {
		if reNotThere.MatchString(l) && re.MatchString(l) && !at.MatchString(l) {
			return true
		}
	}
	return false
}

// reQuotedRelPath: a relative path with a directory, in quotes.
var reQuotedRelPath = regexp.MustCompile(`['"‘“] ?([\w.-]+(?:/[\w.-]+)+)['"’”]`)

// reRefusedChars: a program refusing characters in a name it was given ("tag `v1.0'
// must not contain the characters `$,.:;@'"): what the name is, the name, the characters.
var reRefusedChars = regexp.MustCompile("(?i)\\b(\\w+)(?: name)? [`'‘\"]([^`'’\"\\s]+)['’\"`] (?:must|may|can) ?not contain (?:the |any )?(?:characters?|chars?) [`'‘\"]([^'’\"]+)['’\"`]")

// refusedChars: what refusedChars names, the characters of the name it refuses, and the
// command with them replaced by "_" ("" when the output has no such refusal or the
// command does not hold the name once).
func refusedChars(cmd, output string) (what, value string, bad []string, with string) {
	m := reRefusedChars.FindStringSubmatch(output)
	cmd = strings.TrimSpace(cmd)
	if m == nil || strings.Contains(cmd, "\n") || strings.Count(cmd, m[2]) != 1 {
		return "", "", nil, ""
	}
	fixed := strings.Map(func(r rune) rune {
		if strings.ContainsRune(m[3], r) {
			if !slices.Contains(bad, string(r)) {
				bad = append(bad, string(r))
			}
			return '_'
		}
		return r
	}, m[2])
	if len(bad) == 0 {
		return "", "", nil, ""
	}
	return strings.ToLower(m[1]), m[2], bad, strings.Replace(cmd, m[2], fixed, 1)
}

// reSedScript: a sed substitution or transliteration given as an argument (`s/a/b/g`).
var reSedScript = regexp.MustCompile(`^[sy]/.*/[gpiIw0-9]*$`)

// missingArgDir is a relative directory that a path argument of the failed command
// (runs/joblog.tsv, --output-file=locale/fr/x.mo, -path thumbs) lives in when that
// directory does not exist and the output says a path could not be opened: the program
// writes there and does not create directories. A relative path the output quotes (a
// script's own output file) counts as an argument.
func (ss *session) missingArgDir(ctx context.Context, cmd, output string) string {
	var dirs []string
	for _, m := range reDirNotExist.FindAllStringSubmatch(output, 3) {
		// fpc -FEbuild: `Error: Path "build/" does not exist`
		if d := strings.TrimSuffix(strings.TrimPrefix(m[1]+m[2]+m[3], "./"), "/"); d != "" && strings.Contains(cmd, d) {
			dirs = append(dirs, d)
		}
	}
	for _, m := range reDirNoSuch.FindAllStringSubmatch(output, 3) {
		// protoc --python_out=gen: "gen/: No such file or directory"
		if d := strings.TrimPrefix(m[1], "./"); slices.ContainsFunc(strings.Fields(cmd), func(w string) bool {
			w = strings.Trim(w, `"'`)
			return w == d || w == d+"/" || strings.HasSuffix(w, "="+d) || strings.HasSuffix(w, "="+d+"/")
		}) {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 && !reCannotOpen.MatchString(output) {
		return ""
	}
	fields := strings.Fields(cmd)
	for i, f := range fields {
		f = strings.Trim(f, `"'`)
		if j := strings.IndexByte(f, '='); j > 0 && strings.HasPrefix(f, "-") {
			f = strings.Trim(f[j+1:], `"'`)
		}
		switch {
		case reDirFlag.MatchString(f) && i+1 < len(fields):
			dirs = append(dirs, strings.Trim(fields[i+1], `"'`))
		case strings.HasPrefix(f, "~/") && strings.Count(f, "/") >= 2 && !strings.ContainsAny(f, "*?$<>|;&(){}\"',\\"):
			// a folder under the reader's home (`rdiff-backup restore … ~/restore-tests/x`
			// makes x, not ~/restore-tests)
			dirs = append(dirs, path.Dir(f))
		case strings.Contains(f, "/") && !strings.HasPrefix(f, "/") && !strings.HasPrefix(f, "~") && !strings.HasPrefix(f, "-") && !strings.ContainsAny(f, "*?$<>|;&(){}\"',\\") && !strings.Contains(f, "://") && !reSedScript.MatchString(f):
			// (not sed's `s/"Hello"/"Hello, CVS"/`)
			dirs = append(dirs, path.Dir(f))
		}
	}
	for _, m := range reQuotedRelPath.FindAllStringSubmatch(output, 5) {
		// a path the program echoes from its script ("set output 'charts/temps.png'")
		dirs = append(dirs, path.Dir(m[1]))
	}
	for _, f := range fields[1:] {
		// a path in the program the tutorial wrote and the step runs (gforth's
		// `s" out/squares.txt" w/o create-file`), which the error does not name
		for _, m := range reQuotedRelPath.FindAllStringSubmatch(ss.written[ss.abs(strings.Trim(f, `"'`))], 5) {
			dirs = append(dirs, path.Dir(m[1]))
		}
	}
	for _, d := range dirs {
		if d == "." || d == "" || d == ".." || d == "~" || strings.HasPrefix(d, "../..") || strings.HasPrefix(d, "-") || !strings.Contains(output, d) && !strings.Contains(output, ss.abs(d)) && !strings.Contains(strings.ToLower(output), "no such file or directory") && !strings.Contains(strings.ToLower(output), "directory does not exist") {
			continue
		}
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && [ ! -e " + shellQuote(ss.abs(d)) + " ]", Timeout: 10 * time.Second, User: ss.user})
		if err == nil && r.ExitCode == 0 {
			return d
		}
	}
	return ""
}

var reMissingBranch = regexp.MustCompile(`(?i)invalid reference: ([\w./-]+)|src refspec ([\w./-]+) does not match any|pathspec '([^']+)' did not match|not a valid branch name:? '?([\w./-]+)`)

// sameBranchGap: a Git command fails on a branch that an earlier gap already found
// missing; it returns that gap's root.
func (ss *session) sameBranchGap(output string) (int, bool) {
	branch := missingBranch(output)
	if branch == "" {
		return 0, false
	}
	for r := range ss.roots {
		fi := ss.roots[r].finding
		if fi < 0 {
			continue
		}
		if f := ss.res.Findings[fi]; strings.Contains(f.Problem, "no such branch") && missingBranch(f.Problem) == branch {
			return r, true
		}
	}
	return 0, false
}

// missingBranch is the branch a Git error says does not exist ("" when none).
func missingBranch(s string) string {
	m := reMissingBranch.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1] + m[2] + m[3] + m[4]
}

// reBroughtFile: the prose says the file comes from elsewhere, not from the tutorial.
var reBroughtFile = regexp.MustCompile(`(?i)\b(?:(?:they|someone|a colleague|your colleague|the server|your team) (?:sent|gave|emailed|shared)|sent (?:to )?you|you (?:received|were given)|you got from\b|someone else's|your own (?:file|data|key|certificate|export))\b`)

// reShNotFound: the shell a program started could not find a program ("/bin/sh: 1:
// zstd: not found"), or make could not run one (a recipe's or `$(shell pkg-config …)`'s:
// "make: pkg-config: No such file or directory", bmake's "bmake: exec(mandoc) failed (No
// such file or directory)"), or a script sourced by name and line
// could not (direnv 2.32's stdlib: "environment:812: python: command not found"),
// whatever the exit code of the program that started it.
var reShNotFound = regexp.MustCompile(`(?m)(?:^|\s)(?:(?:/bin/|/usr/bin/)?(?:ba|da)?sh: (?:\d+: |line \d+: )?([\w.+-]+): (?:command )?not found|^b?make(?:\[\d+\])?: ([\w.+-]+): (?:No such file or directory|Command not found)$|^bmake: exec\(([\w.+-]+)\) failed \(No such file or directory\)$|^[\w./~-]+:(?:\d+:| line \d+:| \d+:) ([\w.+-]+): (?:command )?not found$)`)

var (
	reCMakeCompiler = regexp.MustCompile(`No CMAKE_(CXX|C)_COMPILER could be found`)
	reConfigureCC   = regexp.MustCompile(`no acceptable C compiler found|C compiler cannot create executables`)
	reSoxFormat     = regexp.MustCompile("no handler for (?:given )?file (?:extension|type) `?'?(\\w+)")
	reRPackage      = regexp.MustCompile(`there is no package called [‘'"]([\w.]+)[’'"]`)
	reDevDependency = regexp.MustCompile(`Dependency lookup for ([\w.+-]+) with method \S+ failed|Dependency "([\w.+-]+)" not found|No package '([\w.+-]+)' found`)
	rePerlModule    = regexp.MustCompile(`Can't locate ([\w/]+)\.pm in @INC`)
	rePyModule      = regexp.MustCompile(`No module named '?([\w]+)`) // (`python3 -m aiosmtpd`: "/usr/bin/python3: No module named aiosmtpd")
	reRubyLib       = regexp.MustCompile(`cannot load such file -- ([\w-]+) \(LoadError\)`)
	reLuaModule     = regexp.MustCompile(`module '([\w-]+)' not found`)
	reRakuModule    = regexp.MustCompile(`Could not find ([A-Z][\w-]*(?:::[\w-]+)*) in:`)
	rePDODriver     = regexp.MustCompile(`PDOException: could not find driver`)
	rePDODSN        = regexp.MustCompile(`new PDO\(\s*['"](\w+):`)
	rePHPMissing    = regexp.MustCompile(`Call to undefined function ([a-z]+)_\w*\(|Class "?(\w+)"? not found`)
)

// phpExtensions: the Debian package of a PHP extension that php-cli lacks, by the prefix
// of its functions or the name of its class (bookworm's php8.2-* packages).
var phpExtensions = map[string]string{
	"mb": "php-mbstring", "curl": "php-curl", "simplexml": "php-xml", "xml": "php-xml", "xmlwriter": "php-xml",
	"dom": "php-xml", "DOMDocument": "php-xml", "SimpleXMLElement": "php-xml", "XMLWriter": "php-xml",
	"image": "php-gd", "gd": "php-gd", "zip": "php-zip", "ZipArchive": "php-zip", "bc": "php-bcmath",
	"gmp": "php-gmp", "intl": "php-intl", "NumberFormatter": "php-intl", "IntlDateFormatter": "php-intl",
	"Collator": "php-intl", "SQLite3": "php-sqlite3", "sqlite": "php-sqlite3", "mysql": "php-mysql", "mysqli": "php-mysql",
	"pgsql": "php-pgsql", "pg": "php-pgsql", "yaml": "php-yaml", "Redis": "php-redis",
}

// phpPackage is the package of the PHP extension an error says is missing: the PDO
// driver a script's DSN names, or the extension of an undefined function or class.
func (ss *session) phpPackage(output string) (string, string) {
	if rePDODriver.MatchString(output) {
		for p, content := range ss.written {
			if m := rePDODSN.FindStringSubmatch(content); m != nil && strings.HasSuffix(p, ".php") {
				if pkg := phpExtensions[m[1]]; pkg != "" {
					return pkg, "PHP's PDO driver for " + m[1]
				}
			}
		}
		return "", ""
	}
	if m := rePHPMissing.FindStringSubmatch(output); m != nil {
		if pkg := phpExtensions[firstNonEmpty(m[1], m[2])]; pkg != "" {
			return pkg, "the PHP extension " + strings.TrimPrefix(pkg, "php-")
		}
	}
	return "", ""
}

// devPackage is Debian's development package of a library (zlib: zlib1g-dev, polyml:
// libpolyml-dev), when the container's package lists have one of the usual names.
func (ss *session) devPackage(ctx context.Context, lib string) string {
	for _, cand := range []string{"lib" + lib + "-dev", lib + "-dev", lib + "1g-dev", strings.TrimPrefix(lib, "lib") + "-dev"} {
		if ss.debianPackage(ctx, cand) != "" {
			return cand
		}
	}
	return ""
}

// errorPackage names the Debian package an error says is missing (a compiler CMake
// looked for, a Perl or Python module) and what it provides; "" when none, or when the
// package lists have no such package.
func (ss *session) errorPackage(ctx context.Context, output string) (string, string) {
	var pkg, what string
	switch {
	case reCMakeCompiler.MatchString(output):
		if reCMakeCompiler.FindStringSubmatch(output)[1] == "CXX" {
			pkg, what = "g++", "a C++ compiler"
		} else {
			pkg, what = "gcc", "a C compiler"
		}
	case reConfigureCC.MatchString(output):
		// autoconf's configure: a C compiler, and the make it goes on with
		pkg, what = "build-essential", "a C compiler (gcc) and make"
	case reSoxFormat.MatchString(output):
		// Debian's sox brings the base formats only (no MP3, no Ogg writer)
		pkg, what = "libsox-fmt-all", "SoX's handler for "+reSoxFormat.FindStringSubmatch(output)[1]+" files"
	case reGroffDevice.MatchString(output):
		// groff-base, which man-db brings, has the terminal and PostScript devices only
		pkg, what = "groff", "groff's `"+reGroffDevice.FindStringSubmatch(output)[1]+"` output device"
	case reRPackage.MatchString(output):
		mod := reRPackage.FindStringSubmatch(output)[1]
		pkg, what = "r-cran-"+strings.ToLower(mod), "the R package "+mod
	case reDevDependency.MatchString(output):
		m := reDevDependency.FindStringSubmatch(output)
		dep := strings.ToLower(firstNonEmpty(m[1], m[2], m[3]))
		if cand := ss.devPackage(ctx, dep); cand != "" {
			return cand, "the development files of " + dep
		}
		return "", ""
	case rePerlModule.MatchString(output):
		mod := rePerlModule.FindStringSubmatch(output)[1]
		pkg, what = "lib"+strings.ToLower(strings.ReplaceAll(mod, "/", "-"))+"-perl", "the Perl module "+strings.ReplaceAll(mod, "/", "::")
	case rePyModule.MatchString(output):
		// the package that installs the module's files, as packages.debian.org finds it
		// (`dns` is python3-dnspython's; Debian's python3-dns is another library)
		mod := rePyModule.FindStringSubmatch(output)[1]
		top := strings.SplitN(mod, ".", 2)[0]
		if pkg = ss.filePackage(ctx, "usr/lib/python3/dist-packages/"+top+"/__init__.py", "usr/lib/python3/dist-packages/"+top+".py"); pkg == "" {
			pkg = "python3-" + strings.ToLower(mod)
		}
		what = "the Python module " + mod
	case reRubyLib.MatchString(output):
		lib := reRubyLib.FindStringSubmatch(output)[1]
		pkg, what = "ruby-"+strings.ToLower(lib), "the Ruby library "+lib
	case reRakuModule.MatchString(output):
		mod := reRakuModule.FindStringSubmatch(output)[1]
		pkg, what = "raku-"+strings.ToLower(strings.ReplaceAll(mod, "::", "-")), "the Raku module "+mod
	case reLuaModule.MatchString(output):
		mod := reLuaModule.FindStringSubmatch(output)[1]
		pkg, what = "lua-"+strings.ToLower(mod), "the Lua module "+mod
	case rePDODriver.MatchString(output) || rePHPMissing.MatchString(output):
		if pkg, what = ss.phpPackage(output); pkg == "" {
			return "", ""
		}
	case reMissingHeader.MatchString(output):
		// "counter.c:3:10: fatal error: lmdb.h: No such file or directory": the header is in
		// a -dev package, found as packages.debian.org finds it, by its path
		h := reMissingHeader.FindStringSubmatch(output)[1]
		if pkg = ss.filePackage(ctx, "usr/include/"+h, "usr/include/x86_64-linux-gnu/"+h, "usr/include/aarch64-linux-gnu/"+h); pkg == "" {
			return "", ""
		}
		what = fmt.Sprintf("the C header `%s` (Debian's `%s`)", h, pkg)
	default:
		return "", ""
	}
	if ss.debianPackage(ctx, pkg) == "" {
		return "", ""
	}
	return pkg, what
}

// reUnquotedHeredoc: a command that writes a file from a here-document whose delimiter is
// not quoted (`cat > sweep.sh <<EOF`, `tee run.sh <<-END`), so the shell expands `$…`
// in it as it writes.
var reUnquotedHeredoc = regexp.MustCompile(`^(?:cat|tee(?:\s+-a)?)\b[^<\n]*<<-?\s*([A-Za-z_]\w*)\b`)

// reHeredocTarget: the file a `cat > f` or `tee f` writes.
var reHeredocTarget = regexp.MustCompile(`^(?:cat\b[^>\n]*>>?\s*|tee\s+(?:-a\s+)?)([^\s;&|<>]+)`)

// reDollarRef: a parameter expansion (`$n`, `${n}`, `$1`, `$@`), not an escaped `\$n`.
var reDollarRef = regexp.MustCompile(`(?:^|[^\\])\$\{?([A-Za-z_]\w*|[0-9@#*])\}?`)

// lostHeredoc: a script written with an unquoted here-document whose own variables the
// shell emptied as it wrote it.
type lostHeredoc struct {
	file, cmd, delim string
	at               int
	vars             []string
}

// expandedHeredoc: rec runs or reads a file an earlier step wrote with an unquoted
// here-document that uses `$1`, `$@` or variables the text itself sets (`for n in 1 2
// 4`): meant for the script, they were expanded, to nothing, while the file was written.
func (ss *session) expandedHeredoc(rec loop.CommandRecord) lostHeredoc {
	words := map[string]bool{}
	for _, w := range strings.Fields(rec.Command) {
		words[ss.abs(strings.Trim(w, `"'`))] = true
	}
	for k := len(ss.steps) - 1; k >= 0; k-- {
		if st := ss.steps[k]; st.kind == runStep && st.line < rec.Line {
			if h := heredocOf(st); h.file != "" && words[ss.abs(h.file)] {
				return h
			}
		}
	}
	return lostHeredoc{}
}

// heredocMaking: the script that, its variables emptied, made the file called name
// (sweep-.json for sweep-$n.json), and the line of the first step that ran it before line.
func (ss *session) heredocMaking(name string, line int) (lostHeredoc, int) {
	for k, st := range ss.steps {
		h := heredocOf(st)
		if h.file == "" || st.line >= line || !slices.Contains(h.emptied(), name) {
			continue
		}
		for _, later := range ss.steps[k:] {
			if later.kind == runStep && later.line < line && later.line > h.at && namesFile(later.command.Text, path.Base(h.file)) {
				return h, later.line
			}
		}
	}
	return lostHeredoc{}, 0
}

// heredocOf: the script st writes with an unquoted here-document, when the shell empties
// variables of its own in it.
func heredocOf(st step) lostHeredoc {
	if st.kind != runStep {
		return lostHeredoc{}
	}
	cmd := strings.TrimSpace(st.command.Text)
	first, body, _ := strings.Cut(cmd, "\n")
	m, t := reUnquotedHeredoc.FindStringSubmatch(first), reHeredocTarget.FindStringSubmatch(first)
	if m == nil || t == nil {
		return lostHeredoc{}
	}
	body = strings.TrimSuffix(strings.TrimRight(body, "\n"), m[1])
	var lost []string
	for _, r := range reDollarRef.FindAllStringSubmatch(body, -1) {
		v := r[1]
		own := strings.ContainsAny(v[:1], "0123456789@#*") ||
			regexp.MustCompile(`\bfor\s+`+v+`\s+in\b|(?m)^\s*(?:local\s+|export\s+)?`+v+`=|\bread\s+(?:-\w+\s+)*`+v+`\b`).MatchString(body)
		if own && !slices.Contains(lost, "$"+v) {
			lost = append(lost, "$"+v)
		}
	}
	if len(lost) == 0 {
		return lostHeredoc{}
	}
	return lostHeredoc{file: t[1], cmd: cmd, delim: m[1], at: st.line, vars: lost}
}

// emptied: the base names of the files the script names with its variables, as the
// emptied variables leave them (sweep-$n.json: sweep-.json).
func (h lostHeredoc) emptied() []string {
	var out []string
	for _, w := range strings.Fields(h.cmd) {
		stripped := w
		for _, v := range h.vars {
			stripped = strings.ReplaceAll(strings.ReplaceAll(stripped, "${"+v[1:]+"}", ""), v, "")
		}
		if stripped = strings.Trim(stripped, `"'`); stripped != strings.Trim(w, `"'`) && looksLikePath(stripped) {
			out = append(out, path.Base(stripped))
		}
	}
	return out
}

// explain says in f why the script does not do what the tutorial shows, and remembers the
// names its emptied variables left in file names.
func (h lostHeredoc) explain(f *loop.Finding) {
	f.Problem += fmt.Sprintf("; line %d writes `%s` with an unquoted here-document (`<<%s`), so the shell expanded %s as it wrote the file, to nothing, and the script lost %s", h.at, h.file, h.delim, quoteList(h.vars), plural(len(h.vars), "it", "them"))
	f.Fix = fmt.Sprintf("quote the delimiter at line %d (`<<'%s'`) so that `%s` keeps %s", h.at, h.delim, h.file, quoteList(h.vars))
	quoted := strings.Replace(h.cmd, "<<"+h.delim, "<<'"+h.delim+"'", 1)
	quoted = strings.Replace(quoted, "<< "+h.delim, "<< '"+h.delim+"'", 1)
	f.Edit = &loop.Edit{InsertBefore: []string{quoted}}
	f.Category = "command failure"
}

// noteLost remembers the file names the script h describes makes without its variables
// (sweep-$n.json becomes sweep-.json), as depending on root r.
func (ss *session) noteLost(h lostHeredoc, r int) {
	if h.file == "" || r < 0 {
		return
	}
	for _, name := range h.emptied() {
		ss.lostVars[name] = r + 1 // (0: none)
	}
}

// reMissingSeparator: GNU make stops at a line it cannot read ("Makefile:2: *** missing
// separator.  Stop.").
var reMissingSeparator = regexp.MustCompile(`(?m)^(?:make(?:\[\d+\])?: )?(\S+):(\d+): \*\*\* missing separator`)

// spaceIndentedRecipe: make stopped at a line of a makefile that begins with spaces (a
// recipe whose tab was lost); the makefile as the error names it and the line.
func (ss *session) spaceIndentedRecipe(ctx context.Context, output string) (string, int) {
	m := reMissingSeparator.FindStringSubmatch(output)
	if m == nil {
		return "", 0
	}
	at, _ := strconv.Atoi(m[2])
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: fmt.Sprintf("sed -n '%dp' %s", at, shellQuote(ss.abs(m[1]))), Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 || !strings.HasPrefix(r.Stdout, " ") || strings.TrimSpace(r.Stdout) == "" {
		return "", 0
	}
	return m[1], at
}

// reMissingHeader: a C compiler cannot find a header (gcc, then clang).
// reGroffDevice: groff without the device asked for (`man -Tpdf`, `groff -Thtml`).
var reGroffDevice = regexp.MustCompile(`groff: fatal error: invalid device '(\w+)'`)

var reMissingHeader = regexp.MustCompile(`fatal error: '?(\w[\w.+/-]*\.(?:h|hh|hpp|hxx))'?(?::\s+No such file or directory| file not found)`)

// proseAfter is the paragraph right after line (up to four lines; "" when a heading,
// a block or markup comes first).
func proseAfter(t *tutorial.Tutorial, line int) string {
	n := line + 1
	for n <= t.Map.LineCount() && strings.TrimSpace(t.Map.Line(n)) == "" {
		n++
	}
	var para []string
	for ; n <= t.Map.LineCount() && len(para) < 4; n++ {
		l := strings.TrimSpace(t.Map.Line(n))
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") || strings.HasPrefix(l, "<") || strings.HasPrefix(l, "{") {
			break
		}
		para = append(para, l)
	}
	return strings.Join(para, " ")
}

// reFileExt: a file name's extension, with a letter in it.
var reFileExt = regexp.MustCompile(`^\.\w*[A-Za-z]\w*$`)

// upFromMadeDir: the failed command names a `../` path that is not there from the
// session's folder but is from a folder an earlier step made with mkdir (the latest one
// that does): that folder, the line that made it and the path. When that mkdir names
// no plain relative folder (`mkdir -p ~/lab/{db,queries}`), the one folder of the
// session's folder from which every `../` path and every other relative file the
// command names is there is that folder, with line 0.
func (ss *session) upFromMadeDir(ctx context.Context, rec loop.CommandRecord) (dir string, at int, rel string) {
	var ups, files []string
	for _, w := range strings.Fields(rec.Command) {
		w = strings.Trim(w, `"'`)
		switch {
		case strings.HasPrefix(w, "../") && looksLikePath(w):
			ups = append(ups, w)
		case !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~") && reFileExt.MatchString(path.Ext(w)) && looksLikePath(w):
			// (not `-evalue 0.01`'s number)
			files = append(files, w)
		}
	}
	if len(ups) == 0 {
		return "", 0, ""
	}
	for i := len(ss.steps) - 1; i >= 0; i-- {
		st := ss.steps[i]
		if st.kind != runStep || st.line >= rec.Line {
			continue
		}
		f := strings.Fields(st.command.Text)
		if len(f) < 2 || f[0] != "mkdir" {
			continue
		}
		made := f[len(f)-1]
		if strings.HasPrefix(made, "-") || strings.HasPrefix(made, "/") || strings.HasPrefix(made, "~") || strings.Contains(made, "..") {
			break
		}
		for _, u := range ups {
			here, _ := ss.exists(ctx, path.Join(ss.cwd, u))
			there, _ := ss.exists(ctx, path.Join(ss.cwd, made, u))
			if !here && there {
				return made, st.line, u
			}
		}
		return "", 0, ""
	}
	// every path missing here, and there from exactly one folder
	var test []string
	for _, p := range append(ups, files...) {
		test = append(test, "[ ! -e "+shellQuote(p)+" ] && [ -e \"$d\"/"+shellQuote(p)+" ]")
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " && for d in */; do d=${d%/}; " + strings.Join(test, " && ") + " && echo \"$d\"; done 2>/dev/null", Timeout: 10 * time.Second, User: ss.user})
	if err != nil {
		return "", 0, ""
	}
	if f := strings.Split(strings.TrimSpace(r.Stdout), "\n"); len(f) == 1 && f[0] != "" && !strings.ContainsAny(f[0], " *") {
		return f[0], 0, ups[0]
	}
	return "", 0, ""
}

// reCertName: a TLS client refusing a certificate that does not name the host it asked
// for (curl 7.88's "SSL: no alternative certificate subject name matches target host
// name '127.0.0.1'", OpenSSL's "hostname mismatch").
var reCertName = regexp.MustCompile(`(?i)no alternative certificate subject name matches target host name '([^']+)'|certificate subject name '[^']*' does not match target host name '([^']+)'`)

// reHTTPSURL: an https URL's host and port.
var reHTTPSURL = regexp.MustCompile(`https://(\[[^\]]+\]|[\w.-]+)(?::(\d+))?`)

// certNameMismatch: the client refused the server's certificate because it does not name
// the host the URL gives; the reader looks at the certificate the server sends, as
// `openssl s_client` shows it: the host, the names the certificate holds (`DNS:localhost`)
// and the command with the first DNS name in the URL.
func (ss *session) certNameMismatch(ctx context.Context, rec loop.CommandRecord, output string) (host, names, with string) {
	m := reCertName.FindStringSubmatch(output)
	if m == nil {
		return "", "", ""
	}
	host = firstNonEmpty(m[1], m[2])
	var port string
	for _, u := range reHTTPSURL.FindAllStringSubmatch(rec.Command, -1) {
		if strings.Trim(u[1], "[]") == host {
			port = firstNonEmpty(u[2], "443")
		}
	}
	if port == "" {
		return "", "", ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `openssl s_client -connect "$h:$p" </dev/null 2>/dev/null | openssl x509 -noout -ext subjectAltName 2>/dev/null | grep -v 'Subject Alternative Name'`,
		Env: map[string]string{"h": host, "p": port}, Timeout: 20 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", "", ""
	}
	var list []string
	dns := ""
	for _, n := range strings.Split(r.Stdout, ",") {
		if n = strings.TrimSpace(n); n != "" {
			list = append(list, "`"+n+"`")
			if d, ok := strings.CutPrefix(n, "DNS:"); ok && dns == "" && !strings.Contains(d, "*") {
				dns = d
			}
		}
	}
	if len(list) == 0 || dns == "" {
		return "", "", ""
	}
	with = strings.Replace(strings.TrimSpace(rec.Command), "https://"+host, "https://"+dns, 1)
	return host, strings.Join(list, ", "), with
}

// reOwnAccount: the prose speaks of the reader's own account with a provider; reSetUp,
// of setting something up.
var (
	reOwnAccount = regexp.MustCompile(`(?i)\b(?:for|with|to|on|from|of) (?:your|an?) (?:own )?(?:[\w-]+ ){0,2}(?:account|provider|credentials|mailbox|subscription)s?\b`)
	reSetUp      = regexp.MustCompile(`(?i)\b(?:configure|set up|sign up|register)\b`)
)

// ownAccountSetup: the sentence of lead that tells the reader to set a tool up for their
// own account ("" when none).
func ownAccountSetup(lead string) string {
	for _, s := range sentences(lead) {
		if reOwnAccount.MatchString(s) && reSetUp.MatchString(s) {
			return s
		}
	}
	return ""
}

// reTryIt: a sentence inviting the reader to see for themselves what the sentence
// before it describes.
var reTryIt = regexp.MustCompile(`(?i)^\s*(?:try (?:it|this|that)\b|see for yourself\b)`)

// reKnitrError: knitr's chunk option that shows the chunk's error instead of stopping
// the build, set on a chunk meant to fail.
var reKnitrError = regexp.MustCompile(`^\{[^}]*\berror\s*=\s*(?:TRUE|T)\b`)

// reOnPurpose: the lead says the command is run to show a failure.
var reOnPurpose = regexp.MustCompile(`(?i)\b(?:on purpose|deliberately|intentionally|(?:watch|see|make) it fail)\b`)

// reYouSee: a sentence saying what the reader will see.
var reYouSee = regexp.MustCompile(`(?i)^(?:you(?:'ll| will| should)? (?:see|get)|it (?:prints|says|answers|complains|reports)|the (?:output|answer) is)\b`)

// quotesOutput: a sentence of the prose that says what the reader sees quotes, in code,
// an error line that the output holds.
func quotesOutput(prose, output string) bool {
	low := strings.ToLower(output)
	for _, sent := range reProseSentence.Split(prose, -1) {
		if !reYouSee.MatchString(strings.TrimSpace(sent)) {
			continue
		}
		for _, q := range reCodeSpan.FindAllStringSubmatch(sent, -1) {
			if len(q[1]) >= 6 && reErrorLine.MatchString(q[1]) && strings.Contains(low, strings.ToLower(q[1])) {
				return true
			}
		}
	}
	return false
}

// saysItFails: a sentence of prose says that cmd fails (reSaysFails), not that another
// command it names does ("Now `pdfinfo locked.pdf` fails with `Incorrect password`"
// under the qpdf line that encrypts).
func saysItFails(prose, cmd string, programs map[string]bool) bool {
	for _, sent := range reProseSentence.Split(prose, -1) {
		m := reSaysFails.FindStringIndex(sent)
		if m == nil {
			continue
		}
		other := false
		for _, c := range reCodeSpan.FindAllStringSubmatch(sent[:m[0]], -1) {
			if f := strings.Fields(c[1]); len(f) > 1 && firstWord(c[1]) != firstWord(cmd) {
				other = true // a command of its own, before the words that it fails
			}
		}
		for _, w := range reLowerWord.FindAllString(reCodeSpan.ReplaceAllString(sent[:m[0]], ""), -1) {
			if w != firstWord(cmd) && programs[w] {
				other = true // another program of the tutorial ("par2 notices the damage and exits with status 1")
			}
		}
		if !other {
			return true
		}
	}
	return false
}

// reLowerWord: a word in lower case, as program names are written in prose.
var reLowerWord = regexp.MustCompile(`\b[a-z][a-z0-9+_-]*\b`)

// programs are the programs the tutorial's commands run.
func (ss *session) programs() map[string]bool {
	out := map[string]bool{}
	for _, st := range ss.steps {
		if st.kind == runStep {
			for _, part := range splitList(st.command.Text) {
				if w := firstWord(part); w != "" {
					out[w] = true
				}
			}
		}
	}
	return out
}

// reSaysFails: the prose says the command fails on purpose ("the runner reports one
// failure and exits with status 1", "this fails because …").
var reSaysFails = regexp.MustCompile(`(?i)\bexits? with (?:status|code|exit code) [1-9]|\breports? (?:one|a|an|\d+) (?:failure|error)|\b(?:fails|will fail|should fail) (?:with|because|as expected)|\bexpected to fail\b`)

// printedInstead: the file a failed command cannot open is named after an input of the
// command right before it (tide.txt after `makeinfo --plaintext tide.texi`), which
// worked, printed several lines and saved nothing: it printed what the tutorial takes
// for a file. The missing name and that command's record (nil when not so).
func (ss *session) printedInstead(rec loop.CommandRecord, output string) (string, *loop.CommandRecord) {
	prev := ss.recordBefore()
	if prev == nil || !reNotThere.MatchString(output) {
		return "", nil
	}
	if prev.ExitCode != 0 || prev.TimedOut || prev.Background || prev.Line >= rec.Line || strings.ContainsAny(prev.Command, ">|") ||
		strings.Count(strings.TrimSpace(prev.Output), "\n") < 2 || reOutputFileOption.MatchString(prev.Command) {
		return "", nil
	}
	for _, l := range strings.Split(output, "\n") {
		if !reNotThere.MatchString(l) {
			continue
		}
		for _, m := range reQuotedFile.FindAllStringSubmatch(l, -1) {
			name := m[1]
			if strings.Contains(name, "/") || !strings.Contains(rec.Command, name) {
				continue
			}
			stem := strings.TrimSuffix(name, path.Ext(name))
			for _, a := range strings.Fields(prev.Command)[1:] {
				if a != name && path.Ext(a) != "" && path.Ext(a) != path.Ext(name) && strings.TrimSuffix(a, path.Ext(a)) == stem {
					return name, prev
				}
			}
		}
	}
	return "", nil
}

// outputOptions name the file a command writes; reOutputFileOption finds one in a
// command (`-o x`, `--output=x`): the command did save something.
const outputOptions = `-o|-O|--output|--out`

var reOutputFileOption = regexp.MustCompile(`(?:^|\s)(?:` + outputOptions + `)(?:[\s=]|$)`)

// reMakerCommand: a command that makes the path it is given (a folder, an empty file, a
// file system, a repository); reOutputFlag: an option naming the file a command writes.
var (
	reMakerCommand = regexp.MustCompile(`^(?:sudo\s+)?(?:mkdir|mmd|touch|truncate|install\s+-d|mkfs(?:\.\w+)?|git init|python3? -m venv)\b`)
	reOutputFlag   = regexp.MustCompile(`^(?:>|>>|` + outputOptions + `|-F|--freeze-state)$`)
)

// laterMaker: an argument of the failed command that its error names, and a later step
// (in the next few) that makes it: as an argument of a command that makes paths
// (`mmd -i lab.img ::/DOCS`) or after an option that names an output (`m4 -F site.m4f`).
func (ss *session) laterMaker(i int, rec loop.CommandRecord, output string) (string, *step) {
	if i < 0 || i >= len(ss.steps) {
		return "", nil
	}
	args := strings.Fields(rec.Command)
	if len(args) < 2 {
		return "", nil
	}
	var toks []string
	for _, f := range args[1:] {
		f = strings.Trim(f, `"'`)
		key := strings.TrimLeft(path.Base(strings.TrimPrefix(f, "::")), ":")
		if strings.HasPrefix(f, "-") || len(key) < 3 || !regexp.MustCompile(`(?:^|[^\w.-])`+regexp.QuoteMeta(key)+`(?:$|[^\w-])`).MatchString(output) {
			continue
		}
		toks = append(toks, f)
	}
	for j := i + 1; j < len(ss.steps) && j <= i+12; j++ {
		s := &ss.steps[j]
		if s.command == nil || s.kind == skipStep && reOtherSystem.MatchString(s.reason) || strings.TrimSpace(s.command.Text) == strings.TrimSpace(rec.Command) {
			continue
		}
		for _, tok := range toks {
			if makes(s.command.Text, tok) && !makes(rec.Command, tok) {
				return tok, s
			}
		}
	}
	return "", nil
}

// makes: cmd makes the path p: as a path argument of a command that makes paths (its
// last, or any of mkdir's and touch's: `mmd -i lab.img ::/DOCS` makes ::/DOCS, not the
// image), or after an option that names an output (`m4 -F site.m4f`).
func makes(cmd, p string) bool {
	fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(cmd), "sudo "))
	if len(fields) == 0 {
		return false
	}
	fields[0] = path.Base(fields[0])
	maker := reMakerCommand.MatchString(strings.Join(fields, " "))
	for k, f := range fields {
		if strings.Trim(f, `"'`) != p || k == 0 {
			continue
		}
		if reOutputFlag.MatchString(fields[k-1]) {
			return true
		}
		if maker && (k == len(fields)-1 || (fields[0] == "mkdir" || fields[0] == "touch") && fields[k-1] != "-m" && fields[k-1] != "--mode") {
			return true
		}
	}
	return false
}

// reRedirectTarget: the file a command's output or here-document goes to, named from the
// home folder or the root (`cat > ~/stats/runs.csv <<'EOF'`).
// reRelRedirect: a relative file a command writes by redirection (`> anim/orbit.ini`).
// misnamedInFile: a file the tutorial wrote, which the command runs or reads, names in
// quotes a file that is not there, one or two letters from one the tutorial saved in
// the same folder: the file, the name it uses and the name saved ("" when not so).
func (ss *session) misnamedInFile(ctx context.Context, cmd string) (file, named, near string) {
	for _, p := range slices.Sorted(maps.Keys(ss.written)) {
		if path.Dir(p) != ss.cwd || !refersTo(cmd, path.Base(p)) {
			continue
		}
		for _, m := range reQuotedFile.FindAllStringSubmatch(ss.written[p], 10) {
			if strings.Contains(m[1], "/") {
				continue
			}
			want := path.Join(ss.cwd, m[1])
			if _, ok := ss.written[want]; ok || m[1] == path.Base(p) {
				continue
			}
			var close []string
			for q := range ss.written {
				if path.Dir(q) == ss.cwd && path.Ext(q) == path.Ext(want) && levenshtein.ComputeDistance(path.Base(q), m[1]) <= 2 {
					close = append(close, path.Base(q))
				}
			}
			if len(close) != 1 {
				continue
			}
			if there, err := ss.exists(ctx, want); err == nil && !there {
				return p, m[1], close[0]
			}
		}
	}
	return "", "", ""
}

// shownNotSaved: the command names a file that is not there, and an earlier block that
// the Student read as output, because its lead only shows it ("mine looks like this"),
// names that file's name in its first lines: the file as the command writes it, the
// block's line and content ("" when not so).
func (ss *session) shownNotSaved(ctx context.Context, rec loop.CommandRecord, output string) (file string, at int, content string) {
	if !reNotThere.MatchString(output) {
		return "", 0, ""
	}
	for _, tok := range strings.Fields(rec.Command)[1:] {
		tok = strings.Trim(tok, `"'`)
		base := path.Base(tok)
		if strings.HasPrefix(tok, "-") || !strings.Contains(tok, "/") || len(base) < 4 || !namesFile(output, base) {
			continue
		}
		for _, st := range ss.steps {
			if st.kind != skipStep || st.line >= rec.Line || st.command != nil || !strings.HasPrefix(st.reason, "expected output (\"") || st.block.Shell {
				continue
			}
			head := strings.ToLower(strings.Join(firstLines(st.block.Content, 3), "\n"))
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(strings.ToLower(base)) + `\b`).MatchString(head) {
				continue
			}
			if there, err := ss.exists(ctx, ss.abs(tok)); err != nil || there {
				continue
			}
			return tok, st.block.StartLine, st.block.Content
		}
	}
	return "", 0, ""
}

// firstLines are the first n lines of text.
func firstLines(text string, n int) []string {
	lines := strings.Split(text, "\n")
	return lines[:min(n, len(lines))]
}

// reBadFileArg: a program refusing a file it was given, by its name (Icon 9.4's icont:
// "icont: bad argument textutil.icon").
var reBadFileArg = regexp.MustCompile(`(?i)\b(?:bad argument|unknown file type|unrecognized file(?: type)?|unsupported file(?: type)?|unknown suffix|invalid file name)\b\W*([\w./-]+\.[A-Za-z]\w*)`)

// otherExtension: the command's program refused a file by its name, where an earlier run
// of the same program took a file with another extension: the file refused, the one
// taken and its line ("" when not so).
func (ss *session) otherExtension(rec loop.CommandRecord, output string) (bad, good string, at int) {
	prog := programOf(rec.Command)
	type taken struct {
		file string
		line int
	}
	var took []taken // files with an extension that earlier runs of the program took
	for _, c := range ss.res.Commands {
		if c.ExitCode != 0 || c.Line >= rec.Line || programOf(c.Command) != prog {
			continue
		}
		for _, w := range strings.Fields(c.Command)[1:] {
			if !strings.HasPrefix(w, "-") && reWordExt.MatchString(path.Ext(w)) {
				took = append(took, taken{w, c.Line})
			}
		}
	}
	tookExt := func(e string) bool {
		return slices.ContainsFunc(took, func(t taken) bool { return path.Ext(t.file) == e })
	}
	if m := reBadFileArg.FindStringSubmatch(output); m != nil && refersTo(rec.Command, m[1]) {
		bad = m[1]
	} else if reUnknownType.MatchString(output) {
		// "kcpolymgr: DB::open failed: : 2: invalid operation: unknown database type": the
		// one file of the command with an extension no earlier run took
		for _, w := range strings.Fields(rec.Command)[1:] {
			if !strings.HasPrefix(w, "-") && reWordExt.MatchString(path.Ext(w)) && !tookExt(path.Ext(w)) {
				if bad != "" {
					return "", "", 0
				}
				bad = w
			}
		}
	}
	if bad == "" {
		return "", "", 0
	}
	best := -1
	for i, t := range took {
		// the extension closest to the refused one (.kct for .ktc)
		if e := path.Ext(t.file); e != path.Ext(bad) && (best < 0 || levenshtein.ComputeDistance(e, path.Ext(bad)) < levenshtein.ComputeDistance(path.Ext(took[best].file), path.Ext(bad))) {
			best = i
		}
	}
	if best < 0 {
		return "", "", 0
	}
	return bad, took[best].file, took[best].line
}

// reUnknownType: a program that cannot tell what kind of file it was given.
var reUnknownType = regexp.MustCompile(`(?i)unknown (?:database |file |archive |image )?(?:type|format|extension)\b|unsupported (?:file )?(?:type|format|extension)\b|unrecognized (?:file )?format\b`)

// reWordExt: a file name extension of letters and digits (.icn, .c).
var reWordExt = regexp.MustCompile(`^\.[A-Za-z]\w{0,5}$`)

// reArgsRejected: a program refusing the arguments of its command line (lnav 0.11's "The
// following arguments were not expected: list piper").
var reArgsRejected = regexp.MustCompile(`(?i)invalid command-line arguments|arguments? (?:was|were) not expected|unrecognized (?:option|argument|arguments|command)|unknown (?:option|command|subcommand)|invalid choice`)

// reOverwrite: a redirection that replaces a file's content (`> x.patch`, not `>> x`).
var reOverwrite = regexp.MustCompile(`(?:^|[^<>&\d])>\s*([\w.~/-]*[\w-]\.[A-Za-z]\w*)(?:\s|$)`)

// writer is a step that replaced a file's content with its output.
type writer struct {
	line int
	cmd  string
}

// overwritten: a file the command reads was replaced by a later step's output, where an
// earlier step had written it with another command: what the file holds now, and the
// fix ("" when no file the command names was written twice).
func (ss *session) overwritten(cmd string) (hint, fix string) {
	for _, tok := range strings.Fields(cmd) {
		tok = strings.Trim(strings.TrimLeft(tok, "<"), `"'`)
		if tok == "" || strings.HasPrefix(tok, "-") {
			continue
		}
		ws := ss.overwrites[ss.abs(tok)]
		if len(ws) < 2 {
			continue
		}
		last, first := ws[len(ws)-1], ws[len(ws)-2]
		if strings.TrimSpace(last.cmd) == strings.TrimSpace(first.cmd) {
			continue
		}
		hint = fmt.Sprintf("`%s` holds what line %d (`%s`) wrote: it replaced what line %d (`%s`) had written there, which this step needs", tok, last.line, firstLine(last.cmd), first.line, firstLine(first.cmd))
		fix = fmt.Sprintf("have line %d write to a file of its own instead of `%s` (and read that one where it is meant), so that `%s` keeps what line %d wrote", last.line, tok, tok, first.line)
		return hint, fix
	}
	return "", ""
}

var reRelRedirect = regexp.MustCompile(`(?:^|[^<>&\d])>>?\s*([\w.-]+(?:/[\w.-]+)*\.[A-Za-z]\w*)(?:\s|$)`)

var reRedirectTarget = regexp.MustCompile(`(?:^|[^<>&\d])>>?\s*((?:~/|/|\$HOME/)[\w./-]+)`)

// madeFiles: the files the tutorial wrote, from its blocks and, named from the home
// folder or the root, by the redirections of its commands that worked.
// namedPaths are the paths from the home or the root (not under /usr, /etc or /dev) that
// commands which worked name as arguments: where a program may have written its output
// (`mksquashfs ~/Pictures/x ~/archive/x.sqsh`).
func (ss *session) namedPaths() []string {
	var out []string
	for _, c := range ss.res.Commands {
		if c.ExitCode != 0 || c.TimedOut {
			continue
		}
		for _, w := range strings.Fields(c.Command) {
			w = strings.Trim(w, `"'`)
			if !strings.HasPrefix(w, "~/") && !strings.HasPrefix(w, "$HOME/") && !strings.HasPrefix(w, "/home/") && !strings.HasPrefix(w, "/tmp/") || strings.ContainsAny(w, "*?$`<>|;&()") && !strings.HasPrefix(w, "$HOME/") {
				continue
			}
			if p := ss.abs(strings.Replace(w, "$HOME/", "~/", 1)); !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

func (ss *session) madeFiles() []string {
	out := slices.Collect(maps.Keys(ss.written))
	for _, p := range ss.made {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, c := range ss.res.Commands {
		if c.ExitCode != 0 || c.TimedOut {
			continue
		}
		for _, m := range reRedirectTarget.FindAllStringSubmatch(c.Command, -1) {
			if p := ss.abs(strings.Replace(m[1], "$HOME/", "~/", 1)); !strings.HasPrefix(p, "/dev/") && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// reVersionedPath: an absolute path in a command (after -I, -L or on its own) with a
// version in a name (/usr/include/python3.10, /usr/lib/jvm/java-11-openjdk-amd64).
var reVersionedPath = regexp.MustCompile(`(?:^|[\s=]|-[IL])(/[\w./+-]*?\d+(?:\.\d+)+[\w./+-]*)`)

// reVersionNumber: a version in a name (3.10, 11.0.2).
var reVersionNumber = regexp.MustCompile(`\d+(?:\.\d+)+`)

// otherVersionPath: a versioned path the command names that does not exist, and the one
// path with another version in its place that does ("" when none, or several).
func (ss *session) otherVersionPath(ctx context.Context, cmd string) (string, string) {
	for _, m := range reVersionedPath.FindAllStringSubmatch(cmd, 3) {
		p := strings.TrimRight(m[1], "/")
		glob := reVersionNumber.ReplaceAllString(p, "*")
		r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "[ ! -e " + shellQuote(p) + " ] && ls -d " + glob + " 2>/dev/null", Timeout: 10 * time.Second, User: ss.user})
		if err != nil || r.ExitCode != 0 {
			continue
		}
		if have := strings.Fields(r.Stdout); len(have) == 1 && have[0] != p {
			return p, have[0]
		}
	}
	return "", ""
}

// rePathStep: a command that puts folders on PATH (fish_add_path, an export of PATH).
var rePathStep = regexp.MustCompile(`^(?:fish_add_path\b|(?:export\s+)?PATH=|set\s+-[a-zA-Z]*x[a-zA-Z]*\s+PATH\b)`)

// failedPathStep: a step that was to put a folder on PATH failed, and the program name is
// now in that folder: the root of that failure.
func (ss *session) failedPathStep(ctx context.Context, name string) (int, bool) {
	for r, rt := range ss.roots {
		if rt.finding < 0 {
			continue
		}
		cmd := strings.TrimSpace(ss.res.Findings[rt.finding].Command)
		if !rePathStep.MatchString(cmd) {
			continue
		}
		for _, d := range strings.FieldsFunc(cmd, func(c rune) bool { return c == ' ' || c == ':' || c == '=' || c == '"' || c == '\'' }) {
			if !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~/") && !strings.HasPrefix(d, "$HOME/") {
				continue
			}
			p := ss.abs(strings.Replace(d, "$HOME/", "~/", 1)) + "/" + name
			if ok, _ := ss.exists(ctx, p); ok {
				return r, true
			}
		}
	}
	return 0, false
}

// reRCExport: a command that appends an export to a shell's start-up file, for the shells
// started later (`echo 'export M4PATH="$HOME/m4-site/partials"' >> ~/.bashrc`); reSourceRC,
// one that reads such a file into the current shell.
var (
	reRCExport = regexp.MustCompile(`^(?:echo|printf)\s+(?:-e\s+)?['"](export\s+(\w+)=[^'"\n]*(?:"[^"\n]*")?[^'"\n]*)['"]\s*>>\s*(?:~|\$HOME)/\.(?:bashrc|profile|bash_profile|zshrc)\s*$`)
	reSourceRC = regexp.MustCompile(`(?:^|[;&|]\s*)(?:source|\.)\s+(?:~|\$HOME)/\.(?:bashrc|profile|bash_profile|zshrc)\b|\bexec\s+(?:bash|zsh|"\$SHELL"|\$SHELL)\b`)
)

// unreadExport: a variable an earlier step only added to a start-up file (no step read
// the file or started a new shell since), which is not set in the session, and which the
// failure concerns: the failing program is named after it (M4PATH for m4), or a file the
// error misses is in one of its folders. The variable and the step's line.
func (ss *session) unreadExport(ctx context.Context, rec loop.CommandRecord, output string) (string, string, int) {
	var name, export string
	var at int
	for _, c := range ss.res.Commands {
		if c.Line >= rec.Line || c.ExitCode != 0 {
			continue
		}
		if m := reRCExport.FindStringSubmatch(strings.TrimSpace(c.Command)); m != nil {
			name, export, at = m[2], m[1], c.Line
		} else if reSourceRC.MatchString(c.Command) && name != "" {
			name = ""
		}
	}
	if name == "" {
		return "", "", 0
	}
	if ss.exported(ctx, name) {
		return "", "", 0 // set after all
	}
	if prog := strings.ToUpper(path.Base(firstWord(rec.Command))); len(prog) >= 2 && strings.HasPrefix(name, prog) {
		return name, export, at
	}
	value := strings.TrimPrefix(export, "export "+name+"=")
	for _, m := range reQuotedFile.FindAllStringSubmatch(output, -1) {
		for _, d := range strings.Split(strings.Trim(value, `"'`), ":") {
			d = strings.Replace(strings.Replace(d, "$HOME", "~", 1), "${HOME}", "~", 1)
			if ok, _ := ss.exists(ctx, ss.abs(path.Join(d, path.Base(m[1])))); ok && d != "" {
				return name, export, at
			}
		}
	}
	return "", "", 0
}

// reEnvLookup: a program that looked an environment variable up and did not find it
// (Python's os.environ["X"] raising KeyError: 'X', Ruby's ENV.fetch("X") raising
// `key not found: "X"`).
var reEnvLookup = regexp.MustCompile(`(?s)(?:os\.environ\[["'](\w+)["']\].*KeyError: '(\w+)'|ENV\.fetch\(["'](\w+)["']\).*key not found: "(\w+)")`)

// unsetEnvRead is the environment variable the failed program looked up, when it is not
// set in the reader's shell ("" when not so).
func (ss *session) unsetEnvRead(ctx context.Context, output string) string {
	m := reEnvLookup.FindStringSubmatch(output)
	if m == nil || m[1] != m[2] || m[3] != m[4] {
		return ""
	}
	name := m[1] + m[3]
	if ss.exported(ctx, name) {
		return ""
	}
	return name
}

// reShellOpen: the shell could not open a file named in a redirection.
var reShellOpen = regexp.MustCompile(`(?m)^(?:ba|z|da)?sh: (?:line \d+: )?([^:\s]+): (?:No such file or directory|Permission denied|Is a directory)$`)

// redirectFailed: the shell could not open a file the command redirects into, so the
// program did not run.
func redirectFailed(cmd, output string) bool {
	for _, m := range reShellOpen.FindAllStringSubmatch(output, 3) {
		if regexp.MustCompile(`>>?\s*` + regexp.QuoteMeta(m[1]) + `(?:\s|$)`).MatchString(cmd) {
			return true
		}
	}
	return false
}

// missesOwnOutput: what the command could not find is the file it was to write, its
// redirection or the value of its output option (HTTPie's `--output exports/items.json`:
// "can't open 'exports/items.json': [Errno 2] No such file or directory"), whose folder
// is missing: no earlier step was to make that file.
func missesOwnOutput(cmd, output string) bool {
	if redirectFailed(cmd, output) {
		return true
	}
	fields := strings.Fields(cmd)
	for k, f := range fields {
		name, value, ok := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if !strings.HasPrefix(f, "-") || !outputOption[name] {
			continue
		}
		if !ok && k+1 < len(fields) {
			value = fields[k+1]
		}
		if value = strings.Trim(value, `"'`); strings.Contains(value, "/") && namesFile(output, path.Base(value)) {
			return true
		}
	}
	return false
}

// reMissingName: a path at the start of a "No such file" line, or quoted in it.
var reMissingName = regexp.MustCompile(`(?m)^(?:\S+: )?([\w./~-]+\.\w+): No such file or directory|['‘"]([\w./~-]+\.\w+)['’"]: No such file`)

// derivedFromFailed is the root of a failed step one of whose input files, with an
// extension added, is the file this output misses (`x.tar.gz.minisig`, `x.txt.asc`,
// `x.tar.gz`): what that step was to write.
func (ss *session) derivedFromFailed(output string) (int, bool) {
	var names []string
	for _, m := range reMissingName.FindAllStringSubmatch(output, 3) {
		names = append(names, path.Base(m[1]+m[2]))
	}
	for _, m := range reMissingNamed.FindAllStringSubmatch(output, 3) {
		names = append(names, m[1])
	}
	for _, missing := range names {
		for i, rt := range ss.roots {
			if rt.finding < 0 {
				continue
			}
			for _, a := range tail1(strings.Fields(ss.res.Findings[rt.finding].Command)) {
				if a = path.Base(strings.Trim(a, `"'`)); !strings.HasPrefix(a, "-") && looksLikePath(a) && strings.HasPrefix(missing, a+".") && !strings.Contains(missing[len(a)+1:], ".") {
					return i, true
				}
				if stem := strings.TrimSuffix(a, path.Ext(a)); reWordExt.MatchString(path.Ext(a)) && len(stem) >= 1 && missing != a && strings.TrimSuffix(missing, path.Ext(missing)) == stem {
					// textutil.u1 after `icont -c textutil.icon` failed, foo.o after `gcc -c
					// foo.c`: what that step was to translate it into
					return i, true
				}
				if reBareName.MatchString(a) && len(a) >= 4 && strings.HasPrefix(missing, a+"_") && path.Ext(missing) != "" {
					// lab-tools_1.0_all.deb after `equivs-build lab-tools` failed: the
					// package that build was to make
					return i, true
				}
			}
		}
	}
	return 0, false
}

// reEnvName: an environment variable's name written in code in the prose.
// (OPENSCADPATH and PYTHONPATH have no underscore, but end in a word such variables do)
var reEnvName = regexp.MustCompile("`\\$?([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z][A-Z0-9]{2,}(?:PATH|HOME|DIR|ROOT|CONFIG|LIB))`")

// unsetProseVariable: the failed program could not find a path, and the prose in the
// sixty lines above names, in code, an environment variable of that program (its name
// starts with the program's) that is not set in the reader's shell: the variable and
// the line naming it ("", 0 when not so).
func (ss *session) unsetProseVariable(ctx context.Context, rec loop.CommandRecord, output string) (string, int) {
	prog := strings.ToUpper(path.Base(programOf(rec.Command)))
	if !reNotThere.MatchString(output) || ss.task.Tutorial == nil || len(prog) < 3 {
		return "", 0
	}
	for ln := rec.Line - 1; ln >= max(1, rec.Line-60); ln-- {
		for _, m := range reEnvName.FindAllStringSubmatch(ss.task.Tutorial.Map.Line(ln), -1) {
			if !strings.HasPrefix(m[1], prog+"_") && !(strings.HasPrefix(m[1], prog) && !strings.Contains(m[1], "_")) || strings.Contains(rec.Command, m[1]) {
				continue
			}
			if !ss.exported(ctx, m[1]) {
				return m[1], ln
			}
		}
	}
	return "", 0
}

// proseVariableUnset: unsetProseVariable finds a variable (the name a program could not
// find is then one it looks up through that variable, not a misspelling).
func (ss *session) proseVariableUnset(ctx context.Context, rec loop.CommandRecord, output string) bool {
	name, _ := ss.unsetProseVariable(ctx, rec, output)
	return name != ""
}

// reVarWord: a word of a command that expands a variable ("$EASYRSA_PKI/ca.crt").
var reVarWord = regexp.MustCompile(`"?[^\s"']*\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?[^\s"']*"?`)

// shellVars are variables every login shell has, or sets itself.
var shellVars = map[string]bool{"HOME": true, "PATH": true, "USER": true, "PWD": true, "OLDPWD": true, "SHELL": true, "LOGNAME": true, "HOSTNAME": true, "RANDOM": true, "UID": true, "LANG": true, "TERM": true}

// unsetVariable: a word of the failed command names a variable no step set, so the path
// it was to make became another (`"$EASYRSA_PKI/ca.crt"` is `/ca.crt`), and the error
// names that path: the variable, the word and what it became ("" when not so).
func (ss *session) unsetVariable(ctx context.Context, cmd, output string) (name, word, became string) {
	if !reNotThere.MatchString(output) {
		return "", "", ""
	}
	for _, m := range reVarWord.FindAllStringSubmatchIndex(cmd, 4) {
		n, w := cmd[m[2]:m[3]], cmd[m[0]:m[1]]
		if shellVars[n] || strings.Count(cmd[:m[0]], "'")%2 == 1 {
			continue // (not inside single quotes: awk's '$1')
		}
		empty := strings.Trim(strings.NewReplacer("${"+n+"}", "", "$"+n, "").Replace(w), `"`)
		if empty == "" && !reEmptyQuoted.MatchString(output) || empty != "" && !strings.Contains(output, empty) {
			// (`mkdir -p "$PIKE_MODULE_PATH"`: "cannot create directory ‘’")
			continue
		}
		if r, err := ss.task.Sandbox.Exec(ctx, ss.request(`[ -z "${`+n+`+x}" ]`, false, 10*time.Second)); err != nil || r.ExitCode != 0 {
			continue // set (maybe to an empty value, which the tutorial chose)
		}
		return n, strings.Trim(w, `"`), empty
	}
	return "", "", ""
}

// usesEmptied: the command expands a variable whose being unset an earlier gap found, and
// it is still unset: that gap's root.
// A program reads a variable named after it too (pike and PIKE_MODULE_PATH: `pike
// report.pike` cannot import the module that was never put in place).
func (ss *session) usesEmptied(ctx context.Context, cmd string) (int, bool) {
	var names []string
	for _, m := range reVarWord.FindAllStringSubmatch(cmd, 4) {
		names = append(names, m[1])
	}
	if prog := strings.ToUpper(path.Base(programOf(cmd))); len(prog) >= 3 {
		for n := range ss.emptyVars {
			if strings.HasPrefix(n, prog+"_") {
				names = append(names, n)
			}
		}
	}
	for _, n := range names {
		if r, ok := ss.emptyVars[n]; ok {
			if x, err := ss.task.Sandbox.Exec(ctx, ss.request(`[ -z "${`+n+`+x}" ]`, false, 10*time.Second)); err == nil && x.ExitCode == 0 {
				return r, true
			}
		}
	}
	return 0, false
}

// reExportFrom: `export A="$B"`, a variable exported with another's value.
var reExportFrom = regexp.MustCompile(`^export\s+(\w+)="?\$\{?(\w+)\}?"?$`)

// exportedEmpty: a step of the failed command's block, before it, exported a variable
// from another that was not set, and that a later step sets: that step, the variable,
// the one it came from, and the later step (nil when not so).
func (ss *session) exportedEmpty(ctx context.Context, st step, rec loop.CommandRecord) (at *step, name, from string, set *step) {
	for j := range ss.steps {
		s := &ss.steps[j]
		if s.kind != runStep || s.command == nil || s.block.StartLine != st.block.StartLine || s.line >= rec.Line {
			continue
		}
		m := reExportFrom.FindStringSubmatch(strings.TrimSpace(s.command.Text))
		if m == nil || shellVars[m[2]] {
			continue
		}
		later := ss.laterSetting(rec.Line, m[2])
		if later == nil {
			continue
		}
		if r, err := ss.task.Sandbox.Exec(ctx, ss.request(`[ -z "${`+m[2]+`+x}" ]`, false, 10*time.Second)); err != nil || r.ExitCode != 0 {
			continue
		}
		return s, m[1], m[2], later
	}
	return nil, "", "", nil
}

// reEmptyQuoted: an error naming an empty word, as a variable with no value leaves it
// (GNU mkdir: "cannot create directory ‘’").
var reEmptyQuoted = regexp.MustCompile(`‘’|''|""|“”`)

// expandsTo says what the word of a command became with its variable unset.
func expandsTo(word, became string) string {
	if became == "" {
		return fmt.Sprintf("`%s` expands to nothing", word)
	}
	return fmt.Sprintf("`%s` becomes `%s`", word, became)
}

// laterSetting is the first step after line, followed or not, that sets or exports the
// variable name (nil when none does).
func (ss *session) laterSetting(line int, name string) *step {
	re := regexp.MustCompile(`(?:^|[\s;&|])(?:export\s+)?` + regexp.QuoteMeta(name) + `=`)
	for j := range ss.steps {
		if s := &ss.steps[j]; s.line > line && s.command != nil && re.MatchString(s.command.Text) {
			return s
		}
	}
	return nil
}

// exported: the reader's shell passes the environment variable name to the programs it
// runs (true too when the check itself fails: nothing to report then).
func (ss *session) exported(ctx context.Context, name string) bool {
	r, err := ss.task.Sandbox.Exec(ctx, ss.request("printenv "+name, false, 10*time.Second))
	return err != nil || r.ExitCode == 0
}

// recordBefore is the record of the command run before the one being judged (whose
// record is the last), nil when there is none.
func (ss *session) recordBefore() *loop.CommandRecord {
	if n := len(ss.res.Commands); n >= 2 {
		return &ss.res.Commands[n-2]
	}
	return nil
}

// reLocalFetch: apt failing to read a repository on the disk ("E: Failed to fetch
// file:/home/learner/repo/dists/bookworm/main/binary-amd64/Packages  File not found",
// "The repository 'file:/home/learner/repo bookworm Release' does not have a Release
// file"): the repository's folder and the distribution the source line names.
var reLocalFetch = regexp.MustCompile(`file:(/[^\s']+?)/dists/([\w.-]+)/|'file:(/[^\s']+?)/? ([\w.-]+) Release'`)

// localAptSource: apt could not read a `file:` repository the tutorial made, because its
// source line names a distribution the repository's dists/ folder does not have.
func (ss *session) localAptSource(ctx context.Context, rec loop.CommandRecord, output string) (loop.Finding, bool) {
	m := reLocalFetch.FindStringSubmatch(output)
	if m == nil || !strings.Contains(rec.Command, "apt") {
		return loop.Finding{}, false
	}
	root, suite := m[1]+m[3], m[2]+m[4]
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "ls -1 " + shellQuote(root+"/dists"), Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return loop.Finding{}, false // no dists/ at all: an earlier step did not export it
	}
	served := strings.Fields(r.Stdout)
	if len(served) == 0 || slices.Contains(served, suite) {
		return loop.Finding{}, false
	}
	f := loop.Finding{
		Problem: fmt.Sprintf("`%s` cannot read the tutorial's own repository: its apt source line names the distribution `%s`, but %s/dists has only %s (“%s”)",
			firstLine(rec.Command), suite, sameHome(root), "`"+strings.Join(served, "`, `")+"`", keyLineOf(output, m[0])),
		Fix:      fmt.Sprintf("write `%s` instead of `%s` in the apt source line", served[0], suite),
		Category: "command failure",
	}
	for i := len(ss.res.Commands) - 1; i >= 0; i-- {
		c := ss.res.Commands[i]
		if strings.Contains(c.Command, "deb ") && strings.Contains(c.Command, " "+suite+" ") {
			f.Fix = fmt.Sprintf("write `%s` instead of `%s` in the apt source line at line %d", served[0], suite, c.Line)
			if with := strings.Replace(c.Command, " "+suite+" ", " "+served[0]+" ", 1); len(served) == 1 {
				f.Fix += fmt.Sprintf(" (`%s`)", firstLine(with))
			}
			break
		}
	}
	return f, true
}

// wroteNamed: the tutorial wrote a file of that name, somewhere.
func (ss *session) wroteNamed(name string) bool {
	for p := range ss.written {
		if path.Base(p) == name {
			return true
		}
	}
	return false
}

// reSingleQuotedVar: a shell variable inside single quotes in a command.
var reSingleQuotedVar = regexp.MustCompile(`'[^'\n]*?(\$\{?[A-Za-z_]\w*\}?)[^'\n]*'`)

// singleQuotedVar is a `$VAR` the command has inside single quotes and the program's
// error quotes as written: the shell never put its value in ("" when not so).
func singleQuotedVar(cmd, output string) string {
	for _, m := range reSingleQuotedVar.FindAllStringSubmatch(cmd, -1) {
		if !strings.Contains(output, m[1]) || strings.Contains(cmd, "awk") || strings.Contains(cmd, "sh -c") || strings.Contains(cmd, "perl") {
			continue
		}
		// (not a runner echoing the command it runs in a shell of its own: hyperfine's
		// "Benchmark 1: gzip -1 -c "$LOG" > /dev/null")
		said := keyLineOf(output, m[1])
		if strings.Contains(said, m[0][1:len(m[0])-1]) {
			continue // the quoted text as written: the command echoed
		}
		others := 0
		line := reHelpWord.FindAllString(said, -1)
		for _, w := range reHelpWord.FindAllString(strings.Replace(m[0], m[1], " ", 1), -1) {
			if slices.Contains(line, w) {
				others++
			}
		}
		if others < 2 {
			return m[1]
		}
	}
	return ""
}

// doubleQuoted is cmd with the single-quoted argument holding v in double quotes.
func doubleQuoted(cmd, v string) string {
	return reSingleQuotedVar.ReplaceAllStringFunc(cmd, func(q string) string {
		if !strings.Contains(q, v) || strings.Contains(q, `"`) {
			return q
		}
		return `"` + q[1:len(q)-1] + `"`
	})
}

// reUnknownValue: a program refusing a name given to one of its options ("Unknown filter
// 'simplfy,count=6'", "unknown format: jsno", "invalid output format 'yml'").
var reUnknownValue = regexp.MustCompile(`(?i)\b(?:unknown|invalid|unsupported|unrecognized) (?:output |input )?(filter|format|file type|type|module|codec|encoder|style|theme|mode|method|target|plugin|lexer|language)\b:?\s*["'‘“]?([A-Za-z][\w-]{2,})`)

// misspeltValue: the program refuses a name given on its command line, and its help
// lists exactly one name two edits or fewer from it: the misspelt name, the one meant and
// what kind of name it is.
func (ss *session) misspeltValue(ctx context.Context, rec loop.CommandRecord, output string) (string, string, string) {
	m := reUnknownValue.FindStringSubmatch(output)
	prog := programOf(rec.Command)
	if m == nil || !strings.Contains(rec.Command, m[2]) || !reDebianName.MatchString(path.Base(prog)) {
		return "", "", ""
	}
	help, ok := ss.programHelp(ctx, []string{prog})
	if !ok {
		return "", "", ""
	}
	words := map[string]bool{}
	for _, w := range reHelpWord.FindAllString(help, -1) {
		if w = strings.ToLower(w); len(w) >= 4 {
			words[w] = true
		}
	}
	if words[strings.ToLower(m[2])] {
		return "", "", "" // a name it lists: refused for some other reason
	}
	if right := onlyNear(words, m[2], 2); right != "" && levenshtein.ComputeDistance(right, m[2]) <= len(m[2])/3 {
		return m[2], right, strings.ToLower(m[1])
	}
	return "", "", ""
}

// reHelpWord: a word of a program's help text.
var reHelpWord = regexp.MustCompile(`[A-Za-z][\w-]*`)

// reNoDevice: a program finding no hardware device to talk to.
var reNoDevice = regexp.MustCompile(`(?im)^.*\b(?:(?:found )?no [\w -]{0,30}(?:usb|serial|bluetooth|midi|audio|sound|video|camera|scanner|printer|garmin|gps)[\w ]{0,20}devices?(?: (?:found|detected|connected|available))?|no (?:usb|serial) devices? (?:found|detected)|cannot open (?:usb|serial) (?:device|port)|/dev/tty(?:USB|ACM)\d+: No such file or directory)\b.*$`)

// namesStem: cmd names a file whose name without its extension is stem
// (`-F export/ridge-loop.kml` for ridge-loop).
func namesStem(cmd, stem string) bool {
	for _, f := range strings.Fields(cmd) {
		f = strings.Trim(f, `"'`)
		if b := path.Base(f); looksLikePath(f) && strings.TrimSuffix(b, path.Ext(b)) == stem {
			return true
		}
	}
	return false
}

// reNeedsNewer: a program saying the input asks for a newer version of it than the one
// running (POV-Ray 3.7: "Your scene file requires POV-Ray version 3.8 or later!").
var reNeedsNewer = regexp.MustCompile(`(?i)\brequires?\s+(?:[\w.-]+\s+)?(?:version\s+)?v?(\d+\.\d+(?:\.\d+)*)\s+or\s+(?:later|newer|higher|above)\b`)

// needsNewer: the failed command's program says the input needs a newer version than the
// one installed: that version, and the installed one ("" when not so, or when the
// installed version is not older). (olderVersion, for a refused option, can only say
// that Debian's may be older; here the input names the version it needs.)
func (ss *session) needsNewer(ctx context.Context, rec loop.CommandRecord, output string) (want, have string) {
	m := reNeedsNewer.FindStringSubmatch(output)
	prog := programOf(rec.Command)
	if m == nil || prog == "" || strings.Contains(prog, "/") {
		return "", ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: shellQuote(prog) + " --version 2>&1 | head -n 5", Timeout: 10 * time.Second, User: ss.user})
	if err != nil {
		return "", ""
	}
	for _, v := range reVersionNumber.FindAllString(r.Stdout, -1) {
		if len(v) > len(have) {
			have = v // POV-Ray's 3.7.0.10, not the 3.7 of a path before it
		}
	}
	if have == "" || !versionBefore(have, m[1]) {
		return "", ""
	}
	return m[1], have
}

// versionBefore: dotted version a is older than b, by their numbers in turn.
func versionBefore(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for k := 0; k < len(as) && k < len(bs); k++ {
		x, _ := strconv.Atoi(as[k])
		y, _ := strconv.Atoi(bs[k])
		if x != y {
			return x < y
		}
	}
	return false
}

// stepsName: a command the tutorial runs, or a file it writes (its path or content),
// holds s.
func (ss *session) stepsName(s string) bool {
	for _, st := range ss.steps {
		if st.command != nil && strings.Contains(st.command.Text, s) || st.kind == fileStep && strings.Contains(st.file+"\n"+st.content, s) {
			return true
		}
	}
	return false
}

// swappedArgs: the failed command misses one of its arguments while another, in the
// order the program wants them, would have worked: the two are in the wrong order.
// It is said so only with a sign of the order meant: an earlier run of the same program
// that worked had an existing file after a word that is not one (`xmlto man page.xml`
// before `xmlto page.xml html`), or the missing one is what this step makes, since later
// steps read it and none before wrote it (`xxd -r out.bin dump.hex`, then `cmp … out.bin`).
// It returns the command with the two swapped and why ("" when not so).
func (ss *session) swappedArgs(ctx context.Context, rec loop.CommandRecord, output string) (fixed, why string) {
	cmd := strings.TrimSpace(rec.Command)
	if !reNotThere.MatchString(output) || strings.ContainsAny(cmd, "\n;&|<>$`\"'(){}*?") {
		return "", ""
	}
	words := strings.Fields(cmd)
	if len(words) < 3 || noSwapPrograms[words[0]] {
		return "", ""
	}
	var pos []int // the words that are not options
	for i := 1; i < len(words); i++ {
		if !strings.HasPrefix(words[i], "-") {
			pos = append(pos, i)
		}
	}
	for k := 0; k+1 < len(pos); k++ {
		a, b := words[pos[k]], words[pos[k+1]]
		if pos[k+1] != pos[k]+1 || strings.Count(cmd, a) != 1 || strings.Count(cmd, b) != 1 || a == b {
			continue // (two words side by side)
		}
		swapped := slices.Clone(words)
		swapped[pos[k]], swapped[pos[k+1]] = b, a
		fixed = strings.Join(swapped, " ")
		// the earlier form: the program with a non-file word, then the file that is first here
		if ok, _ := ss.exists(ctx, ss.abs(a)); ok && namesArg(output, b) {
			if ok, _ := ss.exists(ctx, ss.abs(b)); ok {
				continue
			}
			for _, c := range ss.res.Commands {
				cw := strings.Fields(strings.TrimSpace(c.Command))
				if c.ExitCode != 0 || c.Line >= rec.Line || len(cw) < 3 || cw[0] != words[0] || cw[len(cw)-1] != a || strings.HasPrefix(cw[len(cw)-2], "-") {
					continue
				}
				if w := cw[len(cw)-2]; !strings.ContainsAny(w, "./") && !strings.ContainsAny(b, "./") {
					return fixed, fmt.Sprintf("the arguments are in the wrong order: `%s` takes the file last, as line %d does (`%s`), so it looked for a file named `%s`", words[0], c.Line, firstLine(c.Command), b)
				}
			}
			continue
		}
		// the output this step makes, named first, and the input it reads, named second
		if ok, _ := ss.exists(ctx, ss.abs(b)); !ok || !namesArg(output, a) || !strings.ContainsAny(a, "./") {
			continue // (a file it makes has a name like one: not `-n file`, an option's value)
		}
		if ok, _ := ss.exists(ctx, ss.abs(a)); ok {
			continue
		}
		var readers []string
		for _, st := range ss.steps {
			if st.kind != runStep || st.command == nil || st.line <= rec.Line {
				continue
			}
			if slices.Contains(strings.Fields(st.command.Text), a) {
				readers = append(readers, fmt.Sprint(st.line))
			}
		}
		if len(readers) > 0 && !ss.namedBefore(a, rec.Line) {
			return fixed, fmt.Sprintf("the two file arguments are in the wrong order: `%s` is what this step makes (line %s reads it, and no step before writes it) and `%s`, which exists, is what it reads", a, strings.Join(readers, " and "), b)
		}
	}
	return "", ""
}

// noSwapPrograms: programs whose missing first argument is a file the tutorial forgot, not
// a swap (`cp notes.txt backup/`).
var noSwapPrograms = map[string]bool{"cp": true, "mv": true, "ln": true, "rsync": true, "scp": true, "install": true, "cat": true, "diff": true, "cmp": true, "sudo": true}

// namedBefore: a step before line writes name as a file or names it in a command.
func (ss *session) namedBefore(name string, line int) bool {
	for _, st := range ss.steps {
		if st.line >= line {
			break
		}
		if st.kind == fileStep && path.Base(st.file) == path.Base(name) || st.kind == runStep && st.command != nil && strings.Contains(st.command.Text, name) {
			return true
		}
	}
	return false
}

// caseOnly: what to add when two names of a file differ only in case.
func caseOnly(a, b string) string {
	if a != b && strings.EqualFold(a, b) {
		return ", which differ only in case (Linux file names are case-sensitive)"
	}
	return ""
}

// functionDefined is the line of a step before line that defines the shell function name
// in the reader's shell (`mdc() { … }`, `function mdc {`), 0 when none does.
func (ss *session) functionDefined(name string, line int) int {
	if !reBareName.MatchString(name) {
		return 0
	}
	re := regexp.MustCompile(`(?m)^\s*(?:function\s+` + regexp.QuoteMeta(name) + `\b|` + regexp.QuoteMeta(name) + `\s*\(\s*\)\s*(?:\{|$))`)
	at := 0
	for _, st := range ss.steps {
		if st.line >= line {
			break
		}
		if st.kind == runStep && st.command != nil && re.MatchString(st.command.Text) {
			at = st.line
		}
	}
	return at
}

// reCrontabInstall: a command that installs a crontab from a file or standard input
// (`… | crontab -`, `crontab jobs.txt`), not one that lists, edits or removes it.
var reCrontabInstall = regexp.MustCompile(`(?:^|[|;&(]\s*)crontab\s+(?:-u\s+\S+\s+)?(?:-|[^-\s]\S*)\s*$`)

// failedCrontabInstall: rec reads or removes a crontab that is not there ("no crontab for
// learner") after a step that was to install one failed: that step's root.
func (ss *session) failedCrontabInstall(rec loop.CommandRecord) (int, bool) {
	if firstWord(rec.Command) != "crontab" || !strings.Contains(rec.Output, "no crontab for") {
		return 0, false
	}
	for k := len(ss.roots) - 1; k >= 0; k-- {
		for _, c := range ss.res.Commands {
			if c.Line == ss.roots[k].line && c.ExitCode != 0 && reCrontabInstall.MatchString(strings.TrimSpace(c.Command)) {
				return k, true
			}
		}
	}
	return 0, false
}

// reGroupJoin: a command that adds a user to a supplementary group (shadow's usermod -aG,
// Debian's adduser USER GROUP, gpasswd -a USER GROUP): the group's name.
var reGroupJoin = regexp.MustCompile(`(?:^|[\s;&|])(?:usermod\s+(?:-a\s+-G|-aG|-Ga|--append\s+--groups|-G)\s+([\w-]+)|adduser\s+\S+\s+([\w-]+)\s*$|gpasswd\s+-a\s+\S+\s+([\w-]+))`)

// groupJoinedFor: dir can be written by a group that a step before line added the reader
// to: the group and that step's line (0 when not so).
func (ss *session) groupJoinedFor(ctx context.Context, dir string, line int) (string, int) {
	group, at := "", 0
	for _, c := range ss.res.Commands {
		if m := reGroupJoin.FindStringSubmatch(c.Command); m != nil && c.ExitCode == 0 && c.Line < line {
			group, at = m[1]+m[2]+m[3], c.Line
		}
	}
	if at == 0 || ss.task.Sandbox == nil {
		return "", 0
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "stat -c '%G %A' -- " + shellQuote(dir), Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", 0
	}
	if f := strings.Fields(r.Stdout); len(f) == 2 && f[0] == group && len(f[1]) > 5 && f[1][5] == 'w' {
		return group, at
	}
	return "", 0
}

// reQuotedTildeArg: an argument that starts with `~/` inside quotes ("~/lab-www").
var reQuotedTildeArg = regexp.MustCompile(`(["'])~/([^"'\s]*)["']`)

// quotedTildeArg is the first word of cmd that is a `~/` path in quotes, as the shell
// reads it (not one inside another quoted argument, as in `python3 -c
// '…expanduser("~/x")…'`, where the program expands it): the match and its groups, nil
// when there is none.
func quotedTildeArg(cmd string) []string {
	for _, ix := range reQuotedTildeArg.FindAllStringSubmatchIndex(cmd, -1) {
		before := ix[0] == 0 || strings.ContainsRune(" \t", rune(cmd[ix[0]-1]))
		after := ix[1] == len(cmd) || strings.ContainsRune(" \t;|&)", rune(cmd[ix[1]]))
		if before && after && !inSingleQuotes(cmd, ix[0]) && strings.Count(cmd[:ix[0]], `"`)%2 == 0 {
			return []string{cmd[ix[0]:ix[1]], cmd[ix[2]:ix[3]], cmd[ix[4]:ix[5]]}
		}
	}
	return nil
}

// reBSDSedInPlace: sed's in-place option with BSD's separate, empty backup suffix.
var reBSDSedInPlace = regexp.MustCompile(`(\bsed\s+(?:-[A-Za-hj-z]+\s+)*-i)\s+(?:''|"")`)

// reUnsetName: a shell saying a variable is not set (mksh's "REL_OUT: not set", bash's
// "unbound variable", "parameter null or not set").
var reUnsetName = regexp.MustCompile(`\b([A-Z_][A-Z0-9_]*): (?:not set|unbound variable|parameter (?:null or )?not set)`)

// reNotTherePhrase: the words of the errors that say something is not there, which name
// no file of the command however they read.
var reNotTherePhrase = regexp.MustCompile(`(?i)no such file or directory|not found|does not exist|cannot open|can't open|cannot access`)

// namesArg: the output names w outside the wording of a not-there error ("file" in "No
// such file or directory" is no argument).
func namesArg(output, w string) bool {
	return namesFile(reNotTherePhrase.ReplaceAllString(output, " "), w)
}
