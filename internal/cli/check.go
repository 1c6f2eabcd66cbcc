package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
)

const checkExamples = `  # Check the bundle's configuration
  tooleval check

  # Check an edited bundle and a set of input documents
  tooleval check --bundle policies inputs/*.json inputs/launch/*.json

Every problem is printed with its location. A document with fork_tools or
subagent_type is checked as a launch, any other as a decision input.
Exit status: 0 no problem, 1 a problem found, 2 bad usage.
`

func runCheck(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "check", "check [--bundle PATH] [FILE...]", checkExamples)
	bundlePath := fs.String("bundle", "", "bundle directory or tarball (default: the embedded bundle)")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	e, err := engine.New(ctx, engine.WithBundle(*bundlePath))
	if err != nil {
		return ExitUsage, err
	}
	problems := 0
	report := func(where string, list []engine.Problem) {
		for _, p := range list {
			problems++
			fmt.Fprintf(s.Out, "%s: %s: %s%s\n", where, p.Code(), p.Message(), location(p))
		}
	}

	// The configuration alone: an empty request reports only its errors.
	d, err := e.DecideValue(ctx, ast.NewObject())
	if err != nil {
		return ExitUsage, err
	}
	report("configuration", d.Errors)

	for _, path := range fs.Args() {
		value, err := readValue(s, path)
		if err != nil {
			return ExitUsage, err
		}
		if isLaunch(value) {
			l, err := e.LaunchValue(ctx, value)
			if err != nil {
				return ExitUsage, err
			}
			report(path, l.Errors)
			continue
		}
		d, err := e.DecideValue(ctx, value)
		if err != nil {
			return ExitUsage, err
		}
		report(path, withoutConfigErrors(d.Errors))
		for i, c := range d.Decisions {
			if c.Reason == "invalid_input" {
				problems++
				fmt.Fprintf(s.Out, "%s: calls[%d]: invalid_input: %s\n", path, i, c.Message)
			}
		}
	}
	if problems > 0 {
		fmt.Fprintf(s.Err, "%d problem(s)\n", problems)
		return ExitRefused, nil
	}
	fmt.Fprintln(s.Out, "no problems")
	return ExitOK, nil
}

// withoutConfigErrors leaves out configuration errors, which are
// reported once for the bundle rather than once per document.
func withoutConfigErrors(errs []engine.Problem) []engine.Problem {
	var out []engine.Problem
	for _, p := range errs {
		if field, _ := p["field"].(string); strings.HasPrefix(field, "config.") {
			continue
		}
		out = append(out, p)
	}
	return out
}

func isLaunch(v ast.Value) bool {
	obj, ok := v.(ast.Object)
	if !ok {
		return false
	}
	return obj.Get(ast.StringTerm("fork_tools")) != nil || obj.Get(ast.StringTerm("subagent_type")) != nil
}
