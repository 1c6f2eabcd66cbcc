package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
)

// Config is a deployment's configuration overlay: members of
// data.tooleval.config (tenants, scopes, agents, profiles, preset, ...).
// It is merged over the bundle's configuration: members that are objects
// on both sides merge key by key, recursively; anything else (lists
// included) replaces the bundle's value. See docs/configuration.md.
type Config map[string]any

// ReadConfig reads a configuration overlay from a JSON file holding an
// object of data.tooleval.config members (one document, as for
// [DecodeInput]).
func ReadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return ParseConfig(data, path)
}

// ParseConfig reads a configuration overlay from data, a JSON object;
// source names it in errors (a file's path, "standard input").
func ParseConfig(data []byte, source string) (Config, error) {
	var c Config
	if err := decodeOne(data, &c); err != nil {
		return nil, fmt.Errorf("read config %s: %w", source, err)
	}
	if c == nil {
		return nil, fmt.Errorf("read config %s: the configuration must be a JSON object", source)
	}
	return c, nil
}

// WithConfig overlays a deployment's configuration on the bundle's
// data.tooleval.config, on load and on every [Engine.Reload]. The policy
// validates the result: a mistake in the overlay is a configuration
// error, which refuses every call.
func WithConfig(c Config) Option {
	return func(o *options) { o.config = c }
}

// overlayQuery merges a deployment's overlay (the input) over the
// bundle's configuration, with the policy's own merge: the same function
// the policy's tests build configurations with.
const overlayQuery = "data.tooleval.configuration.overlay(data.tooleval.config, input)"

// applyConfig merges the overlay c over the bundle's data.tooleval.config
// (see [WithConfig]): members that are objects on both sides merge key by
// key, anything else replaces. The merge is the policy's, evaluated once
// on the compiled bundle (compiler, with the bundle's data in store). The
// merged configuration replaces data.tooleval.config in b's data and in
// store, which is returned.
func applyConfig(ctx context.Context, compiler *ast.Compiler, store storage.Store, b *bundle.Bundle, c Config) (storage.Store, error) {
	if len(c) == 0 {
		return store, nil
	}
	overlay, err := toValue(map[string]any(c))
	if err != nil {
		return nil, fmt.Errorf("apply config: %w", err)
	}
	q, err := rego.New(rego.Query(overlayQuery), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
	if err != nil {
		return nil, fmt.Errorf("apply config: %w", err)
	}
	merged, err := evalAST(ctx, q, overlay)
	if err != nil {
		return nil, fmt.Errorf("apply config: %w", err)
	}
	if err := putData(ctx, store, b, "config", merged); err != nil {
		return nil, fmt.Errorf("apply config: %w", err)
	}
	return store, nil
}

// RequesterPolicyDigest is the digest an engine records when it captures
// a requester's tool policy at spawn ({allow, deny}), and sends back as
// requester.policy_digest when settled children resume the requester:
// the hex SHA-256 of the policy's JSON encoding with sorted keys and no
// white space, which the policy recomputes with crypto.sha256 and
// json.marshal.
func RequesterPolicyDigest(policy any) (string, error) {
	value, err := toValue(policy)
	if err != nil {
		return "", fmt.Errorf("requester policy digest: %w", err)
	}
	doc, err := ast.JSON(value)
	if err != nil {
		return "", fmt.Errorf("requester policy digest: %w", err)
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("requester policy digest: %w", err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
