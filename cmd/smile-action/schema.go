package main

import (
	"context"
	"errors"
)

// Placeholder until its issue lands.
func cmdSchema(_ context.Context, _ *env, _ []string) error {
	return errors.New("schema: not implemented yet")
}
