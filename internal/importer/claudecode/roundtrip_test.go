package claudecode

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/importertest"
)

// The round trip of Claude Code settings: imported, then calls decided by
// an engine under the overlay and held to what Claude Code's
// documentation says it does (or stricter, as noted).

// claudeRow is a call under imported Claude Code settings.
type claudeRow = importertest.Row

const (
	permissionsPage = "code.claude.com/docs/en/permissions"
	modesPage       = "code.claude.com/docs/en/permission-modes"
	toolsPage       = "code.claude.com/docs/en/tools-reference"
)

func bash(command string) map[string]any { return map[string]any{"command": command} }

func file(path string) map[string]any { return map[string]any{"file_path": path} }

// claudeSettingsRows are settings files (lowest precedence first), each with
// the calls they are held to.
var claudeSettingsRows = []struct {
	name  string
	files []string
	rows  []claudeRow
}{
	{
		name: "default mode",
		files: []string{`{"permissions": {
			"allow": ["Bash(npm run test:*)", "Bash(git status)", "WebFetch(domain:docs.example.com)", "Edit(docs/**)", "mcp__github"],
			"ask":   ["Bash(git push:*)"],
			"deny":  ["Read(./.env)", "Bash(curl:*)", "WebFetch(domain:evil.net)"]}}`},
		rows: []claudeRow{
			{permissionsPage + " (Bash: prefix; :* is a space and *, a word boundary)", "Bash", bash("npm run test --coverage"), "allow", "allow"},
			{permissionsPage + " (a prefix rule does not permit a compound command)", "Bash", bash("npm run test && rm -rf /"), "ask", "ask"},
			{permissionsPage + " (exact command)", "Bash", bash("git status"), "allow", "allow"},
			{permissionsPage + " (exact command)", "Bash", bash("git status; rm x"), "ask", "ask"},
			{modesPage + " (default: shell commands ask)", "Bash", bash("npm run build"), "ask", "ask"},
			{permissionsPage + " (ask wins over allow)", "Bash", bash("git push origin main"), "ask", "ask"},
			{permissionsPage + " (deny first)", "Bash", bash("curl https://example.com"), "deny", "deny"},
			{permissionsPage + " (deny first)", "Bash", bash("ls && curl https://example.com"), "deny", "deny"},
			{permissionsPage + " (Read rules)", "Read", file("/ws/.env"), "deny", "deny"},
			{toolsPage + " (Read: no permission)", "Read", file("/ws/src/main.go"), "allow", "allow"},
			{toolsPage + " (Grep: no permission)", "Grep", map[string]any{"pattern": "x", "path": "/ws/src"}, "allow", "allow"},
			{permissionsPage + " (WebFetch domain)", "WebFetch", map[string]any{"url": "https://docs.example.com/a"}, "allow", "allow"},
			{toolsPage + " (WebFetch: permission)", "WebFetch", map[string]any{"url": "https://other.example.org/"}, "ask", "ask"},
			{permissionsPage + " (deny first)", "WebFetch", map[string]any{"url": "https://evil.net/"}, "deny", "deny"},
			{permissionsPage + " (Edit rules)", "Edit", map[string]any{"file_path": "/ws/docs/a.md", "old_string": "a", "new_string": "b"}, "allow", "allow"},
			// an allow carries the tool it names only (stricter: a deny of
			// Edit covers every editing tool, an allow of it only Edit)
			{permissionsPage + " (Edit rules apply to every editing tool)", "Write", map[string]any{"file_path": "/ws/docs/b.md", "content": "x"}, "allow", "ask"},
			{modesPage + " (default: file edits ask)", "Edit", map[string]any{"file_path": "/ws/src/a.go", "old_string": "a", "new_string": "b"}, "ask", "ask"},
			{toolsPage + " (WebSearch: permission)", "WebSearch", map[string]any{"query": "x"}, "ask", "ask"},
			{permissionsPage + " (mcp__server: every tool of the server)", "mcp__github__get_issue", map[string]any{}, "allow", "allow"},
		},
	},
	{
		name:  "dontAsk",
		files: []string{`{"permissions": {"defaultMode": "dontAsk", "allow": ["Bash(git status)"], "ask": ["Bash(git push:*)"]}}`},
		rows: []claudeRow{
			{modesPage + " (dontAsk: pre-approved tools run)", "Bash", bash("git status"), "allow", "allow"},
			{modesPage + " (dontAsk: anything that would prompt is denied)", "Bash", bash("ls"), "deny", "deny"},
			{modesPage + " (dontAsk: anything that would prompt is denied)", "Bash", bash("git push"), "deny", "deny"},
			{modesPage + " (dontAsk: reads run)", "Read", file("/ws/a.txt"), "allow", "allow"},
		},
	},
	{
		name: "a deny at any level wins",
		files: []string{
			`{"permissions": {"allow": ["Bash(rm:*)"]}}`,
			`{"permissions": {"deny": ["Bash(rm:*)"]}}`,
		},
		rows: []claudeRow{
			{permissionsPage + " (deny rules always take precedence)", "Bash", bash("rm -rf build"), "deny", "deny"},
		},
	},
	{
		name:  "bypassPermissions",
		files: []string{`{"permissions": {"defaultMode": "bypassPermissions", "deny": ["Bash(rm:*)", "Bash(git push*--force)", "Edit"]}}`},
		rows: []claudeRow{
			{permissionsPage + " (a * matches any text, spaces too)", "Bash", bash("git push origin main --force"), "deny", "deny"},
			{permissionsPage + " (Edit rules apply to every editing tool)", "Write", map[string]any{"file_path": "/ws/a", "content": "x"}, "deny", "deny"},
			{modesPage + " (bypassPermissions: everything runs)", "Bash", bash("ls"), "allow", "allow"},
			{modesPage + " (bypassPermissions: everything runs)", "Read", map[string]any{"file_path": "/ws/.git/config"}, "allow", "allow"},
			{permissionsPage + " (deny rules apply in every mode)", "Bash", bash("rm x"), "deny", "deny"},
		},
	},
	{
		name:  "plan",
		files: []string{`{"permissions": {"defaultMode": "plan", "allow": ["Bash(npm run build)"]}}`},
		rows: []claudeRow{
			{modesPage + " (plan: reads)", "Read", file("/ws/a.txt"), "allow", "allow"},
			{modesPage + " (plan: does not edit)", "Edit", map[string]any{"file_path": "/ws/a", "old_string": "a", "new_string": "b"}, "deny", "deny"},
			// plan runs read-only commands; tooleval cannot tell them: refused (noted)
			{modesPage + " (plan: read-only shell commands)", "Bash", bash("ls"), "allow", "deny"},
		},
	},
	{
		name:  "acceptEdits",
		files: []string{`{"permissions": {"defaultMode": "acceptEdits"}}`},
		rows: []claudeRow{
			{modesPage + " (acceptEdits: file edits)", "Edit", map[string]any{"file_path": "/ws/src/a.go", "old_string": "a", "new_string": "b"}, "allow", "allow"},
			// tooleval cannot tell that a command's paths stay in the working directory: asked (noted)
			{permissionsPage + " (acceptEdits: mkdir, touch, mv, cp in the working directory)", "Bash", bash("mkdir -p build"), "allow", "ask"},
			{modesPage + " (protected paths are never auto-approved)", "Write", map[string]any{"file_path": "/ws/.git/config", "content": "x"}, "ask", "ask"},
			{modesPage + " (protected paths are never auto-approved)", "Edit", map[string]any{"file_path": "/ws/sub/.claude/settings.json", "old_string": "a", "new_string": "b"}, "ask", "ask"},
			{modesPage + " (acceptEdits: other commands ask)", "Bash", bash("npm install"), "ask", "ask"},
		},
	},
}

