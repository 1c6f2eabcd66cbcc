package astcompile

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

// TestCompilationsRunOneAtATime: of compilations started together, no
// two are inside the compiler at once (a stage of each counts who is
// in), and each compiles its modules.
func TestCompilationsRunOneAtATime(t *testing.T) {
	module := ast.MustParseModuleWithOpts(`package p

f(x) := object.get(x, "k", {})

r := f({"k": {"a": 1}})
`, ast.ParserOptions{RegoVersion: ast.RegoV1})
	var k Compiler
	var inside, most atomic.Int64
	var wg sync.WaitGroup
	compiled := make(chan *ast.Compiler, 8)
	for range 8 {
		wg.Go(func() {
			c := ast.NewCompiler().WithStageAfterID(ast.StageCheckTypes, ast.CompilerStageDefinition{
				Name: "count", MetricName: "count",
				Stage: func(*ast.Compiler) *ast.Error {
					n := inside.Add(1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					for range 1000 { // stay inside a while
						_ = ast.MustParseRef("data.p.r")
					}
					inside.Add(-1)
					return nil
				},
			})
			k.Compile(c, map[string]*ast.Module{"p.rego": module})
			compiled <- c
		})
	}
	wg.Wait()
	close(compiled)
	for c := range compiled {
		require.False(t, c.Failed(), "%v", c.Errors)
		require.Len(t, c.GetRules(ast.MustParseRef("data.p.r")), 1)
	}
	require.Equal(t, int64(1), most.Load(), "compilations inside the compiler at once")
}
