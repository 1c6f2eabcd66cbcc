package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/verifyquery"
)

// The space of the shipped configuration: no tables, the floor's tools
// (a wildcard by its witness), the cap of 5, the shipped agent tool.
func TestSpaceOfTheShippedConfiguration(t *testing.T) {
	s, err := verifyquery.ReadSpace(context.Background(), newEngine(t))
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
	stacks, err := verifyquery.Stacks(context.Background(), newEngine(t), inputs)
	require.NoError(t, err)
	require.Len(t, stacks, 3)
	require.Equal(t, stacks[0], stacks[1])
	require.NotEqual(t, stacks[1], stacks[2])
}

// A bundle without verify's rules still decides; verify is refused.
func TestBundleWithoutVerifyRules(t *testing.T) {
	e := newEngine(t, WithBundle(brokenBundle(t, "package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\ndecision := {}\n\ntools := {}\n\nlaunch := {}\n")))
	_, err := verifyquery.ReadSpace(context.Background(), e)
	require.ErrorIs(t, err, verifyquery.ErrNoVerify)
	_, err = verifyquery.Stacks(context.Background(), e, nil)
	require.ErrorIs(t, err, verifyquery.ErrNoVerify)
	_, err = verifyquery.Catalogs(context.Background(), e, nil, nil)
	require.ErrorIs(t, err, verifyquery.ErrNoVerify)
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
	got, err := verifyquery.Catalogs(ctx, e, declared, inputs)
	require.NoError(t, err)
	require.Len(t, got, len(requests))
	for i, r := range requests {
		var doc map[string]any
		require.NoError(t, json.Unmarshal([]byte(r), &doc))
		doc["declared"] = declared
		want, err := e.Tools(ctx, doc)
		require.NoError(t, err)
		c, ok := got[i].(*Catalog)
		require.True(t, ok, "a catalog, not a %T", got[i])
		require.Equal(t, want.Tools, c.Tools, r)
		require.Equal(t, len(want.Errors) > 0, len(c.Errors) > 0, r)
	}
}

// The space reads the configuration: its agent definitions, tenants,
// the depth cap and each tenant's plan.
func TestSpaceReadsTheConfiguration(t *testing.T) {
	e := newEngine(t, WithConfig(Config{
		"agents":  map[string]any{"explore": map[string]any{"builtin": true, "disallowed_tools": []any{"group:edit"}}},
		"tenants": map[string]any{"acme": map[string]any{"tools": []any{"read_file"}}},
	}))
	s, err := verifyquery.ReadSpace(context.Background(), e)
	require.NoError(t, err)
	require.Equal(t, []string{"explore"}, s.Agents)
	require.Equal(t, []string{"explore"}, s.BuiltinAgents)
	require.Equal(t, []string{"acme"}, s.Tenants)
	require.Equal(t, 5, s.MaxDepth)
	require.Equal(t, []any{"read_file"}, s.Plans["acme"])
}

// The queries ask an engine, and refuse anything else.
func TestVerifyQueriesAskAnEngine(t *testing.T) {
	ctx := context.Background()
	_, err := verifyquery.ReadSpace(ctx, "an engine")
	require.ErrorContains(t, err, "not a string")
	_, err = verifyquery.Stacks(ctx, (*Engine)(nil), nil)
	require.ErrorContains(t, err, "verify asks an engine")
	_, err = verifyquery.Catalogs(ctx, nil, nil, nil)
	require.ErrorContains(t, err, "verify asks an engine")
}
