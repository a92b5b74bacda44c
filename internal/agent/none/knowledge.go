package none

import (
	"regexp"
	"strings"
)

// A tool is what a newcomer installs to get a set of commands: "Node.js" gives node,
// npm and npx. The table is general knowledge of common toolchains (what a packaging
// "command-not-found" handler knows), used to fold failures of one missing toolchain
// into one gap, to match declared prerequisites to commands, and to name the fix.
type tool struct {
	Name     string   // as people write it: "Node.js"
	Commands []string // the commands it provides
	Aliases  []string // other ways prose names it (lower case)
	Debian   string   // the Debian install command, "" when Debian does not package it usefully
	Guide    string   // where its own install guide is, for tools Debian lacks
}

var tools = []tool{
	{Name: "Node.js", Commands: []string{"node", "npm", "npx", "corepack"}, Aliases: []string{"node.js", "nodejs", "node", "npm", "npx"}, Debian: "sudo apt-get install -y nodejs npm", Guide: "https://nodejs.org/en/download"},
	{Name: "Rust", Commands: []string{"cargo", "rustc", "rustup", "rustfmt"}, Aliases: []string{"rust", "cargo", "rustup", "rustc"}, Debian: "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh", Guide: "https://www.rust-lang.org/tools/install"},
	{Name: "Go", Commands: []string{"go", "gofmt"}, Aliases: []string{"go", "golang"}, Debian: "sudo apt-get install -y golang", Guide: "https://go.dev/doc/install"},
	{Name: "Python", Commands: []string{"python3"}, Aliases: []string{"python", "python3"}, Debian: "sudo apt-get install -y python3"},
	// Debian ships python3 only: `python` is a separate package
	{Name: "the `python` command (Debian has only `python3`)", Commands: []string{"python"}, Aliases: []string{"python-is-python3"}, Debian: "sudo apt-get install -y python-is-python3"},
	{Name: "pip", Commands: []string{"pip", "pip3"}, Aliases: []string{"pip", "pip3"}, Debian: "sudo apt-get install -y python3-pip"},
	{Name: "pipx", Commands: []string{"pipx"}, Aliases: []string{"pipx"}, Debian: "sudo apt-get install -y pipx"},
	{Name: "uv", Commands: []string{"uv", "uvx"}, Aliases: []string{"uv"}, Guide: "https://docs.astral.sh/uv/getting-started/installation/"},
	{Name: "Deno", Commands: []string{"deno"}, Aliases: []string{"deno"}, Guide: "https://docs.deno.com/runtime/getting_started/installation/"},
	{Name: "Bun", Commands: []string{"bun", "bunx"}, Aliases: []string{"bun"}, Guide: "https://bun.sh/docs/installation"},
	{Name: "Docker", Commands: []string{"docker", "docker-compose"}, Aliases: []string{"docker", "docker desktop", "docker engine"}, Debian: "sudo apt-get install -y docker.io", Guide: "https://docs.docker.com/engine/install/"},
	{Name: "kubectl", Commands: []string{"kubectl"}, Aliases: []string{"kubectl"}, Guide: "https://kubernetes.io/docs/tasks/tools/"},
	{Name: "minikube", Commands: []string{"minikube"}, Aliases: []string{"minikube"}, Guide: "https://minikube.sigs.k8s.io/docs/start/"},
	{Name: "Helm", Commands: []string{"helm"}, Aliases: []string{"helm"}, Guide: "https://helm.sh/docs/intro/install/"},
	{Name: "k6", Commands: []string{"k6"}, Aliases: []string{"k6"}, Guide: "https://grafana.com/docs/k6/latest/set-up/install-k6/"},
	{Name: "GNU make", Commands: []string{"make"}, Aliases: []string{"make", "gnu make", "build-essential"}, Debian: "sudo apt-get install -y make"},
	{Name: "a C compiler (gcc)", Commands: []string{"gcc", "cc", "g++"}, Aliases: []string{"gcc", "build-essential", "c compiler", "linker"}, Debian: "sudo apt-get install -y build-essential"},
	{Name: "GNU binutils (the linker and object tools)", Commands: []string{"ld", "as", "nm", "objdump", "readelf", "objcopy", "strip", "ar", "ranlib", "addr2line"}, Aliases: []string{"binutils"}, Debian: "sudo apt-get install -y binutils"},
	{Name: "Git", Commands: []string{"git"}, Aliases: []string{"git"}, Debian: "sudo apt-get install -y git"},
	{Name: "curl", Commands: []string{"curl"}, Aliases: []string{"curl"}, Debian: "sudo apt-get install -y curl"},
	{Name: "wget", Commands: []string{"wget"}, Aliases: []string{"wget"}, Debian: "sudo apt-get install -y wget"},
	{Name: "jq", Commands: []string{"jq"}, Aliases: []string{"jq"}, Debian: "sudo apt-get install -y jq"},
	{Name: "unzip", Commands: []string{"unzip"}, Aliases: []string{"unzip"}, Debian: "sudo apt-get install -y unzip"},
	{Name: "Java (JDK)", Commands: []string{"java", "javac", "jar"}, Aliases: []string{"java", "jdk", "openjdk"}, Debian: "sudo apt-get install -y default-jdk"},
	{Name: "Maven", Commands: []string{"mvn"}, Aliases: []string{"maven", "mvn"}, Debian: "sudo apt-get install -y maven"},
	{Name: "Gradle", Commands: []string{"gradle"}, Aliases: []string{"gradle"}, Debian: "sudo apt-get install -y gradle"},
	{Name: "Ruby", Commands: []string{"ruby", "gem", "irb", "rake", "erb"}, Aliases: []string{"ruby", "rubygems"}, Debian: "sudo apt-get install -y ruby-full"},
	{Name: "Bundler", Commands: []string{"bundle", "bundler"}, Aliases: []string{"bundler"}, Debian: "sudo apt-get install -y ruby-bundler"},
	{Name: "PHP", Commands: []string{"php"}, Aliases: []string{"php"}, Debian: "sudo apt-get install -y php-cli"},
	{Name: "Composer", Commands: []string{"composer"}, Aliases: []string{"composer"}, Debian: "sudo apt-get install -y composer"},
	{Name: ".NET SDK", Commands: []string{"dotnet"}, Aliases: []string{".net", "dotnet"}, Guide: "https://learn.microsoft.com/dotnet/core/install/linux"},
	{Name: "Yarn", Commands: []string{"yarn"}, Aliases: []string{"yarn"}, Guide: "https://yarnpkg.com/getting-started/install"},
	{Name: "pnpm", Commands: []string{"pnpm"}, Aliases: []string{"pnpm"}, Guide: "https://pnpm.io/installation"},
	{Name: "Terraform", Commands: []string{"terraform"}, Aliases: []string{"terraform"}, Guide: "https://developer.hashicorp.com/terraform/install"},
	{Name: "the GitHub CLI", Commands: []string{"gh"}, Aliases: []string{"gh", "github cli"}, Guide: "https://cli.github.com/"},
	{Name: "nvm", Commands: []string{"nvm"}, Aliases: []string{"nvm"}, Guide: "https://github.com/nvm-sh/nvm#installing-and-updating"},
	{Name: "Redis", Commands: []string{"redis-server", "redis-cli"}, Aliases: []string{"redis"}, Debian: "sudo apt-get install -y redis"},
	{Name: "PostgreSQL", Commands: []string{"psql", "pg_ctl", "createdb"}, Aliases: []string{"postgresql", "postgres"}, Debian: "sudo apt-get install -y postgresql"},
	{Name: "SQLite", Commands: []string{"sqlite3"}, Aliases: []string{"sqlite"}, Debian: "sudo apt-get install -y sqlite3"},
	{Name: "Hugo", Commands: []string{"hugo"}, Aliases: []string{"hugo"}, Debian: "sudo apt-get install -y hugo"},
	{Name: "Zola", Commands: []string{"zola"}, Aliases: []string{"zola"}, Guide: "https://www.getzola.org/documentation/getting-started/installation/"},
	{Name: "lsb-release", Commands: []string{"lsb_release"}, Aliases: []string{"lsb-release"}, Debian: "sudo apt-get install -y lsb-release"},
	{Name: "Flask", Commands: []string{"flask"}, Aliases: []string{"flask"}, Debian: "sudo apt-get install -y python3-flask"},
	{Name: "uvicorn", Commands: []string{"uvicorn"}, Aliases: []string{"uvicorn"}, Debian: "sudo apt-get install -y uvicorn"}, // bookworm: the command is in `uvicorn`, python3-uvicorn has only the module
	{Name: "Poetry", Commands: []string{"poetry"}, Aliases: []string{"poetry"}, Debian: "sudo apt-get install -y python3-poetry"},
	{Name: "APT", Commands: []string{"apt", "apt-get", "apt-cache", "add-apt-repository"}, Aliases: []string{"apt"}},
	{Name: "GnuPG", Commands: []string{"gpg"}, Aliases: []string{"gpg", "gnupg"}, Debian: "sudo apt-get install -y gpg"},
}

