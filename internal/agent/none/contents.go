package none

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// Which Debian package holds a command, the way a reader finds out: packages.debian.org's
// "search the contents of packages", which reads the archive's Contents index, as
// apt-file does. The index of the system's first apt source is fetched with apt's own
// download helper (curl when that is missing) and searched; bookworm's
// main/Contents-amd64.gz is about 12 MB, so it is kept in the container, under
// /var/tmp/.smile-contents-<uid>/, for the later lookups of the same run (a fresh
// container, as a fix proof starts, fetches it again). Debian keeps it under the component
// (dists/bookworm/main/), Ubuntu beside the Release file (dists/noble/). Packages for all
// architectures (python3-dnspython, most scripts) are in Contents-all.gz (34 MB), read
// only when the architecture's index has none of what is looked for.
const contentsScript = `set -- $( { awk '$1 == "deb" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ } print $i, $(i+1); exit }' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
  awk 'tolower($1) == "uris:" { u = $2 } tolower($1) == "suites:" { s = $2 } u != "" && s != "" { print u, s; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null; } | head -n 1)
[ -n "$2" ] || exit 3
d=/var/tmp/.smile-contents-$(id -u)
mkdir -p "$d" || exit 3
arch=$(dpkg --print-architecture)
fetch() { c="$d/$(printf '%s' "$1" | tr -c 'A-Za-z0-9.-' _)"
  [ -s "$c" ] || { if [ -x /usr/lib/apt/apt-helper ]; then /usr/lib/apt/apt-helper download-file "$1" "$c.part" >/dev/null 2>&1; else curl -fsSL -o "$c.part" "$1" 2>/dev/null; fi && mv "$c.part" "$c"; } || { rm -f "$c.part"; return 1; }; }
search() { gzip -dc "$c" | awk -v names="$names" -v files="$files" -v bases="$bases" -v pkgs="$pkgs" 'BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) { want["usr/bin/" a[i]] = a[i]; want["usr/sbin/" a[i]] = a[i]; want["bin/" a[i]] = a[i]; want["sbin/" a[i]] = a[i] }
  n = split(files, a, " "); for (i = 1; i <= n; i++) want[a[i]] = a[i]
  n = split(bases, a, " "); for (i = 1; i <= n; i++) base[a[i]] = 1
  n = split(pkgs, a, " "); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
($1 in want) && !(want[$1] in seen) { seen[want[$1]] = 1; split($NF, p, ","); sub(/.*\//, "", p[1]); print want[$1], p[1] }
bases != "" { f = $1; sub(/.*\//, "", f); if ((f in base) && !(f in seen)) { k = split($NF, p, ","); for (j = 1; j <= k; j++) { q = p[j]; sub(/.*\//, "", q); if (q in ok) { seen[f] = 1; print f, q; break } } } }'; }
fetch "${1%/}/dists/$2/main/Contents-$arch.gz" || fetch "${1%/}/dists/$2/Contents-$arch.gz" || exit 3
found=$(search)
if [ -z "$found" ]; then
  fetch "${1%/}/dists/$2/main/Contents-all.gz" || fetch "${1%/}/dists/$2/Contents-all.gz" && found=$(search)
fi
[ -z "$found" ] || printf '%s\n' "$found"`

// commandPackages: for each of names that some Debian package puts on PATH, the first such
// package in the index (nil when the index cannot be had: no apt source, no network).
func (ss *session) commandPackages(ctx context.Context, names []string) map[string]string {
	names = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !reDebianName.MatchString(n) })
	if len(names) == 0 {
		return nil
	}
	return ss.contentsLookup(ctx, names, nil)
}

// filePackage is the Debian package that installs one of paths (as the index writes them,
// without the leading slash: usr/include/lmdb.h), "" when none does.
func (ss *session) filePackage(ctx context.Context, paths ...string) string {
	found := ss.contentsLookup(ctx, nil, paths)
	for _, p := range paths {
		if found[p] != "" {
			return found[p]
		}
	}
	return ""
}

// contentsLookup searches the Contents index for commands by name and files by path.
func (ss *session) contentsLookup(ctx context.Context, names, paths []string) map[string]string {
	for _, p := range paths {
		if !reIndexPath.MatchString(p) {
			return nil
		}
	}
	return ss.searchContents(ctx, map[string]string{"names": strings.Join(names, " "), "files": strings.Join(paths, " ")})
}

