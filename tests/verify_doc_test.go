package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/verify"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestVerifyGolden: the JSON report of a planted floor exception, its
// counterexample and explain trace included, is the committed one
// (inputs/expected/verify/). With TOOLEVAL_UPDATE_EXPECTED=1 it is
// rewritten instead.
func TestVerifyGolden(t *testing.T) {
	t.Parallel()
	out, stderr, code := harness.CLI(t, "", "verify", "--config", "../inputs/verify/floor_exception.json", "--format", "json")
	require.Equal(t, 1, code, stderr)
	var r verify.Report
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	require.Equal(t, []string{verify.FloorHolds}, r.Violated())
	matchExpected(t, "../inputs/expected/verify/floor_exception.json", []byte(out), os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1")
}

// TestVerifyWorkedExample runs docs/verify.md's worked example: the
// table it shows is what verify prints (each line it shows, in order),
// and the mend it shows makes every invariant hold.
func TestVerifyWorkedExample(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/verify.md")
	require.NoError(t, err)
	_, example, found := strings.Cut(string(doc), "## Worked example")
	require.True(t, found)

	// The invariant the document shows is the committed one.
	invariant, err := os.ReadFile("../inputs/verify/invariants/explore.rego")
	require.NoError(t, err)
	rest := string(invariant)
	for _, line := range strings.Split(codeBlock(t, example, "```rego\n"), "\n") {
		if line == "" {
			continue
		}
		i := strings.Index(rest, line+"\n")
		require.GreaterOrEqual(t, i, 0, "docs/verify.md shows %q, which inputs/verify/invariants/explore.rego does not hold (in this order)", line)
		rest = rest[i+len(line):]
	}

	// The command and the lines of its output.
	console := codeBlock(t, example, "```sh\n")
	lines := strings.Split(console, "\n")
	command, ok := strings.CutPrefix(lines[0], "$ tooleval ")
	require.True(t, ok, "the example starts with its command: %q", lines[0])
	args := strings.Fields(strings.ReplaceAll(command, "inputs/", "../inputs/"))
	out, stderr, code := harness.CLI(t, "", args...)
	require.Equal(t, 1, code, stderr)
	rest = out
	for _, line := range lines[1:] {
		line = strings.TrimSpace(line)
		if line == "" || line == "..." {
			continue
		}
		i := strings.Index(rest, line)
		require.GreaterOrEqual(t, i, 0, "docs/verify.md shows %q, which verify does not print (in this order):\n%s", line, out)
		rest = rest[i+len(line):]
	}

	// The mend.
	diff := codeBlock(t, example, "```diff\n")
	var before, after string
	for _, line := range strings.Split(diff, "\n") {
		if l, ok := strings.CutPrefix(line, "-"); ok {
			before = strings.TrimSpace(l)
		}
		if l, ok := strings.CutPrefix(line, "+"); ok {
			after = strings.TrimSpace(l)
		}
	}
	config, err := os.ReadFile("../inputs/configured/agents/config.json")
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(config), before), "the diff's old line is in the example's configuration")
	mended := filepath.Join(t.TempDir(), "config.json")
	require.NoError(t, os.WriteFile(mended, []byte(strings.Replace(string(config), before, after, 1)), 0o600))
	out, stderr, code = harness.CLI(t, "", "verify", "--config", mended, "--invariants", "../inputs/verify/invariants", "--format", "json")
	require.Equal(t, 0, code, "%s%s", stderr, out)
}

// codeBlock returns the first code block of text that opens with fence.
func codeBlock(t *testing.T, text, fence string) string {
	t.Helper()
	_, block, found := strings.Cut(text, fence)
	require.True(t, found, "no %q block", strings.TrimSpace(fence))
	block, _, found = strings.Cut(block, "```")
	require.True(t, found)
	return strings.TrimSuffix(block, "\n")
}