// debianGroups: Debian packages whose commands are named otherwise, or several commands
// of one package (so that one missing install is one gap, and its install is the fix).
// Facts from Debian bookworm's package contents (packages.debian.org, bookworm).
var debianGroups = []struct{ name, pkg, commands string }{
	{"GNU gettext", "gettext", "xgettext msgfmt msginit msgmerge msgcat msgunfmt msguniq msgconv"},
	{"envsubst (gettext-base)", "gettext-base", "envsubst gettext ngettext"},
	{"ImageMagick", "imagemagick", "convert mogrify identify montage composite compare import conjure stream"},
	{"SoX", "sox", "sox soxi play rec"},
	{"the DNS tools", "bind9-dnsutils", "dig nslookup host delv"},
	{"net-tools", "net-tools", "ifconfig netstat route arp"},
	{"psmisc", "psmisc", "killall pstree fuser"},
	{"procps", "procps", "ps top free watch pkill pgrep uptime vmstat"},
	{"xxd", "xxd", "xxd"},
	{"bsdextrautils", "bsdextrautils", "column hexdump look write"},
	{"xmllint (libxml2-utils)", "libxml2-utils", "xmllint xmlcatalog"},
	{"Poppler's tools", "poppler-utils", "pdftotext pdfinfo pdftoppm pdfimages pdfunite pdfseparate"},
	{"Ghostscript", "ghostscript", "gs ps2pdf"},
	{"Graphviz", "graphviz", "dot neato circo fdp sfdp twopi"},
	{"GNU Autoconf", "autoconf", "autoreconf autoconf autoheader autoscan autom4te"},
	{"GNU Automake", "automake", "automake aclocal"},
	{"GNU libtool", "libtool-bin", "libtool"},
	{"Ninja", "ninja-build", "ninja"},
	{"CMake", "cmake", "cmake ctest cpack"},
	{"Meson", "meson", "meson"},
	{"7-Zip", "p7zip-full", "7z 7za"},
	{"Apache's tools", "apache2-utils", "ab htpasswd"},
	{"netcat", "netcat-openbsd", "nc netcat"},
	{"ripgrep", "ripgrep", "rg"},
	{"fd", "fd-find", "fdfind"},
	{"Tcl", "tcl", "tclsh"},
	{"Lua", "lua5.4", "lua lua5.4"},
	{"GNU parallel", "parallel", "parallel"},
	{"bc", "bc", "bc"},
	{"ShellCheck", "shellcheck", "shellcheck"},
	{"Bats", "bats", "bats"},
	{"Pandoc", "pandoc", "pandoc"},
	{"tree", "tree", "tree"},
	{"zip", "zip", "zip"},
	{"zstd", "zstd", "zstd unzstd zstdcat"},
	{"file", "file", "file"},
	{"lsof", "lsof", "lsof"},
	{"strace", "strace", "strace"},
	{"socat", "socat", "socat"},
	{"rsync", "rsync", "rsync"},
	{"the OpenSSH client", "openssh-client", "ssh scp sftp ssh-keygen ssh-copy-id ssh-agent ssh-add"},
	{"GNU Octave", "octave", "octave octave-cli"},
	{"R", "r-base-core", "R Rscript"},
	{"Perl", "perl", "perl cpan"},
	{"Erlang", "erlang", "erl erlc escript"},
	{"Mercurial", "mercurial", "hg"},
	{"Subversion", "subversion", "svn svnadmin"},
	{"Asciidoctor", "asciidoctor", "asciidoctor"},
	{"xmlstarlet", "xmlstarlet", "xmlstarlet"},
	{"age", "age", "age age-keygen"},
	{"restic", "restic", "restic"},
	{"BorgBackup", "borgbackup", "borg"},
	{"FFmpeg", "ffmpeg", "ffmpeg ffprobe ffplay"},
	// commands whose Debian package has another name (bookworm's Contents-amd64 and
	// Contents-all, main; alternatives-managed names from the packages' postinst)
	{"Miller", "miller", "mlr"},
	{"bat", "bat", "batcat"},
	{"The Silver Searcher", "silversearcher-ag", "ag"},
	{"HTTPie", "httpie", "http https"},
	{"iproute2", "iproute2", "ip ss bridge"},
	{"ping", "iputils-ping", "ping"},
	{"the MariaDB client", "mariadb-client", "mysql mariadb mysqldump"},
	{"opus-tools", "opus-tools", "opusenc opusdec"},
	{"ExifTool", "libimage-exiftool-perl", "exiftool"},
	{"Tesseract", "tesseract-ocr", "tesseract"},
	{"pdftk", "pdftk-java", "pdftk"},
	{"MuPDF's tools", "mupdf-tools", "mutool"},
	{"the OpenSSH server", "openssh-server", "sshd"},
	{"cpanminus", "cpanminus", "cpanm"},
	{"GHC", "ghc", "ghc ghci runghc"},
	{"Cabal", "cabal-install", "cabal"},
	{"Stack", "haskell-stack", "stack"},
	{"OCaml", "ocaml", "ocaml ocamlc ocamlopt ocamlfind"},
	{"dune", "ocaml-dune", "dune"},
	{"Elixir", "elixir", "elixir iex mix"},
	{"Leiningen", "leiningen", "lein"},
	{"GNU Guile", "guile-3.0", "guile guild"},
	{"Free Pascal", "fp-compiler", "fpc"},
	{"GnuCOBOL", "gnucobol", "cobc cobcrun"},
	{"SWI-Prolog", "swi-prolog", "swipl"},
	{"Tk", "tk", "wish"},
	{"inotify-tools", "inotify-tools", "inotifywait inotifywatch"},
	{"XZ Utils", "xz-utils", "xz unxz xzcat"},
	{"Breezy", "brz", "brz bzr"},
	{"QEMU", "qemu-system-x86", "qemu-system-x86_64"},
	{"libvirt's client", "libvirt-clients", "virsh"},
	{"man", "man-db", "man"},
	{"Universal Ctags", "universal-ctags", "ctags"},
	{"Sphinx", "python3-sphinx", "sphinx-build sphinx-quickstart sphinx-apidoc"},
	{"pytest", "python3-pytest", "pytest pytest-3"},
	{"IPython", "ipython3", "ipython ipython3"},
	{"Jupyter", "jupyter-core", "jupyter"},
	{"Pygments", "python3-pygments", "pygmentize"},
	{"csvkit", "csvkit", "csvlook csvcut csvstat in2csv csvsql"},
	{"LaTeX", "texlive-latex-base", "pdflatex latex lualatex"},
	{"XeLaTeX", "texlive-xetex", "xelatex"},
	{"TeX Live's extra tools", "texlive-extra-utils", "pdfjam pdfcrop"},
	{"aria2", "aria2", "aria2c"},
	{"the Mosquitto clients", "mosquitto-clients", "mosquitto_pub mosquitto_sub"},
	{"PARI/GP", "pari-gp", "gp"},
	{"the CUPS client", "cups-client", "lp lpstat cancel"},
	{"lpr", "cups-bsd", "lpr lpq lprm"},
	{"the LDAP tools", "ldap-utils", "ldapsearch ldapadd ldapmodify"},
	{"ZBar", "zbar-tools", "zbarimg"},
	{"WebP", "webp", "cwebp dwebp"},
	{"librsvg", "librsvg2-bin", "rsvg-convert"},
	{"Asymptote", "asymptote", "asy"},
	{"GLPK", "glpk-utils", "glpsol"},
	{"Coq", "coq", "coqc coqtop"},
	{"TypeScript", "node-typescript", "tsc"},
	{"Less", "node-less", "lessc"},
	{"RSpec", "ruby-rspec-core", "rspec"},
	{"Rails", "ruby-railties", "rails"},
	{"Ansible", "ansible", "ansible ansible-playbook ansible-galaxy ansible-doc"},
}

