package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pull request's smile.json cannot send the key elsewhere, choose replay, lift limits,
// keep containers or lower the threshold; a trusted-config file can set them.
func TestActionConfigFromCheckoutIsUntrusted(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	scenario := filepath.Join(ws, "pass.json")
	require.NoError(t, os.WriteFile(scenario, []byte(`{}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "smile.json"), []byte(`{
  "llmProvider": "replay", "scenario": "`+scenario+`", "failOn": "never",
  "llm": {"baseURL": "http://127.0.0.1:9/steal"},
  "container": {"memory": "64g", "keepOnFailure": true, "keepOnSuccess": true},
  "stallThreshold": 5
}`), 0o644))
	var notices []string
	notice := func(f string, a ...any) { notices = append(notices, fmt.Sprintf(f, a...)) }

	cfg, _, err := actionConfig(ws, "", "", notice)
	require.NoError(t, err)
	assert.Equal(t, "claude", cfg.LLMProvider)
	assert.Empty(t, cfg.LLM.BaseURL)
	assert.Empty(t, cfg.Scenario)
	assert.Equal(t, "high", cfg.FailOn)
	assert.Equal(t, "2g", cfg.Container.Memory)
	assert.False(t, cfg.Container.KeepOnFailure || cfg.Container.KeepOnSuccess, "Action mode keeps no container")
	assert.Equal(t, 5, cfg.StallThreshold, "harmless settings still apply")
	require.Len(t, notices, 1)
	for _, f := range []string{"llmProvider", "llm.baseURL", "scenario", "container.memory", "container.keepOnSuccess", "failOn", "trusted-config", "#trust-model"} {
		assert.Contains(t, notices[0], f)
	}
	assert.NotContains(t, notices[0], "keepOnFailure", "the file's keepOnFailure equals the default: nothing ignored")

	// The workflow vouches for a file outside the checkout: its settings apply.
	trusted := filepath.Join(t.TempDir(), "base.json")
	require.NoError(t, os.WriteFile(trusted, []byte(`{"llmProvider":"none","failOn":"low","container":{"memory":"1g"}}`), 0o644))
	notices = nil
	cfg, base, err := actionConfig(ws, "", trusted, notice)
	require.NoError(t, err)
	assert.Equal(t, trusted, base)
	assert.Equal(t, "none", cfg.LLMProvider)
	assert.Equal(t, "low", cfg.FailOn)
	assert.Equal(t, "1g", cfg.Container.Memory)
	assert.Empty(t, cfg.LLM.BaseURL)
	require.Len(t, notices, 1)

	// The same file named as both: trusted, no notice.
	notices = nil
	cfg, _, err = actionConfig(ws, "smile.json", filepath.Join(ws, "smile.json"), notice)
	require.NoError(t, err)
	assert.Equal(t, "replay", cfg.LLMProvider)
	assert.Empty(t, notices)
	assert.False(t, cfg.Container.KeepOnFailure)
}

func TestInsideRepoRefusesLinks(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	outside := filepath.Join(t.TempDir(), "event.json")
	require.NoError(t, os.WriteFile(outside, []byte("{}"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "docs", "real"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "docs", "real", "ok.md"), []byte("# ok\n"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "docs", "evil.md")))
	require.NoError(t, os.Symlink(filepath.Dir(outside), filepath.Join(ws, "docs", "linkdir")))
	require.NoError(t, os.Symlink("real/ok.md", filepath.Join(ws, "docs", "inner.md")))

	assert.NoError(t, insideRepo(ws, "docs/real/ok.md"))
	for _, rel := range []string{"docs/evil.md", "docs/linkdir/event.json", "docs/inner.md"} {
		err := insideRepo(ws, rel)
		require.Error(t, err, rel)
		assert.Contains(t, err.Error(), "symbolic link", rel)
	}
	assert.Error(t, insideRepo(ws, "../"+filepath.Base(ws)+"/docs/real/ok.md"), "no way out by ..")
	assert.Error(t, insideRepo(ws, "docs/real"), "a directory is not a tutorial")
}
