package gemini

import (
	"maps"
	"slices"

	"github.com/tooleval/tooleval/internal/importer"
)

// geminiDiscoveredTools is the family of the tools Gemini CLI discovers
// by command (its tool discovery command): it registers each as
// DISCOVERED_TOOL_PREFIX + the tool's name, DISCOVERED_TOOL_PREFIX being
// 'discovered_tool_' (packages/core/src/tools/tool-names.ts, line 237;
// packages/core/src/tools/tool-registry.ts, line 510;
// github.com/google-gemini/gemini-cli at
// 5411f113cafae26161b4969b0237b8e1e024e2c2). The overlay declares the
// family in builtin_tools beside Gemini's other tool names, so that
// tooleval check knows the discovered_tool_* deny and ask that Gemini's
// own default policies (discovered.toml) become.
const geminiDiscoveredTools = "discovered_tool_*"

// geminiBuiltinAgents are the sub-agents Gemini CLI ships
// (loadBuiltInAgents in packages/core/src/agents/registry.ts, line 285,
// at the commit above: codebase-investigator.ts, cli-help-agent.ts,
// generalist-agent.ts and BROWSER_AGENT_NAME in
// browser/browserAgentDefinition.ts). A rule that names one is carried
// as that name and as invoke_agent's agent_name, and Gemini's own
// default policies allow two of them (read-only.toml), so the overlay
// declares them in builtin_tools; a sub-agent of the user's own is not
// declared, so tooleval check asks about it (unknown_allow_entry).
var geminiBuiltinAgents = []string{"codebase_investigator", "cli_help", "generalist", "browser_agent"}

// geminiBuiltinTools is the overlay's builtin_tools: Gemini CLI's tools,
// their legacy names, its sub-agents and the family of the tools it
// discovers.
func geminiBuiltinTools() []any {
	names := slices.Concat(geminiTools, slices.Sorted(maps.Keys(geminiLegacyNames)), geminiBuiltinAgents, []string{geminiDiscoveredTools})
	return importer.AnyList(names)
}
