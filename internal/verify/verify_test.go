package verify

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/verifyquery"
)

// writeInvariants writes one Rego file of invariants to a temporary
// directory and loads it.
func writeInvariants(t *testing.T, src string) *UserInvariants {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "invariants.rego"), []byte(src), 0o600))
	inv, err := LoadInvariants(context.Background(), dir)
	require.NoError(t, err)
	return inv
}

// configured is an engine on the embedded bundle with an overlay.
func configured(t *testing.T, overlay string) *engine.Engine {
	t.Helper()
	var cfg engine.Config
	require.NoError(t, json.Unmarshal([]byte(overlay), &cfg))
	e, err := engine.New(context.Background(), engine.WithConfig(cfg))
	require.NoError(t, err)
	return e
}

func run(t *testing.T, overlay string, opts Options) *Report {
	t.Helper()
	r, err := Run(context.Background(), configured(t, overlay), opts)
	require.NoError(t, err)
	return r
}

func result(t *testing.T, r *Report, id string) Result {
	t.Helper()
	for _, inv := range r.Invariants {
		if inv.ID == id {
			return inv
		}
	}
	require.Failf(t, "no invariant", "%s is not in the report", id)
	return Result{}
}

// The shipped configuration keeps every promise, and each built-in
// invariant is reported, held.
func TestShippedConfigurationHolds(t *testing.T) {
	r := run(t, `{}`, Options{})
	assert.Empty(t, r.Violated())
	assert.True(t, r.Held())
	var ids []string
	for _, inv := range r.Invariants {
		ids = append(ids, inv.ID)
		assert.Nil(t, inv.Counterexample, inv.ID)
	}
	assert.Equal(t, []string{FloorHolds, SpawnBounded, DenyWins, TenantWithinPlan, DelegationNarrows, DelegationAskKept, ConfigNoLatentErr}, ids)
	// main, sub-agent and fork at depths 1..6, leaf below the cap,
	// read-only on and off: 2 + 2*(4*2*2 + 2*2) = 42
	assert.Equal(t, 42, r.Subjects)
	assert.Less(t, r.Stacks, r.Subjects)
	assert.Positive(t, r.Pairs)
}

// Violations planted in a configuration are found, each with its
// smallest counterexample: the subject, the tool and the verdict.
func TestPlantedViolationsAreFound(t *testing.T) {
	cases := []struct {
		name, overlay, invariant, tool, role string
		parent                               string   // the parent's agent name, for a delegation
		also                                 []string // other invariants the plant breaks
	}{
		{
			name:      "a floor exception",
			overlay:   `{"floor_exceptions": {"subagent_hard_deny": ["message"]}}`,
			invariant: FloorHolds, tool: "message", role: "subagent",
		},
		{
			name:      "an exclusion's addition taken back by nobody is kept",
			overlay:   `{"exclusions": {"fork_no_spawn": ["send_email"]}, "floor_exceptions": {"fork_no_spawn": ["agent"]}}`,
			invariant: FloorHolds, tool: "agent", role: "fork",
			also: []string{SpawnBounded}, // agent is the shipped configuration's spawn tool
		},
		{
			name:      "a spawn tool the floor does not know",
			overlay:   `{"agent_filters": {"agent_tool": "task"}}`,
			invariant: SpawnBounded, tool: "task", role: "subagent", // a leaf, at depth 1
			also: []string{DelegationNarrows}, // the leaf's child gets what the cap takes
		},
		{
			name:      "an MCP entry an agent filter exempts",
			overlay:   `{"agent_filters": {"all_agents_disallowed": ["mcp__github__create_issue"]}}`,
			invariant: DenyWins, tool: "mcp__github__create_issue", role: "subagent",
		},
		{
			name:      "a definition that grants a child more than its parent",
			overlay:   `{"agents": {"lead": {"tools": ["read_file", "agent"]}, "helper": {"tools": ["*"]}}}`,
			invariant: DelegationNarrows, role: "subagent", parent: "lead",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.overlay, Options{})
			assert.ElementsMatch(t, append([]string{c.invariant}, c.also...), r.Violated())
			res := result(t, r, c.invariant)
			require.NotNil(t, res.Counterexample)
			ce := res.Counterexample
			if c.tool != "" {
				assert.Equal(t, c.tool, ce.Tool)
			}
			assert.NotEmpty(t, ce.Tool)
			assert.Equal(t, c.role, ce.Subject.Agent.Role)
			assert.NotEqual(t, "deny", ce.Outcome)
			assert.NotEmpty(t, ce.Trace, "the counterexample carries its explain trace")
			if c.parent != "" {
				require.NotNil(t, ce.Parent)
				assert.Equal(t, c.parent, ce.Parent.Agent.Name)
				assert.Equal(t, "deny", ce.ParentOutcome)
			}
		})
	}
}

