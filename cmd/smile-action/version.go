package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func cmdVersion(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "version")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	v := version
	if info, ok := debug.ReadBuildInfo(); ok && v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	_, err := fmt.Fprintf(e.stdout, "smile-action %s\n", v)
	return err
}
