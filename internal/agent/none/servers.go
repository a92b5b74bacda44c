package none

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// server is a command meant to keep running.
type server struct {
	line    int
	command string
	root    int    // root of its failure, or serverRunning, or serverStopped
	log     string // the file its output goes to
	seen    int    // how much of the log earlier requests have read
	pid     int    // its process, while it runs in the background (0 once stopped)
	stopped int    // the line of the prose that had it stopped (0 when none did)
	// terminal: the terminal the prose has it typed in ("**Terminal 3**:", "in the
	// second terminal"), "" when it names none
	terminal string
}

// reTerminalNum, reTerminalOrd: the terminals a sentence names ("in terminals 1 and 3",
// "**Terminal 2**", "the second terminal").
var (
	reTerminalNum = regexp.MustCompile(`(?i)\bterminals?\s+(\d+(?:\s*(?:,|and|&)\s*\d+)*)`)
	reTerminalOrd = regexp.MustCompile(`(?i)\b(first|second|third|fourth)\s+terminal\b`)
	reNumber      = regexp.MustCompile(`\d+`)
)

// terminalsNamed lists the terminals text names, by number, in order.
func terminalsNamed(text string) []string {
	type at struct {
		i int
		n string
	}
	var found []at
	for _, m := range reTerminalNum.FindAllStringSubmatchIndex(text, -1) {
		for _, n := range reNumber.FindAllString(text[m[2]:m[3]], -1) {
			found = append(found, at{m[0], n})
		}
	}
	ord := map[string]string{"first": "1", "second": "2", "third": "3", "fourth": "4"}
	for _, m := range reTerminalOrd.FindAllStringSubmatchIndex(text, -1) {
		found = append(found, at{m[0], ord[strings.ToLower(text[m[2]:m[3]])]})
	}
	slices.SortStableFunc(found, func(a, b at) int { return a.i - b.i })
	var names []string
	for _, f := range found {
		names = append(names, f.n)
	}
	return names
}

// What server.root holds when the server has no failure: it is still running, or the
// prose had it stopped (a finding's index is never negative).
const (
	serverRunning = -1
	serverStopped = -2
)

// running: the server was started, has not failed and has not been stopped.
func (s server) running() bool { return s.root == serverRunning }

// keepsRunningAfter: the prose right under the step's block says it keeps running ("Leave
// it running. In your second terminal, …"), for the block's last command.
func (ss *session) keepsRunningAfter(st step) bool {
	if ss.task.Tutorial == nil || st.block.EndLine <= 0 || st.command == nil || st.command.EndLine < st.block.EndLine-1 {
		return false
	}
	first := firstSentence(proseAfter(ss.task.Tutorial, st.block.EndLine))
	if reKeepsRunning.MatchString(first) {
		return true
	}
	if reBackInOther.MatchString(unemphasized(first)) && !clientRequest[programOf(st.command.Text)] {
		// "Back in the second terminal, send a message …": this one stays busy
		return true
	}
	// under the log it shows: "Your dates will differ. … The prompt does not come back:
	// stunnel now waits for connections and logs each one here."
	end := st.block.EndLine
	if st.expected != "" {
		end = fenceAfter(ss.task.Tutorial, end)
	}
	for _, s := range sentences(proseAfter(ss.task.Tutorial, end)) {
		if reStaysUp.MatchString(s) && !reStopServer.MatchString(s) {
			return true
		}
	}
	return false
}

// reOwnTerminal: the lead starts the command in a terminal of its own while the reader
// goes on in another ("Start it in a **fourth terminal**, then fetch the page from the
// third:").
var reOwnTerminal = regexp.MustCompile(`(?i)\b(?:start|launch)\b[^.]{0,40}\bin (?:a|an|its own|the|your) (?:second|third|fourth|fifth|new|separate|another|other|own|dedicated)(?: [\w-]+)? (?:terminal|shell|tab|window)\b`)

