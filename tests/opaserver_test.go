package tests

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// The revision look-ups docs/deploy.md shows answer for the set-ups it
// shows them with: the bundle named tooleval (a local file loaded under
// that name), and every bundle's revision for --bundle FILE.
func TestDeployDocRevisionLookUps(t *testing.T) {
	t.Parallel()
	tarball := harness.BundlePath(t)
	named := harness.StartOPA(t, "--set", "bundles.tooleval.resource=file://"+tarball, "--set", "bundles.tooleval.service=")
	want := named.Revision("tooleval")
	require.NotEmpty(t, want, "GET /v1/data/system/bundles/tooleval/manifest/revision")

	byPath := harness.StartOPA(t, "--bundle", tarball)
	require.Empty(t, byPath.Revision("tooleval"), "with --bundle FILE the bundle is named by its path")
	resp, err := byPath.Client.Post(byPath.URL+"/v1/query", "application/json",
		strings.NewReader(`{"query": "x := data.system.bundles[_].manifest.revision"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	var doc struct {
		Result []struct {
			X string `json:"x"`
		} `json:"result"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
	require.Len(t, doc.Result, 1)
	require.Equal(t, want, doc.Result[0].X)
}
