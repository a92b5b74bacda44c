//go:build !linux

package wrapper

// hideFromSameUser has nothing to do outside Linux (the wrapper runs in Linux containers).
func hideFromSameUser() {}
