package redact

import (
	"slices"
	"strings"

	"github.com/smile-loop/smile-loop/internal/provider"
)

// Which environment variables hold secrets.

// Secret-looking environment variable names: any name containing one of these words.
var secretWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "PRIVATE"}

// Names that are always secrets (when long enough), whatever the words above say: every
// credential variable of the credential table (internal/provider) and GitHub's tokens.
var secretNames = append(provider.SecretVars(),
	"GITHUB_TOKEN", "GH_TOKEN", "INPUT_GITHUB-TOKEN", "INPUT_GITHUB_TOKEN",
	"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
)

// CredentialNames are the variables whose values are always secrets: every LLM
// credential of the credential table and GitHub's tokens.
func CredentialNames() []string { return slices.Clone(secretNames) }

// Names that contain a word above but hold no secret.
func notSecretName(name string) bool {
	return strings.HasSuffix(name, "_SOCK") // SSH_AUTH_SOCK: a socket path
}

// FromEnv picks the values of secret-looking variables from environ ("NAME=value"
// entries, as os.Environ returns them): known credential names and any name containing
// KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL or AUTH. Values shorter than MinEnvSecretLen
// are ignored. The result is sorted and free of duplicates.
func FromEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || len(strings.TrimSpace(value)) < MinEnvSecretLen {
			continue
		}
		upper := strings.ToUpper(name)
		if notSecretName(upper) {
			continue
		}
		if slices.Contains(secretNames, upper) || containsAny(upper, secretWords) {
			out = append(out, value)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
