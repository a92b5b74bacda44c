package sandboxtest

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequireImageReturnsTag(t *testing.T) {
	image := RequireImage(t)
	assert.Equal(t, Image(), image)
}

func TestImageFromEnv(t *testing.T) {
	t.Setenv("SMILE_TEST_IMAGE", "custom:tag")
	assert.Equal(t, "custom:tag", Image())
	t.Setenv("SMILE_TEST_IMAGE", "")
	assert.Equal(t, DefaultImage, Image())
}

func TestInCI(t *testing.T) {
	t.Setenv("CI", "true")
	assert.True(t, InCI())
	t.Setenv("CI", "")
	assert.False(t, InCI())
}

func TestRemoveContainersUnder(t *testing.T) {
	image := RequireImage(t)
	dir, other := t.TempDir(), t.TempDir()
	run := func(src string) string {
		out, err := exec.Command("docker", "run", "-d", "--label", "org.smile-loop.role=learner",
			"-v", src+":/workspace/work", image, "sleep", "60").Output()
		require.NoError(t, err)
		return strings.TrimSpace(string(out))
	}
	inside, outside := run(dir), run(other)
	t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", outside).Run() })

	t.Run("cleanup", func(t *testing.T) { RemoveContainersUnder(t, dir) })

	exists := func(id string) bool {
		out, err := exec.Command("docker", "ps", "-aq", "--no-trunc", "--filter", "id="+id).Output()
		require.NoError(t, err)
		return strings.TrimSpace(string(out)) != ""
	}
	assert.False(t, exists(inside), "the container mounting from dir is removed")
	assert.True(t, exists(outside), "other containers stay")
}
