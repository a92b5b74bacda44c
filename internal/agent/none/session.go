package none

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// sessionFile keeps the terminal session between commands inside the container:
// exported variables and shell functions (an activated virtualenv, nvm) and the
// current directory, as one terminal would.
const sessionFile = "/tmp/.smile-session"

// cwdMarker ends the stderr of every command with the directory it ended in.
const cwdMarker = "\x1esmile-cwd="

// prelude restores the session; its EXIT trap saves it and reports the cwd. The saved
// environment leaves out SMILE_EXEC_ID, the sandbox's mark of each command's processes:
// restored, it would give the next command the previous one's mark, and a timeout
// could not find the processes to kill (a server started twice: address in use). sudo is a
// pass-through when the image has none and we are root, so a tutorial written for a
// workstation does not fail on `sudo` alone. The prelude is one line and the command
// starts on that same line, so the shell's "line N" in error messages is the line of
// the tutorial's command, not of this wrapper. A command run as root for the learner's
// sudo gets root's program folders (/usr/sbin) on PATH, and leaves the learner's PATH as
// it was: a Debian user's login PATH has no sbin folder, and sudo does not change that.
var prelude = strings.Join([]string{
	`__smile_s=` + sessionFile,
	`if [ -f "$__smile_s.env" ]; then . "$__smile_s.env" >/dev/null 2>&1; fi`,
	`if [ -f "$__smile_s.cwd" ]; then cd "$(cat "$__smile_s.cwd")" 2>/dev/null || true; fi`,
	// root acting for the learner's sudo has root's programs too (sudo's secure_path);
	// and outside sudo the line is still the learner's: `sudo chown "$(id -un)": dir`
	// names the learner, as the reader's shell expands it before sudo runs (the shell's
	// own functions: a program sudo starts sees root, and the session does not keep them)
	`if [ -n "${__smile_owner:-}" ]; then PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"; ` + asOwner + `; fi`,
	`if ! command -v sudo >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then sudo() { while [ "${1#-}" != "$1" ]; do shift; done; "$@"; }; fi`,
	// a terminal's ~/.bashrc runs whole when sourced; Debian's returns at once in a shell
	// that is not interactive (`case $- in *i*)`), so the session reads it without that guard
	`__smile_bashrc() { if [ -r "$1" ]; then eval "$(sed -e '/^case \$- in/,/^esac/d' -e '/^\[ -z "\$PS1" \] && return/d' "$1")"; else . "$1"; fi; }`,
	// and before the next prompt it runs PROMPT_COMMAND, where hooks live (direnv's loads
	// the folder's .envrc): at the end of each command, in the reader's own shell only
	`__smile_save() { __smile_rc=$?; if [ -n "${PROMPT_COMMAND:-}" ] && [ -z "${__smile_owner:-}" ]; then eval "$PROMPT_COMMAND" >&2; fi; { export -p 2>/dev/null | grep -v -E '^declare -[a-zA-Z]*r[a-zA-Z]* |^declare -x (OLDPWD|PWD|SHLVL|_|SMILE_EXEC_ID'"${__smile_owner:+|PATH}"')='; declare -p PROMPT_COMMAND 2>/dev/null; __smile_vars; { [ -z "${__smile_owner:-}" ] || unset -f id whoami groups logname __smile_named; declare -f; } 2>/dev/null; } > "$__smile_s.env.tmp" && mv -f "$__smile_s.env.tmp" "$__smile_s.env"; pwd > "$__smile_s.cwd" 2>/dev/null; printf '%s\n' "$__smile_rc" > "$__smile_s.rc" 2>/dev/null; printf '\n` + cwdMarker + `%s\n' "$PWD" >&2; __smile_mine; return $__smile_rc; }`,
	// the shell's own variables the tutorial set without export (`LOG=app.log`), which a
	// terminal keeps for the next command: not bash's, not read-only, not the session's
	`__smile_vars() { local v; v=$(comm -23 <(compgen -v | sort -u) <({ compgen -e; readonly -p | sed -n 's/^declare -[a-zA-Z]* \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p'; } | sort -u) | grep -v -E '^(BASH.*|COMP.*|FUNCNAME|GROUPS|PIPESTATUS|DIRSTACK|EPOCH.*|SRANDOM|RANDOM|SECONDS|LINENO|HISTCMD|HOSTTYPE|MACHTYPE|OSTYPE|IFS|OPTIND|OPTERR|OPTARG|PS[0-4]|PROMPT_COMMAND|_|__smile_.*|COLUMNS|LINES|MAILCHECK)$'); [ -z "$v" ] || declare -p $v 2>/dev/null; }`,
	// run as root for the learner's sudo (session.asRoot): the session stays theirs, and
	// what a mixed line made in their folders is theirs
	`__smile_mine() { [ -n "${__smile_owner:-}" ] || return 0; chown "$__smile_owner:" "$__smile_s.env" "$__smile_s.cwd" "$__smile_s.rc" 2>/dev/null; [ -z "${__smile_fix:-}" ] || find ` + loop.WorkMount + ` "$HOME" -xdev -user 0 -cnewer "$__smile_s.stamp" -exec chown -h "$__smile_owner:" {} + 2>/dev/null; return 0; }`,
	`trap __smile_save EXIT`,
}, "; ") + "; "

