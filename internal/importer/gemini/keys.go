package gemini

import (
	"fmt"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/tooleval/tooleval/internal/importer"
)

// Keys a runtime does not read. An import does with such a key what the
// runtime does (docs/import.md, "Keys the runtime does not read"): where
// the runtime refuses the file, the import refuses it (exit 3); where it
// drops the key, the import reads the rest as the runtime does and says
// so in a note at the key's place, with what the rule became. A file
// with no rules at all says so too.

// Gemini CLI's policy loader
// (https://github.com/google-gemini/gemini-cli/blob/5411f113cafae26161b4969b0237b8e1e024e2c2/packages/core/src/policy/toml-loader.ts)
// checks a file with zod (3.25) schemas built with z.object
// (PolicyRuleSchema, line 39; SafetyCheckerRuleSchema, line 75;
// PolicyFileSchema, line 103; PolicyFileSchema.safeParse, line 376),
// never .strict(): zod strips a key an object schema does not name.
// Gemini's own default policies rely on it (name in agents.toml,
// [rule.safety_checker] in write.toml). So Gemini loads a rule with a
// misspelt key as the rule without it (commandPrefx = "git" in an allow
// of run_shell_command allows every shell command), and ignores a table
// it does not name ([[rules]]). The import reads them the same way, and
// notes each.

// geminiRuleKeys are the keys of PolicyRuleSchema.
var geminiRuleKeys = []string{
	"toolName", "subagent", "mcpName", "argsPattern", "commandPrefix", "commandRegex", "decision", "priority",
	"modes", "interactive", "toolAnnotations", "allowRedirection", "allow_redirection", "denyMessage", "deny_message",
}

// geminiCheckerKeys are the keys of SafetyCheckerRuleSchema, and
// geminiCheckerTableKeys those of its checker table.
var (
	geminiCheckerKeys      = []string{"toolName", "mcpName", "argsPattern", "commandPrefix", "commandRegex", "priority", "modes", "toolAnnotations", "checker"}
	geminiCheckerTableKeys = []string{"type", "name", "required_context", "config"}
)

// geminiFileKeys are the keys of PolicyFileSchema.
var geminiFileKeys = []string{"rule", "safety_checker"}

// tomlLayout is where a policy file's tables and keys are, in the order
// of the file (toml.MetaData.Keys).
type tomlLayout struct {
	top    map[string]int // the index of each top-level key's first appearance
	tables map[string][]tomlTable
}

// tomlTable is one table of an array of tables ([[rule]]): the index of
// its header and its keys in order.
type tomlTable struct {
	at   int
	keys []string
}

func tomlLayoutOf(md toml.MetaData) tomlLayout {
	l := tomlLayout{top: map[string]int{}, tables: map[string][]tomlTable{}}
	for i, k := range md.Keys() {
		switch len(k) {
		case 1:
			if _, ok := l.top[k[0]]; !ok {
				l.top[k[0]] = i
			}
			if md.Type(k...) == "ArrayHash" {
				l.tables[k[0]] = append(l.tables[k[0]], tomlTable{at: i})
			}
		case 2:
			if t := l.tables[k[0]]; len(t) > 0 && !slices.Contains(t[len(t)-1].keys, k[1]) {
				t[len(t)-1].keys = append(t[len(t)-1].keys, k[1])
			}
		}
	}
	return l
}

// table is the layout of the i-th table of an array (rule, i): its keys
// in the file's order, any the layout does not know (an inline array of
// tables) sorted after them.
func (l tomlLayout) table(array string, i int, t map[string]any) (at int, keys []string) {
	tables := l.tables[array]
	at = l.top[array]
	if i < len(tables) {
		at, keys = tables[i].at, slices.Clone(tables[i].keys)
	} else if len(tables) > 0 {
		at = tables[len(tables)-1].at
	}
	for _, k := range importer.SortedKeys(t) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return at, keys
}

// places records where each rule, safety checker and top-level key of a
// policy file (file index file) is.
func (l tomlLayout) places(p importer.NotePlaces, file int, name string, rules, checkers int) {
	p.Add(name, importer.NotePlace{FileIndex: file, Pos: -1})
	for key, at := range l.top {
		p.Add(name+": "+key, importer.NotePlace{FileIndex: file, Pos: at})
	}
	for _, a := range []struct {
		array, label string
		n            int
	}{{"rule", "rule", rules}, {"safety_checker", "safety_checker", checkers}} {
		for i := range a.n {
			at, _ := l.table(a.array, i, nil)
			p.Add(fmt.Sprintf("%s: %s #%d", name, a.label, i+1), importer.NotePlace{FileIndex: file, Pos: at, Rank: i})
		}
	}
}

