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

// CredentialsError says which variables a provider's credential is missing from
// (exit code 3); it is the credential table's error.
type CredentialsError = provider.CredentialsError

// Endpoint is where a provider's API is and the credential to use: what NewClient and
// the key-holding proxy (internal/llmproxy) both need.
type Endpoint struct {
	Provider   string // claude, codex, gemini
	BaseURL    string
	Credential provider.Credential
	API        string // llm.api for codex: chat, responses or "" (chosen per model)
}

// ResolveEndpoint finds the base URL and credential of a provider for runtime from the
// configuration and the credential table (internal/provider): llm.baseURL wins over the
// base-URL variable, which wins over the provider's URL; the first credential variable
// set and usable by runtime wins. A local OpenAI-compatible server (a non-default base
// URL with provider codex) may need no key.
func ResolveEndpoint(name, runtime string, llm config.LLM, getenv func(string) string) (Endpoint, error) {
	ep := Endpoint{Provider: name, BaseURL: strings.TrimSpace(llm.BaseURL), API: llm.API}
	spec, ok := provider.Lookup(name)
	if !ok {
		return ep, fmt.Errorf("llmProvider %q has no LLM API: use claude, codex or gemini", name)
	}
	if ep.BaseURL == "" {
		ep.BaseURL = strings.TrimSpace(getenv(spec.BaseURLVar))
	}
	if ep.BaseURL == "" {
		ep.BaseURL = spec.DefaultURL
	}
	cred, cerr := spec.Resolve(runtime, getenv)
	if cerr != nil {
		localCompatible := name == config.ProviderCodex && strings.TrimRight(ep.BaseURL, "/") != provider.OpenAIURL
		if !localCompatible {
			return ep, cerr
		}
	}
	ep.Credential = cred
	return ep, nil
}

// NewClient returns the API client of an endpoint.
func NewClient(ep Endpoint, hc *http.Client, retry RetryPolicy) (Client, error) {
	switch ep.Provider {
	case config.ProviderClaude:
		c := NewAnthropic(ep.BaseURL, "", hc, retry)
		c.auth.use(ep)
		c.t.keyEnv = ep.Credential.Var
		return c, nil
	case config.ProviderCodex:
		c := NewOpenAI(ep.BaseURL, "", hc, retry).WithAPI(ep.API)
		c.auth.use(ep)
		c.t.keyEnv = ep.Credential.Var
		return c, nil
	case config.ProviderGemini:
		c := NewGemini(ep.BaseURL, "", hc, retry)
		c.auth.use(ep)
		c.t.keyEnv = ep.Credential.Var
		return c, nil
	}
	return nil, fmt.Errorf("llmProvider %q has no LLM API: use claude, codex or gemini", ep.Provider)
}

// New builds the native Student and Mentor for cfg (llmRuntime "api"): the provider's
// client, the three model tiers (configured names over the provider's defaults) and
// the bounds of cfg.LLM.
func New(cfg config.Config, getenv func(string) string, logger *slog.Logger) (*Student, *Mentor, error) {
	return NewWithMeter(cfg, getenv, logger, provider.NewMeter(cfg.LLM.Budget))
}

// NewWithMeter is New with the run's budget meter, for a run whose other agent (the
// cli runtime's key proxy) spends from the same llm.budget.
func NewWithMeter(cfg config.Config, getenv func(string) string, logger *slog.Logger, meter *provider.Meter) (*Student, *Mentor, error) {
	ep, err := ResolveEndpoint(cfg.LLMProvider, config.RuntimeAPI, cfg.LLM, getenv)
	if err != nil {
		return nil, nil, err
	}
	client, err := NewClient(ep, &http.Client{Timeout: 10 * time.Minute}, RetryPolicy{MaxWait: time.Duration(cfg.LLM.RetrySeconds) * time.Second})
	if err != nil {
		return nil, nil, err
	}
	opts := OptionsFor(cfg, client)
	opts.Logger, opts.Meter = logger, meter
	for _, m := range []string{opts.Fast, opts.Standard, opts.Powerful} {
		if err := meter.Priced(m); err != nil {
			return nil, nil, err
		}
	}
	return NewStudent(opts), NewMentor(opts), nil
}

// OptionsFor derives runtime options from the configuration for client.
func OptionsFor(cfg config.Config, client Client) Options {
	m := provider.Models(cfg)
	return Options{
		Client: client, Fast: m.Fast, Standard: m.Standard, Powerful: m.Powerful,
		MaxSteps: cfg.LLM.MaxSteps, MaxConsecutiveErrors: cfg.LLM.MaxConsecutiveErrors,
		ContextTokenBudget: cfg.LLM.ContextTokenBudget, MaxTokens: cfg.LLM.MaxOutputTokens,
		Meter: provider.NewMeter(cfg.LLM.Budget),
	}
}
