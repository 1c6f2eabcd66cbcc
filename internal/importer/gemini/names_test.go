package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer/importertest"
)

// An overlay that names an MCP server declares it (config.mcp_servers),
// so that tooleval check --strict knows it: in allow, deny and ask
// rules, the sub-agent policy, and every way a name splits.
func TestGeminiDeclaresMCPServers(t *testing.T) {
	t.Parallel()
	policy := `
[[rule]]
mcpName = "jira"
toolName = ["get_issue", "search"]
decision = "allow"
priority = 300

[[rule]]
mcpName = "github"
toolName = "*"
decision = "ask_user"
priority = 200

[[rule]]
toolName = "mcp_*"
decision = "deny"
priority = 100

[[rule]]
toolName = "mcp_my_srv_x"
subagent = "x"
decision = "deny"
priority = 400
`
	for _, headless := range []bool{false, true} {
		res := geminiImport(t, policy, Options{Headless: headless})
		importertest.RequireServersDeclared(t, res.Overlay, "github", "jira", "my", "my_srv")
	}
	res := geminiImport(t, "[[rule]]\ntoolName = \"read_file\"\ndecision = \"allow\"\npriority = 10\n", Options{})
	importertest.RequireServersDeclared(t, res.Overlay)
}

// The overlay declares the family of tools Gemini CLI discovers by
// command (builtin_tools: discovered_tool_*), which its default policies
// ask about, and deny headless, so that tooleval check knows them.
func TestGeminiDeclaresDiscoveredTools(t *testing.T) {
	t.Parallel()
	for _, headless := range []bool{false, true} {
		res, err := Import(nil, Options{Headless: headless})
		require.NoError(t, err)
		assert.Contains(t, res.Overlay["builtin_tools"], any("discovered_tool_*"))
		// the sub-agents Gemini ships, two of which its default policies allow
		assert.Contains(t, res.Overlay["builtin_tools"], any("codebase_investigator"))
		assert.Contains(t, res.Overlay["tools"].(map[string]any)["allow"], any("codebase_investigator"))
		list := map[bool]string{false: "ask", true: "deny"}[headless]
		assert.Contains(t, res.Overlay["tools"].(map[string]any)[list], any("discovered_tool_*"), list)
	}
}
