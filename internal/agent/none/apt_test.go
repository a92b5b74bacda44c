package none

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestReadApt(t *testing.T) {
	for _, c := range []struct {
		command  string
		packages []string
		install  bool // aptInstall's ok
		upgrade  bool // isPackageInstall
		apt      bool // isAptStep
	}{
		{"sudo apt install -y gforth", []string{"gforth"}, true, true, true},
		{"sudo apt-get update && sudo apt-get install -y --no-install-recommends \\\n  gcc make # the toolchain", []string{"gcc", "make"}, true, true, true},
		{"sudo apt install qtbase5-dev && qmake --version", []string{"qtbase5-dev"}, true, true, true},
		{"sudo apt install gforth=0.7.3+dfsg-9+b3 ./local.deb", []string{"gforth", "./local.deb"}, true, true, true},
		{"(cd /tmp; sudo aptitude reinstall tar)", []string{"tar"}, true, true, true},
		{"Run `sudo apt install sbcl` first.", []string{"sbcl"}, true, true, true},
		{"sudo apt update", nil, false, false, true},
		{"sudo apt-get -y full-upgrade", nil, false, true, true},
		{"sudo apt-get build-dep gst", nil, false, true, true},
		{"pip install apt", nil, false, false, false},
		{"cat /etc/apt/sources.list", nil, false, false, false},
		{"snap install hugo", nil, false, false, false},
	} {
		pkgs, ok := aptInstall(c.command)
		assert.Equal(t, c.install, ok, c.command)
		assert.Equal(t, c.packages, pkgs, c.command)
		assert.Equal(t, c.upgrade, isPackageInstall(c.command), c.command)
		assert.Equal(t, c.apt, isAptStep(c.command), c.command)
	}
}
