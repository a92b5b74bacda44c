package ghaction

import (
	"github.com/smile-loop/smile-loop/internal/provider"
)

// ChooseProvider returns the provider to run with and a notice saying how it
// authenticates or why it differs from the configured one. The credential table
// (internal/provider) decides: an LLM provider without a credential runtime can use
// falls back to the deterministic mode (none) instead of failing the job — on fork pull
// requests GitHub passes no secrets, elsewhere the secret may be missing, and a Claude
// subscription token (CLAUDE_CODE_OAUTH_TOKEN) authenticates only the claude CLI. A
// token instead of an API key is named, so the log says which credential ran.
func ChooseProvider(configured, runtime string, ev Event, getenv func(string) string) (string, string) {
	spec, llm := provider.Lookup(configured)
	if !llm {
		return configured, "" // none, replay: no credential
	}
	cred, err := spec.Resolve(runtime, getenv)
	if err == nil {
		if cred.Kind != provider.KindAPIKey {
			return configured, "llm-provider " + configured + " authenticates with " + cred.Var + " (" + string(cred.Kind) + ")"
		}
		return configured, ""
	}
	why := "no credentials for llm-provider " + configured
	if ev.Fork {
		why = "pull request from a fork: GitHub passes no secrets, so there are " + why
	}
	return "none", why + "; running the deterministic mode (llm-provider none: runs the tutorial's shell blocks, no LLM). " +
		"The credential table says: " + err.Error()
}
