package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	opaversion "github.com/open-policy-agent/opa/v1/version"

	"github.com/tooleval/tooleval/engine"
)

func runVersion(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "version", "version", "  tooleval version\n")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	version := "devel"
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		version = info.Main.Version
	}
	e, err := engine.New(ctx)
	if err != nil {
		return ExitUsage, err
	}
	fmt.Fprintf(s.Out, "tooleval %s\nbundle revision %s\nopa %s\n%s\n", version, e.Revision(), opaversion.Version, runtime.Version())
	return ExitOK, nil
}
