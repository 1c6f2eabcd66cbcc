package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/nfkccf"
)

// canonicalizer evaluates the Rego canonicalization over many names at once.
type canonicalizer struct {
	query rego.PreparedEvalQuery
}

func newCanonicalizer(t *testing.T) canonicalizer {
	t.Helper()
	q, err := rego.New(
		rego.Query(`out := [data.tooleval.canonical.canonical_or_null(name) | some name in input]`),
		rego.Load([]string{policiesDir}, nil),
	).PrepareForEval(context.Background())
	require.NoError(t, err)
	return canonicalizer{query: q}
}

// canonical returns the Rego canonical form of every name, with ok false
// where the Rego refuses the name.
func (c canonicalizer) canonical(t *testing.T, names []string) (forms []string, ok []bool) {
	t.Helper()
	in := make([]any, len(names))
	for i, n := range names {
		in[i] = n
	}
	rs, err := c.query.Eval(context.Background(), rego.EvalInput(in))
	require.NoError(t, err)
	require.Len(t, rs, 1)
	out, isList := rs[0].Bindings["out"].([]any)
	require.True(t, isList, "canonical_or_null over the batch is not a list")
	require.Len(t, out, len(names), "the Rego dropped names from the batch")
	forms = make([]string, len(names))
	ok = make([]bool, len(names))
	for i, v := range out {
		if v == nil {
			continue
		}
		s, isString := v.(string)
		require.True(t, isString, "canonical form of %q is %T", names[i], v)
		forms[i], ok[i] = s, true
	}
	return forms, ok
}

// differential compares the Rego with the Go reference and reports the
// number of names compared and refused; every divergence fails the test.
func (c canonicalizer) differential(t *testing.T, names []string) (compared, refused int) {
	t.Helper()
	const batch = 8192
	divergent := 0
	for start := 0; start < len(names); start += batch {
		part := names[start:min(start+batch, len(names))]
		forms, ok := c.canonical(t, part)
		for i, name := range part {
			compared++
			if !ok[i] {
				refused++
				continue
			}
			if want := nfkccf.Canonical(name); forms[i] != want {
				divergent++
				if divergent <= 20 {
					t.Errorf("canonical(%+q): rego %+q, reference %+q", name, forms[i], want)
				}
			}
		}
	}
	if divergent > 0 {
		t.Errorf("%d of %d names diverge", divergent, compared)
	}
	return compared, refused
}

// TestCanonicalEveryCodePoint compares the Rego canonicalization with the
// Go reference for every Unicode scalar value as a one-character string.
func TestCanonicalEveryCodePoint(t *testing.T) {
	names := make([]string, 0, 0x110000)
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if utf8.ValidRune(r) {
			names = append(names, string(r))
		}
	}
	compared, refused := newCanonicalizer(t).differential(t, names)
	t.Logf("code points: %d compared, %d refused, 0 divergent", compared, refused)
	require.Equal(t, 0x110000-0x800, compared)
}

// TestCanonicalGeneratedStrings compares the Rego canonicalization with
// the Go reference on generated multi-character names that mix ASCII,
// full-width forms, combining marks, default-ignorables, Hangul jamo and
// Greek, Cyrillic and Turkish casing.
func TestCanonicalGeneratedStrings(t *testing.T) {
	names := generatedNames(rand.New(rand.NewPCG(2, 7)), 20000)
	compared, refused := newCanonicalizer(t).differential(t, names)
	t.Logf("generated strings: %d compared, %d refused, 0 divergent", compared, refused)
	require.Less(t, refused, compared/2, "the Rego refuses most generated names")
}

// alphabets are the pools generated names draw characters from.
var alphabets = [][]rune{
	[]rune("abcxyzABCXYZ_-.:09 "),
	[]rune("ＡＢＣａｂｃ０１＿　"),
	{0x0300, 0x0301, 0x0302, 0x0307, 0x0308, 0x030A, 0x0316, 0x0323, 0x0327, 0x0345, 0x034F, 0x05B0, 0x093C, 0x094D},
	{0x00AD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFE0F, 0xFEFF, 0x180E, 0xE0001},
	[]rune("ΑΒΓΣσςΐΰάέήίόύώΩΩKÅ"),
	[]rune("АБВГДЁЖабвгдёжЀѐ"),
	[]rune("İıIiŞşĞğÇçÖöÜü"),
	[]rune("ßẞﬀﬁﬃſµ㎒℃①⑴㈱"),
	{0x1100, 0x1161, 0x11A8, 0xAC00, 0xAC01, 0x3131, 0xFFA1},
	[]rune("éÉèÈêñÑçÇ"),
}

func generatedNames(rng *rand.Rand, n int) []string {
	names := make([]string, 0, n)
	for range n {
		var b strings.Builder
		length := 1 + rng.IntN(12)
		for range length {
			pool := alphabets[rng.IntN(len(alphabets))]
			b.WriteRune(pool[rng.IntN(len(pool))])
		}
		names = append(names, b.String())
	}
	return names
}

// TestCanonicalReferenceIsIdempotent guards the reference itself.
func TestCanonicalReferenceIsIdempotent(t *testing.T) {
	for _, name := range generatedNames(rand.New(rand.NewPCG(3, 9)), 2000) {
		once := nfkccf.Canonical(name)
		require.Equal(t, once, nfkccf.Canonical(once), fmt.Sprintf("%+q", name))
	}
}
