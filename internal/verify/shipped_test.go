package verify_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/verify"
)

// The shipped presets and every example deployment of inputs/configured
// keep every promise verify checks (inputs/configured/agents: see
// TestVerifyWorkedExample).
func TestVerifyShippedPresetsAndExamplesHold(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// (the shipped configuration without a preset: internal/verify's
	// TestShippedConfigurationHolds)
	for _, preset := range shippedPresets(t) {
		t.Run("preset "+preset, func(t *testing.T) {
			e, err := engine.New(ctx, engine.WithConfig(engine.Config{"preset": preset}))
			require.NoError(t, err)
			r, err := verify.Run(ctx, e, verify.Options{})
			require.NoError(t, err)
			assert.Empty(t, r.Violated())
		})
	}
	for name, config := range deployments(t) {
		if name == "agents" {
			continue // tests/verify_doc_test.go's TestVerifyWorkedExample verifies it, and checks more
		}
		t.Run(name, func(t *testing.T) {
			e, err := engine.New(ctx, engine.WithConfig(config))
			require.NoError(t, err)
			r, err := verify.Run(ctx, e, verify.Options{})
			require.NoError(t, err)
			assert.Empty(t, r.Violated())
			assert.Positive(t, r.Subjects)
		})
	}
}

// patchedPolicies copies policies/ and replaces, in one file, text that
// must be there: a policy changed on purpose, to plant a violation the
// shipped policy cannot have.
func patchedPolicies(t *testing.T, file, old, replacement string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "policies")
	require.NoError(t, os.CopyFS(dir, os.DirFS(policiesDir)))
	path := filepath.Join(dir, file)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(src), old), "%s no longer holds the text the plant replaces: %q", file, old)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(src), old, replacement, 1)), 0o600))
	return dir
}

// Violations that the shipped policy cannot have are planted in a
// patched copy of it, and verify finds each with a counterexample: it
// checks what the policy decides, not what it is meant to.
func TestVerifyFindsViolationsPlantedInThePolicy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file, old, replacement, overlay, invariant, tool string
	}{
		{
			name: "a tenant plan that widens",
			file: "tooleval/stages/tenants/tenants.rego",
			old:  `[{"name": "tenant", "allow": shape.field(plan, "tools", null), "deny": []}]`, replacement: `[{"name": "tenant", "allow": null, "deny": []}]`,
			overlay: `{"tenants": {"acme": {"tools": ["read_file"]}}}`, invariant: verify.TenantWithinPlan,
		},
		{
			name: "a profile that re-allows a denied tool",
			file: "tooleval/stages/profiles/profiles.rego",
			old: `	"deny": shape.field(tools, "deny", []),
	"ask": shape.field(tools, "ask", []),
	"message"`,
			replacement: `	"deny": [e | some e in shape.field(tools, "deny", []); not e in shape.field(tools, "also_allow", [])],
	"ask": shape.field(tools, "ask", []),
	"message"`,
			overlay: `{"tools": {"profile": "coding", "also_allow": ["cron"], "deny": ["cron"]}}`, invariant: verify.DenyWins, tool: "cron",
		},
		{
			name: "a child allowed what its parent must ask about",
			file: "tooleval/stages/profiles/profiles.rego",
			old: `	"source": "config.subagents",
}] if {
	s.subagent
}`,
			replacement: `	"source": "config.subagents",
}] if {
	s.subagent
	not s.async
}`,
			overlay:   `{"subagents": {"ask": ["bash"]}, "agent_filters": {"async_allowed": ["bash", "agent", "read_file"]}}`,
			invariant: verify.DelegationAskKept, tool: "bash",
		},
		{
			name: "an error only a request can select",
			file: "tooleval/stages/tenants/tenants.rego",
			old:  `_known_tenant(conf, id) if is_object(tables.table_entry(shape.field(conf, "tenants", {}), id))`,
			replacement: `_known_tenant(conf, id) if {
	is_object(tables.table_entry(shape.field(conf, "tenants", {}), id))
	id != "acme"
}`,
			overlay: `{"tenants": {"acme": {"tools": null}}}`, invariant: verify.ConfigNoLatentErr,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			var overlay engine.Config
			require.NoError(t, json.Unmarshal([]byte(c.overlay), &overlay))

			// The shipped policy keeps the promise under this overlay.
			shipped, err := engine.New(ctx, engine.WithConfig(overlay))
			require.NoError(t, err)
			r, err := verify.Run(ctx, shipped, verify.Options{})
			require.NoError(t, err)
			require.Empty(t, r.Violated(), "the shipped policy")

			patched, err := engine.New(ctx, engine.WithBundle(patchedPolicies(t, c.file, c.old, c.replacement)), engine.WithConfig(overlay))
			require.NoError(t, err)
			r, err = verify.Run(ctx, patched, verify.Options{})
			require.NoError(t, err)
			assert.Equal(t, []string{c.invariant}, r.Violated())
			for _, inv := range r.Invariants {
				if inv.ID != c.invariant {
					continue
				}
				require.NotNil(t, inv.Counterexample)
				if c.tool != "" {
					assert.Equal(t, c.tool, inv.Counterexample.Tool)
					assert.NotEmpty(t, inv.Counterexample.Trace)
				}
				assert.NotEmpty(t, inv.Counterexample.Message)
			}
		})
	}
}

// shippedPresets are the names of the presets the bundle ships, read
// from its data: a preset added there is verified without a test edit.
func shippedPresets(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(policiesDir, "tooleval", "config", "presets", "data.json"))
	require.NoError(t, err)
	var presets map[string]any
	require.NoError(t, json.Unmarshal(data, &presets))
	require.GreaterOrEqual(t, len(presets), 5)
	return slices.Sorted(maps.Keys(presets))
}

// policiesDir is the policy's sources.
const policiesDir = "../../policies"

// deployments are the configurations of the example deployments of
// inputs/configured, by the name of their directory.
func deployments(t *testing.T) map[string]engine.Config {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "inputs", "configured", "*", "config.json"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	out := map[string]engine.Config{}
	for _, path := range paths {
		config, err := engine.ReadConfig(path)
		require.NoError(t, err)
		out[filepath.Base(filepath.Dir(path))] = config
	}
	return out
}
