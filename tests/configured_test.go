package tests

import (
	"context"
	"encoding/json"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/corpus"
	"github.com/tooleval/tooleval/tests/harness"
)

// deployment is one directory of inputs/configured: a configuration
// overlay (config.json) and decision inputs evaluated with it, whose
// expected documents are under inputs/expected/configured/NAME/.
type deployment struct {
	name, config string
	examples     []harness.Example
}

func deployments(t *testing.T) []deployment {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "inputs", "configured", "*"))
	require.NoError(t, err)
	var out []deployment
	for _, dir := range dirs {
		d := deployment{name: filepath.Base(dir), config: filepath.Join(dir, "config.json")}
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		require.NoError(t, err)
		for _, f := range files {
			if f == d.config {
				continue
			}
			d.examples = append(d.examples, harness.Example{
				Input:    f,
				Expected: filepath.Join("..", "inputs", "expected", "configured", d.name, filepath.Base(f)),
				Query:    "data.tooleval.decision",
			})
		}
		require.NotEmpty(t, d.examples, "%s has no example", dir)
		out = append(out, d)
	}
	require.GreaterOrEqual(t, len(out), 8, "the configured examples are missing")
	return out
}

// configuredBundle builds the policies with the deployment's
// configuration overlaid, as `tooleval bundle build --config` does.
func configuredBundle(t *testing.T, d deployment) string {
	t.Helper()
	build, _ := configuredBundles.LoadOrStore(d.name, sync.OnceValues(func() (string, error) {
		config, err := engine.ReadConfig(d.config)
		if err != nil {
			return "", err
		}
		dir, err := os.MkdirTemp("", "tooleval-configured-")
		if err != nil {
			return "", err
		}
		path := filepath.Join(dir, d.name+".tar.gz")
		f, err := os.Create(path)
		if err != nil {
			return "", err
		}
		if err := engine.WriteBundle(context.Background(), f, harness.PoliciesDir(), "configured-"+d.name, config); err != nil {
			return "", err
		}
		return path, f.Close()
	}))
	path, err := build.(func() (string, error))()
	require.NoError(t, err)
	return path
}

// configuredBundles holds each deployment's bundle, built once for the
// tests that read it (by deployment name).
var configuredBundles sync.Map

// configuredEngine is an engine given the deployment's overlay
// (engine.WithConfig), made once for the tests that decide with it.
func configuredEngine(t *testing.T, d deployment) (*engine.Engine, engine.Config) {
	t.Helper()
	config, err := engine.ReadConfig(d.config)
	require.NoError(t, err)
	made, _ := configuredEngines.LoadOrStore(d.name, sync.OnceValues(func() (*engine.Engine, error) {
		return engine.New(context.Background(), engine.WithConfig(config))
	}))
	e, err := made.(func() (*engine.Engine, error))()
	require.NoError(t, err)
	return e, config
}

// configuredEngines holds each deployment's engine (by deployment name).
var configuredEngines sync.Map

// TestConfiguredInputs: for every deployment, the command line with
// --config decides each example as an engine given the overlay does,
// and as the committed expectation says. (TestRESTEqualsEmbeddedConfigured
// holds that engine to a stock OPA server serving the configured bundle.)
func TestConfiguredInputs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	update := os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1"
	for _, d := range deployments(t) {
		e, _ := configuredEngine(t, d)
		out, _ := harness.CLIEach(t, []string{"eval", "--config", d.config, "--format", "json"}, harness.InputsOf(d.examples))
		for i, ex := range d.examples {
			t.Run(strings.TrimPrefix(ex.Input, "../"), func(t *testing.T) {
				input, err := os.ReadFile(ex.Input)
				require.NoError(t, err)
				dec, err := e.Decide(ctx, engine.JSON(input))
				require.NoError(t, err)
				got, err := dec.JSON()
				require.NoError(t, err)
				require.JSONEq(t, string(got), string(out[i]), "the command line with --config differs from the engine given the overlay")
				matchExpected(t, ex.Expected, got, update)
			})
		}
	}
}

// TestConfiguredExamplesHaveNoConfigurationErrors runs tooleval check
// on every deployment with its examples: no configuration has an error or
// a warning, and the examples draw only the problems they exist to show
// (an unknown tenant; an agent tool that names no declared tool).
func TestConfiguredExamplesHaveNoConfigurationErrors(t *testing.T) {
	t.Parallel()
	shown := map[string]string{
		"unknown_tenant.json": ": error: unknown_tenant:",
		"custom_agent.json":   ": warning: unmatched_agent_tool:",
	}
	for _, d := range deployments(t) {
		// Every example in one run: the configuration has no line of its own
		// (no error, no warning), each example is reported on lines of its
		// own, and only the examples that exist to show a problem have one.
		out, stderr, _ := harness.CLI(t, "", append([]string{"check", "--config", d.config}, harness.InputsOf(d.examples)...)...)
		require.NotContains(t, out, "configuration: ", "%s: %s", d.name, stderr)
		for _, ex := range d.examples {
			if want, ok := shown[filepath.Base(ex.Input)]; ok {
				require.Contains(t, out, ex.Input+want)
				continue
			}
			require.NotContains(t, out, ex.Input+": error:", "%s: %s", ex.Input, out)
			require.NotContains(t, out, ex.Input+": warning:", "%s: %s", ex.Input, out)
		}
	}
}

