package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// LockInfo says who holds an output directory.
type LockInfo struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
	RunID   string    `json:"runId,omitempty"`
}

func (l LockInfo) String() string {
	s := fmt.Sprintf("pid %d on %s, started %s", l.PID, l.Host, l.Started.Format(time.RFC3339))
	if l.RunID != "" {
		s += ", run " + l.RunID
	}
	return s
}

// LockedError: another loop runs on the same output directory (7.E3). The user fixes it
// by waiting or choosing another output directory.
type LockedError struct {
	Dir    string
	Holder LockInfo
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("another smile-loop run is using %s (%s); wait for it to finish, or pass --output with another directory (remove %s only if that process is gone)",
		e.Dir, e.Holder, filepath.Join(e.Dir, LockFile))
}

// InvalidInput marks the error as the user's to fix (exit code 2).
func (e *LockedError) InvalidInput() bool { return true }

// Lock is a held output-directory lock.
type Lock struct {
	path string
	info LockInfo
}

// AcquireLock takes dir's lock for this process. A lock held by a live process is an
// error naming it; a lock left by a dead process on this host is taken over.
func AcquireLock(dir, runID string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create output directory %s: %w", dir, err)
	}
	host, _ := os.Hostname()
	info := LockInfo{PID: os.Getpid(), Host: host, Started: time.Now().UTC(), RunID: runID}
	data, _ := json.Marshal(info)
	path := filepath.Join(dir, LockFile)
	for attempt := 0; attempt < 3; attempt++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := f.Write(data)
			serr := f.Sync()
			if err := errors.Join(werr, serr, f.Close()); err != nil {
				_ = os.Remove(path)
				return nil, fmt.Errorf("write lock %s: %w", path, err)
			}
			return &Lock{path: path, info: info}, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("create lock %s: %w", path, err)
		}
		holder, rerr := readLock(path)
		switch {
		case rerr != nil:
			// unreadable: a crash between create and write; stale once it is old
			if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) < 10*time.Second {
				return nil, &LockedError{Dir: dir, Holder: LockInfo{Host: "unknown", Started: fi.ModTime()}}
			}
		case holder.Host == host && holder.PID == os.Getpid():
			// this process already holds it (a second Run in the same process is still a second loop)
			return nil, &LockedError{Dir: dir, Holder: holder}
		case holder.Host != host || (processAlive(holder.PID) && !pidReused(holder)):
			return nil, &LockedError{Dir: dir, Holder: holder}
		}
		// stale: remove and try again (O_EXCL settles a race between two takers)
		_ = os.Remove(path)
	}
	return nil, fmt.Errorf("take over stale lock %s: it keeps reappearing", path)
}

// Info is what the lock file says.
func (l *Lock) Info() LockInfo { return l.info }

// Release removes the lock file if it is still this lock.
func (l *Lock) Release() error {
	if l == nil {
		return nil
	}
	cur, err := readLock(l.path)
	if err != nil || cur.PID != l.info.PID || cur.Host != l.info.Host || !cur.Started.Equal(l.info.Started) {
		return nil
	}
	if err := os.Remove(l.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("release lock: %w", err)
	}
	return nil
}

func readLock(path string) (LockInfo, error) {
	var info LockInfo
	data, err := os.ReadFile(path)
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return info, err
	}
	if info.PID <= 0 {
		return info, errors.New("lock has no pid")
	}
	return info, nil
}

// processAlive reports whether pid runs on this host (EPERM means it exists).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// pidReused reports whether the process now running with the holder's pid started after
// the lock was taken: the holder died and the pid went to another process. Linux only
// (/proc); false when it cannot tell.
func pidReused(holder LockInfo) bool {
	start, ok := processStart(holder.PID)
	return ok && start.After(holder.Started.Add(2*time.Second))
}

// processStart is when pid started: boot time plus field 22 of /proc/PID/stat (clock
// ticks, 100 per second on Linux).
func processStart(pid int) (time.Time, bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return time.Time{}, false
	}
	i := strings.LastIndexByte(string(stat), ')') // the command name may hold spaces
	if i < 0 || i+2 > len(stat) {
		return time.Time{}, false
	}
	fields := strings.Fields(string(stat[i+2:]))
	if len(fields) < 20 {
		return time.Time{}, false
	}
	ticks, err := strconv.ParseInt(fields[19], 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	procStat, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}, false
	}
	for _, line := range strings.Split(string(procStat), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			btime, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return time.Time{}, false
			}
			return time.Unix(btime, 0).Add(time.Duration(ticks) * time.Second / 100), true
		}
	}
	return time.Time{}, false
}