// asOwner: id, whoami, groups and logname with no user named answer for the learner
// (__smile_owner) in a line run as root for their sudo.
const asOwner = `__smile_named() { local a; for a; do [ "${a#-}" != "$a" ] || return 0; done; return 1; }; ` +
	`id() { if __smile_named "$@"; then command id "$@"; else command id "$@" "$__smile_owner"; fi; }; ` +
	`groups() { if [ $# -gt 0 ]; then command groups "$@"; else command groups "$__smile_owner"; fi; }; ` +
	`whoami() { if [ $# -gt 0 ]; then command whoami "$@"; else printf '%s\n' "$__smile_owner"; fi; }; ` +
	`logname() { printf '%s\n' "$__smile_owner"; }`

// noninteractive: the session runs as a newcomer's terminal would when they accept
// every default: pipelines fail when any part fails, editors and pagers do not wait,
// and standard input is a few dozen empty lines (Enter at each prompt: apt's and npx's
// "continue?", ssh-keygen's file and passphrase, "Press ENTER"), then end of input.
//
// ripgrep (and The Silver Searcher) search standard input instead of the folder when it is
// a pipe: at the reader's terminal it is not (__smile_tty: standard input is still the
// session's, where the reader's terminal would be), so they get /dev/null instead of those
// empty lines (a pipe the tutorial feeds them, `cat x | rg y`, stays theirs). HTTPie 3
// reads standard input as the request body whenever it is not a terminal
// (httpie/cli/argparser.py, has_stdin_data) and refuses that body together with
// `key=value` items: at the reader's terminal it reads nothing, as with --ignore-stdin.
// Last, `$?` is the status of the command before, as in the reader's terminal (`echo
// $?` right after a command the tutorial shows failing).
const noninteractive = `set -o pipefail; export GIT_EDITOR=true EDITOR=true VISUAL=true PAGER=cat GIT_PAGER=cat DEBIAN_FRONTEND=noninteractive GIT_TERMINAL_PROMPT=0 npm_config_yes=true PIP_RETRIES=1 PIP_DEFAULT_TIMEOUT=15 npm_config_fetch_retries=1; if [ -w /etc/apt/apt.conf.d ] && [ ! -e /etc/apt/apt.conf.d/90smile-assume-yes ]; then echo 'APT::Get::Assume-Yes "true";' > /etc/apt/apt.conf.d/90smile-assume-yes; fi; exec < <(printf '\n%.0s' $(seq 64)); __smile_in=$(readlink /proc/self/fd/0); __smile_tty() { [ "$(readlink /proc/self/fd/0)" = "$__smile_in" ]; }; rg() { if __smile_tty; then command rg "$@" < /dev/null; else command rg "$@"; fi; }; ag() { if __smile_tty; then command ag "$@" < /dev/null; else command ag "$@"; fi; }; http() { if __smile_tty; then command http --ignore-stdin "$@"; else command http "$@"; fi; }; https() { if __smile_tty; then command https --ignore-stdin "$@"; else command https "$@"; fi; }; __smile_last=$(cat "$__smile_s.rc" 2>/dev/null); (exit "${__smile_last:-0}"); `

// script is one command run in the session.
func script(command string) string {
	return prelude + noninteractive + interactiveRC(command) + "\n"
}

// reSourceBashrc: a command that reads ~/.bashrc into the current shell.
var reSourceBashrc = regexp.MustCompile(`(^|[;&|(]\s*|\n\s*)(?:source|\.)\s+((?:~|\$HOME|\$\{HOME\})/\.bashrc)\b`)

// interactiveRC reads ~/.bashrc in command as a terminal does (the prelude's __smile_bashrc).
func interactiveRC(command string) string {
	return reSourceBashrc.ReplaceAllString(command, "${1}__smile_bashrc ${2}")
}

// backgroundScript starts a never-ending command (a server) in the background with its
// output in logPath (a fresh file: an earlier run, or a server started with sudo, may
// have left one the learner cannot write), waits up to grace seconds, and leaves it
// running when it is still up: the exit status is then 0 and the output says so.
func backgroundScript(command, logPath string, grace int) string {
	return prelude + noninteractive + fmt.Sprintf(`rm -f %s 2>/dev/null; ( %s
) > %s 2>&1 < /dev/null &
__smile_pid=$!
__smile_i=0
while [ $__smile_i -lt %d ]; do
  sleep 1
  __smile_i=$((__smile_i+1))
  if ! kill -0 $__smile_pid 2>/dev/null; then wait $__smile_pid; __smile_brc=$?; cat %s; exit $__smile_brc; fi
done
cat %s
echo "[smile-loop: still running after %ds; left running in the background as pid $__smile_pid, output in %s]"
exit 0
`, shellQuote(logPath), command, shellQuote(logPath), grace, shellQuote(logPath), shellQuote(logPath), grace, logPath)
}

