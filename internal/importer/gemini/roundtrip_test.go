package gemini

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/importertest"
)

// Where Gemini CLI's verdicts come from: its policy reference and its
// public tests, google-gemini/gemini-cli at
// 5411f113cafae26161b4969b0237b8e1e024e2c2.
const (
	geminiDocs      = "gemini-cli docs/reference/policy-engine.md"
	geminiEngine    = "gemini-cli packages/core/src/policy/policy-engine.test.ts"
	geminiHeadless  = "gemini-cli integration-tests/policy-headless.test.ts"
	geminiDefaults  = "gemini-cli packages/core/src/policy/policies"
	geminiSafety    = "gemini-cli packages/core/src/sandbox/utils/commandSafety.ts"
	geminiEngineSrc = "gemini-cli packages/core/src/policy/policy-engine.ts"
)

func shell(command string) map[string]any { return map[string]any{"command": command} }

func agent(name string) map[string]any {
	return map[string]any{"agent_name": name, "prompt": "look into it"}
}

var geminiPolicies = []struct {
	name  string
	opts  Options
	admin string
	user  string
	rows  []importertest.Row
}{
	{
		name: "quick start, with the default policies",
		user: `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm -rf"
decision = "deny"
priority = 100
`,
		rows: []importertest.Row{
			{geminiDocs + " (Quick start)", "run_shell_command", shell("rm -rf /"), "deny", "deny"},
			{geminiDocs + " (Quick start: a prefix is whole words; tooleval: stricter, -rfv holds -r and -f)", "run_shell_command", shell("rm -rfv x"), "ask", "deny"},
			{geminiDocs + " (Default policies: write tools ask)", "run_shell_command", shell("ls -la"), "ask", "ask"},
			{geminiDocs + " (Default policies: write tools ask)", "write_file", map[string]any{"file_path": "/ws/a.txt", "content": "x"}, "ask", "ask"},
			{geminiDocs + " (Default policies: read-only tools are allowed)", "read_file", map[string]any{"file_path": "/ws/a.txt"}, "allow", "allow"},
			{geminiDefaults + "/agents.toml (invoke_agent is allowed)", "invoke_agent", agent("generalist"), "allow", "allow"},
		},
	},
	{
		name: "an allow of higher priority narrows a lower deny",
		opts: Options{NoDefaults: true},
		user: `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git"
decision = "deny"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git status", "git log"]
decision = "allow"
priority = 200

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git log -p"
decision = "ask_user"
priority = 300
`,
		rows: []importertest.Row{
			{geminiDocs + " (Rule matching: the highest-priority rule that matches)", "run_shell_command", shell("git status -s"), "allow", "allow"},
			{geminiDocs + " (Rule matching)", "run_shell_command", shell("git log --oneline"), "allow", "allow"},
			{geminiDocs + " (Rule matching)", "run_shell_command", shell("git push origin main"), "deny", "deny"},
			{geminiDocs + " (Rule matching)", "run_shell_command", shell("git log -p x"), "ask", "ask"},
			{geminiEngine + " should propagate DENY from any sub-command", "run_shell_command", shell("git status && git push"), "deny", "deny"},
			{geminiEngine + " should allow compound commands with safe operators (&&, ||) if individual commands are allowed", "run_shell_command", shell("git status && git log"), "allow", "allow"},
			{geminiEngine + " should propagate DENY from any sub-command (an ask part)", "run_shell_command", shell("git status; git log -p"), "ask", "ask"},
			{geminiEngine + " should use default config when none provided (no rule: ask)", "run_shell_command", shell("make"), "ask", "ask"},
		},
	},
	{
		name: "priorities, with argsPattern",
		opts: Options{NoDefaults: true},
		user: `
[[rule]]
toolName = "*"
decision = "deny"
priority = 0

[[rule]]
toolName = "run_shell_command"
decision = "ask_user"
priority = 5

[[rule]]
toolName = "run_shell_command"
argsPattern = '"command":"ls'
decision = "allow"
priority = 10
`,
		rows: []importertest.Row{
			// an argsPattern allow is not carried: stricter
			{geminiEngine + " should handle multiple matching rules with different priorities", "run_shell_command", shell("ls -la"), "allow", "ask"},
			{geminiEngine + " should handle multiple matching rules with different priorities", "run_shell_command", shell("pwd"), "ask", "ask"},
			{geminiEngine + " should handle multiple matching rules with different priorities", "replace", map[string]any{"file_path": "a", "old_string": "x", "new_string": "y"}, "deny", "deny"},
		},
	},
	{
		name: "a deny pattern bites every part",
		opts: Options{NoDefaults: true},
		user: `
[[rule]]
toolName = "run_shell_command"
argsPattern = '"command":"rm'
decision = "deny"
priority = 20

[[rule]]
toolName = "run_shell_command"
commandPrefix = "echo"
decision = "allow"
priority = 20

[[rule]]
toolName = "run_shell_command"
decision = "ask_user"
priority = 10

[[rule]]
toolName = "run_shell_command"
commandRegex = "git (push|reset)"
decision = "deny"
priority = 30
`,
		rows: []importertest.Row{
			{geminiEngine + " should propagate DENY from any sub-command", "run_shell_command", shell("echo hello && rm -rf /"), "deny", "deny"},
			{geminiEngine + " should propagate DENY from any sub-command", "run_shell_command", shell("rm -rf /"), "deny", "deny"},
			{geminiEngine + " should allow compound commands with safe operators (&&, ||) if individual commands are allowed", "run_shell_command", shell("echo hello && echo world"), "allow", "allow"},
			{geminiEngine + " should downgrade ALLOW to ASK_USER for redirected shell commands", "run_shell_command", shell("echo hello > out.txt"), "ask", "ask"},
			{geminiDocs + " (commandRegex)", "run_shell_command", shell("ls; git push --force"), "deny", "deny"},
			{geminiDocs + " (commandRegex)", "run_shell_command", shell("git reset --hard"), "deny", "deny"},
			{geminiDocs + " (commandRegex)", "run_shell_command", shell("git status"), "ask", "ask"},
		},
	},
	{
		name: "headless, the default policies",
		opts: Options{Headless: true},
		rows: []importertest.Row{
			{geminiHeadless + " should deny ASK_USER tools by default in headless mode", "run_shell_command", shell("echo POLICY_TEST_ECHO_COMMAND"), "deny", "deny"},
			{geminiHeadless + " should allow read-only tools by default in headless mode", "read_file", map[string]any{"file_path": "/ws/a.txt"}, "allow", "allow"},
			{geminiDefaults + "/non-interactive.toml (ask_user is denied)", "ask_user", map[string]any{"questions": []any{}}, "deny", "deny"},
		},
	},
	{
		// protections Gemini CLI applies whatever the rules say (0.61.0:
		// buildFileUtils.ts, safety/built-in.ts, workspaceContext.ts,
		// shell.ts, policy-engine.ts), under yolo, where every call runs
		name: "yolo, Gemini's protections",
		opts: Options{ApprovalMode: "yolo"},
		rows: []importertest.Row{
			{geminiEngineSrc + " (Build File Protection: an edit of a build file is asked about)", "write_file", map[string]any{"file_path": "/ws/Makefile", "content": "x"}, "ask", "ask"},
			{geminiEngineSrc + " (Build File Protection)", "replace", map[string]any{"file_path": "/ws/web/package.json", "old_string": "a", "new_string": "b"}, "ask", "ask"},
			{"gemini-cli packages/core/src/safety/built-in.ts (.vscode asks; stricter: in every mode)", "write_file", map[string]any{"file_path": "/ws/.vscode/settings.json", "content": "x"}, "allow", "ask"},
			{"gemini-cli packages/core/src/utils/workspaceContext.ts (.env is never written)", "write_file", map[string]any{"file_path": "/ws/sub/.env", "content": "x"}, "deny", "deny"},
			{"gemini-cli packages/core/src/utils/workspaceContext.ts (nor read)", "read_file", map[string]any{"file_path": "/ws/sub/.env"}, "deny", "deny"},
			{"gemini-cli packages/core/src/config/config.ts validatePathAccess (outside the workspace)", "write_file", map[string]any{"file_path": "/tmp/x", "content": "x"}, "deny", "deny"},
			{"gemini-cli packages/core/src/tools/shell.ts (dir_path within the workspace)", "run_shell_command", map[string]any{"command": "ls", "dir_path": "/etc"}, "deny", "deny"},
			{geminiEngineSrc + " (additional_permissions outside the workspace asks; stricter: any)", "run_shell_command", map[string]any{"command": "ls", "additional_permissions": map[string]any{"fileSystem": map[string]any{"write": []any{"/ws/out"}}}}, "allow", "ask"},
			{geminiEngine + " should return ALLOW for other tools in YOLO mode", "write_file", map[string]any{"file_path": "/ws/src/a.ts", "content": "x"}, "allow", "allow"},
		},
	},
	{
		// Gemini compares tool names exactly (ruleMatches in
		// policy-engine.ts): these rules match no built-in tool there
		name: "headless, allows of names that are not Gemini's spelling",
		opts: Options{Headless: true, NoDefaults: true},
		user: "[[rule]]\ntoolName = \"run_shell_\u200bcommand\"\ndecision = \"allow\"\npriority = 900\n\n" +
			"[[rule]]\ntoolName = \"ｗｒｉｔｅ_file\"\ndecision = \"allow\"\npriority = 900\n",
		rows: []importertest.Row{
			{geminiEngineSrc + " ruleMatches (a zero-width space: not run_shell_command; headless, no rule: deny)", "run_shell_command", shell("rm -rf /"), "deny", "deny"},
			{geminiEngineSrc + " ruleMatches (full width: not write_file)", "write_file", map[string]any{"file_path": "/ws/a.txt", "content": "x"}, "deny", "deny"},
		},
	},
	{
		name: "headless, the shell allowed",
		opts: Options{Headless: true},
		user: `
[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 100
`,
		rows: []importertest.Row{
			{geminiHeadless + " should allow ASK_USER tools in headless mode if explicitly allowed via policy file", "run_shell_command", shell("echo POLICY_TEST_ECHO_COMMAND"), "allow", "allow"},
		},
	},
	{
		name: "every shell command allowed, interactive",
		opts: Options{NoDefaults: true},
		user: `
[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git status"
decision = "allow"
priority = 200

[[rule]]
toolName = "run_shell_command"
commandRegex = "rm -rf /"
decision = "deny"
priority = 900
`,
		rows: []importertest.Row{
			{geminiEngine + " should match tool by name", "run_shell_command", shell("ls -la"), "allow", "allow"},
			{geminiSafety + " isDangerousCommand (rm -rf), applied by policy-engine.ts applyShellHeuristics", "run_shell_command", shell("rm -rf build"), "ask", "ask"},
			{geminiSafety + " isDangerousCommand (find -delete)", "run_shell_command", shell("find . -delete"), "ask", "ask"},
			{geminiEngine + " should downgrade ALLOW to ASK_USER for redirected shell commands", "run_shell_command", shell("echo hi > out.txt"), "ask", "ask"},
			{geminiEngine + " should apply rules by priority (a prefix rule skips the heuristics)", "run_shell_command", shell("git status"), "allow", "allow"},
			// every git is asked about: the stricter reading of Gemini's git heuristics
			{geminiSafety + " isDangerousCommand (git push is not dangerous)", "run_shell_command", shell("git push"), "allow", "ask"},
			// the script of bash -c "..." is parsed by Gemini before its parts are matched
			{"gemini-cli packages/core/src/utils/shell-utils.ts stripShellWrapper", "run_shell_command", shell(`bash -c "rm -r""f /"`), "deny", "deny"},
			{"gemini-cli packages/core/src/utils/shell-utils.ts stripShellWrapper", "run_shell_command", shell(`ls; /bin/sh -c "echo \"x\""`), "allow", "deny"},
		},
	},
	{
		name: "every shell command allowed, redirections too",
		opts: Options{NoDefaults: true},
		user: `
[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 100
allowRedirection = true
`,
		rows: []importertest.Row{
			// the asks about dangerous commands are command rules, which bite
			// a command tooleval does not read (a redirection): stricter
			{geminiEngine + " should allow redirected shell commands when allowRedirection is true", "run_shell_command", shell("echo hi > out.txt"), "allow", "ask"},
			{geminiEngine + " should allow redirected shell commands when allowRedirection is true", "run_shell_command", shell("echo hi"), "allow", "allow"},
			{geminiSafety + " isDangerousCommand (rm -f)", "run_shell_command", shell("rm -f x"), "ask", "ask"},
		},
	},
	{
		name: "headless, some commands",
		opts: Options{Headless: true},
		user: `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "echo"
decision = "deny"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "node"
decision = "allow"
priority = 90
`,
		rows: []importertest.Row{
			{geminiHeadless + " should deny other shell commands in policy file", "run_shell_command", shell("echo POLICY_TEST_ECHO_COMMAND"), "deny", "deny"},
			{geminiHeadless + " should allow specific shell commands in policy file", "run_shell_command", shell("node index.js"), "allow", "allow"},
			{geminiHeadless + " (no rule: deny when headless)", "run_shell_command", shell("python x.py"), "deny", "deny"},
		},
	},
	{
		name: "MCP servers",
		user: `
[[rule]]
mcpName = "my-jira-server"
toolName = "search"
decision = "allow"
priority = 200

[[rule]]
mcpName = "untrusted-server"
decision = "deny"
toolName = "*"
priority = 500

[[rule]]
toolName = "*"
mcpName = "*"
decision = "ask_user"
priority = 10

[[rule]]
toolName = "mcp_github_*"
decision = "allow"
priority = 100

[[rule]]
toolName = "mcp_github_delete_repo"
decision = "deny"
priority = 200
`,
		rows: []importertest.Row{
			{geminiDocs + " (Targeting a specific tool on a server)", "mcp__my-jira-server__search", nil, "allow", "allow"},
			{geminiDocs + " (Targeting all tools on a specific server)", "mcp__untrusted-server__fetch", nil, "deny", "deny"},
			{geminiDocs + " (Targeting all MCP servers)", "mcp__my-jira-server__create", nil, "ask", "ask"},
			{geminiEngine + " should match MCP server wildcard patterns", "mcp__github__get_issue", nil, "allow", "allow"},
			{geminiEngine + " should prioritize specific tool rules over server wildcards", "mcp__github__delete_repo", nil, "deny", "deny"},
		},
	},
	{
		name: "yolo",
		opts: Options{ApprovalMode: "yolo"},
		user: `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm"
decision = "deny"
priority = 100
`,
		rows: []importertest.Row{
			{geminiEngine + " should NOT override explicit DENY rules in YOLO mode", "run_shell_command", shell("rm -rf x"), "deny", "deny"},
			{geminiEngine + " should return ALLOW for other tools in YOLO mode", "run_shell_command", shell("ls"), "allow", "allow"},
			{geminiEngine + " should return ALLOW for other tools in YOLO mode", "write_file", map[string]any{"file_path": "/ws/a.txt", "content": "x"}, "allow", "allow"},
			{geminiEngine + " should return ASK_USER for ask_user tool even in YOLO mode", "ask_user", map[string]any{"questions": []any{}}, "ask", "ask"},
			{geminiEngine + " should deny both plan tools in YOLO mode", "enter_plan_mode", nil, "deny", "deny"},
		},
	},
	{
		name: "yolo, a command prefix allowed",
		opts: Options{ApprovalMode: "yolo", NoDefaults: true},
		user: `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "ls"
decision = "allow"
priority = 1
`,
		rows: []importertest.Row{
			{geminiEngineSrc + " checkShellCommand (yolo: parsing failed for restricted rule, forcing DENY)", "run_shell_command", shell("ls ("), "deny", "deny"},
			{geminiEngine + " should return ALLOW in YOLO mode by default when no rules match", "run_shell_command", shell("ls -la"), "allow", "allow"},
			{geminiEngine + " should return ALLOW in YOLO mode by default when no rules match", "run_shell_command", shell("make"), "allow", "allow"},
		},
	},
	{
		name: "plan",
		opts: Options{ApprovalMode: "plan"},
		rows: []importertest.Row{
			{geminiEngine + " should allow activate_skill but deny shell commands in Plan Mode", "run_shell_command", shell("ls"), "deny", "deny"},
			{geminiEngine + " should deny enter_plan_mode when already in PLAN mode", "enter_plan_mode", nil, "deny", "deny"},
			{geminiDefaults + "/plan.toml (source code is not written in plan mode)", "write_file", map[string]any{"file_path": "src/main.go", "content": "x"}, "deny", "deny"},
			{geminiDefaults + "/read-only.toml (reading runs in plan mode)", "read_file", map[string]any{"file_path": "/ws/a.txt"}, "allow", "allow"},
			// plan.toml allows plans/*.md by argsPattern, which is not carried
			{geminiDefaults + "/plan.toml (a plan may be written)", "write_file", map[string]any{"file_path": "plans/p.md", "content": "x"}, "allow", "deny"},
		},
	},
	{
		name: "autoEdit",
		opts: Options{ApprovalMode: "autoEdit"},
		rows: []importertest.Row{
			{geminiDocs + " (Approval modes: autoEdit allows some write tools)", "write_file", map[string]any{"file_path": "/ws/a.txt", "content": "x"}, "allow", "allow"},
			{geminiDefaults + "/write.toml (the shell still asks)", "run_shell_command", shell("make"), "ask", "ask"},
		},
	},
	{
		name: "sub-agents by name",
		user: `
[[rule]]
toolName = "codebase_investigator"
decision = "deny"
priority = 500
`,
		rows: []importertest.Row{
			{geminiDocs + " (Special syntax for subagents)", "invoke_agent", agent("codebase_investigator"), "deny", "deny"},
			{geminiEngine + " should match subagent name as alias for invoke_agent", "invoke_agent", agent("generalist"), "allow", "allow"},
		},
	},
	{
		name:  "the admin tier over the user tier",
		admin: "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"curl\"\ndecision = \"deny\"\npriority = 10\n",
		user: `
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["curl", "ls"]
decision = "allow"
priority = 900

[[rule]]
toolName = "search_file_content"
decision = "deny"
priority = 100
`,
		rows: []importertest.Row{
			{geminiDocs + " (Priority system and tiers: admin policies always override user policies)", "run_shell_command", shell("curl example.com"), "deny", "deny"},
			{geminiDocs + " (Priority system and tiers)", "run_shell_command", shell("ls"), "allow", "allow"},
			{geminiEngine + " should match current tool call against legacy tool name rules", "grep_search", map[string]any{"pattern": "x"}, "deny", "deny"},
		},
	},
}

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
		res, err := Import(files, opts)
		require.NoError(t, err, p.name)
		importertest.Hold(t, p.name, res.Overlay, map[string]any{"declared": geminiDeclared(), "workspace": map[string]any{"root": "/ws"}}, p.rows)
	}
}
