package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// Session decides the dispatch batches of one agent session. The static
// part of the request (agent, declared tools, layers, workspace) is
// compiled by the policy once, when the session opens, and again only
// when the engine's bundle is reloaded; each batch then costs work
// proportional to its calls, not to the number of declared tools. A
// Session is safe for concurrent use.
type Session struct {
	engine  *Engine
	static  staticDoc // kept to recompile after a reload
	root    string
	resolve bool
	state   atomic.Pointer[sessionState]
	guard   *RunGuard // may be shared with other sessions of the run
}

// sessionState is the session's context compiled by one policy. It
// names that policy by its generation and holds no pointer to it, so an
// idle session does not keep a replaced policy (about 10 MiB) alive.
type sessionState struct {
	generation uint64
	context    *ast.Term  // opaque: the policy's, passed back as it is
	entries    ast.Object // the context's finished verdicts, or nil
	// memo is the policy's verdicts of calls with no argument to check,
	// by name, under this context (see lookupBatch); a recompiled
	// context starts with an empty one.
	memo *verdictMemo
}

type sessionOptions struct {
	resolvePaths bool
	guard        *RunGuard
}

// SessionOption configures [Engine.NewSession].
type SessionOption func(*sessionOptions)

// WithPathResolution turns host path resolution on or off (on by
// default for sessions): path arguments are resolved against the
// workspace root, symbolic links followed, before the policy sees them.
func WithPathResolution(on bool) SessionOption {
	return func(o *sessionOptions) { o.resolvePaths = on }
}

// WithRunGuard keeps the run's attempts and refusals across the
// session's batches in g and sends them to the policy as input.run.
// Sessions of one run (a parent and its sub-agents) may share g: their
// batches then take turns on it (see [RunGuard]).
func WithRunGuard(g *RunGuard) SessionOption {
	return func(o *sessionOptions) { o.guard = g }
}

// NewSession opens a session for the static part of a request: a
// document with agent, declared, layers and workspace (calls and run, if
// present, are ignored). static may be a [SessionConfig], any other
// JSON-compatible Go value, an ast.Value, or JSON text as [JSON].
func (e *Engine) NewSession(ctx context.Context, static any, opts ...SessionOption) (*Session, error) {
	o := sessionOptions{resolvePaths: true}
	for _, opt := range opts {
		opt(&o)
	}
	value, err := toValue(static)
	if err != nil {
		return nil, err
	}
	value = withoutBatch(value)
	root, hasRoot := workspaceRoot(value)
	s := &Session{
		engine:  e,
		static:  newStaticDoc(value),
		root:    root,
		resolve: o.resolvePaths && hasRoot,
		guard:   o.guard,
	}
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	if _, _, err := s.compile(ctx, e.current.Load(), value); err != nil {
		return nil, err
	}
	return s, nil
}

// staticDoc is a session's static document. It is kept as compact JSON
// (at 10,000 declared tools about 0.5 MiB, where its AST takes some 7
// MiB) and read again only when it is needed whole: to compile the
// context after a reload, and for the catalog, an explanation, the audit
// record and shadow evaluation. A document that does not read back from
// JSON as itself (an ast.Value holding a set, say) is kept as it is.
type staticDoc struct {
	json  []byte    // the document as JSON, or nil
	value ast.Value // the document, when json is nil
}

func newStaticDoc(v ast.Value) staticDoc {
	x, err := ast.JSON(v)
	if err != nil {
		return staticDoc{value: v}
	}
	data, err := json.Marshal(x)
	if err != nil {
		return staticDoc{value: v}
	}
	back, err := ast.ValueFromReader(bytes.NewReader(data))
	if err != nil || back.Compare(v) != 0 {
		return staticDoc{value: v}
	}
	return staticDoc{json: data}
}

// get returns the static document as AST, a fresh copy each time it is
// kept as JSON.
func (d staticDoc) get() (ast.Value, error) {
	if d.json == nil {
		return d.value, nil
	}
	v, err := ast.ValueFromReader(bytes.NewReader(d.json))
	if err != nil {
		return nil, fmt.Errorf("read the session's static document: %w", err)
	}
	return v, nil
}

// current returns the engine's current policy and the session's context
// compiled by it, compiling the context when the bundle has been
// reloaded since. On an error the policy is still returned (its
// fail-closed messages are the ones to refuse with).
func (s *Session) current(ctx context.Context) (*policy, *sessionState, error) {
	p := s.engine.current.Load()
	if st := s.state.Load(); st != nil && st.generation == p.generation {
		return p, st, nil
	}
	static, err := s.static.get()
	if err != nil {
		return p, nil, err
	}
	return s.compile(ctx, p, static)
}