func TestCheckReportsConfigurationProblemsWithLocations(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	config := filepath.Join(dir, "config.json")
	require.NoError(t, os.WriteFile(config, []byte(`{
		"tenants": {"acme": {"tools": ["group:billing"]}, "ACME": {"tools": null}},
		"tools": {"profile": "codng"},
		"agents": {"helper": {"tools": ["read_file", "read_file"], "disallowed_tools": ["read_*"]}},
		"subagents": {"allow": ["gateway"]}
	}`), 0o600))
	input := filepath.Join(dir, "input.json")
	require.NoError(t, os.WriteFile(input, []byte(`{
		"agent": {"name": "helper"},
		"declared": [{"name": "read_file"}, {"name": "re\u0430d_file"}]
	}`), 0o600))
	out, _, code := harness.CLI(t, "", "check", "--config", config, input)
	require.Equal(t, 3, code, out)
	for _, want := range []string{
		`configuration: error: colliding_names:`,
		`configuration: error: unknown_group:`,
		`(at config.tenants.acme.tools[0]; entry=group:billing)`,
		`configuration: error: unknown_profile:`,
		`(at config.tools.profile; profile=codng)`,
		`configuration: warning: duplicate_entry:`,
		`configuration: warning: shadowed_entry:`,
		`configuration: warning: unreachable_entry:`,
		input + `: warning: confusable_names:`,
		input + `: agent "helper" tools: valid ["read_file" "read_file"], invalid []`,
	} {
		require.Contains(t, out, want)
	}
}

// TestRESTEqualsEmbeddedConfigured: for every deployment, a stock OPA
// server loaded with the configured bundle and an embedded engine given
// the overlay (engine.WithConfig) return identical decision and check
// documents for the deployment's examples and for generated decisions
// that carry the identifying fields (agent names and modes, tenant,
// caller scopes and user, MCP services, handoffs) the configuration
// knows and some it does not.
func TestRESTEqualsEmbeddedConfigured(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	total, differences := 0, 0
	for _, d := range deployments(t) {
		e, config := configuredEngine(t, d)
		// With the store flag docs/deploy.md recommends (TestRESTEqualsEmbedded
		// runs without it): a decision is the same either way.
		server := harness.StartOPA(t, "--log-level", "error", "--optimize-store-for-read-speed", "--bundle", configuredBundle(t, d))

		var inputs [][]byte
		for _, ex := range d.examples {
			data, err := os.ReadFile(ex.Input)
			require.NoError(t, err)
			inputs = append(inputs, data)
		}
		for _, odd := range []string{`{}`, `null`, `[]`, `"x"`, `1e400`, `{"tenant": {}}`, `{"agent": {"name": 1}}`, `{"handoff": null}`} {
			inputs = append(inputs, []byte(odd))
		}
		checked := len(inputs) // the check document of every example and odd input, and of one generated input in four
		gen := corpus.New(uint64(len(d.name)) * 7919)
		rng := rand.New(rand.NewPCG(2026, uint64(len(inputs))))
		for _, doc := range gen.Decisions(scaled(t, 6)) {
			identify(t, rng, doc, config)
			data, err := json.Marshal(doc)
			require.NoError(t, err)
			inputs = append(inputs, data)
		}
		for i, input := range inputs {
			dec, err := e.Decide(ctx, engine.JSON(input))
			require.NoError(t, err)
			docs := map[string]interface{ JSON() ([]byte, error) }{"tooleval/decision": dec}
			if i < checked || i%4 == 0 {
				chk, err := e.Check(ctx, engine.JSON(input))
				require.NoError(t, err)
				docs["tooleval/check"] = chk
			}
			for path, doc := range docs {
				want, err := doc.JSON()
				require.NoError(t, err)
				got, ok, err := server.Query(path, input)
				require.NoError(t, err)
				require.True(t, ok, "%s: %s is undefined on the server", d.name, path)
				total++
				if !jsonEqual(t, want, got) {
					differences++
					if differences <= 5 {
						t.Errorf("%s input %d (%s) differs\ninput:    %s\nembedded: %s\nREST:     %s", d.name, i, path, input, want, got)
					}
				}
			}
		}
	}
	t.Logf("configured REST vs embedded: %d requests compared, %d differences", total, differences)
	require.Zero(t, differences)
}

