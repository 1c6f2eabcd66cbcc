package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// orFailed evaluates an input converted from one of its forms (see
// [JSON]) with eval, or, when the conversion failed (err), returns err with
// the document failed makes of no request: every call or tool refused.
func orFailed[T any](ctx context.Context, value ast.Value, err error, failed func(ast.Value) T,
	eval func(context.Context, ast.Value) (T, error),
) (T, error) {
	if err != nil {
		return failed(ast.Null{}), err
	}
	return eval(ctx, value)
}

// evalDocument evaluates a prepared query and decodes its result, or
// returns the error with the document failed makes when either fails.
func evalDocument[T any](ctx context.Context, q rego.PreparedEvalQuery, input ast.Value,
	decode func(ast.Value) (T, error), failed func() T,
) (T, error) {
	value, err := evalAST(ctx, q, input)
	if err != nil {
		return failed(), err
	}
	out, err := decode(value)
	if err != nil {
		return failed(), err
	}
	return out, nil
}

// messages are the current policy's fail-closed messages.
func (e *Engine) messages() failClosedMessages { return e.current.Load().host.messages }

// Decide evaluates data.tooleval.decision for one full input document,
// in any of its forms (see [JSON]): a JSON-compatible Go value, JSON
// text as [JSON], or an ast.Value. A batch over the policy's call cap is
// refused whole without its calls being evaluated (see overcap.go). On
// an evaluation error, or an input that cannot be read, it returns the
// error together with a decision that refuses every call.
func (e *Engine) Decide(ctx context.Context, input any) (*Decision, error) {
	value, err := toValue(input)
	return orFailed(ctx, value, err, e.messages().failClosed, e.decideValue)
}

func (e *Engine) decideValue(ctx context.Context, input ast.Value) (*Decision, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	p := e.current.Load()
	start := time.Now()
	d, err := p.evalOneShot(ctx, input, false)
	e.meters.decided(ctx, start, d, err)
	e.auditDecision(ctx, p, auditDecision, input, d, err)
	if e.shadow != nil && err == nil {
		e.shadow.offer(staticDoc{}, input, d)
	}
	return d, err
}

// Explain evaluates data.tooleval.explain for one full input document
// (in any of its forms, see [JSON]): the decision, with a trace on every
// call (every check in evaluation order, what it said, and the entry
// that matched with where it came from). Its decisions without their
// traces are [Engine.Decide]'s. On an evaluation error it returns the
// error together with a decision that refuses every call, each with a
// one-step trace that says so.
func (e *Engine) Explain(ctx context.Context, input any) (*Decision, error) {
	value, err := toValue(input)
	return orFailed(ctx, value, err, e.messages().failClosedExplained, e.explainValue)
}

func (e *Engine) explainValue(ctx context.Context, input ast.Value) (*Decision, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	p := e.current.Load()
	start := time.Now()
	d, err := p.evalOneShot(ctx, input, true)
	e.meters.decided(ctx, start, d, err)
	e.auditDecision(ctx, p, auditExplain, input, d, err)
	return d, err
}

// Launch evaluates data.tooleval.launch for a launch document (in any
// of its forms, see [JSON]). On an
// evaluation error it returns the error together with an invalid,
// deny-all launch.
func (e *Engine) Launch(ctx context.Context, input any) (*Launch, error) {
	value, err := toValue(input)
	return orFailed(ctx, value, err, e.messages().failedLaunch, e.launchValue)
}

func (e *Engine) launchValue(ctx context.Context, input ast.Value) (*Launch, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	p := e.current.Load()
	l, err := evalDocument(ctx, p.launch, input, p.decodeLaunch,
		func() *Launch { return p.host.messages.failedLaunch(input) })
	e.record(ctx, p, auditLaunch, input, l.document, err)
	return l, err
}

// decodeLaunch reads a launch document of the policy.
func (p *policy) decodeLaunch(value ast.Value) (*Launch, error) {
	document, err := ast.JSON(value)
	if err != nil {
		return nil, err
	}
	l := &Launch{document: document, Revision: p.revision}
	if err := decodeInto(value, l); err != nil {
		return nil, err
	}
	return l, nil
}

// Tools evaluates data.tooleval.tools for one input document, in any of
// its forms (see [JSON]): the declared catalog as the agent sees it.
// Calls and run are ignored. On an evaluation error it returns the error
// together with a catalog that refuses every tool.
func (e *Engine) Tools(ctx context.Context, input any) (*Catalog, error) {
	value, err := toValue(input)
	return orFailed(ctx, value, err, e.messages().failedCatalog, e.toolsValue)
}

func (e *Engine) toolsValue(ctx context.Context, input ast.Value) (*Catalog, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	p := e.current.Load()
	return p.evalCatalog(ctx, p.tools, input, input)
}

