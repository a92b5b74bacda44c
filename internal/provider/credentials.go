package provider

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/smile-loop/smile-loop/internal/config"
)

// Kind says what a credential is and so how it travels.
type Kind string

// Kinds of credential.
const (
	// KindAPIKey is a provider API key, sent in the provider's key header.
	KindAPIKey Kind = "api key"
	// KindToken is a bearer token for an LLM gateway (ANTHROPIC_AUTH_TOKEN), sent as
	// Authorization: Bearer.
	KindToken Kind = "token"
	// KindOAuth is a Claude subscription token from `claude setup-token`
	// (CLAUDE_CODE_OAUTH_TOKEN): Authorization: Bearer plus the anthropic-beta
	// oauth-2025-04-20 flag, as Claude Code sends it. Anthropic accepts it only for
	// Claude Code's own requests (anthropics/claude-code#37205: "OAuth authentication is
	// currently not supported" from other clients), so it serves the cli runtime only.
	KindOAuth Kind = "oauth token"
)

// Var is one credential variable.
type Var struct {
	Name    string
	Kind    Kind
	CLIOnly bool // usable only by the provider's own CLI (llmRuntime cli)
}

// Spec is how one provider authenticates: the credential table's row.
type Spec struct {
	Provider string
	// Vars are the credential variables, in the order the first set one wins.
	Vars       []Var
	BaseURLVar string // the base-URL variable the runtimes and the CLI read
	DefaultURL string // the provider's API base URL (OpenAI's includes /v1)
	// KeyHeader carries an API key: "x-api-key", "Authorization" (Bearer) or
	// "x-goog-api-key".
	KeyHeader string
	// CLIKeyVars are the variables the provider's CLI reads its key from; the key proxy
	// puts the per-run token there (claude 2.x: ANTHROPIC_API_KEY; codex exec needs
	// CODEX_API_KEY, openai/codex#4615; gemini-cli: GEMINI_API_KEY).
	CLIKeyVars []string
}

// Default base URLs of the provider APIs.
const (
	AnthropicURL = "https://api.anthropic.com"
	OpenAIURL    = "https://api.openai.com/v1"
	GeminiURL    = "https://generativelanguage.googleapis.com"
)

// The credential table. Sources: Claude Code's environment variables
// (code.claude.com/docs/en/settings#environment-variables: ANTHROPIC_API_KEY as
// X-Api-Key, ANTHROPIC_AUTH_TOKEN as Authorization: Bearer, CLAUDE_CODE_OAUTH_TOKEN);
// OpenAI (OPENAI_API_KEY, OPENAI_BASE_URL; CODEX_API_KEY for codex exec,
// developers.openai.com/codex env vars); Gemini (GEMINI_API_KEY, GOOGLE_API_KEY,
// x-goog-api-key; GOOGLE_GEMINI_BASE_URL read by @google/genai's Node client).
var specs = []Spec{
	{
		Provider: config.ProviderClaude,
		Vars: []Var{
			{Name: "ANTHROPIC_API_KEY", Kind: KindAPIKey},
			{Name: "ANTHROPIC_AUTH_TOKEN", Kind: KindToken},
			{Name: "CLAUDE_CODE_OAUTH_TOKEN", Kind: KindOAuth, CLIOnly: true},
		},
		BaseURLVar: "ANTHROPIC_BASE_URL", DefaultURL: AnthropicURL, KeyHeader: "x-api-key",
		CLIKeyVars: []string{"ANTHROPIC_API_KEY"},
	},
	{
		Provider: config.ProviderCodex,
		Vars: []Var{
			{Name: "OPENAI_API_KEY", Kind: KindAPIKey},
			{Name: "CODEX_API_KEY", Kind: KindAPIKey},
		},
		BaseURLVar: "OPENAI_BASE_URL", DefaultURL: OpenAIURL, KeyHeader: "Authorization",
		CLIKeyVars: []string{"OPENAI_API_KEY", "CODEX_API_KEY"},
	},
	{
		Provider: config.ProviderGemini,
		Vars: []Var{
			{Name: "GEMINI_API_KEY", Kind: KindAPIKey},
			{Name: "GOOGLE_API_KEY", Kind: KindAPIKey},
		},
		BaseURLVar: "GOOGLE_GEMINI_BASE_URL", DefaultURL: GeminiURL, KeyHeader: "x-goog-api-key",
		CLIKeyVars: []string{"GEMINI_API_KEY"},
	},
}

