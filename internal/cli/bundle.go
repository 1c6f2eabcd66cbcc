package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/atomicfile"
)

const bundleExamples = `  # Build the bundle from the policies embedded in this binary
  tooleval bundle build -o tooleval.tar.gz --revision "$(git rev-parse --short HEAD)"

  # Build it from a policy directory
  tooleval bundle build --source policies -o bundle/tooleval.tar.gz

  # Build it with a deployment's configuration (tenants, agents, ...);
  # a configuration that tooleval check reports errors for is refused
  tooleval bundle build --config deploy/config.json -o tooleval.tar.gz
`

func runBundle(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "bundle", "bundle build [-o FILE] [--source DIR] [--revision REV] [--config FILE]", bundleExamples)
	output := fs.StringP("output", "o", "bundle.tar.gz", "tarball to write")
	source := fs.String("source", "", "bundle directory to build from (default: the embedded policies)")
	revision := fs.String("revision", "", "manifest revision (default: this build's revision for the embedded policies, \"dev\" with --source)")
	configPath := fs.String("config", "", "configuration overlay (JSON object of data.tooleval.config members)")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	config, err := readConfig(*configPath)
	if err != nil {
		return ExitUsage, err
	}
	if fs.NArg() != 1 || fs.Arg(0) != "build" {
		return ExitUsage, usagef("usage: tooleval bundle build [-o FILE]")
	}
	rev := *revision
	if rev == "" {
		rev = "dev"
		if *source == "" {
			rev = engine.BuildRevision()
		}
	}
	// A refused or failed build leaves an existing file as it was.
	err = atomicfile.Write(*output, 0o644, func(w io.Writer) error {
		return engine.WriteBundle(ctx, w, *source, rev, config)
	})
	if err != nil {
		return ExitUsage, err
	}
	fmt.Fprintf(s.Err, "wrote %s (revision %s)\n", *output, rev)
	return ExitOK, nil
}
