package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/importertest"
)

// Whatever the rules, the import is a valid configuration: a rule
// tooleval cannot write is dropped or widened, never written invalid.
func TestGeminiImportIsAlwaysValid(t *testing.T) {
	t.Parallel()
	names := []string{`"*"`, `"mcp_*"`, `"mcp_s_*"`, `"mcp_my_server_tool"`, `"mcp_*_x"`, `"mcp__x"`, `"discovered_tool_*"`,
		`"Read_File"`, `"read_file"`, `"run_shell_command"`, `"codebase_investigator"`, `"search_file_content"`, `" x"`, `"a*b"`,
		`["read_file", "write_file"]`}
	conditions := []string{"", `mcpName = "s"`, `mcpName = "*"`, `mcpName = "a__b"`, `mcpName = "S"`, `argsPattern = '"file_path":".*\.env'`,
		`argsPattern = '(?<=x)y'`, `argsPattern = '\x00"command":"rm\x00'`, `subagent = "helper"`, `toolAnnotations = { readOnlyHint = true }`,
		`modes = ["default"]`, `interactive = true`}
	shellConditions := []string{`commandPrefix = "git status"`, `commandPrefix = ["sudo apt", "FOO=1 make", "echo 'a b'", "ls $HOME", ""]`,
		`commandPrefix = "rm -rf /*"`, `commandRegex = "git (push|reset)"`, `commandRegex = 'echo "x"'`, `commandRegex = '.*'`,
		`commandRegex = 'rm\s+-rf'`, `commandRegex = '[^]'`, `argsPattern = '"command":"ls.*'`, `argsPattern = '\bdd\b'`}
	var src strings.Builder
	priority := 0
	add := func(name, cond string) {
		for _, d := range []string{"allow", "deny", "ask_user"} {
			priority = (priority + 37) % 1000
			fmt.Fprintf(&src, "[[rule]]\ntoolName = %s\n%s\ndecision = %q\npriority = %d\n\n", name, cond, d, priority)
		}
	}
	for _, n := range names {
		for _, c := range conditions {
			add(n, c)
		}
	}
	for _, c := range shellConditions {
		add(`"run_shell_command"`, c)
	}
	src.WriteString("[[safety_checker]]\ntoolName = \"write_file\"\npriority = 100\n[safety_checker.checker]\ntype = \"in-process\"\nname = \"allowed-path\"\n")
	for _, mode := range []string{"default", "autoEdit", "plan", "yolo"} {
		for _, headless := range []bool{false, true} {
			res, err := Import([]importer.File{{Name: "p.toml", Data: []byte(src.String())}}, Options{ApprovalMode: mode, Headless: headless})
			require.NoError(t, err, mode)
			importertest.RequireValid(t, fmt.Sprintf("%s headless=%v", mode, headless), res.Overlay)
		}
	}
}

// The worked example of docs/import.md (inputs/import/gemini) decides as
// the page says.
func TestGeminiWorkedExampleDecides(t *testing.T) {
	t.Parallel()
	read := func(name string) importer.File {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "inputs", "import", "gemini", name))
		require.NoError(t, err)
		return importer.File{Name: name, Data: data}
	}
	res, err := Import([]importer.File{read("user.toml")}, Options{Admin: []importer.File{read("admin.toml")}})
	require.NoError(t, err)
	rows := []importertest.Row{
		{"user.toml: git status is allowed above git's ask", "run_shell_command", shell("git status -s"), "allow", "allow"},
		{"user.toml: git's other commands ask", "run_shell_command", shell("git commit -m x"), "ask", "ask"},
		{"user.toml: git push is refused", "run_shell_command", shell("git push"), "deny", "deny"},
		{"user.toml: the test suite runs", "run_shell_command", shell("npm test && npm run lint"), "allow", "allow"},
		{"user.toml: rm -rf / anywhere is refused", "run_shell_command", shell("npm test; rm -rf /"), "deny", "deny"},
		{"admin.toml: curl is refused, whatever the user allows", "run_shell_command", shell("curl -s example.com"), "deny", "deny"},
		{"admin.toml: jira asks, above the user's allow", "mcp__jira__get_issue", nil, "ask", "ask"},
		{"admin.toml: other MCP servers are refused", "mcp__github__get_issue", nil, "deny", "deny"},
		{"the default policies: read_file runs", "read_file", map[string]any{"file_path": "/ws/a.txt"}, "allow", "allow"},
		{"the default policies: make asks", "run_shell_command", shell("make"), "ask", "ask"},
	}
	declared := []any{map[string]any{"name": "run_shell_command"}, map[string]any{"name": "read_file"},
		map[string]any{"name": "mcp__jira__get_issue", "mcp": map[string]any{"server": "jira", "tool": "get_issue"}},
		map[string]any{"name": "mcp__github__get_issue", "mcp": map[string]any{"server": "github", "tool": "get_issue"}}}
	importertest.Hold(t, "worked example", res.Overlay, map[string]any{"declared": declared, "workspace": map[string]any{"root": "/ws"}}, rows)
}
