package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile-loop/internal/agent/none"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A link the learner could have planted in the logs directory is never followed, not
// even to a file inside the directory, and a linked parent directory does not lead out.
func TestOutputPathLinksAreNotFollowed(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.log"), []byte("OUTSIDE-MARKER"), 0o644))
	logs := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(logs, "real.log"), []byte("INSIDE-MARKER"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(logs, "real.log"), filepath.Join(logs, "inner.log")))
	require.NoError(t, os.Symlink(outside, filepath.Join(logs, "commands")))

	r := Build(hostileState(filepath.Join(logs, "inner.log")), nil, Options{RuleFix: none.Fix, Now: fixedNow, LogsDir: logs})
	assert.NotContains(t, RenderAuditLog(r), "INSIDE-MARKER", "a final link is refused")
	r = Build(hostileState(filepath.Join(logs, "commands", "secret.log")), nil, Options{RuleFix: none.Fix, Now: fixedNow, LogsDir: logs})
	assert.NotContains(t, RenderAuditLog(r), "OUTSIDE-MARKER", "a linked directory does not lead outside")
	// The same file, not through a link, is read: the test can fail.
	r = Build(hostileState(filepath.Join(logs, "real.log")), nil, Options{RuleFix: none.Fix, Now: fixedNow, LogsDir: logs})
	assert.Contains(t, RenderAuditLog(r), "INSIDE-MARKER")
}
