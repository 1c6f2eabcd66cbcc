package wire

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// decision is the decision for inputs/fork_tools.json.
func decision(t *testing.T) *engine.Decision {
	t.Helper()
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	in, err := os.ReadFile(filepath.Join("..", "..", "inputs", "fork_tools.json"))
	require.NoError(t, err)
	d, err := e.DecideJSON(context.Background(), in)
	require.NoError(t, err)
	return d
}

// TestGoldenResponses compares the synthetic results for every refused
// call with testdata/<format>.json. TOOLEVAL_UPDATE_GOLDEN=1 rewrites them.
func TestGoldenResponses(t *testing.T) {
	d := decision(t)
	for _, f := range Formats {
		allowed, refused, err := Split(f, d)
		require.NoError(t, err)
		require.Len(t, allowed, 2)
		require.Len(t, refused, 3)
		got, err := json.MarshalIndent(refused, "", "  ")
		require.NoError(t, err)
		golden := filepath.Join("testdata", string(f)+".json")
		if os.Getenv("TOOLEVAL_UPDATE_GOLDEN") == "1" {
			require.NoError(t, os.WriteFile(golden, append(got, '\n'), 0o644))
			continue
		}
		want, err := os.ReadFile(golden)
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(got), f)
	}
}

func TestResponsesCarryIDNameAndNoAppeal(t *testing.T) {
	c := engine.CallDecision{ID: "toolu_9", Name: "Refund", Reason: "not_allowed", Layer: "tenant",
		Message: `tool "Refund" is not permitted: refused by layer "tenant"`}
	g, err := Response(Gemini, c)
	require.NoError(t, err)
	fr := g["functionResponse"].(map[string]any)
	require.Equal(t, "toolu_9", fr["id"])
	require.Equal(t, "Refund", fr["name"])
	o, err := Response(OpenAI, c)
	require.NoError(t, err)
	require.Equal(t, "toolu_9", o["tool_call_id"])
	a, err := Response(Anthropic, c)
	require.NoError(t, err)
	require.Equal(t, true, a["is_error"])
	text := Text(c)
	require.Contains(t, text, `layer "tenant"`)
	for _, appeal := range []string{"retry", "ask", "approve", "permission"} {
		require.NotContains(t, text, appeal)
	}
	_, err = Response("xml", c)
	require.Error(t, err)
}