// splitCwd removes the cwd marker from stderr and returns the directory.
func splitCwd(stderr string) (string, string) {
	i := strings.LastIndex(stderr, cwdMarker)
	if i < 0 {
		return stderr, ""
	}
	rest := stderr[i+len(cwdMarker):]
	cwd := strings.TrimSpace(strings.SplitN(rest, "\n", 2)[0])
	return strings.TrimSuffix(stderr[:i], "\n"), cwd
}

var reServer = regexp.MustCompile(`(?:^|[\s;&|(])(python3? -m http\.server|uvicorn\s|gunicorn\s|flask run|fastapi (?:dev|run)|npm (?:run )?(?:start|dev|serve)\b|yarn (?:start|dev|serve)\b|pnpm (?:start|dev|serve)\b|node (?:server|app|index)\.js|nodemon\b|rails s(?:erver)?\b|php -S\s|hugo server|jekyll serve|ng serve|next dev|manage\.py runserver|http-server\b|serve -s\b|docker compose up\b|docker-compose up\b|streamlit run|jupyter (?:notebook|lab)\b|mkdocs serve|rackup\b|puma\b|plackup\b|starman\b|thin start\b|unicorn\b)`)

// reServing is what servers print once they are up.
var reServing = regexp.MustCompile(`(?i)(listening on|listening at|running on https?://|serving (?:http|at|on)|server (?:is )?(?:running|started|listening)|started server on|HTTPServer#start|https?://` + localHost + `(?::\d+)?)`)

// reInstallsPackages: a package manager's install, whose arguments are package names.
var reInstallsPackages = regexp.MustCompile(`^(?:sudo\s+)?(?:apt|apt-get|aptitude|dnf|yum|brew|pip3?|pipx|python3? -m pip|uv pip|npm|yarn|pnpm|gem|cargo)\s+(?:-\S+\s+)*(?:install|add|i)\b`)

// isServer reports whether command starts something that is meant to keep running.
func isServer(command string) bool {
	c := strings.TrimSpace(command)
	if strings.HasSuffix(c, "&") || strings.Contains(c, " -d") && strings.Contains(c, "compose up") || reInstallsPackages.MatchString(c) {
		return false // `apt install gunicorn` installs a server, it does not start one
	}
	return reServer.MatchString(c) || isWatcher(c)
}

// reEntr: entr, which runs a command again each time a file it watches changes, until
// Ctrl+C (with -z, it exits after the first run).
var reEntr = regexp.MustCompile(`(?:^|[\s;&|(])entr((?:\s+-\w+)*)\s`)

// isWatcher: the command watches files and runs another one on each change, without end.
func isWatcher(c string) bool {
	m := reEntr.FindStringSubmatch(c)
	return m != nil && !strings.Contains(strings.ReplaceAll(m[1], " ", ""), "z")
}

// reWatchedError: an error line of the command a watcher runs, which the reader sees in
// the watcher's terminal.
var reWatchedError = regexp.MustCompile(`(?m)^[^\n]*(?:: unbound variable|: (?:command )?not found|: No such file or directory|: Permission denied|\bTraceback \(most recent call last\))[^\n]*$`)

// reSlowStep: language package installs, downloads and builds, which a reader waits for
// longer than for an ordinary command (Debian's own are read by readApt), and compression
// at high levels (`zstd -19`, `xz -9`).
var reSlowStep = regexp.MustCompile(`(?:^|[\s;&|(])(?:pip3? install\b|python3? -m pip install\b|pipx install\b|uv (?:sync|pip install|tool install)\b|(?:cargo|go) (?:build|install|test|get|mod download)\b|(?:npm|yarn|pnpm) (?:install|ci|add|i)\b|npm run build\b|gem install\b|bundle install\b|mvn\b|gradle\b|make\b|ninja\b|cmake --build\b|docker (?:build|pull)\b|git clone\b|ansible-playbook\b|puppet apply\b|salt-call\b|(?:zstd|xz)\b[^|;&]*\s-(?:1[0-9]|2[0-2]|9|-ultra)\b)`)

// slowFactor is how many times the step timeout a slow step gets; installFactor, how
// many a Debian package install gets: a TeX Live or toolchain install unpacks a few
// hundred packages, which takes minutes more on a slow disk, and never waits for a
// person (the sandbox answers apt's questions).
const (
	slowFactor    = 5
	installFactor = 15
)

// stepTimeout is the time a command gets: studentBehavior.timeoutSeconds, five times
// that for a download or build, fifteen times for a package install.
func stepTimeout(seconds int, command string) time.Duration {
	d := time.Duration(max(seconds, 1)) * time.Second
	switch {
	case isServer(command):
		return d
	case isPackageInstall(command):
		return installFactor * d
	case reSlowStep.MatchString(command) || isAptStep(command):
		return slowFactor * d
	}
	return d
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
