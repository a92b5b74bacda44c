package config

import (
	"os"
	"path/filepath"
	"testing"
)

const typicalConfig = `{
  "$schema": "https://raw.githubusercontent.com/smile-loop/smile-loop/main/schema/smile.schema.json",
  "tutorial": "docs/getting-started.md",
  "llmProvider": "claude",
  "maxIterations": 8,
  "timeout": 1200,
  "containerImage": "smile-base:latest",
  "failOn": "medium",
  "studentBehavior": {
    "maxRetriesBeforeHelp": 2,
    "askOnAmbiguousInstruction": false,
    "timeoutSeconds": 120,
    "patienceLevel": "medium"
  },
  "container": {"keepOnFailure": true, "memory": "4g", "cpus": 2},
  "observe": {"enabled": false}
}`

// BenchmarkLoad: reading and validating a typical smile.json (spec 1.S1: < 100 ms).
func BenchmarkLoad(b *testing.B) {
	path := filepath.Join(b.TempDir(), FileName)
	if err := os.WriteFile(path, []byte(typicalConfig), 0o644); err != nil {
		b.Fatal(err)
	}
	if _, _, err := Load(path); err != nil { // first use compiles the schema once per process
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
}
