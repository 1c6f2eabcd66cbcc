package skeleton

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTableIsCurrent fails when the committed table is not what the
// generator writes today (run `make generate`).
func TestTableIsCurrent(t *testing.T) {
	committed, err := os.ReadFile("../../policies/tooleval/unicode/skeleton/data.json")
	require.NoError(t, err)
	generated, err := Marshal(BuildTable())
	require.NoError(t, err)
	require.True(t, string(committed) == string(generated),
		"policies/tooleval/unicode/skeleton/data.json is stale: run `make generate` and commit the result")
}

func TestLookAlikesShareASkeleton(t *testing.T) {
	table := BuildTable()
	for _, pair := range [][2]string{
		{"read_file", "re\u0430d_file"}, // Cyrillic a
		{"scope", "\u0455c\u03bfpe"},    // Cyrillic dze, Greek omicron
		{"paypal", "p\u0430yp\u0430l"},  // Cyrillic a twice
		{"tool1", "tooll"},              // digit one and small l
	} {
		require.Equal(t, Of(table, pair[0]), Of(table, pair[1]), "%q and %q", pair[0], pair[1])
	}
	require.NotEqual(t, Of(table, "read_file"), Of(table, "write_file"))
}
