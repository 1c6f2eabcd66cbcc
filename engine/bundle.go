package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/compile"

	"github.com/tooleval/tooleval/policies"
)

// WriteBundle writes the policy bundle as a gzipped tarball to w, the
// same bundle `opa build --bundle policies --ignore '*_test.rego'` makes:
// from source (a bundle directory), or from the embedded policies when
// source is empty, with the given manifest revision (when empty: the
// build's [BuildRevision] for the embedded policies, "dev" for a
// source). A non-empty config is overlaid on data.tooleval.config (see
// [WithConfig]), so that a stock OPA server serving the bundle decides
// with the same configuration as an engine given that config. A config
// the policy reports errors for is refused with an error wrapping
// [ErrInvalidConfig]: every decision of that bundle would be
// invalid_config.
func WriteBundle(ctx context.Context, w io.Writer, source, revision string, config Config) error {
	if revision == "" {
		revision = BuildRevision()
		if source != "" {
			revision = "dev"
		}
	}
	if len(config) > 0 {
		return writeConfiguredBundle(ctx, w, source, revision, config)
	}
	// The same checks as a load: never write a bundle the engine would refuse.
	b, err := loadBundle(source, nil)
	if err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	carried := b.Data["tooleval"].(map[string]any)["prepared"] // loadBundle checked data.tooleval
	if _, err := preparePolicy(ctx, b); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	if !reflect.DeepEqual(carried, b.Data["tooleval"].(map[string]any)["prepared"]) {
		// The source's prepared configuration is stale: write the fresh one.
		return writeLoadedBundle(w, b, revision)
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
// on its data, unless the policy finds errors in the result.
func writeConfiguredBundle(ctx context.Context, w io.Writer, source, revision string, config Config) error {
	b, err := loadBundle(source, nil)
	if err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	if err := applyConfig(ctx, b, config); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	if err := checkConfiguration(ctx, b); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	return writeLoadedBundle(w, b, revision)
}

// writeLoadedBundle writes a loaded bundle with the given revision.
func writeLoadedBundle(w io.Writer, b *bundle.Bundle, revision string) error {
	b.Manifest.Revision = revision
	if err := bundle.NewWriter(w).Write(*b); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	return nil
}

// ErrInvalidConfig is wrapped by the error of [WriteBundle], and of [New]
// and [Engine.Reload] with [WithStrictConfig], for a configuration that
// data.tooleval.check reports errors for.
var ErrInvalidConfig = errors.New("the configuration has errors")

// checkConfiguration evaluates data.tooleval.check on a loaded bundle
// and returns its errors, if any.
func checkConfiguration(ctx context.Context, b *bundle.Bundle) error {
	p, err := preparePolicy(ctx, b)
	if err != nil {
		return err
	}
	return configurationErrors(ctx, p)
}

// configurationErrors evaluates data.tooleval.check of a prepared policy
// for an empty request and returns an error wrapping [ErrInvalidConfig]
// that lists its errors, if any.
func configurationErrors(ctx context.Context, p *policy) error {
	value, err := evalAST(ctx, p.check, ast.NewObject())
	if err != nil {
		return err
	}
	var c Check
	if err := decodeInto(value, &c); err != nil {
		return err
	}
	if len(c.Errors) == 0 {
		return nil
	}
	msgs := make([]string, len(c.Errors))
	for i, p := range c.Errors {
		msgs[i] = p.Code() + ": " + p.Message()
		if f, ok := p["field"].(string); ok && f != "" {
			msgs[i] += " (" + f + ")"
		}
	}
	return fmt.Errorf("%w, and every decision would be refused as invalid_config: %s (run tooleval check --config)", ErrInvalidConfig, strings.Join(msgs, "; "))
}
