package sandbox

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// errLink refuses a symbolic link where the orchestrator writes or reads.
var errLink = errors.New("is a symbolic link; refusing to follow it")

// openNoLinks creates (or truncates) rel under dir for writing. Every component is
// resolved inside dir through an os.Root (no escape, even by a race) and a symbolic link
// anywhere on the way is refused; missing parents are created.
func openNoLinks(dir, rel string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if err := mkdirNoLinks(root, filepath.Dir(rel)); err != nil {
		return nil, err
	}
	if fi, err := root.Lstat(rel); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s %w", filepath.Join(dir, rel), errLink)
	}
	return root.OpenFile(rel, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
}

// mkdirNoLinks creates rel's directories inside root, refusing links on the way.
func mkdirNoLinks(root *os.Root, rel string) error {
	rel = filepath.Clean(rel)
	if rel == "." {
		return nil
	}
	cur := ""
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := root.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := root.Mkdir(cur, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
		case err != nil:
			return err
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s %w", cur, errLink)
		case !fi.IsDir():
			return fmt.Errorf("%s is not a directory", cur)
		}
	}
	return nil
}

// untar extracts a stream from CopyFromContainer(dir/.) into dst without following or
// creating links: symbolic and hard links are skipped (the learner made them; a later
// reader of dst, such as an artifact upload, would follow them), an existing link in dst
// is replaced by the regular file, and nothing is written outside dst.
func untar(r io.Reader, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dst)
	if err != nil {
		return err
	}
	defer root.Close()
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := h.Name
		i := strings.Index(name, "/")
		if i < 0 {
			continue
		}
		name = strings.Trim(name[i+1:], "/") // strip the copied directory's own name
		if name == "" {
			continue
		}
		rel := filepath.FromSlash(name)
		if !filepath.IsLocal(rel) {
			return fmt.Errorf("refusing tar entry %q outside %s", h.Name, dst)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := mkdirNoLinks(root, rel); err != nil {
				return fmt.Errorf("extract %s: %w", h.Name, err)
			}
		case tar.TypeReg:
			if err := writeEntry(root, rel, tr, fs.FileMode(h.Mode).Perm()); err != nil {
				return fmt.Errorf("extract %s: %w", h.Name, err)
			}
		}
	}
}

func writeEntry(root *os.Root, rel string, r io.Reader, mode fs.FileMode) error {
	if err := mkdirNoLinks(root, filepath.Dir(rel)); err != nil {
		return err
	}
	if fi, err := root.Lstat(rel); err == nil && !fi.Mode().IsRegular() {
		if err := root.RemoveAll(rel); err != nil {
			return err
		}
	}
	f, err := root.OpenFile(rel, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|syscall.O_NOFOLLOW, mode)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// dropLinks removes every symbolic link under dir (without following any) and returns
// how many it removed: the learner may have planted links to host files in a mounted
// directory, and whatever reads the directory after the run (an upload step) would
// follow them.
func dropLinks(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if e.Type()&fs.ModeSymlink != 0 {
			if err := os.Remove(p); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
