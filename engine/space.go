package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/tooleval/tooleval/internal/verifyquery"
)

// verifyQueries are the prepared queries of `tooleval verify`'s entry
// points (the host interface's verify_space, verify_stacks and
// verify_catalogs).
type verifyQueries struct {
	space, stacks, catalogs rego.PreparedEvalQuery
}

func (e *Engine) verifyQueries() (*verifyQueries, error) {
	if q := e.current.Load().verify; q != nil {
		return q, nil
	}
	return nil, verifyquery.ErrNoVerify
}

// The engine gives tooleval verify its queries through
// internal/verifyquery: they are not the engine's public API.
func init() {
	verifyquery.ReadSpace = func(ctx context.Context, e any) (*verifyquery.Space, error) {
		en, err := verifyEngine(e)
		if err != nil {
			return nil, err
		}
		return en.space(ctx)
	}
	verifyquery.Stacks = func(ctx context.Context, e any, inputs []ast.Value) ([]string, error) {
		en, err := verifyEngine(e)
		if err != nil {
			return nil, err
		}
		return en.stacks(ctx, inputs)
	}
	verifyquery.Catalogs = func(ctx context.Context, e any, declared []any, requests []ast.Value) ([]any, error) {
		en, err := verifyEngine(e)
		if err != nil {
			return nil, err
		}
		cs, err := en.catalogs(ctx, declared, requests)
		if err != nil {
			return nil, err
		}
		out := make([]any, len(cs))
		for i, c := range cs {
			out[i] = c
		}
		return out, nil
	}
}

func verifyEngine(e any) (*Engine, error) {
	en, ok := e.(*Engine)
	if !ok || en == nil {
		return nil, fmt.Errorf("verify asks an engine, not a %T", e)
	}
	return en, nil
}

// space is verifyquery.ReadSpace.
func (e *Engine) space(ctx context.Context) (*verifyquery.Space, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	q, err := e.verifyQueries()
	if err != nil {
		return nil, err
	}
	value, err := evalAST(ctx, q.space, ast.NewObject())
	if err != nil {
		return nil, err
	}
	s := &verifyquery.Space{}
	if err := decodeInto(value, s); err != nil {
		return nil, err
	}
	return s, nil
}

// stacks is verifyquery.Stacks: one evaluation reads the configuration
// once for all the inputs.
func (e *Engine) stacks(ctx context.Context, inputs []ast.Value) ([]string, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	terms := make([]*ast.Term, len(inputs))
	for i, in := range inputs {
		terms[i] = ast.NewTerm(in)
	}
	q, err := e.verifyQueries()
	if err != nil {
		return nil, err
	}
	value, err := evalAST(ctx, q.stacks, ast.NewArray(terms...))
	if err != nil {
		return nil, err
	}
	arr, ok := value.(*ast.Array)
	if !ok || arr.Len() != len(inputs) {
		return nil, fmt.Errorf("%w: %d stacks for %d inputs", ErrShape, arrLen(arr), len(inputs))
	}
	out := make([]string, len(inputs))
	for i := range out {
		x, err := ast.JSON(arr.Elem(i).Value)
		if err != nil {
			return nil, fmt.Errorf("decode a stack: %w", err)
		}
		b, err := json.Marshal(x)
		if err != nil {
			return nil, fmt.Errorf("encode a stack: %w", err)
		}
		out[i] = string(b)
	}
	return out, nil
}

func arrLen(a *ast.Array) int {
	if a == nil {
		return -1
	}
	return a.Len()
}

// catalogs is verifyquery.Catalogs.
func (e *Engine) catalogs(ctx context.Context, declared []any, requests []ast.Value) ([]*Catalog, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	q, err := e.verifyQueries()
	if err != nil {
		return nil, err
	}
	d, err := toValue(declared)
	if err != nil {
		return nil, err
	}
	terms := make([]*ast.Term, len(requests))
	for i, r := range requests {
		terms[i] = ast.NewTerm(r)
	}
	input := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("declared"), ast.NewTerm(d)},
		[2]*ast.Term{ast.StringTerm("requests"), ast.ArrayTerm(terms...)},
	)
	value, err := evalAST(ctx, q.catalogs, input)
	if err != nil {
		return nil, err
	}
	arr, ok := value.(*ast.Array)
	if !ok || arr.Len() != len(requests) {
		return nil, fmt.Errorf("%w: %d catalogs for %d requests", ErrShape, arrLen(arr), len(requests))
	}
	out := make([]*Catalog, len(requests))
	for i := range out {
		c := &Catalog{}
		if err := decodeInto(arr.Elem(i).Value, c); err != nil {
			return nil, err
		}
		if err := checkToolVerdicts(c.Tools); err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}
