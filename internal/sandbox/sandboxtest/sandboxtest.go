// Package sandboxtest holds test helpers for code that needs the real Docker Engine.
//
// Tests skip when the engine (or the test image) is missing on a developer machine, but
// fail when the environment variable CI is "true": CI must never pass by skipping.
package sandboxtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"
)

// DefaultImage is the learner image tests use unless SMILE_TEST_IMAGE names another.
const DefaultImage = "smile-lite:latest"

var (
	pingOnce sync.Once
	pingErr  error
)

// RequireDocker skips t when the Docker Engine is unreachable, or fails it when CI=true.
func RequireDocker(t testing.TB) {
	t.Helper()
	pingOnce.Do(func() { pingErr = ping() })
	if pingErr != nil {
		unavailable(t, "Docker is required but not available: %v (start the daemon, check socket permissions or DOCKER_HOST)", pingErr)
	}
}

// RequireImage requires Docker and the test image, and returns the image's tag
// (SMILE_TEST_IMAGE, default smile-lite:latest).
func RequireImage(t testing.TB) string {
	t.Helper()
	RequireDocker(t)
	image := Image()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		unavailable(t, "docker client: %v", err)
		return image
	}
	defer cli.Close()
	if _, err := cli.ImageInspect(ctx, image); err != nil {
		unavailable(t, "test image %s is missing: run `make images` (%v)", image, err)
	}
	return image
}

// Image is the test image tag: SMILE_TEST_IMAGE or DefaultImage.
func Image() string {
	if v := os.Getenv("SMILE_TEST_IMAGE"); v != "" {
		return v
	}
	return DefaultImage
}

// InCI reports whether the tests run in CI (CI=true), where missing Docker is a failure.
func InCI() bool { return os.Getenv("CI") == "true" }

func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

func ping() error {
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		return err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = cli.Ping(ctx)
	return err
}

// RemoveContainersUnder registers a cleanup that force-removes every learner container
// (label org.smile-loop.role=learner) with a bind mount from inside dir, typically the
// test's t.TempDir(). Runs that fail keep their container for debugging
// (container.keepOnFailure); tests that provoke failures use this so that none pile up.
func RemoveContainersUnder(t testing.TB, dir string) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatalf("remove containers under %s: %v", dir, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
		if err != nil {
			return
		}
		defer cli.Close()
		list, err := cli.ContainerList(ctx, container.ListOptions{All: true,
			Filters: filters.NewArgs(filters.Arg("label", "org.smile-loop.role=learner"))})
		if err != nil {
			return
		}
		for _, c := range list {
			for _, m := range c.Mounts {
				if m.Source == abs || strings.HasPrefix(m.Source, abs+string(filepath.Separator)) {
					if err := cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true}); err != nil {
						t.Logf("remove container %s: %v", c.ID[:12], err)
					}
					break
				}
			}
		}
	})
}
