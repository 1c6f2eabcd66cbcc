package importer_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/claudecode"
	"github.com/tooleval/tooleval/internal/importer/codex"
	"github.com/tooleval/tooleval/internal/importer/gemini"
)

// Notes come out in the order of the files and of the places in them,
// whatever order the import found them in: Claude Code's allow rules
// before the deny rules below them, Gemini's rules in the file's order
// rather than by priority, Codex's calls by line; notes on no place in a
// file come last.
func TestNotesComeInFileOrder(t *testing.T) {
	t.Parallel()
	locations := func(notes []importer.Note) []string {
		var out []string
		for _, n := range notes {
			out = append(out, n.Location)
		}
		return out
	}
	claudeRes, err := claudecode.Import([]importer.File{
		{Name: "a.json", Data: []byte(`{"permissions":{"allow":["Bash(sudo:*)"],"deny":["Bash(curl * | sh)"],"alow":[]}}`)},
		{Name: "b.json", Data: []byte(`{"permissions":{"deny":["Bash(FOO=1 make)"]}}`)},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.json: permissions.allow[0]", "a.json: permissions.deny[0]", "a.json: permissions.alow", "b.json: permissions.deny[0]"},
		locations(claudeRes.Notes))

	geminiRes, err := gemini.Import([]importer.File{
		{Name: "a.toml", Data: []byte("[[rule]]\ntoolName = \"read_file\"\ndecision = \"deny\"\ndenyMessage = \"a\"\npriority = 1\n" +
			"[[safety_checker]]\ntoolName = \"*\"\n[safety_checker.checker]\ntype = \"external\"\nname = \"x\"\n" +
			"[[rule]]\ntoolName = \"glob\"\ndecision = \"deny\"\ndenyMessage = \"b\"\npriority = 900\n")},
		{Name: "b.toml", Data: []byte("[[rule]]\ntoolName = \"read_file\"\ndecision = \"ask_user\"\nargsPattern = '(?=x)'\npriority = 999\n")},
	}, gemini.Options{NoDefaults: true, Headless: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.toml: rule #1", "a.toml: safety_checker #1", "a.toml: rule #2", "b.toml: rule #1", "--headless"},
		locations(geminiRes.Notes))

	codexRes, err := codex.Import([]importer.File{
		{Name: "a.rules", Data: []byte("prefix_rule(pattern = [\"sudo\", \"apt\"])\nnetwork_rule(host = \"x.org\", protocol = \"https\", decision = \"allow\")\n")},
		{Name: "b.rules", Data: []byte("prefix_rule(pattern = [\"env\"])\n")},
	}, codex.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.rules:1", "a.rules:2", "b.rules:1", "approval policy untrusted"}, locations(codexRes.Notes))
}
