package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// configFuzzCases is how many generated configurations
// TestConfigurationFuzzNeverConflicts evaluates by default (a few
// seconds); TOOLEVAL_CONFIG_FUZZ_CASES asks for more.
const configFuzzCases = 12

// The entry points every configuration is evaluated at, as a stock OPA
// serves them, and what the engine evaluates when it loads a bundle.
var fuzzEntryPoints = []string{
	"data.tooleval.decision", "data.tooleval.tools", "data.tooleval.explain",
	"data.tooleval.launch", "data.tooleval.check",
}

// TestConfigurationFuzzNeverConflicts generates configuration overlays
// whose name-keyed members (agents, tenants, scopes, profiles, MCP user
// services, groups, path arguments, a preset's aliases, groups,
// profiles and path arguments, exclusions, floor exceptions) have keys
// that collide or nearly collide after canonicalization or aliasing
// (Bash and bash, a full-width spelling, a zero-width space, an
// over-long spelling, a mark that cannot be canonicalized exactly), and
// requests that name them. Each configuration is loaded as the engine
// loads it (data.tooleval.host.load: the configuration in force and the
// configuration prepared, written to data.tooleval.config and
// data.tooleval.prepared) and every entry point is evaluated
// with real OPA: none may fail (no eval_conflict_error, no undefined
// result), a decision, explain or catalog with errors refuses every
// call and tool, a launch with errors is invalid, and a batch decided
// with a session's context (as the engine decides a session's batches)
// is the decision.
func TestConfigurationFuzzNeverConflicts(t *testing.T) {
	t.Parallel()
	cases := configFuzzCases
	if v := os.Getenv("TOOLEVAL_CONFIG_FUZZ_CASES"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		cases = n
	}
	ctx := context.Background()
	f := newConfigFuzzer(t)
	g := &configGen{rng: rand.New(rand.NewPCG(21, 2021))}
	start := time.Now()
	for i, seed := range configFuzzSeeds {
		f.install(t, seed.overlay)
		f.evaluateAll(ctx, t, fmt.Sprintf("seed %d", i), seed.overlay, seed.request)
		f.evaluateAll(ctx, t, fmt.Sprintf("seed %d, a generated request", i), seed.overlay, g.request())
	}
	for i := range cases {
		overlay := g.overlay()
		f.install(t, overlay)
		for j := range 3 {
			doc := g.request()
			f.evaluateAll(ctx, t, fmt.Sprintf("configuration %d request %d", i, j), overlay, doc)
		}
	}
	t.Logf("%d configurations, 3 requests each: %s", cases, time.Since(start))
}

// configFuzzSeeds are the cases found so far: each was an
// eval_conflict_error at every entry point.
var configFuzzSeeds = []struct {
	overlay, request map[string]any
}{
	{ // an alias spelt twice, naming two tools
		map[string]any{"preset": "openclaw", "presets": map[string]any{"openclaw": map[string]any{"aliases": map[string]any{"Bash": "read_file"}}}},
		map[string]any{"declared": []any{map[string]any{"name": "exec"}}, "calls": []any{map[string]any{"id": "1", "name": "bash"}}},
	},
	{ // an alias of an alias
		map[string]any{"preset": "openclaw", "presets": map[string]any{"openclaw": map[string]any{"aliases": map[string]any{"exec": "run"}}}},
		map[string]any{"declared": []any{map[string]any{"name": "exec"}}, "calls": []any{map[string]any{"id": "1", "name": "bash"}}},
	},
	{ // two declared names of one tool, and a call of a third
		map[string]any{"preset": "qwen_code"},
		map[string]any{
			"declared": []any{map[string]any{"name": "Shell"}, map[string]any{"name": "run_shell_command"}},
			"calls":    []any{map[string]any{"id": "1", "name": "Bash"}},
		},
	},
}

// configFuzzer is the policy compiled once, over a store whose
// configuration and prepared configuration each case replaces.
type configFuzzer struct {
	store   storage.Store
	base    any
	load    rego.PreparedEvalQuery
	queries map[string]rego.PreparedEvalQuery
	session rego.PreparedEvalQuery
	decide  rego.PreparedEvalQuery
	catalog rego.PreparedEvalQuery
	paths   rego.PreparedEvalQuery
}

