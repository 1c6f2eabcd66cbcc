package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/display"
	"github.com/tooleval/tooleval/internal/inputs"
)

const checkExamples = `  # Check the bundle's configuration
  tooleval check

  # Check a deployment's configuration overlay, failing on warnings too
  tooleval check --config deploy/config.json --strict

  # Check an edited bundle and a set of input documents
  tooleval check --bundle policies inputs/*.json inputs/launch/*.json

  # Annotations for a GitHub Actions step
  tooleval check --config deploy/config.json --format github

Every problem is printed with its location. An error refuses every call
of the requests that read that part of the configuration; warnings (duplicate, shadowed, unreachable or ineffective entries, agent
tools that name no declared tool, confusable declared names) change no
decision. A document with fork_tools or subagent_type is checked as a
launch, a result document (a decision, catalog or launch result, such as
the files of inputs/expected/) is skipped with a note on standard error,
any other is checked as a decision input.
Files, directories (their .json and .jsonl files), JSON Lines and OPA
decision logs may be given. --format github prints GitHub Actions
annotations (::error file=...,title=CODE::message) for a workflow step.
Exit status: 0 no error (and, with --strict, no warning), 3 an error,
1 a warning with --strict, 2 bad usage.
`

func runCheck(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "check", "check [--bundle PATH] [--config FILE] [--strict] [--format text|json|github] [FILE|DIR...]", checkExamples)
	policy := addPolicyFlags(fs, s.In)
	strict := fs.Bool("strict", false, "exit 1 on warnings too")
	format := fs.StringP("format", "f", "text", "output format: text, json or github (GitHub Actions annotations)")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	if _, err := outputFormat(*format, false, []string{"text", "json", "github"}); err != nil {
		return ExitUsage, err
	}
	if *policy.config == "-" && slices.Contains(fs.Args(), "-") {
		return ExitUsage, usagef("--config - and a document both read standard input: give the document as a file")
	}
	var docs []inputs.Document
	if fs.NArg() > 0 {
		var err error
		if docs, err = inputs.Read(fs.Args(), s.In, slices.Concat(inputs.DecisionEntryPoints, []string{"tooleval/tools", "tooleval/launch", "tooleval/check"})...); err != nil {
			return ExitUsage, usagef("%w", err)
		}
	}
	e, err := policy.engine(ctx)
	if err != nil {
		return ExitUsage, err
	}
	r := &checkReport{configFile: *policy.config}

	// The configuration alone: an empty request reports only its problems.
	base, err := e.Check(ctx, nil)
	if err != nil {
		return ExitUsage, policy.explain(err)
	}
	r.report("configuration", "error", base.Errors, nil)
	r.report("configuration", "warning", base.Warnings, nil)
	if runtime := settingsFileOf(base.Errors); runtime != "" {
		fmt.Fprintf(s.Err, "tooleval check: %s looks like %s settings file, not a tooleval configuration: import it first (tooleval import %s -o overlay.json FILE), then check the overlay\n",
			display.Value(*policy.config), runtimeSettings[runtime], runtime)
	}

	for _, doc := range docs {
		value, err := engine.DecodeInput(doc.Input)
		if err != nil {
			return ExitUsage, usagef("%s: %w", doc.Source, err)
		}
		if isOutput(value) {
			fmt.Fprintf(s.Err, "tooleval: %s is a result document, not an input: skipped\n", display.Value(doc.Source))
			continue
		}
		if err := r.checkDocument(ctx, e, base, doc.Source, value); err != nil {
			return ExitUsage, policy.explain(err)
		}
	}
	if err := r.write(s, *format); err != nil {
		return ExitUsage, err
	}
	switch {
	case r.errors > 0:
		return ExitErrors, nil
	case *strict && r.warnings > 0:
		return ExitRefused, nil
	}
	return ExitOK, nil
}

// runtimeSettingsKeys are top-level keys of the agent runtimes' own
// settings files that are not tooleval configuration keys, with the
// runtime whose importer reads such a file.
var runtimeSettingsKeys = map[string]string{
	"$schema": "claude-code", "permissions": "claude-code", "hooks": "claude-code", "enabledMcpjsonServers": "claude-code",
	"approval_policy": "codex", "sandbox_mode": "codex", "model_provider": "codex", "rules": "gemini",
	"general": "gemini", "security": "gemini", "mcpServers": "gemini",
}

// runtimeSettings names the runtime of an importer for a message.
var runtimeSettings = map[string]string{"claude-code": "a Claude Code", "codex": "a Codex", "gemini": "a Gemini CLI"}

