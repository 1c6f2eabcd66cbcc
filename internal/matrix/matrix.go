// Package matrix lays out, for one request, every declared tool against
// every name-level check (exclusions, configured stages and inline
// layers, deny lists then allow lists) with what the check said: a
// reviewer sees a whole agent's permissions at a glance. The cells come
// from data.tooleval.explain, asked with one call of each declared tool;
// each row's verdict is the catalog's (data.tooleval.tools).
package matrix

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
)

// Cell outcomes, as the explain trace gives them.
const (
	Pass          = "pass"
	Refused       = "refused"
	Ask           = "ask"
	Exempt        = "exempt"
	NotApplicable = "not_applicable"
)

// Matrix is the declared tools × checks of one request.
type Matrix struct {
	// Checks are the column titles, in evaluation order: "exclusion
	// NAME", "stage NAME deny", "layer NAME allow", ...
	Checks []string `json:"checks"`
	// Rows has one row per declared tool, in declaration order.
	Rows []Row `json:"rows"`
	// Errors are the request's errors; with any, every tool is refused.
	Errors []engine.Problem `json:"errors"`
}

// Row is one declared tool's cells.
type Row struct {
	// Tool is the declared name (not a string when the declaration is
	// malformed).
	Tool any `json:"tool"`
	// Allowed and Outcome are the tool's verdict in the catalog
	// (data.tooleval.tools), as `tooleval tools` gives it: allowed
	// outright (allow), conditional (argument rules decide each call:
	// Rules), ask (a layer asks a person about every call) or deny.
	Allowed bool           `json:"allowed"`
	Outcome engine.Outcome `json:"outcome"`
	// Rules are, for a conditional tool, the argument rules asked of its
	// calls.
	Rules []engine.RuleInForce `json:"rules,omitempty"`
	// Cells hold, per check, its outcome (Pass, Refused, Ask, Exempt or
	// NotApplicable).
	Cells []string `json:"cells"`
	// Entries hold the entry that decided each cell, or "".
	Entries []string `json:"entries"`
}

// Verdict is a tool's name-level verdict as every surface words it:
// "allowed" (outright), "conditional" (argument rules decide each call),
// "asks" (a person, about every call) or "refused".
func Verdict(allowed bool, outcome engine.Outcome) string {
	switch {
	case outcome == engine.OutcomeConditional:
		return "conditional"
	case allowed:
		return "allowed"
	case outcome == engine.OutcomeAsk:
		return "asks"
	}
	return "refused"
}

// Verdict is the row's verdict (the package's Verdict).
func (r Row) Verdict() string { return Verdict(r.Allowed, r.Outcome) }

// nameChecks are the trace steps that judge a tool by its name.
var nameChecks = map[string]bool{"exclusion": true, "stage": true, "layer": true}

// Build explains one call of each declared tool of input (calls and run
// are replaced) and lays the traces out as a matrix.
func Build(ctx context.Context, e *engine.Engine, input ast.Value) (*Matrix, error) {
	request, names := probe(input)
	d, err := e.Explain(ctx, request)
	if err != nil {
		return nil, err
	}
	catalog, err := e.Tools(ctx, request)
	if err != nil {
		return nil, err
	}
	if len(catalog.Tools) != len(d.Decisions) {
		return nil, fmt.Errorf("the catalog has %d tools, the probe %d calls", len(catalog.Tools), len(d.Decisions))
	}
	m := &Matrix{Checks: []string{}, Rows: make([]Row, 0, len(d.Decisions)), Errors: d.Errors}
	for i, c := range d.Decisions {
		t := catalog.Tools[i]
		row := Row{Tool: names[i], Allowed: t.Allowed, Outcome: t.Outcome, Rules: t.Rules}
		var checks []string
		for _, step := range c.Trace {
			if !nameChecks[step.Check] {
				continue
			}
			checks = append(checks, title(step))
			row.Cells = append(row.Cells, step.Outcome)
			row.Entries = append(row.Entries, stepEntry(step))
		}
		if i == 0 {
			m.Checks = append(m.Checks, checks...)
		} else if len(checks) != len(m.Checks) {
			return nil, fmt.Errorf("tool %d was traced through %d checks, the first through %d", i, len(checks), len(m.Checks))
		}
		m.Rows = append(m.Rows, row)
	}
	return m, nil
}

func title(step engine.TraceStep) string {
	if step.List == "" {
		return step.Check + " " + step.Name
	}
	return step.Check + " " + step.Name + " " + step.List
}

// probe is input with one call of each declared tool, in declaration
// order (ids t0, t1, ...), no other call and no run; names are the
// declared names.
func probe(input ast.Value) (ast.Object, []any) {
	request := ast.NewObject()
	var declared *ast.Array
	if obj, ok := input.(ast.Object); ok {
		obj.Foreach(func(k, v *ast.Term) {
			if key, ok := k.Value.(ast.String); ok && (key == "calls" || key == "run") {
				return
			}
			request.Insert(k, v)
		})
		if t := obj.Get(ast.StringTerm("declared")); t != nil {
			declared, _ = t.Value.(*ast.Array)
		}
	}
	var calls []*ast.Term
	var names []any
	if declared != nil {
		declared.Foreach(func(d *ast.Term) {
			var name *ast.Term
			if obj, ok := d.Value.(ast.Object); ok {
				name = obj.Get(ast.StringTerm("name"))
			}
			if name == nil {
				name = ast.NullTerm()
			}
			calls = append(calls, ast.ObjectTerm(
				[2]*ast.Term{ast.StringTerm("id"), ast.StringTerm("t" + strconv.Itoa(len(calls)))},
				[2]*ast.Term{ast.StringTerm("name"), name},
			))
			x, _ := ast.JSON(name.Value)
			names = append(names, x)
		})
	}
	request.Insert(ast.StringTerm("calls"), ast.ArrayTerm(calls...))
	return request, names
}

// entryText is how a matrix cell names the entry that decided it: a
// name entry as it is written, an argument rule (an object) as the JSON
// it is written in, nothing for none.
// stepEntry is the entry that decided a step, or the argument rules a
// call meets (each a JSON text, joined with ", "), or "".
func stepEntry(step engine.TraceStep) string {
	if step.Entry != nil || len(step.Entries) == 0 {
		return entryText(step.Entry)
	}
	texts := make([]string, len(step.Entries))
	for i, e := range step.Entries {
		texts[i] = entryText(e)
	}
	return strings.Join(texts, ", ")
}

func entryText(entry any) string {
	switch e := entry.(type) {
	case nil:
		return ""
	case string:
		return e
	}
	text, err := json.Marshal(entry)
	if err != nil {
		return fmt.Sprint(entry)
	}
	return string(text)
}
