package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// A layer reads and writes the contract's lists: names, then argument
// rules; an allow list of rules only is an allowlist.
func TestLayerJSON(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{`{"name":"a","allow":null}`, `{"name":"a","allow":null}`},
		{`{"name":"a","allow":[]}`, `{"name":"a","allow":[]}`},
		{`{"name":"a","allow":["x",{"tool":"b","command":"ls"},"y"],"deny":[{"tool":"b","path":".env"}],"ask":["z"]}`,
			`{"name":"a","allow":["x","y",{"command":"ls","tool":"b"}],"deny":[{"path":".env","tool":"b"}],"ask":["z"]}`},
		{`{"name":"a","allow":[{"tool":"b","domain":"*"}],"message":"m"}`, `{"name":"a","allow":[{"domain":"*","tool":"b"}],"message":"m"}`},
		{`{"name":"a","allow":["x"],"otherwise":"ask"}`, `{"name":"a","allow":["x"],"otherwise":"ask"}`},
	} {
		var l Layer
		require.NoError(t, json.Unmarshal([]byte(tc.in), &l), tc.in)
		got, err := json.Marshal(l)
		require.NoError(t, err)
		require.JSONEq(t, tc.out, string(got), tc.in)
	}
	for _, bad := range []string{
		`{"name":"a","note":1}`, `{"name":"a","allow":[7]}`, `{"name":"a","ask":[null]}`, `[]`,
		`{"name":"a","allow":["*"],"deny":[{"tool":"x","command":"rm"}],"Deny":["x"]}`, `{"name":"a","allow":["x"],"allow":["y"]}`,
		`{"name":"a","deny":[{"tool":"x","tool":"y","command":"rm"}]}`,
	} {
		var l Layer
		require.Error(t, json.Unmarshal([]byte(bad), &l), bad)
	}
	var l Layer
	require.NoError(t, json.Unmarshal([]byte(`{"name":"a","allow":[{"tool":"b","command":"ls"}]}`), &l))
	require.Equal(t, []string{}, l.Allow, "a list of rules only is an allowlist")
	require.Equal(t, []ArgumentRule{{"tool": "b", "command": "ls"}}, l.AllowRules)

	// numbers as written: a deny on an exact id stays that id
	require.NoError(t, json.Unmarshal([]byte(`{"name":"a","deny":[{"tool":"b","args":{"id":9007199254740993}}]}`), &l))
	out, err := json.Marshal(l)
	require.NoError(t, err)
	require.Contains(t, string(out), `9007199254740993`)
}

// A layer that asks otherwise, sent through a session (the layer written
// as JSON by MarshalJSON): a call its allow list does not let through is
// asked about (outcome ask), not refused.
func TestLayerOtherwiseAsk(t *testing.T) {
	ctx := context.Background()
	s, err := newEngine(t).NewSession(ctx, SessionConfig{
		Declared: []Declaration{{Name: "read_file"}, {Name: "write_file"}},
		Layers:   []Layer{{Name: "team", Allow: []string{"read_file"}, Otherwise: OutcomeAsk}},
	})
	require.NoError(t, err)
	d, err := s.Decide(ctx, []Call{{ID: "1", Name: "read_file"}, {ID: "2", Name: "write_file"}})
	require.NoError(t, err)
	require.Len(t, d.Decisions, 2)
	require.Equal(t, OutcomeAllow, d.Decisions[0].Outcome)
	require.Equal(t, OutcomeAsk, d.Decisions[1].Outcome)
	require.Equal(t, ReasonAsk, d.Decisions[1].Reason)
	require.Equal(t, "team", d.Decisions[1].Layer)
}