// settingsFileOf is the importer of the runtime whose settings file the
// configuration seems to be, from the unknown keys check reported at its
// top level, or "".
func settingsFileOf(errors []engine.Problem) string {
	for _, p := range errors {
		if p.Code() != "unknown_config_key" {
			continue
		}
		field, _ := p["field"].(string)
		if runtime, ok := runtimeSettingsKeys[strings.TrimPrefix(field, "config.")]; ok {
			return runtime
		}
	}
	return ""
}

// finding is one problem check reports, where it was found.
type finding struct {
	Where    string         `json:"where"`
	Severity string         `json:"severity"`
	Problem  engine.Problem `json:"problem"`
}

// checkReport collects problems and counts them.
type checkReport struct {
	configFile string
	findings   []finding
	agentTools []agentToolsLine
	errors     int
	warnings   int
}

type agentToolsLine struct {
	Where   string   `json:"where"`
	Agent   string   `json:"agent"`
	Valid   []string `json:"valid"`
	Invalid []string `json:"invalid"`
}

// report records the problems of list that seen does not hold (those
// were reported for the configuration already).
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
		r.findings = append(r.findings, finding{where, severity, p})
	}
}

// write prints the findings: text (a line each, then a count), JSON
// ({errors, warnings, findings, agent_tools}), or GitHub Actions
// workflow commands (::error / ::warning, on the file concerned).
func (r *checkReport) write(s Streams, format string) error {
	switch format {
	case "json":
		if r.findings == nil {
			r.findings = []finding{}
		}
		if r.agentTools == nil {
			r.agentTools = []agentToolsLine{}
		}
		return writeJSON(s, map[string]any{"errors": r.errors, "warnings": r.warnings, "findings": r.findings, "agent_tools": r.agentTools})
	case "github":
		for _, f := range r.findings {
			file := f.Where
			if file == "configuration" {
				file = r.configFile
			}
			properties := "title=" + githubEscape(f.Problem.Code(), true)
			if file != "" {
				properties = "file=" + githubEscape(file, true) + "," + properties
			}
			fmt.Fprintf(s.Out, "::%s %s::%s\n", f.Severity, properties, githubEscape(f.Problem.Message()+location(f.Problem), false))
		}
		return nil
	}
	for _, f := range r.findings {
		fmt.Fprintf(s.Out, "%s: %s: %s: %s%s\n", f.Where, f.Severity, f.Problem.Code(), f.Problem.Message(), location(f.Problem))
	}
	for _, a := range r.agentTools {
		fmt.Fprintf(s.Out, "%s: agent %q tools: valid %q, invalid %q\n", a.Where, a.Agent, a.Valid, a.Invalid)
	}
	switch {
	case r.errors > 0 || r.warnings > 0:
		fmt.Fprintf(s.Out, "%d error(s), %d warning(s)\n", r.errors, r.warnings)
	default:
		fmt.Fprintln(s.Out, "no problems")
	}
	return nil
}

// githubEscape escapes a workflow command's data (or, with property, a
// property value) as GitHub Actions' toolkit does.
func githubEscape(s string, property bool) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
	if property {
		s = strings.NewReplacer(":", "%3A", ",", "%2C").Replace(s)
	}
	return s
}

func (r *checkReport) checkDocument(ctx context.Context, e *engine.Engine, base *engine.Check, path string, value ast.Value) error {
	if isLaunch(value) {
		l, err := e.Launch(ctx, value)
		if err != nil {
			return err
		}
		r.report(path, "error", l.Errors, base.Errors)
		return nil
	}
	c, err := e.Check(ctx, value)
	if err != nil {
		return err
	}
	r.report(path, "error", c.Errors, base.Errors)
	r.report(path, "warning", c.Warnings, base.Warnings)
	if t := c.AgentTools; t != nil {
		r.agentTools = append(r.agentTools, agentToolsLine{path, t.Agent, t.Valid, t.Invalid})
	}
	d, err := e.Decide(ctx, value)
	if err != nil {
		return err
	}
	for i, call := range d.Decisions {
		if call.Reason == engine.ReasonInvalidInput {
			r.errors++
			r.findings = append(r.findings, finding{path, "error", engine.Problem{
				"code": engine.ReasonInvalidInput, "message": call.Message, "field": fmt.Sprintf("calls[%d]", i),
			}})
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

// isOutput reports whether v is a result document rather than an input:
// an object with a member only results have (decisions, effective,
// execution_allowed_tools, warnings) and neither calls nor declared,
// such as the files of inputs/expected/.
func isOutput(v ast.Value) bool {
	obj, ok := v.(ast.Object)
	if !ok || obj.Get(ast.StringTerm("calls")) != nil || obj.Get(ast.StringTerm("declared")) != nil || isLaunch(v) {
		return false
	}
	for _, member := range []string{"decisions", "effective", "execution_allowed_tools", "warnings"} {
		if obj.Get(ast.StringTerm(member)) != nil {
			return true
		}
	}
	return false
}
