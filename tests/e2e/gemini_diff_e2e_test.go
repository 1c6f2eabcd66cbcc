//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/gemini"
)

// geminiRulePool is what generated user policies draw from: the rule forms
// of Gemini CLI's policy reference (docs/reference/policy-engine.md).
var geminiRulePool = []string{
	`toolName = "run_shell_command"
commandPrefix = "git status"
decision = "allow"`,
	`toolName = "run_shell_command"
commandPrefix = ["ls", "cat"]
decision = "allow"`,
	`toolName = "run_shell_command"
commandPrefix = "rm"
decision = "deny"`,
	`toolName = "run_shell_command"
commandPrefix = "git push"
decision = "ask_user"`,
	`toolName = "run_shell_command"
decision = "allow"`,
	`toolName = "write_file"
decision = "allow"`,
	`toolName = "replace"
decision = "allow"`,
	`toolName = "read_file"
argsPattern = '\.env'
decision = "deny"`,
	`toolName = "web_fetch"
decision = "deny"`,
	`toolName = ["write_file", "replace"]
argsPattern = '"file_path":"[^"]*/docs/'
decision = "deny"`,
	`toolName = "run_shell_command"
commandRegex = "git (log|diff).*"
decision = "allow"`,
	`toolName = "*"
decision = "allow"
modes = ["autoEdit"]`,
}

// geminiUnknownKeyPolicies are user policies with a key or table Gemini
// CLI does not read.
var geminiUnknownKeyPolicies = []string{
	`[[rule]]
toolName = "run_shell_command"
commandPrefx = "git"
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm"
decision = "deny"
priority = 200
`,
	`[[rule]]
toolName = "write_file"
decision = "allow"
priority = 100

[[rules]]
toolName = "read_file"
decision = "deny"
priority = 300
`,
}

// geminiCalls are the calls every case decides, in a workspace at root.
func geminiCalls(root string) []GeminiCall {
	p := func(rel string) string { return filepath.Join(root, rel) }
	sh := func(cmd string) GeminiCall {
		return GeminiCall{Name: "run_shell_command", Args: map[string]any{"command": cmd}}
	}
	file := func(tool, rel string, extra ...string) GeminiCall {
		args := map[string]any{"file_path": p(rel)}
		for i := 0; i+1 < len(extra); i += 2 {
			args[extra[i]] = extra[i+1]
		}
		return GeminiCall{Name: tool, Args: args}
	}
	return []GeminiCall{
		sh("git status"), sh("git status && rm -rf /"), sh("ls -la"), sh("cat .env"), sh("rm -rf build"),
		sh("git push origin main"), sh("echo hi > out.txt"), sh("git log --oneline"), sh("git -c core.pager=x log"),
		sh("find . -delete"), sh("bash -c 'rm x'"), sh("npm install"), sh("ls $(whoami)"),
		file("read_file", ".env"), file("read_file", "src/a.go"), file("read_file", "sub/.env"),
		file("write_file", "src/a.go", "content", "x"), file("write_file", "docs/a.md", "content", "x"),
		file("write_file", "Makefile", "content", "x"), file("write_file", "package.json", "content", "{}"),
		file("write_file", ".gemini/settings.json", "content", "{}"), file("write_file", ".git/config", "content", "x"),
		file("replace", "src/a.go", "old_string", "a", "new_string", "b"), file("replace", "docs/a.md", "old_string", "a", "new_string", "b"),
		{Name: "web_fetch", Args: map[string]any{"prompt": "https://example.com"}},
		{Name: "glob", Args: map[string]any{"pattern": "**/*.go"}},
		{Name: "list_directory", Args: map[string]any{"dir_path": root}},
	}
}

// geminiTools are the tools the tooleval request declares.
var geminiTools = []string{"run_shell_command", "read_file", "write_file", "replace", "web_fetch", "glob", "list_directory"}

