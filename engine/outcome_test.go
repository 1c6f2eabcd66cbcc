package engine

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

// TestDecodeOutcome holds a decision's outcome to its allowed: allow
// exactly when allowed, one of allow, ask and deny, and, for a policy
// from before outcomes, what its allowed says.
func TestDecodeOutcome(t *testing.T) {
	for _, tc := range []struct {
		decision string
		want     Outcome // empty: ErrShape
	}{
		{`{"allowed": true, "outcome": "allow"}`, OutcomeAllow},
		{`{"allowed": false, "outcome": "deny"}`, OutcomeDeny},
		{`{"allowed": false, "outcome": "ask"}`, OutcomeAsk},
		{`{"allowed": true}`, OutcomeAllow},
		{`{"allowed": false}`, OutcomeDeny},
		{`{"allowed": true, "outcome": "ask"}`, ""},
		{`{"allowed": true, "outcome": "deny"}`, ""},
		{`{"allowed": false, "outcome": "allow"}`, ""},
		{`{"allowed": false, "outcome": "Allow"}`, ""},
		{`{"allowed": true, "outcome": "ALLOW"}`, ""},
		{`{"allowed": false, "outcome": null}`, ""},
		{`{"allowed": true, "outcome": ["allow"]}`, ""},
		{`{"allowed": false, "outcome": "prompt"}`, ""},
	} {
		c, err := decodeCall(ast.MustParseTerm(tc.decision).Value)
		if tc.want == "" {
			require.ErrorIs(t, err, ErrShape, tc.decision)
			continue
		}
		require.NoError(t, err, tc.decision)
		require.Equal(t, tc.want, c.Outcome, tc.decision)
	}
}

// TestAnOutcomeThatDisagreesFailsClosed: a policy whose decision says
// allowed with another outcome is not read as allowed; every call is
// refused.
func TestAnOutcomeThatDisagreesFailsClosed(t *testing.T) {
	policy := "package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\n" +
		`decision := {"decisions": [{"id": "a", "name": "read_file", "allowed": true, "outcome": "ask"}], "errors": []}` + "\n\n" +
		"tools := 1\n\nlaunch := 1\n"
	e := newEngine(t, WithBundle(brokenBundle(t, policy)))
	in := ast.MustParseTerm(`{"calls": [{"id": "a", "name": "read_file"}]}`).Value
	d, err := e.Decide(t.Context(), in)
	require.ErrorIs(t, err, ErrShape)
	require.Len(t, d.Decisions, 1)
	require.False(t, d.Decisions[0].Allowed)
	require.Equal(t, OutcomeDeny, d.Decisions[0].Outcome)
	require.Equal(t, ReasonInvalidConfig, d.Decisions[0].Reason)
}
