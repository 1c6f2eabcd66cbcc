package codex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/importertest"
)

// codexRow is a call under imported Codex rules (runtime: Codex's
// verdict, prompt as ask and forbidden as deny).
type codexRow = importertest.Row

const (
	codexRulesPage = "developers.openai.com/codex/rules"
	codexTests     = "openai/codex codex-rs/execpolicy/tests/basic.rs"
	codexCore      = "openai/codex codex-rs/core/src/exec_policy.rs"
	codexDanger    = "openai/codex codex-rs/shell-command command_might_be_dangerous"
)

func argv(words ...string) map[string]any { return map[string]any{"command": words} }

func script(s string) map[string]any { return map[string]any{"command": s} }

var codexRules = []struct {
	name   string
	policy string
	rules  string
	rows   []codexRow
}{
	{
		name:   "untrusted",
		policy: "untrusted",
		rules: `
prefix_rule(pattern = ["gh", "pr", "view"], decision = "prompt",
    match = ["gh pr view 7888", "gh pr view --repo openai/codex"],
    not_match = ["gh pr --repo openai/codex view 7888"])
prefix_rule(pattern = ["git"], decision = "prompt")
prefix_rule(pattern = ["git", "commit"], decision = "forbidden")
prefix_rule(pattern = ["git", "add"])
prefix_rule(pattern = ["cargo", "test"])
prefix_rule(pattern = ["npm", ["i", "install"], ["--legacy-peer-deps", "--no-save"]])
prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "destructive command")
`,
		rows: []codexRow{
			{codexRulesPage + " (prompt)", "shell", argv("gh", "pr", "view", "7888", "--json", "title,body,comments"), "ask", "ask"},
			{codexRulesPage + " (the pattern is an exact prefix: no match, untrusted asks)", "shell", argv("gh", "pr", "--repo", "openai/codex", "view", "7888"), "ask", "ask"},
			{codexTests + " parses_multiple_policy_files", "shell", argv("git", "status"), "ask", "ask"},
			{codexTests + " parses_multiple_policy_files (strictest wins)", "shell", argv("git", "commit", "-m", "hi"), "deny", "deny"},
			{codexTests + " tail_aliases_are_not_cartesian_expanded", "shell", argv("npm", "install", "--no-save", "leftpad"), "allow", "allow"},
			{codexTests + " (alternatives)", "shell", argv("npm", "i", "--legacy-peer-deps"), "allow", "allow"},
			{codexTests + " (justification)", "shell", argv("rm", "-rf", "/some/important/folder"), "deny", "deny"},
			{codexRulesPage + " (bash -lc is split: each command counts)", "shell", argv("bash", "-lc", "git add . && git commit -m x"), "deny", "deny"},
			{codexRulesPage + " (allowing git add does not allow git add . && rm -rf /)", "shell", argv("bash", "-lc", "git add . && rm -rf /"), "deny", "deny"},
			{codexTests + " (every matching rule counts: git prompts, git add allows)", "shell", argv("git", "add", "src"), "ask", "ask"},
			{codexRulesPage + " (every command of the script allowed)", "shell", argv("bash", "-lc", "cargo test && npm i --no-save x"), "allow", "allow"},
			{codexRulesPage + " (a string command is a script)", "shell_command", script("cargo test -p core"), "allow", "allow"},
			{codexRulesPage + " (a string command is a script)", "exec_command", map[string]any{"cmd": "npm install --no-save x", "workdir": "/w"}, "allow", "allow"},
			{codexCore + " (untrusted: no rule matches, asks)", "shell", argv("cargo", "build"), "ask", "ask"},
			// a script Codex cannot split is one command no rule matches
			// (untrusted asks); tooleval cannot read it, and its forbidden
			// rules bite: refused (noted, stricter)
			{codexRulesPage + " (a script that is not split)", "shell", argv("bash", "-lc", "echo $HOME"), "ask", "deny"},
			// an escalation out of the sandbox is not read by an allow rule
			{codexCore + " (leaving the sandbox is refused but under on-request)", "shell", map[string]any{"command": []any{"cargo", "test"}, "sandbox_permissions": "require_escalated"}, "deny", "deny"},
			{codexCore + " (tools outside the shell)", "update_plan", map[string]any{"plan": []any{}}, "allow", "allow"},
		},
	},
	{
		name:   "on-request",
		policy: "on-request",
		rules: `
prefix_rule(pattern = ["git", "push"], decision = "prompt")
prefix_rule(pattern = ["curl"], decision = "forbidden")
`,
		rows: []codexRow{
			{codexCore + " (on-request: a command no rule matches runs in the sandbox)", "shell", argv("cargo", "build"), "allow", "allow"},
			{codexDanger + " (rm -rf prompts)", "shell", argv("rm", "-rf", "build"), "ask", "ask"},
			{codexDanger + " (git reset prompts)", "shell_command", script("git reset --hard"), "ask", "ask"},
			{codexRulesPage + " (prompt)", "shell", argv("git", "push", "origin", "main"), "ask", "ask"},
			{codexRulesPage + " (forbidden)", "shell", argv("bash", "-lc", "ls && curl https://x"), "deny", "deny"},
			{codexCore + " (tools outside the shell)", "apply_patch", map[string]any{"input": "*** Begin Patch"}, "allow", "allow"},
			// a call that asks to leave the sandbox is not read, so the
			// forbidden curl rule bites it: refused (noted, stricter)
			{codexCore + " (on-request asks to leave the sandbox)", "shell", map[string]any{"command": []any{"cargo", "build"}, "sandbox_permissions": "require_escalated"}, "ask", "deny"},
			// every rm is asked about here, not only a forced one (noted)
			{codexDanger + " (rm without force runs)", "shell", argv("rm", "build/x"), "allow", "ask"},
		},
	},
	{
		name:   "never",
		policy: "never",
		rules:  `prefix_rule(pattern = ["gh", "pr", "view"], decision = "prompt")`,
		rows: []codexRow{
			{codexCore + " (never: what would prompt is refused)", "shell", argv("gh", "pr", "view", "1"), "deny", "deny"},
			{codexCore + " (never: a command no rule matches runs)", "shell", argv("ls"), "allow", "allow"},
			{codexCore + " (never: a dangerous command no rule matches is refused)", "shell", argv("rm", "-rf", "/"), "deny", "deny"},
			{codexCore + " (never: a dangerous command no rule matches is refused)", "shell_command", script("sudo rm -f x"), "deny", "deny"},
			{codexCore + " (leaving the sandbox is refused but under on-request)", "shell", map[string]any{"command": []any{"ls"}, "sandbox_permissions": "require_escalated"}, "deny", "deny"},
		},
	},
}

