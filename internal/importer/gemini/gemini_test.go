package gemini

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/importertest"
)

// The most exceptions a rule carries is the policy's.
func TestShapeMaxEntriesIsThePolicys(t *testing.T) {
	assert.Equal(t, json.Number(strconv.Itoa(shapeMaxEntries)), importertest.PolicyValue(t, "data.tooleval.shape.max_entries"))
}

func geminiImport(t *testing.T, policy string, opts Options) importer.Result {
	t.Helper()
	opts.NoDefaults = true
	res, err := Import([]importer.File{{Name: "p.toml", Data: []byte(policy)}}, opts)
	require.NoError(t, err, policy)
	return res
}

// listJSON is an overlay list without the entries of Gemini CLI's
// protections, which every import holds (TestGeminiProtections).
func listJSON(t *testing.T, res importer.Result, list string) string {
	t.Helper()
	var p geminiBuilder
	p.protections(false)
	p.protections(true)
	protections := map[string]bool{}
	for _, e := range append(p.ask.Entries(), p.deny.Entries()...) {
		key, err := json.Marshal(e)
		require.NoError(t, err)
		protections[string(key)] = true
	}
	out := []any{}
	entries, _ := res.Overlay["tools"].(map[string]any)[list].([]any)
	for _, e := range entries {
		key, err := json.Marshal(e)
		require.NoError(t, err)
		if !protections[string(key)] {
			out = append(out, e)
		}
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}

// Every import carries Gemini CLI's protections: an edit of a build file
// or under .vscode, and a shell call with additional_permissions, are
// asked about (denied headless); reads under .git, .env and node_modules
// are denied.
func TestGeminiProtections(t *testing.T) {
	t.Parallel()
	for _, headless := range []bool{false, true} {
		res := geminiImport(t, "", Options{Headless: headless, ApprovalMode: "yolo"})
		asked := map[bool]string{false: "ask", true: "deny"}[headless]
		var got []any
		require.NoError(t, json.Unmarshal([]byte(mustJSON(t, res.Overlay["tools"].(map[string]any)[asked])), &got))
		for _, want := range []any{
			map[string]any{"tool": "write_file", "path": "Makefile"},
			map[string]any{"tool": "replace", "path": "package.json"},
			map[string]any{"tool": "replace", "path": "*.mk"},
			map[string]any{"tool": "write_file", "path": ".vscode"},
			map[string]any{"tool": "run_shell_command", "args_pattern": `"additional_permissions":`},
		} {
			require.Contains(t, got, want, "headless=%v", headless)
		}
		require.Contains(t, mustJSON(t, res.Overlay["tools"].(map[string]any)["deny"]), `{"path":".env","tool":"read_file"}`)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// Each rule form becomes the entries docs/import.md gives; what cannot
// be written exactly is dropped from an allow and widened in a deny or
// ask, with a note.
func TestGeminiRuleForms(t *testing.T) {
	t.Parallel()
	rule := func(body string) string { return "[[rule]]\n" + body + "\npriority = 10\n" }
	for _, tc := range []struct {
		policy, list, want string
		noted              bool
	}{
		{rule(`toolName = "read_file"` + "\n" + `decision = "allow"`), "allow", `["read_file"]`, false},
		{rule(`toolName = ["read_file", "glob"]` + "\n" + `decision = "deny"`), "deny", `["read_file","glob"]`, false},
		{rule(`toolName = "search_file_content"` + "\n" + `decision = "deny"`), "deny", `["grep_search","search_file_content"]`, false},
		{rule(`toolName = "search_file_content"` + "\n" + `decision = "allow"`), "allow", `["grep_search"]`, false},
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = ["git status", "npm run  test"]` + "\n" + `decision = "allow"`), "allow",
			`[{"command_prefix":"git status","tool":"run_shell_command"},{"command_prefix":"npm run test","tool":"run_shell_command"}]`, false},
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = "make FOO=1"` + "\n" + `decision = "ask_user"`), "ask",
			`[{"command_prefix":"make 'FOO=1'","tool":"run_shell_command"}]`, false},
		// a prefix that is not plain words: dropped, or widened to its program or the tool
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = "echo $HOME"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = "rm -rf /*"` + "\n" + `decision = "deny"`), "deny",
			`[{"command_prefix":"rm","tool":"run_shell_command"}]`, true},
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = "$X y"` + "\n" + `decision = "deny"`), "deny",
			`[{"args_pattern":"","tool":"run_shell_command"}]`, true},
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = "sudo apt"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = "git "` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = "FOO=1 make"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = "FOO=1 make"` + "\n" + `decision = "deny"`), "deny",
			`[{"command_prefix":"make","tool":"run_shell_command"}]`, true},
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = "sudo apt"` + "\n" + `decision = "deny"`), "deny",
			`[{"command_prefix":"sudo apt","tool":"run_shell_command"}]`, false},
		// commandPrefix = "" is no prefix to Gemini: the whole tool
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = ""` + "\n" + `decision = "deny"`), "deny", `["run_shell_command"]`, false},
		// an empty list is no rule at all
		{rule(`toolName = "run_shell_command"` + "\n" + `commandPrefix = []` + "\n" + `decision = "deny"`), "deny", `[]`, false},
		// MCP names
		{rule(`mcpName = "github"` + "\n" + `toolName = "get_issue"` + "\n" + `decision = "allow"`), "allow", `["mcp__github__get_issue"]`, false},
		{rule(`mcpName = "github"` + "\n" + `toolName = "*"` + "\n" + `decision = "allow"`), "allow", `["mcp__github__*"]`, false},
		{rule(`toolName = "mcp_github_*"` + "\n" + `decision = "allow"`), "allow", `["mcp__github__*"]`, false},
		{rule(`toolName = "mcp_*"` + "\n" + `decision = "deny"`), "deny", `["mcp__*"]`, false},
		{rule(`toolName = "*"` + "\n" + `mcpName = "*"` + "\n" + `decision = "deny"`), "deny", `["mcp__*"]`, false},
		{rule(`toolName = "mcp_my_srv_x"` + "\n" + `decision = "allow"`), "allow", `["mcp__my__srv_x","mcp__my_srv__x"]`, false},
		{rule(`mcpName = "GitHub"` + "\n" + `toolName = "x"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`mcpName = "GitHub"` + "\n" + `toolName = "x"` + "\n" + `decision = "deny"`), "deny", `["mcp__GitHub__x"]`, true},
		{rule(`mcpName = "*"` + "\n" + `toolName = "search"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`mcpName = "my server"` + "\n" + `toolName = "*"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`mcpName = "my server"` + "\n" + `toolName = "*"` + "\n" + `decision = "deny"`), "deny", `["mcp__my server__*"]`, true},
		{rule(`mcpName = "*"` + "\n" + `toolName = "search"` + "\n" + `decision = "deny"`), "deny", `["mcp__*"]`, true},
		{rule(`toolName = "mcp_*_search"` + "\n" + `decision = "deny"`), "deny", `["mcp__*"]`, true},
		{rule(`toolName = "mcp__github"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		// names Gemini matches only as written
		{rule(`toolName = "discovered_tool_*"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`toolName = "discovered_tool_*"` + "\n" + `decision = "deny"`), "deny", `["discovered_tool_*"]`, true},
		{rule(`toolName = "Read_File"` + "\n" + `decision = "allow"`), "allow",
			`[{"args":{"agent_name":"Read_File"},"tool":"invoke_agent"}]`, true},
		// Gemini compares names exactly: an allow of a spelling whose
		// canonical form is a built-in's (zero-width, full-width,
		// another case) is not carried as that built-in; a deny is
		{rule("toolName = \"run_shell_\u200bcommand\"\ndecision = \"allow\""), "allow",
			`[{"args":{"agent_name":"run_shell_\u200bcommand"},"tool":"invoke_agent"}]`, true},
		{rule(`toolName = "ｗｒｉｔｅ_file"` + "\n" + `decision = "allow"`), "allow",
			`[{"args":{"agent_name":"ｗｒｉｔｅ_file"},"tool":"invoke_agent"}]`, true},
		{rule(`toolName = "ｗｒｉｔｅ_file"` + "\n" + `decision = "deny"`), "deny",
			`["ｗｒｉｔｅ_file",{"args":{"agent_name":"ｗｒｉｔｅ_file"},"tool":"invoke_agent"}]`, true},
		{rule(`mcpName = "github"` + "\n" + `toolName = "get_ｉssue"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule("toolName = \"mcp_git\u200bhub_*\"\ndecision = \"allow\""), "allow", `[]`, true},
		// a sub-agent's name is also invoke_agent's agent_name
		{rule(`toolName = "codebase_investigator"` + "\n" + `decision = "deny"`), "deny",
			`["codebase_investigator",{"args":{"agent_name":"codebase_investigator"},"tool":"invoke_agent"}]`, false},
		// regular expressions: an allow is never carried
		{rule(`toolName = "read_file"` + "\n" + `argsPattern = '\.env'` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`toolName = "read_file"` + "\n" + `argsPattern = '"file_path":"[^"]*\.env"'` + "\n" + `decision = "deny"`), "deny",
			`[{"args_pattern":"\"file_path\":\"(?:[^\"]?)*\\.env\"","tool":"read_file"}]`, false},
		{rule(`toolName = "read_file"` + "\n" + `argsPattern = '(?<!x)y'` + "\n" + `decision = "deny"`), "deny",
			`[{"args_pattern":"","tool":"read_file"}]`, true},
		// what tooleval does not read: dropped, or widened
		{rule(`toolName = "read_file"` + "\n" + `subagent = "helper"` + "\n" + `decision = "allow"`), "allow", `[]`, true},
		{rule(`toolName = "read_file"` + "\n" + `toolAnnotations = { readOnlyHint = true }` + "\n" + `decision = "ask_user"`), "ask", `["read_file"]`, true},
		{rule(`toolName = "read_file"` + "\n" + `decision = "deny"` + "\n" + `denyMessage = "no"`), "deny", `["read_file"]`, true},
		// modes and interactive select the rules in force (default mode, interactive)
		{rule(`toolName = "read_file"` + "\n" + `decision = "deny"` + "\n" + `modes = ["yolo"]`), "deny", `[]`, false},
		{rule(`toolName = "read_file"` + "\n" + `decision = "deny"` + "\n" + `modes = []`), "deny", `["read_file"]`, false},
		{rule(`toolName = "read_file"` + "\n" + `decision = "deny"` + "\n" + `interactive = false`), "deny", `[]`, false},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			res := geminiImport(t, tc.policy, Options{})
			assert.JSONEq(t, tc.want, listJSON(t, res, tc.list))
			assert.Equal(t, tc.noted, len(res.Notes) > 0, "%v", res.Notes)
		})
	}
}

