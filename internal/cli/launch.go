package cli

import (
	"context"
)

const launchExamples = `  # Validate a fork launch and print its allowlist and notice
  tooleval launch -i inputs/launch/fork_with_tools.json

  # The launch document exactly as OPA returns it
  tooleval launch -i inputs/launch/fork_with_tools.json --format json

Exit status: 0 valid, 1 invalid, 2 bad usage, unreadable input or an
evaluation failure.
`

func runLaunch(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "launch", "launch [-i FILE|-] [--bundle PATH] [--config FILE] [--format table|json]", launchExamples)
	input := fs.StringP("input", "i", "-", "launch document, or - for standard input")
	policy := addPolicyFlags(fs)
	format := fs.StringP("format", "f", "", "output format: table or json (default: table on a terminal, json otherwise)")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	out, value, e, err := prepare(ctx, s, fs.Args(), *format, []string{"table", "json"}, *input, policy)
	if err != nil {
		return ExitUsage, err
	}
	l, err := e.LaunchValue(ctx, value)
	if err != nil {
		return ExitUsage, policy.explain(err)
	}
	if out == "json" {
		if err := writeDocument(s, l); err != nil {
			return ExitUsage, err
		}
	} else {
		writeLaunchTable(s.Out, l)
	}
	if l.Valid {
		return ExitOK, nil
	}
	return ExitRefused, nil
}
