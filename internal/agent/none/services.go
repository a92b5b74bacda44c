package none

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// On a Debian machine a package that ships a service starts it when it is installed:
// its postinst calls deb-systemd-invoke or invoke-rc.d (debhelper's dh_installsystemd and
// dh_installinit snippets). In a container nothing does, because there is no init to ask
// and invoke-rc.d refuses without a runlevel, so `sudo apt install redis-server` and then
// `redis-cli ping` would fail here where it works for the reader. The deterministic
// Student starts every service an install step added with its init script, as the
// reader's machine does, and remembers the ones that failed to start: a client that later
// finds nothing listening is then explained by that failure.

// service is one service an install step of the tutorial added.
type service struct {
	name   string // its init script, /etc/init.d/<name>
	line   int    // the install step
	failed string // the start's key output line when it failed to start ("" when it started)
	root   int    // the gap its clients' failures are folded into (-1 until there is one)
}

// initScriptsScript lists the init scripts the machine has.
const initScriptsScript = `ls -1 /etc/init.d 2>/dev/null`

// noteInitScripts records the init scripts the image has before the tutorial runs: only
// those an install adds are the tutorial's services.
func (ss *session) noteInitScripts(ctx context.Context) {
	ss.initScripts = map[string]bool{}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: initScriptsScript, Timeout: 10 * time.Second, User: rootUser})
	if err != nil {
		return
	}
	for _, n := range strings.Fields(r.Stdout) {
		ss.initScripts[n] = true
	}
}

// startServices starts, with their init scripts, the services the install step rec (which
// worked) added, as the package's postinst does on the reader's machine.
func (ss *session) startServices(ctx context.Context, rec loop.CommandRecord) {
	if ss.initScripts == nil {
		return
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: initScriptsScript, Timeout: 10 * time.Second, User: rootUser})
	if err != nil {
		return
	}
	for _, n := range strings.Fields(r.Stdout) {
		if ss.initScripts[n] || !reUnitName.MatchString(n) || noAutoStart[n] {
			continue
		}
		ss.initScripts[n] = true
		st, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "service " + n + " start", Timeout: 60 * time.Second, User: rootUser})
		if err != nil {
			continue
		}
		sv := service{name: n, line: rec.Line, root: -1}
		if st.ExitCode != 0 || st.TimedOut {
			sv.failed = firstNonEmpty(keyLine(combine(st.Stdout, st.Stderr)), fmt.Sprintf("exit status %d", st.ExitCode))
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: rec.Line, Reason: fmt.Sprintf("the package's service `%s` failed to start, as its install would start it on the reader's machine (%s)", n, loop.Clip(sv.failed, 100))})
		} else {
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: rec.Line, Reason: fmt.Sprintf("started the package's service `%s` with its init script, as its install does on the reader's machine", n)})
		}
		ss.services = append(ss.services, sv)
	}
}

// noAutoStart: init scripts that set the machine up rather than serve (a Debian machine
// has already run them at boot), or that packages ship disabled.
var noAutoStart = map[string]bool{"hwclock.sh": true, "procps": true, "kmod": true, "udev": true, "networking": true, "keyboard-setup.sh": true, "console-setup.sh": true, "x11-common": true, "dbus": true}

// reServerNotFound: a client that says its server is not there in so many words
// (fail2ban 1.0's "Could not find server" and "Failed to access socket path: … Is
// fail2ban running?", client/fail2banclient.py).
var reServerNotFound = regexp.MustCompile(`(?i)\bcould not find server\b|\bfailed to access socket path\b`)

// serviceDown is the gap of a client that cannot reach its service: a service an install
// step added, whose start failed there and which no step started since (it is not
// running now). The service is the one whose name shares its first five letters with
// the client's program (fail2ban-client and fail2ban, redis-cli and redis-server).
// It reports whether it judged the failure: a new gap, or one folded into it.
func (ss *session) serviceDown(ctx context.Context, rec loop.CommandRecord, output string) bool {
	if len(ss.services) == 0 || !(reSocketGone.MatchString(output) || reServerNotFound.MatchString(output) || reLocalRefused.MatchString(output) || refusedHere(rec.Command, output)) {
		return false
	}
	client := programOf(rec.Command)
	for k := range ss.services {
		sv := &ss.services[k]
		if sv.failed == "" || !sameFamily(client, sv.name) {
			continue
		}
		if sv.root >= 0 {
			ss.consequence(sv.root, rec)
			return true
		}
		st, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "service " + sv.name + " status", Timeout: 20 * time.Second, User: rootUser})
		if err != nil || st.ExitCode == 0 {
			continue // it runs now: something else is wrong
		}
		sv.root = ss.addFinding(rec, loop.Finding{
			Problem: fmt.Sprintf("`%s` (line %d) cannot reach the %s service (%s): installing the package (line %d) starts it on a Debian machine, but there it failed to start (%s), and no step starts it after that",
				firstLine(rec.Command), rec.Line, sv.name, firstNonEmpty(keyLine(output), fmt.Sprintf("exit %d", rec.ExitCode)), sv.line, loop.Clip(sv.failed, 160)),
			Fix:      fmt.Sprintf("once its configuration is in place, start the service before line %d (`sudo systemctl start %s`, or `sudo service %s start` without systemd), and say how to check that it runs (`sudo systemctl status %s`)", rec.Line, sv.name, sv.name, sv.name),
			Edit:     &loop.Edit{InsertBefore: []string{"sudo systemctl start " + sv.name}},
			Category: "missing step",
		}, output)
		ss.taintTools[toolOf(client).Name] = sv.root // its other commands fail the same way
		return true
	}
	return false
}

// sameFamily: a client program and a service of one package family, by the first five
// letters of their names.
func sameFamily(client, service string) bool {
	client, service = path.Base(client), path.Base(service)
	return len(client) >= 5 && len(service) >= 5 && client[:5] == service[:5]
}
