package main

import (
	"bytes"
	"context"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolveVersion(t *testing.T) {
	info := func(main string, settings ...string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/smile-loop/smile-loop", Version: main}}
			for i := 0; i+1 < len(settings); i += 2 {
				bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
			}
			return bi, true
		}
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	tests := []struct {
		name, set string
		info      func() (*debug.BuildInfo, bool)
		want      string
	}{
		{"set by ldflags", "v1.2.3", info("(devel)"), "v1.2.3"},
		{"go install at a tag", "dev", info("v1.4.0"), "v1.4.0"},
		{"git checkout", "dev", info("v0.0.0-20261123183000-0123456789ab", "vcs.revision", "0123456789abcdef0123", "vcs.modified", "false"), "dev+0123456789ab"},
		{"dirty checkout", "dev", info("v0.0.0-20261123183000-0123456789ab+dirty", "vcs.revision", "0123456789abcdef0123", "vcs.modified", "true"), "dev+0123456789ab-dirty"},
		{"no vcs", "dev", info("(devel)"), "dev"},
		{"no build info", "dev", none, "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, resolveVersion(tt.set, tt.info))
		})
	}
}

func TestPublishedLearnerImage(t *testing.T) {
	assert.Equal(t, "ghcr.io/smile-loop/smile-base:1.2.3", publishedLearnerImage("v1.2.3"))
	assert.Equal(t, "ghcr.io/smile-loop/smile-base:2.0.0-rc.1", publishedLearnerImage("v2.0.0-rc.1"))
	for _, dev := range []string{"dev", "dev+0123456789ab", "v0.0.0-20261123183000-0123456789ab", ""} {
		assert.Empty(t, publishedLearnerImage(dev), "a development build has no published image: %s", dev)
	}
}

func TestVersionCommand(t *testing.T) {
	var out bytes.Buffer
	e := &env{getenv: func(string) string { return "" }, stdout: &out, stderr: &out}
	require.NoError(t, cmdVersion(context.Background(), e, nil))
	assert.Equal(t, "smile-action "+version+"\n", out.String())
}
