// Package none is the deterministic mode (llmProvider "none"): a Student that follows the
// tutorial as a careful newcomer on Debian would — reading its structure first (which
// blocks are commands, files, output, alternatives or other systems' tabs), then running
// the commands in document order as one terminal session — and a rule-based Mentor. No
// LLM, no token, the same result every time.
//
// A failing command becomes a finding only when it is a root cause: a later failure that
// needs what an earlier failed step was meant to produce (a directory, a file, an
// installed tool, the directory the session is in) is folded into that step's finding as
// "also at". Failures that only say the sandbox lacks something the reader has (the
// network) are not findings: they are counted as unverified in the coverage, with the
// steps that depend on them. A declared prerequisite the image lacks is an environment
// finding, not a fault of the tutorial.
//
// How a run ends: no finding and enough of the tutorial exercised: completed (exit 0).
// No finding but nothing run, or most of it skipped or unverifiable: inconclusive. Gaps:
// the Student asks the Mentor and the loop, seeing a SinglePass Student, ends the run as
// "blocker" after the Mentor's notes: a second pass would repeat the first.
package none

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// Defaults of the deterministic Student.
const (
	DefaultGrace       = 3 * time.Second // a server still running after this is left in the background
	MaxCommands        = 500
	maxEvidence        = 600
	maxRecordedOutput  = 4000
	backgroundLogsPath = loop.LogsMount + "/background"
)

// Student follows the tutorial once, in order, in one terminal session.
type Student struct {
	// Grace is how long a server command may run before it is left in the background.
	Grace  time.Duration
	Logger *slog.Logger
	// SkipFixChecks leaves the proven-fix re-runs out (smile-action eval: they take as
	// long again and change no gap; recovery still happens)
	SkipFixChecks bool
}

var (
	_ loop.Student    = (*Student)(nil)
	_ loop.SinglePass = (*Student)(nil)
)

// SinglePass: the deterministic Student cannot use Mentor notes.
func (s *Student) SinglePass() bool { return true }

// A root is a failed step that later failures may depend on.
type root struct {
	finding int    // index in res.Findings, -1 when the step is not a finding (unverified)
	line    int    // its tutorial line
	why     string // for an unverified root: what the sandbox lacked
	// also: the failure key of the step's rerun after its fix, which failed on what the
	// failed run had left behind: later steps failing the same way follow from it too
	also string
}

type session struct {
	s     *Student
	task  loop.StudentTask
	grace time.Duration
	cwd   string
	res   loop.StudentResult
	steps []step
	pre   prereqs
	cov   loop.Coverage
	bg    int

	roots      []root
	taintPaths map[string]int // absolute path a failed step was meant to create → root
	badContent map[string]int // absolute path of a file the tutorial wrote whose content an error pointed at → root
	wroteWrong map[string]int // absolute path of a file a step with a gap wrote, holding what it should not → root
	taintTools map[string]int // tool a failed step was meant to install → root
	missing    map[string]int // tool found missing → root
	earlyUse   map[int]int    // line of an install step found placed after a first use → root
	// lostVars: a file name a script the tutorial wrote with an unquoted here-document makes
	// once the shell has emptied its variables (sweep-.json for sweep-$n.json) → root
	lostVars map[string]int
	cwdRoot  int // root that left the session outside the directory it should be in, -1 when none
	lastRoot int // root of the most recent failure, -1 when none
	// offline: the block whose command needed the network the sandbox lacks, while no
	// other block has run since (0 when none); altBlock: the alternative the text offers
	// for it ("or, without Git, make the same layout by hand:"), being followed instead
	offline, altBlock int
	// lastFailedStep is the index of the most recent failed step
	lastFailedStep int
	blockRoots     map[int]int          // block start line → root of its first unverified command
	noVerify       bool                 // a verification re-run: no nested verification
	servers        []server             // commands that start servers, in order
	recovered      map[int]bool         // lines whose step worked once the reader applied its gap's fix
	hostRoots      map[string]int       // a server (scheme, host and port) that speaks HTTPS to plain HTTP: its root
	noSymbols      map[string]int       // a program a debugger found without debugging information: its root
	aptSourceRoot  int                  // the gap that left apt unable to read the tutorial's own repository (-1 when none)
	movedUp        map[int]int          // a later step run early as a failed step's fix: its line → that step's line
	rechecks       map[int]recheck      // finding (index) about what a command printed → how its fix is proven
	replCells      map[string][]string  // interpreter → the cells typed into it that worked
	replOut        map[string]string    // interpreter → what those cells printed
	lastRun        int                  // index of the previous step that ran
	prevFailed     bool                 // the previous step that ran failed
	failRoot       int                  // root the failure being judged was folded into, -1 when none
	foldedRun      int                  // root the output of the previous step, which worked, was folded into (-1 when none)
	lastFailRoot   int                  // root of the previous failed command (new or folded)
	lastFailTool   string               // program of the previous failed command
	written        map[string]string    // files written from the tutorial: path → content
	overwrites     map[string][]writer  // file → the steps that replaced its content by a `>` redirection, in order
	emptyVars      map[string]int       // variable a gap found unset where a command needed it → root
	initScripts    map[string]bool      // the machine's init scripts (nil without a sandbox)
	services       []service            // services the tutorial's install steps added
	made           []string             // files commands that worked wrote by a relative redirection (absolute paths)
	substituted    bool                 // the failure just judged was replaced by a command that worked
	segments       map[string][]segment // written file → the blocks that gave its lines
	// user is who runs the tutorial: the image's non-root "learner" when it has one, as a
	// newcomer is not root on their machine; "" for the image's default user
	user string
	// rootExec: the learner's sudo cannot elevate (smile-loop's own containers run with
	// no-new-privileges), so a command that uses sudo or su, or one typed at root's
	// prompt, runs through an exec as root instead: what the reader's sudo would do
	rootExec bool
	// login: the exec user of the reader's own commands, with the groups they had when
	// their shell started ("learner:learner" when those were only their own group): `docker
	// exec -u learner` reads /etc/group at every command, so a group joined with `usermod
	// -aG` would apply at once, where the reader's shell keeps its groups until they log in
	// again ("" when that is ss.user)
	login      string
	home       string // the user's home directory
	promptedAt int    // line of the last step that asked for a passphrase or password
}

// Learner is the non-root user the deterministic Student runs as when the image has it.
const Learner = "learner"

// rootUser is the exec user of a command the reader runs with sudo (rootExec).
const rootUser = "root"

// whoami picks the user the tutorial runs as and their home directory.
func (ss *session) whoami(ctx context.Context) {
	ss.home = "/root"
	if ss.task.Sandbox == nil {
		return
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "getent passwd " + Learner + " | cut -d: -f6", Timeout: 10 * time.Second, User: rootUser})
	if err != nil || r.ExitCode != 0 || strings.TrimSpace(r.Stdout) == "" {
		return
	}
	ss.user, ss.home = Learner, strings.TrimSpace(r.Stdout)
	if g, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "id -Gn " + Learner, Timeout: 10 * time.Second, User: rootUser}); err == nil && g.ExitCode == 0 && len(strings.Fields(g.Stdout)) == 1 {
		ss.login = Learner + ":" + strings.TrimSpace(g.Stdout)
	}
	// a container started with no-new-privileges (smile-loop's own) cannot elevate
	// through sudo, where a newcomer's sudo always does: sudo then goes through root
	if s, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "sudo -n true", Timeout: 10 * time.Second, User: Learner}); err != nil || s.ExitCode != 0 {
		ss.rootExec = true
	}
}

// reader is the exec user of what the reader's shell does: the learner with the groups of
// their login (ss.login), or ss.user.
func (ss *session) reader() string { return cmp.Or(ss.login, ss.user) }

// request is the exec request of one command of the tutorial (or of a fix) as the reader
// runs it.
func (ss *session) request(text string, root bool, timeout time.Duration) loop.ExecRequest {
	return ss.asReader(text, root, timeout, script)
}

// asReader builds the request of text, wrapped by wrap (script, or a background start),
// as the reader runs it: as the learner, through root when it uses sudo or su and the
// learner's sudo cannot elevate (rootExec), or in a root shell for root's prompt.
func (ss *session) asReader(text string, root bool, timeout time.Duration, wrap func(string) string) loop.ExecRequest {
	if ss.rootExec && (root || reSudo.MatchString(text)) {
		return ss.asRoot(loop.ExecRequest{Command: wrap(text), Timeout: timeout}, !root && !sudoOnly(text))
	}
	if root && ss.user != "" {
		text = "sudo -n bash -c " + shellQuote(text) // root's prompt: the reader is root for it
	}
	return loop.ExecRequest{Command: wrap(text), Timeout: timeout, User: ss.reader()}
}

// asRoot runs req as root in the learner's session (their HOME, USER and files): the
// session files stay the learner's, and with mixed set (a line whose other commands run
// without sudo: `./configure && make && sudo make install`) what it created as root
// under the work directory or HOME is given back to the learner, as only the sudo part
// would have made root's files.
func (ss *session) asRoot(req loop.ExecRequest, mixed bool) loop.ExecRequest {
	pre := "__smile_owner=" + ss.user + "; "
	if mixed {
		pre += "__smile_fix=1; touch " + sessionFile + ".stamp; "
	}
	req.Command = pre + req.Command
	req.User = rootUser
	req.Env = map[string]string{"HOME": ss.home, "USER": ss.user, "LOGNAME": ss.user}
	return req
}

