package tutorial

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// imageRef is an image reference found while mapping the document.
type imageRef struct {
	ref, alt string
	line     int
}

var imageFormats = map[string]string{".png": "png", ".jpg": "jpg", ".jpeg": "jpg", ".gif": "gif", ".svg": "svg"}

// resolveImages records every image reference: remote ones are never fetched; local ones
// resolve relative to the tutorial's directory (a leading "/" means the repository root,
// as on GitHub) and are refused, never read, when they leave the repository tree.
func (t *Tutorial) resolveImages(refs []imageRef) {
	root := t.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	dirs := map[string]string{} // resolved directories, so each is walked once
	for _, r := range refs {
		img := Image{Ref: r.ref, Alt: r.alt, Line: r.line}
		t.resolveImage(&img, root, dirs)
		switch {
		case img.Refused != "":
			t.Warnings = append(t.Warnings, fmt.Sprintf("image %q on line %d was not loaded: %s", img.Ref, img.Line, img.Refused))
		case !img.Remote && !img.Exists:
			t.Warnings = append(t.Warnings, fmt.Sprintf("image %q on line %d not found (looked for %s)", img.Ref, img.Line, img.Path))
		}
		t.Images = append(t.Images, img)
	}
}

func (t *Tutorial) resolveImage(img *Image, root string, dirs map[string]string) {
	ref := strings.TrimSpace(img.Ref)
	u, err := url.Parse(ref)
	if err != nil {
		img.Refused = "not a valid URL or path"
		return
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		img.Remote = true
		img.Format = imageFormats[strings.ToLower(filepath.Ext(u.Path))]
		return
	case "":
		if strings.HasPrefix(ref, "//") {
			img.Remote = true
			img.Format = imageFormats[strings.ToLower(filepath.Ext(u.Path))]
			return
		}
	case "data":
		img.Refused = "inline data: URLs are not loaded"
		return
	default:
		if len(u.Scheme) == 1 { // a Windows drive letter: C:\...
			img.Refused = "absolute paths outside the tutorial's repository are not read"
			return
		}
		img.Refused = fmt.Sprintf("%s: URLs are not loaded", u.Scheme)
		return
	}
	rel := filepath.FromSlash(u.Path) // query and fragment (?raw=true, #dark) dropped
	if rel == "" {
		img.Refused = "empty path"
		return
	}
	var p string
	if filepath.IsAbs(rel) || strings.HasPrefix(u.Path, "/") {
		p = filepath.Join(t.Root, rel)
	} else {
		p = filepath.Join(t.Dir, rel)
	}
	if !inside(t.Root, p) {
		img.Refused = "the path leaves the tutorial's repository (" + t.Root + ")"
		return
	}
	ext := strings.ToLower(filepath.Ext(p))
	img.Format = imageFormats[ext]
	if img.Format == "" {
		img.Refused = fmt.Sprintf("unsupported image format %q (PNG, JPG, GIF and SVG are supported)", ext)
		return
	}
	img.Path = p
	// A symlink inside the tree (the file or a directory on the way) may point outside
	// it: resolve before anyone reads it.
	if real, regular, err := resolveLinks(p, dirs); err == nil {
		if !inside(root, real) {
			img.Path = ""
			img.Refused = "the path is a link that leaves the tutorial's repository"
			return
		}
		img.Exists = regular
	}
}

// resolveLinks is filepath.EvalSymlinks with the directories cached in dirs; regular
// tells whether the final target is a regular file.
func resolveLinks(p string, dirs map[string]string) (real string, regular bool, err error) {
	dir, base := filepath.Split(p)
	realDir, ok := dirs[dir]
	if !ok {
		if realDir, err = filepath.EvalSymlinks(dir); err != nil {
			return "", false, err
		}
		dirs[dir] = realDir
	}
	real = filepath.Join(realDir, base)
	fi, err := os.Lstat(real)
	if err != nil {
		return "", false, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		if real, err = filepath.EvalSymlinks(real); err != nil {
			return "", false, err
		}
		if fi, err = os.Stat(real); err != nil {
			return "", false, err
		}
	}
	return real, fi.Mode().IsRegular(), nil
}

// inside reports whether p is root or below it.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
