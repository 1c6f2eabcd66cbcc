package matrix

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// embedded is one engine on the embedded bundle for every test.
var embedded = sync.OnceValues(func() (*engine.Engine, error) { return engine.New(context.Background()) })

func build(t *testing.T, input string) *Matrix {
	t.Helper()
	e, err := embedded()
	require.NoError(t, err)
	m, err := Build(context.Background(), e, ast.MustParseTerm(input).Value)
	require.NoError(t, err)
	return m
}

// column returns the index of the check titled title.
func column(t *testing.T, m *Matrix, title string) int {
	t.Helper()
	i := slices.Index(m.Checks, title)
	require.GreaterOrEqual(t, i, 0, "no column %q in %v", title, m.Checks)
	return i
}

// TestProbeCallsEachDeclaredToolOnce: the calls and run of the input are
// replaced by one call of each declared tool, in order; a declaration
// without a name is probed with a null name.
func TestProbeCallsEachDeclaredToolOnce(t *testing.T) {
	in := ast.MustParseTerm(`{"declared": [{"name": "a"}, 7, {"name": "b"}], "layers": [], "calls": [{"id": "x", "name": "z"}], "run": {"attempts": 3}}`).Value
	request, names := probe(in)
	require.Equal(t, []any{"a", nil, "b"}, names)
	require.Nil(t, request.Get(ast.StringTerm("run")))
	require.NotNil(t, request.Get(ast.StringTerm("layers")))
	require.Equal(t, ast.MustParseTerm(`[{"id": "t0", "name": "a"}, {"id": "t1", "name": null}, {"id": "t2", "name": "b"}]`).String(),
		request.Get(ast.StringTerm("calls")).String())

	request, names = probe(ast.MustParseTerm(`"not an object"`).Value)
	require.Empty(t, names)
	require.Equal(t, `{"calls": []}`, request.String())
}

// TestBuildLaysOutEachToolsChecks: one row per declared tool in
// declaration order, one cell per check, the cell that refused a tool
// refused with the entry that matched, and a tool allowed only when no
// cell refused it.
func TestBuildLaysOutEachToolsChecks(t *testing.T) {
	m := build(t, `{"agent": {"role": "subagent", "depth": 1},
		"declared": [{"name": "read_file"}, {"name": "gateway"}, {"name": "write_file"}],
		"layers": [{"name": "agent", "allow": ["read_file", "gateway"]}],
		"calls": [{"id": "x", "name": "not_declared"}]}`)
	require.Empty(t, m.Errors)
	require.Equal(t, []any{"read_file", "gateway", "write_file"}, []any{m.Rows[0].Tool, m.Rows[1].Tool, m.Rows[2].Tool})
	require.Len(t, m.Rows, 3, "the input's own calls are not rows")

	hardDeny := column(t, m, "exclusion subagent_hard_deny")
	agentAllow := column(t, m, "layer agent allow")
	require.Less(t, column(t, m, "layer agent deny"), agentAllow, "deny lists come before allow lists")
	for _, row := range m.Rows {
		require.Len(t, row.Cells, len(m.Checks))
		require.Len(t, row.Entries, len(m.Checks))
		require.Equal(t, !slices.Contains(row.Cells, Refused), row.Allowed, "%v", row.Tool)
	}

	readFile, gateway, writeFile := m.Rows[0], m.Rows[1], m.Rows[2]
	require.True(t, readFile.Allowed)
	require.Equal(t, Pass, readFile.Cells[agentAllow])
	require.Equal(t, "read_file", readFile.Entries[agentAllow])

	require.False(t, gateway.Allowed)
	require.Equal(t, Refused, gateway.Cells[hardDeny], "a sub-agent never gets gateway")
	require.Equal(t, "gateway", gateway.Entries[hardDeny])
	require.Equal(t, Pass, gateway.Cells[agentAllow], "every check is shown, also after the first refusal")

	require.False(t, writeFile.Allowed)
	require.Equal(t, Pass, writeFile.Cells[hardDeny])
	require.Equal(t, Refused, writeFile.Cells[agentAllow])
	require.Empty(t, writeFile.Entries[agentAllow], "no entry matched")
}