// reBackInOther: the prose after a block moves to another terminal, the one this block
// did not run in ("Back in the second terminal, send a message").
var reBackInOther = regexp.MustCompile(`(?i)^\s*(?:now,?\s+)?(?:back in|switch (?:back )?to|go back to|return to) (?:the|your) (?:first|second|third|other|original|previous) (?:terminal|shell|tab|window)\b`)

// reStaysUp: a sentence, anywhere in a paragraph, that says the command holds the
// terminal.
var reStaysUp = regexp.MustCompile(`(?i)\bprompt (?:does not|doesn't|will not|won't|never) (?:come back|return)|\bwaits? (?:there )?for (?:incoming )?(?:connections|requests|clients)\b|\bleave it running\b`)

// fenceAfter is the closing line of the fenced block that opens on the first non-blank
// line after line (line itself when none opens there).
func fenceAfter(t *tutorial.Tutorial, line int) int {
	n := line + 1
	for n <= t.Map.LineCount() && strings.TrimSpace(t.Map.Line(n)) == "" {
		n++
	}
	if b, ok := t.Map.BlockAt(n); ok && (b.Kind == tutorial.KindFencedCode || b.Kind == tutorial.KindHTMLCode) && b.StartLine == n {
		return b.EndLine
	}
	return line
}

// reKeepsRunning: the prose says the command does not end by itself (a server).
var reKeepsRunning = regexp.MustCompile(`(?i)keeps?(?: [^\s.,:;!?]+){0,2} running|runs? until you|until you (?:press|stop|hit|type)|ctrl(?:</kbd>)?\s*[+-]\s*(?:<kbd>)?c\b|\bnever (?:exits|returns|finishes|ends)(?:[^\w ]|$| (?:on|by|until|unless|and|but|so)\b)|leave it running|stays? in the foreground|keeps? watching`)

// keepsRunning: a sentence of the lead says the command does not end by itself, and is
// not the order to stop an earlier one ("Stop the server with Ctrl+C, then change the
// page:").
func keepsRunning(sentence string) bool {
	return reKeepsRunning.MatchString(sentence) && !reStopServer.MatchString(sentence)
}

// backgroundRequest runs command in the background, its output going to a log of its own
// that later requests read. The script ends by itself once the grace is over, so its
// time limit only guards against an engine that stalls: at least a minute, for on a
// loaded runner starting an exec alone can take seconds, and a step cut short there
// would read as a server that never came up.
func (ss *session) backgroundRequest(command string, root bool, timeout time.Duration) loop.ExecRequest {
	ss.bg++
	logPath := fmt.Sprintf("%s-%d.log", backgroundLogsPath, ss.bg)
	return ss.asReader(command, root, max(timeout, time.Minute)+ss.grace, func(c string) string {
		return backgroundScript(c, logPath, int(max(ss.grace/time.Second, 1)))
	})
}

// stopServers stops the servers left running that the prose between their start and
// st tells the reader to stop, as the reader would with Ctrl+C in that terminal.
//
// A step that is itself the stop (`kill "$(cat /tmp/stunnel-demo.pid)"` under "Stop the
// server through its pid file, then press Ctrl+C in the other terminals:") stops what it
// names; the rest stop when the session ends.
func (ss *session) stopServers(ctx context.Context, st step) {
	if st.command != nil && reKillCommand.MatchString(st.command.Text) {
		return
	}
	m := ss.task.Tutorial.Map
	for i := range ss.servers {
		sv := &ss.servers[i]
		if sv.pid == 0 || sv.line >= st.line {
			continue
		}
		for n := sv.line + 1; n < st.block.StartLine; n++ {
			b, ok := m.BlockAt(n)
			if !ok || b.Kind != tutorial.KindParagraph && b.Kind != tutorial.KindListItem || !reStopServer.MatchString(m.Line(n)) || reStopIfOnly.MatchString(m.Line(n)) {
				// ("the list … is gone when you stop the server" tells of stopping, later)
				continue
			}
			if !namesServer(m.Line(n), sv.command, ss.servers) {
				continue
			}
			if named := terminalsNamed(m.Line(n)); sv.terminal != "" && len(named) > 0 && !slices.Contains(named, sv.terminal) {
				continue // "Stop the UNIX listener in terminal 3", and this one runs in terminal 1
			}
			if ss.stopServer(ctx, sv) {
				sv.stopped = n
				ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: n, Reason: fmt.Sprintf("stopped the server started at line %d, as the prose says", sv.line)})
			}
			break
		}
	}
}

