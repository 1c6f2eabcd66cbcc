package importer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noted is a note an import must say: at this location, with this text
// in it.
type noted struct{ location, text string }

// requireNoted checks that each of want is among notes, and that no other
// note is at a location of unwanted (the places a case must leave
// alone).
func requireNoted(t *testing.T, notes []Note, want []noted, unwanted []string) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, n := range notes {
			if n.Location == w.location && strings.Contains(n.Text, w.text) {
				found = true
			}
		}
		assert.True(t, found, "a note at %q says %q: %v", w.location, w.text, notes)
	}
	for _, n := range notes {
		assert.NotContains(t, unwanted, n.Location, "no note at %q: %v", n.Location, notes)
	}
}

// Claude Code ignores a settings key it does not know: a key of
// permissions that is not one, a slip for permissions itself, or a
// permission key outside permissions is noted at its place, with the
// rules it holds; a file with no rules says so. Claude Code's other
// settings (model, env, ...) are not noted.
func TestClaudeUnknownKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, settings string
		want           []noted
		unwanted       []string
	}{
		{"a misspelt list", `{"permissions":{"alow":["Bash(ls:*)"],"deny":["Read"]}}`,
			[]noted{{"s.json: permissions.alow", "(did you mean allow?): Claude Code ignores a key it does not know, and so does the import; its 1 rule is not carried"}},
			[]string{"s.json"}},
		{"a misspelt permissions", `{"permisions":{"allow":["Read"],"deny":["Bash","Edit"]}}`,
			[]noted{{"s.json: permisions", "not a Claude Code setting (did you mean permissions?)"}, {"s.json: permisions", "its 3 rules are not carried"}},
			nil},
		{"a rule list outside permissions", `{"deny":["Read(./.env)"],"permissions":{"allow":["Read"]}}`,
			[]noted{{"s.json: deny", "did you mean permissions.deny?"}},
			[]string{"s.json"}},
		{"an unknown permission setting", `{"permissions":{"deny":["Bash"],"dangerouslySkipPermissions":true}}`,
			[]noted{{"s.json: permissions.dangerouslySkipPermissions", "not a permission setting in Claude Code's settings reference: Claude Code ignores"}},
			nil},
		{"no rules", `{"permissions":{"defaultMode":"acceptEdits"}}`,
			[]noted{{"s.json", "no permission rules (permissions.allow, ask or deny)"}},
			nil},
		{"an empty file", `{}`, []noted{{"s.json", "no permission rules"}}, nil},
		// what Claude Code reads, or does with other things than its rules
		{"known keys", `{"$schema":"x","model":"opus","env":{"A":"1"},"permissions":{"deny":["Bash"],"disableAutoMode":"disable","disableBypassPermissionsMode":"disable","additionalDirectories":[]}}`,
			nil, []string{"s.json", "s.json: model", "s.json: env", "s.json: $schema", "s.json: permissions.disableAutoMode"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := importOne(t, tc.settings)
			requireNoted(t, res.Notes, tc.want, tc.unwanted)
		})
	}
}

// Gemini CLI's schemas strip a key they do not name (zod's z.object,
// never .strict()): a rule is loaded without it, and a table it does not
// read is dropped. The import reads them alike, and notes each at its
// rule with what the rule became; a file with no rules says so.
func TestGeminiUnknownKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, policy string
		want         []noted
		unwanted     []string
	}{
		{"a misspelt commandPrefix", "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefx = \"git\"\ndecision = \"allow\"\npriority = 100\n",
			[]noted{{"p.toml: rule #1", "commandPrefx is not a key Gemini CLI reads in a [[rule]] (did you mean commandPrefix?): Gemini drops it, and so does the import: this rule allows every run_shell_command call"}},
			[]string{"p.toml"}},
		{"a misspelt argsPattern in a deny", "[[rule]]\ntoolName = [\"read_file\", \"glob\"]\nmcpName = \"x\"\ndecision = \"deny\"\npriority = 1\nmodes = [\"yolo\"]\nargsPatern = \"a\"\n",
			[]noted{{"p.toml: rule #1", "argsPatern is not a key Gemini CLI reads in a [[rule]] (did you mean argsPattern?): Gemini drops it, and so does the import: this rule refuses the read_file, glob calls its other keys name (in the modes and runs it names)"}},
			nil},
		{"a misspelt table", "[[rules]]\ntoolName = \"read_file\"\ndecision = \"deny\"\npriority = 1\n",
			[]noted{{"p.toml: rules", "not a table Gemini CLI reads (did you mean rule?)"}, {"p.toml: rules", "its 1 table is not in force"},
				{"p.toml", "no rules ([[rule]] or [[safety_checker]] tables)"}},
			nil},
		{"a key at the top", "version = 1\n[[rule]]\ntoolName = \"*\"\ndecision = \"ask_user\"\npriority = 1\n",
			[]noted{{"p.toml: version", "not a key Gemini CLI reads"}}, []string{"p.toml", "p.toml: rule #1"}},
		{"a rule's key in a safety checker", "[[safety_checker]]\ntoolName = \"*\"\ndecision = \"allow\"\ndenyMessage = 1\n[safety_checker.checker]\ntype = \"external\"\nname = \"x\"\nconfg = {}\n",
			[]noted{{"p.toml: safety_checker #1", "decision is not a key Gemini CLI reads in a [[safety_checker]]"},
				{"p.toml: safety_checker #1", "denyMessage is not a key"},
				{"p.toml: safety_checker #1", "checker.confg is not a key Gemini CLI reads in a checker (did you mean config?)"}},
			nil},
		{"an empty file", "# nothing yet\n", []noted{{"p.toml", "no rules"}}, nil},
		{"every key Gemini reads", "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"deny\"\npriority = 1\n" +
			"modes = [\"default\"]\ninteractive = true\nallowRedirection = true\nallow_redirection = true\ndeny_message = \"no\"\n" +
			"[[rule]]\ntoolName = \"read_file\"\nsubagent = \"a\"\nmcpName = \"m\"\nargsPattern = \"x\"\ndecision = \"deny\"\npriority = 1\ntoolAnnotations = { a = 1 }\ndenyMessage = \"no\"\n",
			nil, []string{"p.toml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := geminiImport(t, tc.policy, GeminiOptions{})
			requireNoted(t, res.Notes, tc.want, tc.unwanted)
			for _, n := range res.Notes {
				if len(tc.want) == 0 {
					assert.NotContains(t, n.Text, "is not a key", "a key Gemini reads is not noted")
				}
			}
		})
	}
	// the misspelt key is dropped as Gemini drops it: the rule allows
	// every shell command, with Gemini's asks about dangerous ones
	res := geminiImport(t, "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefx = \"git\"\ndecision = \"allow\"\npriority = 100\n", GeminiOptions{})
	assert.Contains(t, listJSON(t, res, "allow"), `"run_shell_command"`)
	assert.Contains(t, listJSON(t, res, "ask"), `{"command_prefix":"rm","tool":"run_shell_command"}`)

	// Gemini's own default policies hold keys its loader drops (name,
	// [rule.safety_checker]): nothing there is the user's to fix
	res, err := Gemini([]File{{Name: "p.toml", Data: []byte("[[rule]]\ntoolName = \"glob\"\ndecision = \"allow\"\npriority = 1\n")}}, GeminiOptions{})
	require.NoError(t, err)
	for _, n := range res.Notes {
		assert.NotContains(t, n.Text, "is not a key", "%v", n)
	}
}
