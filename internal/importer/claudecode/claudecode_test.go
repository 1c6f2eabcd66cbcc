package claudecode

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/importertest"
)

func importOne(t *testing.T, settings string) importer.Result {
	t.Helper()
	res, err := Import([]importer.File{{Name: "s.json", Data: []byte(settings)}})
	require.NoError(t, err, settings)
	return res
}

func list(t *testing.T, res importer.Result, name string) string {
	t.Helper()
	b, err := json.Marshal(res.Overlay["tools"].(map[string]any)[name])
	require.NoError(t, err)
	return string(b)
}

// Each rule becomes the entries docs/import.md gives; what cannot be
// expressed exactly is widened in a deny or ask list, dropped or
// narrowed in an allow list, with a note.
func TestClaudeCodeRules(t *testing.T) {
	for _, tc := range []struct {
		rule, list, want string
		noted            bool
	}{
		{"Bash", "deny", `["Bash"]`, false},
		{"Bash(*)", "deny", `["Bash"]`, false},
		{"Bash(npm run test:*)", "deny", `[{"command_prefix":"npm run test","tool":"Bash"}]`, false},
		{"Bash(npm run *)", "deny", `[{"command_prefix":"npm run","tool":"Bash"}]`, false},
		{"Bash(make)", "deny", `[{"command":"make","tool":"Bash"}]`, false},
		{"Bash(git * main)", "allow", `[{"command_wildcard":"git * main","tool":"Bash"}]`, false},
		{"Bash(git * main)", "deny", `[{"command_wildcard":"git * main","tool":"Bash"}]`, true},
		{"Bash(curl * | bash)", "deny", `[{"command_prefix":"curl","tool":"Bash"}]`, true},
		{"Bash(curl * | bash)", "allow", `[]`, true},
		{"Bash(ls*)", "allow", `[{"command_prefix":"ls","tool":"Bash"}]`, true},
		{"Bash(ls*)", "deny", `["Bash"]`, true},
		{"Bash(FOO=1 make)", "deny", `["Bash"]`, true},
		{"Bash(echo $HOME)", "ask", `[{"command_prefix":"echo","tool":"Bash"}]`, true},
		// gitignore patterns (code.claude.com/docs/en/permissions, Read and
		// Edit): ./ is the current directory, what follows is read as
		// gitignore reads it; a / at the start or in the middle anchors
		{"Read(./.env)", "deny", `[{"path":".env","tool":"Read"},{"path":".env","tool":"Grep"},{"path":".env","tool":"LSP"}]`, true},
		{"Read(.env)", "deny", `[{"path":".env","tool":"Read"},{"path":".env","tool":"Grep"},{"path":".env","tool":"LSP"}]`, true},
		{"Read(./src/.env)", "deny", `[{"path":"src/.env","tool":"Read"},{"path":"src/.env","tool":"Grep"},{"path":"src/.env","tool":"LSP"}]`, true},
		{"Edit(/Makefile)", "deny", `[{"path":"./Makefile","tool":"Edit"},{"path":"./Makefile","tool":"Write"},{"path":"./Makefile","tool":"MultiEdit"},{"path":"./Makefile","tool":"NotebookEdit"}]`, false},
		{"Edit(/Makefile)", "allow", `[{"path":"./Makefile","tool":"Edit"}]`, false},
		// Claude Code applies path rules of file edits named Edit only: a
		// Write(PATH) allow lets nothing through, a deny is kept (stricter)
		{"Write(/Makefile)", "allow", `[]`, true},
		{"Write(/out/**)", "allow", `[]`, true},
		{"NotebookEdit(/a.ipynb)", "allow", `[]`, true},
		{"Write(/Makefile)", "deny", `[{"path":"./Makefile","tool":"Write"}]`, true},
		{"Read(//etc/passwd)", "deny", `[{"path":"/etc/passwd","tool":"Read"},{"path":"/etc/passwd","tool":"Grep"},{"path":"/etc/passwd","tool":"LSP"}]`, true},
		{"Read(~/.ssh/**)", "deny", `[{"path":"/**/.ssh/**","tool":"Read"},{"path":"/**/.ssh/**","tool":"Grep"},{"path":"/**/.ssh/**","tool":"LSP"}]`, true},
		{"Read", "deny", `["Read","Grep","LSP","Glob"]`, false},
		{"Edit", "ask", `["Edit","Write","MultiEdit","NotebookEdit"]`, false},
		// an allow lets through the tool it names only
		{"Edit", "allow", `["Edit"]`, false},
		{"Edit(*)", "allow", `["Edit"]`, false},
		{"Read", "deny", `["Read","Grep","LSP","Glob"]`, false},
		{"Read(src/**)", "allow", `[{"path":"src/**","tool":"Read"}]`, false},
		{"Read(/)", "deny", `["Read"]`, true},
		{"Read(./a/../b)", "deny", `["Read"]`, true},
		{"Edit(a**b)", "allow", `[]`, true},
		{"bash", "allow", `[]`, true},
		{"bash(ls)", "allow", `[]`, true},
		{"bash", "deny", `["bash"]`, true},
		{"Bash(git push*--force)", "deny", `[{"command_prefix":"git","tool":"Bash"}]`, true},
		{"Bash(git push*--force)", "allow", `[{"command_wildcard":"git push*--force","tool":"Bash"}]`, false},
		{"Bash(sudo:*)", "allow", `[]`, true},
		{"Bash(/usr/bin/env ls)", "allow", `[]`, true},
		{"Bash(sudo:*)", "deny", `[{"command_prefix":"sudo","tool":"Bash"}]`, false},
		{"Bash()", "deny", `["Bash"]`, true},
		{"mcp__github__*", "allow", `["mcp__github__*"]`, false},
		{"mcp__GitHub__get_issue", "allow", `[]`, true},
		{"mcp__GitHub__get_issue", "deny", `["mcp__GitHub__get_issue"]`, false},
		// Claude Code compares tool names exactly, tooleval canonically:
		// an allow of another spelling is not carried, a deny is (wider)
		{"mcp__ｇｉｔｈｕｂ__get_issue", "allow", `[]`, true},
		{"mcp__git\u200bhub__get_issue", "allow", `[]`, true},
		{"mcp__git\u200bhub__get_issue", "deny", `["mcp__git\u200bhub__get_issue"]`, false},
		{"Ｂａｓｈ", "allow", `[]`, true},
		{"Ｂａｓｈ(ls)", "allow", `[]`, true},
		{"Ｂａｓｈ", "deny", `["Ｂａｓｈ"]`, true},
		{"Ba\u200bsh", "ask", `["Ba\u200bsh"]`, true},
		{"mcp__", "deny", `[]`, true},
		{"Read(~/.ssh/**)", "allow", `[]`, true},
		{"Edit(/docs/**)", "allow", `[{"path":"docs/**","tool":"Edit"}]`, false},
		{"Write(src/[ab].go)", "deny", `["Write"]`, true},
		{"WebFetch(domain:Docs.Example.com)", "allow", `[{"domain":"docs.example.com","tool":"WebFetch"}]`, false},
		{"WebFetch(domain:*.example.com)", "deny", `[{"domain":"*.example.com","tool":"WebFetch"}]`, false},
		{"WebFetch(https://x)", "deny", `["WebFetch"]`, true},
		{"mcp__github", "allow", `["mcp__github__*"]`, false},
		{"mcp__github__get_issue", "deny", `["mcp__github__get_issue"]`, false},
		{"Agent(Explore)", "ask", `[{"args":{"subagent_type":"Explore"},"tool":"Agent"}]`, false},
		{"Task(Explore)", "ask", `[{"args":{"subagent_type":"Explore"},"tool":"Agent"}]`, false},
		{"Skill(deploy)", "deny", `["Skill"]`, true},
		{"Skill(deploy)", "allow", `[]`, true},
	} {
		t.Run(tc.list+" "+tc.rule, func(t *testing.T) {
			res := importOne(t, fmt.Sprintf(`{"permissions":{"defaultMode":"bypassPermissions",%q:[%q]}}`, tc.list, tc.rule))
			got := list(t, res, tc.list)
			if strings.HasPrefix(tc.rule, "Read(") {
				got = withoutShell(t, got)
			}
			if tc.list == "allow" {
				// bypassPermissions has no allow list: read the rule in default mode
				res = importOne(t, fmt.Sprintf(`{"permissions":{%q:[%q]}}`, tc.list, tc.rule))
				var entries []any
				require.NoError(t, json.Unmarshal([]byte(list(t, res, "allow")), &entries))
				rest, err := json.Marshal(entries[len(claudePermissionFree):])
				require.NoError(t, err)
				got = string(rest)
			}
			assert.JSONEq(t, tc.want, got)
			noted := false
			for _, n := range res.Notes {
				if n.Location == "s.json: permissions."+tc.list+"[0]" {
					noted = true
				}
			}
			assert.Equal(t, tc.noted, noted, "%v", res.Notes)
		})
	}
}