// reNoNewPrivs is what sudo says when no-new-privileges stops it (quoted as is, or inside
// a JSON string by the program that ran it: Ansible).
var reNoNewPrivs = regexp.MustCompile(`no new privileges\\?" flag is set`)

// setuidProgram is a program of the command that is setuid or setgid ("" when none).
func (ss *session) setuidProgram(ctx context.Context, text string) string {
	var words []string
	for _, part := range splitList(text) {
		if w := firstWord(part); reWord.MatchString(w) {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `for w in ` + strings.Join(words, " ") + `; do p=$(command -v "$w") && { [ -u "$p" ] || [ -g "$p" ]; } && { echo "$w"; break; }; done; true`, Timeout: 10 * time.Second, User: ss.user})
	if err != nil {
		return ""
	}
	return strings.TrimSpace(r.Stdout)
}

// waitsForInput: a later step runs the same command with its standard input from a file,
// and this one, given none, waits for the reader to type it: at a terminal it hangs
// where the tutorial expects it to end (the Student's commands read no terminal).
func (ss *session) waitsForInput(ctx context.Context, i int, rec loop.CommandRecord) (loop.Finding, bool) {
	cmd := strings.TrimSpace(rec.Command)
	if strings.ContainsAny(cmd, "<|;&\n") || ss.task.Sandbox == nil {
		return loop.Finding{}, false
	}
	words := strings.Fields(cmd)
	slices.Sort(words)
	for _, later := range ss.steps[i+1:] {
		if later.kind != runStep || later.command == nil {
			continue
		}
		before, file, ok := strings.Cut(later.command.Text, "<")
		file = strings.TrimSpace(file)
		if !ok || strings.ContainsAny(before+file, "|;&<\n") || len(strings.Fields(file)) != 1 {
			continue
		}
		same := strings.Fields(before)
		slices.Sort(same)
		if !slices.Equal(words, same) {
			continue
		}
		// (its input a pipe that stays open and says nothing, as a terminal does)
		r, err := ss.task.Sandbox.Exec(ctx, ss.request("sleep 30 | "+cmd, false, 5*time.Second))
		if err != nil || !r.TimedOut && r.ExitCode != 124 {
			return loop.Finding{}, false
		}
		return loop.Finding{
			Problem:  fmt.Sprintf("`%s` (line %d) reads what it works on from standard input, and the step gives it none: at a terminal it waits for the reader to type it, and nothing is done; line %d runs it with `< %s`", firstLine(cmd), rec.Line, later.line, file),
			Fix:      fmt.Sprintf("give it its input at line %d: `%s < %s`", rec.Line, cmd, file),
			Edit:     &loop.Edit{Replace: cmd + " < " + file},
			Category: "command failure",
		}, true
	}
	return loop.Finding{}, false
}

// reMailSpoolDenied: a mail transfer agent refused its own spool (exim 4.96: "Failed to
// create spool file /var/spool/exim4//input//…-D: Permission denied").
var reMailSpoolDenied = regexp.MustCompile(`(?i)(?:spool file|/var/spool/(?:exim4|postfix|mqueue|clientmqueue)/)[^\n]*permission denied`)

// setuidMailer: the system's sendmail is a setuid or setgid program.
func (ss *session) setuidMailer(ctx context.Context) bool {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `p=$(readlink -f /usr/sbin/sendmail) && { [ -u "$p" ] || [ -g "$p" ]; }`, Timeout: 10 * time.Second, User: ss.user})
	return err == nil && r.ExitCode == 0
}

// reWord: a plain program name.
var reWord = regexp.MustCompile(`^[\w][\w.+-]*$`)

// reSudo: a command that elevates through sudo or su (or doas, pkexec).
var reSudo = regexp.MustCompile(`(?:^|[\s;&|({` + "`" + `]|\$\()(?:sudo|su|doas|pkexec)(?:\s|$)`)

// sudoOnly: every command of the line is run with sudo, or only prints or downloads
// (`echo … | sudo tee /etc/…`, `curl … | sudo gpg --dearmor -o …`), so nothing it makes
// outside sudo belongs to the learner.
func sudoOnly(text string) bool {
	for _, part := range splitList(text) {
		w := ""
		for _, f := range strings.Fields(part) {
			if !strings.Contains(f, "=") || strings.HasPrefix(f, "=") {
				w = strings.Trim(f, "(){}`")
				break
			}
		}
		switch w {
		case "", "sudo", "su", "doas", "pkexec", "echo", "printf", "cat", "curl", "wget", "cd", "yes", "true":
		default:
			return false
		}
	}
	return true
}

// reSudoRedirect: one command run with sudo whose output goes to a file by a redirection
// of the reader's own shell (`sudo echo x > /var/www/x.html`): the file to open.
var reSudoRedirect = regexp.MustCompile(`^sudo\s+(?:[^|;&<>'"\s]+|'[^']*'|"[^"]*"|\s+)+?\s>>?\s*([^\s|;&<>'"]+)\s*$`)

// sudoRedirectDenied is the error the reader's shell gives for the file a sudo command's
// redirection names when the reader may not write it ("" when they may, or when the
// step is not such a command): sudo raises the command, not the redirection.
func (ss *session) sudoRedirectDenied(ctx context.Context, st step, background bool) string {
	m := reSudoRedirect.FindStringSubmatch(strings.TrimSpace(st.command.Text))
	if m == nil || background || st.repl != "" || st.root || ss.user == "" || strings.Contains(st.command.Text, "\n") {
		return ""
	}
	f := shellQuote(m[1])
	if rest, ok := strings.CutPrefix(m[1], "~/"); ok {
		f = `"$HOME"/` + shellQuote(rest)
	}
	check := "cd " + shellQuote(ss.cwd) + " && f=" + f + " && { [ -w \"$f\" ] || { [ ! -e \"$f\" ] && [ -w \"$(dirname \"$f\")\" ]; }; }"
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: check, Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode == 0 {
		return ""
	}
	return fmt.Sprintf("bash: line 1: %s: Permission denied", m[1])
}

// newSession is a session at the start of the tutorial, in the work directory, with
// nothing run and nothing failed yet.
func newSession(s *Student, task loop.StudentTask, grace time.Duration) *session {
	return &session{s: s, task: task, grace: grace, cwd: loop.WorkMount, cwdRoot: -1, lastRoot: -1, lastFailedStep: -2, lastRun: -1, lastFailRoot: -1, foldedRun: -1, aptSourceRoot: -1,
		blockRoots: map[int]int{}, taintPaths: map[string]int{}, badContent: map[string]int{}, wroteWrong: map[string]int{}, taintTools: map[string]int{}, missing: map[string]int{}, earlyUse: map[int]int{}, lostVars: map[string]int{},
		recovered: map[int]bool{}, hostRoots: map[string]int{}, noSymbols: map[string]int{}, replCells: map[string][]string{}, replOut: map[string]string{}, movedUp: map[int]int{}, rechecks: map[int]recheck{}, overwrites: map[string][]writer{}, emptyVars: map[string]int{}}
}

// Attempt follows the whole tutorial once.
func (s *Student) Attempt(ctx context.Context, task loop.StudentTask) (loop.StudentResult, error) {
	grace := s.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	ss := newSession(s, task, grace)
	ss.res.Status = loop.StudentCompleted
	if task.Tutorial == nil || task.Tutorial.Map == nil {
		return ss.res, fmt.Errorf("deterministic student: no tutorial")
	}
	if ss.task.Events == nil {
		ss.task.Events = loop.Discard
	}
	ss.whoami(ctx)
	ss.prepare(ctx)
	if ss.task.Sandbox != nil {
		ss.noteInitScripts(ctx)
	}
	ss.steps = read(task.Tutorial)
	ss.pre = declared(task.Tutorial)
	ss.res.Plan = planSteps(task.Tutorial, ss.steps)
	blocks := allBlocks(task.Tutorial)
	ss.cov.Blocks = len(blocks)
	ss.cov.Skipped = append(ss.cov.Skipped, unusedBlocks(blocks, ss.steps)...)
	stepOf := map[int]int{}
	for i, p := range ss.res.Plan {
		stepOf[p.StartLine] = i + 1
	}
	lastStep := 0
	var other otherTerminal
	for i, st := range ss.steps {
		if err := ctx.Err(); err != nil {
			return ss.finish(), err
		}
		if st.kind == runStep || st.kind == fileStep {
			// (a file saved "back in your first terminal" goes where that terminal is)
			other.next(ctx, ss, st)
		}
		ss.cov.Commands += st.commandCount()
		if st.kind != skipStep {
			if n := stepOf[st.block.StartLine]; n != lastStep && n > 0 {
				p := ss.res.Plan[n-1]
				ss.task.Events.Emit(loop.NewEvent(loop.EventStepStart, loop.StepData{Step: loop.StepLabel(n, len(ss.res.Plan), p.Title), Line: p.StartLine}))
				lastStep = n
			}
		}
		if st.reason != "" && st.kind != skipStep {
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: st.line, Reason: st.reason})
		}
		var err error
		if ss.insteadOfOffline(st) {
			// the clone could not run here; the reader without it takes the way the text
			// offers right below
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: st.line, Reason: fmt.Sprintf("followed the alternative the text offers to line %d, which needs the network (%s)", ss.offline, st.reason)})
			st.kind, ss.altBlock = runStep, st.block.StartLine
		}
		if st.kind == runStep && st.block.StartLine != ss.offline && st.block.StartLine != ss.altBlock {
			ss.offline, ss.altBlock = 0, 0
		}
		switch st.kind {
		case skipStep:
			ss.cov.Skipped = append(ss.cov.Skipped, loop.Note{Line: st.line, Reason: st.reason})
			ss.res.AttemptedActions = append(ss.res.AttemptedActions, st.String())
		case askStep:
			ss.ambiguous(st)
		case fileStep:
			err = ss.write(ctx, st)
		case runStep:
			if ss.cov.Run >= MaxCommands {
				ss.res.AttemptedActions = append(ss.res.AttemptedActions, fmt.Sprintf("stopped after %d commands", MaxCommands))
				ss.cov.Skipped = append(ss.cov.Skipped, loop.Note{Line: st.line, Reason: fmt.Sprintf("past the limit of %d commands", MaxCommands)})
				continue
			}
			ss.beforeRun(ctx, st)
			err = ss.run(ctx, i, st)
		}
		if err != nil {
			return ss.finish(), err
		}
	}
	ss.static()
	ss.verifyFixes(ctx)
	return ss.finish(), nil
}

