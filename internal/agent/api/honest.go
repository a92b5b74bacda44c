package api

import (
	"errors"
	"fmt"
)

// Tiers, as the configuration names them (llm.models.<tier>, llm.maxOutputTokens.<tier>).
const (
	tierFast     = "fast"
	tierStandard = "standard"
	tierPowerful = "powerful"
)

func modelField(tier string) string     { return "llm.models." + tierOr(tier) }
func maxTokensField(tier string) string { return "llm.maxOutputTokens." + tierOr(tier) }

func tierOr(tier string) string {
	if tier == "" {
		return tierStandard
	}
	return tier
}

// TruncatedError: the model's answer stopped at the output limit even with more room.
// Its text and tool calls were not used.
type TruncatedError struct {
	Model      string
	Limit      int    // the output limit of the last call
	StopReason string // the provider's word for it
	Field      string // the setting to raise
}

func (e *TruncatedError) Error() string {
	return fmt.Sprintf("the answer of %s was cut off at %d output tokens (%s) and was not used; raise %s", e.Model, e.Limit, e.StopReason, e.Field)
}

// ModelError: the provider does not know the configured model (misspelt or retired).
// It is the user's to fix, so it maps to exit code 2.
type ModelError struct {
	Model string
	Field string // the setting that chose it
	Err   error  // the provider's answer, quoted
}

func (e *ModelError) Error() string {
	return fmt.Sprintf("model %q is unknown to the provider or retired: %v; set %s to a current model (README: Models and prices)", e.Model, e.Err, e.Field)
}

func (e *ModelError) Unwrap() error { return e.Err }

// InvalidInput marks the error as the user's to fix.
func (e *ModelError) InvalidInput() bool { return true }

// explain turns a provider's "no such model" answer into a ModelError naming the
// setting to change; other errors pass unchanged.
func (c *conversation) explain(err error) error {
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.NotFound() {
		return &ModelError{Model: c.model, Field: modelField(c.tier), Err: err}
	}
	return err
}
