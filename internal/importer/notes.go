package importer

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// didYouMean is " (did you mean X?)" for the candidate closest to word
// when one is close enough to be a slip (an edit distance of at most a
// third of the word, at least 1, or another case), and "" otherwise. It
// is internal/cli's suggestion, which the importer does not import.
func didYouMean(word string, candidates []string) string {
	best, bestDistance := "", 0
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(strings.ToLower(word), strings.ToLower(c))
		if best == "" || d < bestDistance {
			best, bestDistance = c, d
		}
	}
	if best == "" || bestDistance > max(1, len(word)/3) {
		return ""
	}
	return " (did you mean " + best + "?)"
}