// The mode decides the allow list and what no rule allows gets.
func TestClaudeCodeModes(t *testing.T) {
	for _, tc := range []struct{ mode, allow, otherwise string }{
		{"default", "permission-free", "ask"},
		{"manual", "permission-free", "ask"},
		{"auto", "permission-free", "ask"},
		{"acceptEdits", "permission-free+edits", "ask"},
		{"plan", "permission-free", "deny"},
		{"dontAsk", "permission-free", "deny"},
		{"bypassPermissions", "null", "deny"},
	} {
		res := importOne(t, fmt.Sprintf(`{"permissions":{"defaultMode":%q}}`, tc.mode))
		tools := res.Overlay["tools"].(map[string]any)
		assert.Equal(t, tc.otherwise, tools["otherwise"], tc.mode)
		switch tc.allow {
		case "null":
			assert.Nil(t, tools["allow"], tc.mode)
		case "permission-free":
			assert.Len(t, tools["allow"], len(claudePermissionFree), tc.mode)
		default:
			assert.Len(t, tools["allow"], len(claudePermissionFree)+len(claudeEditTools), tc.mode)
		}
	}
	// a disabled bypass mode is read as default
	res := importOne(t, `{"permissions":{"defaultMode":"bypassPermissions","disableBypassPermissionsMode":"disable"}}`)
	assert.Equal(t, "ask", res.Overlay["tools"].(map[string]any)["otherwise"])
	// the mode of the file of highest precedence wins; every file's lists apply
	res, err := Import([]importer.File{
		{Name: "user.json", Data: []byte(`{"permissions":{"defaultMode":"dontAsk","deny":["Bash(rm:*)"]}}`)},
		{Name: "project.json", Data: []byte(`{"permissions":{"defaultMode":"acceptEdits","allow":["Bash(rm:*)"]}}`)},
	})
	require.NoError(t, err)
	tools := res.Overlay["tools"].(map[string]any)
	assert.Equal(t, "ask", tools["otherwise"])
	assert.Contains(t, tools["deny"], map[string]any{"tool": "Bash", "command_prefix": "rm"})
}

