package main

import (
	"context"
	"errors"
)

// Placeholder until its issue lands.
func cmdValidate(_ context.Context, _ *env, _ []string) error {
	return errors.New("validate: not implemented yet")
}
