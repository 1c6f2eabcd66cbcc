package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/display"
	"github.com/tooleval/tooleval/internal/verify"
)

const verifyExamples = `  # Prove that a deployment's configuration keeps the built-in promises
  tooleval verify --config deploy/config.json

  # With the runtime's catalog and calls and invariants of one's own, as JSON for CI
  tooleval verify --config inputs/verify/explore_edits.json --tools request.json --invariants inputs/verify/invariants --format json

verify enumerates every request the configuration can produce (each
agent definition as main agent, sub-agent and fork at every depth up to
the cap + 1, the agent modes the policy reads, each tenant, scope and
MCP user) against every tool name the preset, the configuration and
--tools know, and checks invariants on the policy's verdicts:
floor.holds, spawn.bounded, deny.wins, tenant.within_plan, delegation.narrows,
delegation.ask_kept, config.no_latent_error, and each id of the
violation rules in --invariants (package tooleval.invariants). A
violated invariant is shown with its smallest counterexample and that
call's explain trace. See docs/verify.md.
--tools takes a decision input (its declared tools, its calls, and the
layers, MCP services or handoff a runtime sends, put in every request)
or a JSON array of declarations.
Exit status: 0 every invariant holds, 1 one is violated, 3 the
configuration (run tooleval check) or the invariants have errors, 2 bad
usage or --timeout passed.
`

func runVerify(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "verify", "verify [--config FILE] [--bundle PATH] [--tools FILE] [--invariants DIR] [--format table|json] [--workers N] [--exhaustive] [--timeout DURATION]", verifyExamples)
	policy := addPolicyFlags(fs, s.In)
	toolsFile := fs.String("tools", "", "a decision input whose declared tools join the enumeration, whose calls are decided for every subject and whose other members (layers, mcp_services, handoff) go into every request; or a JSON array of declarations")
	invariants := fs.String("invariants", "", "a directory of Rego invariants (package tooleval.invariants, rule violation)")
	format := fs.StringP("format", "f", "", "output format: table or json (default: table on a terminal, else json)")
	workers := fs.Int("workers", 0, "subjects decided at once (default: one per CPU)")
	exhaustive := fs.Bool("exhaustive", false, "enumerate every subset of config.scopes, not each scope alone")
	// verify's --timeout bounds the whole verification, not each
	// evaluation: the size of verify's evaluations is its own choice.
	timeout := fs.Lookup("timeout")
	timeout.Usage, timeout.DefValue = "how long the whole verification may run (0: no limit)", "0s"
	if err := timeout.Value.Set("0s"); err != nil {
		return ExitUsage, err
	}
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	if fs.NArg() > 0 {
		return ExitUsage, usagef("verify takes no arguments (got %q): the configuration is --config, the tools --tools", fs.Args())
	}
	out, err := outputFormat(*format, s.Terminal, []string{"table", "json"})
	if err != nil {
		return ExitUsage, err
	}
	opts := verify.Options{Workers: *workers, Exhaustive: *exhaustive, Timeout: *policy.timeout}
	if s.ErrTerminal {
		opts.Progress = s.Err
	}
	if *toolsFile != "" {
		if opts.Tools, err = verify.ReadTools(*toolsFile); err != nil {
			return ExitUsage, usagef("%w", err)
		}
	}
	if *invariants != "" {
		opts.Invariants, err = verify.LoadInvariants(ctx, *invariants)
		if errors.Is(err, verify.ErrInvariants) {
			return verifyErrors(s, out, &verify.Report{Errors: verify.InvariantProblems(err)}, "errors in --invariants", err)
		}
		if err != nil {
			return ExitUsage, usagef("%w", err)
		}
	}
	e, err := policy.engine(ctx)
	if err != nil {
		return ExitUsage, err
	}
	report, err := verify.Run(ctx, e, opts)
	if errors.Is(err, verify.ErrConfig) {
		return verifyErrors(s, out, report, "configuration errors", err)
	}
	if errors.Is(err, verify.ErrTimeout) {
		return ExitUsage, fmt.Errorf("%w\n(raise --timeout, or --timeout 0 for no limit)", err)
	}
	if err != nil {
		return ExitUsage, err
	}
	if out == "json" {
		if err := writeJSON(s, report); err != nil {
			return ExitUsage, err
		}
	} else if err := writeVerifyTable(s.Out, report); err != nil {
		return ExitUsage, err
	}
	if !report.Held() {
		return ExitRefused, nil
	}
	return ExitOK, nil
}

// verifyErrors reports errors that stop a verification before anything
// is enumerated (exit 3): the report with them as JSON on standard
// output, and each on standard error.
func verifyErrors(s Streams, out string, report *verify.Report, title string, err error) (int, error) {
	if out == "json" {
		if err := writeJSON(s, report); err != nil {
			return ExitUsage, err
		}
	}
	writeProblems(s.Err, title, report.Errors)
	fmt.Fprintf(s.Err, "tooleval verify: %v\n", err)
	return ExitErrors, nil
}

func writeVerifyTable(w io.Writer, r *verify.Report) error {
	fmt.Fprintf(w, "%d subjects × %d tools", r.Subjects, r.Tools)
	if r.Calls > 0 {
		fmt.Fprintf(w, " and %d calls", r.Calls)
	}
	fmt.Fprintf(w, "; %d delegations compared\n\n", r.Pairs)
	for _, inv := range r.Invariants {
		status := "held"
		if !inv.Held {
			status = fmt.Sprintf("VIOLATED (%d)", inv.Violations)
		}
		fmt.Fprintf(w, "%-16s %s\n  %s\n", status, inv.ID, inv.Description)
	}
	for _, inv := range r.Invariants {
		c := inv.Counterexample
		if c == nil {
			continue
		}
		fmt.Fprintf(w, "\n%s: %s\n", inv.ID, display.Escape(c.Message))
		if c.Parent != nil {
			fmt.Fprintf(w, "  parent:  %s (%s)\n", c.Parent, dash(c.ParentOutcome))
		}
		fmt.Fprintf(w, "  subject: %s\n", c.Subject)
		if c.Tool != "" {
			verdict := c.Outcome
			if c.Reason != "" {
				verdict += " (" + c.Reason + " by " + c.Layer + ")"
			}
			fmt.Fprintf(w, "  tool:    %s: %s\n", display.Escape(c.Tool), verdict)
		}
		if c.Trace != nil {
			call := engine.CallDecision{ID: "counterexample", Name: c.Tool, Outcome: engine.Outcome(c.Outcome), Allowed: c.Outcome == string(engine.OutcomeAllow), Reason: c.Reason, Layer: c.Layer, Trace: c.Trace}
			if err := writeTrace(w, call); err != nil {
				return err
			}
		}
	}
	return nil
}
