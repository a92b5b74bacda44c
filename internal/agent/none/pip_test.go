package none

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPipPackages(t *testing.T) {
	for cmd, want := range map[string][]string{
		"python3 -m pip install --user pillow":        {"pillow"},
		`pip install "pelican[markdown]" requests>=2`: {"pelican", "requests"},
		"sudo pip3 install -U PyYAML":                 {"pyyaml"},
		"pip install -r requirements.txt":             nil,
		"pip install .":                               nil,
		"pip install git+https://example.org/x.git":   nil,
		"pipx install black":                          nil,
	} {
		assert.Equal(t, want, pipPackages(cmd), cmd)
	}
}

// Debian 12's python3 has no pip module ("/usr/bin/python3: No module named pip"); the
// library is Debian's python3-yaml, which the fix installs and the script then imports.
func TestPipOnDebianGetsDebiansPackage(t *testing.T) {
	t.Parallel()
	md := "# YAML\n\n```bash\nsudo apt-get update\n```\n\nInstall the library:\n\n```bash\npython3 -m pip install --user pyyaml\n```\n\n" + // 12
		"```bash\npython3 -c 'import yaml; print(yaml.safe_load(\"a: 1\"))'\n```\n"
	res, _ := attempt(t, md, nil)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, 10, f.Line)
	assert.Contains(t, f.Problem, "without pip")
	require.NotNil(t, f.Edit)
	assert.Equal(t, "sudo apt-get install -y python3-yaml", f.Edit.Replace)
	assert.NotContains(t, strings.Join(res.AttemptedActions, "\n"), "ModuleNotFoundError")
}