// A configuration with errors is not enumerated: verify says so.
func TestConfigurationErrorsStopVerification(t *testing.T) {
	r, err := Run(context.Background(), configured(t, `{"tenants": {"acme": {"tool": []}}}`), Options{})
	require.ErrorIs(t, err, ErrConfig)
	require.NotEmpty(t, r.Errors)
}

// Subjects that share a stack share their verdicts: deciding each
// subject on its own gives what decideAll gives by stack.
func TestSharedStacksDecideAsEachSubjectAlone(t *testing.T) {
	ctx := context.Background()
	e := configured(t, `{
		"max_depth": 2,
		"tenants": {"acme": {"tools": ["read_file", "agent", "mcp__github__*"]}},
		"agent_filters": {"async_allowed": ["read_file", "agent"]}
	}`)
	space, err := readSpace(ctx, e)
	require.NoError(t, err)
	subjects, err := Enumerate(space, false)
	require.NoError(t, err)
	u := newUniverse(space, Tools{})
	results, stacks, err := decideAll(ctx, e, u, subjects, Options{Workers: 2})
	require.NoError(t, err)
	require.Less(t, stacks, len(subjects))
	for i, s := range subjects {
		alone, err := decideOne(ctx, e, u, s, nil)
		require.NoError(t, err)
		require.Equal(t, alone.verdicts, results[i].verdicts, "%s", s)
		require.Equal(t, s, results[i].subject)
	}
}

// Enumeration: every table key, each depth to the cap + 1, the modes the
// policy reads; scopes alone or, exhaustively, every subset.
func TestEnumerate(t *testing.T) {
	space := &Space{
		Agents: []string{"a"}, Tenants: []string{"t"}, Scopes: []string{"s1", "s2"}, Users: []string{"u"},
		MaxDepth: 2, Modes: map[string]bool{"leaf": true, "read_only": true},
	}
	subjects, err := Enumerate(space, false)
	require.NoError(t, err)
	// agents: 2 names × (main 2 modes + depth 1: 2 roles × 4 + depths 2, 3: 2 roles × 2 each = 18)
	// callers: none, user alone, and {[], [s1], [s2]} with and without the user = 8
	// tenants: 2
	assert.Len(t, subjects, 2*18*8*2)
	exhaustive, err := Enumerate(space, true)
	require.NoError(t, err)
	// callers: none, user alone, {[], [s1], [s2], [s1 s2]} × 2 = 10
	assert.Len(t, exhaustive, 2*18*10*2)

	space.Scopes = make([]string, maxExhaustiveScopes+1)
	_, err = Enumerate(space, true)
	require.ErrorContains(t, err, "without --exhaustive")
}

// Invariants of one's own see every subject's verdicts and the calls of
// --tools; the ones they declare are reported held when nothing
// violates them.
func TestUserInvariants(t *testing.T) {
	inv := writeInvariants(t, `package tooleval.invariants

invariants := {
	"readonly.never_writes": "no agent named *-readonly may write",
	"shell.never_rm": "no call that removes files is allowed",
}

violation contains {"id": "readonly.never_writes", "message": sprintf("%s may %s", [input.subject.agent.name, t.name]), "tool": t.name} if {
	endswith(input.subject.agent.name, "-readonly")
	some t in input.tools
	t.name in {"write_file", "edit"}
	t.outcome != "deny"
}

violation contains {"id": "shell.never_rm", "message": sprintf("call %s is allowed", [c.id])} if {
	some c in input.calls
	c.id == "rm"
	c.outcome != "deny"
}
`)
	tools := Tools{
		Declared: []any{map[string]any{"name": "bash"}},
		Calls:    []any{map[string]any{"id": "rm", "name": "bash", "args": map[string]any{"command": "rm -rf /tmp/x"}}},
	}

	r := run(t, `{"agents": {"docs-readonly": {"tools": ["read_file", "write_file"]}}}`, Options{Invariants: inv, Tools: tools})
	assert.ElementsMatch(t, []string{"readonly.never_writes", "shell.never_rm"}, r.Violated())
	ce := result(t, r, "readonly.never_writes").Counterexample
	require.NotNil(t, ce)
	assert.Equal(t, "docs-readonly", ce.Subject.Agent.Name)
	assert.Equal(t, "write_file", ce.Tool)
	assert.Equal(t, 1, r.Calls)

	r = run(t, `{"agents": {"docs-readonly": {"tools": ["read_file"]}}, "tools": {"deny": [{"tool": "bash", "command_prefix": "rm"}]}}`, Options{Invariants: inv, Tools: tools})
	assert.Empty(t, r.Violated())
	assert.True(t, result(t, r, "shell.never_rm").Held)
}

