package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/util"
)

// Config is a deployment's configuration overlay: members of
// data.tooleval.config (tenants, scopes, agents, profiles, preset, ...).
// Each member replaces the bundle's member of the same name; members it
// does not name keep the bundle's value. See docs/configuration.md.
type Config map[string]any

// ReadConfig reads a configuration overlay from a JSON file holding an
// object of data.tooleval.config members (one document, as for
// [DecodeInput]).
func ReadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	var c Config
	if err := decodeOne(data, &c); err != nil {
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	if c == nil {
		return nil, fmt.Errorf("read config %s: the configuration must be a JSON object", path)
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

// applyConfig replaces the members of data.tooleval.config that c names.
func applyConfig(b *bundle.Bundle, c Config) error {
	if len(c) == 0 {
		return nil
	}
	var members map[string]any
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("apply config: %w", err)
	}
	if err := util.UnmarshalJSON(data, &members); err != nil {
		return fmt.Errorf("apply config: %w", err)
	}
	if b.Data == nil {
		b.Data = map[string]any{}
	}
	tooleval, ok := b.Data["tooleval"].(map[string]any)
	if !ok {
		tooleval = map[string]any{}
		b.Data["tooleval"] = tooleval
	}
	config, ok := tooleval["config"].(map[string]any)
	if !ok {
		config = map[string]any{}
		tooleval["config"] = config
	}
	for k, v := range members {
		config[k] = v
	}
	return nil
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
