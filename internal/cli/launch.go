package cli

import (
	"context"
	"io"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
)

const launchExamples = `  # Validate a fork launch and print its allowlist and notice
  tooleval launch -i inputs/launch/fork_with_tools.json

  # The launch document exactly as OPA returns it
  tooleval launch -i inputs/launch/fork_with_tools.json --format json

Exit status: 0 valid, 3 invalid (the launch has errors; it is deny-all),
2 bad usage, unreadable input, a decision log event whose mask removed
what a launch reads (not replayable: named on standard error) or an
evaluation failure.
`

func launchCommand() documentCommand[*engine.Launch] {
	return documentCommand[*engine.Launch]{
		name:      "launch",
		synopsis:  "launch [-i FILE|-] [FILE|DIR|-]... [--bundle PATH] [--config FILE] [--format table|json]",
		inputHelp: "launch document, or - for standard input",
		examples:  launchExamples,
		evaluate: func(ctx context.Context, e *engine.Engine, input ast.Value) (*engine.Launch, int, error) {
			l, err := e.Launch(ctx, input)
			switch {
			case err != nil:
				return l, ExitUsage, err
			case !l.Valid:
				return l, ExitErrors, nil
			}
			return l, ExitOK, nil
		},
		entryPoints: []string{"tooleval/launch"},
		table: func(w io.Writer, l *engine.Launch) error {
			writeLaunchTable(w, l)
			return nil
		},
	}
}
