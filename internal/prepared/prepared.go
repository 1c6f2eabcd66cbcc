// Package prepared computes data.tooleval.prepared, the configuration
// prepared once (the policy's data.tooleval.configuration.prepared_document),
// for the policy bundle in this repository: `go generate ./internal/prepared`
// writes policies/tooleval/prepared/data.json, and the test beside this
// file fails when that file is not what the policy prepares today. The
// policy uses the prepared data only while it matches the configuration,
// so a stale file costs time, never a wrong decision.
package prepared

//go:generate go run ./gen -o ../../policies/tooleval/prepared/data.json

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/tooleval/tooleval/internal/astcompile"
)

// Query is the policy's prepared configuration.
const Query = "data.tooleval.configuration.prepared_document"

// dataPath is the prepared data file, relative to the bundle root.
var dataPath = filepath.Join("tooleval", "prepared", "data.json")

// Document evaluates the prepared configuration of the policy bundle
// directory dir (its own prepared data left out) and returns it as the
// JSON the bundle carries.
func Document(ctx context.Context, dir string) ([]byte, error) {
	skip := func(abspath string, info fs.FileInfo, _ int) bool {
		rel, err := filepath.Rel(dir, abspath)
		return !info.IsDir() && (strings.HasSuffix(info.Name(), "_test.rego") || (err == nil && rel == dataPath))
	}
	b, err := loader.NewFileLoader().WithFilter(skip).AsBundle(dir)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	modules := make(map[string]*ast.Module, len(b.Modules))
	for _, m := range b.Modules {
		modules[m.Path] = m.Parsed
	}
	compiler := ast.NewCompiler()
	if astcompile.Default.Compile(compiler, modules); compiler.Failed() {
		return nil, fmt.Errorf("compile %s: %w", dir, compiler.Errors)
	}
	rs, err := rego.New(rego.Query(Query), rego.Compiler(compiler), rego.ParsedInput(ast.NewObject()),
		rego.Store(newStore(b.Data))).Eval(ctx)
	if err != nil {
		return nil, fmt.Errorf("prepare %s: %w", dir, err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return nil, fmt.Errorf("prepare %s: %s is undefined", dir, Query)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(rs[0].Expressions[0].Value); err != nil {
		return nil, fmt.Errorf("encode prepared configuration: %w", err)
	}
	return buf.Bytes(), nil
}
