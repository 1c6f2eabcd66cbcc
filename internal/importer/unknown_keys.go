package importer

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Keys a runtime does not read. An import does with such a key what the
// runtime does (docs/import.md, "Keys the runtime does not read"): where
// the runtime refuses the file, the import refuses it (exit 3); where it
// drops the key, the import reads the rest as the runtime does and says
// so in a note at the key's place, with what the rule became. A file
// with no rules at all says so too.

// Claude Code ignores a settings key it does not know. Claude Code is
// not open source: its settings reference
// (https://code.claude.com/docs/en/settings, "Permission settings") names
// the keys of permissions below, and a key it does not name is ignored
// (https://github.com/anthropics/claude-code/issues/40014:
// "permission-mode" and permissions.dangerouslySkipPermissions are
// "silently ignored").
var claudePermissionKeys = []string{
	"allow", "ask", "deny", "additionalDirectories", "defaultMode", "disableBypassPermissionsMode", "disableAutoMode",
}

// claudeReadKeys are the top-level keys the import reads. Claude Code
// has many more settings (model, env, sandbox, ...), which govern other
// things than its permission rules: a top-level key is noted only when it
// looks like a slip for one of these, or is a permission key written
// outside permissions.
var claudeReadKeys = []string{"permissions", "hooks"}

// claudeUnknownKeys are the notes on the keys of one settings file that
// Claude Code does not read and that look meant for its permissions, and
// on a file with no permission rules.
func claudeUnknownKeys(f File, rules int) []Note {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(f.Data, &top); err != nil {
		return nil // the settings decoder reports it
	}
	var notes []Note
	for _, key := range sortedKeys(top) {
		switch {
		case slices.Contains(claudeReadKeys, key) || key == "$schema":
		case slices.Contains(claudePermissionKeys, key):
			notes = append(notes, Note{f.Name + ": " + key, fmt.Sprintf(
				"permission settings are read under permissions (did you mean permissions.%s?): not read here%s",
				key, claudeRulesIn(top[key]))})
		default:
			if hint := didYouMean(key, claudeReadKeys); hint != "" {
				notes = append(notes, Note{f.Name + ": " + key,
					"not a Claude Code setting" + hint + ": Claude Code ignores a key it does not know, and so does the import" + claudeRulesIn(top[key])})
			}
		}
	}
	var perms map[string]json.RawMessage
	if raw, ok := top["permissions"]; ok && json.Unmarshal(raw, &perms) == nil {
		for _, key := range sortedKeys(perms) {
			if slices.Contains(claudePermissionKeys, key) {
				continue
			}
			notes = append(notes, Note{f.Name + ": permissions." + key,
				"not a permission setting in Claude Code's settings reference" + didYouMean(key, claudePermissionKeys) +
					": Claude Code ignores a key it does not know, and so does the import" + claudeRulesIn(perms[key])})
		}
	}
	if rules == 0 {
		notes = append(notes, Note{f.Name, "no permission rules (permissions.allow, ask or deny): no rule is imported from this file"})
	}
	return notes
}

// claudeRulesIn is "; its N rules are not carried" for a list of rules,
// or an object that holds lists of rules (allow, ask, deny), and "" for
// anything else.
func claudeRulesIn(raw json.RawMessage) string {
	var list []string
	n := 0
	if json.Unmarshal(raw, &list) == nil {
		n = len(list)
	} else {
		var lists map[string]json.RawMessage
		if json.Unmarshal(raw, &lists) == nil {
			for _, key := range []string{"allow", "ask", "deny"} {
				if json.Unmarshal(lists[key], &list) == nil {
					n += len(list)
				}
			}
		}
	}
	switch n {
	case 0:
		return ""
	case 1:
		return "; its 1 rule is not carried"
	}
	return fmt.Sprintf("; its %d rules are not carried", n)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

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
	for _, k := range sortedKeys(t) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return at, keys
}

// places records where each rule, safety checker and top-level key of a
// policy file (file index file) is.
func (l tomlLayout) places(p notePlaces, file int, name string, rules, checkers int) {
	p.add(name, notePlace{file: file, pos: -1})
	for key, at := range l.top {
		p.add(name+": "+key, notePlace{file: file, pos: at})
	}
	for _, a := range []struct {
		array, label string
		n            int
	}{{"rule", "rule", rules}, {"safety_checker", "safety_checker", checkers}} {
		for i := range a.n {
			at, _ := l.table(a.array, i, nil)
			p.add(fmt.Sprintf("%s: %s #%d", name, a.label, i+1), notePlace{file: file, pos: at, rank: i})
		}
	}
}

// geminiFileNotes are the notes on a policy file's top-level keys that
// Gemini CLI does not read, and on a file with no rules.
func geminiFileNotes(name string, doc map[string]any, rules, checkers int) []Note {
	var notes []Note
	for _, key := range sortedKeys(doc) {
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
		notes = append(notes, Note{name + ": " + key, "not a " + kind + " Gemini CLI reads" + didYouMean(key, geminiFileKeys) +
			": Gemini reads [[rule]] and [[safety_checker]] tables only and drops the rest, and so does the import" + what})
	}
	if rules+checkers == 0 {
		notes = append(notes, Note{name, "no rules ([[rule]] or [[safety_checker]] tables): Gemini CLI loads no rule from this file"})
	}
	return notes
}

// geminiUnknownKeys are the notes on the keys of one [[rule]] or
// [[safety_checker]] table (keys, in the file's order) that Gemini's
// schema does not name: Gemini drops each, and so does the import; the
// note says what the rule is without them.
func geminiUnknownKeys(t map[string]any, keys []string, at string, checker bool) []Note {
	known, kind := geminiRuleKeys, "a [[rule]]"
	if checker {
		known, kind = geminiCheckerKeys, "a [[safety_checker]]"
	}
	var notes []Note
	became := geminiReadAs(t, known, checker)
	for _, key := range keys {
		if !slices.Contains(known, key) {
			notes = append(notes, Note{at, fmt.Sprintf("%s is not a key Gemini CLI reads in %s%s: Gemini drops it, and so does the import: %s",
				key, kind, didYouMean(key, known), became)})
		}
	}
	if c, ok := t["checker"].(map[string]any); ok && checker {
		for _, key := range sortedKeys(c) {
			if !slices.Contains(geminiCheckerTableKeys, key) {
				notes = append(notes, Note{at, fmt.Sprintf("checker.%s is not a key Gemini CLI reads in a checker%s: Gemini drops it, and so does the import",
					key, didYouMean(key, geminiCheckerTableKeys))})
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
