package main

import (
	"context"
	"fmt"

	"github.com/smile-loop/smile-loop/internal/config"
	reportpkg "github.com/smile-loop/smile-loop/internal/report"
)

// cmdSchema prints a JSON Schema: config (smile.json) or report (smile-report.json).
func cmdSchema(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "schema")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: smile-action schema config|report\n\nPrints the JSON Schema of smile.json (config) or of smile-report.json (report).")
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{fmt.Errorf("schema needs one argument, config or report")}
	}
	var (
		out []byte
		err error
	)
	switch fs.Arg(0) {
	case "config":
		out, err = config.SchemaJSON()
	case "report":
		out, err = reportpkg.JSONSchema()
	default:
		return usageError{fmt.Errorf("unknown schema %q: use config or report", fs.Arg(0))}
	}
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(out)
	return err
}