// evalCatalog evaluates a catalog query; request is the document whose
// declared tools a failed catalog refuses.
func (p *policy) evalCatalog(ctx context.Context, q rego.PreparedEvalQuery, input, request ast.Value) (*Catalog, error) {
	return evalDocument(ctx, q, input, p.decodeCatalog, func() *Catalog { return p.host.messages.failedCatalog(request) })
}

// decodeCatalog reads a catalog document of the policy.
func (p *policy) decodeCatalog(value ast.Value) (*Catalog, error) {
	document, err := ast.JSON(value)
	if err != nil {
		return nil, err
	}
	c := &Catalog{document: document, Revision: p.revision}
	if err := decodeInto(value, c); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrShape, err)
	}
	if c.Errors == nil || c.Effective == nil || c.Tools == nil {
		return nil, ErrShape
	}
	if err := checkToolVerdicts(c.Tools); err != nil {
		return nil, err
	}
	return c, nil
}

// evalDecision evaluates a decision query; request is the document whose
// calls a fail-closed decision refuses.
func (p *policy) evalDecision(ctx context.Context, q rego.PreparedEvalQuery, input, request ast.Value) (*Decision, error) {
	return evalDocument(ctx, q, input, p.decodeDecision, func() *Decision { return p.host.messages.failClosed(request) })
}

// decodeDecision reads a decision document of the policy, with or
// without traces, and stamps it with the policy's revision.
func (p *policy) decodeDecision(value ast.Value) (*Decision, error) {
	d, err := decodeDecision(value)
	if err != nil {
		return nil, err
	}
	d.Revision = p.revision
	return d, nil
}

// queryTracerKey is the context key of a topdown.QueryTracer that
// evalAST hands every evaluation it runs: how the expression budget test
// counts the expressions a decision evaluates.
type queryTracerKey struct{}

// evalAST runs a prepared query whose single expression is the result,
// and returns that result as AST (not converted to JSON). A context that
// has ended before or during the evaluation is an error even when the
// evaluation answered: OPA notices cancellation from another goroutine,
// which a fast evaluation can outrun (always, under GOMAXPROCS=1).
func evalAST(ctx context.Context, q rego.PreparedEvalQuery, input ast.Value) (ast.Value, error) {
	if err := contextEnded(ctx); err != nil {
		return nil, err
	}
	opts := []rego.EvalOption{rego.EvalParsedInput(input), rego.EvalGenerateJSON(keepAST)}
	if t, ok := ctx.Value(queryTracerKey{}).(topdown.QueryTracer); ok {
		opts = append(opts, rego.EvalQueryTracer(t))
	}
	rs, err := q.Eval(ctx, opts...)
	if err := contextEnded(ctx); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("evaluate policy: %w", err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return nil, ErrUndefined
	}
	value, ok := rs[0].Expressions[0].Value.(ast.Value)
	if !ok {
		return nil, ErrShape
	}
	return value, nil
}

// contextEnded returns an error wrapping the context's cause once it is
// cancelled or past its deadline, and nil before. A deadline counts from
// the clock, not from ctx.Err(): the timer that sets ctx.Err() runs on
// another goroutine, which may not have run yet.
func contextEnded(ctx context.Context) error {
	if ctx.Err() == nil {
		if deadline, ok := ctx.Deadline(); !ok || time.Now().Before(deadline) {
			return nil
		}
		return fmt.Errorf("evaluate policy: %w", context.DeadlineExceeded)
	}
	cause := context.Cause(ctx)
	if !errors.Is(cause, ctx.Err()) {
		cause = fmt.Errorf("%w: %w", ctx.Err(), cause)
	}
	return fmt.Errorf("evaluate policy: %w", cause)
}

// JSON is an input document as JSON text: the engine's methods that take
// an input (any) read it with [DecodeInput], as opa eval reads an input
// file (numbers keep their text; a byte order mark is skipped; data
// after the document is an error, which refuses every call). The other
// forms are an ast.Value, taken as it is, and any other Go value,
// converted through encoding/json, but a plain []byte, which is an error
// (it would be read as a base64 string).
type JSON []byte

// toValue converts an input in any of its forms (see [JSON]) to AST; a
// Go value the way the policy would see it as JSON: through
// encoding/json, so that the Go API and a REST body give the policy the
// same document (invalid UTF-8 becomes U+FFFD, structs follow their
// json tags).
func toValue(x any) (ast.Value, error) {
	switch v := x.(type) {
	case ast.Value:
		return v, nil
	case JSON:
		return DecodeInput(v)
	case []byte:
		// encoding/json would make it a base64 string: never what a caller
		// with JSON text means
		return nil, errors.New("convert input: a []byte is not an input document: pass JSON text as engine.JSON(data)")
	}
	data, err := json.Marshal(x)
	if err != nil {
		return nil, fmt.Errorf("convert input: %w", err)
	}
	v, err := ast.ValueFromReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("convert input: %w", err)
	}
	return v, nil
}
