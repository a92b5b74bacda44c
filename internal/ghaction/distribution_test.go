package ghaction_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// actionImageRef is what action.yml runs: the prebuilt image of one release, pulled by
// the runner (never a Dockerfile built in every job).
var actionImageRef = regexp.MustCompile(`^docker://ghcr\.io/([a-z0-9][a-z0-9-]*)/smile-action:(\d+\.\d+\.\d+)$`)

func TestActionRunsPrebuiltImage(t *testing.T) {
	t.Parallel()
	a := readAction(t)
	assert.Equal(t, "docker", a.Runs.Using)
	assert.Regexp(t, actionImageRef, a.Runs.Image, "runs.image names the published image of this version (lowercase owner: GHCR refuses upper case)")
	assert.Empty(t, a.Runs.Entrypoint, "the image's ENTRYPOINT runs Action mode")
	assert.Empty(t, a.Runs.Args, "Action mode reads INPUT_* variables, not arguments")
}

// instructions returns the Dockerfile's instructions, continuation lines joined.
func instructions(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "Dockerfile"))
	require.NoError(t, err)
	var out []string
	cont := ""
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasSuffix(l, `\`) {
			cont += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		out = append(out, cont+l)
		cont = ""
	}
	return out
}

// The Action image needs no base image and runs nothing at build time: a static binary
// compiled beforehand on FROM scratch, with the files scripts/action-context.sh stages.
func TestDockerfile(t *testing.T) {
	t.Parallel()
	var from, copies []string
	var entry, user string
	args := map[string]bool{}
	for _, l := range instructions(t) {
		f := strings.Fields(l)
		switch strings.ToUpper(f[0]) {
		case "FROM":
			from = append(from, strings.Join(f[1:], " "))
		case "ARG":
			args[f[1]] = true
		case "COPY":
			copies = append(copies, strings.Join(f[1:], " "))
		case "ENTRYPOINT":
			m := regexp.MustCompile(`^ENTRYPOINT \["([^"]+)"\]$`).FindStringSubmatch(l)
			require.NotNil(t, m, "exec-form ENTRYPOINT without arguments (Action mode needs no subcommand): %s", l)
			entry = m[1]
		case "USER":
			user = f[1]
		case "RUN", "ADD":
			t.Errorf("%s: the image is assembled from staged files only (no RUN, no download)", l)
		}
	}
	assert.Equal(t, []string{"scratch"}, from, "one stage, no base image")
	assert.True(t, args["TARGETARCH"], "one binary per architecture, chosen by TARGETARCH")
	require.Equal(t, []string{"rootfs/ /", "${TARGETARCH}/smile-action " + entry}, copies)
	assert.Contains(t, []string{"0", "0:0", "root"}, user, "root: the runner's Docker socket and workspace need it")

	// The staged context holds exactly what those COPYs name.
	certs := filepath.Join(t.TempDir(), "ca.crt")
	require.NoError(t, os.WriteFile(certs, []byte("-----BEGIN CERTIFICATE-----\n"), 0o644))
	bin := filepath.Join(t.TempDir(), "smile-action")
	require.NoError(t, os.WriteFile(bin, []byte("\x7fELF"), 0o644))
	ctx := filepath.Join(t.TempDir(), "ctx")
	cmd := exec.Command("bash", filepath.Join(repoRoot, "scripts", "action-context.sh"), ctx, "amd64="+bin, "arm64="+bin)
	cmd.Env = append(os.Environ(), "CA_CERTIFICATES="+certs)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	for _, f := range []string{"rootfs/etc/ssl/certs/ca-certificates.crt", "rootfs/etc/passwd", "rootfs/etc/group", "amd64/smile-action", "arm64/smile-action"} {
		assert.FileExists(t, filepath.Join(ctx, f))
	}
	fi, err := os.Stat(filepath.Join(ctx, "amd64", "smile-action"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), fi.Mode().Perm(), "the entrypoint is executable")
	fi, err = os.Stat(filepath.Join(ctx, "rootfs", "tmp"))
	require.NoError(t, err)
	assert.Equal(t, os.ModeSticky|0o777, fi.Mode()&(os.ModeSticky|os.ModePerm), "/tmp as on any Linux system")
	passwd, err := os.ReadFile(filepath.Join(ctx, "rootfs", "etc", "passwd"))
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^root:x:0:0:`, string(passwd))

	// A missing binary is a clear error, not an image without an entrypoint.
	cmd = exec.Command("bash", filepath.Join(repoRoot, "scripts", "action-context.sh"), ctx, "amd64="+bin+".missing")
	cmd.Env = append(os.Environ(), "CA_CERTIFICATES="+certs)
	out, err = cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "make build")
}
