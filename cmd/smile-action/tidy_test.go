package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestActionLearnerImage(t *testing.T) {
	dir := t.TempDir()
	withImage := filepath.Join(dir, "with.json")
	require.NoError(t, os.WriteFile(withImage, []byte(`{"containerImage":"smile-base:latest"}`), 0o644))
	without := filepath.Join(dir, "without.json")
	require.NoError(t, os.WriteFile(without, []byte(`{"llmProvider":"none"}`), 0o644))

	old := version
	t.Cleanup(func() { version = old })
	version = "v1.2.3"
	assert.Equal(t, "example.org/mine:2", actionLearnerImage("example.org/mine:2", "smile-base:latest", withImage), "the input wins")
	assert.Equal(t, "smile-base:latest", actionLearnerImage("", "smile-base:latest", withImage), "smile.json names it")
	assert.Equal(t, "ghcr.io/smile-loop/smile-base:1.2.3", actionLearnerImage("", "smile-base:latest", without), "the image of this release")
	assert.Equal(t, "ghcr.io/smile-loop/smile-base:1.2.3", actionLearnerImage("", "smile-base:latest", ""), "no smile.json")
	version = "dev+0123456789ab"
	assert.Equal(t, "smile-base:latest", actionLearnerImage("", "smile-base:latest", without), "a development build has no published image")
}

func TestTidyAction(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("handing files over to another user needs root, as in the Action container")
	}
	ws := t.TempDir()
	out := filepath.Join(ws, "smile-output")
	require.NoError(t, os.MkdirAll(filepath.Join(out, "docs-a"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(out, "docs-a", "smile-report.json"), []byte("{}"), 0o600))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(out, "docs-a", "link")))
	require.NoError(t, os.Chown(ws, 1001, 127))
	scratch := filepath.Join(t.TempDir(), "smile-loop")
	require.NoError(t, os.MkdirAll(filepath.Join(scratch, "docs-a", "work"), 0o777))

	e := &env{getenv: func(string) string { return "" }, log: slog.New(slog.DiscardHandler)}
	tidyAction(e, ws, out, scratch)
	assert.NoDirExists(t, scratch)
	for _, p := range []string{out, filepath.Join(out, "docs-a"), filepath.Join(out, "docs-a", "smile-report.json"), filepath.Join(out, "docs-a", "link")} {
		fi, err := os.Lstat(p)
		require.NoError(t, err)
		st := fi.Sys().(*syscall.Stat_t)
		assert.Equal(t, [2]uint32{1001, 127}, [2]uint32{st.Uid, st.Gid}, p)
	}
	fi, err := os.Stat("/etc/passwd")
	require.NoError(t, err)
	assert.Zero(t, fi.Sys().(*syscall.Stat_t).Uid, "a link is changed, not followed")
}

func TestActionScratch(t *testing.T) {
	assert.Empty(t, actionScratch(func(string) string { return "" }))
	assert.Equal(t, "/github/runner_temp/smile-loop", actionScratch(func(k string) string {
		if k == "RUNNER_TEMP" {
			return "/github/runner_temp"
		}
		return ""
	}))
}
