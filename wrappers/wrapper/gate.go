package wrapper

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// GatePlaceholder is the "key" the CLI gets: the gate replaces it with the run's proxy
// token, which no process but the wrapper ever holds.
const GatePlaceholder = "smile-gate-no-key-here"

// GateRegisterPath is where the exit-code shim announces each shell the CLI starts, from
// the shell's own process, before the shell reads anything the tutorial wrote.
const GateRegisterPath = "/.smile/shell"

// gate is the CLI's only way to the key proxy. Every environment the CLI passes on (to
// the shells that run the tutorial's commands, whose /proc/PID/environ the tutorial can
// read) holds just the gate's loopback address and GatePlaceholder; the run's proxy
// token stays in the wrapper, which is not dumpable. The gate forwards a request with
// the token only when the connecting process is the CLI's own: the CLI, or a process
// that already ran under it at its first model request (gemini's relaunched child,
// codex's native binary), reached through processes that are neither shells nor
// programs from outside the CLI's installation. The tutorial's commands run later and
// under a shell, so they are refused with 403 whatever they read.
type gate struct {
	ln       net.Listener
	srv      *http.Server
	upstream *url.URL
	token    string
	procs    procTable // how the gate sees processes and sockets (/proc; a fake in tests)

	mu      sync.Mutex
	cli     int               // the CLI's pid; 0 until it started
	install []string          // where the CLI's executables live (its exe, its package)
	shells  map[proc]bool     // processes that announced themselves as shells
	own     map[proc]bool     // the CLI's processes, fixed at its first request
	refused map[string]string // what was refused, for the wrapper's stderr
}

// proc names a process across pid reuse.
type proc struct {
	PID   int
	Start uint64 // start time in clock ticks since boot (/proc/PID/stat field 22)
}

// procInfo is what the gate knows of a process.
type procInfo struct {
	proc
	PPID int
	Comm string
	Exe  string
}

// procTable reads processes and the owners of loopback connections.
type procTable interface {
	// Processes lists every process of the container.
	Processes() (map[int]procInfo, error)
	// ConnOwner is the process holding the client end of a loopback TCP connection from
	// clientPort to serverPort, among the candidates.
	ConnOwner(clientPort, serverPort int, candidates []int) (int, error)
}

// startGate listens on 127.0.0.1 and forwards to upstream with token.
func startGate(upstream, token string, procs procTable) (*gate, error) {
	u, err := url.Parse(upstream)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("SMILE_PROXY_URL %q is not a URL", upstream)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start the key gate: %w", err)
	}
	g := &gate{ln: ln, upstream: u, token: token, procs: procs,
		shells: map[proc]bool{}, refused: map[string]string{}}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.URL.Path, pr.Out.URL.RawPath = pr.In.URL.Path, pr.In.URL.RawPath
			g.credential(pr.Out)
		},
		FlushInterval: -1, // streamed completions
		ErrorLog:      log.New(io.Discard, "", 0),
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			gateError(w, http.StatusBadGateway, "smile-loop's key gate cannot reach the key proxy: "+err.Error())
		},
	}
	mux := http.NewServeMux()
	mux.HandleFunc(GateRegisterPath, g.register)
	mux.Handle("/", g.guard(rp))
	g.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = g.srv.Serve(ln) }()
	return g, nil
}

// URL is the base URL the CLI gets: the gate, with the key proxy's path.
func (g *gate) URL() string {
	return "http://" + g.ln.Addr().String() + strings.TrimRight(g.upstream.Path, "/")
}

// env points the CLI at the gate: baseVar is the gate's URL, every key variable the
// placeholder, SMILE_GATE tells the shim where shells announce themselves, and
// SMILE_PROXY_VARS names them all for the shim to unset in the tutorial's shells.
func (g *gate) env(env []string, baseVar string, keyVars []string) []string {
	set := map[string]string{"SMILE_GATE": g.ln.Addr().String()}
	if baseVar != "" {
		set[baseVar] = g.URL()
	}
	for _, k := range keyVars {
		set[k] = GatePlaceholder
	}
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok && k != "SMILE_PROXY_VARS" {
			out = append(out, kv)
		}
	}
	names := make([]string, 0, len(set))
	for k, v := range set {
		out = append(out, k+"="+v)
		names = append(names, k)
	}
	sort.Strings(names)
	return append(out, "SMILE_PROXY_VARS="+strings.Join(names, " "))
}

// started records the CLI's pid and where its executables live.
func (g *gate) started(pid int, install []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cli, g.install, g.own = pid, install, nil
}

// Close stops the gate and returns what it refused ("" when nothing).
func (g *gate) Close() string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = g.srv.Shutdown(ctx)
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.refused) == 0 {
		return ""
	}
	var parts []string
	for k, v := range g.refused {
		parts = append(parts, k+" ("+v+")")
	}
	return "smile-loop's key gate refused model requests from processes that are not the CLI: " + strings.Join(parts, "; ")
}

// credential puts the run's token where the CLI's SDK put its placeholder.
func (g *gate) credential(r *http.Request) {
	set := false
	for _, h := range []string{"x-api-key", "x-goog-api-key"} {
		if r.Header.Get(h) != "" {
			r.Header.Set(h, g.token)
			set = true
		}
	}
	if r.Header.Get("Authorization") != "" || !set {
		r.Header.Set("Authorization", "Bearer "+g.token)
	}
	if q := r.URL.Query(); q.Has("key") {
		q.Set("key", g.token)
		r.URL.RawQuery = q.Encode()
	}
}

