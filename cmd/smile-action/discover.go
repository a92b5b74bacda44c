package main

import (
	"context"
	"errors"
)

// Placeholder until its issue lands.
func cmdDiscover(_ context.Context, _ *env, _ []string) error {
	return errors.New("discover: not implemented yet")
}
