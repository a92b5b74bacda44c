package sandbox

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/registry"
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
		"smile-base:latest":                   true,
		"smile-base":                          true,
		"smile-lite-extra:1":                  false,
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
	old := pullEvery
	pullEvery = 0 // every event reports
	t.Cleanup(func() { pullEvery = old })
	var lines []string
	require.NoError(t, followPull(strings.NewReader(stream), "x", func(s string) { lines = append(lines, s) }))
	assert.Equal(t, []string{
		"pulling x: 0/1 layers",
		"pulling x: 0/2 layers",
		"pulling x: 0/2 layers, 1.049MB of 4.194MB downloaded",
		"pulling x: 0/2 layers, 4.194MB of 4.194MB downloaded",
		"pulling x: 1/2 layers, 4.194MB of 4.194MB downloaded",
		"pulling x: 2/2 layers, 4.194MB of 4.194MB downloaded",
	}, lines)

	bad := `{"status":"Pulling fs layer","progressDetail":{},"id":"a1"}
{"errorDetail":{"message":"unauthorized: authentication required"},"error":"unauthorized: authentication required"}
`
	err := followPull(strings.NewReader(bad), "x", func(string) {})
	require.EqualError(t, err, "unauthorized: authentication required")

	err = followPull(strings.NewReader(`{"status":`), "x", func(string) {})
	require.ErrorContains(t, err, "read the pull progress")
}

func TestPullErrorFix(t *testing.T) {
	withCreds := &PullError{Image: "ghcr.io/o/i:1", Err: errors.New("unauthorized"), WithCredentials: true}
	assert.Contains(t, withCreds.Error(), "fix: the registry refused the credentials `docker login ghcr.io` stored")
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

func writeDockerConfig(t *testing.T, cfg string) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o600))
	t.Setenv("DOCKER_CONFIG", dir)
}

func decodedAuth(t *testing.T, img string) registry.AuthConfig {
	t.Helper()
	h := registryAuth(context.Background(), img)
	if h == "" {
		return registry.AuthConfig{}
	}
	ac, err := registry.DecodeAuthConfig(h)
	require.NoError(t, err)
	return *ac
}

// Credentials come from where `docker login` stores them; what the CLI would send is
// what the Engine gets.
func TestRegistryAuth(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	writeDockerConfig(t, `{"auths":{
		"127.0.0.1:5000":{"auth":"`+b64("ci:s3cret:with-colon")+`"},
		"https://index.docker.io/v1/":{"auth":"`+b64("hubuser:hubpass")+`"},
		"https://registry.example.com/v2/":{"identitytoken":"idtok"}}}`)
	assert.Equal(t, registry.AuthConfig{Username: "ci", Password: "s3cret:with-colon", ServerAddress: "127.0.0.1:5000"}, decodedAuth(t, "127.0.0.1:5000/private/lite:e2e"))
	assert.Equal(t, registry.AuthConfig{Username: "hubuser", Password: "hubpass", ServerAddress: "https://index.docker.io/v1/"}, decodedAuth(t, "smile-base:latest"))
	assert.Equal(t, registry.AuthConfig{IdentityToken: "idtok", ServerAddress: "registry.example.com"}, decodedAuth(t, "registry.example.com/x:1"))
	assert.Empty(t, registryAuth(context.Background(), "ghcr.io/smile-loop/smile-base:1.0.0"), "nothing stored for ghcr.io")

	// A credential helper, run as docker runs it.
	bin := t.TempDir()
	helper := `#!/bin/sh
read server
case "$server" in
  ghcr.io) echo '{"ServerURL":"ghcr.io","Username":"octo","Secret":"ghp_fromhelper"}' ;;
  quay.io) echo '{"ServerURL":"quay.io","Username":"<token>","Secret":"refresh"}' ;;
  *) echo "credentials not found in native keychain"; exit 1 ;;
esac
`
	require.NoError(t, os.WriteFile(filepath.Join(bin, "docker-credential-fake"), []byte(helper), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	writeDockerConfig(t, `{"credsStore":"fake","credHelpers":{"quay.io":"fake","example.org":"missing"}}`)
	assert.Equal(t, registry.AuthConfig{Username: "octo", Password: "ghp_fromhelper", ServerAddress: "ghcr.io"}, decodedAuth(t, "ghcr.io/smile-loop/smile-base:1.0.0"))
	assert.Equal(t, registry.AuthConfig{IdentityToken: "refresh", ServerAddress: "quay.io"}, decodedAuth(t, "quay.io/org/img:1"))
	assert.Empty(t, registryAuth(context.Background(), "docker.io/library/alpine:3"), "the helper has none")
	assert.Empty(t, registryAuth(context.Background(), "example.org/img:1"), "the helper is not installed")

	t.Setenv("DOCKER_CONFIG", t.TempDir())
	assert.Empty(t, registryAuth(context.Background(), "ghcr.io/smile-loop/smile-base:1.0.0"), "no configuration")
}

// pullAPI answers ImagePull as the engine did; nothing else is called.
type pullAPI struct {
	dockerAPI
	err    error
	stream string
}

func (p pullAPI) ImagePull(context.Context, string, image.PullOptions) (io.ReadCloser, error) {
	if p.err != nil {
		return nil, p.err
	}
	return io.NopCloser(strings.NewReader(p.stream)), nil
}

// What the engine says about the registry is a PullError naming the registry, not a
// problem of the learner's network or a missing local image; an engine that is gone or
// out of disk keeps its own error.
func TestPullImageErrors(t *testing.T) {
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	img := "ghcr.io/smile-loop/smile-base:1.0.0"
	for _, answer := range []string{
		`Error response from daemon: Get "https://ghcr.io/v2/": dial tcp: lookup ghcr.io: network is unreachable`,
		"Error response from daemon: manifest for ghcr.io/smile-loop/smile-base:1.0.0 not found: manifest unknown",
	} {
		err := pullImage(context.Background(), pullAPI{err: errors.New(answer)}, img, nil)
		var pe *PullError
		require.ErrorAs(t, err, &pe, answer)
		assert.Contains(t, err.Error(), answer)
	}
	err := pullImage(context.Background(), pullAPI{err: errors.New("write /var/lib/docker/tmp/x: no space left on device")}, img, nil)
	var de *DiskError
	require.ErrorAs(t, err, &de)

	err = pullImage(context.Background(), pullAPI{stream: `{"errorDetail":{"message":"denied: permission_denied: read_package"},"error":"denied"}` + "\n"}, img, nil)
	var pe *PullError
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, err.Error(), "denied: permission_denied: read_package")
	assert.Contains(t, err.Error(), "docker login ghcr.io")

	var lines []string
	require.NoError(t, pullImage(context.Background(), pullAPI{stream: `{"status":"Status: Image is up to date"}` + "\n"}, img, func(s string) { lines = append(lines, s) }))
	require.Len(t, lines, 2)
	assert.Equal(t, "pulling "+img+" (not on this machine)", lines[0])
	assert.Regexp(t, `^pulled `+regexp.QuoteMeta(img)+` in \S+$`, lines[1])
}
