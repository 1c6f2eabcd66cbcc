package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/stretchr/testify/require"
)

var tenantConfig = Config{
	"tenants": map[string]any{"acme": map[string]any{"tools": []any{"read_file"}}},
}

func decideOne(t *testing.T, e *Engine, doc map[string]any) CallDecision {
	t.Helper()
	d, err := e.Decide(context.Background(), doc)
	require.NoError(t, err)
	require.Len(t, d.Decisions, 1)
	return d.Decisions[0]
}

func tenantCall(tenant, name string) map[string]any {
	return map[string]any{
		"tenant":   tenant,
		"agent":    map[string]any{"role": "subagent", "depth": 1},
		"declared": []any{map[string]any{"name": "read_file"}, map[string]any{"name": "write_file"}, map[string]any{"name": "gateway"}},
		"calls":    []any{map[string]any{"id": "c", "name": name}},
	}
}

func TestConfigOverlayReplacesOnlyTheMembersItNames(t *testing.T) {
	e := newEngine(t, WithConfig(tenantConfig))
	require.True(t, decideOne(t, e, tenantCall("acme", "read_file")).Allowed)
	c := decideOne(t, e, tenantCall("acme", "write_file"))
	require.Equal(t, []string{"not_allowed", "tenant"}, []string{c.Reason, c.Layer})
	// The bundle's exclusions are untouched.
	c = decideOne(t, e, tenantCall("acme", "gateway"))
	require.Equal(t, []string{"excluded", "subagent_hard_deny"}, []string{c.Reason, c.Layer})

	// Without the overlay, acme is an unknown tenant: every call refused.
	c = decideOne(t, newEngine(t), tenantCall("acme", "read_file"))
	require.Equal(t, "invalid_config", c.Reason)
}

func TestConfigOverlayMistakeFailsClosed(t *testing.T) {
	e := newEngine(t, WithConfig(Config{"tenant": map[string]any{}}))
	doc := tenantCall("", "read_file")
	delete(doc, "tenant")
	d, err := e.Decide(context.Background(), doc)
	require.NoError(t, err)
	require.Equal(t, "invalid_config", d.Decisions[0].Reason)
	require.Equal(t, "unknown_config_key", d.Errors[0].Code())
	require.Equal(t, "config.tenant", d.Errors[0]["field"])
}

func TestReloadKeepsTheConfigOverlay(t *testing.T) {
	e := newEngine(t, WithConfig(tenantConfig))
	require.NoError(t, e.Reload(context.Background(), filepath.Join("..", "policies")))
	require.True(t, decideOne(t, e, tenantCall("acme", "read_file")).Allowed)
}

func TestReadConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
		return path
	}
	c, err := ReadConfig(write("ok.json", `{"preset": "openclaw", "max_depth": 3}`))
	require.NoError(t, err)
	require.Equal(t, "openclaw", c["preset"])

	for name, text := range map[string]string{
		"array.json":    `[]`,
		"null.json":     `null`,
		"trailing.json": `{} {}`,
		"broken.json":   `{"preset":`,
	} {
		_, err := ReadConfig(write(name, text))
		require.Error(t, err, name)
	}
	_, err = ReadConfig(filepath.Join(dir, "missing.json"))
	require.Error(t, err)
}

// The digest the engine records must be the one the policy recomputes,
// for policies with characters JSON encoders treat specially.
func TestRequesterPolicyDigestIsThePolicys(t *testing.T) {
	e := newEngine(t)
	for _, policy := range []*RequesterPolicy{
		{Allow: []string{"read_file"}},
		{Allow: nil, Deny: []string{"write_file"}},
		{Allow: []string{"a<b>&c", "r\u00e9sum\u00e9", "a\u2028b"}, Deny: []string{"mcp__github__*"}},
		{Allow: []string{}},
	} {
		digest, err := RequesterPolicyDigest(policy)
		require.NoError(t, err)
		doc := map[string]any{
			"declared":  []any{map[string]any{"name": "read_file"}, map[string]any{"name": "zz_not_in_any_policy"}},
			"requester": map[string]any{"session": "s", "batch": "b", "policy_digest": digest},
			"handoff":   map[string]any{"session": "s", "batch": "b", "children": []any{map[string]any{"id": "c", "policy": policy}}},
			"calls":     []any{map[string]any{"id": "c", "name": "zz_not_in_any_policy"}},
		}
		c := decideOne(t, e, doc)
		if policy.Allow == nil {
			require.True(t, c.Allowed, "%+v", policy)
			continue
		}
		require.Equal(t, "requester_policy", c.Layer, "%+v: digest %s not verified", policy, digest)

		// One changed byte in the recorded digest and the policy is not verified.
		doc["requester"].(map[string]any)["policy_digest"] = "0" + digest[1:]
		if digest[0] == '0' {
			doc["requester"].(map[string]any)["policy_digest"] = "1" + digest[1:]
		}
		require.Equal(t, "continuation_restricted", decideOne(t, e, doc).Layer)
	}
}

func TestWriteBundleWithConfigDecidesLikeTheOverlay(t *testing.T) {
	ctx := context.Background()
	tarball := filepath.Join(t.TempDir(), "configured.tar.gz")
	f, err := os.Create(tarball)
	require.NoError(t, err)
	require.NoError(t, WriteBundle(ctx, f, "", "configured-rev", tenantConfig))
	require.NoError(t, f.Close())

	fromBundle := newEngine(t, WithBundle(tarball))
	require.Equal(t, "configured-rev", fromBundle.Revision())
	overlaid := newEngine(t, WithConfig(tenantConfig))
	for _, name := range []string{"read_file", "write_file", "gateway"} {
		a, err := fromBundle.Decide(ctx, tenantCall("acme", name))
		require.NoError(t, err)
		b, err := overlaid.Decide(ctx, tenantCall("acme", name))
		require.NoError(t, err)
		require.Equal(t, documentJSON(t, b), documentJSON(t, a), name)
	}
}

