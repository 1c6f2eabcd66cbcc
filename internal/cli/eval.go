package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/engine/wire"
)

const evalExamples = `  # Decide an example batch and print a table
  tooleval eval -i inputs/tenant_layers.json --format table

  # The decision document exactly as OPA returns it
  tooleval eval -i inputs/tenant_layers.json --format json

  # Synthetic tool results for the refused calls, Anthropic style
  cat request.json | tooleval eval --format anthropic

  # The same as OpenAI Responses API input items (function_call_output)
  tooleval eval -i request.json --format openai-responses

  # Resolve path arguments on this host (symlinks followed) first
  tooleval eval -i request.json --resolve-paths

  # Why: every check of every call, the entry that matched and where it came from
  tooleval eval -i inputs/deny_and_groups.json --explain

  # Decide with a deployment's configuration (tenants, agents, preset, ...)
  tooleval eval -i inputs/configured/tenants/tenant_and_scopes.json --config inputs/configured/tenants/config.json

Exit status: 0 every call allowed, 1 a call refused or the request has
errors, 2 bad usage, unreadable input or an evaluation failure. With a
wire format, a refused call whose id is not a string has no valid tool
result: the command exits 2 and says which call.
`

var evalFormats = []string{"table", "json", string(wire.Gemini), string(wire.OpenAI), string(wire.OpenAIResponses), string(wire.Anthropic)}

func runEval(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "eval", "eval [-i FILE|-] [--bundle PATH] [--config FILE] [--resolve-paths] [--explain] [--format table|json|gemini|openai|openai-responses|anthropic]", evalExamples)
	input := fs.StringP("input", "i", "-", "input document, or - for standard input")
	policy := addPolicyFlags(fs)
	resolve := fs.Bool("resolve-paths", false, "resolve path arguments on this host first, following symbolic links")
	format := fs.StringP("format", "f", "", "output format: table, json, gemini, openai (Chat Completions), openai-responses or anthropic (default: table on a terminal, json otherwise)")
	explain := fs.Bool("explain", false, "trace every check of every call (data.tooleval.explain): a table per call, or the explained document with --format json")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	formats := evalFormats
	if *explain {
		formats = []string{"table", "json"}
	}
	out, value, e, err := prepare(ctx, s, fs.Args(), *format, formats, *input, policy)
	if err != nil {
		return ExitUsage, err
	}
	if *resolve {
		value = e.ResolvePaths(value)
	}
	decide := e.DecideValue
	if *explain {
		decide = e.ExplainValue
	}
	d, err := decide(ctx, value)
	if err != nil {
		return ExitUsage, policy.explain(err)
	}
	if err := writeDecision(s, out, d); err != nil {
		return ExitUsage, err
	}
	if d.AllAllowed() && len(d.Errors) == 0 {
		return ExitOK, nil
	}
	return ExitRefused, nil
}

// prepare does what eval and launch share: it refuses positional
// arguments, settles the output format, reads the input document and
// loads the engine.
func prepare(ctx context.Context, s Streams, args []string, format string, formats []string, input string, policy policyFlags) (string, ast.Value, *engine.Engine, error) {
	if len(args) > 0 {
		return "", nil, nil, usagef("unexpected argument %q (give the input with -i)", args[0])
	}
	out, err := outputFormat(format, s.Terminal, formats)
	if err != nil {
		return "", nil, nil, err
	}
	value, err := readValue(s, input)
	if err != nil {
		return "", nil, nil, err
	}
	e, err := policy.engine(ctx)
	if err != nil {
		return "", nil, nil, err
	}
	return out, value, e, nil
}

// outputFormat validates --format, defaulting to table on a terminal.
func outputFormat(format string, terminal bool, allowed []string) (string, error) {
	if format == "" {
		if terminal {
			return "table", nil
		}
		return "json", nil
	}
	for _, f := range allowed {
		if f == format {
			return f, nil
		}
	}
	return "", usagef("unknown format %q (want one of %v)", format, allowed)
}

// readValue reads a JSON document the way opa eval reads --input (see
// engine.DecodeInput).
func readValue(s Streams, path string) (ast.Value, error) {
	data, err := readInput(s, path)
	if err != nil {
		return nil, err
	}
	value, err := engine.DecodeInput(data)
	if err != nil {
		name := path
		if path == "-" {
			name = "standard input"
		}
		return nil, usagef("%s: %w (give one JSON document)", name, err)
	}
	return value, nil
}

func writeDecision(s Streams, format string, d *engine.Decision) error {
	switch format {
	case "json":
		return writeDocument(s, d)
	case "table":
		return writeDecisionTable(s.Out, d)
	}
	_, refused, err := wire.Split(wire.Format(format), d)
	if err != nil {
		return fmt.Errorf("%w\n(the decision itself: --format json)", err)
	}
	if refused == nil {
		refused = []wire.Result{}
	}
	return writeJSON(s, refused)
}

func writeDocument(s Streams, doc interface{ JSON() ([]byte, error) }) error {
	data, err := doc.JSON()
	if err != nil {
		return err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, data, "", "  "); err != nil {
		return fmt.Errorf("format output: %w", err)
	}
	pretty.WriteByte('\n')
	_, err = s.Out.Write(pretty.Bytes())
	return err
}

func writeJSON(s Streams, v any) error {
	enc := json.NewEncoder(s.Out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
