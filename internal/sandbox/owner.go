package sandbox

// Owner is the numeric owner of a local path (ok is false where files have none, or
// when it cannot be read).
func Owner(p string) (uid, gid int, ok bool) { return owner(p) }