func init() {
	for _, g := range debianGroups {
		cmds := strings.Fields(g.commands)
		if _, ok := knownTool(cmds[0]); ok {
			continue // the main table knows it already
		}
		tools = append(tools, tool{Name: g.name, Commands: cmds, Aliases: append([]string{strings.ToLower(g.pkg)}, cmds...), Debian: "sudo apt-get install -y " + g.pkg})
	}
}

// toolOf returns the tool that provides command, or a tool named after the command.
func toolOf(command string) tool {
	if t, ok := knownTool(command); ok {
		return t
	}
	return tool{Name: command, Commands: []string{command}, Aliases: []string{strings.ToLower(command)}}
}

// knownTool returns the tool of the table that provides command.
func knownTool(command string) (tool, bool) {
	for _, t := range tools {
		for _, c := range t.Commands {
			if c == command {
				return t, true
			}
		}
	}
	return tool{}, false
}

// isKnownTool: command is a command of a tool of the knowledge table.
func isKnownTool(command string) bool {
	_, ok := knownTool(command)
	return ok
}

// sameTool reports whether two commands come from one tool (npm and npx: Node.js).
func sameTool(a, b string) bool {
	return a == b || toolOf(a).Name == toolOf(b).Name
}

// otherOSPackageManagers are package managers of systems other than Debian: a command
// starting with one is for another system's reader.
var otherOSPackageManagers = map[string]string{
	"dnf": "Fedora/RHEL", "dnf5": "Fedora", "yum": "RHEL/CentOS/Amazon Linux", "yum-config-manager": "RHEL/CentOS",
	"zypper": "openSUSE/SUSE", "pacman": "Arch Linux", "yay": "Arch Linux", "apk": "Alpine Linux", "brew": "macOS (Homebrew)",
	"port": "macOS (MacPorts)", "winget": "Windows", "scoop": "Windows", "choco": "Windows", "pkg": "FreeBSD", "pkgin": "NetBSD",
	"pkg_add": "OpenBSD", "emerge": "Gentoo", "ego": "Funtoo", "xbps-install": "Void Linux", "nix-env": "Nix", "nix": "Nix",
	"flox": "Flox", "kiss": "KISS Linux", "snap": "Snap", "rpm": "RPM-based systems", "softwareupdate": "macOS",
	"eopkg": "Solus", "urpmi": "Mageia", "slackpkg": "Slackware", "termux-setup-storage": "Android (Termux)",
}