// A tool the settings deny by name is not put back in the allow list.
func TestClaudeCodeDeniedPermissionFreeTool(t *testing.T) {
	res := importOne(t, `{"permissions":{"deny":["Grep"]}}`)
	assert.NotContains(t, res.Overlay["tools"].(map[string]any)["allow"], "Grep")
}

// Files that are not settings stop the import.
func TestClaudeCodeInvalid(t *testing.T) {
	for _, bad := range []string{
		`[]`, `{"permissions": []}`, `{"permissions": {"allow": "Bash"}}`, `{"permissions": {"allow": [7]}}`,
		`{"permissions": {"deny": ["Bash("]}}`, `{"permissions": {"defaultMode": "yolo"}}`, `{} {}`, `not json`,
	} {
		_, err := Import([]importer.File{{Name: "s.json", Data: []byte(bad)}})
		require.ErrorIs(t, err, importer.ErrInvalid, bad)
	}
}

// Writes to protected paths are asked about in every mode but
// bypassPermissions (denied in dontAsk, where nothing asks).
func TestClaudeCodeProtectedPaths(t *testing.T) {
	for mode, list := range map[string]string{"default": "ask", "acceptEdits": "ask", "dontAsk": "deny", "plan": "ask"} {
		res := importOne(t, fmt.Sprintf(`{"permissions":{"defaultMode":%q,"allow":["Edit(**)"]}}`, mode))
		entries := res.Overlay["tools"].(map[string]any)[list].([]any)
		for _, tool := range claudeEditTools {
			for _, p := range claudeProtectedPaths {
				assert.Contains(t, entries, map[string]any{"tool": tool, "path": p}, mode)
			}
		}
	}
	res := importOne(t, `{"permissions":{"defaultMode":"bypassPermissions"}}`)
	assert.Empty(t, res.Overlay["tools"].(map[string]any)["ask"])
}

