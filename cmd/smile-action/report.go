package main

import (
	"context"
	"errors"
)

// Placeholder until its issue lands.
func cmdReport(_ context.Context, _ *env, _ []string) error {
	return errors.New("report: not implemented yet")
}
