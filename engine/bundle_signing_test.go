package engine

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func rsaKeyPair(t *testing.T) (private, public string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	require.NoError(t, err)
	private = string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	public = string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	return private, public
}

// A bundle written with a signing key, plain or configured, loads in an
// engine that verifies with the public half, and not with another key.
func TestWriteBundleSigns(t *testing.T) {
	ctx := context.Background()
	private, public := rsaKeyPair(t)
	_, other := rsaKeyPair(t)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "signing.pem")
	require.NoError(t, os.WriteFile(keyFile, []byte(private), 0o600))

	for name, tc := range map[string]struct {
		config Config
		key    string
	}{
		"plain, key as PEM":       {nil, private},
		"configured, key as file": {tenantConfig, keyFile},
	} {
		var buf bytes.Buffer
		require.NoError(t, WriteBundle(ctx, &buf, "", "signed-rev", tc.config, WithSigningKey(SigningKey{ID: "release", Key: tc.key})), name)
		path := filepath.Join(dir, "bundle.tar.gz")
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))

		e, err := New(ctx, WithBundle(path), WithVerificationKey(VerificationKey{ID: "release", Key: public}))
		require.NoError(t, err, name)
		require.Equal(t, "signed-rev", e.Revision())
		if tc.config != nil {
			require.True(t, decideOne(t, e, tenantCall("acme", "read_file")).Allowed, "%s: the configuration is in the signed bundle", name)
		}
		_, err = New(ctx, WithBundle(path), WithVerificationKey(VerificationKey{ID: "release", Key: other}))
		require.Error(t, err, "%s: another key does not verify it", name)
	}

	var buf bytes.Buffer
	err := WriteBundle(ctx, &buf, "", "", nil, WithSigningKey(SigningKey{Key: private, Algorithm: "XX999"}))
	require.ErrorContains(t, err, "signing key")
	require.Zero(t, buf.Len(), "nothing is written with a key that cannot sign")
}
