//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMCPGatewayDocRegistersWithClaudeCode runs docs/mcp-gateway.md's
// `claude mcp add --scope project ...` as written with the pinned Claude
// Code, in an empty project with a home of its own: the project's
// .mcp.json then holds the gateway as a stdio server whose command is
// tooleval and whose arguments are the page's, in order, the upstream's
// command after --, the same entry the page shows for Claude Desktop.
// (TestMCPGatewayDocExample runs the proxy command it registers.)
func TestMCPGatewayDocRegistersWithClaudeCode(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "mcp-gateway.md"))
	require.NoError(t, err)
	command := shownCommand(t, string(doc), "claude mcp add ")

	dir := t.TempDir()
	ws, home, bin := filepath.Join(dir, "project"), filepath.Join(dir, "home"), filepath.Join(dir, "bin")
	for _, d := range []string{ws, home, bin} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	require.NoError(t, os.Symlink(ClaudeBinary(nodeModules(t)), filepath.Join(bin, "claude")))
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"),
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s\n%s", command, out)

	data, err := os.ReadFile(filepath.Join(ws, ".mcp.json"))
	require.NoError(t, err, "claude mcp add --scope project wrote no .mcp.json:\n%s", out)
	var project struct {
		MCPServers map[string]struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	require.NoError(t, json.Unmarshal(data, &project), "%s", data)
	server, ok := project.MCPServers["filesystem"]
	require.True(t, ok, "%s", data)
	_, proxy, _ := strings.Cut(command, " -- ")
	words := strings.Fields(proxy)
	require.Equal(t, "tooleval", server.Command, "%s", data)
	require.Equal(t, words[1:], server.Args, "%s", data)
	require.Contains(t, []string{"", "stdio"}, server.Type, "%s", data)

	// The page's Claude Desktop entry is the same server: its args are
	// these, its command tooleval where make install puts it.
	_, desktop, found := strings.Cut(string(doc), "### Claude Desktop")
	require.True(t, found)
	_, block, found := strings.Cut(desktop, "```json\n")
	require.True(t, found)
	block, _, _ = strings.Cut(block, "```")
	var shown struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	require.NoError(t, json.Unmarshal([]byte(block), &shown), "%s", block)
	require.Equal(t, "/usr/local/bin/tooleval", shown.MCPServers["filesystem"].Command)
	require.Equal(t, shown.MCPServers["filesystem"].Args, server.Args, "the Claude Desktop entry the page shows and the one claude mcp add wrote")
}

// shownCommand returns the command of a page's sh block that starts
// with prefix, its continuation lines joined.
func shownCommand(t *testing.T, page, prefix string) string {
	t.Helper()
	lines := strings.Split(page, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		command := line
		for strings.HasSuffix(command, "\\") && i+1 < len(lines) {
			i++
			command = strings.TrimSuffix(command, "\\") + " " + strings.TrimSpace(lines[i])
		}
		return strings.Join(strings.Fields(command), " ")
	}
	t.Fatalf("the page shows no command starting %q", prefix)
	return ""
}
