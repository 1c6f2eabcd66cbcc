package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing/fstest" // an in-memory fs.FS for a directory snapshot

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/tooleval/tooleval/internal/astcompile"
	"github.com/tooleval/tooleval/policies"
)

// ErrBundleChanged is wrapped by the error of a load that found the
// bundle directory changing while it read it, three times in a row. A
// bundle directory must be replaced atomically: build the new one beside
// it and rename a symbolic link to point at it.
var ErrBundleChanged = errors.New("the bundle directory changed while it was read (replace it atomically: rename a symbolic link)")

// loadPolicy loads a bundle, checks that it holds everything the policy
// needs, overlays the deployment's configuration and prepares the
// engine's queries on it.
func loadPolicy(ctx context.Context, path string, config Config, vc *bundle.VerificationConfig) (*policy, error) {
	b, err := loadBundle(path, vc)
	if err != nil {
		return nil, err
	}
	return configuredPolicy(ctx, b, config)
}

// configuredPolicy compiles a loaded bundle once, loads it with the
// deployment's configuration (see [preparePolicy]) and prepares the
// engine's queries on it. The modules are compiled once: the
// configuration changes the bundle's data, which the compiled modules do
// not depend on.
func configuredPolicy(ctx context.Context, b *bundle.Bundle, config Config) (*policy, error) {
	compiler, store, err := compileBundle(ctx, b)
	if err != nil {
		return nil, err
	}
	return preparePolicy(ctx, b, compiler, store, config)
}

// preparePolicy loads a compiled bundle (compiler, with its data in
// store) with a deployment's configuration, checks that the bundle holds
// what its host interface names, and prepares the engine's queries on
// it. One evaluation of the policy's load (hostLoad) gives:
//
//   - the configuration in force, config merged over the bundle's
//     data.tooleval.config (see [WithConfig]) with the policy's own
//     merge, which replaces data.tooleval.config: the interface was read
//     under it;
//   - the configuration prepared from it (what the policy derives from
//     its configuration alone), which replaces data.tooleval.prepared:
//     the policy reads prepared data only when it was prepared from the
//     configuration in force, so this saves every decision from preparing
//     the configuration again, and never changes one;
//   - the host interface, read under that configuration.
//
// Both replace the member in b's data too, which a bundle written from b
// carries.
func preparePolicy(ctx context.Context, b *bundle.Bundle, compiler *ast.Compiler, store storage.Store, config Config) (*policy, error) {
	if err := checkReferences(compiler, b.Data, []string{hostLoad}); err != nil {
		return nil, err
	}
	overlay := ast.Value(ast.NewObject())
	if len(config) > 0 {
		var err error
		if overlay, err = toValue(map[string]any(config)); err != nil {
			return nil, fmt.Errorf("apply config: %w", err)
		}
	}
	l, err := loadHost(ctx, compiler, store, overlay)
	if err != nil {
		return nil, err
	}
	host := l.host
	if err := checkRules(compiler, host.entryPoints.rules()); err != nil {
		return nil, err
	}
	if err := checkRequirements(b.Data, host.floor); err != nil {
		return nil, err
	}
	if err := putData(ctx, store, b, "config", l.config); err != nil {
		return nil, fmt.Errorf("apply config: %w", err)
	}
	if err := putData(ctx, store, b, "prepared", l.prepared); err != nil {
		return nil, fmt.Errorf("prepare the configuration: %w", err)
	}
	p := &policy{revision: b.Manifest.Revision, host: host}
	for query, target := range host.entryPoints.queries(p) {
		*target, err = rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
		if err != nil {
			return nil, fmt.Errorf("prepare %s: %w", query, err)
		}
	}
	// tooleval verify's entry points, when the bundle has them.
	ep := host.entryPoints
	if len(missingRules(compiler, []string{ep.verifySpace, ep.verifyStacks, ep.verifyCatalogs})) == 0 {
		p.verify = &verifyQueries{}
		for query, target := range map[string]*rego.PreparedEvalQuery{
			ep.verifySpace:              &p.verify.space,
			ep.verifyStacks + "(input)": &p.verify.stacks,
			ep.verifyCatalogs:           &p.verify.catalogs,
		} {
			*target, err = rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
			if err != nil {
				return nil, fmt.Errorf("prepare %s: %w", query, err)
			}
		}
	}
	if p.hooks, err = prepareHooks(ctx, compiler, store, ep); err != nil {
		return nil, err
	}
	if p.overCap, err = prepareOverCap(ctx, compiler, store, ep); err != nil {
		return nil, err
	}
	return p, nil
}

// putData makes value data.tooleval.KEY, both in the bundle's data (which
// a bundle written from b carries) and in store (which the prepared
// queries read), replacing what was there. Only that member is converted:
// the rest of the store (the Unicode tables) is not built again.
func putData(ctx context.Context, store storage.Store, b *bundle.Bundle, key string, value ast.Value) error {
	document, err := ast.JSON(value)
	if err != nil {
		return err
	}
	tooleval, ok := b.Data["tooleval"].(map[string]any) // loadBundle checked it
	if !ok {
		return errors.New("the bundle has no data.tooleval object")
	}
	tooleval[key] = document
	return storage.WriteOne(ctx, store, storage.AddOp, storage.Path{"tooleval", key}, value)
}

