package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/engine/wire"
	"github.com/tooleval/tooleval/internal/diff"
	"github.com/tooleval/tooleval/internal/display"
	"github.com/tooleval/tooleval/internal/inputs"
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

  # Decide every example, one table each
  tooleval eval inputs/*.json --format table

  # Decide with a deployment's configuration (tenants, agents, preset, ...)
  tooleval eval -i inputs/configured/tenants/tenant_and_scopes.json --config inputs/configured/tenants/config.json

Several inputs (files, directories of .json and .jsonl files, JSON Lines,
OPA decision logs, - for standard input: one document or JSON Lines) may follow the
flags instead of -i: each is decided, as a table under its source or as
JSON Lines of {source, result}.

Exit status: 0 every call allowed, 1 a call refused or asked (an ask
needs a person's approval, which the command cannot give), 3 the request or
configuration has errors (every call is then refused), 2 bad usage,
unreadable input, an input that is not replayable or an evaluation
failure; with several inputs, the worst of them.

An OPA decision log event whose mask removed what a call's decision
reads (its arguments or the workspace, for a call that reaches the
argument checks; who is asking or the calls themselves, for every call)
is not replayable: the command names each such call on standard error,
does not print a decision for the event, and exits 2 (tooleval diff
lists the same calls as not replayable). With a wire format, a refused call whose id is not a
string has no valid tool result: the command exits 2 and says which
call.
`

var evalFormats = []string{"table", "json", string(wire.Gemini), string(wire.OpenAI), string(wire.OpenAIResponses), string(wire.Anthropic)}

func runEval(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "eval", "eval [-i FILE|-] [FILE|DIR|-]... [--bundle PATH] [--config FILE] [--resolve-paths] [--explain] [--format table|json|gemini|openai|openai-responses|anthropic]", evalExamples)
	input := fs.StringP("input", "i", "-", "input document, or - for standard input")
	policy := addPolicyFlags(fs, s.In)
	resolve := fs.Bool("resolve-paths", false, "resolve path arguments on this host first, following symbolic links")
	format := fs.StringP("format", "f", "", "output format: table, json, gemini, openai (Chat Completions), openai-responses or anthropic (default: table on a terminal, json otherwise)")
	explain := fs.Bool("explain", false, "trace every check of every call (data.tooleval.explain): a table per call, or the explained document with --format json")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	formats := evalFormats
	if *explain || fs.NArg() > 0 {
		formats = []string{"table", "json"}
	}
	out, docs, e, err := prepare(ctx, s, fs, *format, formats, *input, policy, inputs.DecisionEntryPoints...)
	if err != nil {
		return ExitUsage, err
	}
	decide := e.Decide
	if *explain {
		decide = e.Explain
	}
	docs = withoutOutputs(s, docs)
	if len(docs) == 0 {
		return ExitUsage, usagef("no input document to decide (every document given is an output)")
	}
	w := newDocumentWriter(s, out, len(docs))
	code := ExitOK
	launch := launchCommand()
	for _, doc := range docs {
		if isLaunch(doc.value) { // decided as `tooleval launch` decides it
			if len(docs) == 1 && out != "table" && out != "json" {
				return ExitUsage, usagef("%s is a launch document: its result has no %s form (--format table or json)", doc.source, out)
			}
			l, status, err := launch.evaluate(ctx, e, doc.value)
			if err != nil {
				return ExitUsage, fmt.Errorf("%s: %w", doc.source, policy.explain(err))
			}
			err = w.write(doc.source, l, func() error {
				if out == "json" {
					return writeDocument(s, l)
				}
				return launch.table(s.Out, l)
			})
			if err != nil {
				return ExitUsage, err
			}
			code = worse(code, status)
			continue
		}
		value := doc.value
		if *resolve {
			value = e.ResolvePaths(value)
		}
		d, err := decide(ctx, value)
		if err != nil {
			return ExitUsage, fmt.Errorf("%s: %w", doc.source, policy.explain(err))
		}
		if len(doc.masked) > 0 && reportNotReplayable(s, doc.source, doc.masked, d) {
			code = worse(code, ExitUsage)
			continue
		}
		if err := w.write(doc.source, d, func() error { return writeDecision(s, out, d) }); err != nil {
			return ExitUsage, err
		}
		code = worse(code, decisionStatus(d))
	}
	return code, nil
}

// withoutOutputs drops the documents that are results, not inputs (a
// decision, catalog, launch or check document, such as the files of
// inputs/expected/), saying so on standard error for each.
func withoutOutputs(s Streams, docs []document) []document {
	var kept []document
	for _, d := range docs {
		if isOutput(d.value) {
			fmt.Fprintf(s.Err, "tooleval: %s is a result document, not an input: skipped\n", display.Value(d.source))
			continue
		}
		kept = append(kept, d)
	}
	return kept
}

// reportNotReplayable says on standard error which calls of a decision
// cannot be replayed from its decision log event, whose mask removed the
// pointers masked (the reading tooleval diff lists as not replayable),
// and reports whether any cannot: such a document is not re-decided.
func reportNotReplayable(s Streams, source string, masked []string, d *engine.Decision) bool {
	request, calls := diff.NotReplayable(masked, d)
	if request != "" && len(d.Decisions) == 0 {
		fmt.Fprintf(s.Err, "tooleval: %s: not replayable: %s: the request's calls are not known\n", source, request)
		return true
	}
	found := false
	for i, why := range calls {
		if why == "" {
			continue
		}
		c := d.Decisions[i]
		fmt.Fprintf(s.Err, "tooleval: %s: call %d (id %s, name %s) is not replayable: %s\n", source, i, display.Value(c.ID), display.Value(c.Name), why)
		found = true
	}
	if found {
		fmt.Fprintf(s.Err, "tooleval: %s: not re-decided: the decision log does not hold what the policy read (see docs/deploy.md, \"Decision logs and masking\")\n", source)
	}
	return found
}

// decisionStatus is the exit code of one decision: errors (every call
// refused for them), a call refused or asked (not allowed), or success.
func decisionStatus(d *engine.Decision) int {
	switch {
	case len(d.Errors) > 0:
		return ExitErrors
	case !d.AllAllowed():
		return ExitRefused
	}
	return ExitOK
}

// document is one input document and where it was read.
type document struct {
	source string
	value  ast.Value
	// masked lists what the decision log event it was read from had
	// removed from it (inputs.Document.Masked).
	masked []string
}

// prepare does what the commands that evaluate input documents share:
// it settles the output format, reads the documents (-i, or the
// arguments: files, directories, JSON Lines, decision log events of the
// entry points given) and loads the engine.
func prepare(ctx context.Context, s Streams, fs *pflag.FlagSet, format string, formats []string, input string, policy policyFlags, entryPoints ...string) (string, []document, *engine.Engine, error) {
	out, err := outputFormat(format, s.Terminal, formats)
	if err != nil {
		return "", nil, nil, err
	}
	readsStdin := slices.Contains(fs.Args(), "-") || (fs.NArg() == 0 && input == "-")
	if *policy.config == "-" && readsStdin {
		return "", nil, nil, usagef("--config - and the input both read standard input: give the input as a file")
	}
	var docs []document
	switch {
	case fs.NArg() > 0 && fs.Changed("input"):
		return "", nil, nil, usagef("give the input with -i or as arguments, not both")
	case fs.NArg() > 0:
		if s.InTerminal && slices.Contains(fs.Args(), "-") {
			fmt.Fprintln(s.Err, "tooleval: reading JSON from standard input: one document, or one per line (end with Ctrl-D)")
		}
		if docs, err = readDocuments(fs.Args(), s, entryPoints); err != nil {
			return "", nil, nil, err
		}
	case input == "-": // as the argument - : one JSON document or JSON Lines
		if s.InTerminal {
			fmt.Fprintln(s.Err, "tooleval: reading JSON from standard input: one document, or one per line (end with Ctrl-D)")
		}
		if docs, err = readDocuments([]string{"-"}, s, entryPoints); err != nil {
			return "", nil, nil, err
		}
	default:
		value, err := readValue(s, input)
		if err != nil {
			return "", nil, nil, err
		}
		docs = []document{{input, value, nil}}
	}
	e, err := policy.engine(ctx)
	if err != nil {
		return "", nil, nil, err
	}
	return out, docs, e, nil
}

// readDocuments reads the documents of paths (see inputs.Read) and
// decodes each as engine.DecodeInput does.
func readDocuments(paths []string, s Streams, entryPoints []string) ([]document, error) {
	read, err := inputs.Read(paths, s.In, entryPoints...)
	if err != nil {
		return nil, usagef("%w", err)
	}
	docs := make([]document, 0, len(read))
	for _, d := range read {
		value, err := engine.DecodeInput(d.Input)
		if err != nil {
			return nil, usagef("%s: %w", d.Source, err)
		}
		docs = append(docs, document{d.Source, value, d.Masked})
	}
	return docs, nil
}

// documentWriter prints the results of several input documents: one
// document as it is (the output opa eval gives), several as a table per
// document under its source, or as JSON Lines of {source, result}.
type documentWriter struct {
	s     Streams
	out   string
	count int
	n     int
}

func newDocumentWriter(s Streams, out string, count int) *documentWriter {
	return &documentWriter{s: s, out: out, count: count}
}

// write prints doc (single prints it the way one document is printed).
func (w *documentWriter) write(source string, doc interface{ JSON() ([]byte, error) }, single func() error) error {
	w.n++
	if w.count == 1 {
		return single()
	}
	if w.out == "json" {
		data, err := doc.JSON()
		if err != nil {
			return err
		}
		line, err := json.Marshal(map[string]any{"source": source, "result": json.RawMessage(data)})
		if err != nil {
			return err
		}
		_, err = w.s.Out.Write(append(line, '\n'))
		return err
	}
	if w.n > 1 {
		fmt.Fprintln(w.s.Out)
	}
	fmt.Fprintf(w.s.Out, "== %s\n", display.Value(source))
	return single()
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
