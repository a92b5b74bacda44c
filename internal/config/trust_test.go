package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUntrustedKeepsOnlyHarmlessSettings(t *testing.T) {
	t.Parallel()
	trusted := Default()
	file := Default()
	file.LLM.BaseURL = "http://attacker.example"
	file.LLMProvider = ProviderReplay
	file.Scenario = "pass.json"
	file.Container.Memory, file.Container.PidsLimit = "64g", 1<<20
	file.Container.KeepOnFailure = true // the default: not a change
	file.FailOn = "never"
	file.Timeout = 1 << 30
	file.StallThreshold = 7 // harmless: kept
	file.StudentBehavior.PatienceLevel = "high"
	file.LLM.Budget.MaxUSD = 1e6

	got, ignored := Untrusted(trusted, file)
	assert.Equal(t, []string{"llmProvider", "llm.baseURL", "llm.budget", "scenario", "timeout", "container.memory", "container.pidsLimit", "failOn"}, ignored)
	for _, f := range TrustedFields {
		assert.True(t, reflect.DeepEqual(reflect.ValueOf(f.ptr(&trusted)).Elem().Interface(), reflect.ValueOf(f.ptr(&got)).Elem().Interface()), f.Name)
	}
	assert.Equal(t, 7, got.StallThreshold)
	assert.Equal(t, "high", got.StudentBehavior.PatienceLevel)

	same, none := Untrusted(trusted, trusted)
	assert.Empty(t, none)
	assert.Equal(t, trusted, same)
}

// harmlessFields may come from a pull request's smile.json: they shape the tutorial's
// run, not what it may reach, spend or decide.
var harmlessFields = []string{"$schema", "tutorial", "outputDir", "setup", "stallThreshold",
	"studentBehavior.maxRetriesBeforeHelp", "studentBehavior.askOnMissingDependency",
	"studentBehavior.askOnAmbiguousInstruction", "studentBehavior.askOnCommandFailure",
	"studentBehavior.askOnTimeout", "studentBehavior.patienceLevel", "container.keepWork",
	"llm.maxConsecutiveErrors"}

// Every setting is classified: a field added to Config must be named trusted (or
// harmless here) before a pull request can set it.
func TestEverySettingIsClassified(t *testing.T) {
	t.Parallel()
	known := map[string]bool{}
	for _, f := range TrustedFields {
		known[f.Name] = true
	}
	for _, f := range harmlessFields {
		known[f] = true
	}
	var walk func(prefix string, typ reflect.Type)
	walk = func(prefix string, typ reflect.Type) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if prefix != "" {
				name = prefix + "." + name
			}
			if known[name] {
				continue
			}
			if f.Type.Kind() == reflect.Struct {
				walk(name, f.Type)
				continue
			}
			t.Errorf("config setting %s is neither in TrustedFields nor harmless: decide whether a pull request may set it", name)
		}
	}
	walk("", reflect.TypeOf(Config{}))
}
