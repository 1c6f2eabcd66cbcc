package engine

import (
	"errors"
	"fmt"

	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/keys"
)

// VerificationKey is a key that bundles must be signed with, in the
// forms OPA's --verification-key takes: a PEM-encoded public key for the
// RS*, PS* and ES* algorithms, or the shared secret itself for HS*.
type VerificationKey struct {
	// ID is the key's id, the keyid of the bundle's signature (OPA's
	// --verification-key-id); "default" when empty.
	ID string
	// Key is the PEM public key or the HMAC secret (not a file name).
	Key string
	// Algorithm is the signing algorithm (OPA's --signing-alg); "RS256"
	// when empty.
	Algorithm string
	// Scope, when set, must equal the scope in the signature (OPA's
	// --scope).
	Scope string
}

// WithVerificationKey makes the engine verify the signature of every
// bundle it loads from a path ([WithBundle], [Engine.Reload]), as an OPA
// server configured with the same key does: a bundle that is unsigned,
// signed with another key, or whose files do not match their signed
// digests (tampered, or a directory caught while it was being changed)
// is refused, and a reload keeps the last good policy. Sign bundles with
// `opa build --signing-key` (`make bundle SIGNING_KEY=...`). The bundle
// embedded in the binary is part of the binary and is not verified.
// The option may be given more than once, for several key ids; a
// bundle's signature names the one it was made with.
func WithVerificationKey(k VerificationKey) Option {
	return func(o *options) { o.keys = append(o.keys, k) }
}

// verificationConfig builds OPA's verification configuration from the
// keys; nil when there are none.
func verificationConfig(ks []VerificationKey) (*bundle.VerificationConfig, error) {
	if len(ks) == 0 {
		return nil, nil
	}
	configs := make(map[string]*keys.Config, len(ks))
	var scope string
	for _, k := range ks {
		if k.Key == "" {
			return nil, errors.New("verification key: the key is empty")
		}
		id, alg := k.ID, k.Algorithm
		if id == "" {
			id = "default"
		}
		if alg == "" {
			alg = "RS256"
		}
		if _, dup := configs[id]; dup {
			return nil, fmt.Errorf("verification key: id %q given twice", id)
		}
		configs[id] = &keys.Config{Key: k.Key, Algorithm: alg, Scope: k.Scope}
		if k.Scope != "" {
			scope = k.Scope
		}
	}
	// With one key, a signature without a keyid is checked against it,
	// as OPA does with --verification-key-id.
	defaultID := ""
	if len(ks) == 1 {
		defaultID = ks[0].ID
		if defaultID == "" {
			defaultID = "default"
		}
	}
	return bundle.NewVerificationConfig(configs, defaultID, scope, nil), nil
}