// loadBundle reads the bundle at path, or the embedded one when path is
// empty, and checks that its data holds what the policy reads. Rego test
// files are left out. A bundle from a path is read from one snapshot of
// its files and, with a verification config, must carry a valid
// signature for exactly those files. The embedded bundle is part of the
// binary and is not verified; its revision, "dev" in the repository, is
// the build's ([BuildRevision]).
func loadBundle(path string, vc *bundle.VerificationConfig) (*bundle.Bundle, error) {
	l := loader.NewFileLoader().WithFilter(skipTests)
	var (
		b   *bundle.Bundle
		err error
	)
	switch {
	case path == "":
		b, err = embeddedBundle()
		path = "embedded bundle"
		if err == nil && b.Manifest.Revision == "dev" {
			b.Manifest.Revision = BuildRevision()
		}
	default:
		b, err = readBundle(l.WithBundleVerificationConfig(vc).WithSkipBundleVerification(vc == nil), path)
	}
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	if len(b.Modules) == 0 {
		return nil, fmt.Errorf("load %s: the bundle has no policy", path)
	}
	if err := checkData(b.Data); err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	return b, nil
}

// embeddedBundle returns the embedded bundle: its own copy of the
// manifest and the data, which a load changes (the revision, the
// members of data.tooleval a configuration or its preparation replaces),
// and, shared, the parsed modules, which no load changes (the compiler
// compiles copies of them). Parsing is about a fifth
// of a load (BenchmarkNew's CPU profile, 2026-12-06), done once per
// process: an engine that reloads, the engines of a diff or a verify, a
// test's engines.
func embeddedBundle() (*bundle.Bundle, error) {
	parsed, err := parsedEmbeddedBundle()
	if err != nil {
		return nil, err
	}
	b := *parsed
	b.Manifest = parsed.Manifest.Copy()
	b.Modules = slices.Clone(parsed.Modules)
	b.Data = copyJSON(parsed.Data).(map[string]any)
	return &b, nil
}

// copyJSON returns a deep copy of a JSON document as OPA's loader
// decodes it (objects, arrays and immutable scalars).
func copyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, x := range v {
			c[k] = copyJSON(x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = copyJSON(x)
		}
		return c
	default:
		return v
	}
}

// parsedEmbeddedBundle reads the embedded bundle once per process; it is
// never changed (embeddedBundle copies what a load changes).
var parsedEmbeddedBundle = sync.OnceValues(func() (*bundle.Bundle, error) {
	return loader.NewFileLoader().WithFilter(skipTests).WithFS(policies.Bundle()).WithSkipBundleVerification(true).AsBundle(".")
})

// readBundle reads the bundle directory or tarball at path into memory
// first and loads it from there, so that a file replaced during the load
// cannot mix two bundles.
func readBundle(l loader.FileLoader, path string) (*bundle.Bundle, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return l.WithReader(bytes.NewReader(data)).AsBundle(path)
	}
	snapshot, err := snapshotDirectory(path)
	if err != nil {
		return nil, err
	}
	if len(snapshot) == 0 {
		return &bundle.Bundle{}, nil // "the bundle has no policy"
	}
	// Rooted below ".": OPA's loader, at root ".", reads
	// ".signatures.json" as "signatures.json" and misses the signature.
	rooted := make(fstest.MapFS, len(snapshot))
	for name, f := range snapshot {
		rooted[snapshotRoot+"/"+name] = f
	}
	return l.WithFS(rooted).AsBundle(snapshotRoot)
}

// snapshotRoot is the directory a snapshot is loaded from.
const snapshotRoot = "snapshot"

// snapshotDirectory reads every file of a bundle directory into memory.
// A symbolic link given as path is resolved once, so a link renamed to
// another directory meanwhile does not matter. The files are read twice;
// if the two readings differ, the directory was being changed in place,
// and the snapshot is taken again (three times at most).
func snapshotDirectory(path string) (fstest.MapFS, error) {
	root, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	for range 3 {
		first, err := readTree(root)
		if errors.Is(err, errVanished) {
			continue
		}
		if err != nil {
			return nil, err
		}
		second, err := readTree(root)
		if errors.Is(err, errVanished) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if sameTree(first, second) {
			return first, nil
		}
	}
	return nil, ErrBundleChanged
}

// errVanished: a file disappeared between listing and reading.
var errVanished = errors.New("a file of the bundle vanished while it was read")

// readTree reads the regular files under root, except Rego tests.
func readTree(root string) (fstest.MapFS, error) {
	files := fstest.MapFS{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(d.Name(), "_test.rego") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file (bundle directories are read without following links)", rel)
		}
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return errVanished // replaced or removed since it was listed
		}
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data, Mode: 0o444}
		return nil
	})
	return files, err
}

func sameTree(a, b fstest.MapFS) bool {
	if len(a) != len(b) {
		return false
	}
	for name, f := range a {
		g, ok := b[name]
		if !ok || !bytes.Equal(f.Data, g.Data) {
			return false
		}
	}
	return true
}

func skipTests(_ string, info fs.FileInfo, _ int) bool {
	return !info.IsDir() && strings.HasSuffix(info.Name(), "_test.rego")
}

// compileBundle compiles the bundle's modules once and puts its data in
// an in-memory store that returns AST values, so that a policy look-up
// into a large data object reads one entry instead of converting it.
func compileBundle(ctx context.Context, b *bundle.Bundle) (*ast.Compiler, storage.Store, error) {
	modules := make(map[string]*ast.Module, len(b.Modules))
	for _, m := range b.Modules {
		modules[m.Path] = m.Parsed
	}
	modules, err := withTypeCheckHint(modules)
	if err != nil {
		return nil, nil, fmt.Errorf("compile policy: %w", err)
	}
	compiler := ast.NewCompiler()
	if astcompile.Default.Compile(compiler, modules); compiler.Failed() {
		return nil, nil, fmt.Errorf("compile policy: %w", compiler.Errors)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return compiler, newStore(b.Data), nil
}

// newStore is an in-memory store of data that returns AST values.
func newStore(data map[string]any) storage.Store {
	return inmem.NewFromObjectWithOpts(data, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
}
