// Command smile-wrapper runs inside the learner container and drives the provider's LLM
// CLI for the orchestrator (see package wrapper). Build it static: CGO_ENABLED=0.
//
// Usage: smile-wrapper student|mentor|print-shim
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/smile-loop/smile-loop/wrappers/wrapper"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(wrapper.Run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}
