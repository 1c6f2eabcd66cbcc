package verify

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// [parent, child, the invariant broken]: a child is let through no more
// than its parent, where allow > conditional > ask > deny; two
// conditional verdicts are not compared.
func TestDelegationWidening(t *testing.T) {
	const (
		allow       = engine.OutcomeAllow
		conditional = engine.OutcomeConditional
		ask         = engine.OutcomeAsk
		deny        = engine.OutcomeDeny
	)
	for _, tc := range []struct {
		parent, child engine.Outcome
		want          string
	}{
		{deny, allow, DelegationNarrows}, {deny, conditional, DelegationNarrows}, {deny, ask, DelegationNarrows}, {deny, deny, ""},
		{ask, allow, DelegationAskKept}, {ask, conditional, DelegationAskKept}, {ask, ask, ""}, {ask, deny, ""},
		{conditional, allow, DelegationNarrows}, {conditional, conditional, ""}, {conditional, ask, ""}, {conditional, deny, ""},
		{allow, allow, ""}, {allow, conditional, ""}, {allow, ask, ""}, {allow, deny, ""},
	} {
		id, message := widens(tc.parent, tc.child, "web_fetch")
		require.Equal(t, tc.want, id, "parent %s, child %s", tc.parent, tc.child)
		if id != "" {
			require.Contains(t, message, "web_fetch")
		}
	}
}