// Invariants that are not in package tooleval.invariants, or that
// produce malformed violations, are errors, never silently held.
func TestUserInvariantsFailLoudly(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.rego"), []byte("package other\n\nviolation contains 1 if true\n"), 0o600))
	_, err := LoadInvariants(context.Background(), dir)
	require.ErrorContains(t, err, "defines no rule violation in package tooleval.invariants")

	bad := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bad, "x.rego"), []byte("package tooleval.invariants\n\nviolation contains {\"id\": \"x\"} if true\n"), 0o600))
	inv, err := LoadInvariants(context.Background(), bad)
	require.NoError(t, err)
	_, err = Run(context.Background(), configured(t, `{}`), Options{Invariants: inv})
	require.ErrorContains(t, err, "string id and message")
}

// A space that lacks what the invariants read is refused: an invariant
// must not hold because nothing was checked.
func TestIncompleteSpaceIsRefused(t *testing.T) {
	e := configured(t, `{}`)
	space, err := readSpace(context.Background(), e)
	require.NoError(t, err)
	require.NoError(t, checkSpace(space))
	delete(space.Exclusions, "fork_no_spawn")
	delete(space.Modes, "leaf")
	space.SpawnTools = nil
	space.Errors = nil
	space.DenyLists = append(space.DenyLists, verifyquery.SpaceList{Field: "config.x.deny", Applies: "tenant"})
	err = checkSpace(space)
	require.ErrorContains(t, err, "exclusions.fork_no_spawn, modes.leaf, spawn_tools, errors, a known applies for deny list config.x.deny")
}

