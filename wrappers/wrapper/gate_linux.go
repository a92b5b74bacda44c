package wrapper

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// procfs is the gate's view of the container's processes through /proc.
type procfs struct{ root string }

func newProcTable() procTable { return procfs{root: "/proc"} }

// Processes reads /proc/PID/stat and /proc/PID/exe of every process it can see.
func (p procfs) Processes() (map[int]procInfo, error) {
	ents, err := os.ReadDir(p.root)
	if err != nil {
		return nil, err
	}
	out := map[int]procInfo{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(p.root, e.Name(), "stat"))
		if err != nil {
			continue
		}
		info, ok := parseStat(pid, string(stat))
		if !ok {
			continue
		}
		info.Exe, _ = os.Readlink(filepath.Join(p.root, e.Name(), "exe"))
		out[pid] = info
	}
	return out, nil
}

// parseStat reads "pid (comm) state ppid … starttime …" (proc(5); comm may hold spaces
// and parentheses, so it ends at the last ')').
func parseStat(pid int, s string) (procInfo, bool) {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return procInfo{}, false
	}
	f := strings.Fields(s[end+1:]) // f[0] is field 3 (state)
	if len(f) < 20 {
		return procInfo{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil {
		return procInfo{}, false
	}
	return procInfo{proc: proc{PID: pid, Start: start}, PPID: ppid, Comm: s[open+1 : end]}, true
}

// ConnOwner finds the socket inode of the connection in /proc/net/tcp, then the
// candidate holding it among its file descriptors.
func (p procfs) ConnOwner(clientPort, serverPort int, candidates []int) (int, error) {
	f, err := os.Open(filepath.Join(p.root, "net", "tcp"))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	local, remote := fmt.Sprintf(":%04X", clientPort), fmt.Sprintf(":%04X", serverPort)
	inode := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fl := strings.Fields(sc.Text()) // sl local_address rem_address st … uid timeout inode
		if len(fl) > 9 && strings.HasSuffix(fl[1], local) && strings.HasSuffix(fl[2], remote) {
			inode = fl[9]
			break
		}
	}
	if inode == "" || inode == "0" {
		return 0, errors.New("no such connection in /proc/net/tcp")
	}
	want := "socket:[" + inode + "]"
	for _, pid := range candidates {
		dir := filepath.Join(p.root, strconv.Itoa(pid), "fd")
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && l == want {
				return pid, nil
			}
		}
	}
	return 0, errors.New("it comes from a process that is not under the CLI")
}
