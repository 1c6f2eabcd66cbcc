package engine

import (
	"encoding/json"
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// failClosedMessages are the messages of the policy's own safety nets
// (data.tooleval.host.fail_closed_messages, read at load): the engine's
// fail-closed documents are the policy's, member for member; the cause
// of an engine failure is in the error returned with them.
type failClosedMessages struct {
	decision, call, catalog, launch string
}

// failClosed is the decision the engine returns when the policy could not
// be evaluated: the document data.tooleval.batch.fail_closed makes for
// the request, every call refused (a test holds the two equal).
func (m failClosedMessages) failClosed(request ast.Value) *Decision {
	calls := listMember(request, "calls")
	d := &Decision{
		Decisions: make([]CallDecision, 0, len(calls)),
		Errors:    []Problem{internalError(m.decision)},
	}
	decisions := make([]any, 0, len(calls))
	for _, call := range calls {
		c := CallDecision{
			ID: fieldOrNull(call, "id"), Name: fieldOrNull(call, "name"), Outcome: OutcomeDeny,
			Reason: ReasonInvalidConfig, Layer: "config", Message: m.call,
		}
		d.Decisions = append(d.Decisions, c)
		decisions = append(decisions, map[string]any{
			"id": c.ID, "name": c.Name, "allowed": false, "outcome": string(OutcomeDeny),
			"reason": c.Reason, "layer": c.Layer, "message": c.Message,
		})
	}
	document := map[string]any{"decisions": decisions, "errors": []any{map[string]any(d.Errors[0])}}
	if run, ok := failedRun(request, len(calls)); ok {
		document["run"] = run
		d.Run = &RunTotals{Attempts: jsonNumber(run["attempts"]), Refusals: jsonNumber(run["refusals"]), Exhausted: true}
	}
	d.document = document
	return d
}

// untracedStep is the one-step trace data.tooleval.explain gives a call it
// could not trace (data.tooleval.tracing.untraced).
var untracedStep = TraceStep{Check: "policy", Outcome: "refused", Reason: ReasonInvalidConfig, Layer: "config"}

// failClosedExplained is the fail-closed decision with the policy's one-step trace
// on every call, as data.tooleval.explain gives it when it cannot trace.
func (m failClosedMessages) failClosedExplained(request ast.Value) *Decision {
	d := m.failClosed(request)
	document := d.document.(map[string]any)
	for i, c := range document["decisions"].([]any) {
		c.(map[string]any)["trace"] = []any{map[string]any{
			"check": untracedStep.Check, "outcome": untracedStep.Outcome,
			"reason": untracedStep.Reason, "layer": untracedStep.Layer,
		}}
		d.Decisions[i].Trace = []TraceStep{untracedStep}
	}
	return d
}

// failedRun is the run member of a fail-closed decision: when the
// request has a run (a non-null member), its totals plus every call as an
// attempt and a refusal, exhausted. Totals that are not counts count as
// zero, and the sums are OPA's own arithmetic.
func failedRun(request ast.Value, calls int) (map[string]any, bool) {
	obj, ok := request.(ast.Object)
	if !ok {
		return nil, false
	}
	run := obj.Get(ast.StringTerm("run"))
	if run == nil {
		return nil, false
	}
	if _, null := run.Value.(ast.Null); null {
		return nil, false
	}
	total := func(key string) any {
		x, _ := ast.JSON(plus(countOrZero(fieldValue(run.Value, key)), ast.Number(strconv.Itoa(calls))))
		return x
	}
	return map[string]any{"attempts": total("attempts"), "refusals": total("refusals"), "exhausted": true}, true
}

// countOrZero is the policy's budget.count_or_zero: x when it is a
// non-negative integral number, else 0.
func countOrZero(v ast.Value) ast.Number {
	n, ok := v.(ast.Number)
	if !ok || ast.Compare(n, ast.Number("0")) < 0 {
		return ast.Number("0")
	}
	floored := call1("floor", n)
	if floored == nil || ast.Compare(floored, n) != 0 {
		return ast.Number("0")
	}
	return n
}

// plus adds two numbers as OPA's plus does; call1 applies a one-argument
// arithmetic builtin. Neither can fail on numbers.
func plus(a, b ast.Number) ast.Value {
	var out ast.Value = ast.Number("0")
	_ = topdown.GetBuiltin(ast.Plus.Name)(topdown.BuiltinContext{}, []*ast.Term{ast.NewTerm(a), ast.NewTerm(b)}, func(t *ast.Term) error {
		out = t.Value
		return nil
	})
	return out
}

func call1(name string, a ast.Number) ast.Value {
	var out ast.Value
	_ = topdown.GetBuiltin(name)(topdown.BuiltinContext{}, []*ast.Term{ast.NewTerm(a)}, func(t *ast.Term) error {
		out = t.Value
		return nil
	})
	return out
}

// failedCatalog is the tools document the engine returns when the policy
// could not be evaluated: the else branch of data.tooleval.tools, every
// declared tool refused.
func (m failClosedMessages) failedCatalog(request ast.Value) *Catalog {
	declared := listMember(request, "declared")
	c := &Catalog{Errors: []Problem{internalError(m.catalog)}, Effective: []string{}, Tools: make([]ToolVerdict, 0, len(declared))}
	tools := make([]any, 0, len(declared))
	for _, d := range declared {
		v := ToolVerdict{Name: fieldOrNull(d, "name"), Outcome: OutcomeDeny, Reason: ReasonInvalidConfig, Layer: "config"}
		c.Tools = append(c.Tools, v)
		tools = append(tools, map[string]any{"name": v.Name, "allowed": false, "outcome": string(v.Outcome), "reason": v.Reason, "layer": v.Layer})
	}
	c.document = map[string]any{"errors": []any{map[string]any(c.Errors[0])}, "effective": []any{}, "tools": tools}
	return c
}

// failedLaunch is the launch the engine returns when the policy could not be
// evaluated: the else branch of data.tooleval.launch, invalid and
// deny-all, whatever the request.
func (m failClosedMessages) failedLaunch(ast.Value) *Launch {
	p := internalError(m.launch)
	return &Launch{
		Valid:                 false,
		Errors:                []Problem{p},
		ExecutionAllowedTools: []any{},
		document: map[string]any{
			"valid": false, "errors": []any{map[string]any(p)},
			"execution_allowed_tools": []any{}, "notice": "",
		},
	}
}

func internalError(message string) Problem {
	return Problem{"code": "internal_error", "field": "", "message": message}
}

// listMember returns the elements of doc[key] when doc is an object and
// that member an array (the policy's shape.list_field), or none.
func listMember(doc ast.Value, key string) []ast.Value {
	arr, ok := fieldValue(doc, key).(*ast.Array)
	if !ok {
		return nil
	}
	out := make([]ast.Value, 0, arr.Len())
	arr.Foreach(func(t *ast.Term) { out = append(out, t.Value) })
	return out
}

// fieldValue returns obj[key], or null when v is not an object or has no
// such member.
func fieldValue(v ast.Value, key string) ast.Value {
	obj, ok := v.(ast.Object)
	if !ok {
		return ast.Null{}
	}
	t := obj.Get(memberKey(key))
	if t == nil {
		return ast.Null{}
	}
	return t.Value
}

// fieldOrNull is the policy's shape.field(v, key, null) as a JSON value.
func fieldOrNull(v ast.Value, key string) any {
	x, err := ast.JSON(fieldValue(v, key))
	if err != nil {
		return nil
	}
	return x
}

func jsonNumber(x any) json.Number {
	switch n := x.(type) {
	case json.Number:
		return n
	default:
		b, _ := json.Marshal(n)
		return json.Number(b)
	}
}