// reOrLead: a lead that offers its block instead of the one before ("or, if you are
// following the workshop without Git, make the same layout by hand:").
var reOrLead = regexp.MustCompile(`(?i)^\s*(?:or|alternatively|otherwise)\b`)

// insteadOfOffline: st is a command of the block the text offers as the alternative to
// the block right before it, whose command could not run without the network.
func (ss *session) insteadOfOffline(st step) bool {
	if st.kind != skipStep || st.command == nil || ss.offline == 0 {
		return false
	}
	if st.block.StartLine == ss.altBlock {
		return true
	}
	return ss.altBlock == 0 && strings.HasPrefix(st.reason, "an alternative or example") && reOrLead.MatchString(st.lead)
}

// otherTerminal follows the blocks the prose has the reader type in another terminal
// ("serve the `schemas` folder in another terminal and leave it running:"): a block there
// that starts a server leaves the first terminal where it was, whatever `cd` it ran.
type otherTerminal struct {
	block   int    // the block being run
	in      bool   // it is typed in another terminal
	cwd     string // the first terminal's folder before it
	servers int    // how many servers ran before it
}

// reOtherTerminal: a lead that sends the reader to another terminal.
var reOtherTerminal = regexp.MustCompile(`(?i)\b(?:in|open|from|use) (?:another|a second|a new|a separate|a different|the other|the second) (?:terminal|shell|console|window|tab)\b`)

// next is called before each command and file: when st opens a new block, the block before it
// gives the first terminal its folder back if it was typed elsewhere and started a server.
func (o *otherTerminal) next(ctx context.Context, ss *session, st step) {
	if st.block.StartLine == o.block {
		return
	}
	if o.in && len(ss.servers) > o.servers && ss.cwd != o.cwd {
		// the session keeps its folder in the container: go back there as the reader's
		// first terminal still is
		if r, err := ss.task.Sandbox.Exec(ctx, ss.request("cd "+shellQuote(o.cwd), false, 10*time.Second)); err == nil && r.ExitCode == 0 {
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: st.line, Reason: fmt.Sprintf("back in the first terminal, in %s: the block at line %d ran in another terminal", ss.homeRel(o.cwd), o.block)})
			ss.cwd = o.cwd
		}
	}
	*o = otherTerminal{block: st.block.StartLine, in: reOtherTerminal.MatchString(unemphasized(st.lead)), cwd: ss.cwd, servers: len(ss.servers)}
}

// unemphasized is text without Markdown's bold and italic marks ("Open a **second
// terminal**").
func unemphasized(text string) string {
	return strings.NewReplacer("**", "", "__", "", "*", "").Replace(text)
}

// planSteps lists the followed blocks as the plan the report and the events show.
func planSteps(t *tutorial.Tutorial, steps []step) []loop.PlanStep {
	var out []loop.PlanStep
	seen := map[int]bool{}
	for _, s := range steps {
		if s.kind == skipStep || seen[s.block.StartLine] {
			continue
		}
		seen[s.block.StartLine] = true
		id := len(out) + 1
		title := section(t, s.line)
		switch s.kind {
		case fileStep:
			title = joinTitle(title, "write "+joinDir(s.dir, s.file))
		case runStep:
			title = joinTitle(title, "run "+firstLine(s.command.Text))
		default:
			title = joinTitle(title, "create a file")
		}
		p := loop.PlanStep{ID: id, Title: title, StartLine: s.block.StartLine, EndLine: max(s.block.EndLine, s.block.StartLine)}
		if id > 1 {
			p.DependsOn = []int{id - 1}
		}
		out = append(out, p)
	}
	return out
}

func joinTitle(section, what string) string {
	if section == "" {
		return what
	}
	return section + ": " + what
}

func section(t *tutorial.Tutorial, line int) string {
	return strings.Join(t.Map.HeadingPath(line), " › ")
}