func TestCheck(t *testing.T) {
	e := newEngine(t, WithConfig(Config{
		"builtin_tools": []any{"edit_file"},
		"agents":        map[string]any{"reviewer": map[string]any{"tools": []any{"read_file", "edit_file"}}},
	}))
	c, err := e.Check(context.Background(), nil)
	require.NoError(t, err)
	require.Empty(t, c.Errors)
	require.Empty(t, c.Warnings)
	require.Nil(t, c.AgentTools)

	c, err = e.Check(context.Background(), JSON([]byte(`{"agent": {"name": "reviewer"}, "declared": [{"name": "read_file"}]}`)))
	require.NoError(t, err)
	require.Equal(t, &AgentTools{Agent: "reviewer", Valid: []string{"read_file"}, Invalid: []string{"edit_file"}}, c.AgentTools)
	require.Len(t, c.Warnings, 1)
	require.Equal(t, "unmatched_agent_tool", c.Warnings[0].Code())

	_, err = e.Check(context.Background(), JSON([]byte(`{`)))
	require.Error(t, err)
}

// TestReadConfigIsOneDocument: a configuration file with data after its
// object is refused (a stray "]" used to pass), one with a byte order
// mark is read.
func TestReadConfigIsOneDocument(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range map[string]string{"bracket": `{"max_depth": 3}]`, "two": `{} {}`, "null": `null`, "empty": ``} {
		path := filepath.Join(dir, name+".json")
		require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
		_, err := ReadConfig(path)
		require.Error(t, err, name)
	}
	path := filepath.Join(dir, "bom.json")
	require.NoError(t, os.WriteFile(path, []byte("\xef\xbb\xbf"+`{"max_depth": 3}`), 0o644))
	c, err := ReadConfig(path)
	require.NoError(t, err)
	require.Equal(t, Config{"max_depth": json.Number("3")}, c)
}

// With WithStrictConfig a configuration with errors makes no engine, and
// a reload to one keeps the policy in force; without it the engine loads
// and refuses every call.
func TestStrictConfigRefusesAConfigurationWithErrors(t *testing.T) {
	ctx := context.Background()
	bad := Config{"tools": map[string]any{"profile": "codign"}}
	_, err := New(ctx, WithStrictConfig(), WithConfig(bad))
	require.ErrorIs(t, err, ErrInvalidConfig)
	require.Contains(t, err.Error(), "unknown_profile")

	lenient := newEngine(t, WithConfig(bad))
	require.Equal(t, "invalid_config", decideOne(t, lenient, tenantCall("", "read_file")).Reason)

	// A bundle directory whose own configuration has an unknown key.
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(filepath.Join("..", "policies"))))
	configPath := filepath.Join(dir, "tooleval", "config", "data.json")
	data, err := os.ReadFile(configPath)
	require.NoError(t, err)
	var config map[string]any
	require.NoError(t, json.Unmarshal(data, &config))
	config["profil"] = "minimal"
	data, err = json.Marshal(config)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(configPath, data, 0o600))

	e := newEngine(t, WithStrictConfig(), WithConfig(tenantConfig))
	err = e.Reload(ctx, dir)
	require.ErrorIs(t, err, ErrInvalidConfig)
	require.True(t, decideOne(t, e, tenantCall("acme", "read_file")).Allowed, "the policy in force is kept")
	require.NoError(t, newEngine(t, WithConfig(tenantConfig)).Reload(ctx, dir), "without the option the reload is taken")
}

// TestWriteBundleWritesWhatTheLoadRead: a bundle written without a
// configuration carries what a load of its source reads: the prepared
// configuration when the source's is stale, and the configuration in
// force when the source's load changes it (the prepared configuration
// carries the configuration it was prepared from, so it is stale then
// too).
func TestWriteBundleWritesWhatTheLoadRead(t *testing.T) {
	ctx := context.Background()
	write := func(t *testing.T, staleEdit bool, merge string) map[string]any {
		source := t.TempDir()
		require.NoError(t, os.CopyFS(source, os.DirFS("../policies")))
		if staleEdit {
			require.NoError(t, os.WriteFile(filepath.Join(source, "tooleval", "prepared", "data.json"), []byte("{}\n"), 0o644))
		}
		host := filepath.Join(source, "tooleval", "host", "host.rego")
		data, err := os.ReadFile(host)
		require.NoError(t, err)
		shipped := "config := configuration.overlay(data.tooleval.config, overlay)"
		require.Contains(t, string(data), shipped)
		require.NoError(t, os.WriteFile(host, []byte(strings.Replace(string(data), shipped, merge, 1)), 0o644))
		var out bytes.Buffer
		require.NoError(t, WriteBundle(ctx, &out, source, "rev", nil))
		written, err := bundle.NewReader(&out).Read()
		require.NoError(t, err)
		return written.Data["tooleval"].(map[string]any)
	}
	t.Run("stale prepared", func(t *testing.T) {
		tooleval := write(t, true, "config := configuration.overlay(data.tooleval.config, overlay)")
		require.NotEqual(t, map[string]any{}, tooleval["prepared"], "the prepared configuration, not the stale one")
	})
	t.Run("a load that changes the configuration", func(t *testing.T) {
		tooleval := write(t, false, `config := configuration.overlay(object.union(data.tooleval.config, {"zz_written": true}), overlay)`)
		require.Equal(t, true, tooleval["config"].(map[string]any)["zz_written"], "the configuration the load read")
	})
}
