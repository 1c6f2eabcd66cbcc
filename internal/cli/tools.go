package cli

import (
	"context"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
)

const toolsExamples = `  # What the agent of a request may call, tool by tool
  tooleval tools -i inputs/tenant_layers.json

  # The tools document exactly as OPA returns it (data.tooleval.tools)
  tooleval tools -i inputs/tenant_layers.json --format json

Calls and run in the input are ignored. Exit status: 0 the catalog has
no errors, 1 it has errors (every tool is then refused), 2 bad usage,
unreadable input or an evaluation failure.
`

func toolsCommand() documentCommand[*engine.Catalog] {
	return documentCommand[*engine.Catalog]{
		name:      "tools",
		synopsis:  "tools [-i FILE|-] [--bundle PATH] [--config FILE] [--format table|json]",
		inputHelp: "input document (agent, declared, layers, ...), or - for standard input",
		examples:  toolsExamples,
		evaluate: func(ctx context.Context, e *engine.Engine, input ast.Value) (*engine.Catalog, bool, error) {
			c, err := e.ToolsValue(ctx, input)
			return c, err == nil && len(c.Errors) == 0, err
		},
		table: writeCatalogTable,
	}
}
