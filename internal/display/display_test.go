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
		{"mcp__github__read-issue.v2", "mcp__github__read-issue.v2"},
		// Look-alikes: invisible characters, padding, non-ASCII letters.
		{"se\u200barch", `se\u200barch`},
		{" search ", `" search "`},
		{" search", `" search"`},
		{"web search", `"web search"`},
		{"ＳＥＡＲＣＨ", `\uff33\uff25\uff21\uff32\uff23\uff28`},
		{"seаrch", `se\u0430rch`}, // Cyrillic а
		{"search\ufeff", `search\ufeff`},
		{"soft\u00adhyphen", `soft\u00adhyphen`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"x\u00a0y", `x\u00a0y`},
		// A literal backslash or quote cannot pose as an escape or a quoted name.
		{`se\u200barch`, `se\\u200barch`},
		{`"search"`, `"\"search\""`},
		{"", `""`},
		{"a\nb", `a\u000ab`},
		{"evil\u202egnp.exe", `evil\u202egnp.exe`},
		{"x\u2066y\u2069", `x\u2066y\u2069`},
		{"\u0085", `\u0085`},
		{"bad\xffutf8", `bad\ufffdutf8`},
		{nil, "null"},
		{float64(8), "8"},
		{[]any{"x"}, `["x"]`},
		{[]any{"s\u200b", "<\U0001f600>"}, `["s\u200b","<\ud83d\ude00>"]`},
		{map[string]any{"a b": 1}, `{"a b":1}`},
	} {
		require.Equal(t, tc.want, Value(tc.in), "%q", tc.in)
	}
	require.Equal(t, `tool "\u0455earch" is refused \u200b \ "x y"`, Escape("tool \"\u0455earch\" is refused \u200b \\ \"x y\""))
	require.True(t, Plain("read_file"))
	require.False(t, Plain("se\u200barch"))
}