// Operating systems and distributions other than Debian, as headings and tab labels name them.
var reOtherOS = regexp.MustCompile(`(?i)\b(windows|win(?:32|64)|macos|mac os|os x|osx|mac\b|homebrew|macports|winget|scoop|chocolatey|powershell|fedora|centos|red ?hat|rhel|amazon linux|opensuse|suse|arch linux|manjaro|android|termux|freebsd|netbsd|openbsd|pkgsrc|funtoo|gentoo|kiss linux|nix(?:os)?\b|flox|alpine|void linux|snap\b|solus|mageia|slackware|clear linux|chromeos|ios\b|zsh|fish|elvish|nushell|tcsh|cmd\.exe)`)

// The Debian reader's own system, as headings and tab labels name it.
var reLinux = regexp.MustCompile(`(?i)\b(linux|debian|ubuntu|raspberry pi os|unix|posix|gnu|wsl|apt)\b`)

// Shells and languages never run on Linux.
var windowsLangs = map[string]bool{"powershell": true, "ps1": true, "ps": true, "pwsh": true, "pwsh-session": true, "ps1con": true,
	"posh": true, "cmd": true, "bat": true, "batch": true, "doscon": true, "dos": true, "winbatch": true}

// Placeholders: values the reader substitutes (path/to, <your-name>, YOUR_TOKEN, example.com,
// DEPLOY_PASSWORD=...).
var rePlaceholder = regexp.MustCompile(`(?i)(/path/to\b|\bpath/to/|<[a-z][\w .-]*>|\byour[_-][a-z][\w-]*|\bYOUR_[A-Z_]+|\bexample\.(?:com|org|net)\b|\{\{\s*[\w.]+\s*\}\}|\$\{?[A-Z_]*PLACEHOLDER|\bxxx+\b|\b[A-Z][A-Z0-9_]*=(?:\.\.\.|…)(?:\s|$))`)

