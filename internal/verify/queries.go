package verify

import (
	"context"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/verifyquery"
)

// Space is what verify enumerates for an engine's configuration
// (data.tooleval.verify.space).
type Space = verifyquery.Space

// readSpace reads the space verify enumerates for e's configuration.
func readSpace(ctx context.Context, e *engine.Engine) (*Space, error) {
	return verifyquery.ReadSpace(ctx, e)
}

// catalogs gives the catalog of each of requests with declared declared,
// in one evaluation (verifyquery.Catalogs).
func catalogs(ctx context.Context, e *engine.Engine, declared []any, requests []ast.Value) ([]*engine.Catalog, error) {
	got, err := verifyquery.Catalogs(ctx, e, declared, requests)
	if err != nil {
		return nil, err
	}
	out := make([]*engine.Catalog, len(got))
	for i, c := range got {
		var ok bool
		if out[i], ok = c.(*engine.Catalog); !ok {
			return nil, fmt.Errorf("the engine answered a %T, not a catalog", c)
		}
	}
	return out, nil
}

// problems are the space's errors as the engine's problem documents.
func problems(docs []map[string]any) []engine.Problem {
	out := make([]engine.Problem, len(docs))
	for i, d := range docs {
		out[i] = d
	}
	return out
}
