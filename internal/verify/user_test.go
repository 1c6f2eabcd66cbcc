package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An invariant reads only what its input and data have: a member the
// input's schema does not have, or a document under data that no rule or
// data file of the invariants defines, is an error (ErrInvariants, with
// its location), never a rule that quietly never fires.
func TestUserInvariantsReadOnlyWhatExists(t *testing.T) {
	load := func(t *testing.T, src string) error {
		t.Helper()
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "data.json"), []byte(`{"lists": {"writes": ["edit"]}}`), 0o600))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "x.rego"), []byte("package tooleval.invariants\n\n"+src+"\n"), 0o600))
		_, err := LoadInvariants(context.Background(), dir)
		return err
	}
	wrong := []struct{ name, body string }{
		{"a member input does not have", `violation contains {"id": "x", "message": "m"} if { some t in input.tolls; t.outcome == "allow" }`},
		{"a member of the subject's agent", `violation contains {"id": "x", "message": "m"} if input.subject.agent.nmae == "explore"`},
		{"a member of a tool", `violation contains {"id": "x", "message": "m"} if { some t in input.tools; t.outcom == "allow" }`},
		{"a member of a call", `violation contains {"id": "x", "message": "m"} if { some c in input.calls; c.trace }`},
		{"a member of the caller", `violation contains {"id": "x", "message": "m"} if { "repo" in input.subject.caller.scope }`},
		{"a member of the subject", `violation contains {"id": "x", "message": "m"} if input.subject.user == "alice"`},
		{"the policy's data, which is not there", `violation contains {"id": "x", "message": "m"} if { some name, _ in data.tooleval.config.agents; name == "explore" }`},
		{"a rule of the package that does not exist", `violation contains {"id": "x", "message": "m"} if { some t in input.tools; t.name in data.tooleval.invariants.writes }`},
		{"a data document that does not exist", `violation contains {"id": "x", "message": "m"} if { some t in input.tools; t.name in data.lists.reads }`},
	}
	for _, c := range wrong {
		t.Run(c.name, func(t *testing.T) {
			err := load(t, c.body)
			require.ErrorIs(t, err, ErrInvariants)
			problems := InvariantProblems(err)
			require.NotEmpty(t, problems)
			assert.Equal(t, "invalid_invariants", problems[0].Code())
			assert.Equal(t, 3, problems[0]["row"], "located at the reference")
		})
	}
	right := []struct{ name, body string }{
		{"every member the input has", `violation contains {"id": "x", "message": sprintf("%v", [[a.name, a.role, a.depth, a.leaf, a.async, a.teammate, a.coordinator, a.read_only, input.subject.tenant, input.subject.caller.scopes, input.subject.caller.user, t.name, t.outcome, t.reason, t.layer, c.id, c.name, c.allowed, c.outcome, c.reason, c.layer, c.message, c.rule, c.argument, e.code, e.message, e.field]])} if { a := input.subject.agent; some t in input.tools; some c in input.calls; some e in input.errors }`},
		{"a data document of the invariants", `violation contains {"id": "x", "message": "m"} if { some t in input.tools; t.name in data.lists.writes }`},
		{"a rule of the package", "writes := {\"edit\"}\n\nviolation contains {\"id\": \"x\", \"message\": \"m\"} if { some t in input.tools; t.name in data.tooleval.invariants.writes }"},
	}
	for _, c := range right {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, load(t, c.body))
		})
	}
}

// The input's schema describes the input verify sends: on subjects with
// a tenant, a caller's user and agent modes, a call refused by an
// argument rule and requests with errors, every input matches it
// (json.match_schema, in an invariant of one's own reading the schema
// as data), and the members the schema is precise about are there.
func TestInvariantInputMatchesItsSchema(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "data.json"), []byte(`{"schema": `+string(inputSchema)+`}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.rego"), []byte(`package tooleval.invariants

invariants := {"input.matches": "every input matches its schema"}

violation contains {"id": "input.matches", "message": sprintf("%v", [errs])} if {
	[ok, errs] := json.match_schema(input, data.schema)
	not ok
}

violation contains {"id": "seen.subject", "message": "a subject with a tenant, a user and a mode"} if {
	input.subject.tenant == "acme"
	input.subject.caller.user == "alice"
	input.subject.agent.read_only
}

violation contains {"id": "seen.call", "message": "a call refused by an argument rule"} if {
	some c in input.calls
	c.argument == "command"
	is_string(c.message)
}

violation contains {"id": "seen.error", "message": "a request with an error"} if {
	some e in input.errors
	e.field == "workspace"
}
`), 0o600))
	inv, err := LoadInvariants(context.Background(), dir)
	require.NoError(t, err)
	tools := Tools{
		Declared: []any{map[string]any{"name": "bash"}},
		Calls:    []any{map[string]any{"id": "rm", "name": "bash", "args": map[string]any{"command": "rm -rf /"}}},
	}
	overlay := `{
		"max_depth": 1,
		"tenants": {"acme": {"tools": null}},
		"mcp_user_services": {"alice": ["github"]},
		"tools": {"deny": [{"tool": "bash", "command_prefix": "rm"}]}
	}`
	r := run(t, overlay, Options{Invariants: inv, Tools: tools})
	assert.ElementsMatch(t, []string{"seen.subject", "seen.call"}, r.Violated(), "%+v", result(t, r, "input.matches").Counterexample)
	tools.Request = map[string]any{"workspace": 5}
	r = run(t, `{"max_depth": 1}`, Options{Invariants: inv, Tools: tools})
	assert.ElementsMatch(t, []string{ConfigNoLatentErr, "seen.error"}, r.Violated(), "%+v", result(t, r, "input.matches").Counterexample)
}
