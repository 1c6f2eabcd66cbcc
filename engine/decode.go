package engine

import (
	"encoding/json"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// decodeDecision builds a Decision from the policy's result, read
// straight from its AST.
func decodeDecision(v ast.Value) (*Decision, error) {
	obj, ok := v.(ast.Object)
	if !ok {
		return nil, ErrShape
	}
	d := &Decision{value: v}
	decisions, ok := typedMember[*ast.Array](obj, "decisions")
	if !ok {
		return nil, fmt.Errorf("%w: decisions", ErrShape)
	}
	d.Decisions = make([]CallDecision, 0, decisions.Len())
	var err error
	decisions.Foreach(func(t *ast.Term) {
		if err != nil {
			return
		}
		var c CallDecision
		if c, err = decodeCall(t.Value); err == nil {
			d.Decisions = append(d.Decisions, c)
		}
	})
	if err != nil {
		return nil, err
	}
	if d.Errors, err = decodeProblems(obj); err != nil {
		return nil, err
	}
	if run, ok := typedMember[ast.Object](obj, "run"); ok {
		d.Run = &RunTotals{}
		if err := decodeInto(run, d.Run); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func decodeCall(v ast.Value) (CallDecision, error) {
	obj, ok := v.(ast.Object)
	if !ok {
		return CallDecision{}, fmt.Errorf("%w: a decision is not an object", ErrShape)
	}
	allowed, ok := typedMember[ast.Boolean](obj, "allowed")
	if !ok {
		return CallDecision{}, fmt.Errorf("%w: a decision has no allowed", ErrShape)
	}
	c := CallDecision{Allowed: bool(allowed), ID: jsonMember(obj, "id"), Name: jsonMember(obj, "name")}
	var err error
	if c.Outcome, err = decodeOutcome(obj, c.Allowed); err != nil {
		return CallDecision{}, err
	}
	c.Reason, _ = stringMember(obj, "reason")
	c.Layer, _ = stringMember(obj, "layer")
	c.Message, _ = stringMember(obj, "message")
	c.Rule, _ = stringMember(obj, "rule")
	c.Argument, _ = stringMember(obj, "argument")
	if trace, ok := typedMember[*ast.Array](obj, "trace"); ok {
		if err := decodeInto(trace, &c.Trace); err != nil {
			return CallDecision{}, fmt.Errorf("%w: trace: %w", ErrShape, err)
		}
	}
	return c, nil
}

// decodeOutcome reads a decision's outcome: one of allow, ask and deny,
// allow exactly when allowed is true. A decision without one (a policy
// from before outcomes) has the outcome its allowed says: allow or deny.
// Any other value, or one that disagrees with allowed, is ErrShape.
func decodeOutcome(obj ast.Object, allowed bool) (Outcome, error) {
	t := obj.Get(memberKey("outcome"))
	if t == nil {
		if allowed {
			return OutcomeAllow, nil
		}
		return OutcomeDeny, nil
	}
	s, ok := t.Value.(ast.String)
	outcome := Outcome(s)
	switch {
	case !ok || (outcome != OutcomeAllow && outcome != OutcomeAsk && outcome != OutcomeDeny):
		return "", fmt.Errorf("%w: a decision's outcome is %v, not allow, ask or deny", ErrShape, t)
	case allowed != (outcome == OutcomeAllow):
		return "", fmt.Errorf("%w: a decision's outcome %s disagrees with its allowed %t", ErrShape, outcome, allowed)
	}
	return outcome, nil
}

// checkToolVerdicts reads the outcome of each catalog entry: one of
// allow, conditional, ask and deny, allowed exactly when it is allow or
// conditional. An entry without one (a policy from before outcomes) takes
// the outcome its allowed says, allow or deny. Any other value, or one
// that disagrees with allowed, is ErrShape: no surface (verify, the
// gateway, the matrix) reads a verdict it cannot place.
func checkToolVerdicts(tools []ToolVerdict) error {
	for i := range tools {
		t := &tools[i]
		switch {
		case t.Outcome == "" && t.Allowed:
			t.Outcome = OutcomeAllow
		case t.Outcome == "":
			t.Outcome = OutcomeDeny
		case t.Outcome != OutcomeAllow && t.Outcome != OutcomeConditional && t.Outcome != OutcomeAsk && t.Outcome != OutcomeDeny:
			return fmt.Errorf("%w: tool %v has outcome %q, not allow, conditional, ask or deny", ErrShape, t.Name, t.Outcome)
		case t.Allowed != (t.Outcome == OutcomeAllow || t.Outcome == OutcomeConditional):
			return fmt.Errorf("%w: tool %v's outcome %s disagrees with its allowed %t", ErrShape, t.Name, t.Outcome, t.Allowed)
		}
	}
	return nil
}

func decodeProblems(obj ast.Object) ([]Problem, error) {
	list, ok := typedMember[*ast.Array](obj, "errors")
	if !ok {
		return nil, fmt.Errorf("%w: errors", ErrShape)
	}
	problems := make([]Problem, 0, list.Len())
	var err error
	list.Foreach(func(t *ast.Term) {
		x, jsonErr := ast.JSON(t.Value)
		p, ok := x.(map[string]any)
		if jsonErr != nil || !ok {
			err = fmt.Errorf("%w: an error is not an object", ErrShape)
			return
		}
		problems = append(problems, Problem(p))
	})
	return problems, err
}

// typedMember returns obj[key] when it has the type T.
func typedMember[T ast.Value](obj ast.Object, key string) (T, bool) {
	var zero T
	t := obj.Get(memberKey(key))
	if t == nil {
		return zero, false
	}
	v, ok := t.Value.(T)
	return v, ok
}

// jsonMember returns obj[key] as a JSON value: a string stays a string.
func jsonMember(obj ast.Object, key string) any {
	t := obj.Get(memberKey(key))
	if t == nil {
		return nil
	}
	if s, ok := t.Value.(ast.String); ok {
		return string(s)
	}
	x, err := ast.JSON(t.Value)
	if err != nil {
		return nil
	}
	return x
}

// memberKeys are the names of the members the engine reads from the
// policy's documents, as terms made once: a look-up by one of them
// allocates nothing (a session's batch reads some 60). They are never
// changed, and only looked up with, never put into a document.
var memberKeys = func() map[string]*ast.Term {
	keys := map[string]*ast.Term{}
	for _, key := range []string{"allowed", "argument", "calls", "decisions", "entries", "errors", "id", "layer", "message", "name", "outcome", "reason", "root", "rule", "run", "trace"} {
		keys[key] = ast.StringTerm(key)
	}
	return keys
}()

// memberKey is key as a term, one of memberKeys where it is one.
func memberKey(key string) *ast.Term {
	if t, ok := memberKeys[key]; ok {
		return t
	}
	return ast.StringTerm(key)
}

// decodeInto converts an AST value to out through JSON.
func decodeInto(v ast.Value, out any) error {
	x, err := ast.JSON(v)
	if err != nil {
		return fmt.Errorf("decode policy result: %w", err)
	}
	raw, err := json.Marshal(x)
	if err != nil {
		return fmt.Errorf("decode policy result: %w", err)
	}
	return json.Unmarshal(raw, out)
}