// Never looser than Gemini CLI: generated user policies, in each approval
// mode, interactive and headless, decided by Gemini CLI's own policy
// engine (its TOML loader, its default policies) and by tooleval with the
// same files imported; no call tooleval allows (or asks about) that Gemini
// denies (or asks about).
func TestGeminiNeverLooser(t *testing.T) {
	t.Parallel()
	nm := nodeModules(t)
	seed := uint64(envInt("TOOLEVAL_E2E_SEED", int(time.Now().Unix())))
	t.Logf("seed %d (replay: TOOLEVAL_E2E_SEED=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 0x9e3779b9))
	root := "/ws"
	calls := geminiCalls(root)
	type policy struct {
		dir, text string
	}
	var policies []policy
	// One policy with every rule, one without any, and generated ones.
	all := []string{}
	for _, rule := range geminiRulePool {
		all = append(all, rule)
	}
	sets := [][]string{all, nil}
	for range envInt("TOOLEVAL_E2E_GEMINI_POLICIES", 2) {
		var set []string
		for _, rule := range geminiRulePool {
			if r.IntN(3) == 0 {
				set = append(set, rule)
			}
		}
		sets = append(sets, set)
	}
	for i, set := range sets {
		var b strings.Builder
		for j, rule := range set {
			fmt.Fprintf(&b, "[[rule]]\n%s\npriority = %d\n\n", rule, 100+10*((j*7+i)%9))
		}
		dir := filepath.Join(t.TempDir(), "policies")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "user.toml"), []byte(b.String()), 0o644))
		policies = append(policies, policy{dir, b.String()})
	}
	// Policies with keys Gemini CLI does not read: it drops them (a
	// misspelt commandPrefix leaves a rule for every shell command, a
	// [[rules]] table is not a rule), and so must the import, which says
	// so in a note.
	for _, text := range geminiUnknownKeyPolicies {
		dir := filepath.Join(t.TempDir(), "policies")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "user.toml"), []byte(text), 0o644))
		policies = append(policies, policy{dir, text})
		res, err := gemini.Import([]importer.File{{Name: "user.toml", Data: []byte(text)}}, gemini.Options{ApprovalMode: "default"})
		require.NoError(t, err, text)
		require.True(t, slices.ContainsFunc(res.Notes, func(n importer.Note) bool { return strings.Contains(n.Text, "Gemini CLI reads") }),
			"the import notes the key it drops: %+v", res.Notes)
	}
	var cases []GeminiCase
	type meta struct {
		policy   policy
		mode     string
		headless bool
	}
	var metas []meta
	for _, p := range policies {
		for _, mode := range []string{"default", "autoEdit", "plan", "yolo"} {
			for _, interactive := range []bool{true, false} {
				cases = append(cases, GeminiCase{PolicyDir: p.dir, ApprovalMode: mode, Interactive: interactive, Calls: calls})
				metas = append(metas, meta{p, mode, !interactive})
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	decided, err := GeminiPolicyCheck(ctx, nm, cases)
	require.NoError(t, err)
	var looser []Looser
	compared := 0
	for i, d := range decided {
		m := metas[i]
		require.Empty(t, d.Error, "Gemini loads the generated policy:\n%s", m.policy.text)
		res, err := gemini.Import([]importer.File{{Name: "user.toml", Data: []byte(m.policy.text)}},
			gemini.Options{ApprovalMode: m.mode, Headless: m.headless})
		require.NoError(t, err, m.policy.text)
		var tc []Call
		for j, c := range calls {
			tc = append(tc, Call{ID: fmt.Sprint(j), Tool: c.Name, Args: c.Args})
		}
		got, err := Decide(context.Background(), res.Overlay, geminiTools, root, tc)
		require.NoError(t, err)
		if m.policy.text == geminiUnknownKeyPolicies[0] && m.mode == "default" && !m.headless {
			// What the import's note says: Gemini dropped commandPrefx, so
			// the rule allows every shell command the deny rule does not.
			for j, c := range calls {
				switch c.Args["command"] {
				case "npm install":
					require.Equal(t, "allow", GeminiOutcome(d.Decisions[j]), "Gemini drops commandPrefx: %q", c.Args["command"])
				case "rm -rf build":
					require.Equal(t, "deny", GeminiOutcome(d.Decisions[j]), "%q", c.Args["command"])
				}
			}
		}
		for j, c := range tc {
			rt := GeminiOutcome(d.Decisions[j])
			require.NotEmpty(t, rt, "Gemini decided %q", d.Decisions[j])
			compared++
			if Strictness[got[j]] < Strictness[rt] {
				looser = append(looser, Looser{Settings: fmt.Sprintf("mode %s headless %v policy %q", m.mode, m.headless, m.policy.text), Call: c, Runtime: rt, Tooleval: got[j]})
			}
		}
	}
	t.Logf("%d cases, %d calls compared, %d looser", len(cases), compared, len(looser))
	ReportLooser(t, "Gemini CLI", looser, func(Looser) string { return root })
}
