package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// TestADenyPathRuleBitesWhatItsGlobAllows: for generated globs and paths
// (case, full-width, ß and ss, wildcards), a deny rule bites on every
// path an allow rule of the same glob lets through, and on every other
// spelling of it a case-insensitive file system opens as the same file
// (upper case, ß as SS, full-width letters): the deny side reads a path
// at least as widely as the allow side, never more narrowly.
func TestADenyPathRuleBitesWhatItsGlobAllows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, err := engine.New(ctx)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(23, 5))
	globParts := []string{"a", "A", "b", "*", "?", "**", "a*", "*.md", "ß", "ss", "SS", "x?", "ａ", "a／b"}
	pathParts := []string{"a", "A", "b", "ab", "ss", "ß", "SS", "x.md", "X.MD", "a／b", "ａ", "xy", "ｓｓ"}
	pick := func(parts []string, n int) string {
		out := make([]string, n)
		for i := range out {
			out[i] = parts[rng.IntN(len(parts))]
		}
		return strings.Join(out, "/")
	}
	allowed, checked := 0, 0
	for range scaled(t, 60) {
		glob := pick(globParts, 1+rng.IntN(3))
		if rng.IntN(3) == 0 {
			glob = "/ws/" + glob
		}
		var calls []any
		for i := range 40 {
			calls = append(calls, map[string]any{"id": fmt.Sprint(i), "name": "read_file", "args": map[string]any{"path": "/ws/" + pick(pathParts, 1+rng.IntN(4))}})
		}
		decide := func(list string) *engine.Decision {
			d, err := e.Decide(ctx, map[string]any{
				"declared":  []any{map[string]any{"name": "read_file"}},
				"workspace": map[string]any{"root": "/ws"},
				"layers":    []any{map[string]any{"name": "l", list: []any{map[string]any{"tool": "read_file", "path": glob}}}},
				"calls":     calls,
			})
			require.NoError(t, err)
			if len(d.Errors) > 0 {
				return nil // not a valid glob (a ** inside a segment)
			}
			return d
		}
		allow := decide("allow")
		if allow == nil {
			continue // not a valid glob (a ** inside a segment)
		}
		// every path the allow lets through, and its other spellings
		var spellings []any
		for i, c := range allow.Decisions {
			checked++
			if !c.Allowed {
				continue
			}
			allowed++
			path := calls[i].(map[string]any)["args"].(map[string]any)["path"].(string)
			rest := strings.TrimPrefix(path, "/ws/")
			for _, other := range []string{rest, strings.ToUpper(rest), strings.ReplaceAll(rest, "ß", "SS"), fullWidth(rest)} {
				spellings = append(spellings, map[string]any{"id": fmt.Sprint(len(spellings)), "name": "read_file", "args": map[string]any{"path": "/ws/" + other}})
			}
		}
		if len(spellings) == 0 {
			continue
		}
		calls = spellings
		deny := decide("deny")
		require.NotNil(t, deny, "glob %q is valid in an allow list only", glob)
		for i, c := range deny.Decisions {
			require.Equal(t, engine.OutcomeDeny, c.Outcome, "glob %q allows a spelling of %v, but a deny of it does not bite", glob, calls[i])
		}
	}
	require.Positive(t, allowed, "some paths were allowed: the property was exercised")
	t.Logf("%d paths under generated globs, %d allowed, each bitten by the deny", checked, allowed)
}

// fullWidth is s with its ASCII letters in their full-width forms.
func fullWidth(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r - 'A' + 'Ａ'
		}
		return r
	}, s)
}