// Priorities are carried exactly: a rule's exceptions are the rules of
// higher priority that decide otherwise (the first loaded wins a tie),
// a subagent rule goes to the sub-agent policy, and a rule that matches
// everything ends the list.
func TestGeminiPriorities(t *testing.T) {
	t.Parallel()
	res := geminiImport(t, `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git"
decision = "deny"
priority = 10

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "ask_user"
priority = 20

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git status"
decision = "allow"
priority = 30

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git log"
decision = "deny"
priority = 30

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git log"
decision = "allow"
priority = 30

[[rule]]
toolName = "read_file"
subagent = "helper"
decision = "deny"
priority = 40

[[rule]]
toolName = "*"
decision = "deny"
priority = 5

[[rule]]
toolName = "glob"
decision = "allow"
priority = 1
`, Options{})
	assert.JSONEq(t, `[
		{"command_prefix":"git log","tool":"run_shell_command","unless":[{"command_prefix":"git status","tool":"run_shell_command"}]},
		{"command_prefix":"git","tool":"run_shell_command","unless":[
			{"command_prefix":"git status","tool":"run_shell_command"},
			{"command_prefix":"git log","tool":"run_shell_command"},
			{"command_prefix":"git push","tool":"run_shell_command"}]}]`, listJSON(t, res, "deny"))
	// the git log allow loses the tie to the deny loaded first, which
	// still bites git log where the allow spares a lower rule
	assert.JSONEq(t, `[{"command_prefix":"git push","tool":"run_shell_command","unless":[
		{"command_prefix":"git status","tool":"run_shell_command"},
		{"command_prefix":"git log","tool":"run_shell_command"}]}]`, listJSON(t, res, "ask"))
	// the catch-all deny ends the list: glob below it is not allowed; the
	// ask's exact form is allowed so that it asks
	assert.JSONEq(t, `[{"command_prefix":"git status","tool":"run_shell_command"},{"command_prefix":"git log","tool":"run_shell_command"},
		{"command_prefix":"git push","tool":"run_shell_command"}]`, listJSON(t, res, "allow"))
	assert.Equal(t, "deny", res.Overlay["tools"].(map[string]any)["otherwise"])
	sub, err := json.Marshal(res.Overlay["subagents"])
	require.NoError(t, err)
	assert.JSONEq(t, `{"deny":["read_file"],"ask":[]}`, string(sub))

	// headless: ask_user is deny, and nothing asks
	res = geminiImport(t, "[[rule]]\ntoolName = \"glob\"\ndecision = \"ask_user\"\npriority = 1\n", Options{Headless: true})
	assert.JSONEq(t, `["glob"]`, listJSON(t, res, "deny"))
	assert.Equal(t, "deny", res.Overlay["tools"].(map[string]any)["otherwise"])
	// yolo: what no rule matches runs
	res = geminiImport(t, "[[rule]]\ntoolName = \"glob\"\ndecision = \"ask_user\"\npriority = 1\n", Options{ApprovalMode: "yolo"})
	assert.Nil(t, res.Overlay["tools"].(map[string]any)["allow"])
}