// guard refuses every request whose connection is not the CLI's own.
func (g *gate) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if who, err := g.ownRequest(r); err != nil {
			g.mu.Lock()
			if len(g.refused) < 20 {
				g.refused[who] = err.Error()
			}
			g.mu.Unlock()
			gateError(w, http.StatusForbidden, "smile-loop: only the CLI smile-loop runs may call the model; "+err.Error())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// register records the connecting process as a shell: neither it nor anything it runs
// (an exec keeps the pid) is ever the CLI's own.
func (g *gate) register(w http.ResponseWriter, r *http.Request) {
	if p, _, err := g.peer(r); err == nil {
		g.mu.Lock()
		g.shells[p] = true
		g.mu.Unlock()
	}
	w.WriteHeader(http.StatusNoContent)
}

// peer finds the process at the other end of r's connection, among the CLI's descendants.
func (g *gate) peer(r *http.Request) (proc, map[int]procInfo, error) {
	g.mu.Lock()
	cli := g.cli
	g.mu.Unlock()
	if cli == 0 {
		return proc{}, nil, errors.New("the CLI has not started")
	}
	_, port, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return proc{}, nil, err
	}
	cport, _ := strconv.Atoi(port)
	all, err := g.procs.Processes()
	if err != nil {
		return proc{}, nil, err
	}
	tree := descendants(all, cli)
	pid, err := g.procs.ConnOwner(cport, g.ln.Addr().(*net.TCPAddr).Port, tree)
	if err != nil {
		return proc{}, nil, err
	}
	return all[pid].proc, all, nil
}

// ownRequest says who sent r and, unless it is the CLI's own, why it is refused.
func (g *gate) ownRequest(r *http.Request) (string, error) {
	p, all, err := g.peer(r)
	if err != nil {
		return r.RemoteAddr, fmt.Errorf("the connection is not the CLI's: %w", err)
	}
	who := fmt.Sprintf("pid %d %s", p.PID, all[p.PID].Comm)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.own == nil { // the CLI's first request: no command of the tutorial has run yet
		g.own = map[proc]bool{}
		if exe := all[g.cli].Exe; exe != "" { // a launcher script may have exec'd the real program
			g.install = append(g.install, exe)
		}
		for _, pid := range descendants(all, g.cli) {
			if g.eligible(all, pid) {
				g.own[all[pid].proc] = true
			}
		}
	}
	if !g.own[p] {
		return who, errors.New("the process is not the CLI or one of the processes it started before its first request")
	}
	return who, nil
}

// eligible: pid is the CLI, or every process from pid up to the CLI is a program of the
// CLI's installation (or the CLI's own executable) that never announced itself as a shell.
func (g *gate) eligible(all map[int]procInfo, pid int) bool {
	for seen := 0; pid != g.cli; seen++ {
		p, ok := all[pid]
		if !ok || seen > 64 || g.shells[p.proc] || isShell(p.Comm) || !g.inInstall(p.Exe) {
			return false
		}
		pid = p.PPID
	}
	return true
}

func (g *gate) inInstall(exe string) bool {
	for _, dir := range g.install {
		if exe == dir || strings.HasPrefix(exe, strings.TrimRight(dir, "/")+"/") {
			return true
		}
	}
	return false
}

func isShell(comm string) bool {
	switch comm {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "busybox", "ash", "tcsh", "csh":
		return true
	}
	return false
}

// descendants lists root and every process under it.
func descendants(all map[int]procInfo, root int) []int {
	children := map[int][]int{}
	for pid, p := range all {
		children[p.PPID] = append(children[p.PPID], pid)
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// gateError answers in the shape the providers' SDKs parse ({"error":{"type","message"}}).
func gateError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	m, _ := json.Marshal(msg)
	_, _ = fmt.Fprintf(w, `{"type":"error","error":{"type":"permission_error","message":%s}}`, m)
}

// installOf lists where the CLI at path keeps its executables: a native binary itself;
// for a script, its interpreter (#!/usr/bin/env node) and its package tree (everything
// under the node_modules directory it lives in, such as codex's native binary and
// claude's ripgrep), or else the script's directory.
func installOf(path string) []string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return []string{path}
	}
	f, err := os.Open(real)
	if err != nil {
		return []string{real}
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	line, _, _ := strings.Cut(string(head[:n]), "\n")
	shebang, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return []string{real}
	}
	out := []string{}
	fields := strings.Fields(shebang)
	if len(fields) > 0 {
		interp := fields[0]
		if filepath.Base(interp) == "env" {
			interp = ""
			for _, a := range fields[1:] {
				if !strings.HasPrefix(a, "-") {
					interp, _ = exec.LookPath(a)
					break
				}
			}
		}
		if interp != "" && !isShell(filepath.Base(interp)) { // a shell launcher execs the program: Close adds its exe
			if r, err := filepath.EvalSymlinks(interp); err == nil {
				interp = r
			}
			out = append(out, interp)
		}
	}
	if i := strings.LastIndex(real, "/node_modules/"); i >= 0 {
		return append(out, real[:i+len("/node_modules")])
	}
	return append(out, filepath.Dir(real))
}