// TestBuildWithErrorsRefusesEveryTool: a request with errors (two
// declared tools with one canonical name) refuses every row.
func TestBuildWithErrorsRefusesEveryTool(t *testing.T) {
	m := build(t, `{"declared": [{"name": "search"}, {"name": "SEARCH"}]}`)
	require.NotEmpty(t, m.Errors)
	require.Len(t, m.Rows, 2)
	for _, row := range m.Rows {
		require.False(t, row.Allowed, "%v", row.Tool)
	}
}

// TestBuildWithoutDeclaredTools has no rows and no columns.
func TestBuildWithoutDeclaredTools(t *testing.T) {
	m := build(t, `{}`)
	require.Empty(t, m.Rows)
	require.Equal(t, []string{}, m.Checks)
}

// TestBuildKnowsAsksAndArgumentRules: a tool a layer asks for by name is
// an ask row with an ask cell; a tool whose calls argument rules decide is
// a conditional row, allowed as the catalog says, with those rules, whatever
// a call without arguments would get.
func TestBuildKnowsAsksAndArgumentRules(t *testing.T) {
	input := `{"declared": [{"name": "read_file"}, {"name": "write_file"}, {"name": "run_shell_command"}],
		"layers": [{"name": "team", "allow": ["read_file", "write_file", {"tool": "run_shell_command", "command_prefix": "ls"}],
		            "ask": ["write_file"]}]}`
	m := build(t, input)
	require.Empty(t, m.Errors)
	ask := column(t, m, "layer team ask")
	readFile, writeFile, shell := m.Rows[0], m.Rows[1], m.Rows[2]
	require.Equal(t, engine.OutcomeAllow, readFile.Outcome)
	require.Empty(t, readFile.Rules)
	require.Equal(t, engine.OutcomeAsk, writeFile.Outcome)
	require.Equal(t, Ask, writeFile.Cells[ask])
	require.Equal(t, engine.OutcomeConditional, shell.Outcome)
	require.True(t, shell.Allowed)
	require.Equal(t, []engine.RuleInForce{{
		Layer: "team", List: "allow", Source: "layers[0].allow[2]", Reads: "command",
		Rule: engine.ArgumentRule{"tool": "run_shell_command", "command_prefix": "ls"},
	}}, shell.Rules)
	require.NotContains(t, shell.Cells, Refused, "its name passes every name-level check")

	// one answer: each row's verdict is the tools document's
	e, err := embedded()
	require.NoError(t, err)
	c, err := e.Tools(context.Background(), ast.MustParseTerm(input).Value)
	require.NoError(t, err)
	for i, tool := range c.Tools {
		require.Equal(t, tool.Outcome, m.Rows[i].Outcome, "%v", tool.Name)
		require.Equal(t, tool.Allowed, m.Rows[i].Allowed, "%v", tool.Name)
	}
}

// TestEntriesAreWrittenAsJSON: an argument rule that decided a cell is
// named by the JSON it is written in, never by Go's map syntax.
func TestEntriesAreWrittenAsJSON(t *testing.T) {
	m := build(t, `{"declared": [{"name": "run_shell_command"}, {"name": "read_file"}],
		"layers": [{"name": "team", "allow": ["read_file", {"tool": "run_shell_command", "command_prefix": "rm"}]}]}`)
	var entries []string
	for _, row := range m.Rows {
		entries = append(entries, row.Entries...)
	}
	require.Contains(t, entries, `{"command_prefix":"rm","tool":"run_shell_command"}`)
	require.Contains(t, entries, "read_file")
	for _, e := range entries {
		require.NotContains(t, e, "map[")
	}
}
