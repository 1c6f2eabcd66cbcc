package engine

import (
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
