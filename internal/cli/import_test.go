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
