package config

import "reflect"

// trustedField is a setting an untrusted configuration file (one from a pull request's
// checkout) may not choose: where a real key is sent, who plays the agents, what the
// run may spend or keep, and what decides pass or fail.
type trustedField struct {
	Name string              // the JSON path, as a user writes it
	ptr  func(c *Config) any // the field's address
}

// TrustedFields are the security-relevant settings, in the order notices name them.
var TrustedFields = []trustedField{
	{"llmProvider", func(c *Config) any { return &c.LLMProvider }},
	{"llmRuntime", func(c *Config) any { return &c.LLMRuntime }},
	{"llm.baseURL", func(c *Config) any { return &c.LLM.BaseURL }},
	{"llm.models", func(c *Config) any { return &c.LLM.Models }},
	{"llm.maxSteps", func(c *Config) any { return &c.LLM.MaxSteps }},
	{"llm.contextTokenBudget", func(c *Config) any { return &c.LLM.ContextTokenBudget }},
	{"llm.maxOutputTokens", func(c *Config) any { return &c.LLM.MaxOutputTokens }},
	{"llm.api", func(c *Config) any { return &c.LLM.API }},
	{"llm.budget", func(c *Config) any { return &c.LLM.Budget }},
	{"llm.retrySeconds", func(c *Config) any { return &c.LLM.RetrySeconds }},
	{"llm.maxOutputTokens", func(c *Config) any { return &c.LLM.MaxOutputTokens }},
	{"llm.api", func(c *Config) any { return &c.LLM.API }},
	{"llm.budget", func(c *Config) any { return &c.LLM.Budget }},
	{"llm.retrySeconds", func(c *Config) any { return &c.LLM.RetrySeconds }},
	{"scenario", func(c *Config) any { return &c.Scenario }},
	{"containerImage", func(c *Config) any { return &c.ContainerImage }},
	{"maxIterations", func(c *Config) any { return &c.MaxIterations }},
	{"timeout", func(c *Config) any { return &c.Timeout }},
	{"studentBehavior.timeoutSeconds", func(c *Config) any { return &c.StudentBehavior.TimeoutSeconds }},
	{"container.memory", func(c *Config) any { return &c.Container.Memory }},
	{"container.cpus", func(c *Config) any { return &c.Container.CPUs }},
	{"container.pidsLimit", func(c *Config) any { return &c.Container.PidsLimit }},
	{"container.keepOnFailure", func(c *Config) any { return &c.Container.KeepOnFailure }},
	{"container.keepOnSuccess", func(c *Config) any { return &c.Container.KeepOnSuccess }},
	{"failOn", func(c *Config) any { return &c.FailOn }},
	{"observe", func(c *Config) any { return &c.Observe }},
}

// Untrusted returns file with every TrustedFields setting taken from trusted instead,
// and the names of the settings file tried to change (they differ from trusted). The
// other settings (tutorial behaviour, stall threshold, keepWork) stay as the file has
// them.
func Untrusted(trusted, file Config) (Config, []string) {
	out := file
	var ignored []string
	for _, f := range TrustedFields {
		want := reflect.ValueOf(f.ptr(&trusted)).Elem()
		got := reflect.ValueOf(f.ptr(&out)).Elem()
		if !reflect.DeepEqual(want.Interface(), got.Interface()) {
			ignored = append(ignored, f.Name)
		}
		got.Set(want)
	}
	return out, ignored
}
