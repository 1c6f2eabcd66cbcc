package verify

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/util"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/astcompile"
	"github.com/tooleval/tooleval/internal/docpath"
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

// ErrInvariants is wrapped by the error of [LoadInvariants] when the
// invariants do not compile, read what their input or data does not
// have, or define no violation: each would check nothing.
// [InvariantProblems] gives the located errors.
var ErrInvariants = errors.New("the invariants have errors")

// InvariantProblems are the errors of an error of [LoadInvariants], each
// {code: "invalid_invariants", message, file, row, col} (as many as it
// has located, else one).
func InvariantProblems(err error) []engine.Problem {
	var located ast.Errors
	if !errors.As(err, &located) {
		return []engine.Problem{{"code": "invalid_invariants", "message": err.Error()}}
	}
	out := make([]engine.Problem, 0, len(located))
	for _, e := range located {
		p := engine.Problem{"code": "invalid_invariants", "message": e.Message}
		if e.Location != nil {
			p["file"], p["row"], p["col"] = e.Location.File, e.Location.Row, e.Location.Col
		}
		out = append(out, p)
	}
	return out
}

// inputSchema is the JSON schema of an invariant's input: the
// invariants are type-checked against it, so that a rule reading a
// member the input does not have (input.tolls) is a compile error, not a
// rule that never fires.
//
//go:embed invariant_input.schema.json
var inputSchema []byte

// LoadInvariants compiles the Rego files of dir (and its data files),
// type-checked against the input's schema (invariant_input.schema.json):
// a reference to a member of input that the schema does not have, or to
// a document under data that no rule or data file of dir defines, is an
// error. Either would otherwise make a rule never fire, and its
// invariant hold without checking anything.
func LoadInvariants(ctx context.Context, dir string) (*UserInvariants, error) {
	files, err := loader.NewFileLoader().WithRegoVersion(ast.RegoV1).All([]string{dir})
	if err != nil {
		return nil, fmt.Errorf("load the invariants of %s: %w", dir, err)
	}
	var schema any
	if err := util.UnmarshalJSON(inputSchema, &schema); err != nil {
		return nil, fmt.Errorf("the invariants' input schema: %w", err)
	}
	schemas := ast.NewSchemaSet()
	schemas.Put(ast.SchemaRootRef, schema)
	modules := make(map[string]*ast.Module, len(files.Modules))
	for name, f := range files.Modules {
		modules[name] = f.Parsed
	}
	compiler := ast.NewCompiler().WithSchemas(schemas)
	if astcompile.Default.Compile(compiler, modules); compiler.Failed() {
		return nil, fmt.Errorf("%w: compile %s against their input (docs/verify.md): %w", ErrInvariants, dir, compiler.Errors)
	}
	if err := undefinedData(compiler, files.Documents); err != nil {
		return nil, fmt.Errorf("%w: compile %s: %w", ErrInvariants, dir, err)
	}
	store := inmem.NewFromObject(files.Documents)
	load := func(query string) (rego.PreparedEvalQuery, error) {
		return rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
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
		return nil, fmt.Errorf("%w: %s defines no rule violation in package %s: write violation contains {\"id\": ..., \"message\": ...} if {...}", ErrInvariants, dir, UserPackage)
	}
	return u, nil
}

// undefinedData is an error naming each reference to data in the
// compiled modules that nothing defines: no rule (of the invariants'
// modules, which are compiled on their own: the policy's rules and data
// are not there) and no document of their data files. Such a reference
// is undefined, and a rule that reads it never fires.
func undefinedData(c *ast.Compiler, docs map[string]any) error {
	var errs ast.Errors
	for _, name := range sortedKeys(c.Modules) {
		for _, rule := range c.Modules[name].Rules {
			ast.WalkRefs(rule, func(r ast.Ref) bool {
				if !r.HasPrefix(ast.DefaultRootRef) {
					return false
				}
				prefix := r.GroundPrefix()
				if len(c.GetRules(prefix)) > 0 || docpath.Holds(docs, prefix[1:]) {
					return false
				}
				errs = append(errs, ast.NewError(ast.TypeErr, r[0].Location, "undefined ref: %v: no rule or data file of the invariants defines it (the policy's rules and data are not there)", prefix))
				return false
			})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
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
		if len(v.rules) > 0 {
			t["rules"] = v.rules
		}
		tools[i] = t
	}
	calls := make([]any, len(d.calls))
	for i, c := range d.calls {
		calls[i] = c
	}
	errs := make([]any, len(d.errors))
	for i, p := range d.errors {
		errs[i] = p
	}
	input, err := encode(map[string]any{"subject": d.subject, "tools": tools, "calls": calls, "errors": errs})
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