// reKillCommand: a command that stops processes itself.
var reKillCommand = regexp.MustCompile(`^(?:sudo\s+)?(?:kill|pkill|killall)\b`)

// reStopIfOnly: the prose speaks of stopping the server as something that may happen,
// not as a step ("when you stop the server", "if you stop it").
var reStopIfOnly = regexp.MustCompile(`(?i)\b(?:when|whenever|if|once|until|after|each time|every time)\s+(?:you\s+)?(?:stop|quit|kill|restart)\b`)

// stopServer stops sv as Ctrl+C in its terminal would; false when it was not running.
func (ss *session) stopServer(ctx context.Context, sv *server) bool {
	if sv.pid == 0 {
		return false
	}
	kill := fmt.Sprintf("pkill -INT -P %d; kill -INT %d; sleep 1; pkill -KILL -P %d; kill -KILL %d; true", sv.pid, sv.pid, sv.pid, sv.pid)
	_, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: kill, Timeout: 15 * time.Second, User: rootUser})
	sv.pid, sv.root = 0, serverStopped // no longer running, and not for a failure
	return err == nil
}

// reJobStop: a command that stops a job of the shell (`kill %1`, `kill %%`, `kill $!`).
var reJobStop = regexp.MustCompile(`^(?:sudo\s+)?kill(?:\s+-\w+)*\s+(%(\d+)|%[%+]?|\$!)\s*$`)

// aJob is a command the tutorial put in the background with `&`, and the server the
// Student keeps for it (nil when it ran in the session's shell).
type aJob struct {
	line    int
	command string
	sv      *server
}

// jobOf is the job a job-control command names: `kill %N` the Nth started with `&`,
// `kill %%` and `kill $!` the last; false when the command is not one or there is none.
func (ss *session) jobOf(cmd string) (aJob, bool) {
	m := reJobStop.FindStringSubmatch(strings.TrimSpace(cmd))
	if m == nil {
		return aJob{}, false
	}
	var jobs []aJob
	for _, c := range ss.res.Commands {
		if c.ExitCode != 0 || !strings.HasSuffix(strings.TrimSpace(c.Command), "&") || strings.HasSuffix(strings.TrimSpace(c.Command), "&&") {
			continue
		}
		j := aJob{line: c.Line, command: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.Command), "&"))}
		for i := range ss.servers {
			if ss.servers[i].line == c.Line {
				j.sv = &ss.servers[i]
			}
		}
		jobs = append(jobs, j)
	}
	if len(jobs) == 0 {
		return aJob{}, false
	}
	if n, err := strconv.Atoi(m[2]); err == nil {
		if n < 1 || n > len(jobs) {
			return aJob{}, false
		}
		return jobs[n-1], true
	}
	return jobs[len(jobs)-1], true
}

// stopJob stops j as the reader's `kill %N` would.
func (ss *session) stopJob(ctx context.Context, j aJob) {
	if j.sv != nil {
		ss.stopServer(ctx, j.sv)
		return
	}
	// started in the session's shell, whose job table is gone: by its command line
	_, _ = ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "pkill -INT -f -- " + shellQuote(regexp.QuoteMeta(j.command)) + "; true", Timeout: 15 * time.Second, User: ss.user})
}

// namesServer: the stop sentence is about this server: it names the server's program,
// or names none of the servers' programs.
func namesServer(sentence, command string, servers []server) bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(sentence), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' }) {
		words[w] = true
	}
	if words[strings.ToLower(path.Base(firstWord(command)))] {
		return true
	}
	for _, sv := range servers {
		if words[strings.ToLower(path.Base(firstWord(sv.command)))] {
			return false
		}
	}
	return true
}

