package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// The examples of docs/import.md import and check clean: no error, and
// the one line on standard error per rule that is not carried exactly.
func TestImportExamplesCheckClean(t *testing.T) {
	t.Parallel()
	claude, err := filepath.Glob(filepath.Join("..", "inputs", "import", "claude-code", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, claude)
	codex, err := filepath.Glob(filepath.Join("..", "inputs", "import", "codex", "*.rules"))
	require.NoError(t, err)
	require.NotEmpty(t, codex)
	doc, err := os.ReadFile(filepath.Join("..", "docs", "import.md"))
	require.NoError(t, err)
	for _, ex := range slices.Concat(claude, codex) {
		require.Contains(t, string(doc), filepath.ToSlash(strings.TrimPrefix(ex, "../")), "docs/import.md shows each example")
		runtime := "claude-code"
		if strings.HasSuffix(ex, ".rules") {
			runtime = "codex"
		}
		overlay, stderr, code := harness.CLI(t, "", "import", runtime, ex)
		require.Equal(t, 0, code, "%s: %s", ex, stderr)
		var o map[string]any
		require.NoError(t, json.Unmarshal([]byte(overlay), &o), ex)
		out, errOut, code := harness.CLI(t, overlay, "check", "--config", "-")
		require.Equal(t, 0, code, "%s: %s%s", ex, out, errOut)
		require.NotContains(t, out, ": error:", ex)
	}
	// the worked examples, run as the page shows them, pass the gate it
	// recommends (check --strict: no warning either), and so do their
	// variants: every runtime's overlay declares what it refers to
	runtimes := map[string]bool{}
	for _, ex := range docImportExamples(t, string(doc)) {
		runtimes[ex.importArgs[1]] = true
		requireImportPassesCheck(t, ex.importArgs, ex.checkArgs)
	}
	require.Equal(t, map[string]bool{"claude-code": true, "codex": true, "gemini": true}, runtimes, "docs/import.md has a worked example per runtime")
	strict := []string{"check", "--strict", "--config", "overlay.json"}
	for _, args := range [][]string{
		{"import", "claude-code", "inputs/import/claude-code/project.json", "inputs/import/claude-code/ci.json"},
		{"import", "gemini", "--headless", "--admin-policy", "inputs/import/gemini/admin.toml", "inputs/import/gemini/user.toml"},
		{"import", "codex", "--approval-policy", "never", "inputs/import/codex/default.rules"},
	} {
		requireImportPassesCheck(t, args, strict)
	}

	// a file that is not settings: exit 3, nothing written
	bad := harness.WriteFile(t, "bad.json", []byte(`{"permissions": {"allow": ["Bash(("]}}`))
	out, stderr, code := harness.CLI(t, "", "import", "claude-code", bad)
	require.Equal(t, 3, code, stderr)
	require.Empty(t, out)
	require.Contains(t, stderr, "permissions.allow[0]")

	// --config - and a document cannot both be standard input
	_, stderr, code = harness.CLI(t, "{}", "check", "--config", "-", "-")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "both read standard input")
	_, stderr, code = harness.CLI(t, "{}", "eval", "--config", "-")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "both read standard input")
}

// docImportExample is a worked example of docs/import.md: the arguments
// of its `$ tooleval import ... > overlay.json` and of the `$ tooleval
// check` after it.
type docImportExample struct {
	importArgs, checkArgs []string
}

// docImportExamples are the worked examples docs/import.md shows, as the
// page writes them.
func docImportExamples(t *testing.T, doc string) []docImportExample {
	t.Helper()
	var out []docImportExample
	lines := strings.Split(doc, "\n")
	for i, line := range lines {
		args, ok := strings.CutPrefix(line, "$ tooleval import ")
		if !ok {
			continue
		}
		args, ok = strings.CutSuffix(args, " > overlay.json")
		require.True(t, ok, "docs/import.md: %q writes overlay.json", line)
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "$ ") {
			j++
		}
		check, ok := strings.CutPrefix(lines[min(j, len(lines)-1)], "$ tooleval ")
		require.True(t, ok && strings.HasPrefix(check, "check "), "docs/import.md: %q is followed by a check", line)
		out = append(out, docImportExample{append([]string{"import"}, strings.Fields(args)...), strings.Fields(check)})
	}
	return out
}

// requireImportPassesCheck runs an import (paths as the page writes them,
// from the repository's root) and the check given on its overlay
// (overlay.json), which must pass: exit 0, no error and no warning.
func requireImportPassesCheck(t *testing.T, importArgs, checkArgs []string) {
	t.Helper()
	fromRoot := func(args []string) []string {
		out := slices.Clone(args)
		for i, a := range out {
			if strings.HasPrefix(a, "inputs/") {
				out[i] = filepath.Join("..", a)
			}
		}
		return out
	}
	overlay, stderr, code := harness.CLI(t, "", fromRoot(importArgs)...)
	require.Equal(t, 0, code, "tooleval %v: %s", importArgs, stderr)
	path := harness.WriteFile(t, "overlay.json", []byte(overlay))
	args := fromRoot(checkArgs)
	for i, a := range args {
		if a == "overlay.json" {
			args[i] = path
		}
	}
	require.Contains(t, args, "--strict", "tooleval %v: the gate is check --strict", checkArgs)
	out, errOut, code := harness.CLI(t, "", args...)
	require.Equal(t, 0, code, "tooleval %v, then tooleval %v: %s%s", importArgs, checkArgs, out, errOut)
	require.NotContains(t, out, "warning", "tooleval %v", importArgs)
}