// identify adds identifying fields to a generated decision input: names
// the configuration knows, names it does not, and malformed values.
func identify(t *testing.T, rng *rand.Rand, doc map[string]any, config engine.Config) {
	t.Helper()
	pick := func(xs []any) any { return xs[rng.IntN(len(xs))] }
	agent, _ := doc["agent"].(map[string]any)
	if agent != nil {
		agent["name"] = pick(append(keys(config["agents"]), "nobody", "general-purpose"))
		for _, flag := range []string{"async", "teammate", "coordinator", "read_only"} {
			if rng.IntN(6) == 0 {
				agent[flag] = pick([]any{true, false, "yes"})
			}
		}
	}
	if rng.IntN(2) == 0 {
		doc["tenant"] = pick(append(keys(config["tenants"]), "globex", nil, 7))
	}
	if rng.IntN(2) == 0 {
		scopes := []any{}
		for _, s := range append(keys(config["scopes"]), "read_file", "repo:admin", "mcp__*") {
			if rng.IntN(3) == 0 {
				scopes = append(scopes, s)
			}
		}
		doc["caller"] = map[string]any{
			"scopes": pick([]any{scopes, nil, []any{}}),
			"user":   pick(append(keys(config["mcp_user_services"]), "eve@example.com", nil)),
		}
	}
	if rng.IntN(3) == 0 {
		doc["mcp_services"] = pick([]any{[]any{"github"}, []any{"foo.bar", "GitHub"}, []any{}, nil, []any{"a__b"}})
	}
	if rng.IntN(4) == 0 {
		policy := map[string]any{"allow": pick([]any{[]any{"read_file", "mcp__github__*"}, nil, []any{}}), "deny": []any{"bash"}}
		digest, err := engine.RequesterPolicyDigest(policy)
		require.NoError(t, err)
		if rng.IntN(3) == 0 {
			digest = strings.Repeat("0", 64)
		}
		children := []any{map[string]any{"id": "c1", "policy": policy}}
		if rng.IntN(3) == 0 {
			children = append(children, map[string]any{"id": "c2", "policy": map[string]any{"allow": []any{"read_file"}}})
		}
		doc["requester"] = map[string]any{"session": "s", "batch": "b", "policy_digest": digest}
		doc["handoff"] = map[string]any{"session": "s", "batch": pick([]any{"b", "b", "old"}), "children": children}
	}
}

// keys returns the sorted keys of a configuration object (none for
// anything else).
func keys(x any) []any {
	obj, _ := x.(map[string]any)
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]any, len(names))
	for i, k := range names {
		out[i] = k
	}
	return out
}

// TestPropertyIdentifyingFieldsOnlyNarrow: under every deployment's
// configuration, adding who is asking (agent name and modes, tenant,
// caller, MCP services, a handoff) to a request never allows a call or an
// effective tool that the same request without them refuses.
func TestPropertyIdentifyingFieldsOnlyNarrow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	checked := 0
	for _, d := range deployments(t) {
		config, err := engine.ReadConfig(d.config)
		require.NoError(t, err)
		e, err := engine.New(ctx, engine.WithConfig(config))
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(31, uint64(len(d.name))))
		for _, doc := range corpus.New(uint64(len(d.name))).Decisions(scaled(t, propertyCases/15)) {
			bare := maps.Clone(doc)
			if agent, ok := doc["agent"].(map[string]any); ok {
				// The name and modes are identifying fields; role and depth are not.
				bare["agent"] = map[string]any{"role": agent["role"], "depth": agent["depth"]}
			}
			identify(t, rng, doc, config)
			// The caller's user is what grants a user's MCP servers under
			// mcp_user_services (a request with no user, or an unknown one,
			// gets no MCP tool: docs/configuration.md), so the request it
			// is compared with names the same user.
			if caller, ok := doc["caller"].(map[string]any); ok && caller["user"] != nil {
				bare["caller"] = map[string]any{"user": caller["user"]}
			}
			plain, plainTools := decideDoc(t, e, bare), toolsDoc(t, e, bare)
			who := decideDoc(t, e, doc)
			subset(t, toolsDoc(t, e, doc).Effective, plainTools.Effective, "%s: effective widened", d.name)
			require.Len(t, who.Decisions, len(plain.Decisions))
			for i, c := range who.Decisions {
				if c.Allowed {
					require.True(t, plain.Decisions[i].Allowed, "%s: call %d allowed only with identifying fields: %v", d.name, i, doc)
				}
			}
			checked++
		}
	}
	t.Logf("identifying fields only narrow: %d documents", checked)
}