// searchContents runs contentsScript with what to look for in env: what it found → the
// package holding it (nil when the index cannot be had).
func (ss *session) searchContents(ctx context.Context, env map[string]string) map[string]string {
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: contentsScript, Env: env, Timeout: 90 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return nil
	}
	found := map[string]string{}
	for _, l := range strings.Split(r.Stdout, "\n") {
		if name, pkg, ok := strings.Cut(strings.TrimSpace(l), " "); ok && reDebianName.MatchString(pkg) {
			found[name] = pkg
		}
	}
	return found
}

// packagesHolding: for each of the file names (without folders), the first of pkgs that
// installs a file of that name, as the Contents index says (nil when none does or the
// index cannot be had).
func (ss *session) packagesHolding(ctx context.Context, bases, pkgs []string) map[string]string {
	for _, p := range append(slices.Clone(bases), pkgs...) {
		if !reIndexPath.MatchString(p) || strings.Contains(p, "/") {
			return nil
		}
	}
	if len(bases) == 0 || len(pkgs) == 0 || ss.task.Sandbox == nil {
		return nil
	}
	return ss.searchContents(ctx, map[string]string{"bases": strings.Join(bases, " "), "pkgs": strings.Join(pkgs, " ")})
}

// reMissingNamed: a file an error line says could not be found, by its name in quotes
// (Icon 9.4's icont: "cannot resolve reference to file 'options.u1'").
var reMissingNamed = regexp.MustCompile(`(?i)(?:cannot|can't|could not|couldn't|unable to|failed to) (?:resolve|find|locate|open|load)[^\n]*?['"‘“]([\w+-]+\.[A-Za-z]\w*)['"’”]`)

// laterInstallHolding: a file the failure says could not be found is in a package that a
// later step of the tutorial installs: that step, the package and the file (nil when
// not so).
func (ss *session) laterInstallHolding(ctx context.Context, i int, output string) (*step, string, string) {
	var bases []string
	for _, m := range reMissingNamed.FindAllStringSubmatch(output, 5) {
		if !slices.Contains(bases, m[1]) {
			bases = append(bases, m[1])
		}
	}
	if len(bases) == 0 {
		return nil, "", ""
	}
	at := map[string]int{}
	var pkgs []string
	for j := i + 1; j < len(ss.steps); j++ {
		if s := ss.steps[j]; s.command != nil && s.kind == runStep {
			if ps, ok := aptInstall(s.command.Text); ok {
				for _, p := range ps {
					if _, seen := at[p]; !seen {
						at[p] = j
						pkgs = append(pkgs, p)
					}
				}
			}
		}
	}
	found := ss.packagesHolding(ctx, bases, pkgs)
	for _, b := range bases {
		if p := found[b]; p != "" {
			return &ss.steps[at[p]], p, b
		}
	}
	return nil, "", ""
}

// reIndexPath: a path as the Contents index writes it, safe to pass through the shell's
// environment and awk (no spaces, no leading slash).
var reIndexPath = regexp.MustCompile(`^[\w][\w.+/-]*$`)

// commandPackage is commandPackages for one command ("" when no package has it).
func (ss *session) commandPackage(ctx context.Context, name string) string {
	return ss.commandPackages(ctx, []string{name})[name]
}

// laterCommandPackage: the first command the tutorial runs after line, before its next
// install step, that is not on PATH and that a Debian package holds, with that package
// ("", "" when none): what `apt install htslib`, which Debian lacks, was meant to bring
// when the next step runs `bgzip` (Debian's tabix).
func (ss *session) laterCommandPackage(ctx context.Context, line int) (cmd, pkg string) {
	var later []string
	for _, st := range ss.steps {
		if st.kind != runStep || st.line <= line {
			continue
		}
		if isPackageInstall(st.command.Text) {
			break
		}
		if w := firstWord(st.command.Text); reDebianName.MatchString(w) && !slices.Contains(later, w) {
			later = append(later, w)
		}
	}
	if len(later) == 0 {
		return "", ""
	}
	r, err := ss.task.Sandbox.Exec(ctx, loop.ExecRequest{Command: `for w in ` + shellWords(later) + `; do command -v "$w" >/dev/null 2>&1 || echo "$w"; done`, Timeout: 10 * time.Second, User: ss.user})
	if err != nil || r.ExitCode != 0 {
		return "", ""
	}
	missing := strings.Fields(r.Stdout)
	pkgs := ss.commandPackages(ctx, missing)
	for _, w := range missing {
		if pkgs[w] != "" {
			return w, pkgs[w]
		}
	}
	return "", ""
}