// geminiFileNotes are the notes on a policy file's top-level keys that
// Gemini CLI does not read, and on a file with no rules.
func geminiFileNotes(name string, doc map[string]any, rules, checkers int) []importer.Note {
	var notes []importer.Note
	for _, key := range importer.SortedKeys(doc) {
		if slices.Contains(geminiFileKeys, key) {
			continue
		}
		kind, what := "key", ""
		if _, ok := doc[key].(map[string]any); ok {
			kind = "table"
		}
		if t, ok := doc[key].([]map[string]any); ok {
			kind = "table"
			what = fmt.Sprintf("; its %d tables are not in force", len(t))
			if len(t) == 1 {
				what = "; its 1 table is not in force"
			}
		}
		notes = append(notes, importer.Note{Location: name + ": " + key, Text: "not a " + kind + " Gemini CLI reads" + importer.DidYouMean(key, geminiFileKeys) +
			": Gemini reads [[rule]] and [[safety_checker]] tables only and drops the rest, and so does the import" + what})
	}
	if rules+checkers == 0 {
		notes = append(notes, importer.Note{Location: name, Text: "no rules ([[rule]] or [[safety_checker]] tables): Gemini CLI loads no rule from this file"})
	}
	return notes
}

// geminiUnknownKeys are the notes on the keys of one [[rule]] or
// [[safety_checker]] table (keys, in the file's order) that Gemini's
// schema does not name: Gemini drops each, and so does the import; the
// note says what the rule is without them.
func geminiUnknownKeys(t map[string]any, keys []string, at string, checker bool) []importer.Note {
	known, kind := geminiRuleKeys, "a [[rule]]"
	if checker {
		known, kind = geminiCheckerKeys, "a [[safety_checker]]"
	}
	var notes []importer.Note
	became := geminiReadAs(t, known, checker)
	for _, key := range keys {
		if !slices.Contains(known, key) {
			notes = append(notes, importer.Note{Location: at, Text: fmt.Sprintf("%s is not a key Gemini CLI reads in %s%s: Gemini drops it, and so does the import: %s",
				key, kind, importer.DidYouMean(key, known), became)})
		}
	}
	if c, ok := t["checker"].(map[string]any); ok && checker {
		for _, key := range importer.SortedKeys(c) {
			if !slices.Contains(geminiCheckerTableKeys, key) {
				notes = append(notes, importer.Note{Location: at, Text: fmt.Sprintf("checker.%s is not a key Gemini CLI reads in a checker%s: Gemini drops it, and so does the import",
					key, importer.DidYouMean(key, geminiCheckerTableKeys))})
			}
		}
	}
	return notes
}

// geminiReadAs says what a rule is as Gemini reads it, from the keys it
// reads: "this rule allows every run_shell_command call".
func geminiReadAs(t map[string]any, known []string, checker bool) string {
	verb := map[any]string{"allow": "allows", "deny": "refuses", "ask_user": "asks about"}[t["decision"]]
	subject := "this rule"
	if checker {
		subject, verb = "this safety checker", "checks"
	}
	if verb == "" {
		return "the rule is read without it"
	}
	var names []string
	switch n := t["toolName"].(type) {
	case string:
		names = []string{n}
	case []any:
		for _, e := range n {
			s, _ := e.(string)
			names = append(names, s)
		}
	}
	narrowed := slices.ContainsFunc([]string{"mcpName", "subagent", "argsPattern", "commandPrefix", "commandRegex", "toolAnnotations"},
		func(k string) bool { _, ok := t[k]; return ok && slices.Contains(known, k) })
	var what string
	switch {
	case slices.Contains(names, "*") && !narrowed:
		what = "every call"
	case slices.Contains(names, "*"):
		what = "the calls its other keys name"
	case !narrowed:
		what = "every " + strings.Join(names, ", ") + " call"
	default:
		what = "the " + strings.Join(names, ", ") + " calls its other keys name"
	}
	_, modes := t["modes"]
	_, interactive := t["interactive"]
	if (modes || interactive) && !checker {
		what += " (in the modes and runs it names)"
	}
	return subject + " " + verb + " " + what
}
