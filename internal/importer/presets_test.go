package importer_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/importer/codex"
	"github.com/tooleval/tooleval/internal/importer/gemini"
)

// An imported Gemini CLI or Codex configuration names its runtime's
// preset, so that it bounds spawning as the runtime does: a sub-agent
// (at any depth) and a fork never call the spawn tool, while the main
// agent may (Gemini CLI: LocalAgentExecutor.create registers no agent
// tool for a sub-agent, packages/core/src/agents/local-executor.ts;
// Codex: DEFAULT_AGENT_MAX_DEPTH 1, codex-rs/core/src/config/mod.rs, and
// exceeds_thread_spawn_depth_limit, codex-rs/core/src/agent/registry.rs).
func TestImportSelectsTheRuntimePreset(t *testing.T) {
	t.Parallel()
	fromGemini, err := gemini.Import(nil, gemini.Options{ApprovalMode: "yolo"})
	require.NoError(t, err)
	fromCodex, err := codex.Import(nil, codex.Options{ApprovalPolicy: "never"})
	require.NoError(t, err)
	for _, c := range []struct {
		name, preset, spawn string
		overlay             map[string]any
	}{
		{"gemini yolo", "gemini_cli", "invoke_agent", fromGemini.Overlay},
		{"codex never", "codex", "spawn_agent", fromCodex.Overlay},
	} {
		require.Equal(t, c.preset, c.overlay["preset"], c.name)
		ctx := context.Background()
		e, err := engine.New(ctx, engine.WithConfig(engine.Config(c.overlay)))
		require.NoError(t, err, c.name)
		for _, a := range []struct {
			agent   map[string]any
			allowed bool
		}{
			{map[string]any{"role": "main", "depth": 0}, true},
			{map[string]any{"role": "subagent", "depth": 1}, false},
			{map[string]any{"role": "subagent", "depth": 9}, false},
			{map[string]any{"role": "fork", "depth": 1}, false},
		} {
			d, err := e.Decide(ctx, map[string]any{
				"agent":    a.agent,
				"declared": []any{map[string]any{"name": c.spawn}},
				"calls":    []any{map[string]any{"id": "c", "name": c.spawn, "args": map[string]any{}}},
			})
			require.NoError(t, err, c.name)
			require.Empty(t, d.Errors, c.name)
			require.Equal(t, a.allowed, d.Decisions[0].Allowed, "%s: %v calls %s: %s", c.name, a.agent, c.spawn, d.Decisions[0].Message)
		}
	}
}