func newConfigFuzzer(t *testing.T) *configFuzzer {
	t.Helper()
	ctx := context.Background()
	result, err := loader.NewFileLoader().Filtered([]string{harness.PoliciesDir()}, func(_ string, info fs.FileInfo, _ int) bool {
		return !info.IsDir() && strings.HasSuffix(info.Name(), "_test.rego")
	})
	require.NoError(t, err)
	modules := make(map[string]*ast.Module, len(result.Modules))
	for path, m := range result.Modules {
		modules[path] = m.Parsed
	}
	compiler := ast.NewCompiler()
	compiler.Compile(modules)
	require.False(t, compiler.Failed(), "compile: %v", compiler.Errors)
	data := result.Documents
	f := &configFuzzer{
		store:   inmem.NewFromObjectWithOpts(data, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true)),
		base:    data["tooleval"].(map[string]any)["config"],
		queries: map[string]rego.PreparedEvalQuery{},
	}
	prepare := func(query string) rego.PreparedEvalQuery {
		q, err := rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(f.store)).PrepareForEval(ctx)
		require.NoError(t, err)
		return q
	}
	f.load = prepare("data.tooleval.host.load(input.overlay) with data.tooleval.config as input.base")
	for _, q := range fuzzEntryPoints {
		f.queries[q] = prepare(q)
	}
	// what an engine session evaluates (engine/engine.go)
	f.session = prepare("data.tooleval.context.session(input)")
	f.decide = prepare("data.tooleval.decide(input.context, input.request)")
	f.catalog = prepare("data.tooleval.catalog.catalog(input.context, input.request)")
	f.paths = prepare("data.tooleval.configuration.path_arguments_in_force")
	return f
}

// eval evaluates a prepared query to its one value, as JSON.
func (f *configFuzzer) eval(ctx context.Context, q rego.PreparedEvalQuery, input any) (any, error) {
	rs, err := q.Eval(ctx, rego.EvalInput(input))
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return nil, fmt.Errorf("undefined")
	}
	return rs[0].Expressions[0].Value, nil
}

// install loads the overlay over the shipped configuration as the engine
// does (data.tooleval.host.load), and writes the configuration in force
// and the configuration prepared to the data.
func (f *configFuzzer) install(t *testing.T, overlay map[string]any) {
	t.Helper()
	ctx := context.Background()
	loaded, err := f.eval(ctx, f.load, map[string]any{"base": f.base, "overlay": overlay})
	require.NoError(t, err, "load %s", mustJSON(overlay))
	l, ok := loaded.(map[string]any)
	require.True(t, ok, "load %s: %v", mustJSON(overlay), loaded)
	f.write(t, "/tooleval/config", l["config"])
	f.write(t, "/tooleval/prepared", l["prepared"])
}

func (f *configFuzzer) write(t *testing.T, path string, value any) {
	t.Helper()
	ctx := context.Background()
	v, err := ast.InterfaceToValue(value)
	require.NoError(t, err)
	require.NoError(t, storage.WriteOne(ctx, f.store, storage.ReplaceOp, storage.MustParsePath(path), v))
}

