package api

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// CredentialsError says which environment variable the provider's API key is missing
// from. It maps to exit code 3 (environment unavailable).
type CredentialsError struct {
	Provider string
	Runtime  string // "" means api
	Env      []string
}

func (e *CredentialsError) Error() string {
	rt := e.Runtime
	if rt == "" {
		rt = config.RuntimeAPI
	}
	return fmt.Sprintf("llmProvider %q with llmRuntime %q needs an API key: set %s (or use llmProvider \"none\" for the deterministic mode)",
		e.Provider, rt, strings.Join(e.Env, " or "))
}

// EnvironmentUnavailable marks the error for exit code 3.
func (e *CredentialsError) EnvironmentUnavailable() bool { return true }

// Endpoint is where a provider's API is and the key to use: what NewClient and the
// key-holding proxy (internal/llmproxy) both need.
type Endpoint struct {
	Provider string // claude, codex, gemini
	BaseURL  string
	Key      string
	KeyEnv   string // the variable Key came from, named in auth and quota errors
}

// providerEnv names each provider's standard environment variables and default URL.
var providerEnv = map[string]struct {
	keys       []string // API key variables, the first set one wins
	baseURL    string   // base URL variable
	defaultURL string
}{
	config.ProviderClaude: {[]string{"ANTHROPIC_API_KEY"}, "ANTHROPIC_BASE_URL", DefaultAnthropicURL},
	config.ProviderCodex:  {[]string{"OPENAI_API_KEY", "CODEX_API_KEY"}, "OPENAI_BASE_URL", DefaultOpenAIURL},
	config.ProviderGemini: {[]string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}, "GOOGLE_GEMINI_BASE_URL", DefaultGeminiURL},
}

// ResolveEndpoint finds the base URL and key of provider from the configuration and the
// standard environment variables: ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL (claude),
// OPENAI_API_KEY or CODEX_API_KEY / OPENAI_BASE_URL (codex, any OpenAI-compatible
// server), GEMINI_API_KEY or GOOGLE_API_KEY / GOOGLE_GEMINI_BASE_URL (gemini).
// llm.baseURL wins over the environment. A local OpenAI-compatible server (a
// non-default base URL) may need no key.
func ResolveEndpoint(provider string, llm config.LLM, getenv func(string) string) (Endpoint, error) {
	ep := Endpoint{Provider: provider, BaseURL: llm.BaseURL}
	first := func(names ...string) string {
		for _, n := range names {
			if v := strings.TrimSpace(getenv(n)); v != "" {
				return v
			}
		}
		return ""
	}
	env, ok := providerEnv[provider]
	if !ok {
		return ep, fmt.Errorf("llmProvider %q has no LLM API: use claude, codex or gemini", provider)
	}
	keyEnv := env.keys
	if ep.BaseURL == "" {
		ep.BaseURL = first(env.baseURL)
	}
	if ep.BaseURL == "" {
		ep.BaseURL = env.defaultURL
	}
	for _, n := range keyEnv {
		if v := strings.TrimSpace(getenv(n)); v != "" {
			ep.Key, ep.KeyEnv = v, n
			break
		}
	}
	localCompatible := provider == config.ProviderCodex && strings.TrimRight(ep.BaseURL, "/") != DefaultOpenAIURL
	if ep.Key == "" && !localCompatible {
		return ep, &CredentialsError{Provider: provider, Env: keyEnv}
	}
	return ep, nil
}

// NewClient returns the API client of an endpoint.
func NewClient(ep Endpoint, hc *http.Client, retry RetryPolicy) (Client, error) {
	switch ep.Provider {
	case config.ProviderClaude:
		c := NewAnthropic(ep.BaseURL, ep.Key, hc, retry)
		c.t.keyEnv = ep.KeyEnv
		return c, nil
	case config.ProviderCodex:
		c := NewOpenAI(ep.BaseURL, ep.Key, hc, retry)
		c.t.keyEnv = ep.KeyEnv
		return c, nil
	case config.ProviderGemini:
		c := NewGemini(ep.BaseURL, ep.Key, hc, retry)
		c.t.keyEnv = ep.KeyEnv
		return c, nil
	}
	return nil, fmt.Errorf("llmProvider %q has no LLM API: use claude, codex or gemini", ep.Provider)
}

// New builds the native Student and Mentor for cfg (llmRuntime "api"): the provider's
// client, the three model tiers (configured names over the provider's defaults) and
// the bounds of cfg.LLM.
func New(cfg config.Config, getenv func(string) string, logger *slog.Logger) (*Student, *Mentor, error) {
	ep, err := ResolveEndpoint(cfg.LLMProvider, cfg.LLM, getenv)
	if err != nil {
		return nil, nil, err
	}
	client, err := NewClient(ep, &http.Client{Timeout: 10 * time.Minute}, RetryPolicy{MaxWait: time.Duration(cfg.LLM.RetrySeconds) * time.Second})
	if err != nil {
		return nil, nil, err
	}
	opts := OptionsFor(cfg, client)
	opts.Logger = logger
	return NewStudent(opts), NewMentor(opts), nil
}

// OptionsFor derives runtime options from the configuration for client.
func OptionsFor(cfg config.Config, client Client) Options {
	m := provider.Models(cfg)
	return Options{
		Client: client, Fast: m.Fast, Standard: m.Standard, Powerful: m.Powerful,
		MaxSteps: cfg.LLM.MaxSteps, MaxConsecutiveErrors: cfg.LLM.MaxConsecutiveErrors,
		ContextTokenBudget: cfg.LLM.ContextTokenBudget, MaxTokens: cfg.LLM.MaxOutputTokens,
	}
}
