package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
)

const checkExamples = `  # Check the bundle's configuration
  tooleval check

  # Check a deployment's configuration overlay, failing on warnings too
  tooleval check --config deploy/config.json --strict

  # Check an edited bundle and a set of input documents
  tooleval check --bundle policies inputs/*.json inputs/launch/*.json

Every problem is printed with its location. An error refuses every call
of the requests that read that part of the configuration; warnings (duplicate, shadowed, unreachable or ineffective entries, agent
tools that name no declared tool, confusable declared names) change no
decision. A document with fork_tools or subagent_type is checked as a
launch, any other as a decision input.
Exit status: 0 no error (and, with --strict, no warning), 1 otherwise,
2 bad usage.
`

func runCheck(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "check", "check [--bundle PATH] [--config FILE] [--strict] [FILE...]", checkExamples)
	policy := addPolicyFlags(fs)
	strict := fs.Bool("strict", false, "exit 1 on warnings too")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	e, err := policy.engine(ctx)
	if err != nil {
		return ExitUsage, err
	}
	r := &checkReport{s: s}

	// The configuration alone: an empty request reports only its problems.
	base, err := e.Check(ctx, nil)
	if err != nil {
		return ExitUsage, policy.explain(err)
	}
	r.report("configuration", "error", base.Errors, nil)
	r.report("configuration", "warning", base.Warnings, nil)

	for _, path := range fs.Args() {
		value, err := readValue(s, path)
		if err != nil {
			return ExitUsage, err
		}
		if err := r.checkDocument(ctx, e, base, path, value); err != nil {
			return ExitUsage, policy.explain(err)
		}
	}
	if r.errors > 0 || (*strict && r.warnings > 0) {
		fmt.Fprintf(s.Err, "%d error(s), %d warning(s)\n", r.errors, r.warnings)
		return ExitRefused, nil
	}
	if r.warnings > 0 {
		fmt.Fprintf(s.Out, "no errors, %d warning(s)\n", r.warnings)
		return ExitOK, nil
	}
	fmt.Fprintln(s.Out, "no problems")
	return ExitOK, nil
}

// checkReport prints problems and counts them.
type checkReport struct {
	s        Streams
	errors   int
	warnings int
}

// report prints the problems of list that seen does not hold (those were
// reported for the configuration already).
func (r *checkReport) report(where, severity string, list, seen []engine.Problem) {
	known := map[string]bool{}
	for _, p := range seen {
		known[problemKey(p)] = true
	}
	for _, p := range list {
		if known[problemKey(p)] {
			continue
		}
		if severity == "error" {
			r.errors++
		} else {
			r.warnings++
		}
		fmt.Fprintf(r.s.Out, "%s: %s: %s: %s%s\n", where, severity, p.Code(), p.Message(), location(p))
	}
}

func (r *checkReport) checkDocument(ctx context.Context, e *engine.Engine, base *engine.Check, path string, value ast.Value) error {
	if isLaunch(value) {
		l, err := e.LaunchValue(ctx, value)
		if err != nil {
			return err
		}
		r.report(path, "error", l.Errors, base.Errors)
		return nil
	}
	c, err := e.CheckValue(ctx, value)
	if err != nil {
		return err
	}
	r.report(path, "error", c.Errors, base.Errors)
	r.report(path, "warning", c.Warnings, base.Warnings)
	if t := c.AgentTools; t != nil {
		fmt.Fprintf(r.s.Out, "%s: agent %q tools: valid %q, invalid %q\n", path, t.Agent, t.Valid, t.Invalid)
	}
	d, err := e.DecideValue(ctx, value)
	if err != nil {
		return err
	}
	for i, call := range d.Decisions {
		if call.Reason == "invalid_input" {
			r.errors++
			fmt.Fprintf(r.s.Out, "%s: error: calls[%d]: invalid_input: %s\n", path, i, call.Message)
		}
	}
	return nil
}

func problemKey(p engine.Problem) string {
	data, _ := json.Marshal(p)
	return string(data)
}

func isLaunch(v ast.Value) bool {
	obj, ok := v.(ast.Object)
	if !ok {
		return false
	}
	return obj.Get(ast.StringTerm("fork_tools")) != nil || obj.Get(ast.StringTerm("subagent_type")) != nil
}
