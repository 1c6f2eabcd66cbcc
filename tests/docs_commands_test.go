package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docCommands are the documents whose tooleval and openssl commands (a
// line of a code block that starts with "tooleval ", "$ tooleval " or
// "openssl ", with its continuation lines) TestDocsCommandsRun runs as
// written: every one,
// or (false) those without "$", whose outputs a test of the document's
// own checks (docs/verify.md's worked example: TestVerifyWorkedExample).
// The other documents' commands are run by tests of their own:
// docs/hooks.md (TestHooksDocRuns), docs/import.md (its worked
// examples), docs/mcp-gateway.md and docs/cli.md (synopses, not
// commands).
var docCommands = map[string]bool{"authoring.md": true, "configuration.md": true, "deploy.md": true, "verify.md": false}

// TestDocsCommandsRun runs every tooleval command of docCommands in a
// copy of the repository's layout (exampleWorkdir, where the files the
// examples name exist): each must exit 0, 1 or 3 (a decision, a
// violation, errors it reports), never 2; the lines a block shows after a
// "$ " command must be its output.
func TestDocsCommandsRun(t *testing.T) {
	t.Parallel()
	dir, bin := exampleWorkdir(t)
	original, err := os.ReadFile(filepath.Join(dir, "deploy", "config.json"))
	require.NoError(t, err)
	block := regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")
	commands := 0
	for name := range docCommands {
		data, err := os.ReadFile(filepath.Join("../docs", name))
		require.NoError(t, err)
		doc := string(data)
		for _, at := range block.FindAllStringSubmatchIndex(doc, -1) {
			m := []string{doc[at[0]:at[1]], doc[at[2]:at[3]]}
			// A "$" command run on deploy/config.json runs on the
			// configuration the document shows just before it.
			config := shownConfig(doc[:at[0]])
			var ran string
			var shown []string
			finish := func() {
				if ran == "" {
					return
				}
				commands++
				if config != "" && strings.Contains(ran, "deploy/config.json") {
					require.NoError(t, os.WriteFile(filepath.Join(dir, "deploy", "config.json"), []byte(config), 0o600))
					defer func() { require.NoError(t, os.WriteFile(filepath.Join(dir, "deploy", "config.json"), original, 0o600)) }()
				}
				out := runExample(t, dir, bin, "docs/"+name, strings.TrimPrefix(ran, "$"))
				if strings.HasPrefix(ran, "$") {
					requireShownOutput(t, "docs/"+name, ran, shown, out)
				}
				ran, shown = "", nil
			}
			lines := strings.Split(m[1], "\n")
			for i := 0; i < len(lines); i++ {
				line := lines[i]
				command, dollar := strings.CutPrefix(line, "$ ")
				if strings.HasPrefix(line, "openssl ") && !dollar {
					// the keys deploy.md has one make to sign bundles with
					commands++
					c, _, _ := strings.Cut(line, "   #")
					cmd := exec.Command("sh", "-c", strings.TrimSpace(c))
					cmd.Dir = dir
					out, err := cmd.CombinedOutput()
					require.NoError(t, err, "docs/%s: %s\n%s", name, line, out)
					continue
				}
				if !strings.HasPrefix(command, "tooleval ") {
					if ran != "" && !dollar {
						shown = append(shown, line)
					}
					continue
				}
				finish()
				for strings.HasSuffix(strings.TrimSpace(command), "\\") && i+1 < len(lines) {
					i++
					command = strings.TrimSuffix(strings.TrimSpace(command), "\\") + " " + strings.TrimSpace(lines[i])
				}
				if c, _, found := strings.Cut(command, "   #"); found {
					command = strings.TrimSpace(c) // a comment after the command
				}
				if dollar && docCommands[name] {
					ran = "$" + command
					continue
				}
				if dollar {
					continue // run and checked by the document's own test
				}
				commands++
				runExample(t, dir, bin, "docs/"+name, command)
			}
			finish()
		}
	}
	require.GreaterOrEqual(t, commands, 10)
}

// shownConfig is the configuration a document shows last in before: a
// ```json block or an inline `{...}`, whichever comes later; "" when
// neither does.
func shownConfig(before string) string {
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatchIndex(before, -1)
	inline := regexp.MustCompile("`(\\{\"[^`]*\\})`").FindAllStringSubmatchIndex(before, -1)
	blockAt, inlineAt := -1, -1
	if len(blocks) > 0 {
		blockAt = blocks[len(blocks)-1][0]
	}
	if len(inline) > 0 {
		inlineAt = inline[len(inline)-1][0]
	}
	switch {
	case blockAt < 0 && inlineAt < 0:
		return ""
	case blockAt > inlineAt:
		b := blocks[len(blocks)-1]
		return before[b[2]:b[3]]
	}
	i := inline[len(inline)-1]
	return before[i[2]:i[3]]
}
