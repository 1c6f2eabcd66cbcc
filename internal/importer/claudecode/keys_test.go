package claudecode

import (
	"testing"

	"github.com/tooleval/tooleval/internal/importer/importertest"
)

// Claude Code ignores a settings key it does not know: a key of
// permissions that is not one, a slip for permissions itself, or a
// permission key outside permissions is noted at its place, with the
// rules it holds; a file with no rules says so. Claude Code's other
// settings (model, env, ...) are not noted.
func TestClaudeUnknownKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, settings string
		want           []importertest.Noted
		unwanted       []string
	}{
		{"a misspelt list", `{"permissions":{"alow":["Bash(ls:*)"],"deny":["Read"]}}`,
			[]importertest.Noted{{"s.json: permissions.alow", "(did you mean allow?): Claude Code ignores a key it does not know, and so does the import; its 1 rule is not carried"}},
			[]string{"s.json"}},
		{"a misspelt permissions", `{"permisions":{"allow":["Read"],"deny":["Bash","Edit"]}}`,
			[]importertest.Noted{{"s.json: permisions", "not a Claude Code setting (did you mean permissions?)"}, {"s.json: permisions", "its 3 rules are not carried"}},
			nil},
		{"a rule list outside permissions", `{"deny":["Read(./.env)"],"permissions":{"allow":["Read"]}}`,
			[]importertest.Noted{{"s.json: deny", "did you mean permissions.deny?"}},
			[]string{"s.json"}},
		{"an unknown permission setting", `{"permissions":{"deny":["Bash"],"dangerouslySkipPermissions":true}}`,
			[]importertest.Noted{{"s.json: permissions.dangerouslySkipPermissions", "not a permission setting in Claude Code's settings reference: Claude Code ignores"}},
			nil},
		{"no rules", `{"permissions":{"defaultMode":"acceptEdits"}}`,
			[]importertest.Noted{{"s.json", "no permission rules (permissions.allow, ask or deny)"}},
			nil},
		{"an empty file", `{}`, []importertest.Noted{{"s.json", "no permission rules"}}, nil},
		// what Claude Code reads, or does with other things than its rules
		{"known keys", `{"$schema":"x","model":"opus","env":{"A":"1"},"permissions":{"deny":["Bash"],"disableAutoMode":"disable","disableBypassPermissionsMode":"disable","additionalDirectories":[]}}`,
			nil, []string{"s.json", "s.json: model", "s.json: env", "s.json: $schema", "s.json: permissions.disableAutoMode"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := importOne(t, tc.settings)
			importertest.RequireNoted(t, res.Notes, tc.want, tc.unwanted)
		})
	}
}
