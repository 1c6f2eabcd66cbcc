package cli

import (
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/spf13/pflag"
)

// suggestion is " (did you mean X?)" for the candidate closest to word
// when one is close enough to be a slip (an edit distance of at most a
// third of the word, at least 1, or a prefix of three letters or more),
// and "" otherwise.
func suggestion(word string, candidates []string) string {
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
	default:
		return ""
	}
	return " (did you mean " + best + "?)"
}

// flagSuggestion is the suggestion for an unknown flag in pflag's error
// text ("unknown flag: --formt"), from the flags fs defines.
func flagSuggestion(fs *pflag.FlagSet, message string) string {
	name, ok := strings.CutPrefix(message, "unknown flag: --")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	s := suggestion(name, names)
	if s == "" {
		return ""
	}
	return strings.Replace(s, "mean ", "mean --", 1)
}
