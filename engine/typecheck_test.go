package engine

import (
	"bytes"
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/stretchr/testify/require"
)

// TestTypeCheckHintIsTheOnlyReplacedRule holds what makes the hint work
// and keeps it inert: in the compiled policy, every `with` target in data
// is the hint's own rule (so OPA's answer to "which rules can a with
// replace" is that one rule, not empty, and no rule of the policy has
// its type relaxed), and the hint is compiled, not shipped: a written
// bundle does not carry it.
func TestTypeCheckHintIsTheOnlyReplacedRule(t *testing.T) {
	b, err := loadBundle("", nil)
	require.NoError(t, err)
	compiler, _, err := compileBundle(context.Background(), b)
	require.NoError(t, err)

	replaced := map[string]bool{}
	for _, m := range compiler.Modules {
		ast.WalkWiths(m, func(w *ast.With) bool {
			if ref, ok := w.Target.Value.(ast.Ref); ok && ref.HasPrefix(ast.DefaultRootRef) {
				for _, rule := range compiler.GetRulesDynamicWithOpts(ref, ast.RulesOptions{IncludeHiddenModules: true}) {
					replaced[rule.Ref().String()] = true
				}
			}
			return false
		})
	}
	require.Equal(t, map[string]bool{"data.tooleval_engine_internal.typecheck_hint.replaced": true}, replaced, "the with targets in data of the compiled policy")
	require.Len(t, compiler.GetRules(ast.MustParseRef("data.tooleval_engine_internal.typecheck_hint.replaced")), 1)

	var out bytes.Buffer
	require.NoError(t, WriteBundle(context.Background(), &out, "", "", nil))
	written, err := bundle.NewReader(&out).Read()
	require.NoError(t, err)
	for _, m := range written.Modules {
		require.NotEqual(t, typeCheckHint.Package.Path.String(), m.Parsed.Package.Path.String(), "the hint is in the written bundle: %s", m.Path)
	}
}

// TestTypeCheckHintTakesNoModulesPlace: a bundle with a module at the
// hint's path (a tarball may name a file anything) is refused, not
// compiled with the hint in that module's place.
func TestTypeCheckHintTakesNoModulesPlace(t *testing.T) {
	b := &bundle.Bundle{Modules: []bundle.ModuleFile{{
		Path:   typeCheckHintPath,
		Parsed: ast.MustParseModuleWithOpts("package tooleval\n\nallow := true\n", ast.ParserOptions{RegoVersion: ast.RegoV1}),
	}}}
	_, _, err := compileBundle(context.Background(), b)
	require.ErrorContains(t, err, "a path the engine keeps for its own")
}

// BenchmarkNew loads the embedded bundle: what a reload pays (the
// embedded bundle is parsed in the first iteration only: a process
// parses it once), a tooleval process that plus the parse.
//
//	go test -run '^$' -bench '^BenchmarkNew$' -benchtime 20x -count 8 ./engine/
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		if _, err := New(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
