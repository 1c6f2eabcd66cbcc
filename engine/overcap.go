package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
)

// A batch of more calls than the call cap (the host interface's
// max_calls, tooleval.shape.max_calls) is refused whole, and the policy
// reads none of its calls: every call gets one refusal with its id and
// name (data.tooleval.batch). The engine refuses such a batch without
// handing the policy its calls, so that the cap bounds what it costs:
// it asks the policy's over-cap entry point (data.tooleval.over_cap for
// a one-shot decision or explanation, data.tooleval.decide_over_cap
// with a session's context) for the request without its calls and how
// many there are, and gets {document, refusal, trace}: the decision
// document but its decisions, every call's decision but its id and name,
// and every call's trace under explain. It then gives each call, in
// order, refusal with the call's id and name as the policy does
// (tooleval.shape.field: the member, or null when it is absent or null
// or the call is not an object), and trace when it explains.
// TestOverCapIsThePolicysDecision holds the result to what
// data.tooleval.decision and data.tooleval.explain give on stock OPA.
//
// A bundle without these entry points decides such a batch in full. An
// answer that is undefined, not of that shape or that allows the calls
// fails closed, as an undefined decision does.

// overCapQueries are the over-cap entry points, prepared.
type overCapQueries struct {
	oneShot rego.PreparedEvalQuery // over_cap(request, n)
	session rego.PreparedEvalQuery // decide_over_cap(context, request, n)
}

// prepareOverCap prepares the over-cap entry points of a compiled
// bundle; nil when its host interface does not name them or it does not
// define them.
func prepareOverCap(ctx context.Context, compiler *ast.Compiler, store storage.Store, ep entryPoints) (*overCapQueries, error) {
	if ep.overCap == "" || ep.decideOverCap == "" || len(missingRules(compiler, []string{ep.overCap, ep.decideOverCap})) > 0 {
		return nil, nil
	}
	q := &overCapQueries{}
	for query, target := range map[string]*rego.PreparedEvalQuery{
		ep.overCap + "(input.request, input.calls)":                      &q.oneShot,
		ep.decideOverCap + "(input.context, input.request, input.calls)": &q.session,
	} {
		var err error
		*target, err = rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
		if err != nil {
			return nil, fmt.Errorf("prepare %s: %w", query, err)
		}
	}
	return q, nil
}

// overCapBatch is a request over the call cap: its calls, and the
// request without them.
type overCapBatch struct {
	calls   *ast.Array
	request ast.Object
}

// overCapCalls reports whether calls is an array of more calls than the
// call cap and the policy has the over-cap entry points: a batch the
// engine refuses unread, with nothing of it to prepare (no path of it is
// resolved on the host).
func (p *policy) overCapCalls(calls ast.Value) bool {
	list, ok := calls.(*ast.Array)
	return ok && p.overCap != nil && list.Len() > p.host.maxCalls
}

// overCapBatch splits request when it is an object whose calls member is
// over the cap (overCapCalls); false otherwise.
func (p *policy) overCapBatch(request ast.Value) (overCapBatch, bool) {
	obj, ok := request.(ast.Object)
	if !ok {
		return overCapBatch{}, false
	}
	calls, ok := typedMember[*ast.Array](obj, "calls")
	if !ok || !p.overCapCalls(calls) {
		return overCapBatch{}, false
	}
	rest := ast.NewObject()
	obj.Foreach(func(k, v *ast.Term) {
		if key, ok := k.Value.(ast.String); !ok || key != "calls" {
			rest.Insert(k, v)
		}
	})
	return overCapBatch{calls: calls, request: rest}, true
}

// evalOneShot evaluates the decision of a one-shot input, or with
// explain its explanation: a batch over the call cap with the over-cap
// entry point, any other with the decision or explain document. On an
// error it returns the error with the fail-closed document.
func (p *policy) evalOneShot(ctx context.Context, input ast.Value, explain bool) (*Decision, error) {
	q, failed := p.decision, p.host.messages.failClosed
	if explain {
		q, failed = p.explain, p.host.messages.failClosedExplained
	}
	b, ok := p.overCapBatch(input)
	if !ok {
		return evalDocument(ctx, q, input, p.decodeDecision, func() *Decision { return failed(input) })
	}
	d, err := p.evalOverCap(ctx, p.overCap.oneShot, b, nil, explain)
	if err != nil {
		return failed(input), err
	}
	return d, nil
}

