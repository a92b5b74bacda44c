package config

import (
	"errors"
	"testing"
)

// FuzzParse: no input panics; every error is the user's to fix; a file Parse accepts is
// a configuration Validate accepts.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"maxIterations": 3}`, `{"llmProvider": "replay"}`, `{"maxIteration": 1, "studentBehaviour": {"patience": 2}}`,
		`{"container": {"memory": "512m", "cpus": 0.5}}`, `{"timeout": 1e400}`, `[1,2]`, `{"a":`, "\xef\xbb\xbf{}", `null`,
		`{"studentBehavior": {"timeoutSeconds": "60"}}`, `{"observe": {"port": 70000}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, _, err := Parse(FileName, data)
		if err != nil {
			var in interface{ InvalidInput() bool }
			if !errors.As(err, &in) || !in.InvalidInput() {
				t.Fatalf("error %T is not InvalidInput: %v", err, err)
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if cfg.LLMProvider == ProviderReplay {
			return // Validate also checks the scenario file on disk
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("Parse accepted %q but Validate rejects it: %v", data, err)
		}
	})
}
