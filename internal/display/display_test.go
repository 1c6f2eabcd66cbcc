package display

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
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

// A long value is clipped to its head and tail, its length and the start
// of its hash: two long values that differ only in the middle still look
// different, and no table cell grows with the input.
func TestLongValuesAreClipped(t *testing.T) {
	long := strings.Repeat("x", 5000)
	got := Text(long)
	require.Equal(t, strings.Repeat("x", headRunes)+"…"+strings.Repeat("x", tailRunes)+" [5000 bytes, sha256 "+hash8(long)+"]", got)

	other := long[:2500] + "y" + long[2501:]
	require.NotEqual(t, Text(long), Text(other), "a difference in the elided middle shows in the hash")
	require.Less(t, len(Text(other)), 100)

	// Escapes and quotes survive the cut; the ellipsis is the only
	// non-ASCII character, and one in the value is escaped.
	spaced := "a b\u200b" + strings.Repeat("…", 200) + "\u202e end"
	got = Text(spaced)
	require.True(t, strings.HasPrefix(got, `"a b\u200b\u2026`), got)
	require.Contains(t, got, `\u202e end" [`)
	require.Equal(t, 1, strings.Count(got, "…"))

	exact := strings.Repeat("é", maxRunes)
	require.NotContains(t, Text(exact), "…", "maxRunes characters are shown whole")
	require.Contains(t, Text(exact+"é"), "…")

	require.Contains(t, Value([]any{long}), "…")
	require.Less(t, len(Value([]any{long})), 120)

	msg := "tool " + strconv.Quote(long) + " is not declared"
	got = Escape(msg)
	require.True(t, strings.HasSuffix(got, fmt.Sprintf(`x" is not declared [%d bytes, sha256 %s]`, len(msg), hash8(msg))), got)
	require.Less(t, len(got), maxTextRunes+60)
	require.Equal(t, "short \u2026"[:6]+`\u2026`, Escape("short \u2026"))
}

func hash8(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