// leadFollowsCode: the paragraph right above st's block comes right after another code
// block, so its first sentence ("Leave it running.") may be about that block.
func (ss *session) leadFollowsCode(st step) bool {
	m := ss.task.Tutorial.Map
	n := st.block.StartLine - 1
	for n >= 1 && strings.TrimSpace(m.Line(n)) == "" {
		n--
	}
	b, ok := m.BlockAt(n)
	if !ok || b.Kind != tutorial.KindParagraph {
		return false
	}
	n = b.StartLine - 1
	for n >= 1 && strings.TrimSpace(m.Line(n)) == "" {
		n--
	}
	prev, ok := m.BlockAt(n)
	return ok && (prev.Kind == tutorial.KindFencedCode || prev.Kind == tutorial.KindIndentedCode || prev.Kind == tutorial.KindHTMLCode)
}

// stoppedServer is the server the prose had the reader stop, when no server runs since:
// a request that finds nothing listening then needs it started again. Of several, the
// one started on a port the request names, or else the last stopped.
func (ss *session) stoppedServer(request string) (*server, bool) {
	if slices.ContainsFunc(ss.servers, server.running) {
		return nil, false
	}
	var best *server
	for i := range ss.servers {
		sv := &ss.servers[i]
		if sv.root != serverStopped || sv.stopped == 0 {
			continue
		}
		if best == nil || sv.stopped > best.stopped {
			best = sv
		}
		for _, m := range rePort.FindAllStringSubmatch(sv.command, -1) {
			if strings.Contains(request, ":"+m[1]) {
				return sv, true
			}
		}
	}
	return best, best != nil
}

// serverDown is the root of a server start that failed, if any.
func (ss *session) serverDown() (int, bool) {
	for i := len(ss.servers) - 1; i >= 0; i-- {
		if s := ss.servers[i]; s.root >= 0 {
			return s.root, true
		}
	}
	return 0, false
}

// failedRestart: a gap's failed step, after the server was stopped, runs the same
// program: the start that was to replace it (its root).
func (ss *session) failedRestart(sv *server) (int, bool) {
	prog := path.Base(programAfterCd(sv.command))
	for i := len(ss.roots) - 1; i >= 0; i-- {
		if r := ss.roots[i]; r.finding >= 0 {
			if f := ss.res.Findings[r.finding]; f.Line > sv.stopped && path.Base(programAfterCd(f.Command)) == prog {
				return i, true
			}
		}
	}
	return 0, false
}

// deafServer reports the running server whose log, read for a request that could not
// connect, shows errors: it started, failed, and stayed up without listening (Django's
// autoreloader waiting for a fix). The gap is on the line that started it.
func (ss *session) deafServer(rec loop.CommandRecord, output string) (int, bool) {
	logs := serverLines(output)
	for i := len(ss.servers) - 1; i >= 0 && logs != ""; i-- {
		s := &ss.servers[i]
		tag := "[server at line " + strconv.Itoa(s.line) + "] "
		if !s.running() || !strings.Contains(logs, tag) {
			continue
		}
		var lines []string
		for _, l := range strings.Split(logs, "\n") {
			if strings.HasPrefix(l, tag) {
				lines = append(lines, strings.TrimPrefix(l, tag))
			}
		}
		logged := strings.Join(lines, "\n")
		key := keyLine(logged)
		if m := reRaised.FindAllString(logged, -1); len(m) > 0 {
			key = m[len(m)-1] // a traceback ends with what was raised
		}
		srec := loop.CommandRecord{Iteration: rec.Iteration, Step: section(ss.task.Tutorial, s.line), Line: s.line, Command: s.command, ExitCode: 0}
		srec.Class, _ = loop.Classify(s.command, 1, logged, false)
		s.root = ss.addFinding(srec, loop.Finding{
			Problem:  fmt.Sprintf("`%s` (line %d) keeps running but never serves: it logs `%s`, so `%s` (line %d) cannot connect", firstLine(s.command), s.line, loop.Clip(key, 160), firstLine(rec.Command), rec.Line),
			Fix:      fmt.Sprintf("fix what the server reports when it starts (the evidence below), so that the server started at line %d listens", s.line),
			Category: "command failure",
		}, logged)
		return s.root, true
	}
	return 0, false
}

