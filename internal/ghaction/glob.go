package ghaction

import (
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Match reports whether the slash-separated path name matches pattern, where pattern is a
// path.Match pattern per segment plus "**" for any number of segments (the syntax of
// GitHub's `paths:` filters). It is small enough not to need a dependency.
func Match(pattern, name string) bool {
	return matchSegs(strings.Split(strings.Trim(pattern, "/"), "/"), strings.Split(strings.Trim(name, "/"), "/"))
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// MatchAny reports whether name matches one of the patterns.
func MatchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if Match(p, name) {
			return true
		}
	}
	return false
}

// Glob lists the files under root matching one of the patterns, as sorted
// root-relative slash paths. Hidden directories (.git, .github) and node_modules are
// skipped unless a pattern names them.
func Glob(root string, patterns []string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			base := d.Name()
			if rel != "." && (strings.HasPrefix(base, ".") || base == "node_modules") && !mentioned(patterns, rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && MatchAny(patterns, rel) {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

func mentioned(patterns []string, dir string) bool {
	for _, p := range patterns {
		if strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}
