//go:build !linux

package wrapper

import "errors"

// hideFromSameUser has nothing to do outside Linux (the wrapper runs in Linux containers).
func hideFromSameUser() {}

type noProcs struct{}

func newProcTable() procTable { return noProcs{} }

func (noProcs) Processes() (map[int]procInfo, error) { return nil, errNoProc }

func (noProcs) ConnOwner(int, int, []int) (int, error) { return 0, errNoProc }

var errNoProc = errors.New("the key gate needs Linux's /proc")
