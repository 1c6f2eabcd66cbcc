package tests

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/corpus"
)

// propertyCases is how many generated documents each property is checked
// on in make test; make soak checks ten times more (scaled). 150 keeps
// make test under its eight minutes (the differential test checks
// 10,000 documents against the oracle).
const propertyCases = 150

// scaled is n generated documents times the scale of make test (1) or
// make soak (10): corpus.Scaled.
func scaled(t *testing.T, n int) int {
	t.Helper()
	k, err := corpus.Scaled(n)
	require.NoError(t, err)
	return k
}

// decideDoc decides a generic document through JSON, as a REST caller would.
func decideDoc(t *testing.T, e *engine.Engine, doc map[string]any) *engine.Decision {
	t.Helper()
	data, err := json.Marshal(doc)
	require.NoError(t, err)
	d, err := e.Decide(context.Background(), engine.JSON(data))
	require.NoError(t, err)
	return d
}

func toolsDoc(t *testing.T, e *engine.Engine, doc map[string]any) *engine.Catalog {
	t.Helper()
	data, err := json.Marshal(doc)
	require.NoError(t, err)
	c, err := e.Tools(context.Background(), engine.JSON(data))
	require.NoError(t, err)
	return c
}

func verdicts(d *engine.Decision) []engine.CallDecision {
	out := make([]engine.CallDecision, len(d.Decisions))
	for i, c := range d.Decisions {
		c.Message = "" // messages quote layers and names; the verdict is the rest
		out[i] = c
	}
	return out
}

func subset(t *testing.T, small, large []string, msgAndArgs ...any) {
	t.Helper()
	for _, name := range small {
		require.Contains(t, large, name, msgAndArgs...)
	}
}

func propertyDocs(t *testing.T) []map[string]any {
	t.Helper()
	return corpus.New(31).Decisions(scaled(t, propertyCases))
}

// Appending a layer never grows effective.
func TestPropertyAppendingALayerNeverWidens(t *testing.T) {
	t.Parallel()
	e := newTestEngine(t)
	for i, doc := range propertyDocs(t) {
		layers, isList := doc["layers"].([]any)
		if doc["layers"] != nil && !isList {
			continue // a malformed member: appending would replace it
		}
		before, beforeTools := decideDoc(t, e, doc), toolsDoc(t, e, doc)
		var allow []any
		for j, d := range asSlice(doc["declared"]) {
			if m, ok := d.(map[string]any); ok && j%2 == 0 {
				allow = append(allow, m["name"])
			}
		}
		extended := with(doc, "layers", append(slices.Clone(layers), map[string]any{"name": "extra", "allow": allow}))
		after := decideDoc(t, e, extended)
		subset(t, toolsDoc(t, e, extended).Effective, beforeTools.Effective, "document %d", i)
		for k, c := range after.Decisions {
			if c.Allowed {
				require.True(t, before.Decisions[k].Allowed, "document %d call %d: a new layer allowed a refused call", i, k)
			}
		}
	}
}

// Permuting the declarations, or the entries of every list, changes no
// verdict and no effective set.
func TestPropertyOrderDoesNotMatter(t *testing.T) {
	t.Parallel()
	e := newTestEngine(t)
	for i, doc := range propertyDocs(t) {
		want := decideDoc(t, e, doc)
		permuted := with(doc, "declared", reversedIfList(doc["declared"]))
		if layers, ok := doc["layers"].([]any); ok {
			var out []any
			for _, l := range layers {
				if m, ok := l.(map[string]any); ok {
					m = with(m, "allow", reversedIfList(m["allow"]))
					if _, hasDeny := m["deny"]; hasDeny {
						m = with(m, "deny", reversedIfList(m["deny"]))
					}
					out = append(out, m)
					continue
				}
				out = append(out, l)
			}
			permuted = with(permuted, "layers", out)
		}
		got := decideDoc(t, e, permuted)
		require.Equal(t, verdicts(want), verdicts(got), "document %d", i)
		require.Equal(t, toolsDoc(t, e, doc).Effective, toolsDoc(t, e, permuted).Effective, "document %d", i)
		require.Equal(t, len(want.Errors) > 0, len(got.Errors) > 0, "document %d", i)
	}
}

// A delegation chain's effective set is a subset of what each hop alone
// allows.
func TestPropertyDelegationOnlyNarrows(t *testing.T) {
	t.Parallel()
	e := newTestEngine(t)
	for i, doc := range propertyDocs(t) {
		layers, ok := doc["layers"].([]any)
		if !ok || len(layers) < 2 {
			continue
		}
		chain := toolsDoc(t, e, doc)
		for k, hop := range layers {
			alone := toolsDoc(t, e, with(doc, "layers", []any{hop}))
			if len(alone.Errors) == 0 {
				subset(t, chain.Effective, alone.Effective, "document %d, hop %d", i, k)
			}
		}
	}
}

// Without a budget and with distinct ids, a batch decides like its calls
// taken one by one.
func TestPropertyBatchEqualsCallsOneByOne(t *testing.T) {
	t.Parallel()
	e := newTestEngine(t)
	for i, doc := range propertyDocs(t) {
		doc = without(doc, "run")
		calls := asSlice(doc["calls"])
		batch := decideDoc(t, e, doc)
		if len(calls) != len(batch.Decisions) || hasDuplicateIDs(calls) {
			continue
		}
		for k, call := range calls {
			one := decideDoc(t, e, with(doc, "calls", []any{call}))
			require.Equal(t, verdicts(batch)[k], verdicts(one)[0], "document %d call %d", i, k)
		}
	}
}

func newTestEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	return e
}

func asSlice(x any) []any {
	s, _ := x.([]any)
	return s
}

func reversed(s []any) []any {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

func reversedIfList(x any) any {
	if s, ok := x.([]any); ok {
		return reversed(s)
	}
	return x
}

func hasDuplicateIDs(calls []any) bool {
	seen := map[any]bool{}
	for _, c := range calls {
		m, ok := c.(map[string]any)
		if !ok {
			continue
		}
		if seen[m["id"]] {
			return true
		}
		seen[m["id"]] = true
	}
	return false
}
