package none

import (
	"net/url"
	"path"
	"regexp"
	"strings"
)

// What a command is meant to produce, read from the command line alone: directories and
// files it creates and tools it installs. When the command fails, later steps that
// need one of its products fail as a consequence, and are folded into its root cause
// instead of being reported as gaps of their own.
type products struct {
	paths []string // relative to the directory the command ran in, or absolute
	tools []string // commands it makes available
}

var (
	reScaffold = regexp.MustCompile(`^(?:\S+\s+)*?(?:init|new|create|startproject|startapp|generate|checkout|clone|create-[\w@.-]+)\s+(?:--?\S+\s+)*([A-Za-z0-9_.][\w.-]*)`)
	reInstall  = regexp.MustCompile(`^(?:apt|apt-get|pip3?|pipx|npm|pnpm|yarn|cargo|gem|go|uv|brew|deno|bun)\s+(?:-\S+\s+)*(?:install|i|add)\b(.*)$`)
	rePipeSh   = regexp.MustCompile(`(https?://\S+)\s*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|da)?sh\b`)
)

// reOutDirFlag: an option whose value is the folder a program writes its output into.
var reOutDirFlag = regexp.MustCompile(`^(?:--out-?dir|--output-dir(?:ectory)?|--destination-dir)$`)

// compilers whose -d names the folder the compiled classes go to (javac -d classes).
var compilers = map[string]bool{"javac": true, "kotlinc": true, "scalac": true, "groovyc": true, "clojurec": true, "valac": true}

// formatPair: the command has `-i` with a bare word and the `-o` value is one too (no
// extension, no folder): an input and an output format, not files.
func formatPair(fields []string, out string) bool {
	bare := func(v string) bool { return v != "" && !strings.ContainsAny(v, "./~") && !strings.HasPrefix(v, "-") }
	for i, f := range fields {
		if f == "-i" && i+1 < len(fields) && bare(fields[i+1]) && bare(strings.SplitN(out, ",", 2)[0]) {
			return true
		}
	}
	return false
}

// predict reads what a command line produces.
func predict(cmd string) products {
	var p products
	for _, part := range splitList(cmd) {
		fields := strings.Fields(part)
		w := firstWord(part)
		idx := 0
		for i, f := range fields {
			if strings.Trim(f, "(){};") == w {
				idx = i
				break
			}
		}
		args := fields[min(idx+1, len(fields)):]
		switch w {
		case "git":
			if len(args) >= 2 && args[0] == "clone" {
				pos := positional(args[1:])
				switch {
				case len(pos) >= 2:
					p.paths = append(p.paths, pos[1])
				case len(pos) == 1:
					p.paths = append(p.paths, strings.TrimSuffix(path.Base(strings.TrimSuffix(pos[0], "/")), ".git"))
				}
			}
		case "mkdir":
			p.paths = append(p.paths, positional(args)...)
		case "touch":
			p.paths = append(p.paths, positional(args)...)
		case "cp", "mv", "ln":
			if pos := positional(args); len(pos) >= 2 {
				p.paths = append(p.paths, pos[len(pos)-1])
			}
		case "convert", "magick", "montage", "composite", "ffmpeg", "sox":
			// media converters write their last argument (`convert … caption:@x.txt para.png`)
			if pos := positional(args); len(pos) >= 1 && path.Ext(pos[len(pos)-1]) != "" && !strings.ContainsAny(pos[len(pos)-1], ":@") {
				p.paths = append(p.paths, pos[len(pos)-1])
			}
		case "curl", "wget":
			p.paths = append(p.paths, downloadTarget(args)...)
		case "tee":
			p.paths = append(p.paths, positional(args)...)
		case "source", ".":
			if len(args) > 0 && strings.HasSuffix(args[0], "/bin/activate") {
				// a virtual environment's own python and pip
				p.tools = append(p.tools, "python", "pip", "pip3")
			}
		case "jar":
			// jar cfm app.jar manifest.txt …: the archive is the argument of f
			if len(args) >= 2 && strings.Contains(args[0], "c") {
				flags := strings.TrimPrefix(args[0], "-")
				if f := strings.IndexByte(flags, 'f'); f >= 0 {
					if m := strings.IndexByte(flags, 'm'); m >= 0 && m < f && len(args) >= 3 {
						p.paths = append(p.paths, args[2])
					} else {
						p.paths = append(p.paths, args[1])
					}
				}
			}
		case "python", "python3":
			if len(args) >= 3 && args[0] == "-m" && (args[1] == "venv" || args[1] == "virtualenv") {
				p.paths = append(p.paths, positional(args[2:])...)
			}
		}
		// any command's -o/--output FILE and > FILE
		for i, a := range fields {
			if a == "-o" && i+1 < len(fields) && formatPair(fields, fields[i+1]) {
				continue // gpsbabel's `-i gpx … -o kml`: formats, not files
			}
			if (a == "-o" || a == "--output" || a == ">" || a == ">>" || reOutDirFlag.MatchString(a) || a == "-d" && compilers[w]) && i+1 < len(fields) && w != "curl" && w != "wget" && !strings.HasPrefix(strings.Trim(fields[i+1], `"'`), "/dev/") {
				// (not /dev/null, which every `> /dev/null` names and none makes)
				p.paths = append(p.paths, strings.Trim(fields[i+1], `"'`))
			}
		}
		if w == "apt" || w == "apt-get" || w == "add-apt-repository" {
			p.tools = append(p.tools, "apt-get") // the package index later apt commands read
		}
		rest := strings.Join(fields[idx:], " ")
		if m := reScaffold.FindStringSubmatch(rest); m != nil && !strings.HasPrefix(m[1], "-") && w != "git" && w != "go" {
			p.paths = append(p.paths, m[1])
		}
		if w == "go" && len(args) >= 2 && args[0] == "mod" && args[1] == "init" {
			p.paths = append(p.paths, "go.mod")
		}
		if m := reInstall.FindStringSubmatch(rest); m != nil {
			for _, pkg := range positional(strings.Fields(m[1])) {
				p.tools = append(p.tools, packageCommands(pkg)...)
			}
		}
	}
	if m := rePipeSh.FindStringSubmatch(cmd); m != nil {
		p.tools = append(p.tools, installerTools(m[1])...)
	}
	return p
}

