package none

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// groff-base (what man-db pulls in) has no PDF, HTML or DVI device: groff 1.22.4 says
// so in these words, and the device it lacks is named in the fix.
func TestGroffDeviceMissing(t *testing.T) {
	t.Parallel()
	out := "groff: can't find 'DESC' file\ngroff: fatal error: invalid device 'pdf'\nman: command exited with status 3: (cd /home/learner && /usr/lib/man-db/zsoelim) | …"
	m := reGroffDevice.FindStringSubmatch(out)
	require.NotNil(t, m)
	assert.Equal(t, "pdf", m[1])
	assert.False(t, reGroffDevice.MatchString("troff: fatal error: can't find macro file m"), "a missing macro package is another story")
}
