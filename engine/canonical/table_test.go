package canonical

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// tablePath is the generated bundle data, relative to this package.
const tablePath = "../../policies/tooleval/unicode/data.json"

// TestTableIsCurrent fails when the committed Unicode table is not what
// the generator writes today (run `go generate ./internal/unicodegen`, or `make generate`).
func TestTableIsCurrent(t *testing.T) {
	committed, err := os.ReadFile(tablePath)
	require.NoError(t, err)
	generated, err := MarshalTable(BuildTable())
	require.NoError(t, err)
	require.True(t, string(committed) == string(generated),
		"policies/tooleval/unicode/data.json is stale: run `make generate` and commit the result")
}

func TestMappingExamples(t *testing.T) {
	for in, want := range map[rune]string{
		'A':    "a",
		'ß':    "ss",
		0x212A: "k",  // Kelvin sign
		0x200B: "",   // zero width space is default-ignorable
		0xFF33: "s",  // full-width S
		0x0130: "i̇", // capital I with dot above: full folding keeps the dot
		0x3000: " ",  // ideographic space is trimmed only at the ends
	} {
		require.Equal(t, want, Mapping(in), "%U", in)
	}
}

func TestCanonicalExamples(t *testing.T) {
	for in, want := range map[string]string{
		"Search":       "search",
		"ＳＥＡＲＣＨ":       "search",
		" search ":     "search",
		"se\u200Barch": "search",
		"straße":       "strasse",
		"STRASSE":      "strasse",
		"\u212Aelvin":  "kelvin",
		"e\u0301":      "é",
	} {
		require.Equal(t, want, Canonical(in), "%+q", in)
	}
}

func TestIsDefaultIgnorable(t *testing.T) {
	for _, r := range []rune{0x00AD, 0x034F, 0x200B, 0x200D, 0x2060, 0xFE0F, 0xFEFF, 0xE0001, 0xE0FFF} {
		require.True(t, IsDefaultIgnorable(r), "%U", r)
	}
	for _, r := range []rune{' ', 'a', 0x00A0, 0x0600, 0xFFF9, 0x13430} {
		require.False(t, IsDefaultIgnorable(r), "%U", r)
	}
}
