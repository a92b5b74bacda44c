package main

import (
	"context"
	"errors"
)

// Placeholder until its issue lands.
func cmdRun(_ context.Context, _ *env, _ []string) error {
	return errors.New("run: not implemented yet")
}
