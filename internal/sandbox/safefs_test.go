package sandbox

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tarOf(t *testing.T, entries ...tar.Header) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range entries {
		body := []byte("ATTACKER-BYTES")
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(body))
		}
		require.NoError(t, tw.WriteHeader(&h))
		if h.Typeflag == tar.TypeReg {
			_, err := tw.Write(body)
			require.NoError(t, err)
		}
	}
	require.NoError(t, tw.Close())
	return &buf
}

// Copy mode: a link in the copied tree is not created, a link left in dst by an earlier
// copy is replaced rather than written through, and ../ entries are refused.
func TestUntarNeverFollowsOrCreatesLinks(t *testing.T) {
	t.Parallel()
	victim := filepath.Join(t.TempDir(), "victim")
	require.NoError(t, os.WriteFile(victim, []byte("original"), 0o644))
	dst := t.TempDir()
	require.NoError(t, os.Symlink(victim, filepath.Join(dst, "planted")))
	require.NoError(t, os.Symlink(filepath.Dir(victim), filepath.Join(dst, "dirlink")))

	err := untar(tarOf(t,
		tar.Header{Name: "work/", Typeflag: tar.TypeDir, Mode: 0o755},
		tar.Header{Name: "work/link", Typeflag: tar.TypeSymlink, Linkname: victim},
		tar.Header{Name: "work/planted", Typeflag: tar.TypeReg, Mode: 0o644},
		tar.Header{Name: "work/link", Typeflag: tar.TypeReg, Mode: 0o644},
	), dst)
	require.NoError(t, err)
	got, _ := os.ReadFile(victim)
	assert.Equal(t, "original", string(got), "no write through a link")
	fi, err := os.Lstat(filepath.Join(dst, "planted"))
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular(), "the planted link was replaced by the file")

	err = untar(tarOf(t, tar.Header{Name: "work/dirlink/victim", Typeflag: tar.TypeReg, Mode: 0o644}), dst)
	require.Error(t, err, "a linked parent directory is refused")
	got, _ = os.ReadFile(victim)
	assert.Equal(t, "original", string(got))

	err = untar(tarOf(t, tar.Header{Name: "work/../../escape", Typeflag: tar.TypeReg, Mode: 0o644}), dst)
	require.ErrorContains(t, err, "outside")
}

func TestOpenNoLinksRefusesLinks(t *testing.T) {
	t.Parallel()
	victim := filepath.Join(t.TempDir(), "victim")
	require.NoError(t, os.WriteFile(victim, []byte("original"), 0o644))
	logs := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(logs, "commands"), 0o755))
	require.NoError(t, os.Symlink(victim, filepath.Join(logs, "commands", "run-0001.log")))
	_, err := openNoLinks(logs, filepath.Join("commands", "run-0001.log"))
	require.ErrorIs(t, err, errLink)

	other := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Dir(victim), filepath.Join(other, "commands")))
	_, err = openNoLinks(other, filepath.Join("commands", "victim"))
	require.ErrorIs(t, err, errLink)
	got, _ := os.ReadFile(victim)
	assert.Equal(t, "original", string(got))

	f, err := openNoLinks(t.TempDir(), filepath.Join("commands", "run-0002.log"))
	require.NoError(t, err, "a plain path is created")
	require.NoError(t, f.Close())
}

func TestDropLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "f"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, "a", "l")))
	require.NoError(t, os.Symlink("/etc", filepath.Join(dir, "d")))
	n, err := dropLinks(dir)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	_, err = os.Lstat(filepath.Join(dir, "a", "f"))
	assert.NoError(t, err, "regular files stay")
}

// The run's quota bounds all command logs together, with a message naming it.
func TestLogWriterQuota(t *testing.T) {
	t.Parallel()
	var quota atomic.Int64
	quota.Store(10)
	var a, b bytes.Buffer
	wa := &logWriter{f: &a, limit: 100, quota: &quota, quotaSize: 10 << 20}
	wb := &logWriter{f: &b, limit: 100, quota: &quota, quotaSize: 10 << 20}
	_, _ = wa.Write([]byte("123456"))
	_, _ = wb.Write([]byte("abcdefgh"))
	_, _ = wb.Write([]byte("more"))
	assert.Equal(t, "123456", a.String())
	assert.Equal(t, "abcd\n[smile-loop: this run's output quota of 10 MiB is used up; the rest of this command's output is not saved]\n", b.String())
	_, _ = wa.Write([]byte("x"))
	assert.Contains(t, a.String(), "quota of 10 MiB is used up")
}
