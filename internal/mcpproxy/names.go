package mcpproxy

import "strings"

// ModelName is the model-visible function name of an MCP tool, as agent
// runtimes write it: mcp__SERVER__TOOL, with every character of server
// and tool outside [A-Za-z0-9_-] replaced by an underscore. The policy
// matches allow patterns against the raw identity ([Declaration]'s MCP
// member), never against this name; a deny pattern bites on either.
//
// [Declaration]: github.com/tooleval/tooleval/engine.Declaration
func ModelName(server, tool string) string {
	return "mcp__" + sanitize(server) + "__" + sanitize(tool)
}

// sanitize replaces every character outside [A-Za-z0-9_-] with '_'.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}
