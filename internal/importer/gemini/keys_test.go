package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/importertest"
)

// Gemini CLI's schemas strip a key they do not name (zod's z.object,
// never .strict()): a rule is loaded without it, and a table it does not
// read is dropped. The import reads them alike, and notes each at its
// rule with what the rule became; a file with no rules says so.
func TestGeminiUnknownKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, policy string
		want         []importertest.Noted
		unwanted     []string
	}{
		{"a misspelt commandPrefix", "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefx = \"git\"\ndecision = \"allow\"\npriority = 100\n",
			[]importertest.Noted{{"p.toml: rule #1", "commandPrefx is not a key Gemini CLI reads in a [[rule]] (did you mean commandPrefix?): Gemini drops it, and so does the import: this rule allows every run_shell_command call"}},
			[]string{"p.toml"}},
		{"a misspelt argsPattern in a deny", "[[rule]]\ntoolName = [\"read_file\", \"glob\"]\nmcpName = \"x\"\ndecision = \"deny\"\npriority = 1\nmodes = [\"yolo\"]\nargsPatern = \"a\"\n",
			[]importertest.Noted{{"p.toml: rule #1", "argsPatern is not a key Gemini CLI reads in a [[rule]] (did you mean argsPattern?): Gemini drops it, and so does the import: this rule refuses the read_file, glob calls its other keys name (in the modes and runs it names)"}},
			nil},
		{"a misspelt table", "[[rules]]\ntoolName = \"read_file\"\ndecision = \"deny\"\npriority = 1\n",
			[]importertest.Noted{{"p.toml: rules", "not a table Gemini CLI reads (did you mean rule?)"}, {"p.toml: rules", "its 1 table is not in force"},
				{"p.toml", "no rules ([[rule]] or [[safety_checker]] tables)"}},
			nil},
		{"a key at the top", "version = 1\n[[rule]]\ntoolName = \"*\"\ndecision = \"ask_user\"\npriority = 1\n",
			[]importertest.Noted{{"p.toml: version", "not a key Gemini CLI reads"}}, []string{"p.toml", "p.toml: rule #1"}},
		{"a rule's key in a safety checker", "[[safety_checker]]\ntoolName = \"*\"\ndecision = \"allow\"\ndenyMessage = 1\n[safety_checker.checker]\ntype = \"external\"\nname = \"x\"\nconfg = {}\n",
			[]importertest.Noted{{"p.toml: safety_checker #1", "decision is not a key Gemini CLI reads in a [[safety_checker]]"},
				{"p.toml: safety_checker #1", "denyMessage is not a key"},
				{"p.toml: safety_checker #1", "checker.confg is not a key Gemini CLI reads in a checker (did you mean config?)"}},
			nil},
		{"an empty file", "# nothing yet\n", []importertest.Noted{{"p.toml", "no rules"}}, nil},
		{"every key Gemini reads", "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"deny\"\npriority = 1\n" +
			"modes = [\"default\"]\ninteractive = true\nallowRedirection = true\nallow_redirection = true\ndeny_message = \"no\"\n" +
			"[[rule]]\ntoolName = \"read_file\"\nsubagent = \"a\"\nmcpName = \"m\"\nargsPattern = \"x\"\ndecision = \"deny\"\npriority = 1\ntoolAnnotations = { a = 1 }\ndenyMessage = \"no\"\n",
			nil, []string{"p.toml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := geminiImport(t, tc.policy, Options{})
			importertest.RequireNoted(t, res.Notes, tc.want, tc.unwanted)
			for _, n := range res.Notes {
				if len(tc.want) == 0 {
					assert.NotContains(t, n.Text, "is not a key", "a key Gemini reads is not noted")
				}
			}
		})
	}
	// the misspelt key is dropped as Gemini drops it: the rule allows
	// every shell command, with Gemini's asks about dangerous ones
	res := geminiImport(t, "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefx = \"git\"\ndecision = \"allow\"\npriority = 100\n", Options{})
	assert.Contains(t, listJSON(t, res, "allow"), `"run_shell_command"`)
	assert.Contains(t, listJSON(t, res, "ask"), `{"command_prefix":"rm","tool":"run_shell_command"}`)

	// Gemini's own default policies hold keys its loader drops (name,
	// [rule.safety_checker]): nothing there is the user's to fix
	res, err := Import([]importer.File{{Name: "p.toml", Data: []byte("[[rule]]\ntoolName = \"glob\"\ndecision = \"allow\"\npriority = 1\n")}}, Options{})
	require.NoError(t, err)
	for _, n := range res.Notes {
		assert.NotContains(t, n.Text, "is not a key", "%v", n)
	}
}