// run executes one command in the session and judges a failure.
func (ss *session) run(ctx context.Context, i int, st step) error {
	cmd := st.command
	startCwd := ss.cwd
	timeout := stepTimeout(ss.task.Behavior.TimeoutSeconds, cmd.Text)
	// (a request is never the server: "The server keeps running …, so open a second
	// terminal" over `curl …` is about the block above)
	started := cmd.Text // what runs: the program after `cd ~/tls-demo && `
	if before, after, ok := strings.Cut(cmd.Text, "&&"); ok && firstWord(strings.TrimSpace(before)) == "cd" && !strings.Contains(after, "&&") {
		started = strings.TrimSpace(after)
	}
	background := isServer(cmd.Text) || !sessionBuiltin[firstWord(started)] && !clientRequest[programOf(started)] &&
		(ss.leadKeepsRunning(lastSentence(st.lead)) || ss.leadKeepsRunning(firstSentence(st.lead)) && !ss.leadFollowsCode(st) || ss.keepsRunningAfter(st) || reOwnTerminal.MatchString(unemphasized(lastSentence(st.lead))))
	exec := ss.typed(st, cmd.Text)
	if st.repl != "" {
		background = false
	}
	if len(st.answers) == 0 {
		// "Confirm request details: yes" in the session the tutorial shows, or "Answer
		// `yes` when asked": the reader types it
		st.answers = confirmAnswers(cmd.Output, lastSentence(st.lead))
		if len(st.answers) == 0 && cmd.EndLine >= st.block.EndLine-1 && ss.task.Tutorial != nil {
			// the block's last command, and the paragraph right after it says what to type
			// ("… offers to create one. Type `yes` and press Enter:")
			st.answers = confirmAnswers("", proseAfter(ss.task.Tutorial, st.block.EndLine))
		}
	}
	if len(st.answers) > 0 {
		// a setup wizard: the reader types the answers the tutorial shows
		typed := make([]string, len(st.answers))
		for i, a := range st.answers {
			typed[i] = shellQuote(a)
		}
		exec = "{ " + exec + "\n} < <(printf '%s\\n' " + strings.Join(typed, " ") + ")"
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: cmd.StartLine, Reason: fmt.Sprintf("typed the %d answers the tutorial's session shows at the questions it asks", len(st.answers))})
	}
	req := ss.request(exec, st.root, timeout)
	if background {
		req = ss.backgroundRequest(cmd.Text, st.root, timeout)
	}
	start := time.Now()
	var r loop.ExecResult
	var err error
	if denied := ss.sudoRedirectDenied(ctx, st, background); denied != "" {
		// `sudo echo … > /var/www/x`: the reader's own shell opens the file, not sudo
		r = loop.ExecResult{ExitCode: 1, Stderr: denied}
	} else if from, ok := ss.movedUp[cmd.StartLine]; ok && ss.recovered[from] {
		// the step ran already, moved up as the fix of line `from`: again it would only
		// find its work done (`mkdir box`: File exists)
		r = loop.ExecResult{ExitCode: 0}
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: cmd.StartLine, Reason: fmt.Sprintf("not run again: it ran before line %d as that line's fix", from)})
	} else if job, ok := ss.jobOf(cmd.Text); ok {
		// `kill %1` after `pelican --listen &`: a job of the reader's shell, whose job
		// table each step here does not keep, so the Student stops it
		ss.stopJob(ctx, job)
		r = loop.ExecResult{ExitCode: 0}
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: cmd.StartLine, Reason: fmt.Sprintf("stopped the job started at line %d, as `%s` does in the reader's shell", job.line, strings.TrimSpace(cmd.Text))})
	} else if r, err = ss.task.Sandbox.Exec(ctx, req); err != nil {
		return fmt.Errorf("run line %d: %w", cmd.StartLine, err)
	}
	if r.TimedOut && !background && st.repl == "" && reServing.MatchString(r.Stdout+r.Stderr) {
		// a server the heuristics did not know: it said it is serving, so start it again
		// in the background instead of reporting a timeout
		background = true
		if r, err = ss.task.Sandbox.Exec(ctx, ss.backgroundRequest(cmd.Text, st.root, timeout)); err != nil {
			return fmt.Errorf("run line %d in the background: %w", cmd.StartLine, err)
		}
	}
	if st.repl == "" && len(st.answers) == 0 && reTerminalOnly.MatchString(r.Stdout+r.Stderr) && !strings.Contains(cmd.Text, "script ") {
		// entr 5.3's "unable to get terminal attributes": the reader types it into a
		// terminal; util-linux's script gives the whole line one (its exit status with -e)
		wrapped := "script -qec " + shellQuote(cmd.Text) + " /dev/null"
		req2 := ss.request(wrapped, st.root, timeout)
		if background {
			req2 = ss.backgroundRequest(wrapped, st.root, timeout)
		}
		if r2, err := ss.task.Sandbox.Exec(ctx, req2); err == nil && !reTerminalOnly.MatchString(r2.Stdout+r2.Stderr) && !strings.Contains(r2.Stderr, "script: not found") && !strings.Contains(r2.Stderr, "script: command not found") {
			r2.Stdout, r2.Stderr = fromTerminal(r2.Stdout), fromTerminal(r2.Stderr)
			r = r2
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: cmd.StartLine, Reason: "needs a terminal, as the reader's has: run under `script`"})
		}
	}
	if !background && st.repl == "" && len(st.answers) == 0 && !r.TimedOut && reYesNoAsked.MatchString(r.Stdout+r.Stderr) && (r.ExitCode != 0 || reDeclined.MatchString(r.Stdout+r.Stderr)) {
		// Taskwarrior's "Delete task 2 'Renew library card'? (yes/no)": Enter alone says
		// no; the reader, doing what the tutorial does, says yes
		if r2, err := ss.task.Sandbox.Exec(ctx, ss.request("{ "+exec+"\n} < <(yes yes | head -n 32)", st.root, timeout)); err == nil && !r2.TimedOut {
			r = r2
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: cmd.StartLine, Reason: "answered yes at the program's yes/no question, as the reader doing this step would"})
		}
	}
	if !background && st.repl == "" && (r.ExitCode != 0 && r.ExitCode != 126 && r.ExitCode != 127 && !r.TimedOut) && reEarlyReader.MatchString(cmd.Text) {
		// `… | head -n 3`: with pipefail the writer's broken pipe fails the line, which a
		// reader's shell (no pipefail) never shows; run it as they would (a program that
		// is missing, 127, or cannot run, 126, fails for them too; so does a writer that
		// fails before the reader sees anything: `tar -tf missing.tzst | head -3` prints
		// only tar's error)
		if r2, err := ss.task.Sandbox.Exec(ctx, ss.request("set +o pipefail; "+cmd.Text, st.root, timeout)); err == nil && r2.ExitCode == 0 && !r2.TimedOut && (r.ExitCode == 141 || strings.TrimSpace(r2.Stdout) != "") {
			r = r2
			ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: cmd.StartLine, Reason: "failed only under pipefail (the reader of the pipe stops early); run without it"})
		}
	}
	if (r.ExitCode != 0 || reMailSpoolDenied.MatchString(r.Stdout+r.Stderr)) && !r.TimedOut && req.User != rootUser && ss.rootExec {
		// (anacron exits 0 when the mail of a job's output fails)
		why := ""
		switch {
		case reNoNewPrivs.MatchString(r.Stdout + r.Stderr):
			// a program that calls sudo itself (Ansible's become, an install script)
			why = "calls sudo itself, which the sandbox's no-new-privileges stops"
		case reNeedsRoot.MatchString(r.Stdout + r.Stderr):
			// crontab, fusermount, passwd…: setuid or setgid programs, which
			// no-new-privileges keeps from their rights; on the reader's machine they have them
			if p := ss.setuidProgram(ctx, cmd.Text); p != "" {
				why = "`" + p + "` needs its setuid or setgid rights, which the sandbox withholds"
			} else if reMailSpoolDenied.MatchString(r.Stdout+r.Stderr) && ss.setuidMailer(ctx) {
				// anacron and cron mail a job's output through sendmail (Debian's exim4,
				// setuid root), which cannot write its spool without those rights
				why = "the mailer it hands output to (`sendmail`) needs its setuid rights, which the sandbox withholds"
			}
		}
		if why != "" {
			if r2, err := ss.task.Sandbox.Exec(ctx, ss.asRoot(req, !st.root && !sudoOnly(cmd.Text))); err == nil {
				ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: cmd.StartLine, Reason: why + ": run through root, as the reader's sudo would"})
				r = r2
			}
		}
	}
	if r.ExitCode != 0 && !r.TimedOut && !background && st.repl == "" && ss.startForClient(ctx, cmd.Text, combine(r.Stdout, r.Stderr), cmd.StartLine) {
		// redis-cli after `apt install redis-server`: the reader's machine runs the service
		if r2, err := ss.task.Sandbox.Exec(ctx, req); err == nil {
			r = r2
		}
	}
	stderr, cwd := splitCwd(r.Stderr)
	if cwd != "" {
		ss.cwd = cwd
	}
	output := combine(r.Stdout, stderr)
	if st.repl != "" {
		// what this cell printed: the earlier cells' output comes first
		full := output
		output = afterCommonLines(ss.replOut[st.repl], output)
		if r.ExitCode == 0 && !r.TimedOut {
			ss.typedIn(st, cmd.Text, full)
		}
	}
	if rePassPrompt.MatchString(output) {
		ss.promptedAt = cmd.StartLine
	}
	rec := loop.CommandRecord{
		Iteration:  ss.task.Iteration,
		Step:       section(ss.task.Tutorial, cmd.StartLine),
		Line:       cmd.StartLine,
		Command:    cmd.Text,
		ExitCode:   r.ExitCode,
		TimedOut:   r.TimedOut,
		Background: background && r.ExitCode == 0 && !r.TimedOut && strings.Contains(r.Stdout, "left running in the background"),
		Duration:   time.Since(start),
		Output:     tail(output, maxRecordedOutput),
		OutputPath: r.OutputPath,
	}
	failed := r.ExitCode != 0 || r.TimedOut
	if failed && r.ExitCode == 1 && !r.TimedOut && foundDifferences(cmd.Text, output) {
		// `diff a b`, `cvs diff -r 1.1 -r 1.2 x`: status 1 says the files differ
		failed = false
	}
	if failed {
		rec.Class, rec.Summary = loop.Classify(cmd.Text, r.ExitCode, output, r.TimedOut)
	}
	if line := reportedError(cmd.Text, output, firstNonEmpty(st.command.Output, st.expected)); !failed && !background && line != "" {
		// `pass git init` exits 0 although the git commit it runs failed
		failed = true
		rec.Class, rec.Summary = loop.Classify(cmd.Text, 1, output, false)
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: cmd.StartLine, Reason: "exited 0 but printed an error (\"" + loop.Clip(line, 80) + "\"): judged as a failure"})
	}
	if line := reWatchedError.FindString(output); !failed && background && isWatcher(cmd.Text) && line != "" {
		// `ls notes/*.md | entr ./check.sh`: entr keeps running, and the script it runs
		// failed in front of the reader
		failed = true
		rec.Class, rec.Summary = loop.Classify(cmd.Text, 1, output, false)
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: cmd.StartLine, Reason: "keeps running, but the command it runs on each change failed (\"" + loop.Clip(strings.TrimSpace(line), 80) + "\"): judged as a failure"})
	}
	if background {
		pid := 0
		if m := reBackgroundPid.FindStringSubmatch(r.Stdout); m != nil {
			pid, _ = strconv.Atoi(m[1])
		}
		sv := server{line: cmd.StartLine, command: cmd.Text, root: serverRunning, log: fmt.Sprintf("%s-%d.log", backgroundLogsPath, ss.bg), pid: pid}
		if named := terminalsNamed(st.lead); len(named) > 0 {
			sv.terminal = named[len(named)-1]
		}
		ss.servers = append(ss.servers, sv)
	}
	// what a server the tutorial started logged while this request ran: the reader sees
	// it in the server's terminal
	logged := ""
	if !background && reLocalURL.MatchString(cmd.Text) {
		logged = ss.serverErrors(ctx)
	}
	ss.cov.Run++
	ss.res.Commands = append(ss.res.Commands, rec)
	ss.res.CommandsRun = append(ss.res.CommandsRun, cmd.Text)
	verb := "ran"
	if rec.Background {
		verb = "started in the background"
	}
	ss.res.AttemptedActions = append(ss.res.AttemptedActions, fmt.Sprintf("line %d: %s `%s` (exit %d)", cmd.StartLine, verb, firstLine(cmd.Text), r.ExitCode))
	ss.task.Events.Emit(loop.NewEvent(loop.EventCommand, rec))
	ss.task.Events.Emit(loop.NewEvent(loop.EventStepEnd, loop.StepData{Step: firstLine(cmd.Text), Line: cmd.StartLine, OK: !failed}))
	if !failed {
		if cdTarget(cmd.Text) != "" || strings.HasPrefix(strings.TrimSpace(cmd.Text), "cd ") || slices.ContainsFunc(splitList(cmd.Text), func(p string) bool { return cdTarget(p) != "" }) {
			ss.cwdRoot = -1 // (`mkdir -p shelf/data && cd shelf` too)
		}
		ss.clearTaint(cmd.Text)
		for _, m := range reRelRedirect.FindAllStringSubmatch(cmd.Text, -1) {
			// `cat > anim/orbit.ini <<'EOF'`: made where the session was
			ss.made = append(ss.made, path.Join(startCwd, m[1]))
		}
		for _, m := range reOverwrite.FindAllStringSubmatch(cmd.Text, -1) {
			if p := absFrom(startCwd, ss.home, m[1]); !strings.HasPrefix(p, "/dev/") {
				ss.overwrites[p] = append(ss.overwrites[p], writer{cmd.StartLine, cmd.Text})
			}
		}
		if _, apt := aptInstall(cmd.Text); apt && !rec.Background {
			ss.noteServices(ctx, rec)
		}
		folded := -1
		if f, ok := ss.waitsForInput(ctx, i, rec); ok && !rec.Background {
			// `gearman -f thumbs -b -N`, then `… < backlog.txt` further down
			ss.addFinding(rec, f, output)
		} else if !rec.Background {
			ss.failRoot = -1
			ss.checkOutput(ctx, st, rec, output, logged) // lastRun is still the step before this one
			folded = ss.failRoot
		}
		ss.lastRun, ss.foldedRun = i, folded
		return nil
	}
	ss.cov.Failed++
	ss.prevFailed = ss.lastFailedStep == ss.lastRun && ss.lastRun >= 0
	defer func() { ss.lastRun, ss.foldedRun = i, -1 }()
	before, nf := len(ss.roots), len(ss.res.Findings)
	prevRoot, prevFailRoot, prevFailed, prevCwdRoot := ss.lastRoot, ss.lastFailRoot, ss.lastFailedStep, ss.cwdRoot
	ss.failRoot = -1
	if logged != "" {
		output += "\n" + logged
	}
	ss.judge(ctx, i, st, rec, output)
	ss.lastFailRoot = ss.failRoot
	if len(ss.roots) > before {
		ss.lastFailRoot = len(ss.roots) - 1
	}
	went := false
	if failRoot := ss.lastFailRoot; failRoot >= 0 {
		defer func() {
			if !went && !ss.recovered[rec.Line] {
				ss.taintAbsent(ctx, rec, failRoot)
			}
		}()
	}
	ss.lastFailTool = firstWord(cmd.Text)
	if background && len(ss.servers) > 0 {
		ss.servers[len(ss.servers)-1].root = max(ss.lastRootOf(before), 0)
	}
	if len(ss.roots) > before {
		ss.lastRoot = len(ss.roots) - 1
		if ss.roots[ss.lastRoot].finding < 0 {
			if _, ok := ss.blockRoots[st.block.StartLine]; !ok {
				ss.blockRoots[st.block.StartLine] = ss.lastRoot
			}
		}
	}
	ss.lastFailedStep = i
	// wentOn: the reader got past this failure, so what follows runs from the state the
	// tutorial meant; later failures are its own and nothing more depends on this one
	wentOn := func() {
		went = true
		ss.lastRoot, ss.lastFailRoot, ss.lastFailedStep, ss.cwdRoot = prevRoot, prevFailRoot, prevFailed, prevCwdRoot
		ss.lastFailTool = ""
	}
	if ss.substituted {
		// the reader ran the corrected command instead
		ss.substituted = false
		wentOn()
		return nil
	}
	fix, replace := ss.recoveryFix(nf, rec, output)
	if len(fix) == 0 && replace == "" || ss.noVerify {
		return nil
	}
	ok, rerun := ss.recoverStep(ctx, st, fix, replace, background)
	var out2 string
	if !ok {
		if rerun == nil {
			return nil
		}
		// the fix worked (make is installed) but the step still fails: a gap of its own
		// only for an error in what the tutorial wrote (its Makefile's link, a line of
		// its source); anything else, a missing file above all, may be this one's sequel,
		// and the failure stands as it was
		stderr2, _ := splitCwd(rerun.Stderr)
		out2 = combine(rerun.Stdout, stderr2)
		lib, _ := missingLib(out2)
		if failureKey(cmd.Text, out2) == failureKey(cmd.Text, output) || lib == "" && (ss.contentLine(out2) == 0 || reNotThere.MatchString(keyLine(out2))) {
			return nil
		}
	}
	// the reader applied the fix and went on
	wentOn()
	ss.clearTaint(cmd.Text)
	if kind, name := loop.MissingDependency(rec.ExitCode, output); kind == "command" || rec.ExitCode == 127 {
		delete(ss.missing, toolOf(firstNonEmpty(name, firstWord(cmd.Text))).Name)
	}
	if ok {
		return nil
	}
	rec2 := rec
	rec2.ExitCode, rec2.TimedOut, rec2.Output, rec2.OutputPath = rerun.ExitCode, rerun.TimedOut, tail(out2, maxRecordedOutput), rerun.OutputPath
	rec2.Class, rec2.Summary = loop.Classify(cmd.Text, rerun.ExitCode, out2, rerun.TimedOut)
	ss.res.Commands = append(ss.res.Commands, rec2)
	if left := ss.emptyLeftovers(ctx, time.Since(start)); len(left) > 0 && nf < len(ss.res.Findings) {
		// `./mkversion.sh > version.h` failed and left version.h empty, which make now
		// takes as made: the rerun's error is that one's, and so is its fix
		f := &ss.res.Findings[nf]
		f.Problem += fmt.Sprintf("; the failed run also left %s empty, and a rerun after the fix takes %s as made", quoteList(left), plural(len(left), "it", "them"))
		f.Fix += fmt.Sprintf(", and remove %s, which the failed run left empty (`rm %s`)", quoteList(left), strings.Join(left, " "))
		if f.Edit != nil && len(f.Edit.InsertBefore) > 0 {
			f.Edit.InsertBefore = append(f.Edit.InsertBefore, "rm -f "+strings.Join(left, " "))
		}
		ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: st.line, Reason: fmt.Sprintf("after the fix (`%s`) the step failed on what the failed run left empty (%s)", strings.Join(fix, "; "), strings.Join(left, ", "))})
		for k := range ss.roots {
			if ss.roots[k].finding == nf {
				ss.roots[k].also = failureKey(cmd.Text, out2)
			}
		}
		return nil
	}
	ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: st.line, Reason: fmt.Sprintf("after the fix (`%s`) the step failed on something else", strings.Join(fix, "; "))})
	ss.failRoot = -1
	ss.judge(ctx, i, st, rec2, out2)
	ss.lastFailedStep = i
	if len(ss.roots) > 0 {
		ss.lastRoot, ss.lastFailRoot = len(ss.roots)-1, len(ss.roots)-1
	}
	return nil
}

