package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// defaultReadLimit bounds ReadFile when the caller gives no limit.
const defaultReadLimit = 16 << 20

func containerPath(p string) string {
	if !path.IsAbs(p) {
		p = path.Join(loop.WorkMount, p)
	}
	return path.Clean(p)
}

// WriteFile writes data to path inside the container (relative paths are under the work
// directory), creating missing parent directories. A path under /workspace (where the
// Student works) is written by the container's own user through a shell, with that
// user's permissions: the Docker daemon copies as root and resolves links the learner
// planted, which would let a Student's file land anywhere, e.g. /etc/ld.so.preload.
// Other paths (the runtimes' own installs) are copied by the daemon.
func (d *Docker) WriteFile(ctx context.Context, p string, data []byte, mode os.FileMode) error {
	id, err := d.ready(ctx)
	if err != nil {
		return err
	}
	p = containerPath(p)
	if mode == 0 {
		mode = 0o644
	}
	if strings.HasPrefix(p, workspaceDir) {
		return d.writeAsLearner(ctx, id, p, data, mode)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{
		Name:     strings.TrimPrefix(p, "/"),
		Mode:     int64(mode.Perm()),
		Size:     int64(len(data)),
		ModTime:  time.Now(),
		Typeflag: tar.TypeReg,
	}); err != nil {
		return err
	}
	if _, err := tw.Write(data); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := d.api.CopyToContainer(ctx, id, "/", &buf, container.CopyToContainerOptions{}); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return classify("write "+p+" in the learner container", "", err)
	}
	return nil
}

// workspaceDir prefixes the directories the Student works in.
const workspaceDir = "/workspace/"

// writeScript writes stdin to $1 with mode $2, creating the parent directories.
const writeScript = `mkdir -p "$(dirname "$1")" && cat >"$1" && chmod "$2" "$1"`

// writeAsLearner writes a file as the container's default user.
func (d *Docker) writeAsLearner(ctx context.Context, id, p string, data []byte, mode os.FileMode) error {
	var out bytes.Buffer
	res, err := d.run(ctx, id, execSpec{
		cmd:   []string{"/bin/sh", "-c", writeScript, "smile-write", p, fmt.Sprintf("%o", mode.Perm())},
		dir:   "/",
		stdin: data,
	}, time.Minute, &out, &out)
	if err != nil {
		return err
	}
	if res.ExitCode != 0 || res.TimedOut {
		// A full disk is a DiskError (3.E6), like a daemon copy's.
		return classifyFS("write "+p+" in the learner container", errors.New(strings.TrimSpace(out.String())))
	}
	return nil
}

// ReadFile reads at most limit bytes (limit <= 0: 16 MiB) of a file inside the container,
// following symbolic links. A missing file gives an error matching fs.ErrNotExist.
func (d *Docker) ReadFile(ctx context.Context, p string, limit int64) ([]byte, error) {
	id, err := d.ready(ctx)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = defaultReadLimit
	}
	p = containerPath(p)
	for hops := 0; hops < 8; hops++ {
		data, link, err := d.readOnce(ctx, id, p, limit)
		if err != nil || link == "" {
			return data, err
		}
		if !path.IsAbs(link) {
			link = path.Join(path.Dir(p), link)
		}
		p = path.Clean(link)
	}
	return nil, fmt.Errorf("read %s: too many symbolic links", p)
}

func (d *Docker) readOnce(ctx context.Context, id, p string, limit int64) (data []byte, link string, err error) {
	rc, _, err := d.api.CopyFromContainer(ctx, id, p)
	if err != nil {
		if client.IsErrNotFound(err) {
			return nil, "", fmt.Errorf("read %s: %w", p, fs.ErrNotExist)
		}
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, "", classify("read "+p+" in the learner container", "", err)
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	h, err := tr.Next()
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", p, err)
	}
	switch h.Typeflag {
	case tar.TypeSymlink:
		return nil, h.Linkname, nil
	case tar.TypeDir:
		return nil, "", fmt.Errorf("read %s: is a directory", p)
	}
	data, err = io.ReadAll(io.LimitReader(tr, limit))
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", p, err)
	}
	return data, "", nil
}

// classifyFS maps a local file-system error: a full disk is a DiskError (3.E6).
func classifyFS(op string, err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || isNoSpace(strings.ToLower(err.Error())) {
		return &DiskError{Op: op + ": disk full", Err: err}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// copyIn copies, in sibling mode, every workspace directory that no mount of the
// orchestrator's container covers into a created container.
func (d *Docker) copyIn(ctx context.Context, id string) error {
	if d.sib == nil {
		return nil
	}
	for _, m := range d.mountSpecs() {
		if _, ok := d.sib.hostPath(m.local); ok {
			continue
		}
		if m.target == loop.WorkMount && d.workCopied && !d.opts.KeepWork {
			// Reset empties the work directory: nothing to copy after the first container.
			continue
		}
		var buf bytes.Buffer
		if err := tarDir(&buf, m.local, strings.TrimPrefix(m.target, "/"), m.target == loop.TutorialMount); err != nil {
			return fmt.Errorf("copy %s into the container: %w", m.local, err)
		}
		if err := d.api.CopyToContainer(ctx, id, "/", &buf, container.CopyToContainerOptions{}); err != nil {
			return classify("copy "+m.local+" into the container", "", err)
		}
	}
	return nil
}

// copyOut copies, in sibling mode, the work and logs directories that are not mounted
// back to the orchestrator's file system.
func (d *Docker) copyOut(ctx context.Context, id string) error {
	if d.sib == nil {
		return nil
	}
	var errs []error
	for _, m := range d.mountSpecs() {
		if m.readOnly {
			continue
		}
		if _, ok := d.sib.hostPath(m.local); ok {
			continue
		}
		rc, _, err := d.api.CopyFromContainer(ctx, id, m.target+"/.")
		if err != nil {
			errs = append(errs, classify("copy "+m.target+" out of the container", "", err))
			continue
		}
		err = untar(rc, m.local)
		rc.Close()
		if err != nil {
			errs = append(errs, classifyFS("copy "+m.target+" to "+m.local, err))
		}
	}
	return errors.Join(errs...)
}

// tarDir writes dir's tree as a tar stream whose entries sit under prefix; noGit leaves
// out a top-level .git (it may hold the checkout's credentials).
func tarDir(w io.Writer, dir, prefix string, noGit bool) error {
	tw := tar.NewWriter(w)
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if noGit && rel == ".git" {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		link := ""
		if fi.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(p); err != nil {
				return err
			}
		}
		h, err := tar.FileInfoHeader(fi, link)
		if err != nil {
			return err
		}
		h.Name = path.Join(prefix, filepath.ToSlash(rel))
		if fi.IsDir() {
			h.Name += "/"
		}
		h.Uid, h.Gid, h.Uname, h.Gname = 0, 0, "", ""
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			_, err = io.Copy(tw, f)
			f.Close()
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	return tw.Close()
}
