package engine

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/compile"

	"github.com/tooleval/tooleval/policies"
)

// WriteBundle writes the policy bundle as a gzipped tarball to w, the
// same bundle `opa build --bundle policies --ignore '*_test.rego'` makes:
// from source (a bundle directory), or from the embedded policies when
// source is empty, with the given manifest revision. A non-empty config
// is overlaid on data.tooleval.config (see [WithConfig]), so that a
// stock OPA server serving the bundle decides with the same
// configuration as an engine given that config.
func WriteBundle(ctx context.Context, w io.Writer, source, revision string, config Config) error {
	if len(config) > 0 {
		return writeConfiguredBundle(ctx, w, source, revision, config)
	}
	c := compile.New().
		WithAsBundle(true).
		WithRegoVersion(ast.RegoV1).
		WithFilter(skipTests).
		WithRevision(revision).
		WithOutput(w)
	if source == "" {
		c = c.WithFS(policies.Bundle()).WithPaths(".")
	} else {
		if _, err := os.Stat(source); err != nil {
			return fmt.Errorf("build bundle: %w", err)
		}
		c = c.WithPaths(source)
	}
	if err := c.Build(ctx); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	return nil
}

// writeConfiguredBundle writes the bundle at source with config overlaid
// on its data.
func writeConfiguredBundle(ctx context.Context, w io.Writer, source, revision string, config Config) error {
	b, err := loadBundle(source)
	if err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	if err := applyConfig(ctx, b, config); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	b.Manifest.Revision = revision
	if err := bundle.NewWriter(w).Write(*b); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	return nil
}