// emptyLeftovers: the empty files under the session's folder (two levels down) that were
// written in the last since, by the step that failed: what a shell redirection made before
// the command behind it failed (make's `./gen.sh > version.h`), relative to the folder.
func (ss *session) emptyLeftovers(ctx context.Context, since time.Duration) []string {
	secs := int(since.Seconds()) + 2
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: fmt.Sprintf("cd %s && find . -maxdepth 2 -type f -empty -newermt \"-%d seconds\" ! -path './.*' | head -n 5", shellQuote(ss.cwd), secs), Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return nil
	}
	var left []string
	for _, l := range strings.Fields(r.Stdout) {
		left = append(left, strings.TrimPrefix(l, "./"))
	}
	return left
}

// recoveryFix is what a reader stuck at this failure would do before going on: the
// concrete fix of the finding just recorded (an install, a chmod, a mkdir, a cd, a Git
// identity) or, for a failure folded into an earlier one, the fix its own output names.
// Nil when there is none.
// A fix that replaces the step (run it with sudo) is its new text, run in its place.
func (ss *session) recoveryFix(nf int, rec loop.CommandRecord, output string) ([]string, string) {
	if len(ss.res.Findings) > nf {
		f := ss.res.Findings[nf]
		switch {
		case f.Edit == nil || f.Environment:
			// an environment finding is the run's set-up to change (smile.json's setup), not the reader's
		case len(f.Edit.InsertBefore) > 0:
			return localIdentity(f.Edit.InsertBefore), ""
		case f.Edit.Replace != "" && !strings.Contains(rec.Command, "\n"):
			return nil, f.Edit.Replace
		}
		return nil, ""
	}
	if _, e := failureFix(rec, output); e != nil && len(ss.roots) > 0 && ss.failRoot >= 0 && ss.roots[ss.failRoot].finding >= 0 {
		return localIdentity(e.InsertBefore), ""
	}
	return nil, ""
}

// localIdentity sets a Git identity for the repository at hand only: the reader's
// ~/.gitconfig is the tutorial's to write (a dotfiles tutorial stows its own).
func localIdentity(fix []string) []string {
	out := make([]string, len(fix))
	for i, c := range fix {
		out[i] = strings.Replace(c, "git config --global user.", "git config user.", 1)
	}
	return out
}

// recover runs fix and then the failed step again; true when the step then works.
func (ss *session) recover(ctx context.Context, st step, fix []string) bool {
	ok, _ := ss.recoverOr(ctx, st, fix)
	return ok
}

// recoverOr is recover that also gives the step's new result when the fix itself worked
// but the step then failed (nil when the fix failed or the step worked).
func (ss *session) recoverOr(ctx context.Context, st step, fix []string) (bool, *loop.ExecResult) {
	return ss.recoverStep(ctx, st, fix, "", false)
}

