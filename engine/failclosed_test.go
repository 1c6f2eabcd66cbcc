package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/stretchr/testify/require"
)

// failClosedRequests are requests of every shape the safety nets see:
// not objects, calls and declarations malformed, runs with totals that
// are not counts, huge or fractional.
var failClosedRequests = []string{
	`null`, `[]`, `"x"`, `1e400`, `{}`,
	`{"calls": "x", "declared": 7}`,
	`{"calls": [1, null, {"id": 2}, {"id": "a", "name": "read_file", "args": {}}, {"name": ["x"]}]}`,
	`{"declared": [{"name": "a"}, {"name": null}, 3, {"mcp": {}}]}`,
	`{"calls": [{"id": "a", "name": "x"}], "run": null}`,
	`{"calls": [{"id": "a", "name": "x"}], "run": {}}`,
	`{"calls": [{"id": "a", "name": "x"}], "run": "often"}`,
	`{"calls": [{"id": "a", "name": "x"}, {"id": "b", "name": "y"}], "run": {"attempts": 3, "refusals": 1}}`,
	`{"calls": [{"id": "a", "name": "x"}], "run": {"attempts": -1, "refusals": 2.5}}`,
	`{"calls": [{"id": "a", "name": "x"}], "run": {"attempts": 1e3, "refusals": 9223372036854775807}}`,
	`{"calls": [{"id": "a", "name": "x"}], "run": {"attempts": 123456789012345678901234567890, "refusals": 1.0}}`,
	`{"calls": [{"id": "a", "name": "x"}], "run": {"attempts": "3", "refusals": null, "max_attempts": 1}}`,
}

// TestFailClosedDocumentsAreThePolicys holds the engine's fail-closed
// decision, catalog and launch equal, member for member, to the
// policy's own safety nets (batch.fail_closed, catalog.fail_closed,
// forks.failed_launch, and explain's untraced decision) for the same
// request.
func TestFailClosedDocumentsAreThePolicys(t *testing.T) {
	ctx := context.Background()
	b, err := loadBundle("", nil)
	require.NoError(t, err)
	compiler, store, err := compileBundle(ctx, b)
	require.NoError(t, err)
	l, err := loadHost(ctx, compiler, store, ast.NewObject())
	require.NoError(t, err)
	m := l.host.messages
	query := func(q string) rego.PreparedEvalQuery {
		prepared, err := rego.New(rego.Query(q), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
		require.NoError(t, err)
		return prepared
	}
	decision := query("data.tooleval.batch.fail_closed(input)")
	catalog := query("data.tooleval.catalog.fail_closed(input)")
	launch := query("data.tooleval.forks.failed_launch")
	// data.tooleval.explain's safety net: the fail-closed decision, each
	// call with the one-step trace tooleval.tracing.untraced.
	explained := query(`object.union(data.tooleval.batch.fail_closed(input), {"decisions": [object.union(d, {"trace": data.tooleval.tracing.untraced}) |
		some d in data.tooleval.batch.fail_closed(input).decisions]})`)
	policyDocument := func(q rego.PreparedEvalQuery, input ast.Value) string {
		v, err := evalAST(ctx, q, input)
		require.NoError(t, err)
		x, err := ast.JSON(v)
		require.NoError(t, err)
		return string(mustJSON(t, x))
	}
	for _, in := range failClosedRequests {
		request, err := DecodeInput([]byte(in))
		require.NoError(t, err, in)
		require.JSONEq(t, policyDocument(decision, request), documentJSON(t, m.failClosed(request)), "decision for %s", in)
		require.JSONEq(t, policyDocument(catalog, request), documentJSON(t, m.failedCatalog(request)), "catalog for %s", in)
		require.JSONEq(t, policyDocument(launch, request), documentJSON(t, m.failedLaunch(request)), "launch for %s", in)
		require.JSONEq(t, policyDocument(explained, request), documentJSON(t, m.failClosedExplained(request)), "explained decision for %s", in)
		for _, c := range m.failClosedExplained(request).Decisions {
			require.Equal(t, []TraceStep{untracedStep}, c.Trace)
		}
	}
}

// TestFailClosedDecisionDecodes holds the decoded members of a
// fail-closed decision equal to its document: the run a runtime keeps
// counting with is the document's.
func TestFailClosedDecisionDecodes(t *testing.T) {
	request, err := DecodeInput([]byte(`{"calls": [{"id": "a", "name": "x"}, {"id": "b"}], "run": {"attempts": 3, "refusals": 1}}`))
	require.NoError(t, err)
	m := shippedHost(t).messages
	d := m.failClosed(request)
	require.Equal(t, &RunTotals{Attempts: "5", Refusals: "3", Exhausted: true}, d.Run)
	require.Equal(t, []CallDecision{
		{ID: "a", Name: "x", Outcome: OutcomeDeny, Reason: ReasonInvalidConfig, Layer: "config", Message: "the call is refused: the policy could not decide it"},
		{ID: "b", Name: nil, Outcome: OutcomeDeny, Reason: ReasonInvalidConfig, Layer: "config", Message: "the call is refused: the policy could not decide it"},
	}, d.Decisions)
	require.Equal(t, "internal_error", d.Errors[0].Code())
}

func mustJSON(t *testing.T, x any) []byte {
	t.Helper()
	b, err := json.Marshal(x)
	require.NoError(t, err)
	return b
}