// compile compiles the session's context, static, with p and makes it
// the session's.
func (s *Session) compile(ctx context.Context, p *policy, static ast.Value) (*policy, *sessionState, error) {
	compiled, err := p.compileContext(ctx, static)
	if err != nil {
		return p, nil, err
	}
	st := &sessionState{generation: p.generation, context: ast.NewTerm(compiled), entries: readEntries(compiled), memo: newVerdictMemo()}
	s.state.Store(st)
	return p, st, nil
}

// compileContext evaluates data.tooleval.context.session for the static
// document and keeps the result as AST, ready to be passed back in.
func (p *policy) compileContext(ctx context.Context, static ast.Value) (ast.Value, error) {
	value, err := evalAST(ctx, p.session, static)
	if err != nil {
		return nil, fmt.Errorf("compile session context: %w", err)
	}
	return value, nil
}

// keepAST returns a query result as the AST value itself, not as JSON.
func keepAST(t *ast.Term, _ *rego.EvalContext) (any, error) {
	return t.Value, nil
}

// withoutBatch drops calls and run from a document.
func withoutBatch(v ast.Value) ast.Value {
	obj, ok := v.(ast.Object)
	if !ok {
		return v
	}
	out := ast.NewObject()
	obj.Foreach(func(k, v *ast.Term) {
		if key, ok := k.Value.(ast.String); ok && (key == "calls" || key == "run") {
			return
		}
		out.Insert(k, v)
	})
	return out
}

// Decide decides one dispatch batch. calls is a list of calls in any of
// the input forms (see [JSON]: []Call or any JSON-compatible list, an
// ast.Value, or JSON text); with a [RunGuard] the run's totals are
// sent along and updated from the decision. On an evaluation error the
// returned decision refuses every call.
func (s *Session) Decide(ctx context.Context, calls any) (*Decision, error) {
	value, err := toValue(calls)
	if err != nil {
		return s.engine.messages().failClosed(ast.Null{}), err
	}
	d, _, err := s.decideBatch(ctx, value)
	return d, err
}

// DecideResolved is [Session.Decide], and also returns the calls as the
// policy judged them: every path argument the configuration names
// resolved on the host against the workspace root (absolute, clean,
// links followed), as a JSON-compatible value ([]any of map[string]any,
// numbers as json.Number). An embedder that runs an allowed call hands
// its executor these arguments, not the ones it was given, so that the
// executor acts on the very file the policy judged (see
// docs/contract.md, "Resolve, then hand over the resolved path"). A
// session that does not resolve paths returns the calls as given.
func (s *Session) DecideResolved(ctx context.Context, calls any) (*Decision, []any, error) {
	value, err := toValue(calls)
	if err != nil {
		return s.engine.messages().failClosed(ast.Null{}), nil, err
	}
	d, judged, err := s.decideBatch(ctx, value)
	if err != nil || judged == nil {
		return d, nil, err
	}
	out, jerr := ast.JSONWithOpt(judged, ast.JSONOpt{CopyMaps: true})
	list, ok := out.([]any)
	if jerr != nil || !ok {
		return s.engine.messages().failClosed(ast.Null{}), nil, fmt.Errorf("read the resolved calls back: %w", errors.Join(jerr, errors.New("not a list")))
	}
	return d, list, nil
}

// decideBatch decides a batch under the session's run guard, if any,
// and returns the calls as they were judged (paths resolved).
func (s *Session) decideBatch(ctx context.Context, value ast.Value) (*Decision, ast.Value, error) {
	var judged ast.Value
	decide := func(run ast.Object) (*Decision, error) {
		d, calls, err := s.decideCalls(ctx, value, run)
		judged = calls
		return d, err
	}
	if s.guard == nil {
		d, err := decide(nil)
		return d, judged, err
	}
	d, err := s.guard.batch(decide)
	return d, judged, err
}

// decideCalls decides a batch of calls, with input.run when run is not
// nil, and returns the calls it judged (paths resolved when the session
// resolves them). The evaluation deadline starts here, once the batch
// has its turn.
func (s *Session) decideCalls(ctx context.Context, calls ast.Value, run ast.Object) (*Decision, ast.Value, error) {
	ctx, cancel := s.engine.bounded(ctx)
	defer cancel()
	request := batchRequest(calls, run)
	p, st, err := s.current(ctx)
	if err != nil {
		return p.host.messages.failClosed(request), nil, err
	}
	if s.resolve && !p.overCapCalls(calls) { // a batch over the cap is refused unread
		calls = p.host.paths.resolveCalls(s.root, calls)
		request = batchRequest(calls, run)
	}
	d, err := s.decide(ctx, p, st, request)
	return d, calls, err
}

