package main

import (
	"context"
	"errors"
	"fmt"
)

// Exit codes (DESIGN.md contract 1).
const (
	exitOK           = 0 // the tutorial passed
	exitFailed       = 1 // gaps at or above the fail threshold, or the loop did not complete
	exitInvalidInput = 2 // flags, config, tutorial
	exitEnvironment  = 3 // Docker, image, LLM CLI or credentials
	exitInternal     = 4
	// exitInconclusive: no gap was found but too little of the tutorial could be
	// exercised to call it a pass (nothing ran, or most steps were skipped or could not
	// be verified); the report's Coverage section says why.
	exitInconclusive = 5
)

// Internal packages mark their errors with these methods; cmd only looks at the marks.
type (
	invalidInputError interface{ InvalidInput() bool }
	environmentError  interface{ EnvironmentUnavailable() bool }
)

// errFailed: the run worked and wrote its report, but the tutorial did not pass. The
// subcommand has already said why.
var errFailed = errors.New("tutorial did not pass")

// errInconclusive: the run found no gap but could not exercise enough of the tutorial
// to say it works. The subcommand has already said why.
var errInconclusive = errors.New("tutorial run inconclusive")

// errHelp: -h was asked for; the flag package printed the usage.
var errHelp = errors.New("help requested")

type usageError struct{ err error }

func (u usageError) Error() string      { return u.err.Error() }
func (u usageError) Unwrap() error      { return u.err }
func (u usageError) InvalidInput() bool { return true }

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	var (
		in  invalidInputError
		env environmentError
	)
	switch {
	case err == nil, errors.Is(err, errHelp):
		return exitOK
	case errors.Is(err, errFailed):
		return exitFailed
	case errors.Is(err, errInconclusive):
		return exitInconclusive
	case errors.As(err, &in) && in.InvalidInput():
		return exitInvalidInput
	case errors.As(err, &env) && env.EnvironmentUnavailable():
		return exitEnvironment
	case errors.Is(err, context.Canceled):
		return exitFailed
	default:
		return exitInternal
	}
}

// report prints err (unless the subcommand already explained it) and returns its exit code.
func report(e *env, err error) int {
	code := exitCode(err)
	if err != nil && !errors.Is(err, errFailed) && !errors.Is(err, errInconclusive) && !errors.Is(err, errHelp) {
		fmt.Fprintf(e.stderr, "smile-action: %v\n", err)
	}
	return code
}
