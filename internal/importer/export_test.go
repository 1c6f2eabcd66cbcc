package importer

// What the external tests of this package read of its unexported names.
var (
	ShellWrappers = shellWrappers
	MCPServer     = mcpServer
)