// splitList splits a command list at && || ; and newlines (not inside quotes: good
// enough for prediction).
func splitList(cmd string) []string {
	return reListSep.Split(cmd, -1)
}

var reListSep = regexp.MustCompile(`\s*(?:&&|\|\||;|\||\n)\s*`)

// mentionsTool reports whether a command names tool t as a word ("$NVM_DIR/nvm.sh"
// names nvm).
func mentionsTool(cmd, t string) bool {
	for _, w := range reWords.FindAllString(strings.ToLower(cmd), -1) {
		if w == strings.ToLower(t) {
			return true
		}
	}
	return false
}

var reWords = regexp.MustCompile(`[a-z0-9][a-z0-9-]*`)

// positional drops options (and the value of options known to take one).
func positional(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if a == "-m" || a == "--mode" || a == "-b" || a == "--branch" || a == "--depth" {
				i++
			}
			continue
		}
		if strings.ContainsAny(a, "|<>&$`") {
			break
		}
		out = append(out, strings.Trim(a, `"'`))
	}
	return out
}

func downloadTarget(args []string) []string {
	for i, a := range args {
		if (a == "-o" || a == "--output" || a == "-O" && i+1 < len(args) && !strings.HasPrefix(args[i+1], "http")) && i+1 < len(args) {
			return []string{args[i+1]}
		}
	}
	for i, a := range args {
		if a == "-O" || a == "--remote-name" {
			for _, u := range args[i+1:] {
				if strings.HasPrefix(u, "http") {
					if pu, err := url.Parse(u); err == nil {
						return []string{path.Base(pu.Path)}
					}
				}
			}
		}
	}
	return nil
}

// packageCommands: the commands a package gives (its name, and for known packages,
// their tool's commands).
func packageCommands(pkg string) []string {
	pkg = strings.Trim(pkg, `"'`)
	if i := strings.IndexAny(pkg, "=@<>~["); i > 0 {
		pkg = pkg[:i]
	}
	name := path.Base(pkg)
	out := []string{name}
	switch name {
	case "nodejs":
		out = append(out, "node", "npm", "npx")
	case "golang", "golang-go":
		out = append(out, "go")
	case "python3-pip":
		out = append(out, "pip", "pip3")
	case "build-essential":
		out = append(out, "make", "gcc", "cc")
	case "docker.io", "docker-ce":
		out = append(out, "docker")
	case "redis":
		out = append(out, "redis-server", "redis-cli")
	}
	return out
}

// installerTools guesses what a "curl URL | sh" installer installs from its URL: the
// words of its host and path that name a known tool or look like a tool name.
func installerTools(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	words := regexp.MustCompile(`[A-Za-z][\w-]*`).FindAllString(u.Host+"/"+u.Path, -1)
	for _, w := range words {
		lw := strings.ToLower(w)
		switch lw {
		case "https", "http", "www", "com", "org", "io", "sh", "dev", "install", "installer", "raw", "githubusercontent", "github",
			"main", "master", "latest", "releases", "download", "scripts", "script", "get", "bash", "sh-session":
			continue
		}
		out = append(out, lw)
		t := toolOf(lw)
		out = append(out, t.Commands...)
		if lw == "rustup" {
			out = append(out, toolOf("cargo").Commands...)
		}
	}
	return out
}

// refersTo reports whether a command line names p (a path relative to the directory the
// command runs in) as one of its words, or a path under it.
func refersTo(cmd, p string) bool {
	p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
	if p == "" || p == "." {
		return false
	}
	for _, field := range strings.Fields(cmd) {
		if strings.Contains(field, "'"+p+"'") || strings.Contains(field, `\"`+p+`\"`) || strings.Contains(field, `"`+p+`"`) && !strings.HasPrefix(field, `"`+p) || strings.Contains(field, "("+p+")") {
			return true // a file named in code the command runs (`python3 -c "…open('x.json')…"`)
		}
		field = strings.Trim(field, `"'();`)
		parts := []string{field}
		if strings.Contains(field, ":") && !strings.Contains(field, "://") {
			parts = strings.Split(field, ":") // a class or search path: `-cp clojure.jar:classes`
		}
		for _, w := range parts {
			w = strings.TrimSuffix(strings.TrimPrefix(w, "./"), "/")
			if w == p || strings.HasPrefix(w, p+"/") {
				return true
			}
		}
	}
	return false
}

// cdTarget is the directory of a lone `cd DIR` ("" when the command is something else).
func cdTarget(cmd string) string {
	f := strings.Fields(strings.TrimSpace(cmd))
	if len(f) == 2 && f[0] == "cd" {
		return strings.Trim(f[1], `"'`)
	}
	return ""
}