// recoverStep is recoverOr with the step's text replaced (replace, when not "") and, for a
// server (background), the step started again in the background.
func (ss *session) recoverStep(ctx context.Context, st step, fix []string, replace string, background bool) (bool, *loop.ExecResult) {
	text := firstNonEmpty(replace, st.command.Text)
	for k, c := range append(append([]string(nil), fix...), text) {
		if k == len(fix) {
			c = ss.typed(st, c)
		}
		req := ss.request(c, k == len(fix) && st.root, stepTimeout(ss.task.Behavior.TimeoutSeconds, c))
		if k == len(fix) && background {
			req = ss.backgroundRequest(c, st.root, stepTimeout(ss.task.Behavior.TimeoutSeconds, c))
		}
		r, err := ss.task.Sandbox.Exec(ctx, req)
		if k == len(fix) && background && err == nil && r.ExitCode == 0 && !r.TimedOut && len(ss.servers) > 0 {
			// the server is up now: requests go to it
			srv := &ss.servers[len(ss.servers)-1]
			srv.root, srv.log, srv.seen, srv.command = serverRunning, fmt.Sprintf("%s-%d.log", backgroundLogsPath, ss.bg), 0, c
			if m := reBackgroundPid.FindStringSubmatch(r.Stdout); m != nil {
				// (its new process, which the prose may later have the reader stop)
				srv.pid, _ = strconv.Atoi(m[1])
			}
		}
		if err == nil && k == len(fix) && (r.ExitCode != 0 || r.TimedOut) {
			if _, cwd := splitCwd(r.Stderr); cwd != "" {
				ss.cwd = cwd
			}
			return false, &r
		}
		if err != nil || r.ExitCode != 0 || r.TimedOut {
			return false, nil
		}
		if _, cwd := splitCwd(r.Stderr); cwd != "" {
			ss.cwd = cwd
		}
		if k == len(fix) && rePassPrompt.MatchString(r.Stdout+r.Stderr) {
			ss.promptedAt = st.line
		}
		if k == len(fix) {
			ss.typedIn(st, text, combine(r.Stdout, r.Stderr))
		}
	}
	ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: st.line,
		Reason: fmt.Sprintf("went on after applying the fix (`%s`): the step then worked", strings.Join(fix, "; "))})
	ss.recovered[st.line] = true
	return true, nil
}

// substitute runs cmd in place of the failed step (the package Debian has, where the
// tutorial names one it does not); true when it works, and the reader goes on from there.
func (ss *session) substitute(ctx context.Context, st step, cmd string) bool {
	r, err := ss.task.Sandbox.Exec(ctx, ss.request(cmd, st.root, stepTimeout(ss.task.Behavior.TimeoutSeconds, cmd)))
	if err != nil || r.ExitCode != 0 || r.TimedOut {
		return false
	}
	ss.cov.Heuristics = append(ss.cov.Heuristics, loop.Note{Line: st.line, Reason: fmt.Sprintf("went on after running `%s` in its place", cmd)})
	ss.substituted = true
	return true
}

// reEarlyReader: a pipeline whose last stage may stop reading before the writer ends.
var reEarlyReader = regexp.MustCompile(`\|\s*(?:head|grep -[a-zA-Z]*[qm]|sed -n \S*q|awk\b[^|]*\bexit\b|less|more)\b[^|]*$`)

// clientRequest: programs that ask a server and end.
var clientRequest = map[string]bool{"curl": true, "wget": true, "http": true, "https": true, "xh": true, "grpcurl": true}

// sessionBuiltin: commands that change the shell itself, which a background subshell
// would lose (whatever the prose says of the block they are in).
var sessionBuiltin = map[string]bool{"export": true, "cd": true, "source": true, ".": true, "alias": true, "set": true, "unset": true, "shopt": true, "umask": true}

// taintAbsent marks the files a failed command names that are not there after it, or
// empty (what it was to write, `-F ridge-6.gpx`, the empty pxelinux.0 a timed-out tftp
// left, or an input it lacked) as depending on root r: a later step that uses them fails
// because of it.
func (ss *session) taintAbsent(ctx context.Context, rec loop.CommandRecord, r int) {
	var args []string
	for _, part := range splitList(rec.Command) {
		for _, a := range strings.Fields(part)[1:] {
			if a = strings.Trim(a, `"'`); !strings.HasPrefix(a, "-") && !strings.Contains(a, "://") && looksLikePath(a) && !strings.HasPrefix(a, "~") {
				args = append(args, a)
			}
		}
	}
	if len(args) == 0 {
		return
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	res, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: "cd " + shellQuote(ss.cwd) + " 2>/dev/null && for f in " + strings.Join(quoted, " ") + `; do [ -s "$f" ] || printf '%s\n' "$f"; done`, Timeout: 10 * time.Second, User: ss.user})
	if err != nil || res.ExitCode != 0 {
		return
	}
	for _, a := range strings.Fields(res.Stdout) {
		if _, ok := ss.taintPaths[ss.abs(a)]; !ok {
			ss.taintPaths[ss.abs(a)] = r
		}
	}
}

// clearTaint: a step that worked produced what it names, whatever failed before.
func (ss *session) clearTaint(cmd string) {
	p := predict(cmd)
	for _, x := range p.paths {
		delete(ss.taintPaths, ss.abs(x))
	}
	for _, t := range p.tools {
		delete(ss.taintTools, toolOf(t).Name)
	}
}

func (ss *session) abs(p string) string { return absFrom(ss.cwd, ss.home, p) }

// absFrom is path p as the shell resolves it in folder cwd, for the user whose home is
// home.
func absFrom(cwd, home, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	if strings.HasPrefix(p, "~/") {
		return path.Join(firstNonEmpty(home, "/root"), p[2:])
	}
	return path.Join(cwd, p)
}

// taint marks what a failed command was meant to produce as depending on root r, unless
// the fix the reader applied made the step work after all (`gcc -o wordcount …` once gcc
// is installed: wordcount is there).
func (ss *session) taint(rec loop.CommandRecord, r int) {
	if ss.recovered[rec.Line] {
		return
	}
	p := predict(rec.Command)
	for _, x := range p.paths {
		if _, ok := ss.taintPaths[ss.abs(x)]; !ok {
			ss.taintPaths[ss.abs(x)] = r
		}
	}
	for _, t := range p.tools {
		if _, ok := ss.taintTools[toolOf(t).Name]; !ok {
			ss.taintTools[toolOf(t).Name] = r
		}
	}
}

// unusedBlocks are notes for the blocks no step comes from: the output a command shows
// (said so), or a block the Student could not place, neither commands nor a file the
// prose names, so that the coverage says it was left out.
func unusedBlocks(blocks []tutorial.CodeBlock, steps []step) []loop.Note {
	used := map[int]bool{}
	shown := map[string]int{}
	for _, s := range steps {
		used[s.block.StartLine] = true
		if s.expected != "" && s.command != nil {
			shown[s.expected] = s.line
		}
	}
	var notes []loop.Note
	for _, cb := range blocks {
		if used[cb.StartLine] || strings.TrimSpace(cb.Content) == "" {
			continue
		}
		reason := "not run and not written: neither shell commands nor a file the prose names"
		if at, ok := shown[cb.Content]; ok {
			reason = fmt.Sprintf("output the tutorial shows for line %d", at)
		}
		notes = append(notes, loop.Note{Line: cb.StartLine, Reason: reason})
	}
	return notes
}

// finish sets the status from the findings and the coverage.
func (ss *session) finish() loop.StudentResult {
	r := &ss.res
	cov := ss.cov
	r.Coverage = &cov
	nCmd, nFile := cov.Run, cov.Files
	if len(r.Findings) == 0 {
		r.Status = loop.StudentCompleted
		r.Summary = fmt.Sprintf("ran %d command(s) and wrote %d file(s); every step that could be checked worked (%s)", nCmd, nFile, coverageLine(cov))
		r.Coverage.Inconclusive = inconclusive(cov)
		return *r
	}
	best := loop.TriggerNone
	for _, f := range r.Findings {
		if f.Trigger != loop.TriggerNone && (best == loop.TriggerNone || loop.MoreSpecific(f.Trigger, best)) {
			best = f.Trigger
		}
	}
	first := r.Findings[0]
	r.CurrentStep = firstNonEmpty(first.Step, fmt.Sprintf("line %d", first.Line))
	r.Problem = first.Problem
	if len(r.Findings) > 1 {
		r.Problem += fmt.Sprintf(" (and %d more gap(s))", len(r.Findings)-1)
	}
	r.Summary = fmt.Sprintf("ran %d command(s) and wrote %d file(s); %d gap(s) found (%s)", nCmd, nFile, len(r.Findings), coverageLine(cov))
	if best == loop.TriggerNone {
		r.Status = loop.StudentCannotComplete
		r.Reason = r.Problem + " — the matching stuck triggers are disabled"
		return *r
	}
	r.Status = loop.StudentAskMentor
	r.Trigger = best
	r.QuestionForMentor = fmt.Sprintf("What is the tutorial missing? %d step(s) failed; the first at line %d.", len(r.Findings), first.Line)
	return *r
}

func coverageLine(c loop.Coverage) string {
	return fmt.Sprintf("%d of %d command(s) run, %d unverified, %d skipped; %d file(s) written", c.Run, c.Commands, len(c.Unverified), len(c.Skipped), c.Files)
}

// inconclusive says why a run without findings cannot be called a pass ("" when it can):
// nothing ran, or fewer than half of the commands it ran or could run were verified.
func inconclusive(c loop.Coverage) string {
	if c.Run == 0 && c.Files == 0 {
		if c.Commands == 0 {
			return "the tutorial has no command to run and no file to create, so nothing could be checked"
		}
		return fmt.Sprintf("no command could be run: all %d were skipped (%s)", c.Commands, topReasons(c.Skipped))
	}
	verified := c.Run - len(c.Unverified)
	if verified*2 < c.Run {
		return fmt.Sprintf("most of the tutorial could not be checked: %d of %d command(s) run were unverifiable (%s)", len(c.Unverified), c.Run, topReasons(c.Unverified))
	}
	return ""
}

