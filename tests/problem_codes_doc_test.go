package tests

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestWarningCodesAreDocumented: the configuration warnings the policy
// can report (each _warning("code", ...) of tooleval.warnings) are the
// codes of the table at the top of warnings.rego and of docs/
// configuration.md's warnings table: a new warning cannot ship
// undocumented, nor a removed one stay in the pages.
func TestWarningCodesAreDocumented(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(harness.PoliciesDir(), "tooleval", "warnings", "*.rego"))
	require.NoError(t, err)
	emitted := map[string]bool{}
	call := regexp.MustCompile(`_warning\(\s*"([a-z_]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.rego") {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range call.FindAllStringSubmatch(string(data), -1) {
			emitted[m[1]] = true
		}
	}
	require.GreaterOrEqual(t, len(emitted), 10, "the scan found the warnings")

	metadata, err := os.ReadFile(filepath.Join(harness.PoliciesDir(), "tooleval", "warnings", "warnings.rego"))
	require.NoError(t, err)
	inMetadata := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#   \| ([a-z_]+) +\|`).FindAllStringSubmatch(string(metadata), -1) {
		if m[1] != "code" {
			inMetadata[m[1]] = true
		}
	}

	page, err := os.ReadFile("../docs/configuration.md")
	require.NoError(t, err)
	_, table, found := strings.Cut(string(page), "| warning | what |\n")
	require.True(t, found, "docs/configuration.md has the warnings table")
	table, _, _ = strings.Cut(table, "\n\n")
	inPage := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(table, -1) {
		inPage[m[1]] = true
	}

	codes := func(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
	require.Equal(t, codes(emitted), codes(inMetadata), "the table at the top of policies/tooleval/warnings/warnings.rego lists the warnings the policy reports")
	require.Equal(t, codes(emitted), codes(inPage), "docs/configuration.md's warnings table lists the warnings the policy reports")
}
