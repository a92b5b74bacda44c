package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// execMarker is set in the environment of every command; the process tree of a command
// is every process that inherited its value, so a timeout kills daemons and setsid'd
// children too, not just the shell.
const execMarker = "SMILE_EXEC_ID"

// Runs the command with bash -lc when the image has bash, sh -c otherwise.
const shellWrapper = `if command -v bash >/dev/null 2>&1; then exec bash -lc "$1"; else exec sh -c "$1"; fi`

// Stops, then kills, every process carrying the marker; stopping first keeps a fork
// bomb from replacing the processes being killed. GNU grep scans all environments in
// one process; other greps fall back to a loop.
const killScript = `m="$1"
pids() {
  if printf 'a\0' | grep -qz a 2>/dev/null; then
    grep -lsxzF -- "$m" /proc/[0-9]*/environ 2>/dev/null | sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p'
  else
    for p in /proc/[0-9]*; do
      if tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -qxF -- "$m"; then echo "${p#/proc/}"; fi
    done
  fi
}
for sig in STOP STOP KILL; do
  for p in $(pids); do [ "$p" != "$$" ] && kill -s "$sig" "$p" 2>/dev/null; done
done
exit 0`

// Exec runs req.Command in the current container. A failing or timed-out command is a
// result, not an error; the error is for the sandbox failing or ctx ending.
func (d *Docker) Exec(ctx context.Context, req loop.ExecRequest) (loop.ExecResult, error) {
	id, err := d.ready(ctx)
	if err != nil {
		return loop.ExecResult{}, err
	}
	marker := execMarker + "=" + randHex(8)
	env := []string{marker}
	keys := make([]string, 0, len(req.Env))
	for k := range req.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+req.Env[k])
	}
	dir := req.Dir
	if dir == "" {
		dir = loop.WorkMount
	} else if !path.IsAbs(dir) {
		dir = path.Join(loop.WorkMount, dir)
	}

	out, closeOut, outPath, err := d.commandLog()
	if err != nil {
		return loop.ExecResult{}, err
	}
	defer closeOut()
	stdout := newCapture(d.opts.OutputLimit, out)
	stderr := newCapture(d.opts.OutputLimit, out)

	start := time.Now()
	res, err := d.run(ctx, id, execSpec{
		cmd:    []string{"/bin/sh", "-c", shellWrapper, "smile-exec", req.Command},
		env:    env,
		dir:    dir,
		user:   req.User,
		stdin:  req.Stdin,
		marker: marker,
	}, req.Timeout, stdout, stderr)
	res.Duration = time.Since(start)
	res.Stdout, res.Stderr = stdout.String(), stderr.String()
	res.Truncated = stdout.truncated() || stderr.truncated()
	res.OutputPath = outPath
	if werr := out.err(); werr != nil && err == nil {
		err = classifyFS("write command output to "+outPath, werr)
	}
	return res, err
}