// topReasons names the commonest reasons of notes.
func topReasons(notes []loop.Note) string {
	count := map[string]int{}
	var order []string
	for _, n := range notes {
		k := n.Reason
		if i := strings.Index(k, " ("); i > 0 {
			k = k[:i]
		}
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	var parts []string
	for i, k := range order {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %d", k, count[k]))
	}
	return strings.Join(parts, "; ")
}

// lastRootOf is the root the judged failure belongs to: a new one, or the most recent.
func (ss *session) lastRootOf(before int) int {
	if len(ss.roots) > before {
		return len(ss.roots) - 1
	}
	return ss.lastRoot
}

// prepare makes the container look like the fresh machine a tutorial is written for: a
// Debian machine has package lists, a fresh container has none, so `apt-get install`
// would fail before the tutorial's first step. Best effort: without a mirror nothing
// changes, and the install steps are judged as they come.
func (ss *session) prepare(ctx context.Context) {
	if ss.task.Sandbox == nil {
		return
	}
	_, _ = ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: aptListsScript, Timeout: 2 * time.Minute})
}

const aptListsScript = `if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' 2>/dev/null | head -n 1)" ]; then DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true; fi`

// reBackgroundPid: the pid backgroundScript reports for a command left running.
var reBackgroundPid = regexp.MustCompile(`left running in the background as pid (\d+)`)

// reYesNoAsked: a program asking a yes/no question; reDeclined: what it says when the
// answer was no (Taskwarrior 2.6: "Task not deleted.", "No changes made.").
var (
	reYesNoAsked = regexp.MustCompile(`(?i)\((?:yes/no|y/n)\)|\[(?:y/n|Y/n|y/N)\]`)
	reDeclined   = regexp.MustCompile(`(?i)\bnot (?:deleted|removed|modified|changed|added|done)\b|\bno changes made\b|\baborted\b|\bcancel+ed\b`)
)

// leadKeepsRunning: a sentence of the lead says the command below does not end by itself.
// A stop order counts too while nothing runs that it could stop ("Stop watching with
// Ctrl+C." over `node --test --watch`, the first long-running command of the page).
func (ss *session) leadKeepsRunning(sentence string) bool {
	if keepsRunning(sentence) {
		return true
	}
	if !reKeepsRunning.MatchString(sentence) {
		return false
	}
	if n := len(ss.res.Commands); n > 0 && ss.res.Commands[n-1].TimedOut {
		// the order to stop what the step before kept running in the foreground
		return false
	}
	// (with any server started before, even one this very sentence stops, the order is
	// about that one: "Stop the server with Ctrl+C, then change the page:")
	return len(ss.servers) == 0
}

// reStopServer: prose telling the reader to stop what runs in the foreground ("Stop
// Gunicorn with Ctrl+C before you go on", "Press Ctrl-C to stop the server", "Ctrl+C,
// then start the persistent server").
var reStopServer = regexp.MustCompile(`(?i)\b(?:stop|quit|kill|shut (?:it )?down|interrupt)\b[^.]*\bctrl(?:</kbd>)?\s*[+-]\s*(?:<kbd>)?c\b|\bctrl(?:</kbd>)?\s*[+-]\s*(?:<kbd>)?c\b(?:</kbd>)?,?\s+(?:and|then)\s+(?:start|restart|run|repeat)\b|\bctrl(?:</kbd>)?\s*[+-]\s*(?:<kbd>)?c\b[^.]*\b(?:to stop|to quit|before you go on|before continuing)\b|\bstop the (?:[\w-]+ ){0,2}(?:server|app|service|process|daemon|listener)\b`)

// reWaitLead: the prose has the reader wait before the block ("Give it a couple of
// seconds", "wait a few seconds, then").
var reWaitLead = regexp.MustCompile(`(?i)\b(?:give it|wait|after)(?: for)? (?:a (?:couple of|few|moment)|several|some|\d+|two|three|five|ten) seconds?\b|\bwait a (?:moment|bit|second)\b`)

// waitedLead is how long the reader waits where the prose says to.
const waitedLead = 5 * time.Second

// beforeRun does what the prose before a command has the reader do first: stop a server
// it says to stop, wait where it says to wait.
func (ss *session) beforeRun(ctx context.Context, st step) {
	ss.stopServers(ctx, st)
	if reWaitLead.MatchString(st.lead) && st.command != nil && st.command.StartLine == st.block.ContentStartLine {
		// "Give it a couple of seconds to start the program, then ask for its status:"
		select {
		case <-ctx.Done():
		case <-time.After(waitedLead):
		}
	}
}

// reToolError: a line in which a program reports its own failure (git's "fatal: …",
// "error: …"); "error: " counts only for git and the tools that run it.
var reToolError = regexp.MustCompile(`(?m)^(?:fatal|error): .+$`)

// reCrash: the shell reporting that a program it ran crashed.
var reCrash = regexp.MustCompile(`(?m)^(?:[\w./-]+: line \d+: +\d+ +)?(?:Segmentation fault|Illegal instruction|Bus error|Floating point exception|Aborted)(?: \(core dumped\))?(?:[ \t]+\S.*)?$`)

// reStarsError: an error line marked with three stars (GP's "  ***   at top-level: …",
// SCons's "scons: *** …") with words in it, not only a caret under the culprit.
var reStarsError = regexp.MustCompile(`(?m)^(?:[ \t]*|\w+: )\*\*\*[ \t]+[^\n]*[A-Za-z][^\n]*$`)

// unmatchedGlob is the line of output that names one of the command's file patterns, as
// it is written, as missing: the pattern matched no file ("" when none).
func unmatchedGlob(cmd, output string) string {
	var globs []string
	for _, w := range strings.Fields(cmd) {
		if w = strings.Trim(w, `"';`); strings.ContainsAny(w, "*?[") && !strings.ContainsAny(w, "$=(){}") && looksLikePath(strings.NewReplacer("*", "x", "?", "x", "[", "", "]", "").Replace(w)) {
			globs = append(globs, w)
		}
	}
	if len(globs) == 0 {
		return ""
	}
	for _, l := range strings.Split(output, "\n") {
		if !reNotThere.MatchString(l) {
			continue
		}
		for _, g := range globs {
			if strings.Contains(l, g) {
				return strings.TrimSpace(l)
			}
		}
	}
	return ""
}

// reOSErrorLine: the system refusing a program a file ("[Errno 13] Permission denied:
// '/usr/lib/…'", "cp: cannot create regular file 'x': Permission denied").
var reOSErrorLine = regexp.MustCompile(`(?m)^.*(?:\[Errno \d+\] [A-Z][^\n]*|: Permission denied)$`)

// reInputMissing: a line saying that a file the program was to read is not there: the
// path before "No such file or directory" (which must be one the command names; gdb's
// "warning: crash.gdb: …" too), or a quoted path after "Missing …".
var reInputMissing = regexp.MustCompile(`(?m)^(?:[\w-]+: )?([\w./~-]+\.\w+): No such file or directory$|^Missing [A-Za-z ]{1,30} '([\w./~-]+/[\w.-]+)'$`)

// reFileLineError: an error about a line of a file, written `file(line): message`.
var reFileLineError = regexp.MustCompile(`(?m)^([\w./~-]+\.\w+)\((\d+)\): [A-Z][^\n]*$`)

// reDiffLine: a line of a diff in any of its formats ("> new", "+new", "@@ -1 +1 @@",
// "3c3").
var reDiffLine = regexp.MustCompile(`(?m)^(?:[<>] |[-+][^-+]|@@ |\d+(?:,\d+)?[acd]\d+(?:,\d+)?$)`)

// foundDifferences: a comparison (`diff`, `cmp`, a version control tool's `diff`) that
// printed its differences: its status 1 says they differ, not that it failed.
func foundDifferences(cmd, output string) bool {
	if strings.ContainsAny(cmd, "|;&\n") {
		return false
	}
	w := strings.Fields(strings.TrimPrefix(strings.TrimSpace(cmd), "sudo "))
	if len(w) == 0 {
		return false
	}
	switch {
	case w[0] == "diff" || w[0] == "cmp" || w[0] == "colordiff" || w[0] == "dwdiff" || w[0] == "wdiff":
	case len(w) > 1 && slices.Contains([]string{"cvs", "rcsdiff"}, w[0]) && slices.Contains(w[1:], "diff"):
	default:
		return false
	}
	if reStdoutToFile.MatchString(cmd) && !reDiffTrouble.MatchString(output) {
		// `diff -u a b > loans.patch`: the differences went to the file (dwdiff -s
		// prints its statistics on the error output)
		return true
	}
	return reDiffLine.MatchString(output) || w[0] == "cmp" && strings.Contains(output, " differ: ") ||
		(w[0] == "dwdiff" || w[0] == "wdiff") && reWordDiff.MatchString(output)
}

var (
	// reStdoutToFile: the command's standard output goes to a file (`> x`, not `2> x`)
	reStdoutToFile = regexp.MustCompile(`(?:^|[^0-9&>])>>?\s*[^\s&>]`)
	// reDiffTrouble: a comparing program's own error, not a difference
	reDiffTrouble = regexp.MustCompile(`(?i)no such file|can't open|cannot open|permission denied|\berror\b|invalid option|unrecognized option|usage:|missing operand`)
	// reWordDiff: wdiff's and dwdiff's markers of deleted and inserted words
	reWordDiff = regexp.MustCompile(`\[-[^\n]*?-\]|\{\+[^\n]*?\+\}`)
)

// textPrinters print files or text they are given, errors in it included.
var textPrinters = map[string]bool{"cat": true, "grep": true, "egrep": true, "head": true, "tail": true, "less": true, "more": true, "sed": true, "awk": true,
	"echo": true, "printf": true, "jq": true, "sort": true, "uniq": true, "cut": true, "tee": true, "diff": true, "journalctl": true, "tr": true, "wc": true}

