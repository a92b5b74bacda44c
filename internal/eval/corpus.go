// Package eval measures how closely deterministic runs agree with a labelled corpus of
// tutorials: true positives, false positives, misses, precision and recall, scored as the
// corpus format defines (shared/corpus/README.md in this workplace; any corpus in that
// format works).
package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Expected is a tutorial's expected.json: the judgement of a careful newcomer.
type Expected struct {
	Description string        `json:"description"`
	Gaps        []ExpectedGap `json:"gaps"`
	MustNotFlag []Marker      `json:"mustNotFlag"`
	Environment []Marker      `json:"environment"`
	Notes       string        `json:"notes"`
}

// ExpectedGap is a real fault of the tutorial.
type ExpectedGap struct {
	Marker   string   `json:"marker"`
	Mentions string   `json:"mentions,omitempty"`
	Why      string   `json:"why"`
	AlsoAt   []string `json:"alsoAt,omitempty"`
}

// Marker is a place in the tutorial with the reason it is listed.
type Marker struct {
	Marker string `json:"marker"`
	Why    string `json:"why"`
}

// Case is one labelled tutorial of a corpus.
type Case struct {
	Name     string // the directory's name
	Dir      string
	Tutorial string // path of tutorial.md
	Config   string // path of an optional smile.json beside it, "" when none
	Expected Expected
}

// Discover lists the cases under each path: a directory holding expected.json is one
// case; any other directory is a corpus whose sub-directories holding expected.json are
// its cases, in name order.
func Discover(paths ...string) ([]Case, error) {
	var out []Case
	var errs []error
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("corpus %s: %w", p, err))
			continue
		}
		if !st.IsDir() {
			errs = append(errs, fmt.Errorf("corpus %s is not a directory: give a corpus directory or a tutorial directory holding tutorial.md and expected.json", p))
			continue
		}
		if fileExists(filepath.Join(p, "expected.json")) {
			c, err := LoadCase(p)
			if err != nil {
				errs = append(errs, err)
			} else {
				out = append(out, c)
			}
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("corpus %s: %w", p, err))
			continue
		}
		var names []string
		for _, e := range entries {
			if e.IsDir() && fileExists(filepath.Join(p, e.Name(), "expected.json")) {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		if len(names) == 0 {
			errs = append(errs, fmt.Errorf("corpus %s has no tutorial: each case is a directory holding tutorial.md and expected.json", p))
		}
		for _, n := range names {
			c, err := LoadCase(filepath.Join(p, n))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out = append(out, c)
		}
	}
	return out, errors.Join(errs...)
}

// LoadCase reads one case directory and checks that every marker occurs exactly once.
func LoadCase(dir string) (Case, error) {
	c := Case{Name: filepath.Base(dir), Dir: dir, Tutorial: filepath.Join(dir, "tutorial.md")}
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		return c, fmt.Errorf("case %s: %w", dir, err)
	}
	if err := json.Unmarshal(raw, &c.Expected); err != nil {
		return c, fmt.Errorf("case %s: expected.json is not valid: %w", dir, err)
	}
	text, err := os.ReadFile(c.Tutorial)
	if err != nil {
		return c, fmt.Errorf("case %s: %w (each case needs tutorial.md)", dir, err)
	}
	if p := filepath.Join(dir, "smile.json"); fileExists(p) {
		c.Config = p
	}
	var errs []error
	check := func(kind, m string) {
		if n := strings.Count(string(text), m); n != 1 {
			errs = append(errs, fmt.Errorf("case %s: %s marker %q occurs %d times in tutorial.md; a marker must occur exactly once", c.Name, kind, m, n))
		}
	}
	for _, g := range c.Expected.Gaps {
		check("gap", g.Marker)
		for _, a := range g.AlsoAt {
			check("alsoAt", a)
		}
	}
	for _, m := range c.Expected.MustNotFlag {
		check("mustNotFlag", m.Marker)
	}
	for _, m := range c.Expected.Environment {
		check("environment", m.Marker)
	}
	return c, errors.Join(errs...)
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
