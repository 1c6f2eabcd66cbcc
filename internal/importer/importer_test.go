package importer_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/importertest"
)

// The overlay declares every MCP server its entries name, wherever they
// are: names, server patterns, bare servers, argument rules' tools and
// their exceptions, in every list; sorted, each once, canonical.
func TestDeclareMCPServers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		overlay string
		want    []string
	}{
		{"none", `{"preset": "claude_code", "tools": {"allow": ["Read"], "deny": ["Bash", "debug_*"], "ask": []}}`, nil},
		{"every MCP tool names no server", `{"tools": {"deny": ["mcp__*"]}}`, nil},
		{"a tool", `{"tools": {"allow": ["mcp__github__get_issue"]}}`, []string{"github"}},
		{"a server's tools", `{"tools": {"deny": ["mcp__billing__*"]}}`, []string{"billing"}},
		{"a prefix", `{"tools": {"ask": ["mcp__billing__delete_*"]}}`, []string{"billing"}},
		{"a bare server", `{"tools": {"deny": ["mcp__billing"]}}`, []string{"billing"}},
		{"a server with __ in the tool", `{"tools": {"deny": ["mcp__my__srv_x", "mcp__my_srv__x"]}}`, []string{"my", "my_srv"}},
		{"an argument rule", `{"tools": {"deny": [{"tool": "mcp__fs__write", "args_pattern": "x"}]}}`, []string{"fs"}},
		{"an exception", `{"tools": {"ask": [{"tool": "mcp__*", "args_pattern": "", "unless": ["mcp__jira__get_issue", {"tool": "mcp__wiki__read", "args": {"a": "b"}}]}]}}`, []string{"jira", "wiki"}},
		{"sub-agents", `{"subagents": {"deny": ["mcp__github__*"], "ask": ["mcp__slack__post"]}}`, []string{"github", "slack"}},
		{"sorted, each once, canonical", `{"tools": {"allow": ["mcp__zeta__a", "mcp__GitHub__x"], "deny": ["mcp__github__*", "mcp__alpha"]}}`, []string{"alpha", "github", "zeta"}},
		{"no entry: arguments are not names", `{"tools": {"deny": [{"tool": "Bash", "command_prefix": "mcp__x__y", "args": {"tool": "mcp__y__z"}}]}}`, nil},
		{"entries the grammar refuses name no server", `{"tools": {"deny": ["mcp____x", "mcp__gh*", "mcp__ x__y"]}}`, nil},
	} {
		var overlay map[string]any
		require.NoError(t, json.Unmarshal([]byte(tc.overlay), &overlay), tc.name)
		res := importer.NewResult(overlay, nil)
		t.Run(tc.name, func(t *testing.T) { importertest.RequireServersDeclared(t, res.Overlay, tc.want...) })
	}
}

func TestMCPServer(t *testing.T) {
	t.Parallel()
	for entry, want := range map[string]string{
		"mcp__github__get_issue": "github", "mcp__github__*": "github", "mcp__github": "github",
		"mcp__git.hub__read_*": "git.hub", "MCP__GitHub__X": "github", "mcp__*": "", "Bash": "", "mcp__": "",
		"mcp____x": "", "mcp__gh*": "", "mcp__a*__b": "", "mcp__my server__*": "my server",
	} {
		assert.Equal(t, want, importer.MCPServer(entry), entry)
	}
}

// The wrappers an allow rule may not start with are the policy's:
// tooleval.arguments.shell.shell_wrappers as OPA evaluates it.
func TestShellWrappersAreThePolicys(t *testing.T) {
	policy := map[string]bool{}
	for _, name := range importertest.PolicyValue(t, "data.tooleval.arguments.shell.shell_wrappers").([]any) {
		policy[name.(string)] = true
	}
	assert.Equal(t, policy, importer.ShellWrappers)
}