// claudeAnchoring: Read and Edit rules are gitignore patterns
// (permissionsPage, "Read and Edit": /path from the project root, path
// and ./path from the current directory, both the workspace root here);
// a pattern with a / at its start or middle is anchored there, one
// without matches at any depth (git-scm.com/docs/gitignore).
var claudeAnchoring = []struct {
	name  string
	files []string
	rows  []claudeRow
}{{
	name: "gitignore anchoring",
	files: []string{`{"permissions": {
		"allow": ["Edit(/Makefile)", "Edit(src/*.go)"],
		"deny":  ["Read(./.env)", "Edit(/secrets/**)"]}}`},
	rows: []claudeRow{
		{permissionsPage + " (/path: the project root)", "Edit", map[string]any{"file_path": "/ws/Makefile", "old_string": "a", "new_string": "b"}, "allow", "allow"},
		{permissionsPage + " (/path: the project root's only)", "Edit", map[string]any{"file_path": "/ws/sub/Makefile", "old_string": "a", "new_string": "b"}, "ask", "ask"},
		{permissionsPage + " (path with a /: the current directory's)", "Edit", map[string]any{"file_path": "/ws/src/a.go", "old_string": "a", "new_string": "b"}, "allow", "allow"},
		{permissionsPage + " (path with a /: the current directory's only)", "Edit", map[string]any{"file_path": "/ws/x/src/a.go", "old_string": "a", "new_string": "b"}, "ask", "ask"},
		{permissionsPage + " (./path: no / after it, any depth)", "Read", file("/ws/.env"), "deny", "deny"},
		{permissionsPage + " (./path: no / after it, any depth)", "Read", file("/ws/sub/.env"), "deny", "deny"},
		// Claude Code denies a shell command that reads a path a Read deny
		// rule covers; here a command whose words could name one, or one
		// tooleval cannot read exactly (stricter)
		{permissionsPage + " (Read deny rules reach the shell)", "Bash", bash("cat .env"), "deny", "deny"},
		{permissionsPage + " (Read deny rules reach the shell)", "Bash", bash("cat sub/.env | head -1"), "deny", "deny"},
		{permissionsPage + " (Read deny rules reach the shell)", "Bash", bash(`cat .e""nv`), "deny", "deny"},
		{permissionsPage + " (Read deny rules reach the shell: a glob could name it, stricter)", "Bash", bash("cat .e*"), "ask", "deny"},
		{permissionsPage + " (Read deny rules reach the shell: a wrapper, stricter)", "Bash", bash("xargs cat < list"), "ask", "deny"},
		{modesPage + " (default: shell commands ask)", "Bash", bash("cat README.md"), "ask", "ask"},
		{permissionsPage + " (/path with a /: the root's)", "Write", map[string]any{"file_path": "/ws/secrets/k", "content": "x"}, "deny", "deny"},
		{permissionsPage + " (/path with a /: the root's only)", "NotebookEdit", map[string]any{"notebook_path": "/ws/a/secrets/k.ipynb", "new_source": "x"}, "ask", "ask"},
	},
}, {
	name:  "a bare Edit allow",
	files: []string{`{"permissions": {"allow": ["Edit"]}}`},
	rows: []claudeRow{
		{permissionsPage + " (an Edit allow)", "Edit", map[string]any{"file_path": "/ws/Makefile", "old_string": "a", "new_string": "b"}, "allow", "allow"},
		{permissionsPage + " (Edit rules apply to every editing tool: an allow carries Edit only, stricter)", "Write", map[string]any{"file_path": "/ws/a.txt", "content": "x"}, "allow", "ask"},
		{permissionsPage + " (Edit rules apply to every editing tool: an allow carries Edit only, stricter)", "MultiEdit", map[string]any{"file_path": "/ws/a.txt", "edits": []any{}}, "allow", "ask"},
	},
}}

