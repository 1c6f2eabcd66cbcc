package tests

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestEngineVerifiesBundles: with a verification key, the engine loads a
// bundle signed with it and refuses one tampered with after signing, an
// unsigned one and one signed with another key; a refused reload keeps
// the last good policy. The command line does the same with
// --verification-key. (The engine used to load all four.)
func TestEngineVerifiesBundles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	private, public := signingKey(t)
	otherPrivate, _ := signingKey(t)
	pub, err := os.ReadFile(public)
	require.NoError(t, err)
	key := engine.WithVerificationKey(engine.VerificationKey{Key: string(pub)})

	signedData := harness.BuildBundle(t, harness.PoliciesDir(), "signed-a", "--signing-key", private, "--signing-alg", "RS256")
	signed := harness.WriteFile(t, "signed.tar.gz", signedData)
	// The tampered bundle would let sub-agents use gateway.
	tampered := harness.WriteFile(t, "tampered.tar.gz", tamper(t, signedData,
		"data.json", func(s string) string { return strings.Replace(s, `"gateway",`, "", 1) }))
	unsigned := harness.BundlePath(t)
	foreign := harness.WriteFile(t, "foreign.tar.gz", harness.BuildBundle(t, harness.PoliciesDir(), "foreign", "--signing-key", otherPrivate, "--signing-alg", "RS256"))

	e, err := engine.New(ctx, engine.WithBundle(signed), key)
	require.NoError(t, err)
	require.Equal(t, "signed-a", e.Revision())
	gateway := `{"agent": {"role": "subagent", "depth": 1}, "declared": [{"name": "gateway"}], "calls": [{"id": "g", "name": "gateway"}]}`
	for bad, why := range map[string]string{tampered: "digest mismatch", unsigned: "missing .signatures.json", foreign: "verification"} {
		_, err := engine.New(ctx, engine.WithBundle(bad), key)
		require.ErrorContains(t, err, why, bad)
		require.ErrorContains(t, e.Reload(ctx, bad), why, bad)
		require.Equal(t, "signed-a", e.Revision(), "a refused bundle replaced the policy")
		d, err := e.Decide(ctx, engine.JSON([]byte(gateway)))
		require.NoError(t, err)
		require.Equal(t, "subagent_hard_deny", d.Decisions[0].Layer)
	}
	// Without a key, the engine does not check signatures (as before).
	_, err = engine.New(ctx, engine.WithBundle(tampered))
	require.NoError(t, err)

	// The command line.
	_, stderr, code := harness.CLI(t, gateway, "eval", "--bundle", signed, "--verification-key", public)
	require.Equal(t, 1, code, stderr)
	_, stderr, code = harness.CLI(t, gateway, "eval", "--bundle", tampered, "--verification-key", public)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "digest mismatch")
	require.Contains(t, stderr, "--signing-key")
	_, stderr, code = harness.CLI(t, gateway, "eval", "--verification-key", public)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "--bundle")
}