// sessionOverCap decides a session's request over the call cap with its
// compiled context; ok is false when the request is not over the cap (or
// the policy has no over-cap entry points). On an error it returns the
// error with the fail-closed decision.
func (p *policy) sessionOverCap(ctx context.Context, compiled *ast.Term, request ast.Value) (d *Decision, ok bool, err error) {
	b, ok := p.overCapBatch(request)
	if !ok {
		return nil, false, nil
	}
	d, err = p.evalOverCap(ctx, p.overCap.session, b, compiled, false)
	if err != nil {
		return p.host.messages.failClosed(request), true, err
	}
	return d, true, nil
}

// evalOverCap evaluates an over-cap entry point q for b (with the
// compiled context, when it is not nil) and builds the decision of b's
// calls from its answer, with a trace on every call when traced.
func (p *policy) evalOverCap(ctx context.Context, q rego.PreparedEvalQuery, b overCapBatch, compiled *ast.Term, traced bool) (*Decision, error) {
	input := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("request"), ast.NewTerm(b.request)},
		[2]*ast.Term{ast.StringTerm("calls"), ast.IntNumberTerm(b.calls.Len())},
	)
	if compiled != nil {
		input.Insert(ast.StringTerm("context"), compiled)
	}
	value, err := evalAST(ctx, q, input)
	if err != nil {
		return nil, fmt.Errorf("refuse a batch over the call cap: %w", err)
	}
	d, err := b.decision(value, traced)
	if err != nil {
		return nil, fmt.Errorf("refuse a batch over the call cap: %w", err)
	}
	d.Revision = p.revision
	return d, nil
}

// decision builds the decision of b's calls from the policy's over-cap
// answer ({document, refusal, trace}): document with decisions, one per
// call in order, refusal with the call's id and name, and trace when
// traced. An answer of another shape, or whose refusal allows the calls,
// is an error wrapping ErrShape.
func (b overCapBatch) decision(answer ast.Value, traced bool) (*Decision, error) {
	obj, ok := answer.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("%w: the over-cap answer is not an object", ErrShape)
	}
	document, okDocument := typedMember[ast.Object](obj, "document")
	refusal, okRefusal := typedMember[ast.Object](obj, "refusal")
	trace, okTrace := typedMember[*ast.Array](obj, "trace")
	if !okDocument || !okRefusal || (traced && !okTrace) {
		return nil, fmt.Errorf("%w: the over-cap answer lacks document, refusal or trace", ErrShape)
	}
	// Every call's members but id and name, trace last: the policy's
	// object.union(object.union(refusal, {id, name}), {trace}).
	members := make([][2]*ast.Term, 0, refusal.Len()+3)
	refusal.Foreach(func(k, v *ast.Term) {
		if key, ok := k.Value.(ast.String); ok && (key == "id" || key == "name" || (traced && key == "trace")) {
			return
		}
		members = append(members, [2]*ast.Term{k, v})
	})
	if traced {
		members = append(members, [2]*ast.Term{ast.StringTerm("trace"), ast.NewTerm(trace)})
	}
	base, err := decodeCall(ast.NewObject(members...))
	if err != nil {
		return nil, err
	}
	if base.Allowed {
		return nil, fmt.Errorf("%w: the over-cap refusal allows the calls", ErrShape)
	}

	n := b.calls.Len()
	terms := make([]*ast.Term, n)
	calls := make([]CallDecision, n)
	for i := range n {
		call := b.calls.Elem(i).Value
		entry := ast.NewObject(append(members[:len(members):len(members)],
			[2]*ast.Term{ast.StringTerm("id"), ast.NewTerm(fieldValue(call, "id"))},
			[2]*ast.Term{ast.StringTerm("name"), ast.NewTerm(fieldValue(call, "name"))},
		)...)
		terms[i] = ast.NewTerm(entry)
		c := base
		c.ID, c.Name, c.Trace = jsonMember(entry, "id"), jsonMember(entry, "name"), slices.Clone(base.Trace)
		calls[i] = c
	}
	// The document's errors and run, read as any decision's.
	doc := document.Copy()
	doc.Insert(ast.StringTerm("decisions"), ast.ArrayTerm())
	d, err := decodeDecision(doc)
	if err != nil {
		return nil, err
	}
	doc.Insert(ast.StringTerm("decisions"), ast.ArrayTerm(terms...))
	d.Decisions, d.value = calls, doc
	return d, nil
}
