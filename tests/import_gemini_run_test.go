package tests

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/internal/importer"
)

// geminiDeclared are the tools the rows call: Gemini's and some MCP
// tools.
func geminiDeclared() []any {
	declared := []any{}
	for _, name := range []string{"run_shell_command", "read_file", "write_file", "replace", "grep_search", "ask_user", "enter_plan_mode", "invoke_agent",
		"mcp__my-jira-server__search", "mcp__my-jira-server__create", "mcp__untrusted-server__fetch", "mcp__github__get_issue", "mcp__github__delete_repo"} {
		if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
			server, tool, _ := strings.Cut(rest, "__")
			declared = append(declared, map[string]any{"name": name, "mcp": map[string]any{"server": server, "tool": tool}})
			continue
		}
		declared = append(declared, map[string]any{"name": name})
	}
	return declared
}

// Every row decides as Gemini CLI's documentation or tests say, or
// stricter, through the engine with the imported overlay.
func TestGeminiImportDecidesAsDocumented(t *testing.T) {
	t.Parallel()
	for _, p := range geminiPolicies {
		var files []importer.File
		if p.user != "" {
			files = append(files, importer.File{Name: "user.toml", Data: []byte(p.user)})
		}
		opts := p.opts
		if p.admin != "" {
			opts.Admin = []importer.File{{Name: "admin.toml", Data: []byte(p.admin)}}
		}
		res, err := importer.Gemini(files, opts)
		require.NoError(t, err, p.name)
		holdImported(t, p.name, res.Overlay, map[string]any{"declared": geminiDeclared(), "workspace": map[string]any{"root": "/ws"}}, p.rows)
	}
}

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
			res, err := importer.Gemini([]importer.File{{Name: "p.toml", Data: []byte(src.String())}}, importer.GeminiOptions{ApprovalMode: mode, Headless: headless})
			require.NoError(t, err, mode)
			requireValidOverlay(t, fmt.Sprintf("%s headless=%v", mode, headless), res.Overlay)
		}
	}
}

// The worked example of docs/import.md imports, checks clean and decides
// as the page says.
func TestGeminiWorkedExample(t *testing.T) {
	t.Parallel()
	user := filepath.Join("..", "inputs", "import", "gemini", "user.toml")
	admin := filepath.Join("..", "inputs", "import", "gemini", "admin.toml")
	doc, err := os.ReadFile(filepath.Join("..", "docs", "import.md"))
	require.NoError(t, err)
	for _, ex := range []string{user, admin} {
		require.True(t, strings.Contains(string(doc), filepath.ToSlash(strings.TrimPrefix(ex, "../"))), "docs/import.md shows %s", ex)
	}
	overlay, stderr, code := cli(t, "", "import", "gemini", "--admin-policy", admin, user)
	require.Equal(t, 0, code, stderr)
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		require.True(t, strings.Contains(string(doc), strings.ReplaceAll(line, "../", "")), "docs/import.md shows the note %q", line)
	}
	var o map[string]any
	require.NoError(t, json.Unmarshal([]byte(overlay), &o))
	out, errOut, code := cli(t, overlay, "check", "--strict", "--config", "-")
	require.Equal(t, 0, code, "%s%s", out, errOut)
	require.NotContains(t, out, ": error:")

	rows := []importRow{
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
	holdImported(t, "worked example", o, map[string]any{"declared": declared, "workspace": map[string]any{"root": "/ws"}}, rows)

	// a file that is not a policy: exit 3, nothing written
	bad := writeFile(t, "bad.toml", []byte("[[rule]]\ntoolName = \"read_file\"\ndecision = \"allow\"\npriority = 1000\n"))
	out, stderr, code = cli(t, "", "import", "gemini", bad)
	require.Equal(t, 3, code, stderr)
	require.Empty(t, out)
	require.Contains(t, stderr, "rule #1")
}
