//go:build unix

package main

import (
	"os"
	"syscall"
)

// owner is the numeric owner of a path.
func owner(p string) (uid, gid int, ok bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return 0, 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}
