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

	"github.com/tooleval/tooleval/internal/astcompile"
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
// invalid_config. With [WithSigningKey] the bundle is signed as `opa
// build --signing-key` signs it (.signatures.json).
func WriteBundle(ctx context.Context, w io.Writer, source, revision string, config Config, opts ...BundleOption) error {
	var o bundleOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.signing != nil {
		if _, err := o.signing.GetPrivateKey(); err != nil {
			return fmt.Errorf("build bundle: signing key: %w", err)
		}
	}
	if revision == "" {
		revision = BuildRevision()
		if source != "" {
			revision = "dev"
		}
	}
	if len(config) > 0 {
		return writeConfiguredBundle(ctx, w, source, revision, config, o)
	}
	// The same checks as a load: never write a bundle the engine would refuse.
	b, err := loadBundle(source, nil)
	if err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	tooleval := b.Data["tooleval"].(map[string]any) // loadBundle checked data.tooleval
	carried := tooleval["prepared"]
	if _, err := configuredPolicy(ctx, b, nil); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	if !reflect.DeepEqual(carried, tooleval["prepared"]) {
		// The source's prepared configuration is stale (it carries the
		// configuration it was prepared from, so a load that changes the
		// configuration makes it stale too): write what a load reads.
		return writeLoadedBundle(w, b, revision, o)
	}
	c := compile.New().
		WithAsBundle(true).
		WithRegoVersion(ast.RegoV1).
		WithFilter(skipTests).
		WithRevision(revision).
		WithOutput(w)
	if o.signing != nil {
		c = c.WithBundleSigningConfig(o.signing).WithBundleVerificationKeyID(o.keyID)
	}
	if source == "" {
		c = c.WithFS(policies.Bundle()).WithPaths(".")
	} else {
		if _, err := os.Stat(source); err != nil {
			return fmt.Errorf("build bundle: %w", err)
		}
		c = c.WithPaths(source)
	}
	astcompile.Default.Do(func() { err = c.Build(ctx) }) // the builder compiles the modules
	if err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	return nil
}

// writeConfiguredBundle writes the bundle at source with config overlaid
// on its data, unless the policy finds errors in the result.
func writeConfiguredBundle(ctx context.Context, w io.Writer, source, revision string, config Config, o bundleOptions) error {
	b, err := loadBundle(source, nil)
	if err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	p, err := configuredPolicy(ctx, b, config)
	if err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	if err := configurationErrors(ctx, p); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	return writeLoadedBundle(w, b, revision, o)
}

// writeLoadedBundle writes a loaded bundle with the given revision,
// signed when o says so.
func writeLoadedBundle(w io.Writer, b *bundle.Bundle, revision string, o bundleOptions) error {
	b.Manifest.Revision = revision
	if o.signing != nil {
		if err := b.GenerateSignature(o.signing, o.keyID, false); err != nil {
			return fmt.Errorf("build bundle: sign: %w", err)
		}
	}
	if err := bundle.NewWriter(w).Write(*b); err != nil {
		return fmt.Errorf("build bundle: %w", err)
	}
	return nil
}

// BundleOption configures [WriteBundle].
type BundleOption func(*bundleOptions)

type bundleOptions struct {
	signing *bundle.SigningConfig
	keyID   string
}

// SigningKey signs a bundle: Key is, as for `opa build --signing-key`,
// a PEM private key (RSA or ECDSA), the path of a file holding one, or
// an HMAC secret; Algorithm is a JWS algorithm (RS256 when empty); ID
// is the key id servers verify with (the bundle's keyid; "default" when
// empty).
type SigningKey struct {
	ID        string
	Key       string
	Algorithm string
}

// WithSigningKey signs the bundle [WriteBundle] writes with k, so that a
// server or an engine that verifies bundles ([WithVerificationKey], OPA's
// bundles.NAME.signing) accepts it.
func WithSigningKey(k SigningKey) BundleOption {
	return func(o *bundleOptions) {
		o.signing = bundle.NewSigningConfig(k.Key, k.Algorithm, "")
		o.keyID = k.ID
		if o.keyID == "" {
			o.keyID = "default"
		}
	}
}

// ErrInvalidConfig is wrapped by the error of [WriteBundle], and of [New]
// and [Engine.Reload] with [WithStrictConfig], for a configuration that
// data.tooleval.check reports errors for.
var ErrInvalidConfig = errors.New("the configuration has errors")

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
