package tests

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// TestPresetsDocAsksAboutAllButOneCommand: the configuration
// docs/presets.md gives for "ask about every Bash call but npm run
// test" (Claude Code's default mode) does that, under the claude_code
// preset: npm run test is allowed, any other command asked about.
func TestPresetsDocAsksAboutAllButOneCommand(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/presets.md")
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(string(data)), " ")
	_, rest, found := strings.Cut(doc, "but `npm run test`\" is `")
	require.True(t, found, "docs/presets.md shows the configuration")
	shown, _, found := strings.Cut(rest, "`")
	require.True(t, found)
	var config engine.Config
	require.NoError(t, json.Unmarshal([]byte(shown), &config), shown)
	config["preset"] = "claude_code"
	ctx := context.Background()
	e, err := engine.New(ctx, engine.WithConfig(config))
	require.NoError(t, err)
	for command, want := range map[string]engine.Outcome{
		"npm run test":            engine.OutcomeAllow,
		"npm run test -- --watch": engine.OutcomeAllow,
		"ls":                      engine.OutcomeAsk,
		"npm run build":           engine.OutcomeAsk,
	} {
		d, err := e.Decide(ctx, map[string]any{
			"declared": []any{map[string]any{"name": "Bash"}},
			"calls":    []any{map[string]any{"id": "1", "name": "Bash", "args": map[string]any{"command": command}}},
		})
		require.NoError(t, err)
		require.Empty(t, d.Errors)
		require.Equal(t, want, d.Decisions[0].Outcome, command)
	}
}