// networkTools contact the host they are given: an example.com host there is a value
// the reader must replace; elsewhere (an e-mail label, a comment) it works as written.
var networkTools = map[string]bool{"curl": true, "wget": true, "ssh": true, "scp": true, "sftp": true, "ssh-copy-id": true, "rsync": true,
	"git": true, "ping": true, "nc": true, "telnet": true, "dig": true, "nslookup": true, "host": true, "http": true, "docker": true, "psql": true, "mysql": true}

// htmlTags are elements a command may write into a page, never placeholders.
var htmlTags = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range strings.Fields("html head body title meta link script style h1 h2 h3 h4 h5 h6 p div span a b i em strong ul ol li br hr pre code table tr td th img form input button label section article header footer nav main") {
		m[t] = true
	}
	return m
}()

// placeholder is the placeholder in cmd that the reader must substitute, "" when none.
// A here-document's text is what goes into a file (`<title>` in an HTML page), not a
// value to substitute.
func placeholder(cmd string) string {
	cmd = withoutHeredocText(cmd)
	for _, m := range rePlaceholder.FindAllStringIndex(cmd, -1) {
		p := cmd[m[0]:m[1]]
		if strings.HasPrefix(p, "<") && (htmlTags[strings.ToLower(strings.Trim(p, "<>"))] && (inSingleQuotes(cmd, m[0]) || strings.Count(cmd[:m[0]], `"`)%2 == 1) || strings.Contains(cmd, "</"+strings.Trim(p, "<>")+">")) {
			// markup the command writes (`echo '<h1>Hi</h1>' > index.html`); a tag's name
			// bare on the command line is a value to put there (`-b lang=<code>`)
			continue
		}
		if strings.HasPrefix(p, "<") && !strings.Contains(p, " ") && inSingleQuotes(cmd, m[0]) && markupSearch(cmd) {
			continue // an element searched for in a markup file (`grep -c '<Placemark>' x.kml`)
		}
		if strings.HasPrefix(strings.ToLower(p), "example.") {
			start := strings.LastIndexAny(cmd[:m[0]], " \t'\"") + 1
			if f := strings.Fields(cmd); !strings.Contains(cmd[start:m[0]], "://") && (!networkTools[firstWord(cmd)] || len(f) > 1 && f[1] == "config") {
				continue // "you@example.com" as a label works as written (`git config user.email …` too)
			}
		}
		return p
	}
	return ""
}