// batchRequest is the request document {calls, run?} of a batch.
func batchRequest(calls ast.Value, run ast.Object) ast.Object {
	request := ast.NewObject([2]*ast.Term{ast.StringTerm("calls"), ast.NewTerm(calls)})
	if run != nil {
		request.Insert(ast.StringTerm("run"), ast.NewTerm(run))
	}
	return request
}

// DecideRequest decides a batch given as a request document {calls,
// run}, exactly as data.tooleval.decision would for the session's static
// document merged with it. Paths are not resolved here.
func (s *Session) DecideRequest(ctx context.Context, request ast.Value) (*Decision, error) {
	ctx, cancel := s.engine.bounded(ctx)
	defer cancel()
	p, st, err := s.current(ctx)
	if err != nil {
		return p.host.messages.failClosed(request), err
	}
	return s.decide(ctx, p, st, request)
}

// decide evaluates a request against the session's context compiled by p.
// A batch whose calls the context holds finished verdicts for, or the
// session remembers the policy's verdicts of, is answered from them (see
// lookupBatch); the policy decides the rest.
func (s *Session) decide(ctx context.Context, p *policy, st *sessionState, request ast.Value) (*Decision, error) {
	evaluate := func(ctx context.Context, request ast.Value) (*Decision, error) {
		input := ast.NewObject(
			[2]*ast.Term{ast.StringTerm("context"), st.context},
			[2]*ast.Term{ast.StringTerm("request"), ast.NewTerm(request)},
		)
		return p.evalDecision(ctx, p.decide, input, request)
	}
	var (
		d     *Decision
		err   error
		start = time.Now()
	)
	defer func() { s.engine.meters.decided(ctx, start, d, err) }()
	if err = contextEnded(ctx); err != nil {
		d = p.host.messages.failClosed(request)
	} else if refused, over, overErr := p.sessionOverCap(ctx, st.context, request); over {
		d, err = refused, overErr // over the call cap: its calls are not evaluated (overcap.go)
	} else if looked, ok := lookupBatch(ctx, st.entries, st.memo, p.host.maxCalls, request, evaluate); ok {
		d = looked
		d.Revision = p.revision
	} else {
		d, err = evaluate(ctx, request)
	}
	if s.engine.audit != nil {
		static, _ := s.static.get() // nil should it not read back: the record then holds the request alone
		s.engine.auditDecision(ctx, p, auditDecision, sessionInput(static, request), d, err)
	}
	if s.engine.shadow != nil && err == nil {
		s.engine.shadow.offer(s.static, request, d)
	}
	return d, err
}

// Explain is [Engine.Explain] for one dispatch batch of the session: its
// static document with these calls, traced check by check (paths
// resolved on the host when the session resolves them). Explaining does
// not touch the run budget: a batch explained is not a batch decided,
// and its traces' run step is not_applicable. Its decisions without
// their traces are what [Session.Decide] gives for the same calls
// without a run guard.
func (s *Session) Explain(ctx context.Context, calls any) (*Decision, error) {
	value, err := toValue(calls)
	if err != nil {
		return s.engine.messages().failClosedExplained(ast.Null{}), err
	}
	doc, err := s.static.get()
	if err != nil {
		return s.engine.messages().failClosedExplained(value), err
	}
	static, ok := doc.(ast.Object)
	if !ok {
		return s.engine.explainValue(ctx, doc)
	}
	if p := s.engine.current.Load(); s.resolve && !p.overCapCalls(value) { // a batch over the cap is refused unread
		value = p.host.paths.resolveCalls(s.root, value)
	}
	request := static.Copy()
	request.Insert(ast.StringTerm("calls"), ast.NewTerm(value))
	return s.engine.explainValue(ctx, request)
}

// Tools returns the session's declared catalog, as [Engine.Tools] would
// for its static document, from the context the session compiled. On an
// evaluation error it returns the error together with a catalog that
// refuses every tool.
func (s *Session) Tools(ctx context.Context) (*Catalog, error) {
	ctx, cancel := s.engine.bounded(ctx)
	defer cancel()
	p, st, err := s.current(ctx)
	if err != nil {
		static, _ := s.static.get()
		return p.host.messages.failedCatalog(static), err
	}
	static, err := s.static.get()
	if err != nil {
		return p.host.messages.failedCatalog(ast.Null{}), err
	}
	input := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("context"), st.context},
		[2]*ast.Term{ast.StringTerm("request"), ast.NewTerm(static)},
	)
	return p.evalCatalog(ctx, p.catalog, input, static)
}
