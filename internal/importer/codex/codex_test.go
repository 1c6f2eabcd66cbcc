package codex

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/importertest"
)

func codexImport(t *testing.T, rules, policy string) importer.Result {
	t.Helper()
	res, err := Import([]importer.File{{Name: "r.rules", Data: []byte(rules)}}, Options{ApprovalPolicy: policy})
	require.NoError(t, err, rules)
	return res
}

// the command entries of list for one shell tool (shell), as JSON
func shellEntries(t *testing.T, res importer.Result, list string) string {
	t.Helper()
	var out []any
	entries, _ := res.Overlay["tools"].(map[string]any)[list].([]any)
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok && m["tool"] == "shell" && m["args"] == nil {
			out = append(out, e)
		} else if e == "shell" {
			out = append(out, e)
		}
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}

// Each prefix_rule becomes the entries docs/import.md gives; what cannot
// be written exactly is dropped from an allow list and widened in a deny
// or ask list, with a note.
func TestCodexRules(t *testing.T) {
	for _, tc := range []struct {
		rule, list, want string
		noted            bool
	}{
		{`prefix_rule(pattern = ["git", "status"])`, "allow", `[{"command_prefix":"git status","tool":"shell"}]`, false},
		{`prefix_rule(pattern = ["git", "push"], decision = "prompt")`, "ask", `[{"command_prefix":"git push","tool":"shell"}]`, false},
		{`prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "no")`, "deny", `[{"command_prefix":"rm","tool":"shell"}]`, false},
		{`prefix_rule(pattern = ["npm", ["i", "install"]])`, "allow", `[{"command_prefix":"npm i","tool":"shell"},{"command_prefix":"npm install","tool":"shell"}]`, false},
		{`prefix_rule(pattern = [["python", "python3"], "-V"], decision = "forbidden")`, "deny", `[{"command_prefix":"python -V","tool":"shell"},{"command_prefix":"python3 -V","tool":"shell"}]`, false},
		{`prefix_rule(pattern = ["git", ["status"]])`, "allow", `[{"command_prefix":"git status","tool":"shell"}]`, false},
		// tokens a shell would read otherwise are quoted
		{`prefix_rule(pattern = ["echo", "a b", "$HOME"])`, "allow", `[{"command_prefix":"echo 'a b' '$HOME'","tool":"shell"}]`, false},
		{`prefix_rule(pattern = ["echo", "it's"])`, "allow", `[{"command_prefix":"echo \"it's\"","tool":"shell"}]`, false},
		{`prefix_rule(pattern = ["FOO=1", "make"])`, "allow", `[{"command_prefix":"'FOO=1' make","tool":"shell"}]`, false},
		// a token of both quotes: dropped, or widened to the tokens before it
		{`prefix_rule(pattern = ["echo", "it's \"x\""])`, "allow", `null`, true},
		{`prefix_rule(pattern = ["echo", "it's \"x\""], decision = "forbidden")`, "deny", `[{"command_prefix":"echo","tool":"shell"}]`, true},
		{`prefix_rule(pattern = ["it's \"x\"", "y"], decision = "prompt")`, "ask", `["shell"]`, true},
		// a wrapper never starts an allow rule
		{`prefix_rule(pattern = ["sudo", "apt"])`, "allow", `null`, true},
		{`prefix_rule(pattern = ["sudo", "apt"], decision = "forbidden")`, "deny", `[{"command_prefix":"sudo apt","tool":"shell"}]`, false},
		// examples come along when the rule is one prefix
		{`prefix_rule(pattern = ["gh", "pr", "view"], match = ["gh pr view 1", ["gh", "pr", "view"]], not_match = ["gh pr list"])`, "allow",
			`[{"command_prefix":"gh pr view","match":[["gh","pr","view","1"],["gh","pr","view"]],"not_match":[["gh","pr","list"]],"tool":"shell"}]`, false},
		{`prefix_rule(pattern = ["git", "push"], decision = "forbidden", match = ["git push"], not_match = ["git -C r push"])`, "deny",
			`[{"command_prefix":"git push","match":[["git","push"]],"tool":"shell"}]`, false},
		{`prefix_rule(pattern = ["git", ["a", "b"]], match = ["git a"])`, "allow", `[{"command_prefix":"git a","tool":"shell"},{"command_prefix":"git b","tool":"shell"}]`, false},
		// examples tooleval would read otherwise than Codex checks them are left out
		{`prefix_rule(pattern = [["git", "sudo"], "status"], match = ["sudo status"])`, "allow", `[{"command_prefix":"git status","tool":"shell"}]`, true},
		{`prefix_rule(pattern = ["bash", "-c", "rm"], decision = "forbidden", match = [["bash", "-c", "rm"], ["bash", "-c", "rm", "x"]])`, "deny",
			`[{"command_prefix":"bash -c rm","match":[["bash","-c","rm","x"]],"tool":"shell"}]`, false},
		{`prefix_rule(pattern = ["git"], match = ["git ''", "git 'a\\b'"])`, "allow", `[{"command_prefix":"git","tool":"shell"}]`, false},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			res := codexImport(t, tc.rule, "untrusted")
			assert.JSONEq(t, tc.want, shellEntries(t, res, tc.list))
			noted := false
			for _, n := range res.Notes {
				if strings.HasPrefix(n.Location, "r.rules:1") {
					noted = true
				}
			}
			assert.Equal(t, tc.noted, noted, "%v", res.Notes)
		})
	}
}

