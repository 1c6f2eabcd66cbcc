package tests

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAuthoringExampleRuns runs the deployment test of the authoring
// guide (docs/authoring/acme_test.rego) with the policy, as the guide
// tells a reader to.
func TestAuthoringExampleRuns(t *testing.T) {
	out := opa(t, "test", policiesDir, "../docs/authoring", "-r", "data.deploy_test", "--format", "json")
	require.Contains(t, string(out), `"name": "test_acme"`)
	require.NotContains(t, string(out), `"fail": true`)
	require.Contains(t, string(out), `"name": "test_the_overlay_has_no_problems"`)
}
