package report

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/golden"
)

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"clean", "gaps", "hostile"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := buildFixture(t, name)
			md := RenderMarkdown(r)
			js, err := RenderJSON(r)
			require.NoError(t, err)
			sarif, err := RenderSARIF(r)
			require.NoError(t, err)
			validateReportJSON(t, js)
			validateSARIF(t, sarif)
			seen := golden.Markdown(t, filepath.Join("testdata", "golden", name+".md"), md)
			golden.File(t, filepath.Join("testdata", "golden", name+".json"), js)
			golden.File(t, filepath.Join("testdata", "golden", name+".sarif"), sarif)
			for _, out := range []string{md, string(js), string(sarif), RenderAuditLog(r)} {
				assert.NotContains(t, out, canary)
			}
			assert.Empty(t, seen.Live(), "nothing untrusted is a live mention, reference or link")
			assert.Empty(t, seen.Images)
			// Every gap reads as the report meant it.
			for _, g := range r.Gaps {
				if !strings.Contains(g.Problem, "`") {
					assert.True(t, seen.Shows(g.Problem), "problem of gap %d shown as written: %q", g.ID, g.Problem)
				}
			}
		})
	}
	seen := golden.Render(t, RenderMarkdown(buildFixture(t, "gaps")))
	assert.True(t, seen.HasCode("apt-get install -y nodejs npm"), "a code span in a fix stays code: %q", seen.Code)
}

// One rule for pass/fail, used by Failed and by Action mode's levels and annotations.
func TestSeverityFails(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s      Severity
		failOn string
		want   bool
	}{
		{Critical, "high", true}, {High, "high", true}, {Medium, "high", false},
		{Low, "low", true}, {Critical, "never", false},
		{High, "", true}, {Medium, "", false}, {High, "urgent", true}, {Medium, "urgent", false},
		{"", "low", false},
	} {
		assert.Equal(t, tt.want, tt.s.Fails(tt.failOn), "%s under %q", tt.s, tt.failOn)
	}
}
