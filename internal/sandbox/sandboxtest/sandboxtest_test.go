package sandboxtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