func (f *configFuzzer) evaluateAll(ctx context.Context, t *testing.T, what string, overlay, doc map[string]any) {
	t.Helper()
	launchDoc := with(doc, "subagent_type", "fork")
	launchDoc["fork_tools"] = []any{"read_file", "group:fs"}
	var decision map[string]any
	defer func() {
		// a session's context, and a batch decided with it, as the engine
		// decides the batches of a session: the same decision
		_, err := f.eval(ctx, f.paths, map[string]any{})
		require.NoError(t, err, "%s: path_arguments_in_force\nconfig: %s", what, mustJSON(overlay))
		session, err := f.eval(ctx, f.session, doc)
		require.NoError(t, err, "%s: session\nconfig: %s\ninput: %s", what, mustJSON(overlay), mustJSON(doc))
		_, err = f.eval(ctx, f.catalog, map[string]any{"context": session, "request": doc})
		require.NoError(t, err, "%s: catalog with a session\nconfig: %s\ninput: %s", what, mustJSON(overlay), mustJSON(doc))
		decided, err := f.eval(ctx, f.decide, map[string]any{"context": session, "request": doc})
		require.NoError(t, err, "%s: decide with a session\nconfig: %s\ninput: %s", what, mustJSON(overlay), mustJSON(doc))
		if decision != nil {
			require.Equal(t, decision["decisions"], decided.(map[string]any)["decisions"], "%s: a session decides otherwise\nconfig: %s\ninput: %s", what, mustJSON(overlay), mustJSON(doc))
		}
	}()
	for _, name := range fuzzEntryPoints {
		input := any(doc)
		if name == "data.tooleval.launch" {
			input = launchDoc
		}
		value, err := f.eval(ctx, f.queries[name], input)
		require.NoError(t, err, "%s: %s\nconfig: %s\ninput: %s", what, name, mustJSON(overlay), mustJSON(input))
		out, ok := value.(map[string]any)
		require.True(t, ok, "%s: %s is not an object", what, name)
		if name == "data.tooleval.decision" {
			decision = out
		}
		errs, _ := out["errors"].([]any)
		if len(errs) == 0 {
			continue
		}
		switch name {
		case "data.tooleval.decision", "data.tooleval.explain":
			for _, d := range out["decisions"].([]any) {
				require.Equal(t, false, d.(map[string]any)["allowed"], "%s: %s allowed a call under errors\nconfig: %s", what, name, mustJSON(overlay))
			}
		case "data.tooleval.tools":
			require.Empty(t, out["effective"], "%s: tools under errors\nconfig: %s", what, mustJSON(overlay))
		case "data.tooleval.launch":
			require.Equal(t, false, out["valid"], "%s: a valid launch under errors\nconfig: %s", what, mustJSON(overlay))
		}
	}
}

func mustJSON(x any) string {
	data, _ := json.Marshal(x)
	return string(data)
}

// configGen generates configuration overlays and requests from pools of
// names that collide or nearly collide.
type configGen struct {
	rng *rand.Rand
}

