package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// dirEntries lists the names in dir (a temporary left behind shows).
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

// TestRefusedBundleBuildKeepsTheBundle: a bundle build refused for its
// configuration leaves the bundle already at -o byte for byte as it was
// (it used to be emptied before the configuration was validated), and
// no temporary beside it.
func TestRefusedBundleBuildKeepsTheBundle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundle := filepath.Join(dir, "existing.tar.gz")
	_, stderr, code := harness.CLI(t, "", "bundle", "build", "-o", bundle)
	require.Equal(t, 0, code, stderr)
	good, err := os.ReadFile(bundle)
	require.NoError(t, err)
	require.NotEmpty(t, good)
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"tools": {"deny": "web_search"}}`), 0o600))

	_, stderr, code = harness.CLI(t, "", "bundle", "build", "--config", bad, "-o", bundle)
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "config.tools.deny")
	after, err := os.ReadFile(bundle)
	require.NoError(t, err)
	require.Equal(t, good, after, "the refused build changed the existing bundle")
	require.Equal(t, []string{"existing.tar.gz"}, dirEntries(t, dir))
}

// TestFailedDiffReportKeepsTheFile: a diff report that cannot be written
// whole (here the file size limit, ulimit -f, stops it after 1 KiB)
// leaves the file already at -o as it was, and no temporary beside it;
// a report that can be written replaces it.
func TestFailedDiffReportKeepsTheFile(t *testing.T) {
	t.Parallel()
	bin, err := harness.BuildCLI()
	require.NoError(t, err)
	dir := t.TempDir()
	report := filepath.Join(dir, "diff.html")
	require.NoError(t, os.WriteFile(report, []byte("the previous report\n"), 0o644))
	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
	inputs, err := filepath.Glob("../inputs/*.json")
	require.NoError(t, err)
	args := append([]string{"-c", `ulimit -f 1; exec "$0" "$@"`, bin, "diff", "--candidate", candidate, "--format", "html", "-o", report}, inputs...)
	out, err := exec.Command("sh", args...).CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	require.Equal(t, 2, exit.ExitCode(), "%s", out)
	require.Contains(t, string(out), "write the report")
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	require.Equal(t, "the previous report\n", string(data))
	require.Equal(t, []string{"diff.html"}, dirEntries(t, dir))

	_, stderr, code := harness.CLI(t, "", append([]string{"diff", "--candidate", candidate, "--format", "html", "-o", report}, inputs...)...)
	require.Contains(t, []int{0, 1}, code, stderr)
	data, err = os.ReadFile(report)
	require.NoError(t, err)
	require.Contains(t, string(data), "<html")
	require.Equal(t, []string{"diff.html"}, dirEntries(t, dir))
}
