package engine

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// failClosed is the decision the engine returns when the policy could not
// be evaluated: every call of the request refused, with the cause as an
// internal_error. It mirrors the policy's own safety net.
func failClosed(request ast.Value, cause error) *Decision {
	calls := callsOf(request)
	d := &Decision{
		Decisions: make([]CallDecision, 0, len(calls)),
		Errors:    []Problem{{"code": "internal_error", "field": "", "message": "the engine could not evaluate the policy: " + cause.Error()}},
		Effective: []string{},
	}
	decisions := make([]any, 0, len(calls))
	for _, call := range calls {
		c := CallDecision{
			ID: member(call, "id"), Name: member(call, "name"),
			Reason: "invalid_config", Layer: "config",
			Message: "the call is refused: the policy could not decide it",
		}
		d.Decisions = append(d.Decisions, c)
		decisions = append(decisions, map[string]any{
			"id": c.ID, "name": c.Name, "allowed": false,
			"reason": c.Reason, "layer": c.Layer, "message": c.Message,
		})
	}
	errs := make([]any, len(d.Errors))
	for i, p := range d.Errors {
		errs[i] = map[string]any(p)
	}
	d.document = map[string]any{"decisions": decisions, "errors": errs, "effective": []any{}}
	return d
}

// failedLaunch is the launch the engine returns when the policy could not
// be evaluated: invalid and deny-all.
func failedLaunch(cause error) *Launch {
	p := Problem{"code": "internal_error", "field": "", "message": "the engine could not evaluate the policy: " + cause.Error()}
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

// callsOf returns the calls of a request document, or none.
func callsOf(request ast.Value) []ast.Value {
	obj, ok := request.(ast.Object)
	if !ok {
		return nil
	}
	term := obj.Get(ast.StringTerm("calls"))
	if term == nil {
		return nil
	}
	arr, ok := term.Value.(*ast.Array)
	if !ok {
		return nil
	}
	calls := make([]ast.Value, 0, arr.Len())
	arr.Foreach(func(t *ast.Term) { calls = append(calls, t.Value) })
	return calls
}

// member returns the JSON value of obj[key], or nil.
func member(v ast.Value, key string) any {
	obj, ok := v.(ast.Object)
	if !ok {
		return nil
	}
	term := obj.Get(ast.StringTerm(key))
	if term == nil {
		return nil
	}
	x, err := ast.JSON(term.Value)
	if err != nil {
		return nil
	}
	return x
}