// Every row decides as Claude Code's documentation says, or stricter,
// through the engine with the imported overlay (claude_code preset).
func TestClaudeCodeImportDecidesAsDocumented(t *testing.T) {
	t.Parallel()
	tools := []string{"Bash", "Read", "Grep", "Edit", "Write", "MultiEdit", "NotebookEdit", "WebFetch", "WebSearch", "mcp__github__get_issue"}
	for _, s := range append(claudeSettingsRows, claudeAnchoring...) {
		var files []importer.File
		for i, f := range s.files {
			files = append(files, importer.File{Name: fmt.Sprintf("settings%d.json", i), Data: []byte(f)})
		}
		res, err := Import(files)
		require.NoError(t, err, s.name)
		declared := []any{}
		for _, name := range tools {
			if server, tool, ok := strings.Cut(strings.TrimPrefix(name, "mcp__"), "__"); ok && strings.HasPrefix(name, "mcp__") {
				declared = append(declared, map[string]any{"name": name, "mcp": map[string]any{"server": server, "tool": tool}})
				continue
			}
			declared = append(declared, map[string]any{"name": name})
		}
		importertest.Hold(t, s.name, res.Overlay, map[string]any{"declared": declared, "workspace": map[string]any{"root": "/ws"}}, s.rows)
	}
}

