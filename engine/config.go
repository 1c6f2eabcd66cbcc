package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/open-policy-agent/opa/v1/ast"
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
