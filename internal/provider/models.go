package provider

import (
	"strings"

	"github.com/smile-loop/smile-loop/internal/config"
)

// PricesAsOf dates the model and price tables below: they were read from the providers'
// pages on that day (README: Models and prices) and are estimates after it.
const PricesAsOf = "2026-11-23"

// defaultModels per provider: fast (compaction), standard (Student), powerful (Mentor).
// Sources, read 2026-11-23: platform.claude.com/docs/en/models/overview (Claude Haiku,
// Sonnet and Opus 5.5, 128K output); developers.openai.com/api/docs/models (GPT-6 Luna,
// GPT-6.2 Sol, GPT-6 Astra; function calling through the Responses API);
// ai.google.dev/gemini-api/docs/models (Gemini 3.5 Flash-Lite and 3.8 Flash are GA; 3.1
// Pro is still a preview, so it is no default).
var defaultModels = map[string]config.Models{
	config.ProviderClaude: {Fast: "claude-haiku-5-5", Standard: "claude-sonnet-5-5", Powerful: "claude-opus-5-5"},
	config.ProviderCodex:  {Fast: "gpt-6-luna", Standard: "gpt-6.2-sol", Powerful: "gpt-6-astra"},
	config.ProviderGemini: {Fast: "gemini-3.5-flash-lite", Standard: "gemini-3.8-flash", Powerful: "gemini-3.8-flash"},
}

// DefaultModels returns the models used for provider when llm.models leaves a tier out.
func DefaultModels(provider string) config.Models { return defaultModels[provider] }

// Models returns the models of cfg's provider: llm.models over the defaults.
func Models(cfg config.Config) config.Models {
	m := defaultModels[cfg.LLMProvider]
	if cfg.LLM.Models.Fast != "" {
		m.Fast = cfg.LLM.Models.Fast
	}
	if cfg.LLM.Models.Standard != "" {
		m.Standard = cfg.LLM.Models.Standard
	}
	if cfg.LLM.Models.Powerful != "" {
		m.Powerful = cfg.LLM.Models.Powerful
	}
	return m
}

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input      float64 // uncached input
	CachedRead float64 // input read from the prompt cache
	CacheWrite float64 // input written to the prompt cache (Anthropic: 1.25x input for 5 minutes)
	Output     float64 // output, thinking included
}

// prices per model, as listed on 2026-11-23: platform.claude.com/docs/en/about-claude/pricing
// (cache reads 0.1x and 5-minute cache writes 1.25x the input price),
// developers.openai.com/api/docs/pricing (cached input 10% of input; implicit caching
// writes cost the input price), ai.google.dev/gemini-api/docs/pricing (context caching
// reads 10% of input). Standard tier, short-context rates.
var prices = map[string]Price{
	"claude-opus-5-5":   {Input: 4, CachedRead: 0.40, CacheWrite: 5, Output: 20},
	"claude-sonnet-5-5": {Input: 2, CachedRead: 0.20, CacheWrite: 2.50, Output: 10},
	"claude-haiku-5-5":  {Input: 0.10, CachedRead: 0.01, CacheWrite: 0.125, Output: 0.50},
	"claude-fable-5-1":  {Input: 10, CachedRead: 1, CacheWrite: 12.50, Output: 50},
	"claude-opus-5":     {Input: 5, CachedRead: 0.50, CacheWrite: 6.25, Output: 25},
	"claude-sonnet-5":   {Input: 2, CachedRead: 0.20, CacheWrite: 2.50, Output: 10},
	"claude-haiku-4-5":  {Input: 1, CachedRead: 0.10, CacheWrite: 1.25, Output: 5},

	"gpt-6-astra":   {Input: 10, CachedRead: 1, CacheWrite: 10, Output: 50},
	"gpt-6.2-sol":   {Input: 2, CachedRead: 0.10, CacheWrite: 2, Output: 10},
	"gpt-6.1-sol":   {Input: 2, CachedRead: 0.10, CacheWrite: 2, Output: 10},
	"gpt-6.1-terra": {Input: 1, CachedRead: 0.10, CacheWrite: 1, Output: 5},
	"gpt-6-luna":    {Input: 0.10, CachedRead: 0.01, CacheWrite: 0.10, Output: 0.50},

	"gemini-3.8-flash":       {Input: 0.75, CachedRead: 0.075, CacheWrite: 0.75, Output: 3.75},
	"gemini-3.5-flash-lite":  {Input: 0.30, CachedRead: 0.03, CacheWrite: 0.30, Output: 2.50},
	"gemini-3.1-pro-preview": {Input: 2, CachedRead: 0.20, CacheWrite: 2, Output: 12},
}

// maxOutput is the most output tokens one call may ask for, per model family prefix
// (same sources as the prices: Claude 5.x and GPT-6 128K; Claude Haiku 4.5 64K; Gemini
// 3.x 65,536). A request above it is refused by the provider, so a truncated answer is
// never asked again with more than this.
var maxOutput = map[string]int{
	"claude-haiku-4-5": 64000,
	"claude-":          128000,
	"gpt-6":            128000,
	"gemini-3":         65536,
}

// MaxOutputOf returns the output limit of model, 0 when unknown (no cap).
func MaxOutputOf(model string) int {
	m := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(model)), "models/")
	best, limit := "", 0
	for prefix, n := range maxOutput {
		if strings.HasPrefix(m, prefix) && len(prefix) > len(best) {
			best, limit = prefix, n
		}
	}
	return limit
}

// PriceOf returns the price of model; a dated snapshot ("…-20261001") or a served name
// with a prefix ("models/…") falls back to its base name.
func PriceOf(model string) (Price, bool) {
	m := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(model)), "models/")
	if p, ok := prices[m]; ok {
		return p, true
	}
	best := ""
	for base := range prices { // the longest base wins: claude-opus-5-5-… is not claude-opus-5
		if strings.HasPrefix(m, base+"-") && len(base) > len(best) {
			best = base
		}
	}
	if best == "" {
		return Price{}, false
	}
	return prices[best], true
}

// Usage is the token accounting of one or more calls: Input counts every input token,
// the cached reads and writes included.
type Usage struct {
	Input, CachedRead, CacheWrite, Output int
}

// Cost estimates what u cost on model; ok is false when the model has no price.
func Cost(model string, u Usage) (usd float64, ok bool) {
	p, ok := PriceOf(model)
	if !ok {
		return 0, false
	}
	uncached := max(u.Input-u.CachedRead-u.CacheWrite, 0)
	usd = (float64(uncached)*p.Input + float64(u.CachedRead)*p.CachedRead +
		float64(u.CacheWrite)*p.CacheWrite + float64(u.Output)*p.Output) / 1e6
	return usd, true
}
