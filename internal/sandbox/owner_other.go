//go:build !unix

package sandbox

func owner(string) (uid, gid int, ok bool) { return 0, 0, false }
