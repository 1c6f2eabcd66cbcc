package corpus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestScaled(t *testing.T) {
	t.Setenv(ScaleVariable, "")
	n, err := Scaled(300)
	require.NoError(t, err)
	require.Equal(t, 300, n, "unset: make test's sample")

	t.Setenv(ScaleVariable, "10")
	n, err = Scaled(300)
	require.NoError(t, err)
	require.Equal(t, 3000, n, "make soak")

	for _, bad := range []string{"0", "-2", "x", "1.5"} {
		t.Setenv(ScaleVariable, bad)
		_, err = Scaled(300)
		require.Error(t, err, bad)
	}
}
