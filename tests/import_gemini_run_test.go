package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// The worked example of docs/import.md imports with the command the page
// shows, with the notes it shows, and checks clean;
// TestGeminiWorkedExampleDecides (internal/importer/gemini) holds its
// calls.
func TestGeminiWorkedExample(t *testing.T) {
	t.Parallel()
	user := filepath.Join("..", "inputs", "import", "gemini", "user.toml")
	admin := filepath.Join("..", "inputs", "import", "gemini", "admin.toml")
	doc, err := os.ReadFile(filepath.Join("..", "docs", "import.md"))
	require.NoError(t, err)
	for _, ex := range []string{user, admin} {
		require.True(t, strings.Contains(string(doc), filepath.ToSlash(strings.TrimPrefix(ex, "../"))), "docs/import.md shows %s", ex)
	}
	overlay, stderr, code := harness.CLI(t, "", "import", "gemini", "--admin-policy", admin, user)
	require.Equal(t, 0, code, stderr)
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		require.True(t, strings.Contains(string(doc), strings.ReplaceAll(line, "../", "")), "docs/import.md shows the note %q", line)
	}
	require.True(t, json.Valid([]byte(overlay)), "the overlay is JSON")
	out, errOut, code := harness.CLI(t, overlay, "check", "--strict", "--config", "-")
	require.Equal(t, 0, code, "%s%s", out, errOut)
	require.NotContains(t, out, ": error:")

	// a file that is not a policy: exit 3, nothing written
	bad := harness.WriteFile(t, "bad.toml", []byte("[[rule]]\ntoolName = \"read_file\"\ndecision = \"allow\"\npriority = 1000\n"))
	out, stderr, code = harness.CLI(t, "", "import", "gemini", bad)
	require.Equal(t, 3, code, stderr)
	require.Empty(t, out)
	require.Contains(t, stderr, "rule #1")
}
