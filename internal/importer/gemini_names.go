package importer

import (
	"maps"
	"slices"
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

// geminiBuiltinTools is the overlay's builtin_tools: Gemini CLI's tools,
// their legacy names and the family of the tools it discovers.
func geminiBuiltinTools() []any {
	names := slices.Concat(geminiTools, slices.Sorted(maps.Keys(geminiLegacyNames)), []string{geminiDiscoveredTools})
	return toAny(names)
}