// reMarkupFile: an argument naming a file of XML or HTML markup.
var reMarkupFile = regexp.MustCompile(`\S\.(?:xml|html?|xhtml|svg|gpx|kml|rss|atom|xsd|xslt?|plist|pom|csproj|xaml|tcx)(?:\s|$|[;|&)])`)

// markupSearch: a text search (grep, sed, awk…) in a markup file, where `<name>` is an
// element, not a placeholder.
func markupSearch(cmd string) bool {
	w := firstWord(cmd)
	return (textPrinters[w] || w == "rg" || w == "xmllint") && reMarkupFile.MatchString(cmd)
}

// withoutHeredocText is cmd without the text of its here-documents.
func withoutHeredocText(cmd string) string {
	if !strings.Contains(cmd, "<<") {
		return cmd
	}
	var keep []string
	end := ""
	for _, l := range strings.Split(cmd, "\n") {
		if end != "" {
			if strings.TrimSpace(l) == end {
				end = ""
				keep = append(keep, l)
			}
			continue
		}
		keep = append(keep, l)
		if m := reHeredoc.FindStringSubmatch(l); m != nil {
			end = m[1]
		}
	}
	return strings.Join(keep, "\n")
}

// Interactive programs: editors and pagers that wait for a person.
var interactive = map[string]string{"vim": "an editor", "vi": "an editor", "nano": "an editor", "emacs": "an editor", "code": "an editor (VS Code)",
	"subl": "an editor", "gedit": "an editor", "top": "a full-screen monitor", "htop": "a full-screen monitor"}

