// Package sandboxtest holds test helpers for code that needs the real Docker Engine.
//
// Tests skip when the engine (or the test image) is missing on a developer machine, but
// fail when the environment variable CI is "true": CI must never pass by skipping.
package sandboxtest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

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
