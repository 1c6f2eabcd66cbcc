package prepared

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

const policiesDir = "../../policies"

// TestPreparedIsCurrent fails when the committed prepared configuration
// is not what the policy prepares from the committed configuration (run
// `go generate ./internal/prepared`, or `make generate`).
func TestPreparedIsCurrent(t *testing.T) {
	committed, err := os.ReadFile(filepath.Join(policiesDir, dataPath))
	require.NoError(t, err)
	generated, err := Document(context.Background(), policiesDir)
	require.NoError(t, err)
	require.True(t, string(committed) == string(generated),
		"policies/tooleval/prepared/data.json is stale: run `make generate` and commit the result")
}
