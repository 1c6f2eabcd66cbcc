package claudecode

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tooleval/tooleval/internal/importer"
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
func claudeUnknownKeys(f importer.File, rules int) []importer.Note {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(f.Data, &top); err != nil {
		return nil // the settings decoder reports it
	}
	var notes []importer.Note
	for _, key := range importer.SortedKeys(top) {
		switch {
		case slices.Contains(claudeReadKeys, key) || key == "$schema":
		case slices.Contains(claudePermissionKeys, key):
			notes = append(notes, importer.Note{Location: f.Name + ": " + key, Text: fmt.Sprintf(
				"permission settings are read under permissions (did you mean permissions.%s?): not read here%s",
				key, claudeRulesIn(top[key]))})
		default:
			if hint := importer.DidYouMean(key, claudeReadKeys); hint != "" {
				notes = append(notes, importer.Note{Location: f.Name + ": " + key,
					Text: "not a Claude Code setting" + hint + ": Claude Code ignores a key it does not know, and so does the import" + claudeRulesIn(top[key])})
			}
		}
	}
	var perms map[string]json.RawMessage
	if raw, ok := top["permissions"]; ok && json.Unmarshal(raw, &perms) == nil {
		for _, key := range importer.SortedKeys(perms) {
			if slices.Contains(claudePermissionKeys, key) {
				continue
			}
			notes = append(notes, importer.Note{Location: f.Name + ": permissions." + key,
				Text: "not a permission setting in Claude Code's settings reference" + importer.DidYouMean(key, claudePermissionKeys) +
					": Claude Code ignores a key it does not know, and so does the import" + claudeRulesIn(perms[key])})
		}
	}
	if rules == 0 {
		notes = append(notes, importer.Note{Location: f.Name, Text: "no permission rules (permissions.allow, ask or deny): no rule is imported from this file"})
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