// More than 256 combinations: an allow is dropped, a deny widened to
// each program.
func TestCodexExpansionIsBounded(t *testing.T) {
	alts := `["a", "b", "c", "d", "e", "f", "g", "h"]`
	rule := `prefix_rule(pattern = [["x", "y"], ` + alts + `, ` + alts + `, ` + alts + `], decision = "%s")`
	res := codexImport(t, strings.ReplaceAll(rule, "%s", "allow"), "untrusted")
	assert.Equal(t, "null", shellEntries(t, res, "allow"))
	res = codexImport(t, strings.ReplaceAll(rule, "%s", "forbidden"), "untrusted")
	assert.JSONEq(t, `[{"command_prefix":"x","tool":"shell"},{"command_prefix":"y","tool":"shell"}]`, shellEntries(t, res, "deny"))
}

// The approval policy decides what an unmatched command does.
func TestCodexApprovalPolicies(t *testing.T) {
	rules := `prefix_rule(pattern = ["ls"])
prefix_rule(pattern = ["gh"], decision = "prompt")`
	tools := func(res importer.Result) map[string]any { return res.Overlay["tools"].(map[string]any) }

	untrusted := tools(codexImport(t, rules, ""))
	assert.Equal(t, "ask", untrusted["otherwise"])
	assert.Contains(t, untrusted["allow"], "update_plan")
	assert.Contains(t, untrusted["allow"], map[string]any{"tool": "shell", "command_prefix": "ls"})
	assert.NotContains(t, untrusted["allow"], "apply_patch")
	assert.Contains(t, untrusted["ask"], map[string]any{"tool": "shell", "command_prefix": "gh"})

	onRequest := tools(codexImport(t, rules, "on-request"))
	assert.Nil(t, onRequest["allow"])
	assert.Nil(t, onRequest["otherwise"])
	assert.Contains(t, onRequest["ask"], map[string]any{"tool": "shell", "command_prefix": "rm"})
	assert.Contains(t, onRequest["ask"], map[string]any{"tool": "shell", "command_prefix": "gh"})
	escalation := map[string]any{"tool": "shell", "args": map[string]any{"sandbox_permissions": "require_escalated"}}
	assert.Contains(t, onRequest["ask"], escalation, "on-request asks about leaving the sandbox")
	assert.Contains(t, untrusted["deny"], escalation, "every other policy refuses it")

	onFailure := tools(codexImport(t, rules, "on-failure"))
	assert.Nil(t, onFailure["allow"])
	assert.Contains(t, onFailure["ask"], map[string]any{"tool": "shell", "command_prefix": "sudo"})
	assert.Contains(t, onFailure["deny"], escalation)

	never := tools(codexImport(t, rules, "never"))
	assert.Nil(t, never["allow"])
	assert.Empty(t, never["ask"])
	assert.Contains(t, never["deny"], map[string]any{"tool": "shell", "command_prefix": "gh"})
	assert.Contains(t, never["deny"], map[string]any{"tool": "shell", "command_prefix": "rm"})
	assert.Contains(t, never["deny"], escalation)

	_, err := Import(nil, Options{ApprovalPolicy: "sometimes"})
	assert.ErrorContains(t, err, "untrusted, on-request, on-failure and never")
}

