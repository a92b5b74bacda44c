package ghaction

// credentialVars are the environment variables that give each provider its
// credentials (CLIs and APIs read the same ones).
var credentialVars = map[string][]string{
	"claude": {"ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN"},
	"codex":  {"OPENAI_API_KEY", "CODEX_API_KEY"},
	"gemini": {"GEMINI_API_KEY", "GOOGLE_API_KEY"},
}

// HasCredentials reports whether the provider can run: it needs no credentials (none,
// replay) or one of its variables is set.
func HasCredentials(provider string, getenv func(string) string) bool {
	vars, ok := credentialVars[provider]
	if !ok {
		return true
	}
	for _, v := range vars {
		if getenv(v) != "" {
			return true
		}
	}
	return false
}

// ChooseProvider returns the provider to run with and, when it differs from the
// configured one, why: an LLM provider without credentials falls back to the
// deterministic mode (none) instead of failing the job — on fork pull requests GitHub
// passes no secrets, and elsewhere the secret may simply be missing.
func ChooseProvider(configured string, ev Event, getenv func(string) string) (string, string) {
	if HasCredentials(configured, getenv) {
		return configured, ""
	}
	why := "no credentials for llm-provider " + configured
	if ev.Fork {
		why = "pull request from a fork: GitHub passes no secrets, so there are no credentials for llm-provider " + configured
	}
	return "none", why + "; running the deterministic mode (llm-provider none: runs the tutorial's shell blocks, no LLM)"
}
