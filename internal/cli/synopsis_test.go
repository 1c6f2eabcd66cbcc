package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The generated synopsis of docs/cli.md lies between these lines.
const (
	synopsisBegin = "<!-- generated from each command's --help by TestCLIDocSynopsisIsCurrent (TOOLEVAL_UPDATE_EXPECTED=1 rewrites it) -->"
	synopsisEnd   = "<!-- end of the generated synopsis -->"
)

// synopsis is each command's usage, as its --help prints it: the lines
// under "Usage:", in the order of the command table (mcp as mcp proxy,
// its one subcommand).
func synopsis(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("```text\n")
	for _, c := range commands() {
		name := c.name
		if name == "mcp" {
			name = "mcp proxy"
		}
		out, errs, code := run(t, "", false, append(strings.Fields(name), "--help")...)
		require.Equal(t, ExitOK, code, "tooleval %s --help: %s", name, errs)
		_, usage, found := strings.Cut(out+errs, "Usage:\n")
		require.True(t, found, "tooleval %s --help prints its usage", name)
		for _, line := range strings.Split(usage, "\n") {
			if strings.TrimSpace(line) == "" {
				break
			}
			b.WriteString(strings.TrimSpace(line) + "\n")
		}
	}
	b.WriteString("```\n")
	return b.String()
}

// TestCLIDocSynopsisIsCurrent: docs/cli.md's synopsis is what each
// command's --help says, so the page cannot drift from the flag sets;
// TOOLEVAL_UPDATE_EXPECTED=1 (make expected) rewrites it.
func TestCLIDocSynopsisIsCurrent(t *testing.T) {
	const page = "../../docs/cli.md"
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	doc := string(data)
	before, rest, found := strings.Cut(doc, synopsisBegin+"\n")
	require.True(t, found, "docs/cli.md has the line %q", synopsisBegin)
	shown, after, found := strings.Cut(rest, synopsisEnd)
	require.True(t, found, "docs/cli.md has the line %q", synopsisEnd)
	want := synopsis(t)
	if os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1" {
		require.NoError(t, os.WriteFile(page, []byte(before+synopsisBegin+"\n"+want+synopsisEnd+after), 0o644))
		return
	}
	require.Equal(t, want, shown, "docs/cli.md's synopsis is stale: make expected rewrites it")
}