// What a --tools decision input holds besides its tools and calls (here
// an inline layer) goes into every request verify makes.
func TestToolsRequestMembersGoInEveryRequest(t *testing.T) {
	inv := writeInvariants(t, `package tooleval.invariants

violation contains {"id": "no.bash", "message": "bash is let through", "tool": "bash"} if {
	some tool in input.tools
	tool.name == "bash"
	tool.outcome != "deny"
}
`)
	file := filepath.Join(t.TempDir(), "tools.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"agent": {"role": "fork"}, "run": {"attempts": 1},
		"declared": [{"name": "bash"}], "layers": [{"name": "runtime", "allow": ["read_file"]}]}`), 0o600))
	tools, err := ReadTools(file)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"layers": []any{map[string]any{"name": "runtime", "allow": []any{"read_file"}}}}, tools.Request)

	assert.Equal(t, []string{"no.bash"}, run(t, `{}`, Options{Invariants: inv, Tools: Tools{Declared: tools.Declared}}).Violated())
	r := run(t, `{}`, Options{Invariants: inv, Tools: tools})
	assert.Empty(t, r.Violated())
	assert.Positive(t, r.Subjects)
}

// decideOne asks the policy for one subject's catalog
// (data.tooleval.tools) and its calls' decisions: what decideAll gives
// each subject, asked of the entry point a runtime asks, one subject at
// a time.
func decideOne(ctx context.Context, e *engine.Engine, u *universe, s Subject, calls []any) (decided, error) {
	input, err := encode(request(s, u, nil))
	if err != nil {
		return decided{}, err
	}
	c, err := e.Tools(ctx, input)
	if err != nil {
		return decided{}, err
	}
	d, err := fromCatalog(s, u, c)
	if err != nil {
		return decided{}, err
	}
	d.calls, err = decideCalls(ctx, e, u, s, calls)
	return d, err
}

// No evaluation verify makes is bounded by the engine's per-decision
// deadline, which is meant for the hot path: on an engine whose deadline
// no evaluation can meet, verify still runs to the end, every phase
// included (the check, the space, the lists probed, the stacks, the
// catalogs, the calls, the counterexample's explain trace and the
// invariants of one's own). Its own bound is Options.Timeout.
func TestVerifyIsNotBoundByTheDecisionDeadline(t *testing.T) {
	ctx := context.Background()
	var cfg engine.Config
	require.NoError(t, json.Unmarshal([]byte(`{"max_depth": 1, "floor_exceptions": {"subagent_hard_deny": ["message"]}}`), &cfg))
	e, err := engine.New(ctx, engine.WithConfig(cfg), engine.WithEvalTimeout(time.Nanosecond))
	require.NoError(t, err)
	_, err = e.Decide(ctx, map[string]any{"declared": []any{map[string]any{"name": "bash"}}})
	require.ErrorIs(t, err, engine.ErrEvalTimeout, "no decision meets this engine's deadline")

	inv := writeInvariants(t, `package tooleval.invariants

violation contains {"id": "no.message", "message": "message is let through", "tool": "message"} if {
	some tool in input.tools
	tool.name == "message"
	tool.outcome != "deny"
}
`)
	tools := Tools{Calls: []any{map[string]any{"id": "c", "name": "message"}}}
	r, err := Run(ctx, e, Options{Invariants: inv, Tools: tools})
	require.NoError(t, err)
	assert.Equal(t, []string{FloorHolds, "no.message"}, r.Violated())
	assert.NotEmpty(t, result(t, r, FloorHolds).Counterexample.Trace)

	_, err = Run(ctx, e, Options{Timeout: time.Nanosecond})
	require.ErrorIs(t, err, ErrTimeout, "the verification's own bound")
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

// spawn.bounded holds every tool that launches a sub-agent to its
// promise, not only the configuration's spawn tool: a peer agent of
// --tools, and without a preset the spawn tool of every preset's
// runtime (read from the presets' data: here a preset an overlay adds,
// whose runtime spawns with invoke_agent). Each is found at a fork or at
// the cap until the exclusions take it, and then holds.
func TestSpawnBoundedTakesEverySpawnTool(t *testing.T) {
	ctx := context.Background()
	peer := Tools{Declared: []any{map[string]any{"name": "delegate", "agent": true}}}
	other := `"max_depth": 1, "presets": {"runtime_like": {"agent_filters": {"agent_tool": "launch_helper"}}}`
	e := configured(t, `{`+other+`}`)
	for _, c := range []struct {
		name, tool string
		opts       Options
	}{
		{"another runtime's spawn tool, no preset selected", "launch_helper", Options{}},
		{"a peer agent of --tools", "delegate", Options{Tools: peer}},
	} {
		r, err := Run(ctx, e, c.opts)
		require.NoError(t, err)
		require.Contains(t, r.Violated(), SpawnBounded, c.name)
		res := result(t, r, SpawnBounded)
		require.NotNil(t, res.Counterexample, c.name)
		assert.Equal(t, c.tool, res.Counterexample.Tool, c.name)
		assert.NotEqual(t, "main", res.Counterexample.Subject.Agent.Role, c.name)
		assert.NotEmpty(t, res.Counterexample.Trace, c.name)
	}
	fixed := run(t, `{`+other+`, "exclusions": {"fork_no_spawn": ["launch_helper", "delegate"], "subagent_depth_cap": ["launch_helper", "delegate"]}}`, Options{Tools: peer})
	assert.True(t, result(t, fixed, SpawnBounded).Held, "%+v", result(t, fixed, SpawnBounded).Counterexample)
}

// A configuration whose spawn tool is not the one its preset's runtime
// uses (the preset's takes its place) is refused, located: verify would
// otherwise check the preset's tool and say nothing of the one written.
func TestSpawnToolOfAnotherRuntimeIsRefused(t *testing.T) {
	// (the other members of the class: the Rego tests of
	// tooleval.verify.spawn_tool_errors)
	for _, overlay := range []string{
		`{"preset": "claude_code", "agent_filters": {"agent_tool": "task"}}`,
	} {
		r, err := Run(context.Background(), configured(t, overlay), Options{})
		require.ErrorIs(t, err, ErrConfig, overlay)
		require.Len(t, r.Errors, 1)
		assert.Equal(t, "spawn_tool_mismatch", r.Errors[0].Code())
		assert.Equal(t, "config.agent_filters.agent_tool", r.Errors[0]["field"])
		assert.Empty(t, r.Invariants, "nothing is reported held")
	}
}
