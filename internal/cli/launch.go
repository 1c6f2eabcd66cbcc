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

Exit status: 0 valid, 1 invalid, 2 bad usage, unreadable input or an
evaluation failure.
`

func launchCommand() documentCommand[*engine.Launch] {
	return documentCommand[*engine.Launch]{
		name:      "launch",
		synopsis:  "launch [-i FILE|-] [--bundle PATH] [--config FILE] [--format table|json]",
		inputHelp: "launch document, or - for standard input",
		examples:  launchExamples,
		evaluate: func(ctx context.Context, e *engine.Engine, input ast.Value) (*engine.Launch, bool, error) {
			l, err := e.LaunchValue(ctx, input)
			return l, err == nil && l.Valid, err
		},
		table: func(w io.Writer, l *engine.Launch) error {
			writeLaunchTable(w, l)
			return nil
		},
	}
}