// A file Gemini CLI reports an error in is not a valid policy: exit 3,
// located at the rule.
func TestGeminiInvalidFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ policy, where string }{
		{`[[rule]`, "p.toml"},
		{`rule = "x"`, "p.toml"},
		{"[[rule]]\ndecision = \"allow\"\npriority = 1", "rule #1"},
		{"[[rule]]\ntoolName = 1\ndecision = \"allow\"\npriority = 1", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"maybe\"\npriority = 1", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1000", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = -1", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1.5", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = \"1\"", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1\nmodes = [\"auto\"]", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1\ninteractive = \"yes\"", "rule #1"},
		{"[[rule]]\ntoolName = \"\"\ndecision = \"allow\"\npriority = 1", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\nmcpName = \"\"\ndecision = \"allow\"\npriority = 1", "rule #1"},
		{"[[rule]]\ntoolName = \"read_file\"\ncommandPrefix = \"ls\"\ndecision = \"allow\"\npriority = 1", "rule #1"},
		{"[[rule]]\ntoolName = [\"run_shell_command\"]\ncommandPrefix = \"ls\"\ndecision = \"allow\"\npriority = 1", "rule #1"},
		{"[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"ls\"\nargsPattern = \"x\"\ndecision = \"allow\"\npriority = 1", "rule #1"},
		{"[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"ls\"\ncommandRegex = \"x\"\ndecision = \"allow\"\npriority = 1", "rule #1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1\n[[rule]]\ntoolName = \"y\"\ndecision = \"allow\"", "rule #2"},
		{"[[safety_checker]]\ntoolName = \"x\"", "safety_checker #1"},
		{"[[safety_checker]]\ntoolName = \"x\"\n[safety_checker.checker]\ntype = \"in-process\"\nname = \"nope\"", "safety_checker #1"},
		{"[[safety_checker]]\ntoolName = \"x\"\n[safety_checker.checker]\ntype = \"other\"\nname = \"x\"", "safety_checker #1"},
		// what Gemini's TOML 0.5 reader refuses, though TOML 1.1 takes it
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1\ndenyMessage = \"bye\\e\"", "TOML 1.1"},
		{"[[rule]]\ntoolName = \"x\\x41\"\ndecision = \"allow\"\npriority = 1", "TOML 1.1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1\ntoolAnnotations = { a = 1,\n b = 2 }", "TOML 1.1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1\ntoolAnnotations = { a = 1, }", "TOML 1.1"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1\nextra = [1, \"a\"]", "different types"},
		{"x = 07:32:00\n[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1", "date or time"},
		{"x = 1979-05-27\n[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1", "date or time"},
		{"x = '''a'''''\n[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1", "closing"},
		{"x = \"\"\"a\"\"\"\"\"\n[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1", "closing"},
		{"a = {b = 1}\na.c = 2\n[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1", "dotted key"},
		{"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1\ntoolAnnotations = { a.b = 1 }", "dotted key"},
	} {
		_, err := Import([]importer.File{{Name: "p.toml", Data: []byte(tc.policy)}}, Options{NoDefaults: true})
		require.Error(t, err, tc.policy)
		assert.True(t, errors.Is(err, importer.ErrInvalid), "%s: %v", tc.policy, err)
		assert.Contains(t, err.Error(), tc.where, tc.policy)
	}
	_, err := Import(nil, Options{ApprovalMode: "auto"})
	require.Error(t, err)
	assert.False(t, errors.Is(err, importer.ErrInvalid))
}

