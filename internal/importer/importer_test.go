package importer

import (
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireServersDeclared holds an overlay's mcp_servers to want (absent
// when want is empty).
func requireServersDeclared(t *testing.T, overlay map[string]any, want ...string) {
	t.Helper()
	got, present := overlay["mcp_servers"]
	if len(want) == 0 {
		require.False(t, present, "mcp_servers: %v", got)
		return
	}
	b, err := json.Marshal(got)
	require.NoError(t, err)
	w, err := json.Marshal(want)
	require.NoError(t, err)
	require.JSONEq(t, string(w), string(b))
}

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
		res := result(overlay, nil)
		t.Run(tc.name, func(t *testing.T) { requireServersDeclared(t, res.Overlay, tc.want...) })
	}
}

func TestMCPServer(t *testing.T) {
	t.Parallel()
	for entry, want := range map[string]string{
		"mcp__github__get_issue": "github", "mcp__github__*": "github", "mcp__github": "github",
		"mcp__git.hub__read_*": "git.hub", "MCP__GitHub__X": "github", "mcp__*": "", "Bash": "", "mcp__": "",
		"mcp____x": "", "mcp__gh*": "", "mcp__a*__b": "", "mcp__my server__*": "my server",
	} {
		assert.Equal(t, want, mcpServer(entry), entry)
	}
}

// policyValue is query evaluated by OPA on the policy's sources (tests
// left out): what the importers' copies of the policy's tables are held
// to.
func policyValue(t *testing.T, query string) any {
	t.Helper()
	skipTests := func(abspath string, info fs.FileInfo, _ int) bool {
		return !info.IsDir() && strings.HasSuffix(abspath, "_test.rego")
	}
	rs, err := rego.New(
		rego.Query(query),
		rego.Load([]string{filepath.Join("..", "..", "policies")}, skipTests),
	).Eval(context.Background())
	require.NoError(t, err)
	require.Len(t, rs, 1, "%s is defined", query)
	return rs[0].Expressions[0].Value
}
