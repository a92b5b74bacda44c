package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/smile-loop/smile-loop/internal/eval"
)

func TestEvalRefusesNoParallelism(t *testing.T) {
	code, _, stderr := runIn(t, t.TempDir(), "eval", "-j", "0", "corpus")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "-j 0: the number of tutorials run at once must be at least 1")
}

func TestEvalOutputDirsAreDistinct(t *testing.T) {
	cases := []eval.Case{{Name: "hello"}, {Name: "git"}, {Name: "hello"}, {Name: "hello"}}
	assert.Equal(t, []string{
		filepath.Join("out", "hello"), filepath.Join("out", "git"),
		filepath.Join("out", "hello-2"), filepath.Join("out", "hello-3"),
	}, outputDirs("out", cases))
}
