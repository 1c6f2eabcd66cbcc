package engine

import (
	"context"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A session answers the calls of a batch that its compiled context holds
// a finished verdict for without evaluating them. The verdicts are the
// policy's: data.tooleval.context.session puts them in the context, as
// entries, keyed by the names as declared.
//
// The session context is the policy's and otherwise opaque: the engine
// passes it back as it got it (input.context of the decide and catalog
// entry points). It reads two of its members, here and nowhere else:
//
//   - errors: an array; when it is not empty the context's requests are
//     refused whole, and the engine answers nothing from entries;
//   - entries: an object from a declared tool's name, exactly as
//     declared, to the finished verdict of its calls, {allowed: true} or
//     {allowed: false, reason, layer, message} (members other than id
//     and name are copied into the call's decision as they are).
//
// A context without either member, or with one of another kind, answers
// nothing from entries: every batch goes to the policy. The largest batch
// answered from entries is the host interface's max_calls.
//
// Every condition under which the engine answers from entries is here,
// in lookupBatch:
//
//  1. the context has no errors (a context with errors has no entries);
//  2. the request is {calls} alone: no run, so no budget can bite and no
//     totals are due;
//  3. calls is an array of at most maxCalls calls, each an object with a
//     string id and a string name, and no id is used twice.
//
// Under them the policy decides each call from that call alone
// (data.tooleval.batch, each call's verdict tooleval.verdict's): a call whose name is a key of entries gets
// {id, name} with the entry's verdict, and the other calls are decided by
// the policy as a batch of their own. Where a condition fails, the whole
// batch goes to the policy. TestSessionEqualsOneShot holds sessions to
// the one-shot decision on generated batches that take both paths.

// readEntries returns the finished verdicts of a compiled context, or nil
// when the context has errors or no entries (condition 1).
func readEntries(context ast.Value) ast.Object {
	obj, ok := context.(ast.Object)
	if !ok {
		return nil
	}
	errs, ok := typedMember[*ast.Array](obj, "errors")
	if !ok || errs.Len() != 0 {
		return nil
	}
	entries, ok := typedMember[ast.Object](obj, "entries")
	if !ok {
		return nil
	}
	return entries
}

// lookupBatch decides request from entries where the conditions above
// hold: it returns the decision and true, or false when the batch must go
// to the policy whole. evalRest decides the calls entries cannot, as a
// batch of their own.
func lookupBatch(ctx context.Context, entries ast.Object, maxCalls int, request ast.Value,
	evalRest func(context.Context, ast.Value) (*Decision, error),
) (*Decision, bool) {
	if entries == nil {
		return nil, false
	}
	obj, ok := request.(ast.Object)
	if !ok || obj.Len() != 1 {
		return nil, false
	}
	calls, ok := typedMember[*ast.Array](obj, "calls")
	if !ok || calls.Len() > maxCalls {
		return nil, false
	}
	type wellFormed struct {
		id, name *ast.Term
		verdict  ast.Object // nil: decided by the policy
	}
	batch := make([]wellFormed, calls.Len())
	ids := make(map[ast.String]struct{}, calls.Len())
	var rest []*ast.Term
	for i := range calls.Len() {
		call, ok := calls.Elem(i).Value.(ast.Object)
		if !ok {
			return nil, false
		}
		id, name := call.Get(ast.StringTerm("id")), call.Get(ast.StringTerm("name"))
		if id == nil || name == nil {
			return nil, false
		}
		idString, idOK := id.Value.(ast.String)
		_, nameOK := name.Value.(ast.String)
		if !idOK || !nameOK {
			return nil, false
		}
		if _, used := ids[idString]; used {
			return nil, false
		}
		ids[idString] = struct{}{}
		batch[i] = wellFormed{id: id, name: name}
		if t := entries.Get(name); t != nil {
			verdict, ok := t.Value.(ast.Object)
			if !ok {
				return nil, false
			}
			batch[i].verdict = verdict
		} else {
			rest = append(rest, calls.Elem(i))
		}
	}

	var decided *Decision
	var restDecisions *ast.Array
	if len(rest) > 0 {
		d, err := evalRest(ctx, ast.NewObject([2]*ast.Term{ast.StringTerm("calls"), ast.ArrayTerm(rest...)}))
		if err != nil || len(d.Errors) != 0 || len(d.Decisions) != len(rest) {
			return nil, false // the policy decides the whole batch, and reports any error
		}
		if restDecisions, ok = typedMember[*ast.Array](valueObject(d), "decisions"); !ok {
			return nil, false
		}
		decided = d
	}

	d := &Decision{Decisions: make([]CallDecision, len(batch)), Errors: []Problem{}}
	terms := make([]*ast.Term, len(batch))
	next := 0
	for i, c := range batch {
		if c.verdict == nil {
			d.Decisions[i] = decided.Decisions[next]
			terms[i] = restDecisions.Elem(next)
			next++
			continue
		}
		members := make([][2]*ast.Term, 0, c.verdict.Len()+2)
		members = append(members, [2]*ast.Term{ast.StringTerm("id"), c.id}, [2]*ast.Term{ast.StringTerm("name"), c.name})
		c.verdict.Foreach(func(k, v *ast.Term) {
			if key, ok := k.Value.(ast.String); ok && key != "id" && key != "name" {
				members = append(members, [2]*ast.Term{k, v})
			}
		})
		entry := ast.NewObject(members...)
		call, err := decodeCall(entry)
		if err != nil {
			return nil, false
		}
		d.Decisions[i] = call
		d.fromEntries++
		terms[i] = ast.NewTerm(entry)
	}
	d.value = ast.NewObject(
		[2]*ast.Term{ast.StringTerm("decisions"), ast.ArrayTerm(terms...)},
		[2]*ast.Term{ast.StringTerm("errors"), ast.ArrayTerm()},
	)
	return d, true
}

// valueObject is a decision's document as an object, or an empty one.
func valueObject(d *Decision) ast.Object {
	if d == nil {
		return ast.NewObject()
	}
	obj, ok := d.value.(ast.Object)
	if !ok {
		return ast.NewObject()
	}
	return obj
}
