package cli

import (
	"context"
)

const toolsExamples = `  # What the agent of a request may call, tool by tool
  tooleval tools -i inputs/tenant_layers.json

  # The tools document exactly as OPA returns it (data.tooleval.tools)
  tooleval tools -i inputs/tenant_layers.json --format json

  # The catalog under a deployment's configuration
  tooleval tools -i inputs/configured/tenant_plan.json --config inputs/configured/config.json

Calls and run in the input are ignored. Exit status: 0 the catalog has
no errors, 1 it has errors (every tool is then refused), 2 bad usage,
unreadable input or an evaluation failure.
`

func runTools(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "tools", "tools [-i FILE|-] [--bundle PATH] [--config FILE] [--format table|json]", toolsExamples)
	input := fs.StringP("input", "i", "-", "input document (agent, declared, layers, ...), or - for standard input")
	policy := addPolicyFlags(fs)
	format := fs.StringP("format", "f", "", "output format: table or json (default: table on a terminal, json otherwise)")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	out, value, e, err := prepare(ctx, s, fs.Args(), *format, []string{"table", "json"}, *input, policy)
	if err != nil {
		return ExitUsage, err
	}
	c, err := e.ToolsValue(ctx, value)
	if err != nil {
		return ExitUsage, policy.explain(err)
	}
	if out == "json" {
		if err := writeDocument(s, c); err != nil {
			return ExitUsage, err
		}
	} else if err := writeCatalogTable(s.Out, c); err != nil {
		return ExitUsage, err
	}
	if len(c.Errors) == 0 {
		return ExitOK, nil
	}
	return ExitRefused, nil
}