// Every row decides as Codex does, or stricter, through the engine with
// the imported overlay.
func TestCodexImportDecidesAsDocumented(t *testing.T) {
	t.Parallel()
	for _, s := range codexRules {
		res, err := Import([]importer.File{{Name: "default.rules", Data: []byte(s.rules)}}, Options{ApprovalPolicy: s.policy})
		require.NoError(t, err, s.name)
		declared := []any{}
		for _, name := range []string{"shell", "shell_command", "exec_command", "apply_patch", "update_plan"} {
			declared = append(declared, map[string]any{"name": name})
		}
		importertest.Hold(t, s.name, res.Overlay, map[string]any{"declared": declared}, s.rows)
	}
}

// Whatever the rules, the import is a valid configuration, and its
// carried examples pass: a rule tooleval cannot write is dropped or
// widened, never written invalid (which would refuse every call). A
// widened deny shadows allow rules of its tools: check warns about that.
func TestCodexImportIsAlwaysValid(t *testing.T) {
	t.Parallel()
	patterns := []string{
		`["sudo", "apt"]`, `["env"]`, `["bash", "-lc"]`, `["/usr/bin/git", "status"]`, `["FOO=1", "make"]`,
		`["echo", "a b"]`, `["echo", "it's"]`, `["echo", "it's \"x\""]`, `["echo", "$HOME"]`, `["ls", "*"]`,
		`["ls", "~"]`, `["ls", "#x"]`, `["ｌｓ"]`, `["ls", "a\tb"]`, `["ls", ""]`, `[["a", "b", "c", "d"], ["a", "b", "c", "d"], ["a", "b", "c", "d"], ["a", "b", "c", "d"], ["a", "b", "c", "d"]]`,
		`["git", ["status", "log"]]`, `[["git", "sudo"], "x"]`, `["x", "it's \"q\""]`, `["it's \"q\"", "x"]`,
	}
	var src strings.Builder
	for _, p := range patterns {
		for _, d := range []string{"allow", "prompt", "forbidden"} {
			fmt.Fprintf(&src, "prefix_rule(pattern = %s, decision = %q)\n", p, d)
		}
	}
	src.WriteString(`prefix_rule(pattern = ["gh", "pr", "view"], match = [["gh", "pr", "view", "1"], "gh pr view 'a b'"], not_match = ["gh pr list"])` + "\n")
	src.WriteString(`prefix_rule(pattern = ["git", "push"], decision = "forbidden", match = ["git push origin"], not_match = ["git -C r push"])` + "\n")
	for _, policy := range []string{"untrusted", "on-request", "on-failure", "never"} {
		res, err := Import([]importer.File{{Name: "r.rules", Data: []byte(src.String())}}, Options{ApprovalPolicy: policy})
		require.NoError(t, err, policy)
		importertest.RequireValid(t, policy, res.Overlay)
	}
}

// The worked example of docs/import.md decides as the page says.
func TestCodexWorkedExample(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "inputs", "import", "codex", "default.rules"))
	require.NoError(t, err)
	res, err := Import([]importer.File{{Name: "default.rules", Data: data}}, Options{})
	require.NoError(t, err)
	ctx := context.Background()
	e, err := engine.New(ctx, engine.WithConfig(engine.Config(res.Overlay)))
	require.NoError(t, err)
	rows := []struct {
		command []any
		want    string
	}{
		{[]any{"git", "status", "-s"}, "allow"},
		{[]any{"bash", "-lc", "git status && git diff"}, "allow"},
		{[]any{"gh", "pr", "view", "7888"}, "ask"},
		{[]any{"git", "push", "--force"}, "deny"},
		{[]any{"bash", "-c", "rm", "x"}, "deny"},
		{[]any{"bash", "-c", "rm -rf /"}, "ask"},
		{[]any{"cargo", "build"}, "ask"},
	}
	calls := []any{}
	for i, r := range rows {
		calls = append(calls, map[string]any{"id": fmt.Sprint(i), "name": "shell", "args": map[string]any{"command": r.command}})
	}
	d, err := e.Decide(ctx, map[string]any{"declared": []any{map[string]any{"name": "shell"}}, "calls": calls})
	require.NoError(t, err)
	require.Empty(t, d.Errors)
	for i, r := range rows {
		require.Equal(t, r.want, string(d.Decisions[i].Outcome), "%v: %s", r.command, d.Decisions[i].Message)
	}
}
