package cli

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestServeGCPercentLeavesGOGCToTheOperator: serve collects at 4× the
// live heap unless GOGC says otherwise, in which case it sets nothing.
func TestServeGCPercentLeavesGOGCToTheOperator(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	percent, ok := serveGCPercent(env(nil))
	require.True(t, ok)
	require.Equal(t, 400, percent)
	for _, gogc := range []string{"100", "off", "50"} {
		_, ok := serveGCPercent(env(map[string]string{"GOGC": gogc}))
		require.False(t, ok, "GOGC=%s stands", gogc)
	}
}