// Whatever the rules, the import is a valid configuration: a rule
// tooleval cannot write is dropped or widened, never written invalid
// (which would refuse every call).
func TestClaudeCodeImportIsAlwaysValid(t *testing.T) {
	t.Parallel()
	rules := []string{
		"Bash(sudo:*)", "Bash(env:*)", "Bash(bash:*)", "Bash(sh -c:*)", "Bash(xargs rm)", "Bash(timeout 5 ls)",
		"Bash(nohup ls)", "Bash(nice ls)", "Bash(exec ls)", "Bash(command ls)", "Bash(time ls)", "Bash(.)",
		"Bash(/usr/bin/sudo:*)", "Bash(sudo * ls)", "Bash()", "Bash( )", "Bash(ls *)", "Bash(*ls)", "Bash(git push*--force)",
		"Bash(FOO=1 make)", "Bash(echo 'a b')", "Bash(ls > x)", "Bash(a:*:*)", "Bash(" + strings.Repeat("a", 10001) + ")",
		"Bash(cd ~)", "Bash(ls #x)", "Bash(rm -rf /*)", "Bash(ｌｓ)", "Bash(ls\tx)",
		"Read()", "Read(/)", "Read(./)", "Read(.)", "Read(..)", "Read(/.)", "Read(//.)", "Read(../x)", "Read(./a/../b)",
		"Read(a/./b)", "Read(a//b)", "Read(//etc//passwd)", "Read(///etc)", "Read(a**b)", "Read(**.env)", "Read(***)",
		"Read(~)", "Read(~user/x)", "Read(~/.)", "Read(~/..)", "Read(~//x)", "Read(cafe\u0301)", "Read(\u212a)",
		"Edit(**)", "Edit(src/**/*.go)", "Write(**/*.key)", "NotebookEdit(x.ipynb)",
		"WebFetch(domain:)", "WebFetch(domain:a..b)", "WebFetch(domain:EXAMPLE.com)", "WebFetch(domain:1.2.3.4)",
		"WebFetch(domain:example.com:8080)", "WebFetch(domain:example.com.)", "WebFetch(domain:*)",
		"mcp__", "mcp__github", "mcp__github__*", "mcp__github__get_*", "mcp____x", "mcp__*",
		"Agent(Explore)", "Agent(a b)", "Task()", "Skill(deploy)", "bash", "WEBFETCH", "Nope", "Nope(x)", "Glob(*.go)",
	}
	for _, mode := range []string{"default", "dontAsk", "acceptEdits", "bypassPermissions"} {
		settings, err := json.Marshal(map[string]any{"permissions": map[string]any{"defaultMode": mode, "allow": rules, "ask": rules, "deny": rules}})
		require.NoError(t, err)
		res, err := Import([]importer.File{{Name: "s.json", Data: settings}})
		require.NoError(t, err, mode)
		importertest.RequireValid(t, mode, res.Overlay)
	}
}
