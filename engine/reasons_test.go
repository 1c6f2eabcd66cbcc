package engine

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReasonsAreTheContracts holds Reasons equal to the reason table of
// docs/contract.md ("The first failing check, in this order, gives
// reason and layer"), in its order.
func TestReasonsAreTheContracts(t *testing.T) {
	contract, err := os.ReadFile("../docs/contract.md")
	require.NoError(t, err)
	// | 3 | `not_declared` (no declared tool ...) | `declaration` |
	row := regexp.MustCompile("(?m)^\\| [0-9]+ \\| `([a-z_]+)`")
	var documented []string
	for _, m := range row.FindAllStringSubmatch(string(contract), -1) {
		documented = append(documented, m[1])
	}
	require.NotEmpty(t, documented, "the contract's reason table")
	require.Equal(t, documented, Reasons())
}
