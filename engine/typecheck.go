package engine

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// OPA's type checker asks, for every rule whose type holds an empty
// collection (`default x := []`, a table with an empty set, ...),
// whether a `with` modifier of any module could replace the rule. The
// compiler answers by walking every module for `with` targets in data,
// and keeps the answer only when it is not empty (v1/ast check.go,
// typeChecker.isReplaced: a nil map is asked again). The policy has no
// `with` on data outside its tests, so the answer is empty and every
// module was walked once per such rule: about 250 rules, 60 of the 100
// ms the type check took (compile stage timers, 2026-12-06).
//
// typeCheckHint is a module that replaces one rule of its own with
// `with`: the answer is that rule, kept after the first walk. It
// changes no type but its own rule's (a relaxed empty collection type
// would only accept more) and no decision: nothing reads its package.
// It is compiled with the bundle's modules, never written into a bundle.
var typeCheckHint = ast.MustParseModuleWithOpts(`package tooleval_engine_internal.typecheck_hint

default replaced := true

replaces if {
	replaced with data.tooleval_engine_internal.typecheck_hint.replaced as false
}
`, ast.ParserOptions{RegoVersion: ast.RegoV1})

// typeCheckHintPath is the hint's module path among the compiled modules.
const typeCheckHintPath = "(tooleval engine)/typecheck_hint.rego"

// withTypeCheckHint returns modules with the hint module added, or an
// error when a module of the bundle has its path (a tarball may name a
// file anything): the hint never takes a module's place.
func withTypeCheckHint(modules map[string]*ast.Module) (map[string]*ast.Module, error) {
	if _, taken := modules[typeCheckHintPath]; taken {
		return nil, fmt.Errorf("the bundle has a module at %q, a path the engine keeps for its own", typeCheckHintPath)
	}
	modules[typeCheckHintPath] = typeCheckHint
	return modules, nil
}
