package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestAuthoringExampleRuns runs the deployment test of the authoring
// guide (docs/authoring/acme_test.rego) with the policy, as the guide
// tells a reader to.
func TestAuthoringExampleRuns(t *testing.T) {
	t.Parallel()
	out := harness.OPA(t, "test", harness.PoliciesDir(), "../docs/authoring", "-r", "data.deploy_test", "--format", "json")
	require.Contains(t, string(out), `"name": "test_acme"`)
	require.NotContains(t, string(out), `"fail": true`)
	require.Contains(t, string(out), `"name": "test_the_overlay_has_no_problems"`)
}

// TestAuthoringCheckPassesOnTheShippedExamples runs every `tooleval
// check` command of the authoring guide as written, from the repository's
// root: each passes (exit 0, no problems) on the examples it names.
func TestAuthoringCheckPassesOnTheShippedExamples(t *testing.T) {
	t.Parallel()
	guide, err := os.ReadFile("../docs/authoring.md")
	require.NoError(t, err)
	commands := 0
	inBlock := false
	for _, line := range strings.Split(string(guide), "\n") {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
			continue
		}
		args, ok := strings.CutPrefix(line, "tooleval check ")
		if !inBlock || !ok {
			continue
		}
		commands++
		fields := strings.Fields(args)
		for i, f := range fields {
			if !strings.HasPrefix(f, "-") && (i == 0 || fields[i-1] != "--format") {
				fields[i] = filepath.Join("..", f)
			}
		}
		out, stderr, code := harness.CLI(t, "", append([]string{"check"}, fields...)...)
		require.Equal(t, 0, code, "docs/authoring.md: tooleval check %s\n%s%s", args, out, stderr)
		require.Contains(t, out, "no problems", args)
	}
	require.Positive(t, commands, "docs/authoring.md shows no tooleval check command")
}