// Lookup returns the credential table's row for provider; false for none and replay.
func Lookup(provider string) (Spec, bool) {
	for _, s := range specs {
		if s.Provider == provider {
			return s, true
		}
	}
	return Spec{}, false
}

// Specs returns the whole credential table, in a fixed order.
func Specs() []Spec { return append([]Spec(nil), specs...) }

// SecretVars names every credential variable of every provider: what maskers hide and
// what never enters the learner container.
func SecretVars() []string {
	var out []string
	for _, s := range specs {
		for _, v := range s.Vars {
			out = append(out, v.Name)
		}
	}
	return out
}

// Credential is a resolved credential: its value and where it came from.
type Credential struct {
	Var   string
	Kind  Kind
	Value string
}

// Apply puts the credential on an outgoing request of spec's provider.
func (c Credential) Apply(spec Spec, h http.Header) {
	if c.Value == "" {
		return // a local OpenAI-compatible server (vLLM, Ollama) that needs no key
	}
	switch {
	case c.Kind == KindAPIKey && spec.KeyHeader != "Authorization":
		h.Set(spec.KeyHeader, c.Value)
	default:
		h.Set("Authorization", "Bearer "+c.Value)
	}
	if c.Kind == KindOAuth {
		addBeta(h, "oauth-2025-04-20")
	}
}

// addBeta adds flag to the comma-separated anthropic-beta header, keeping the others.
func addBeta(h http.Header, flag string) {
	var flags []string
	for _, v := range h.Values("anthropic-beta") {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" && f != flag {
				flags = append(flags, f)
			}
		}
	}
	h.Set("anthropic-beta", strings.Join(append(flags, flag), ","))
}

// Resolve finds the credential runtime can use: the first variable of the table that is
// set and usable there. When only a credential for the other runtime is set it says so.
func (s Spec) Resolve(runtime string, getenv func(string) string) (Credential, *CredentialsError) {
	var cliOnly []string
	for _, v := range s.Vars {
		val := strings.TrimSpace(getenv(v.Name))
		if val == "" {
			continue
		}
		if v.CLIOnly && runtime != config.RuntimeCLI {
			cliOnly = append(cliOnly, v.Name)
			continue
		}
		return Credential{Var: v.Name, Kind: v.Kind, Value: val}, nil
	}
	return Credential{}, &CredentialsError{Provider: s.Provider, Runtime: runtime, Env: s.usable(runtime), CLIOnly: cliOnly}
}

// usable names the variables runtime can use.
func (s Spec) usable(runtime string) []string {
	var out []string
	for _, v := range s.Vars {
		if !v.CLIOnly || runtime == config.RuntimeCLI {
			out = append(out, v.Name)
		}
	}
	return out
}

// CredentialsError says which variables a provider's credential is missing from. It
// maps to exit code 3 (environment unavailable).
type CredentialsError struct {
	Provider string
	Runtime  string
	Env      []string // the variables the runtime could use
	CLIOnly  []string // set, but usable only with llmRuntime cli
}

func (e *CredentialsError) Error() string {
	rt := e.Runtime
	if rt == "" {
		rt = config.RuntimeAPI
	}
	msg := fmt.Sprintf("llmProvider %q with llmRuntime %q needs a credential: set %s (or use llmProvider \"none\" for the deterministic mode)",
		e.Provider, rt, strings.Join(e.Env, " or "))
	if len(e.CLIOnly) > 0 {
		msg += fmt.Sprintf("; %s is set but authenticates only the provider's CLI (llmRuntime \"cli\")", strings.Join(e.CLIOnly, ", "))
	}
	return msg
}

// EnvironmentUnavailable marks the error for exit code 3.
func (e *CredentialsError) EnvironmentUnavailable() bool { return true }

// Usable reports whether provider can run with runtime from the environment: it needs no
// credential (none, replay) or one it can use is set. why explains a false answer.
func Usable(provider, runtime string, getenv func(string) string) (ok bool, why string) {
	s, found := Lookup(provider)
	if !found {
		return true, ""
	}
	if _, err := s.Resolve(runtime, getenv); err != nil {
		return false, err.Error()
	}
	return true, ""
}