// ready returns the current container, restarting it first when a runaway command
// forced a kill.
func (d *Docker) ready(ctx context.Context) (string, error) {
	d.mu.RLock()
	id, started, closed, broken := d.cur, d.started, d.closed, d.broken
	d.mu.RUnlock()
	switch {
	case !started:
		return "", errors.New("sandbox: not started")
	case closed:
		return "", errors.New("sandbox: closed")
	case !broken:
		return id, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.broken {
		if err := d.api.ContainerStart(ctx, d.cur, container.StartOptions{}); err != nil {
			return "", startErr("restart container after a runaway command", d.opts.Image, err)
		}
		d.broken = false
	}
	return d.cur, nil
}

type execSpec struct {
	cmd    []string
	env    []string
	dir    string
	user   string
	stdin  []byte
	marker string // "" for internal commands that need no tree kill
}

// run executes spec and waits for it; timeout 0 means only ctx bounds it.
func (d *Docker) run(ctx context.Context, id string, spec execSpec, timeout time.Duration, stdout, stderr io.Writer) (loop.ExecResult, error) {
	var res loop.ExecResult
	cr, err := d.api.ContainerExecCreate(ctx, id, container.ExecOptions{
		User:         spec.user,
		AttachStdin:  len(spec.stdin) > 0,
		AttachStdout: true,
		AttachStderr: true,
		Env:          spec.env,
		WorkingDir:   spec.dir,
		Cmd:          spec.cmd,
	})
	if err != nil {
		return res, d.execErr(ctx, err)
	}
	hr, err := d.api.ContainerExecAttach(ctx, cr.ID, container.ExecAttachOptions{})
	if err != nil {
		return res, d.execErr(ctx, err)
	}
	var closeOnce sync.Once
	closeConn := func() { closeOnce.Do(hr.Close) }
	defer closeConn()
	if len(spec.stdin) > 0 {
		go func() {
			_, _ = hr.Conn.Write(spec.stdin)
			_ = hr.CloseWrite()
		}()
	}
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(stdout, stderr, hr.Reader)
		copied <- err
	}()

	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	// A background process that keeps stdout open (`server &`) holds the stream after
	// the command itself ended, and a command may close its output and go on running:
	// the exec's state, not the stream, says when the command is over.
	pollEvery := 250 * time.Millisecond
	poll := time.NewTimer(pollEvery)
	defer poll.Stop()
	outputDone := false
	stream := (<-chan error)(copied)
	for {
		select {
		case <-stream:
			stream, outputDone = nil, true
			ins, err := d.api.ContainerExecInspect(ctx, cr.ID)
			if err != nil {
				return res, d.execErr(ctx, err)
			}
			if !ins.Running {
				res.ExitCode = ins.ExitCode
				return res, nil
			}
			pollEvery = 20 * time.Millisecond
			poll.Reset(pollEvery)
		case <-deadline:
			res.TimedOut, res.ExitCode = true, 124
			d.killTree(id, spec.marker, spec.user)
			if !outputDone {
				drain(copied, 3*time.Second, closeConn)
			}
			return res, nil
		case <-ctx.Done():
			d.killTree(id, spec.marker, spec.user)
			closeConn()
			return res, ctx.Err()
		case <-poll.C:
			ins, err := d.api.ContainerExecInspect(ctx, cr.ID)
			if err == nil && !ins.Running && ins.Pid != 0 {
				if !outputDone {
					drain(copied, 200*time.Millisecond, closeConn)
				}
				res.ExitCode = ins.ExitCode
				return res, nil
			}
			if pollEvery < 2*time.Second {
				pollEvery *= 2
			}
			poll.Reset(pollEvery)
		}
	}
}

// drain waits up to wait for the output copy to end, then cuts the stream.
func drain(copied <-chan error, wait time.Duration, closeConn func()) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-copied:
	case <-t.C:
		closeConn()
		<-copied
	}
}

func (d *Docker) execErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return classify("exec in learner container", d.opts.Image, err)
}

// killTree kills every process of one command. The kill runs as root and, for a
// command of another user, as that user too: without CAP_SYS_PTRACE (dropped) root
// cannot read the environment of another user's processes. When even that cannot run
// (a fork bomb exhausted the pids limit), it kills the whole container, which ready
// restarts before the next command (the file system stays, processes do not).
func (d *Docker) killTree(id, marker, user string) {
	if marker == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	users := []string{"0"}
	if user != "" && user != "0" && user != "root" {
		users = append(users, user)
	}
	var err error
	for _, u := range users {
		var sink bytes.Buffer
		if _, e := d.runAs(ctx, id, u, []string{"/bin/sh", "-c", killScript, "smile-kill", marker}, &sink); e != nil {
			err = e
		}
	}
	if err == nil {
		return
	}
	d.log.Warn("could not kill the command's processes; killing the container", "err", err)
	if err := d.api.ContainerKill(ctx, id, "KILL"); err != nil {
		d.log.Warn("kill container", "container", shortID(id), "err", err)
	}
	d.mu.Lock()
	if d.cur == id {
		d.broken = true
	}
	d.mu.Unlock()
}

// runPlain runs an internal command as root and returns its exit code.
func (d *Docker) runPlain(ctx context.Context, id string, cmd []string, out io.Writer) (int, error) {
	return d.runAs(ctx, id, "0", cmd, out)
}

// runAs runs an internal command as user; a non-zero exit is an error.
func (d *Docker) runAs(ctx context.Context, id, user string, cmd []string, out io.Writer) (int, error) {
	res, err := d.run(ctx, id, execSpec{cmd: cmd, user: user, dir: "/"}, 0, out, out)
	if err != nil {
		return -1, err
	}
	if res.ExitCode != 0 {
		return res.ExitCode, fmt.Errorf("%s exited with %d: %s", cmd[0], res.ExitCode, bytes.TrimSpace(limitBytes(out)))
	}
	return 0, nil
}

