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
// Student notes the services each install step adds and, when a client of one later
// finds nothing to talk to and the service is not running, starts it with its init
// script, as the reader's machine would have, and runs the client again. A service that
// does not start is the tutorial's gap: its client's failures are folded into it.
// (Starting every service at its install would put the reader's own daemons, started by
// hand on the package's port in a container-minded tutorial, in conflict with it.)

// service is one service an install step of the tutorial added.
type service struct {
	name    string // its init script, /etc/init.d/<name>
	line    int    // the install step
	started bool   // started for a client that needed it
	failed  string // the start's key output line when it did not start ("" when it was not tried or started)
	root    int    // the gap its clients' failures are folded into (-1 until there is one)
}

// initScriptsScript lists the init scripts the machine has.
const initScriptsScript = `ls -1 /etc/init.d 2>/dev/null`

// initScriptNames lists the machine's init scripts (false when it cannot).
func (ss *session) initScriptNames(ctx context.Context) ([]string, bool) {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: initScriptsScript, Timeout: 10 * time.Second, User: rootUser})
	if err != nil {
		return nil, false
	}
	return strings.Fields(r.Stdout), true
}

// noteInitScripts records the init scripts the image has before the tutorial runs: only
// those an install adds are the tutorial's services.
func (ss *session) noteInitScripts(ctx context.Context) {
	ss.initScripts = map[string]bool{}
	names, _ := ss.initScriptNames(ctx)
	for _, n := range names {
		ss.initScripts[n] = true
	}
}

// noteServices records the services the install step rec (which worked) added.
func (ss *session) noteServices(ctx context.Context, rec loop.CommandRecord) {
	if ss.initScripts == nil {
		return
	}
	names, ok := ss.initScriptNames(ctx)
	if !ok {
		return
	}
	for _, n := range names {
		if ss.initScripts[n] || !reUnitName.MatchString(n) {
			continue
		}
		ss.initScripts[n] = true
		ss.services = append(ss.services, service{name: n, line: rec.Line, root: -1})
	}
}

// reachesService: output says a client found nothing to talk to.
func reachesService(cmd, output string) bool {
	return reSocketGone.MatchString(output) || reServerNotFound.MatchString(output) || reLocalRefused.MatchString(output) || refusedHere(cmd, output)
}

// startForClient starts, as its install would have on the reader's machine, the service of
// the client cmd that could not reach it (output), when the tutorial installed it and it
// is not running; true when it started. One that does not start is remembered for
// serviceDown.
func (ss *session) startForClient(ctx context.Context, cmd, output string, line int) bool {
	if len(ss.services) == 0 || !reachesService(cmd, output) {
		return false
	}
	client := programOf(cmd)
	for k := range ss.services {
		sv := &ss.services[k]
		if sv.started || sv.failed != "" || !sameFamily(client, sv.name) || ss.runsOwnDaemon(ctx, sv.name, client) {
			continue
		}
		st, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "service " + sv.name + " status >/dev/null 2>&1 || service " + sv.name + " start", Timeout: 60 * time.Second, User: rootUser})
		if err != nil {
			continue
		}
		if st.ExitCode != 0 || st.TimedOut {
			sv.failed = firstNonEmpty(keyLine(combine(st.Stdout, st.Stderr)), fmt.Sprintf("exit status %d", st.ExitCode))
			continue
		}
		sv.started = true
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: line, Reason: fmt.Sprintf("started the service `%s` with its init script, as installing its package (line %d) does on the reader's machine, and ran the line again", sv.name, sv.line)})
		return true
	}
	return false
}

// reServerNotFound: a client that says its server is not there in so many words
// (fail2ban 1.0's "Could not find server" and "Failed to access socket path: … Is
// fail2ban running?", client/fail2banclient.py).
var reServerNotFound = regexp.MustCompile(`(?i)\bcould not find server\b|\bfailed to access socket path\b`)

// serviceDown is the gap of a client that cannot reach its service: a service an install
// step added, which is not running and did not start when startForClient tried. It
// reports whether it judged the failure: a new gap, or one folded into it.
func (ss *session) serviceDown(rec loop.CommandRecord, output string) bool {
	if len(ss.services) == 0 || !reachesService(rec.Command, output) {
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
		sv.root = ss.addFinding(rec, loop.Finding{
			Problem: fmt.Sprintf("`%s` (line %d) cannot reach the %s service (%s): no step starts it, and as configured at this point it does not start (%s); the tutorial counts on the package having started it at its install (line %d)",
				firstLine(rec.Command), rec.Line, sv.name, firstNonEmpty(keyLine(output), fmt.Sprintf("exit %d", rec.ExitCode)), loop.Clip(sv.failed, 160), sv.line),
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

// reDaemonPath: a program an init script starts (`DAEMON=/usr/bin/supervisord`).
var reDaemonPath = regexp.MustCompile(`/usr/s?bin/([\w.-]+)`)

// runsOwnDaemon: a step of the tutorial runs the service's daemon itself (`supervisord -c
// supervisor.conf`, `sudo /usr/sbin/mariadbd`): a program its init script starts, or one
// of its family whose name ends in d, other than the client. That tutorial's clients talk
// to its own daemon, which the package's would stand in the way of.
func (ss *session) runsOwnDaemon(ctx context.Context, name, client string) bool {
	daemons := map[string]bool{}
	if r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cat /etc/init.d/" + name, Timeout: 10 * time.Second, User: rootUser}); err == nil {
		for _, m := range reDaemonPath.FindAllStringSubmatch(r.Stdout, -1) {
			daemons[m[1]] = true
		}
	}
	for _, st := range ss.steps {
		if st.kind != runStep || st.command == nil {
			continue
		}
		p := path.Base(programOf(st.command.Text))
		if p != path.Base(client) && (daemons[p] || strings.HasSuffix(p, "d") && sameFamily(p, name)) {
			return true
		}
	}
	return false
}
