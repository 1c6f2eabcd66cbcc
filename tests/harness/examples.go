package harness

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Example is one committed input document, the entry point it is
// evaluated with and its expected result.
type Example struct {
	Input, Expected, Query string
}

// Examples lists inputs/*.json (decisions, and their catalogs under
// tools/) and inputs/launch/*.json (launches) with their expected
// documents under inputs/expected/.
func Examples(t testing.TB) []Example {
	t.Helper()
	var out []Example
	for _, set := range []struct{ dir, expected, query string }{
		{"inputs", "inputs/expected", "data.tooleval.decision"},
		{"inputs", "inputs/expected/tools", "data.tooleval.tools"},
		{"inputs", "inputs/expected/explain", "data.tooleval.explain"},
		{"inputs/launch", "inputs/expected/launch", "data.tooleval.launch"},
	} {
		files, err := filepath.Glob(filepath.Join(Path(set.dir), "*.json"))
		require.NoError(t, err)
		for _, f := range files {
			out = append(out, Example{f, filepath.Join(Path(set.expected), filepath.Base(f)), set.query})
		}
	}
	require.GreaterOrEqual(t, len(out), 8, "the examples are missing")
	return out
}

// ExamplesByQuery groups the examples by the entry point they are
// evaluated with.
func ExamplesByQuery(t testing.TB) map[string][]Example {
	t.Helper()
	out := map[string][]Example{}
	for _, ex := range Examples(t) {
		out[ex.Query] = append(out[ex.Query], ex)
	}
	return out
}

// InputsOf are the examples' input files, in order.
func InputsOf(exs []Example) []string {
	out := make([]string, len(exs))
	for i, ex := range exs {
		out[i] = ex.Input
	}
	return out
}
