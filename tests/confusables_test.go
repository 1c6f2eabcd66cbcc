package tests

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/engine/canonical"
	"github.com/tooleval/tooleval/internal/skeleton"
)

// TestConfusablesAgreeWithTheTable checks the Rego skeleton against the
// Go reference: for every entry of the skeleton table whose skeleton is
// itself a canonical name, the declared names "x"+character and
// "x"+skeleton are reported as confusable by data.tooleval.check, and a
// name is never reported with itself.
func TestConfusablesAgreeWithTheTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// No deadline of its own: a check of 400 declared names is the table's
	// test, not a timing one, and on a loaded machine it can take longer
	// than the default 5 s (it failed so once with other tests running).
	e, err := engine.New(ctx, engine.WithEvalTimeout(0))
	require.NoError(t, err)
	table := skeleton.BuildTable()

	var pairs [][2]string
	for c, s := range table {
		if canonical.Canonical("x"+c) != "x"+c || canonical.Canonical("x"+s) != "x"+s || skeleton.Of(table, s) != s {
			continue // not both canonical names (a mark composing with x), or the skeleton is not a fixed point
		}
		pairs = append(pairs, [2]string{"x" + c, "x" + s})
	}
	require.Greater(t, len(pairs), 1000)

	// One check document per batch of pairs keeps the run short; each
	// pair has its own skeleton, so each must come back as its own group.
	const batch = 200
	reported := 0
	for start := 0; start < len(pairs); start += batch {
		chunk := pairs[start:min(start+batch, len(pairs))]
		var declared []any
		want := map[string]bool{}
		seen := map[string]bool{}
		for _, p := range chunk {
			key := skeleton.Of(table, p[1])
			if seen[key] {
				continue // two characters with one skeleton: keep the first pair only
			}
			seen[key] = true
			declared = append(declared, map[string]any{"name": p[0]}, map[string]any{"name": p[1]})
			want[p[0]+"|"+p[1]] = true
		}
		c, err := e.Check(ctx, map[string]any{"declared": declared})
		require.NoError(t, err)
		got := map[string]bool{}
		for _, w := range c.Warnings {
			if w.Code() != "confusable_names" {
				continue
			}
			names, _ := w["names"].([]any)
			require.Len(t, names, 2, "%v", w)
			a, b := names[0].(string), names[1].(string)
			if !want[a+"|"+b] {
				a, b = b, a
			}
			require.True(t, want[a+"|"+b], "unexpected confusable group %q", names)
			got[a+"|"+b] = true
		}
		for pair := range want {
			require.True(t, got[pair], "the policy did not report %q as confusable", pair)
		}
		reported += len(got)
	}
	t.Logf("confusables: %d look-alike pairs from the table reported by the policy", reported)
}