func (g *configGen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func (g *configGen) chance(p float64) bool { return g.rng.Float64() < p }

// over-long spellings: canonically the name, but past the 256-character cap
var fuzzOverLong = "explore" + strings.Repeat("\u200b", 250)

// fuzzKeyNames are table keys and request names: spellings of a few names.
var fuzzKeyNames = []string{
	"explore", "Explore", "EXPLORE", "\uff45xplore", "explore\u200b", " explore", fuzzOverLong,
	"e\u0301xplore", "acme", "ACME", "a\u200bcme", "stra\u00dfe", "STRASSE", "\u212aelvin", "kelvin",
	"coding", "Coding", "repo", "alice", "Alice", "",
}

// fuzzToolNames are built-in tool names, alias spellings and near misses.
var fuzzToolNames = []string{
	"bash", "Bash", "BASH", "\uff42ash", "b\u200bash", "exec", "Exec", "read_file", "READ_FILE",
	"read", "write", "edit", "apply_patch", "apply-patch", "cron", "automations", "run",
	"run_shell_command", "Shell", "agent", "Agent", "task", "Task", "gateway",
	"bash" + strings.Repeat("\u00ad", 260), "e\u0301", "mcp__github__read_issue", "group:fs", "*", "",
}

var fuzzEntryPool = append(append([]string{}, fuzzToolNames...),
	"group:runtime", "group:messaging", "group:Messaging", "group:explore", "mcp__github__*", "ba*", "mcp__*")

var fuzzPresetNames = []string{"openclaw", "qwen_code", "claude_code", "OpenClaw"}

func (g *configGen) names(pool []string, most int) []any {
	out := []any{}
	for range g.rng.IntN(most + 1) {
		out = append(out, g.pick(pool))
	}
	return out
}

func (g *configGen) table(keys []string, most int, value func() any) map[string]any {
	out := map[string]any{}
	for range 1 + g.rng.IntN(most) {
		out[g.pick(keys)] = value()
	}
	return out
}

func (g *configGen) listOrNull() any {
	if g.chance(0.2) {
		return nil
	}
	return g.names(fuzzEntryPool, 3)
}

func (g *configGen) pathSpec() any {
	return map[string]any{g.pick([]string{"path", "file_path", "cwd"}): g.pick([]string{"read", "write", "patch"})}
}

func (g *configGen) overlay() map[string]any {
	o := map[string]any{}
	maybe := func(p float64, key string, value func() any) {
		if g.chance(p) {
			o[key] = value()
		}
	}
	maybe(0.5, "agents", func() any {
		return g.table(fuzzKeyNames, 3, func() any {
			d := map[string]any{"disallowed_tools": g.names(fuzzEntryPool, 2)}
			if g.chance(0.5) {
				d["tools"] = g.listOrNull()
			}
			if g.chance(0.3) {
				d["profile"] = g.pick(fuzzKeyNames)
			}
			if g.chance(0.3) {
				d["builtin"] = true
			}
			return d
		})
	})
	maybe(0.4, "tenants", func() any {
		return g.table(fuzzKeyNames, 3, func() any { return map[string]any{"tools": g.listOrNull()} })
	})
	maybe(0.4, "scopes", func() any { return g.table(fuzzKeyNames, 3, func() any { return g.names(fuzzEntryPool, 3) }) })
	maybe(0.4, "profiles", func() any { return g.table(fuzzKeyNames, 3, g.listOrNull) })
	maybe(0.3, "mcp_user_services", func() any {
		return g.table(fuzzKeyNames, 3, func() any { return g.names([]string{"github", "GitHub", "jira", ""}, 2) })
	})
	maybe(0.5, "groups", func() any {
		return g.table(append(append([]string{}, fuzzKeyNames...), "fs", "runtime", "messaging", "Messaging"), 3, func() any { return g.names(fuzzToolNames, 3) })
	})
	maybe(0.3, "path_arguments", func() any { return g.table(fuzzToolNames, 3, g.pathSpec) })
	maybe(0.3, "exclusions", func() any {
		return map[string]any{g.pick([]string{"subagent_hard_deny", "fork_no_spawn", "subagent_depth_cap"}): g.names(fuzzEntryPool, 3)}
	})
	maybe(0.2, "floor_exceptions", func() any { return map[string]any{"subagent_hard_deny": g.names(fuzzEntryPool, 2)} })
	maybe(0.4, "tools", func() any {
		t := map[string]any{"deny": g.names(fuzzEntryPool, 2)}
		if g.chance(0.5) {
			t["profile"] = g.pick(fuzzKeyNames)
		}
		return t
	})
	if g.chance(0.8) {
		preset := g.pick(fuzzPresetNames)
		o["preset"] = preset
		p := map[string]any{}
		if g.chance(0.8) {
			p["aliases"] = g.table(fuzzToolNames, 4, func() any { return g.pick(fuzzToolNames) })
		}
		if g.chance(0.4) {
			p["groups"] = g.table([]string{"fs", "runtime", "messaging", "Messaging", "explore"}, 2, func() any { return g.names(fuzzToolNames, 3) })
		}
		if g.chance(0.3) {
			p["profiles"] = g.table(fuzzKeyNames, 2, g.listOrNull)
		}
		if g.chance(0.3) {
			p["path_arguments"] = g.table(fuzzToolNames, 2, g.pathSpec)
		}
		if g.chance(0.2) {
			p["exclusions"] = map[string]any{"subagent_hard_deny": g.names(fuzzEntryPool, 2)}
		}
		o["presets"] = map[string]any{preset: p}
	}
	return o
}

func (g *configGen) request() map[string]any {
	doc := map[string]any{}
	role := g.pick([]string{"main", "subagent", "fork"})
	agent := map[string]any{"name": g.pick(fuzzKeyNames), "role": role, "depth": 0}
	if role != "main" {
		agent["depth"] = 1 + g.rng.IntN(6)
	}
	doc["agent"] = agent
	if g.chance(0.4) {
		doc["tenant"] = g.pick(fuzzKeyNames)
	}
	if g.chance(0.4) {
		caller := map[string]any{"scopes": g.names(fuzzKeyNames, 2)}
		if g.chance(0.5) {
			caller["user"] = g.pick(fuzzKeyNames)
		}
		doc["caller"] = caller
	}
	seen := map[string]bool{}
	declared := []any{}
	calls := []any{}
	for i := range 1 + g.rng.IntN(5) {
		name := g.pick(fuzzToolNames)
		if !seen[name] {
			seen[name] = true
			declared = append(declared, map[string]any{"name": name})
		}
		calls = append(calls, map[string]any{"id": strconv.Itoa(i), "name": g.pick(fuzzToolNames), "args": map[string]any{"path": "/ws/a"}})
	}
	doc["declared"] = declared
	doc["calls"] = calls
	if g.chance(0.3) {
		doc["workspace"] = map[string]any{"root": "/ws"}
	}
	return doc
}
