package none

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// Debian 12 ships Python without pip, and its pip refuses to install into the system's
// Python (PEP 668, "externally-managed-environment"): a tutorial's `pip install` of a
// library fails on a fresh Debian either way, and Debian's own package of the library
// is the reader's way on.

// rePipInstall: a pip install and what follows it.
var rePipInstall = regexp.MustCompile(`^(?:sudo\s+)?(?:pip3?|python3?\s+-m\s+pip)\s+install\s+(.+)$`)

// reExternallyManaged: pip refusing the system Python (pip 23 on Debian 12).
var reExternallyManaged = regexp.MustCompile(`error: externally-managed-environment`)

// pipImportNames: distributions whose module, and so Debian's python3- package, has
// another name.
var pipImportNames = map[string]string{"pillow": "pil", "pyyaml": "yaml", "beautifulsoup4": "bs4", "scikit-learn": "sklearn",
	"opencv-python": "opencv", "python-dateutil": "dateutil", "pyserial": "serial", "pyjwt": "jwt", "python-dotenv": "dotenv",
	"psycopg2-binary": "psycopg2", "mysqlclient": "mysqldb", "attrs": "attr", "pygobject": "gi"}

// pipPackages are the distributions a pip install names (nil for requirement files,
// paths and URLs, whose contents the reader cannot map to Debian by name).
func pipPackages(cmd string) []string {
	m := rePipInstall.FindStringSubmatch(strings.TrimSpace(cmd))
	if m == nil {
		return nil
	}
	var out []string
	for _, a := range strings.Fields(m[1]) {
		a = strings.Trim(a, `"'`)
		switch {
		case a == "-r" || a == "--requirement" || a == "-e" || a == "--editable" || strings.ContainsAny(a, "/:") || a == ".":
			return nil
		case strings.HasPrefix(a, "-"):
			continue
		}
		if i := strings.IndexAny(a, "[<>=!~;"); i > 0 {
			a = a[:i] // `pelican[markdown]`, `requests>=2`
		}
		out = append(out, strings.ToLower(a))
	}
	return out
}

// pipFromDebian: a pip install that cannot work on Debian as written (no pip, or pip
// refusing the system Python) and Debian's packages of the libraries it names, as a
// finding whose fix installs them. False when the command is not such an install or
// Debian has no package by those names.
func (ss *session) pipFromDebian(ctx context.Context, rec loop.CommandRecord, output string) (loop.Finding, bool) {
	pkgs := pipPackages(rec.Command)
	noPip := strings.Contains(output, "No module named pip") || rec.ExitCode == 127
	if len(pkgs) == 0 || !noPip && !reExternallyManaged.MatchString(output) {
		return loop.Finding{}, false
	}
	var cands []string
	for _, p := range pkgs {
		if imp, ok := pipImportNames[p]; ok {
			cands = append(cands, "python3-"+imp)
		}
		cands = append(cands, "python3-"+strings.ReplaceAll(p, "_", "-"))
	}
	cands = slices.DeleteFunc(cands, func(c string) bool { return !reDebianName.MatchString(c) })
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `for p in $__smile_cands; do apt-cache show "$p" >/dev/null 2>&1 && echo "$p"; done; true`,
		Env: map[string]string{"__smile_cands": strings.Join(cands, " ")}, Timeout: 30 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return loop.Finding{}, false
	}
	var debs []string
	seen := map[string]bool{}
	for _, d := range strings.Fields(r.Stdout) {
		base := strings.TrimPrefix(d, "python3-")
		for _, p := range pkgs {
			if !seen[p] && (base == strings.ReplaceAll(p, "_", "-") || base == pipImportNames[p]) {
				seen[p] = true
				debs = append(debs, d)
			}
		}
	}
	if len(debs) != len(pkgs) {
		return loop.Finding{}, false // a library Debian does not package: a virtual environment is the way
	}
	why := "Debian 12 ships Python without pip"
	if !noPip {
		why = "Debian 12's pip refuses to install into the system's Python (externally-managed-environment)"
	}
	install := "sudo apt-get install -y " + strings.Join(debs, " ")
	return loop.Finding{
		Problem:  fmt.Sprintf("%s; %s, and Debian packages %s as %s", failureProblem(rec, output), why, quoteList(pkgs), quoteList(debs)),
		Fix:      fmt.Sprintf("on Debian, install the library from Debian's packages at line %d (`%s`), or create a virtual environment first and install with its pip", rec.Line, install),
		Edit:     &loop.Edit{Replace: install},
		Category: "missing step",
	}, true
}
