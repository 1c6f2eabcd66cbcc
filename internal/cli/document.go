package cli

import (
	"context"
	"io"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
)

// documentCommand is a command that evaluates one entry point for one
// input document and prints the result as a table or as the document.
type documentCommand[T interface{ JSON() ([]byte, error) }] struct {
	name, synopsis, inputHelp, examples string
	// evaluate returns the document and whether it is a success (exit 0).
	evaluate func(ctx context.Context, e *engine.Engine, input ast.Value) (T, bool, error)
	table    func(w io.Writer, doc T) error
	// alternative, when set, adds a flag that asks for another view of
	// the input; view prints it and returns the exit code.
	alternative *alternativeView
}

// alternativeView is a boolean flag of a document command and what it
// prints instead of the document.
type alternativeView struct {
	flag, usage string
	view        func(ctx context.Context, s Streams, e *engine.Engine, input ast.Value, format string) (int, error)
}

func (c documentCommand[T]) run(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, c.name, c.synopsis, c.examples)
	input := fs.StringP("input", "i", "-", c.inputHelp)
	policy := addPolicyFlags(fs)
	format := fs.StringP("format", "f", "", "output format: table or json (default: table on a terminal, json otherwise)")
	var alternative *bool
	if c.alternative != nil {
		alternative = fs.Bool(c.alternative.flag, false, c.alternative.usage)
	}
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	out, value, e, err := prepare(ctx, s, fs.Args(), *format, []string{"table", "json"}, *input, policy)
	if err != nil {
		return ExitUsage, err
	}
	if alternative != nil && *alternative {
		code, err := c.alternative.view(ctx, s, e, value, out)
		return code, policy.explain(err)
	}
	doc, ok, err := c.evaluate(ctx, e, value)
	if err != nil {
		return ExitUsage, policy.explain(err)
	}
	if out == "json" {
		err = writeDocument(s, doc)
	} else {
		err = c.table(s.Out, doc)
	}
	if err != nil {
		return ExitUsage, err
	}
	if ok {
		return ExitOK, nil
	}
	return ExitRefused, nil
}
