package docpath

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

func TestHolds(t *testing.T) {
	doc := map[string]any{"a": map[string]any{"b": []any{"x", map[string]any{"c": 1}}}, "s": "text"}
	for ref, want := range map[string]bool{
		`a`: true, `a.b`: true, `a.b[0]`: true, `a.b[1].c`: true,
		`a.z`: false, `a.b[2]`: false, `a.b[-1]`: false, `a.b["0"]`: false, `a[0]`: false, `s.t`: false,
	} {
		require.Equal(t, want, Holds(doc, ast.MustParseRef("data." + ref)[1:]), ref)
	}
}
