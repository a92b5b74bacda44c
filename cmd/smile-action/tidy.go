package main

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/smile-loop/smile-loop/internal/sandbox"
)

// What Action mode leaves on a runner (self-hosted runners reuse their work directory,
// so anything root-owned or left behind breaks the next job's checkout):
//   - the reports in the workspace belong to the workspace's owner, not to root (the
//     Action container runs as root; actions/runner#434, actions/checkout#211);
//   - scratch space (the learner's work directory, full command logs) lives under
//     RUNNER_TEMP, never in the checkout, and is removed at the end: the audit log in
//     the report and the artifact carry the evidence.

// actionScratch is the root of the runs' work and logs directories: RUNNER_TEMP/smile-loop
// ("" without RUNNER_TEMP: they then stay inside each output directory).
func actionScratch(getenv func(string) string) string {
	t := getenv("RUNNER_TEMP")
	if t == "" {
		return ""
	}
	return filepath.Join(t, "smile-loop")
}

// tidyAction removes the scratch space and gives outRoot to the owner of the workspace.
func tidyAction(e *env, ws, outRoot, scratch string) {
	if scratch != "" {
		if err := os.RemoveAll(scratch); err != nil {
			e.log.Warn("could not remove the scratch space", "dir", scratch, "err", err)
		}
	}
	if err := chownLike(outRoot, ws); err != nil {
		e.log.Warn("could not give the reports to the workspace's owner", "dir", outRoot, "err", err)
	}
}

// chownLike gives every file under dir to the owner of ref, when this process may (root)
// and they differ. Symbolic links are changed, never followed.
func chownLike(dir, ref string) error {
	uid, gid, ok := sandbox.Owner(ref)
	if !ok || os.Geteuid() != 0 || uid == 0 {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}
