package sandbox

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/distribution/reference"
	"github.com/docker/docker/api/types/registry"
)

// The Engine pulls with the credentials its client sends (X-Registry-Auth); it reads no
// configuration itself. registryAuth finds them where `docker login` put them, in the
// Docker CLI's configuration file (docker/cli cli/config/configfile): $DOCKER_CONFIG/
// config.json, else ~/.docker/config.json, with
//
//	{"auths": {"ghcr.io": {"auth": "<base64 user:password>", "identitytoken": "…"}},
//	 "credsStore": "desktop", "credHelpers": {"ghcr.io": "gcloud"}}
//
// A credential helper is run as docker does (docker/docker-credential-helpers protocol):
// `docker-credential-<name> get` with the server on stdin, answering
// {"ServerURL","Username","Secret"}; the Username "<token>" marks an identity token.
// The credentials go to the Engine only: never into a log or an error.

// dockerHubServer is the key Docker Hub's credentials are stored under.
const dockerHubServer = "https://index.docker.io/v1/"

type dockerConfig struct {
	Auths map[string]struct {
		Auth          string `json:"auth"`
		IdentityToken string `json:"identitytoken"`
	} `json:"auths"`
	CredsStore  string            `json:"credsStore"`
	CredHelpers map[string]string `json:"credHelpers"`
}

// registryAuth returns the X-Registry-Auth value for img ("" when no credentials are
// configured for its registry).
func registryAuth(ctx context.Context, img string) string {
	named, err := reference.ParseNormalizedNamed(img)
	if err != nil {
		return ""
	}
	host := reference.Domain(named)
	server := host
	if host == "docker.io" {
		server = dockerHubServer
	}
	cfg, ok := readDockerConfig()
	if !ok {
		return ""
	}
	helper := cfg.CredHelpers[host]
	if helper == "" {
		helper = cfg.CredsStore
	}
	var ac registry.AuthConfig
	if helper != "" {
		ac, ok = fromHelper(ctx, helper, server)
	} else {
		ac, ok = fromAuths(cfg, host)
	}
	if !ok {
		return ""
	}
	ac.ServerAddress = server
	enc, err := registry.EncodeAuthConfig(ac)
	if err != nil {
		return ""
	}
	return enc
}

func readDockerConfig() (dockerConfig, bool) {
	dir := os.Getenv("DOCKER_CONFIG")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return dockerConfig{}, false
		}
		dir = filepath.Join(home, ".docker")
	}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return dockerConfig{}, false
	}
	var cfg dockerConfig
	if json.Unmarshal(b, &cfg) != nil {
		return dockerConfig{}, false
	}
	return cfg, true
}

// fromAuths reads the auths entry of host; keys may carry a scheme and a path
// ("https://ghcr.io/v1/"), as older CLIs wrote them.
func fromAuths(cfg dockerConfig, host string) (registry.AuthConfig, bool) {
	for key, a := range cfg.Auths {
		h := key
		if host == "docker.io" && key == dockerHubServer {
			h = "docker.io"
		}
		h = strings.TrimPrefix(strings.TrimPrefix(h, "https://"), "http://")
		if i := strings.Index(h, "/"); i >= 0 {
			h = h[:i]
		}
		if h != host {
			continue
		}
		if a.IdentityToken != "" {
			return registry.AuthConfig{IdentityToken: a.IdentityToken}, true
		}
		raw, err := base64.StdEncoding.DecodeString(a.Auth)
		if err != nil {
			return registry.AuthConfig{}, false
		}
		user, pass, ok := strings.Cut(string(raw), ":")
		if !ok {
			return registry.AuthConfig{}, false
		}
		return registry.AuthConfig{Username: user, Password: pass}, true
	}
	return registry.AuthConfig{}, false
}

// fromHelper asks the credential helper for server's credentials.
func fromHelper(ctx context.Context, helper, server string) (registry.AuthConfig, bool) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "docker-credential-"+helper, "get")
	cmd.Stdin = strings.NewReader(server)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return registry.AuthConfig{}, false // not installed, or no credentials for server
	}
	var c struct {
		Username string
		Secret   string
	}
	if err := json.Unmarshal(out.Bytes(), &c); err != nil || c.Secret == "" {
		return registry.AuthConfig{}, false
	}
	if c.Username == "<token>" {
		return registry.AuthConfig{IdentityToken: c.Secret}, true
	}
	return registry.AuthConfig{Username: c.Username, Password: c.Secret}, true
}