// withoutShell is a list without the entries a Read rule carries to the
// shell tools (TestClaudeReadRulesReachTheShell holds those).
func withoutShell(t *testing.T, list string) string {
	t.Helper()
	var entries, out []any
	require.NoError(t, json.Unmarshal([]byte(list), &entries))
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok && slices.Contains(importer.AnyList(claudeShellTools), m["tool"]) || slices.Contains(importer.AnyList(claudeShellTools), e) {
			continue
		}
		out = append(out, e)
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	if out == nil {
		return "[]"
	}
	return string(b)
}

// A Read deny or ask rule with a path reaches the shell tools: a
// command whose words could name a matching path is bitten (Claude Code
// denies `cat .env` under Read(./.env)); a command tooleval cannot read
// is bitten through the guard rule, which the policy's own reading
// decides (tests/import_test.go holds that end to end).
func TestClaudeReadRulesReachTheShell(t *testing.T) {
	for _, tc := range []struct {
		spec, literal string
		bites, spares []string
	}{
		{"./.env", ".env", []string{"cat .env", "cat sub/.ENV", `cat ".env"`, `cat .e""nv`, "cat .e''nv", "less /ws/.env"}, []string{"cat env", "ls", "cat .en"}},
		{"//etc/shadow", "shadow", []string{"cat /etc/shadow", "cd /etc && cat shadow", "cat SHADOW"}, []string{"cat /etc/passwd"}},
		{"./secrets/**", "secrets", []string{"cat secrets/k", "cd secrets; cat k"}, []string{"cat k"}},
		{"*.key", ".key", []string{"cat id.key"}, []string{"cat id.pem"}},
		{"~/.ssh/**", ".ssh", []string{"cat ~/.ssh/id_rsa"}, []string{"cat id_rsa"}},
		{"src/[ab]*.go", ".go", []string{"cat src/a.go"}, []string{"cat src/a.ts"}},
		{"**", "", nil, nil},
		{"/*", "", nil, nil},
	} {
		require.Equal(t, tc.literal, claudeLiteral(tc.spec), tc.spec)
		entries := claudeReadShell(tc.spec)
		if tc.literal == "" {
			require.Equal(t, importer.AnyList(claudeShellTools), entries, "%s: no literal: every call of the shell tools", tc.spec)
			continue
		}
		re := regexp.MustCompile(entries[0].(map[string]any)["args_pattern"].(string))
		require.Equal(t, map[string]any{"tool": "Bash", "command": claudeShellGuard}, entries[1], tc.spec)
		for _, c := range tc.bites {
			text, err := json.Marshal(map[string]any{"command": c})
			require.NoError(t, err)
			require.True(t, re.Match(text), "%s bites %s", tc.spec, c)
		}
		for _, c := range tc.spares {
			text, err := json.Marshal(map[string]any{"command": c})
			require.NoError(t, err)
			require.False(t, re.Match(text), "%s spares %s", tc.spec, c)
		}
	}
}

// An overlay that names an MCP server declares it (config.mcp_servers),
// so that tooleval check --strict knows it.
func TestClaudeCodeDeclaresMCPServers(t *testing.T) {
	t.Parallel()
	res := importOne(t, `{"permissions": {"allow": ["mcp__github__get_issue", "mcp__jira", "Read"],
		"ask": ["mcp__wiki__*"], "deny": ["mcp__billing__delete_invoice", "mcp__github__delete_repo", "Bash(curl:*)"]}}`)
	importertest.RequireServersDeclared(t, res.Overlay, "billing", "github", "jira", "wiki")
	importertest.RequireServersDeclared(t, importOne(t, `{"permissions": {"allow": ["Read"], "deny": ["Bash"]}}`).Overlay)
}

// A file that is not settings is refused in the document's terms: the
// member and the kinds of value, never a Go type of the importer.
func TestAnInvalidFileIsSaidInTheDocumentsTerms(t *testing.T) {
	t.Parallel()
	for settings, want := range map[string]string{
		`[]`:                                 "the document is a JSON array, not an object",
		`"x"`:                                "the document is a JSON string, not an object",
		`{"permissions": []}`:                "permissions is a JSON array, not an object",
		`{"permissions": {"allow": "Bash"}}`: "permissions.allow is a JSON string, not an array",
	} {
		_, err := Import([]importer.File{{Name: "s.json", Data: []byte(settings)}})
		require.ErrorIs(t, err, importer.ErrInvalid, settings)
		assert.Contains(t, err.Error(), want, settings)
		assert.NotContains(t, err.Error(), "Go value", settings)
	}
}
