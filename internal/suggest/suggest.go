// Package suggest finds the word a slip was meant to be: the command
// line's unknown commands and flags, the importers' unknown keys.
package suggest

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// DidYouMean is " (did you mean X?)" for the candidate closest to word
// when one is close enough to be a slip (an edit distance of at most a
// third of the word, at least 1, two letters swapped, or a prefix of
// three letters or more),
// and "" otherwise.
func DidYouMean(word string, candidates []string) string {
	best, bestDistance := "", 0
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(strings.ToLower(word), strings.ToLower(c))
		if best == "" || d < bestDistance {
			best, bestDistance = c, d
		}
	}
	switch {
	case best == "":
		return ""
	case bestDistance <= max(1, len(word)/3):
	case len(word) >= 3 && strings.HasPrefix(strings.ToLower(best), strings.ToLower(word)):
	case bestDistance == 2 && sameLetters(word, best): // two letters swapped
	default:
		return ""
	}
	return " (did you mean " + best + "?)"
}

// sameLetters reports whether a and b hold the same letters, in any order.
func sameLetters(a, b string) bool {
	count := map[rune]int{}
	for _, r := range strings.ToLower(a) {
		count[r]++
	}
	for _, r := range strings.ToLower(b) {
		count[r]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}