// GUI openers.
var guiOpeners = map[string]bool{"xdg-open": true, "open": true, "start": true, "gio": true, "sensible-browser": true, "firefox": true, "google-chrome": true}

// Commands a Student may run even in an untagged block: common shell commands and the
// commands of the tools table.
var knownCommands = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(`cd ls mkdir rm cp mv cat echo export source touch chmod chown ln pwd sudo apt apt-get
		curl wget git tar unzip grep sed awk sh bash env which type printf test install systemctl service
		pip pip3 python python3 node npm npx yarn pnpm go cargo rustc rustup deno bun docker kubectl minikube helm k6
		make gcc java javac mvn gradle ruby gem bundle php composer dotnet terraform gh nvm uv uvx pipx redis-cli
		redis-server psql sqlite3 hugo zola jq openssl ssh scp tee head tail less more diff
		perl lua lua5.4 tclsh php Rscript ghc runghc ocaml guile gawk g++ cc clang cmake ninja pytest
		sort uniq wc cut tr find xargs du df ps kill date seq file stat basename dirname sleep
		gzip gunzip zip xz bzip2 zstd whoami id hostname uname man`) {
		m[c] = true
	}
	return m
}()

// firstWord is the program a command line runs: after sudo, env assignments and
// command prefixes.
func firstWord(cmd string) string {
	fields := strings.Fields(cmd)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case f == "sudo" || f == "env" || f == "time" || f == "exec" || f == "nohup" || f == "command" || f == "!":
			continue
		case strings.HasPrefix(f, "-") && i > 0 && (fields[i-1] == "sudo" || fields[i-1] == "env"):
			continue
		case strings.Contains(f, "=") && !strings.HasPrefix(f, "="):
			continue
		}
		return strings.Trim(f, "(){};")
	}
	return ""
}
