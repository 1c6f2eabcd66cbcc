package cli

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/internal/suggest"
)

// suggestion is " (did you mean X?)" for the candidate closest to word,
// or "" (suggest.DidYouMean).
func suggestion(word string, candidates []string) string { return suggest.DidYouMean(word, candidates) }

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
