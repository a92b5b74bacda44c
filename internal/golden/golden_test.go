package golden

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRenderReadsGFM(t *testing.T) {
	t.Parallel()
	r := Render(t, "Run `a && b > c` as @octocat, see #12 and https://x.example.\n\n<details><summary>s</summary>\n\n![i](p.png) [l](https://ok.example)\n\n</details>\n<!-- m -->")
	assert.True(t, r.HasCode("a && b > c"))
	assert.True(t, r.Shows("Run a && b > c as @octocat"))
	assert.NotEmpty(t, r.Live(), "mention, reference and autolink are live")
	assert.Equal(t, []string{"p.png"}, r.Images)
	assert.Contains(t, r.Links, "https://ok.example")
	assert.Contains(t, r.Tags, "<!-- m -->")
	assert.Contains(t, r.Tags, "<details>")

	inert := Render(t, "as @\u200doctocat, see \\#\u200d12 and https:\u200d//x.example `@octocat #1`")
	assert.Empty(t, inert.Live())
	assert.True(t, inert.Shows("as @octocat, see #12 and https://x.example"))
}
