package display

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValue(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{"read_file", "read_file"},
		{"ＳＥＡＲＣＨ", "ＳＥＡＲＣＨ"},
		{" search", " search"},
		{"", `""`},
		{"a\nb", `a\u000ab`},
		{"evil\u202egnp.exe", `evil\u202egnp.exe`},
		{"x\u2066y\u2069", `x\u2066y\u2069`},
		{"\u0085", `\u0085`},
		{nil, "null"},
		{float64(8), "8"},
		{[]any{"x"}, `["x"]`},
	} {
		require.Equal(t, tc.want, Value(tc.in), "%q", tc.in)
	}
}
