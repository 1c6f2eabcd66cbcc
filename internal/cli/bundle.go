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

  # Configured and signed in one step, for servers that verify bundles
  tooleval bundle build --config deploy/config.json --signing-key signing.pem --signing-key-id tooleval -o tooleval.tar.gz
`

func runBundle(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "bundle", "bundle build [-o FILE] [--source DIR] [--revision REV] [--config FILE] [--signing-key KEY [--signing-key-id ID] [--signing-alg ALG]]", bundleExamples)
	output := fs.StringP("output", "o", "bundle.tar.gz", "tarball to write")
	source := fs.String("source", "", "bundle directory to build from (default: the embedded policies)")
	revision := fs.String("revision", "", "manifest revision (default: this build's revision for the embedded policies, \"dev\" with --source)")
	configPath := fs.String("config", "", "configuration overlay (JSON object of data.tooleval.config members)")
	signingKey := fs.String("signing-key", "", "sign the bundle (.signatures.json), as opa build --signing-key: a PEM private key file (RSA, ECDSA) or the HMAC secret")
	signingKeyID := fs.String("signing-key-id", "default", "the key id servers verify the signature with (bundles.NAME.signing.keyid)")
	signingAlg := fs.String("signing-alg", "RS256", "the signing algorithm")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	config, err := readConfig(*configPath, s.In)
	if err != nil {
		return ExitUsage, err
	}
	if fs.NArg() != 1 || fs.Arg(0) != "build" {
		if fs.NArg() == 1 {
			return ExitUsage, usagef("unknown subcommand %q%s (usage: tooleval bundle build [-o FILE])", fs.Arg(0), suggestion(fs.Arg(0), []string{"build"}))
		}
		return ExitUsage, usagef("usage: tooleval bundle build [-o FILE]")
	}
	rev := *revision
	if rev == "" {
		rev = "dev"
		if *source == "" {
			rev = engine.BuildRevision()
		}
	}
	var opts []engine.BundleOption
	if *signingKey != "" {
		opts = append(opts, engine.WithSigningKey(engine.SigningKey{ID: *signingKeyID, Key: *signingKey, Algorithm: *signingAlg}))
	}
	// A refused or failed build leaves an existing file as it was.
	err = atomicfile.Write(*output, 0o644, func(w io.Writer) error {
		return engine.WriteBundle(ctx, w, *source, rev, config, opts...)
	})
	if err != nil {
		return ExitUsage, err
	}
	fmt.Fprintf(s.Err, "wrote %s (revision %s)\n", *output, rev)
	return ExitOK, nil
}