var (
	// reLocaleRefused: bash's warning (locale.c, set_locale_var) for a locale the system
	// has not generated
	reLocaleRefused = regexp.MustCompile(`[^\n]*setlocale: (?:LC_\w+|LANG|LANGUAGE): cannot change locale \(([^)\n]+)\)[^\n]*`)
	// reSetsLocale: a command that sets a locale variable (`export LC_ALL=…`, `LANG=… cmd`)
	reSetsLocale = regexp.MustCompile(`(?:^|[\s;&|(])(?:LC_\w+|LANG|LANGUAGE)=`)
)

// reLiteralTilde: an error about a path that starts with a `~` no shell expanded.
var reLiteralTilde = regexp.MustCompile(`(?m)^[^\n]*(?:[\s'"‘“]|^)~/[^\n]*(?:[Nn]o such file|[Cc]ouldn't open|[Cc]annot open|[Cc]an't open|[Cc]ould not open|[Ff]ailed to open)[^\n]*$|^[^\n]*(?:[Cc]ouldn't open|[Cc]annot open|[Cc]an't open|[Cc]ould not open|[Ff]ailed to open)(?: file)? ['"‘“]?~/[^\n]*$`)

// reNotThereLine: a line of output saying something is not there.
var reNotThereLine = regexp.MustCompile(`(?mi)^[^\n]*(?:no such file|does not exist|cannot access|can't open|cannot open)[^\n]*$`)

// reTerminalOnly: a line-mode program that refuses to run without a terminal (entr
// 5.3's entr.c: "unable to get terminal attributes, use '-n' to run non-interactively"),
// which a pseudo-terminal satisfies (full-screen ones are reNeedsTerminal).
var reTerminalOnly = regexp.MustCompile(`unable to get terminal attributes|stdin is not a tty|standard input is not a terminal`)

// fromTerminal is what a program printed to a terminal as a reader sees it: without the
// carriage returns (combine drops the escape sequences that clear or colour the screen).
func fromTerminal(s string) string {
	return strings.ReplaceAll(s, "\r", "")
}

// reMarkedError: an error line a program marks with a cross, as lnav does.
var reMarkedError = regexp.MustCompile(`(?m)^\s*[✘✖❌]\s*(?i:error)\b[^\n]*`)

// reIgnoredArgs: a line where a program says it did not take an argument it was given.
var reIgnoredArgs = regexp.MustCompile(`(?mi)^(?:error: )?(?:extra argument|unknown option|unrecognized option|invalid option)\b[^\n]*`)

// reportedError is the error line a command printed although it exited 0, when the
// tutorial shows no error for it ("" otherwise).
func reportedError(cmd, output, shown string) string {
	if name := shownValueQuoted(cmd, output, shown); name != "" {
		// `jo heading='No results for "$QUERY"'` prints `$QUERY` where the tutorial
		// shows the value
		for _, l := range strings.Split(output, "\n") {
			if strings.Contains(l, "$"+name) {
				return strings.TrimSpace(l)
			}
		}
	}
	if l := reLiteralTilde.FindString(output); l != "" && !strings.Contains(shown, "~/") {
		// num-utils' "Couldn't open file ~/steps/week19.txt for reading", exit 0: a `~`
		// the shell never expanded (it was quoted) reached the program
		return strings.TrimSpace(l)
	}
	if l := reNotThereLine.FindString(output); l != "" && quotedTildeArg(cmd) != nil && !reNotThere.MatchString(shown) {
		// `mini_httpd -d "~/lab-www"` forks, exits 0 and its child says "chdir: No such
		// file or directory"
		return strings.TrimSpace(l)
	}
	if l := reLocaleRefused.FindString(output); l != "" && reSetsLocale.MatchString(cmd) && !strings.Contains(shown, "cannot change locale") {
		// `export LC_ALL=ja_JP.UTF-8` on a system without that locale: bash 5.2 warns
		// "setlocale: LC_ALL: cannot change locale (ja_JP.UTF-8)", exits 0, and the
		// programs after it fall back to the C locale (`wc -m` counts bytes)
		return strings.TrimSpace(l)
	}
	if l := unmatchedGlob(cmd, output); l != "" && !strings.Contains(strings.ToLower(shown), "no such file") {
		// `for t in tests/test_*.sh; do sh "$t" || status=1; done` from the wrong folder:
		// the pattern matched nothing and went to sh as it is ("sh: 0: cannot open
		// tests/test_*.sh: No such file"), whatever the loop does with the status
		return l
	}
	if segs := strings.Split(cmd, "|"); len(segs) > 1 {
		// `echo 'factor(2^64+1)' | gp -q`: the program at the end of the pipe speaks,
		// unless it only passes on text it was given (`… | grep x`)
		if strings.Contains(cmd, "||") || !textPrinters[firstWord(segs[0])] {
			return ""
		}
		cmd = strings.TrimSpace(segs[len(segs)-1])
	}
	if parts := splitList(cmd); len(parts) > 1 && !strings.Contains(cmd, "||") && !textPrinters[firstWord(parts[len(parts)-1])] {
		// `echo 'layout python' > .envrc && direnv allow`: the last program speaks (not
		// the `echo "exit status: $?"` after `./status;`)
		cmd = strings.TrimSpace(parts[len(parts)-1])
	}
	if textPrinters[firstWord(cmd)] || strings.HasPrefix(strings.TrimSpace(cmd), "!") {
		return ""
	}
	if l := reCrash.FindString(output); l != "" && !reCrash.MatchString(shown) {
		// `./status; echo "exit status: $?"`: the program crashed, the line went on
		return strings.TrimSpace(l)
	}
	if ls := reStarsError.FindAllString(output, -1); len(ls) > 0 && !strings.Contains(shown, "***") {
		// GP's "  ***   at top-level: …", "  ***   ^---", "  *** parselect: mt: please use
		// export(aliquot)." then "... skipping file", exit 0
		return strings.TrimSpace(ls[len(ls)-1])
	}
	if l := reOSErrorLine.FindString(output); l != "" && !strings.Contains(strings.ToLower(shown), "denied") && !strings.Contains(shown, "Errno") {
		// `pelican-themes --install` prints "[Errno 13] Permission denied: '/usr/lib/…'"
		// and exits 0: what it was to do did not happen
		return strings.TrimSpace(l)
	}
	for _, m := range reInputMissing.FindAllStringSubmatch(output, 3) {
		// `iverilog … tb/updown_tb.v` prints "tb/updown_tb.v: No such file or directory"
		// and scons "Missing SConscript 'build/mathx/SConscript'", and both exit 0
		if p := m[1] + m[2]; (m[1] == "" || refersTo(cmd, p)) && !strings.Contains(strings.ToLower(shown), "no such file") && !strings.Contains(strings.ToLower(shown), "missing") {
			return strings.TrimSpace(m[0])
		}
	}
	if m := reFileLineError.FindStringSubmatch(output); m != nil && refersTo(cmd, m[1]) && !strings.Contains(shown, m[0]) {
		// remind's "reminders.rem(11): Expecting time after AT", exit 0: a line of the
		// file it read was refused
		return strings.TrimSpace(m[0])
	}
	if m := reShNotFound.FindStringSubmatch(output); m != nil && !strings.Contains(shown, "not found") {
		// `direnv allow` exits 0 although the `layout python` it ran could not find
		// python ("environment:812: python: command not found")
		return strings.TrimSpace(m[0])
	}
	if l := reIgnoredArgs.FindString(output); l != "" && !reIgnoredArgs.MatchString(shown) {
		// sqlite3 3.40's `.mode box … --linelimit 3`: "extra argument: \"3\"", the whole
		// setting ignored, exit 0
		return strings.TrimSpace(l)
	}
	if l := reMarkedError.FindString(output); l != "" && !strings.Contains(strings.ToLower(shown), "error") {
		// lnav 0.11's "✘ error: invalid value for property “/ui/theme”", exit 0: the
		// setting was refused
		return strings.TrimSpace(l)
	}
	l := reToolError.FindString(output)
	if l == "" || strings.Contains(strings.ToLower(shown), "error") || strings.Contains(strings.ToLower(shown), "fatal") {
		return ""
	}
	if !strings.HasPrefix(l, "fatal: ") && !slices.Contains(strings.Fields(cmd), "git") {
		// other programs print "error: " lines on their way out (Octave 7's "ignoring
		// const execution_exception& while preparing to exit") and still work
		return ""
	}
	return l
}

// reVarRef: a shell variable's use ($NAME, ${NAME}).
var reVarRef = regexp.MustCompile(`\$\{?([A-Za-z_]\w*)`)

// shownValueQuoted: a variable written inside single quotes, which the shell passes on
// as it is, when the output holds it as such and the output the tutorial shows does not
// (the value was meant): its name ("" when not so).
func shownValueQuoted(cmd, output, shown string) string {
	if strings.TrimSpace(shown) == "" {
		return ""
	}
	for _, q := range reSingleQuoted.FindAllString(cmd, -1) {
		for _, m := range reVarRef.FindAllStringSubmatch(q, -1) {
			if !strings.Contains(output, "$"+m[1]) || strings.Contains(shown, "$"+m[1]) {
				continue
			}
			// (not a runner that echoes the command it runs in a shell of its own:
			// hyperfine's "Benchmark 1: cat "$LOG""; `echo` prints its text as given)
			if echoed := strings.Contains(output, strings.Trim(q, "'")); !echoed || textPrinters[firstWord(cmd)] {
				return m[1]
			}
		}
	}
	return ""
}
