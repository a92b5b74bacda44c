package report

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
			golden(t, filepath.Join("testdata", "golden", name+".md"), []byte(md))
			golden(t, filepath.Join("testdata", "golden", name+".json"), js)
			golden(t, filepath.Join("testdata", "golden", name+".sarif"), sarif)
			for _, out := range []string{md, string(js), string(sarif), RenderAuditLog(r)} {
				assert.NotContains(t, out, canary)
			}
		})
	}
}