// serversUp names the ports of the servers left running ("" when none is known).
// otherPort: the request names a local port nothing listens on, while the server the
// tutorial left running listens on others (read from the kernel's socket tables, whatever
// set the port: the command line or a configuration file). It returns the latest such
// server, the port asked for and the ports that listen; nil when the request names no
// port, no server runs, or none listens.
func (ss *session) otherPort(ctx context.Context, rec loop.CommandRecord) (*server, string, []string) {
	m := reLocalPort.FindStringSubmatch(rec.Command)
	at := -1
	for i := range ss.servers {
		if ss.servers[i].running() {
			at = i
		}
	}
	if m == nil || at < 0 || ss.task.Sandbox == nil {
		return nil, "", nil
	}
	// (state 0A is LISTEN; the local port is the hex after the address's colon)
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$4 == "0A" { split($2, a, ":"); print a[length(a)] }' | sort -u | while read -r h; do printf '%d\n' "0x$h"; done | sort -un`, Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return nil, "", nil
	}
	ports := strings.Fields(r.Stdout)
	if len(ports) == 0 || len(ports) > 3 || slices.Contains(ports, m[1]) {
		return nil, "", nil
	}
	return &ss.servers[at], m[1], ports
}

func (ss *session) serversUp() string {
	var ports []string
	for _, s := range ss.servers {
		if s.running() {
			for _, m := range rePort.FindAllStringSubmatch(s.command, -1) {
				ports = append(ports, "port "+m[1]+" (line "+fmt.Sprint(s.line)+")")
			}
		}
	}
	return strings.Join(ports, ", ")
}

// serverErrors is what the servers the tutorial left running logged since the last
// request, as error lines, each marked as the server's ("" when none).
func (ss *session) serverErrors(ctx context.Context) string {
	var out []string
	for i := range ss.servers {
		s := &ss.servers[i]
		if !s.running() || s.log == "" {
			continue
		}
		data, err := ss.task.Sandbox.ReadFile(ctx, s.log, 1<<20)
		if err != nil || len(data) <= s.seen {
			continue
		}
		fresh := string(data[s.seen:])
		s.seen = len(data)
		var errs []string
		for _, l := range strings.Split(fresh, "\n") {
			if t := strings.TrimSpace(l); t != "" && reErrorLine.MatchString(t) {
				errs = append(errs, "[server at line "+strconv.Itoa(s.line)+"] "+loop.Clip(t, 300))
			}
		}
		if len(errs) > 5 {
			// the first lines say where it began, the last (a traceback's exception) what
			errs = append(errs[:2], errs[len(errs)-3:]...)
		}
		out = append(out, errs...)
	}
	return strings.Join(out, "\n")
}

// reInUse: a server that could not bind its port.
var reInUse = regexp.MustCompile(`(?i)address already in use`)

// portHolder: rec could not bind a port that a server an earlier step started, still
// running, listens on (nil when not so).
func (ss *session) portHolder(rec loop.CommandRecord, output string) *server {
	if !reInUse.MatchString(output) {
		return nil
	}
	var ports []string
	for _, m := range rePort.FindAllStringSubmatch(rec.Command, -1) {
		ports = append(ports, m[1])
	}
	for i := len(ss.servers) - 1; i >= 0; i-- {
		sv := &ss.servers[i]
		if sv.line >= rec.Line || sv.pid == 0 || !sv.running() {
			continue
		}
		for _, m := range rePort.FindAllStringSubmatch(sv.command, -1) {
			if slices.Contains(ports, m[1]) {
				return sv
			}
		}
	}
	return nil
}
