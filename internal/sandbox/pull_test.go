package sandbox

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLocalOnly(t *testing.T) {
	for img, want := range map[string]bool{
		"smile-lite":                          true,
		"smile-lite:latest":                   true,
		"docker.io/library/smile-lite:1":      true,
		"127.0.0.1:5000/smile-lite:latest":    false, // on a registry: pulled
		"ghcr.io/smile-loop/smile-base:1.0.0": false,
		"smile-base:latest":                   false,
	} {
		assert.Equal(t, want, localOnly(img), img)
	}
}

// The engine's pull stream (POST /images/create), as dockerd writes it: a line per
// layer event, progress details while downloading, an error object when the registry
// refuses midway (moby/moby pkg/jsonmessage).
func TestFollowPull(t *testing.T) {
	stream := `{"status":"Pulling from smile/lite","id":"e2e"}
{"status":"Pulling fs layer","progressDetail":{},"id":"a1"}
{"status":"Pulling fs layer","progressDetail":{},"id":"b2"}
{"status":"Downloading","progressDetail":{"current":1048576,"total":4194304},"progress":"[=>  ]","id":"a1"}
{"status":"Download complete","progressDetail":{},"id":"a1"}
{"status":"Pull complete","progressDetail":{},"id":"a1"}
{"status":"Already exists","progressDetail":{},"id":"b2"}
{"status":"Digest: sha256:0123"}
{"status":"Status: Downloaded newer image for 127.0.0.1:5000/smile/lite:e2e"}
`
	var lines []string
	require.NoError(t, followPull(strings.NewReader(stream), "x", func(s string) { lines = append(lines, s) }))

	bad := `{"status":"Pulling fs layer","progressDetail":{},"id":"a1"}
{"errorDetail":{"message":"unauthorized: authentication required"},"error":"unauthorized: authentication required"}
`
	err := followPull(strings.NewReader(bad), "x", func(string) {})
	require.EqualError(t, err, "unauthorized: authentication required")

	err = followPull(strings.NewReader(`{"status":`), "x", func(string) {})
	require.ErrorContains(t, err, "read the pull progress")
}

func TestPullErrorFix(t *testing.T) {
	for _, tt := range []struct{ answer, fix string }{
		{"Head \"http://127.0.0.1:5000/v2/private/lite/manifests/e2e\": unauthorized: authentication required", "docker login 127.0.0.1:5000"},
		{"pull access denied for smile-base, repository does not exist or may require 'docker login'", "docker login docker.io"},
		{"manifest for ghcr.io/smile-loop/smile-base:9.9.9 not found: manifest unknown: manifest unknown", "no such image or tag"},
		{"Get \"https://ghcr.io/v2/\": dial tcp: lookup ghcr.io: no such host", "reaches ghcr.io"},
	} {
		img := "ghcr.io/smile-loop/smile-base:9.9.9"
		if strings.Contains(tt.answer, "127.0.0.1") {
			img = "127.0.0.1:5000/private/lite:e2e"
		} else if strings.Contains(tt.answer, "pull access denied") {
			img = "smile-base:latest"
		}
		err := &PullError{Image: img, Err: errors.New(tt.answer)}
		assert.Contains(t, err.Error(), "image "+img+" is not on this machine and pulling it failed: "+tt.answer, "names the image and the registry's answer")
		assert.Contains(t, err.Error(), tt.fix)
		assert.True(t, err.EnvironmentUnavailable())
	}
}
