package config

import (
	"reflect"
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
