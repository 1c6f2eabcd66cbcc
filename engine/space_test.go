package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

// The space of the shipped configuration: no tables, the floor's tools
// (a wildcard by its witness), the cap of 5, the shipped agent tool.
func TestSpaceOfTheShippedConfiguration(t *testing.T) {
	s, err := newEngine(t).Space(context.Background())
	require.NoError(t, err)
	require.Equal(t, 5, s.MaxDepth)
	require.Empty(t, s.Agents)
	// without a preset, the spawn tool of every runtime a preset describes
	require.Equal(t, []any{"agent", "invoke_agent", "sessions_spawn", "spawn_agent"}, s.SpawnTools)
	require.True(t, s.Modes["read_only"])
	names := map[any]bool{}
	for _, d := range s.Tools {
		names[d["name"]] = true
	}
	require.True(t, names["gateway"])
	require.True(t, names["conversations_verify_probe"])
	require.Contains(t, s.Exclusions["subagent_hard_deny"], "gateway")
}

// Requests that differ only where the policy reads nothing share a
// stack: sub-agents below the cap do, one at the cap does not.
func TestStacksShareWhatThePolicyDoesNotTellApart(t *testing.T) {
	var inputs []ast.Value
	for _, depth := range []string{"1", "4", "5"} {
		inputs = append(inputs, ast.MustParseTerm(`{"agent": {"role": "subagent", "depth": `+depth+`}}`).Value)
	}
	stacks, err := newEngine(t).Stacks(context.Background(), inputs)
	require.NoError(t, err)
	require.Len(t, stacks, 3)
	require.Equal(t, stacks[0], stacks[1])
	require.NotEqual(t, stacks[1], stacks[2])
}

// A bundle without verify's rules still decides; verify is refused.
func TestBundleWithoutVerifyRules(t *testing.T) {
	e := newEngine(t, WithBundle(brokenBundle(t, "package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\ndecision := {}\n\ntools := {}\n\nlaunch := {}\n")))
	_, err := e.Space(context.Background())
	require.ErrorIs(t, err, ErrNoVerify)
	_, err = e.Stacks(context.Background(), nil)
	require.ErrorIs(t, err, ErrNoVerify)
	_, err = e.Catalogs(context.Background(), nil, nil)
	require.ErrorIs(t, err, ErrNoVerify)
}

// Catalogs gives, for each request, the catalog Tools gives for it with
// the tools declared.
func TestCatalogsAreTheToolsOfEachRequest(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	declared := []any{map[string]any{"name": "read_file"}, map[string]any{"name": "gateway"}, map[string]any{"name": "agent"}}
	requests := []string{
		`{"agent": {"role": "main", "depth": 0}}`,
		`{"agent": {"role": "fork", "depth": 1}, "layers": [{"name": "l", "ask": ["read_file"]}]}`,
		`{"tenant": "nobody"}`,
	}
	var inputs []ast.Value
	for _, r := range requests {
		inputs = append(inputs, ast.MustParseTerm(r).Value)
	}
	got, err := e.Catalogs(ctx, declared, inputs)
	require.NoError(t, err)
	require.Len(t, got, len(requests))
	for i, r := range requests {
		var doc map[string]any
		require.NoError(t, json.Unmarshal([]byte(r), &doc))
		doc["declared"] = declared
		want, err := e.Tools(ctx, doc)
		require.NoError(t, err)
		require.Equal(t, want.Tools, got[i].Tools, r)
		require.Equal(t, len(want.Errors) > 0, len(got[i].Errors) > 0, r)
	}
}
