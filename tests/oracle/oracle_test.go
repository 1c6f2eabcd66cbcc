package oracle

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func config(t *testing.T) Config {
	t.Helper()
	cfg, err := LoadConfig("../../policies")
	require.NoError(t, err)
	return cfg
}

func decide(t *testing.T, doc string) Result {
	t.Helper()
	var x any
	require.NoError(t, json.Unmarshal([]byte(doc), &x))
	return Decide(config(t), x)
}

// The decision example of the contract.
func TestSpecDecisionExample(t *testing.T) {
	r := decide(t, `{
		"agent": {"name": "concierge", "role": "main", "depth": 0},
		"declared": [{"name": "read_file"}, {"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
		             {"name": "researcher", "agent": true}, {"name": "Refund"}],
		"layers": [{"name": "agent", "allow": ["read_file", "mcp__github__*", "refund"], "deny": []},
		           {"name": "tenant", "allow": ["read_file", "mcp__github__*"]}, {"name": "caller", "allow": null}],
		"calls": [{"id": "call_1", "name": "read_file", "args": {"path": "/ws/README.md"}}, {"id": "call_2", "name": "Refund"}],
		"workspace": {"root": "/ws", "read_roots": ["/skills"], "excluded": [".git", "target"], "allow_outside": false},
		"run": {"attempts": 0, "refusals": 0, "max_attempts": 200, "max_refusals": 20}
	}`)
	require.False(t, r.HasErrors)
	require.Equal(t, []Verdict{
		{ID: "call_1", Name: "read_file", Allowed: true, Outcome: "allow"},
		{ID: "call_2", Name: "Refund", Outcome: "deny", Reason: "not_allowed", Layer: "tenant"},
	}, r.Verdicts)
	require.Equal(t, []string{"mcp__github__read_issue", "read_file"}, r.Effective)
	require.Equal(t, &Run{Attempts: 2, Refusals: 1}, r.Run)
}

// The canonical-name examples of the contract.
func TestSpecCanonicalExamples(t *testing.T) {
	for in, want := range map[string]string{
		"Search": "search", "ＳＥＡＲＣＨ": "search", " search ": "search", "se\u200Barch": "search",
		"straße": "strasse", "STRASSE": "strasse", "\u212Aelvin": "kelvin",
	} {
		got, ok := Canonical(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	_, ok := Canonical("e\u0301")
	require.False(t, ok, "a name that NFC would still compose has no exact form")
}

// Every rejection of the pattern grammar in the contract.
func TestSpecGrammarRejections(t *testing.T) {
	groups := map[string][]string{"edit": {"write_file"}}
	for _, entry := range []any{"", " read_file", "*", "read*file", "mcp____*", "mcp____x*", "group:nope", 3, nil} {
		_, ok := parseEntry(entry, true, groups, false)
		require.False(t, ok, "%v", entry)
	}
	_, ok := parseEntry("read_*", true, groups, false)
	require.False(t, ok, "a wildcard on a built-in is rejected in an allow list")
	_, ok = parseEntry("read_*", false, groups, false)
	require.True(t, ok, "and accepted in a deny list")
	entries, ok := parseEntry("group:edit", true, groups, false)
	require.True(t, ok)
	require.Equal(t, []entry{{kind: "exact", name: "write_file"}}, entries)
}

func TestSpecExclusionsAndPaths(t *testing.T) {
	r := decide(t, `{"agent": {"role": "fork", "depth": 5},
		"declared": [{"name": "gateway"}, {"name": "sessions_list"}, {"name": "agent"}, {"name": "write_file"}],
		"workspace": {"root": "/ws", "excluded": ["target"]},
		"calls": [{"id": "1", "name": "gateway"}, {"id": "2", "name": "sessions_list"}, {"id": "3", "name": "agent"},
		          {"id": "4", "name": "write_file", "args": {"path": "/wsx/a"}}, {"id": "5", "name": "write_file", "args": {"path": "/ws/.git/hooks/x"}},
		          {"id": "6", "name": "write_file", "args": {"path": "/ws/target/x"}}, {"id": "7", "name": "write_file", "args": {"path": "ws/a"}},
		          {"id": "8", "name": "write_file", "args": {"path": "/ws/.gitignore"}}]}`)
	var got [][2]string
	for _, v := range r.Verdicts {
		got = append(got, [2]string{v.Layer, v.Rule})
	}
	require.Equal(t, [][2]string{
		{"subagent_hard_deny", ""}, {"subagent_depth_cap", ""}, {"subagent_depth_cap", ""},
		{"workspace", "outside_workspace"}, {"workspace", "sensitive"}, {"workspace", "excluded"}, {"workspace", "unresolved"}, {"", ""},
	}, got)
	// Below the cap, a fork still cannot spawn.
	r = decide(t, `{"agent": {"role": "fork", "depth": 1}, "declared": [{"name": "agent"}], "calls": [{"id": "1", "name": "agent"}]}`)
	require.Equal(t, "fork_no_spawn", r.Verdicts[0].Layer)
}

func TestSpecBudget(t *testing.T) {
	r := decide(t, `{"declared": [{"name": "a"}], "calls": [{"id": "1", "name": "a"}, {"id": "2", "name": "a"}],
		"run": {"attempts": 199, "refusals": 0, "max_attempts": 200}}`)
	require.True(t, r.Verdicts[0].Allowed)
	require.Equal(t, "run_exhausted", r.Verdicts[1].Reason)
	require.Equal(t, &Run{Attempts: 201, Refusals: 1, Exhausted: true}, r.Run)
}
