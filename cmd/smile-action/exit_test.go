package main

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/stretchr/testify/assert"
)

func TestExitCodes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		err  error
		want int
	}{
		{"passed", nil, exitOK},
		{"gaps", errFailed, exitFailed},
		{"inconclusive has its own code", errInconclusive, exitInconclusive},
		{"wrapped inconclusive", fmt.Errorf("run: %w", errInconclusive), exitInconclusive},
		{"invalid input", usageError{errors.New("bad flag")}, exitInvalidInput},
		{"setup failed is the environment", &loop.SetupError{Index: 1, Command: "x", ExitCode: 1}, exitEnvironment},
		{"cancelled", context.Canceled, exitFailed},
		{"anything else", errors.New("boom"), exitInternal},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, exitCode(tt.err))
		})
	}
}