// What TOML 0.5 takes reads: the refusals above do not bite on dots,
// quotes, escapes and brackets inside strings and comments, quoted keys,
// arrays over several lines and table headers.
func TestGeminiTOMLItTakes(t *testing.T) {
	t.Parallel()
	policy := "# a comment with \\e, \\x41, a.b = 1 and { x = 1,\n" +
		"\"quoted.key\" = 1\n" +
		"'literal.key' = \"a.b = 1\"\n" +
		"[[rule]]\n" +
		"toolName = [\"read_file\",\n  \"glob\"]   # a list over lines\n" +
		"decision = \"allow\"\n" +
		"priority = 1\n" +
		"argsPattern = '\\x00\"a.b\"\\e'\n" +
		"denyMessage = \"\"\"multi\nline with \\\\e and \"quotes\" and a.b = 1\"\"\"\n" +
		"toolAnnotations = { readOnlyHint = true, \"x.y\" = \"a.b\" }\n" +
		"[rule.safety_checker]\n" +
		"type = \"in-process\"\n"
	_, err := Import([]importer.File{{Name: "p.toml", Data: []byte(policy)}}, Options{NoDefaults: true})
	require.NoError(t, err)
}

// Gemini drops a rule whose pattern fails its ReDoS check, and so does
// the import.
func TestGeminiDropsWhatGeminiDrops(t *testing.T) {
	t.Parallel()
	res := geminiImport(t, "[[rule]]\ntoolName = \"read_file\"\nargsPattern = '(a+)+'\ndecision = \"deny\"\npriority = 1\n", Options{})
	assert.JSONEq(t, `[]`, listJSON(t, res, "deny"))
	require.Len(t, res.Notes, 1)
}

// A Gemini commandRegex tooleval cannot read as Gemini does becomes a
// deny of every shell call; the import's note names the allow rules that
// can then never allow a call, as check's unreachable_entry does.
func TestAnImportNamesTheAllowsItMadeUnreachable(t *testing.T) {
	res := geminiImport(t, `
[[rule]]
toolName = "run_shell_command"
commandRegex = "rm(?=\\s)"
decision = "deny"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "npm test"
decision = "allow"
priority = 10

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git status"
decision = "allow"
priority = 10
`, Options{})
	var found []string
	for _, n := range res.Notes {
		if strings.Contains(n.Text, "unreachable") {
			found = append(found, n.String())
		}
	}
	require.Len(t, found, 1, "%v", res.Notes)
	require.Contains(t, found[0], "config.tools.deny[0]")
	require.Contains(t, found[0], `{"command_prefix":"npm test","tool":"run_shell_command"}`)
	require.Contains(t, found[0], `{"command_prefix":"git status","tool":"run_shell_command"}`)
	require.Contains(t, found[0], "2 allow entries")
}
