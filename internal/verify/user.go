package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/rego"
)

// UserPackage is the package of invariants of one's own.
const UserPackage = "tooleval.invariants"

// UserInvariants are the Rego invariants of a directory (--invariants),
// package tooleval.invariants, evaluated once per subject:
//
//	input.subject   who is asking (agent, tenant, caller)
//	input.tools     every tool's verdict: {name, outcome, reason, layer}
//	input.calls     the decisions of the --tools calls
//	input.errors    the request's errors
//
// Each member of the set violation ({"id", "message"} and, optionally,
// "tool") is a counterexample. The object invariants, id to
// description, names those to report even when they hold.
type UserInvariants struct {
	violation rego.PreparedEvalQuery
	declared  map[string]string
}

// LoadInvariants compiles the Rego files of dir (and its data files).
func LoadInvariants(ctx context.Context, dir string) (*UserInvariants, error) {
	load := func(query string) (rego.PreparedEvalQuery, error) {
		return rego.New(rego.Query(query), rego.Load([]string{dir}, nil)).PrepareForEval(ctx)
	}
	violation, err := load("data." + UserPackage + ".violation")
	if err != nil {
		return nil, fmt.Errorf("compile the invariants of %s: %w", dir, err)
	}
	declaredQuery, err := load("data." + UserPackage + ".invariants")
	if err != nil {
		return nil, fmt.Errorf("compile the invariants of %s: %w", dir, err)
	}
	u := &UserInvariants{violation: violation, declared: map[string]string{}}
	rs, err := declaredQuery.Eval(ctx)
	if err != nil {
		return nil, fmt.Errorf("read %s.invariants: %w", UserPackage, err)
	}
	if len(rs) == 1 && len(rs[0].Expressions) == 1 {
		obj, ok := rs[0].Expressions[0].Value.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s.invariants must be an object of invariant ids to descriptions", UserPackage)
		}
		for id, d := range obj {
			u.declared[id] = fmt.Sprint(d)
		}
	}
	probe, err := violation.Eval(ctx, rego.EvalInput(map[string]any{}))
	if err != nil {
		return nil, fmt.Errorf("evaluate %s.violation: %w", UserPackage, err)
	}
	if len(probe) == 0 && len(u.declared) == 0 {
		return nil, fmt.Errorf("%s defines no rule violation in package %s: write violation contains {\"id\": ..., \"message\": ...} if {...}", dir, UserPackage)
	}
	return u, nil
}

// check evaluates the invariants for every subject.
func (ui *UserInvariants) check(ctx context.Context, u *universe, results []decided) ([]*invariant, error) {
	invs := map[string]*invariant{}
	for id, d := range ui.declared {
		invs[id] = &invariant{id: id, description: d}
	}
	for _, d := range results {
		found, err := ui.evalOne(ctx, u, d)
		if err != nil {
			return nil, fmt.Errorf("%s for %s: %w", UserPackage, d.subject, err)
		}
		for _, v := range found {
			inv := invs[v.id]
			if inv == nil {
				inv = &invariant{id: v.id, description: "(" + UserPackage + ")"}
				invs[v.id] = inv
			}
			inv.add(Violation{Subject: d.subject, Tool: v.tool, Message: v.message, Outcome: v.outcome(d, u)})
		}
	}
	ids := sortedKeys(invs)
	out := make([]*invariant, 0, len(ids))
	for _, id := range ids {
		out = append(out, invs[id])
	}
	return out, nil
}

type userViolation struct{ id, message, tool string }

func (v userViolation) outcome(d decided, u *universe) string {
	if i := slices.Index(u.names, v.tool); i >= 0 && v.tool != "" {
		return string(d.verdicts[i].outcome)
	}
	return ""
}

func (ui *UserInvariants) evalOne(ctx context.Context, u *universe, d decided) ([]userViolation, error) {
	tools := make([]any, len(d.verdicts))
	for i, v := range d.verdicts {
		t := map[string]any{"name": u.names[i], "outcome": string(v.outcome)}
		if v.reason != "" {
			t["reason"], t["layer"] = v.reason, v.layer
		}
		tools[i] = t
	}
	calls := make([]any, len(d.calls))
	for i, c := range d.calls {
		calls[i] = c
	}
	input, err := encode(map[string]any{"subject": d.subject, "tools": tools, "calls": calls, "errors": d.errors})
	if err != nil {
		return nil, err
	}
	rs, err := ui.violation.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, nil
	}
	set, ok := rs[0].Expressions[0].Value.([]any)
	if !ok {
		return nil, errors.New("violation must be a set of objects")
	}
	out := make([]userViolation, 0, len(set))
	for _, x := range set {
		obj, ok := x.(map[string]any)
		id, _ := obj["id"].(string)
		message, _ := obj["message"].(string)
		if !ok || id == "" || message == "" {
			return nil, fmt.Errorf("a violation must be an object with a string id and message, got %v", x)
		}
		tool, _ := obj["tool"].(string)
		out = append(out, userViolation{id, message, tool})
	}
	return out, nil
}
