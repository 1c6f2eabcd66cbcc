package cli

import (
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/spf13/pflag"
)

// suggestion is " (did you mean X?)" for the candidate closest to word
// when one is close enough to be a slip (an edit distance of at most a
// third of the word, at least 1, two letters swapped, or a prefix of
// three letters or more),
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

// commandAliases are the words for a command that other tools use (or
// that tooleval's own documents use for a mode of a command), with the
// command line that does it: "explain" is what eval --explain shows.
var commandAliases = map[string]string{
	"explain": " (did you mean eval --explain?)",
	"lint":    " (did you mean check --strict?)",
	"test":    " (did you mean check or verify?)",
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
