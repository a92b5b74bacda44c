package none

import (
	"regexp"
	"strings"
)

// One reading of Debian's package manager in a command, for the step timeouts, the
// diagnoses and the prerequisites alike.

// reAptStep: apt, apt-get or aptitude at the start of a command (after sudo, a shell
// operator, a parenthesis or a backquote), its options, the subcommand and its arguments up to the
// next shell operator.
var reAptStep = regexp.MustCompile(`(?:^|[\s;&|(\x60])(?:apt|apt-get|aptitude)[ \t]+((?:-\S+[ \t]+)*)(install|reinstall|upgrade|full-upgrade|dist-upgrade|build-dep|update)\b([^;&|\n)\x60]*)`)

// aptStep is one apt command: its subcommand and the packages it names.
type aptStep struct {
	sub      string
	packages []string
}

// readApt reads the apt commands in command, in order; continued lines (`\` at the
// end) are one line, as the shell reads them.
func readApt(command string) []aptStep {
	var out []aptStep
	for _, m := range reAptStep.FindAllStringSubmatch(strings.ReplaceAll(command, "\\\n", " "), -1) {
		a := aptStep{sub: m[2]}
		for _, p := range strings.Fields(m[3]) {
			if strings.HasPrefix(p, "#") {
				break // a comment to the end of the line
			}
			if strings.HasPrefix(p, "-") {
				continue
			}
			if i := strings.IndexByte(p, '='); i > 0 && !strings.Contains(p, "/") {
				p = p[:i] // `gforth=0.7.3*`: the package, at a version
			}
			a.packages = append(a.packages, p)
		}
		out = append(out, a)
	}
	return out
}

// aptInstall: the packages the `apt install` steps in command name; ok only when there is
// one.
func aptInstall(command string) (packages []string, ok bool) {
	for _, a := range readApt(command) {
		if a.sub == "install" || a.sub == "reinstall" {
			packages, ok = append(packages, a.packages...), true
		}
	}
	return packages, ok
}

// isPackageInstall: a command that installs or upgrades Debian packages, which takes
// longer than any other step (installFactor).
func isPackageInstall(command string) bool {
	for _, a := range readApt(command) {
		if a.sub != "update" {
			return true
		}
	}
	return false
}

// isAptStep: any apt command that reaches the mirror, `apt update` included.
func isAptStep(command string) bool {
	return len(readApt(command)) > 0
}
