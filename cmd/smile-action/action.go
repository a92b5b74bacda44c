package main

import (
	"context"
	"errors"
)

// Placeholder until its issue lands.
func cmdAction(_ context.Context, _ *env, _ []string) error {
	return errors.New("action: not implemented yet")
}
