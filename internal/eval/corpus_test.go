package eval_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile-loop/internal/eval"
)

// heldOutSets are the repository's own labelled corpora: tutorials written for the tests.
// testdata/corpus/README.md describes the first; each testdata/corpus-blind*/README.md
// describes its set, labelled before the Student ever ran on it, and the Student's
// figures the first time it did.
func heldOutSets(t *testing.T) []string {
	t.Helper()
	blind, err := filepath.Glob("../../testdata/corpus-blind*")
	if err != nil {
		t.Fatal(err)
	}
	if len(blind) == 0 {
		t.Fatal("no testdata/corpus-blind* set: the held-out corpora belong to the repository")
	}
	return append([]string{"../../testdata/corpus"}, blind...)
}

// TestHeldOutCorpusLoads checks that every case of each held-out corpus loads: its
// expected.json is valid JSON with only the format's fields, and every marker (gap, alsoAt,
// mustNotFlag, environment) occurs exactly once in its tutorial.md, as `grep -c -F` and the
// scorer both need.
func TestHeldOutCorpusLoads(t *testing.T) {
	for _, dir := range heldOutSets(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) { checkHeldOut(t, dir) })
	}
}

func checkHeldOut(t *testing.T, heldOut string) {
	cases, err := eval.Discover(heldOut)
	if err != nil {
		t.Fatalf("the held-out corpus does not load; fix each case named below:\n%v", err)
	}
	entries, err := os.ReadDir(heldOut)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(cases) != len(dirs) {
		t.Errorf("%d directories under %s but %d cases loaded: every case directory needs tutorial.md, SOURCE and expected.json", len(dirs), heldOut, len(cases))
	}
	if len(cases) == 0 {
		t.Fatalf("no case under %s", heldOut)
	}
	readme, err := os.ReadFile(filepath.Join(heldOut, "README.md"))
	if err != nil {
		t.Fatalf("%s/README.md describes the set: %v", heldOut, err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			checkCase(t, c)
			if !bytes.Contains(readme, []byte("| "+c.Name+" |")) {
				t.Errorf("README.md has no table row for %s: add it with its gap count", c.Name)
			}
		})
	}
}

// checkCase adds what LoadCase does not check: unknown or misspelt fields, empty
// markers and reasons, markers spanning lines, and the SOURCE file.
func checkCase(t *testing.T, c eval.Case) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(c.Dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var strict eval.Expected
	if err := dec.Decode(&strict); err != nil {
		t.Errorf("%s/expected.json: %v (fields are description, gaps[marker, mentions, why, alsoAt], mustNotFlag[marker, why], environment[marker, why], notes)", c.Name, err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "SOURCE")); err != nil {
		t.Errorf("%s has no SOURCE file: say where the tutorial comes from and under which licence", c.Name)
	}
	text, err := os.ReadFile(c.Tutorial)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	e := c.Expected
	if strings.TrimSpace(e.Description) == "" || strings.TrimSpace(e.Notes) == "" {
		t.Errorf("%s/expected.json: description and notes must not be empty", c.Name)
	}
	marker := func(kind, m, why string) {
		if strings.TrimSpace(m) == "" {
			t.Errorf("%s: a %s marker is empty", c.Name, kind)
			return
		}
		if strings.ContainsAny(m, "\r\n") {
			t.Errorf("%s: %s marker %q spans lines; a marker must sit on one line", c.Name, kind, m)
		}
		if n := linesContaining(lines, m); n != 1 {
			t.Errorf("%s: %s marker %q is on %d lines of tutorial.md (grep -c -F); it must be on exactly one", c.Name, kind, m, n)
		}
		if kind != "alsoAt" && strings.TrimSpace(why) == "" {
			t.Errorf("%s: %s marker %q has no why", c.Name, kind, m)
		}
	}
	for _, g := range e.Gaps {
		marker("gap", g.Marker, g.Why)
		for _, a := range g.AlsoAt {
			marker("alsoAt", a, "")
			if a == g.Marker {
				t.Errorf("%s: gap %q lists its own marker in alsoAt", c.Name, g.Marker)
			}
		}
	}
	for _, m := range e.MustNotFlag {
		marker("mustNotFlag", m.Marker, m.Why)
	}
	for _, m := range e.Environment {
		marker("environment", m.Marker, m.Why)
	}
}

func linesContaining(lines []string, m string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, m) {
			n++
		}
	}
	return n
}