func limitBytes(w io.Writer) []byte {
	if b, ok := w.(*bytes.Buffer); ok {
		if b.Len() > 2048 {
			return b.Bytes()[:2048]
		}
		return b.Bytes()
	}
	return nil
}

// commandLog opens the file that receives a command's full output (both streams, in
// arrival order) under LogsDir/commands. LogsDir is not mounted in the learner, and the
// file is opened through an os.Root that refuses links, so nothing the learner plants
// can redirect the write.
func (d *Docker) commandLog() (*logWriter, func(), string, error) {
	if d.opts.LogsDir == "" {
		return &logWriter{}, func() {}, "", nil
	}
	d.mu.Lock()
	d.cmdSeq++
	n := d.cmdSeq
	d.mu.Unlock()
	name := fmt.Sprintf("%s-%04d.log", nameUnsafe.ReplaceAllString(d.opts.RunID, "-"), n)
	p := filepath.Join(d.opts.LogsDir, "commands", name)
	f, err := openNoLinks(d.opts.LogsDir, filepath.Join("commands", name))
	if err != nil {
		return nil, nil, "", classifyFS("create "+p, err)
	}
	mw := d.opts.Redact.NewWriter(f)
	lw := &logWriter{f: mw, limit: d.opts.LogLimit, quota: &d.quotaLeft, quotaSize: d.opts.OutputQuota}
	return lw, func() {
		err := mw.Flush()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil && lw.werr == nil {
			lw.werr = err
		}
	}, p, nil
}

// logWriter serialises both streams into one file of at most limit bytes (a runaway
// `yes` must not fill the disk), within what is left of the run's quota, and remembers
// the first error.
type logWriter struct {
	mu        sync.Mutex
	f         io.Writer // the file, through the run's masker
	limit     int64
	written   int64
	quota     *atomic.Int64 // the run's bytes left; nil: no quota
	quotaSize int64
	stopped   bool
	werr      error
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	if w.f == nil || w.werr != nil || w.stopped {
		return n, nil
	}
	room, why := int64(len(p)), ""
	if w.limit > 0 && w.limit-w.written < room {
		room, why = max(w.limit-w.written, 0), fmt.Sprintf("output cut at %d bytes", w.limit)
	}
	if w.quota != nil && w.quota.Load() < room {
		room, why = max(w.quota.Load(), 0), fmt.Sprintf("this run's output quota of %d MiB is used up; the rest of this command's output is not saved", w.quotaSize>>20)
	}
	m, err := w.f.Write(p[:room])
	w.written += int64(m)
	if w.quota != nil {
		w.quota.Add(-int64(m))
	}
	if err == nil && why != "" {
		w.stopped = true
		_, err = fmt.Fprintf(w.f, "\n[smile-loop: %s]\n", why)
	}
	if err != nil {
		w.werr = err
	}
	return n, nil
}

func (w *logWriter) err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.werr
}

// capture keeps the head and the tail of a stream, limit bytes in all, and copies
// everything to a side writer.
type capture struct {
	mu    sync.Mutex
	limit int
	head  []byte
	tail  []byte // ring of the last limit-limit/2 bytes
	pos   int
	total int64
	side  io.Writer
}

func newCapture(limit int, side io.Writer) *capture {
	return &capture{limit: limit, side: side}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	written := len(p)
	if c.side != nil {
		_, _ = c.side.Write(p)
	}
	c.total += int64(len(p))
	headMax := c.limit / 2
	if n := headMax - len(c.head); n > 0 {
		if n > len(p) {
			n = len(p)
		}
		c.head = append(c.head, p[:n]...)
		p = p[n:]
	}
	tailMax := c.limit - headMax
	for len(p) > 0 {
		if len(c.tail) < tailMax {
			n := tailMax - len(c.tail)
			if n > len(p) {
				n = len(p)
			}
			c.tail = append(c.tail, p[:n]...)
			p = p[n:]
			continue
		}
		n := copy(c.tail[c.pos:], p)
		c.pos = (c.pos + n) % tailMax
		p = p[n:]
	}
	return written, nil
}

func (c *capture) truncated() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total > int64(c.limit)
}

// String is the captured text: all of it, or head, a marker and tail.
func (c *capture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	tail := append(append([]byte{}, c.tail[c.pos:]...), c.tail[:c.pos]...)
	if c.total <= int64(c.limit) {
		return string(c.head) + string(tail)
	}
	return fmt.Sprintf("%s\n… [%d bytes cut; full output in the command log] …\n%s", c.head, c.total-int64(len(c.head)+len(tail)), tail)
}
