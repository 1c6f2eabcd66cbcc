package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const settingsJSON = `{"permissions": {"allow": ["Bash(git status:*)"], "deny": ["Read(./.env)"]}}`

// -o writes the overlay to a file, and only when the import succeeds: a
// failed import keeps the file that was there (a shell's > would have
// emptied it first).
func TestImportWritesTheOverlayAtomically(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	require.NoError(t, os.WriteFile(settings, []byte(settingsJSON), 0o600))
	overlay := filepath.Join(dir, "overlay.json")

	out, stderr, code := run(t, "", false, "import", "claude-code", "-o", overlay, settings)
	require.Equal(t, ExitOK, code, stderr)
	require.Empty(t, out, "the overlay goes to the file, not standard output")
	written, err := os.ReadFile(overlay)
	require.NoError(t, err)
	require.Contains(t, string(written), `"tools"`)

	broken := filepath.Join(dir, "broken.json")
	require.NoError(t, os.WriteFile(broken, []byte(`{"permissions": `), 0o600))
	_, _, code = run(t, "", false, "import", "claude-code", "-o", overlay, broken)
	require.Equal(t, ExitErrors, code)
	kept, err := os.ReadFile(overlay)
	require.NoError(t, err)
	require.Equal(t, string(written), string(kept), "a failed import leaves the overlay as it was")
}

// - reads the settings from standard input, once; the overlay is the
// one the same file gives.
func TestImportReadsStandardInput(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	require.NoError(t, os.WriteFile(settings, []byte(settingsJSON), 0o600))
	fromFile, _, code := run(t, "", false, "import", "claude-code", settings)
	require.Equal(t, ExitOK, code)
	fromStdin, stderr, code := run(t, settingsJSON, false, "import", "claude-code", "-")
	require.Equal(t, ExitOK, code, stderr)
	require.JSONEq(t, fromFile, fromStdin)
	_, stderr, code = run(t, settingsJSON, false, "import", "claude-code", "-", "-")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "standard input (-) can be named once")
}

// A file over the cap is refused before it is parsed.
func TestImportRefusesAHugeFile(t *testing.T) {
	huge := `{"permissions": {"allow": [` + strings.Repeat(`"Bash(ls:*)",`, maxImportBytes/13+1) + `"Read"]}}`
	_, stderr, code := run(t, huge, false, "import", "claude-code", "-")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "is over 4 MiB")
}

// A Gemini CLI policy or Codex rules file given as a configuration (any
// command's --config) is named for what it is, with its import; a JSON
// file that does not parse gets no such hint.
func TestConfigFlagPointsAPolicyFileToImport(t *testing.T) {
	dir := t.TempDir()
	for file, want := range map[string]string{
		"user.toml":     "looks like a Gemini CLI policy file, not a tooleval configuration (JSON): import it first: tooleval import gemini -o overlay.json ",
		"default.rules": "looks like a Codex rules file, not a tooleval configuration (JSON): import it first: tooleval import codex -o overlay.json ",
		"broken.json":   "",
	} {
		path := filepath.Join(dir, file)
		require.NoError(t, os.WriteFile(path, []byte("[[rule]]\ntoolName = \"x\"\n"), 0o600))
		for _, command := range [][]string{{"check", "--config", path}, {"eval", "--config", path, "-i", "-"}} {
			_, stderr, code := run(t, "{}", false, command...)
			require.Equal(t, ExitUsage, code, "%v: %s", command, stderr)
			if want == "" {
				require.NotContains(t, stderr, "import it first", "%v", command)
				continue
			}
			require.Contains(t, stderr, want+path, "%v", command)
		}
	}
}

// A runtime's settings file given to check as a configuration is named
// for what it is, with the import that turns it into one.
func TestCheckPointsASettingsFileToImport(t *testing.T) {
	settings := filepath.Join(t.TempDir(), "settings.json")
	require.NoError(t, os.WriteFile(settings, []byte(`{"$schema": "https://json.schemastore.org/claude-code-settings.json", "permissions": {}}`), 0o600))
	_, stderr, code := run(t, "", false, "check", "--config", settings)
	require.Equal(t, ExitErrors, code)
	require.Contains(t, stderr, "looks like a Claude Code settings file")
	require.Contains(t, stderr, "tooleval import claude-code -o overlay.json FILE")

	overlay := filepath.Join(t.TempDir(), "overlay.json")
	require.NoError(t, os.WriteFile(overlay, []byte(`{"tenant": {}}`), 0o600))
	_, stderr, code = run(t, "", false, "check", "--config", overlay)
	require.Equal(t, ExitErrors, code)
	require.NotContains(t, stderr, "settings file", "an ordinary unknown key is not taken for a runtime's settings")
}

// A key the runtime does not read is a located note on standard error,
// in the order of the files (exit 0: the runtime loads the rest), or a
// refusal where the runtime refuses the file (exit 3, nothing written).
func TestImportNotesKeysTheRuntimeDoesNotRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
		return path
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr []string // in this order
	}{
		{"claude-code", []string{"claude-code",
			write("a.json", `{"permissions": {"alow": ["Bash(ls:*)"], "deny": ["Read(./.env)"]}}`),
			write("b.json", `{"permissions": {"defaultMode": "acceptEdits"}}`)}, ExitOK,
			[]string{"tooleval import: " + filepath.Join(dir, "a.json") + ": permissions.alow: not a permission setting in Claude Code's settings reference (did you mean allow?)",
				filepath.Join(dir, "a.json") + ": permissions.deny[0]: ",
				"tooleval import: " + filepath.Join(dir, "b.json") + ": no permission rules"}},
		{"gemini", []string{"gemini", "--no-default-policies",
			write("p.toml", "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefx = \"git\"\ndecision = \"allow\"\npriority = 100\n\n[[rules]]\ntoolName = \"read_file\"\ndecision = \"deny\"\npriority = 1\n")}, ExitOK,
			[]string{"tooleval import: " + filepath.Join(dir, "p.toml") + ": rule #1: commandPrefx is not a key Gemini CLI reads in a [[rule]] (did you mean commandPrefix?): Gemini drops it, and so does the import: this rule allows every run_shell_command call",
				"tooleval import: " + filepath.Join(dir, "p.toml") + ": rules: not a table Gemini CLI reads (did you mean rule?)"}},
		{"codex", []string{"codex", write("r.rules", "prefix_rule(pattern = [\"git\", \"status\"])\nnetwork_rule(host = \"api.github.com\", protocl = \"https\", decision = \"allow\")\n")}, ExitErrors,
			[]string{filepath.Join(dir, "r.rules") + ":2", `unexpected keyword argument "protocl" (did you mean protocol?)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := run(t, "", false, append([]string{"import"}, tc.args...)...)
			require.Equal(t, tc.code, code, stderr)
			if tc.code != ExitOK {
				require.Empty(t, out, "nothing is written")
			}
			at := 0
			for _, want := range tc.stderr {
				i := strings.Index(stderr[at:], want)
				require.GreaterOrEqual(t, i, 0, "%q after %d in\n%s", want, at, stderr)
				at += i + len(want)
			}
		})
	}
}
