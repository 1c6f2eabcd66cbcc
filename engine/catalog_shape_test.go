package engine

import (
	"errors"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

// A catalog entry's outcome is one of allow, conditional, ask and deny
// and agrees with its allowed; one without an outcome (a policy from
// before outcomes) takes the one its allowed says. Anything else fails
// the catalog closed (ErrShape), so that verify, the gateway and the
// matrix never read a verdict they cannot place.
func TestCatalogOutcomesAreReadOrRefused(t *testing.T) {
	for _, tc := range []struct {
		tool string
		want Outcome // "" for ErrShape
	}{
		{`{"name": "a", "allowed": true, "outcome": "allow"}`, OutcomeAllow},
		{`{"name": "a", "allowed": true, "outcome": "conditional", "rules": []}`, OutcomeConditional},
		{`{"name": "a", "allowed": false, "outcome": "ask", "reason": "ask", "layer": "l"}`, OutcomeAsk},
		{`{"name": "a", "allowed": false, "outcome": "deny", "reason": "denied", "layer": "l"}`, OutcomeDeny},
		{`{"name": "a", "allowed": true}`, OutcomeAllow},
		{`{"name": "a", "allowed": false}`, OutcomeDeny},
		{`{"name": "a", "allowed": false, "outcome": "conditional"}`, ""},
		{`{"name": "a", "allowed": true, "outcome": "deny"}`, ""},
		{`{"name": "a", "allowed": true, "outcome": "Allow"}`, ""},
		{`{"name": "a", "allowed": false, "outcome": "maybe"}`, ""},
	} {
		doc := ast.MustParseTerm(`{"errors": [], "effective": [], "tools": [` + tc.tool + `]}`).Value
		c, err := (&policy{}).decodeCatalog(doc)
		if tc.want == "" {
			require.True(t, errors.Is(err, ErrShape), "%s: %v", tc.tool, err)
			continue
		}
		require.NoError(t, err, tc.tool)
		require.Equal(t, tc.want, c.Tools[0].Outcome, tc.tool)
	}
}