// A file Codex would refuse to load is not valid rules, with where.
func TestCodexInvalidRules(t *testing.T) {
	for _, tc := range []struct{ rules, want string }{
		{`prefix_rule(pattern = [])`, "pattern cannot be empty"},
		{`prefix_rule(pattern = ["a", []])`, "pattern alternatives cannot be empty"},
		{`prefix_rule(pattern = ["a", 1])`, "pattern element must be a string or list of strings"},
		{`prefix_rule(pattern = ["a"], decision = "deny")`, `decision must be "allow", "prompt" or "forbidden"`},
		{`prefix_rule(pattern = ["a"], justification = "  ")`, "justification cannot be empty"},
		{`prefix_rule(pattern = ["a"], match = ["b"])`, `match example ["b"] does not match the rule`},
		{`prefix_rule(pattern = ["a"], not_match = ["a x"])`, `not_match example ["a" "x"] matches the rule`},
		{`prefix_rule(pattern = ["a"], match = ["a 'x"])`, "example string has invalid shell syntax"},
		{`prefix_rule(pattern = ["a"], match = [""])`, "an example cannot be empty"},
		{`prefix_rule(pattern = ["a"], colour = "red")`, "unexpected keyword argument"},
		{`prefix_rule(`, "r.rules:1"},
		{`undefined_builtin()`, "undefined: undefined_builtin"},
		{`while True: pass`, "too many steps"},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			_, err := Import([]importer.File{{Name: "r.rules", Data: []byte(tc.rules)}}, Options{})
			require.ErrorIs(t, err, importer.ErrInvalid)
			assert.ErrorContains(t, err, "r.rules")
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

// Builtins that govern what tooleval does not decide are noted, not
// carried; Starlark's own constructs work.
func TestCodexStarlark(t *testing.T) {
	res := codexImport(t, `
SHELLS = ["bash", "zsh"]
def forbid(program):
    prefix_rule(pattern = [program], decision = "forbidden")
for s in SHELLS:
    forbid(s)
host_executable(name = "git", paths = ["/usr/bin/git"])
network_rule(host = "example.com", protocol = "https", decision = "allow")
`, "untrusted")
	assert.JSONEq(t, `[{"command_prefix":"bash","tool":"shell"},{"command_prefix":"zsh","tool":"shell"}]`, shellEntries(t, res, "deny"))
	var located []string
	for _, n := range res.Notes {
		located = append(located, n.Location)
	}
	assert.Contains(t, located, "r.rules:7")
	assert.Contains(t, located, "r.rules:8")
}

// Codex refuses a rules file that calls network_rule or host_executable
// with an argument they do not take, or a protocol or decision
// network_rule does not know (#[starlark_module] functions of fixed
// parameters in codex-rs/execpolicy/src/parser.rs): so does the import.
func TestCodexRefusesWhatCodexRefuses(t *testing.T) {
	t.Parallel()
	for _, rules := range []string{
		`network_rule(host = "api.github.com", protocl = "https", decision = "allow")`,
		`network_rule(host = "api.github.com", protocol = "https")`,
		`network_rule(host = "api.github.com", protocol = "gopher", decision = "allow")`,
		`network_rule(host = "api.github.com", protocol = "https", decision = "permit")`,
		`network_rule(host = "api.github.com", protocol = "https", decision = "allow", justification = " ")`,
		`host_executable(nme = "git", paths = ["/usr/bin/git"])`,
		`host_executable(name = "bin/git", paths = ["/usr/bin/git"])`,
		`host_executable(name = "git", paths = [1])`,
	} {
		t.Run(rules, func(t *testing.T) {
			_, err := Import([]importer.File{{Name: "r.rules", Data: []byte("prefix_rule(pattern = [\"git\"])\n" + rules)}}, Options{})
			require.Error(t, err)
			assert.True(t, errors.Is(err, importer.ErrInvalid), "%v", err)
			assert.Contains(t, err.Error(), "r.rules:2")
		})
	}
}

// An unknown keyword of prefix_rule and a function Codex does not have
// are Starlark errors in Codex and here alike (pinned: they were refused
// before network_rule's and host_executable's arguments were checked).
func TestCodexRefusesUnknownCalls(t *testing.T) {
	t.Parallel()
	for rules, says := range map[string]string{
		`prefix_rule(pattern = ["git"], decison = "forbidden")`: `unexpected keyword argument "decison" (did you mean decision?)`,
		`prefx_rule(pattern = ["git"])`:                         "undefined: prefx_rule",
	} {
		_, err := Import([]importer.File{{Name: "r.rules", Data: []byte(rules)}}, Options{})
		require.ErrorIs(t, err, importer.ErrInvalid)
		assert.Contains(t, err.Error(), says)
	}
}

// A rules file with no prefix_rule says so.
func TestCodexNoRules(t *testing.T) {
	t.Parallel()
	for _, rules := range []string{"# none yet\n", `network_rule(host = "api.github.com", protocol = "https", decision = "allow")`} {
		res := codexImport(t, rules, "untrusted")
		importertest.RequireNoted(t, res.Notes, []importertest.Noted{{"r.rules", "no prefix_rule calls"}}, nil)
	}
	res := codexImport(t, `prefix_rule(pattern = ["git"])`, "untrusted")
	importertest.RequireNoted(t, res.Notes, nil, []string{"r.rules"})
}

// Codex rules name commands, never a tool: no overlay names an MCP
// server, so none declares one (config.mcp_servers is absent).
func TestCodexDeclaresNoMCPServers(t *testing.T) {
	t.Parallel()
	for _, policy := range []string{"untrusted", "on-request", "on-failure", "never"} {
		res := codexImport(t, `prefix_rule(pattern = ["mcp__github__get_issue"], decision = "forbidden")`+"\n"+
			`prefix_rule(pattern = ["git", "status"])`, policy)
		importertest.RequireServersDeclared(t, res.Overlay)
	}
}
