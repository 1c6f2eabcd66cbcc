package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/display"
	"github.com/tooleval/tooleval/internal/inputs"
	"github.com/tooleval/tooleval/internal/matrix"
)

const toolsExamples = `  # What the agent of a request may call, tool by tool
  tooleval tools -i inputs/tenant_layers.json

  # The tools document exactly as OPA returns it (data.tooleval.tools)
  tooleval tools -i inputs/tenant_layers.json --format json

  # Every declared tool against every check: pass, refused, exempt or -
  tooleval tools -i inputs/delegation_chain.json --matrix

Calls and run in the input are ignored. Several inputs (files,
directories, JSON Lines, OPA decision logs) may follow the flags instead
of -i. Exit status: 0 every declared tool allowed, outright or
conditionally (argument rules then decide each call: the table lists
them), 1 a tool refused or asked about by name, 3
the request or configuration has errors (every tool is then refused), 2
bad usage, unreadable input, a decision log event whose mask removed
more than call arguments (not replayable: named on standard error) or
an evaluation failure; with several inputs, the worst of them.
`

func toolsCommand() documentCommand[*engine.Catalog] {
	return documentCommand[*engine.Catalog]{
		name:      "tools",
		synopsis:  "tools [-i FILE|-] [FILE|DIR|-]... [--bundle PATH] [--config FILE] [--matrix] [--format table|json]",
		inputHelp: "input document (agent, declared, layers, ...), or - for standard input",
		examples:  toolsExamples,
		evaluate: func(ctx context.Context, e *engine.Engine, input ast.Value) (*engine.Catalog, int, error) {
			c, err := e.Tools(ctx, input)
			if err != nil {
				return c, ExitUsage, err
			}
			return c, catalogStatus(c), nil
		},
		entryPoints: append([]string{"tooleval/tools"}, inputs.DecisionEntryPoints...),
		table:       writeCatalogTable,
		alternative: &alternativeView{
			flag:  "matrix",
			usage: "print the declared tools × checks (exclusions, stages and layers, deny then allow lists) instead, each cell pass, refused, exempt or not applicable",
			view:  writeMatrix,
		},
	}
}

// writeMatrix prints the tools × checks matrix of the input: a table (a
// row per tool, a column per check) or JSON.
func writeMatrix(ctx context.Context, s Streams, e *engine.Engine, input ast.Value, format string) (int, error) {
	m, err := matrix.Build(ctx, e, input)
	if err != nil {
		return ExitUsage, err
	}
	if format == "json" {
		if err := writeJSON(s, m); err != nil {
			return ExitUsage, err
		}
	} else {
		writeMatrixTable(s.Out, m)
	}
	code := ExitOK
	for _, row := range m.Rows {
		if !row.Allowed {
			code = ExitRefused
		}
	}
	if len(m.Errors) > 0 {
		code = worse(code, ExitErrors)
	}
	return code, nil
}

// catalogStatus is the exit code of one catalog.
func catalogStatus(c *engine.Catalog) int {
	if len(c.Errors) > 0 {
		return ExitErrors
	}
	for _, t := range c.Tools {
		if !t.Allowed {
			return ExitRefused
		}
	}
	return ExitOK
}

// writeMatrixTable prints one row per tool and one column per check,
// numbered; the legend under it names the checks.
func writeMatrixTable(w io.Writer, m *matrix.Matrix) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	header := []string{"TOOL", "VERDICT"}
	for i := range m.Checks {
		header = append(header, strconv.Itoa(i+1))
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	symbols := map[string]string{matrix.Pass: "pass", matrix.Refused: "REFUSED", matrix.Ask: "ASK", matrix.Exempt: "exempt", matrix.NotApplicable: "-"}
	for _, row := range m.Rows {
		verdict := row.Verdict()
		cells := []string{display.Value(row.Tool), verdict}
		for _, c := range row.Cells {
			cells = append(cells, symbols[c])
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	_ = tw.Flush()
	var conditional []engine.ToolVerdict
	for _, row := range m.Rows {
		if row.Outcome == engine.OutcomeConditional {
			conditional = append(conditional, engine.ToolVerdict{Name: row.Tool, Allowed: row.Allowed, Outcome: row.Outcome, Rules: row.Rules})
		}
	}
	writeConditional(w, conditional)
	fmt.Fprintln(w)
	for i, check := range m.Checks {
		fmt.Fprintf(w, "%3d  %s\n", i+1, check)
	}
	writeProblems(w, "errors", m.Errors)
}
