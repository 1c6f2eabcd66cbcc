package engine

import (
	"context"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A session answers the calls of a batch that its compiled context holds
// a finished verdict for without evaluating them. The verdicts are the
// policy's: data.tooleval.context.session puts them in the context, as
// entries, keyed by the names as declared, and the session remembers the
// policy's own answer for a call that has no argument to check, in its
// memo, keyed by the exact name the call spelled.
//
// The session context is the policy's and otherwise opaque: the engine
// passes it back as it got it (input.context of the decide and catalog
// entry points). It reads two of its members, here and nowhere else:
//
//   - errors: an array; when it is not empty the context's requests are
//     refused whole, and the engine answers nothing from entries or the
//     memo;
//   - entries: an object from a declared tool's name, exactly as
//     declared, to the finished verdict of its calls, {allowed: true}
//     (the policy puts no other there today: a refused tool's calls go
//     to the policy, then to the memo), or {allowed: false, reason,
//     layer, message}; members other than id and name are copied into
//     the call's decision as they are.
//
// A context without either member, or with one of another kind, answers
// nothing from entries or the memo: every batch goes to the policy. The
// largest batch answered from entries or the memo is the host
// interface's max_calls.
//
// Every condition under which the engine answers from entries or the
// memo, or remembers a verdict in the memo, is here, in lookupBatch:
//
//  1. the context has no errors (a context with errors has no entries);
//  2. the request is {calls} alone: no run, so no budget can bite and no
//     totals are due;
//  3. calls is an array of at most maxCalls calls, each an object with a
//     string id and a string name, and no id is used twice;
//  4. a call answered from the memo, or remembered in it, is an object
//     with exactly two members, id and name (no args, nothing else), and
//     its name is not a key of entries; its verdict is remembered only
//     from a decision of the policy without errors, for a batch that met
//     conditions 1 to 3, whose decision for it is an object that echoes
//     its id and name; the memo holds at most memoCapacity names of at
//     most memoNameBytes bytes each; and the memo belongs to the context
//     it was filled under (sessionState), so that a recompiled context (a
//     reload) starts with an empty one.
//
// Under them the policy decides each call from that call alone
// (data.tooleval.batch, each call's verdict tooleval.verdict's): a call
// whose name is a key of entries gets {id, name} with the entry's
// verdict, a call of condition 4 whose name the memo holds gets {id,
// name} with the remembered verdict, and the other calls are decided by
// the policy as a batch of their own. Where a condition fails, the whole
// batch goes to the policy. TestSessionEqualsOneShot holds sessions to
// the one-shot decision on generated batches that take every path.
//
// Why, under them, the verdict of a call of condition 4 is a function of
// its name alone (the context being fixed): data.tooleval.batch gives it
// verdict.call_verdict(verdict.facts(ctx, batch, i, call)), its name not
// being in entries, with its id and name echoed. Of the facts, problem
// is null (condition 3: a string id and name, the id unique), errors is
// 0 (condition 1, and with conditions 2 and 3 the batch has no error of
// its own: calls is an array within max_calls, no run), run is null
// (condition 2); so the input, config and run checks pass, whatever i
// and the other calls are. name, canonical and tool are the name's and
// the context's. The action and paths checks read the call's args,
// which it has none of (condition 4), so every such call shows them {}.
// The id reaches only the echo, which the memo does not keep. The
// fail-closed net (data.tooleval.decide) refuses the batch with an
// error, and no verdict is remembered from a decision with one.

// memoCapacity is the most names a session's memo remembers: an agent
// that sends endless distinct names fills it once, and every later name
// goes to the policy, as it would without a memo.
const memoCapacity = 4096

// memoNameBytes is the longest name the memo remembers. The policy takes
// calls of any name (one longer than its canonical form's limit is
// refused as not declared, and the message quotes it), so the memo
// bounds what it keeps itself.
const memoNameBytes = 256

// verdictMemo is the policy's verdicts of calls that are exactly {id,
// name} (condition 4), by the exact name of the call, under one compiled
// context. It is safe for concurrent use.
type verdictMemo struct {
	mu       sync.RWMutex
	capacity int
	verdicts map[string]ast.Object // members other than id and name
}

func newVerdictMemo() *verdictMemo {
	return &verdictMemo{capacity: memoCapacity, verdicts: map[string]ast.Object{}}
}

// get returns the verdict remembered for name, or nil.
func (m *verdictMemo) get(name string) ast.Object {
	if m == nil {
		return nil
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.verdicts[name]
}

// put remembers verdict for name, unless the name is too long or the
// memo is full.
func (m *verdictMemo) put(name string, verdict ast.Object) {
	if m == nil || len(name) > memoNameBytes {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.verdicts[name]; ok || len(m.verdicts) >= m.capacity {
		return
	}
	m.verdicts[name] = verdict
}

// len is how many names the memo holds.
func (m *verdictMemo) len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.verdicts)
}

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

// lookupCall is a call of a batch that meets condition 3.
type lookupCall struct {
	id, name *ast.Term
	verdict  ast.Object // nil: decided by the policy
	memoized bool       // the verdict is the memo's
	memoable bool       // exactly {id, name}: its verdict may be remembered
}

// lookupBatch decides request from entries and memo where the conditions
// above hold: it returns the decision and true, or false when the batch
// must go to the policy whole. evalRest decides the calls entries and
// memo cannot, as a batch of their own; their verdicts are remembered in
// memo where condition 4 allows.
func lookupBatch(ctx context.Context, entries ast.Object, memo *verdictMemo, maxCalls int, request ast.Value,
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
	batch := make([]lookupCall, calls.Len())
	ids := make(map[ast.String]struct{}, calls.Len())
	var rest []int // the calls the policy decides, by index in batch
	for i := range calls.Len() {
		c, ok := readCall(calls.Elem(i).Value, ids)
		if !ok {
			return nil, false
		}
		if t := entries.Get(c.name); t != nil {
			verdict, ok := t.Value.(ast.Object)
			if !ok {
				return nil, false
			}
			c.verdict = verdict
		} else if c.memoable {
			c.verdict = memo.get(string(c.name.Value.(ast.String)))
			c.memoized = c.verdict != nil
		}
		if c.verdict == nil {
			rest = append(rest, i)
		}
		batch[i] = c
	}

	var decided *Decision
	var restDecisions *ast.Array
	if len(rest) > 0 {
		terms := make([]*ast.Term, len(rest))
		for k, i := range rest {
			terms[k] = calls.Elem(i)
		}
		d, err := evalRest(ctx, ast.NewObject([2]*ast.Term{ast.StringTerm("calls"), ast.ArrayTerm(terms...)}))
		if err != nil || len(d.Errors) != 0 || len(d.Decisions) != len(rest) {
			return nil, false // the policy decides the whole batch, and reports any error
		}
		if restDecisions, ok = typedMember[*ast.Array](valueObject(d), "decisions"); !ok || restDecisions.Len() != len(rest) {
			return nil, false
		}
		decided = d
		for k, i := range rest {
			if batch[i].memoable {
				remember(memo, batch[i], restDecisions.Elem(k))
			}
		}
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
		entry := withCall(c, c.verdict)
		call, err := decodeCall(entry)
		if err != nil {
			return nil, false
		}
		d.Decisions[i] = call
		if c.memoized {
			d.fromMemo++
		} else {
			d.fromEntries++
		}
		terms[i] = ast.NewTerm(entry)
	}
	d.value = ast.NewObject(
		[2]*ast.Term{ast.StringTerm("decisions"), ast.ArrayTerm(terms...)},
		[2]*ast.Term{ast.StringTerm("errors"), ast.ArrayTerm()},
	)
	return d, true
}

// readCall reads a call under condition 3 and adds its id to ids: false
// when it is not an object with a string id and a string name, or its id
// is in ids already.
func readCall(v ast.Value, ids map[ast.String]struct{}) (lookupCall, bool) {
	call, ok := v.(ast.Object)
	if !ok {
		return lookupCall{}, false
	}
	id, name := call.Get(memberKey("id")), call.Get(memberKey("name"))
	if id == nil || name == nil {
		return lookupCall{}, false
	}
	idString, idOK := id.Value.(ast.String)
	_, nameOK := name.Value.(ast.String)
	if !idOK || !nameOK {
		return lookupCall{}, false
	}
	if _, used := ids[idString]; used {
		return lookupCall{}, false
	}
	ids[idString] = struct{}{}
	return lookupCall{id: id, name: name, memoable: call.Len() == 2}, true
}

// withCall is the decision of call c with verdict v: c's id and name, and
// every member of v other than id and name.
func withCall(c lookupCall, v ast.Object) ast.Object {
	members := make([][2]*ast.Term, 0, v.Len()+2)
	members = append(members, [2]*ast.Term{ast.StringTerm("id"), c.id}, [2]*ast.Term{ast.StringTerm("name"), c.name})
	v.Foreach(func(k, v *ast.Term) {
		if key, ok := k.Value.(ast.String); ok && key != "id" && key != "name" {
			members = append(members, [2]*ast.Term{k, v})
		}
	})
	return ast.NewObject(members...)
}

// remember puts the policy's decision for call c in memo, as a verdict
// without id and name, when the decision is an object that echoes c's id
// and name (condition 4).
func remember(memo *verdictMemo, c lookupCall, decision *ast.Term) {
	obj, ok := decision.Value.(ast.Object)
	if !ok {
		return
	}
	id, name := obj.Get(memberKey("id")), obj.Get(memberKey("name"))
	if id == nil || name == nil || !id.Equal(c.id) || !name.Equal(c.name) {
		return
	}
	verdict := ast.NewObject()
	obj.Foreach(func(k, v *ast.Term) {
		if key, ok := k.Value.(ast.String); ok && key != "id" && key != "name" {
			verdict.Insert(k, v)
		}
	})
	memo.put(string(c.name.Value.(ast.String)), verdict)
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
