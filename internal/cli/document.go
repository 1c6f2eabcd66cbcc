package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/display"
)

// documentCommand is a command that evaluates one entry point for one
// input document and prints the result as a table or as the document.
type documentCommand[T interface{ JSON() ([]byte, error) }] struct {
	name, synopsis, inputHelp, examples string
	// evaluate returns the document and its exit code (ExitOK,
	// ExitRefused or ExitErrors).
	evaluate func(ctx context.Context, e *engine.Engine, input ast.Value) (T, int, error)
	// entryPoints are the decision log paths whose inputs it reads.
	entryPoints []string
	table       func(w io.Writer, doc T) error
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
	policy := addPolicyFlags(fs, s.In)
	format := fs.StringP("format", "f", "", "output format: table or json (default: table on a terminal, json otherwise)")
	var alternative *bool
	if c.alternative != nil {
		alternative = fs.Bool(c.alternative.flag, false, c.alternative.usage)
	}
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	out, docs, e, err := prepare(ctx, s, fs, *format, []string{"table", "json"}, *input, policy, c.entryPoints...)
	if err != nil {
		return ExitUsage, err
	}
	code := ExitOK
	w := newDocumentWriter(s, out, len(docs))
	for _, d := range docs {
		if masked := maskedBeyondArguments(d.masked); masked != "" {
			fmt.Fprintf(s.Err, "tooleval: %s: not replayable: the log masked %s, which the %s document reads; not re-evaluated\n", d.source, masked, c.name)
			code = worse(code, ExitUsage)
			continue
		}
		if alternative != nil && *alternative {
			if len(docs) > 1 {
				fmt.Fprintf(s.Out, "== %s\n", display.Value(d.source))
			}
			status, err := c.alternative.view(ctx, s, e, d.value, out)
			if err != nil {
				return ExitUsage, fmt.Errorf("%s: %w", d.source, policy.explain(err))
			}
			code = worse(code, status)
			continue
		}
		doc, status, err := c.evaluate(ctx, e, d.value)
		if err != nil {
			return ExitUsage, fmt.Errorf("%s: %w", d.source, policy.explain(err))
		}
		err = w.write(d.source, doc, func() error {
			if out == "json" {
				return writeDocument(s, doc)
			}
			return c.table(s.Out, doc)
		})
		if err != nil {
			return ExitUsage, err
		}
		code = worse(code, status)
	}
	return code, nil
}

// maskedBeyondArguments lists the pointers a decision log's mask removed
// other than call arguments, which neither the catalog nor a launch
// reads: what makes a document read from the log not replayable by
// these commands.
func maskedBeyondArguments(masked []string) string {
	var out []string
	for _, p := range masked {
		if rest, ok := strings.CutPrefix(p, "/input/calls/"); ok {
			if _, member, found := strings.Cut(rest, "/"); found && (member == "args" || strings.HasPrefix(member, "args/")) {
				continue
			}
		}
		out = append(out, p)
	}
	return strings.Join(out, ", ")
}
