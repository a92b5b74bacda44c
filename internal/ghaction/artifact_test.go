package ghaction_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
)

// writeLarge writes a file of n bytes of log-like lines.
func writeLarge(t *testing.T, path string, n int) {
	t.Helper()
	line := "2026-02-02T10:00:00Z build step output line with some text\n"
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat(line, n/len(line))), 0o600))
}

// The zip is written to a temporary file and streamed to the blob PUT with its
// Content-Length: uploading a 48 MiB audit log allocates far less than the file (the
// zip was built in a bytes.Buffer before), and the temporary zip is removed.
func TestArtifactUploadIsStreamed(t *testing.T) {
	arts := ghactiontest.NewArtifacts(t)
	dir, tmp := t.TempDir(), t.TempDir()
	big := filepath.Join(dir, "smile-audit.log")
	writeLarge(t, big, 48<<20)
	small := filepath.Join(dir, "smile-report.md")
	require.NoError(t, os.WriteFile(small, []byte("# report\n"), 0o600))
	up := &ghaction.Artifacts{ResultsURL: arts.URL(), Token: arts.Token, TempDir: tmp}

	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	id, err := up.Upload(context.Background(), "smile-report", []ghaction.ArtifactFile{{Name: "smile-audit.log", Path: big}, {Name: "smile-report.md", Path: small}}, 0)
	runtime.ReadMemStats(&m1)
	require.NoError(t, err)
	assert.NotZero(t, id)
	// The fake blob store holds the compressed zip in memory; the client side holds none
	// of the 48 MiB: what was allocated stays well below the file's size.
	alloc := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("uploading a 48 MiB file allocated %d MiB (client and fake together)", alloc>>20)
	assert.Less(t, alloc, uint64(48<<20)/2)
	files := arts.Files(t, "smile-report")
	assert.Equal(t, "# report\n", files["smile-report.md"])
	fi, err := os.Stat(big)
	require.NoError(t, err)
	assert.Equal(t, int(fi.Size()), len(files["smile-audit.log"]), "the whole file is in the artifact")
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "the temporary zip is removed")
}

// Files over the artifact quota: nothing is created or uploaded, and the error says
// which file crossed the quota and that the files stay in the workspace.
func TestArtifactQuota(t *testing.T) {
	t.Parallel()
	arts := ghactiontest.NewArtifacts(t)
	dir, tmp := t.TempDir(), t.TempDir()
	a, b := filepath.Join(dir, "smile-report.json"), filepath.Join(dir, "smile-audit.log")
	writeLarge(t, a, 600<<10)
	writeLarge(t, b, 600<<10)
	up := &ghaction.Artifacts{ResultsURL: arts.URL(), Token: arts.Token, TempDir: tmp, MaxBytes: 1 << 20}
	_, err := up.Upload(context.Background(), "smile-report", []ghaction.ArtifactFile{{Name: "smile-report.json", Path: a}, {Name: "smile-audit.log", Path: b}}, 0)
	var qe *ghaction.ArtifactQuotaError
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, "artifact smile-report: its files hold more than 1 MiB, the artifact quota (smile-audit.log crossed it), so it was not uploaded; the report files stay in the workspace", err.Error())
	assert.Zero(t, arts.Puts, "nothing uploaded")
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "the partial zip is removed")

	// Under the quota the same files upload.
	up.MaxBytes = 2 << 20
	_, err = up.Upload(context.Background(), "smile-report", []ghaction.ArtifactFile{{Name: "smile-report.json", Path: a}, {Name: "smile-audit.log", Path: b}}, 0)
	require.NoError(t, err)
	assert.Equal(t, 1, arts.Puts)
}
