package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

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
	d, err := e.Decide(context.Background(), engine.JSON(in))
	require.NoError(t, err)
	return d
}

// TestGoldenResponses compares the synthetic results for every refused
// call with testdata/<format>.json. TOOLEVAL_UPDATE_EXPECTED=1 (make expected) rewrites them.
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
		if os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1" {
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
	fr := g.(*GeminiResult).FunctionResponse
	require.Equal(t, "toolu_9", fr.ID)
	require.Equal(t, "Refund", fr.Name)
	o, err := Response(OpenAI, c)
	require.NoError(t, err)
	require.Equal(t, "toolu_9", o.(*OpenAIToolMessage).ToolCallID)
	r, err := Response(OpenAIResponses, c)
	require.NoError(t, err)
	require.Equal(t, "toolu_9", r.(*OpenAIFunctionCallOutput).CallID)
	a, err := Response(Anthropic, c)
	require.NoError(t, err)
	require.True(t, a.(*AnthropicToolResult).IsError)
	text := Text(c)
	require.Contains(t, text, `layer "tenant"`)
	for _, appeal := range []string{"retry", "ask", "approve", "permission"} {
		require.NotContains(t, text, appeal)
	}
	_, err = Response("xml", c)
	require.Error(t, err)
}

// TestCallsWithoutAStringIDHaveNoResult: a refused call whose id is not a
// string (or is empty) gets a CallError in every shape that addresses
// results by id, and the other refusals of the batch still get theirs.
func TestCallsWithoutAStringIDHaveNoResult(t *testing.T) {
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	d, err := e.Decide(context.Background(), engine.JSON([]byte(`{"declared": [{"name": "read_file"}],
		"calls": [{"id": 7, "name": "read_file"}, {"id": "ok_1", "name": "nope"}, {"id": null, "name": "nope"},
		          {"id": "", "name": "nope"}, {"id": {"x": 1}, "name": 3}, {"id": "ok_2", "name": "read_file"}]}`)))

	require.NoError(t, err)
	for _, f := range []Format{OpenAI, OpenAIResponses, Anthropic} {
		allowed, refused, err := Split(f, d)
		require.Len(t, allowed, 1, f)
		require.Len(t, refused, 1, f)
		data, jsonErr := json.Marshal(refused[0])
		require.NoError(t, jsonErr)
		require.Contains(t, string(data), `"ok_1"`, f)
		require.ErrorIs(t, err, ErrInvalidID, f)
		var indexes []int
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			var ce *CallError
			require.ErrorAs(t, e, &ce)
			indexes = append(indexes, ce.Index)
		}
		require.Equal(t, []int{0, 2, 3, 4}, indexes, f)
	}
	// Gemini matches by name: a missing id is fine, a non-string id or name is not.
	_, refused, err := Split(Gemini, d)
	require.Len(t, refused, 2)
	require.Empty(t, refused[1].(*GeminiResult).FunctionResponse.ID)
	require.ErrorIs(t, err, ErrInvalidID)
	require.ErrorIs(t, err, ErrInvalidName)
	require.Contains(t, err.Error(), "call 0:")
	require.Contains(t, err.Error(), "call 4:")
}

// TestOpenAIResponsesShape: the Responses API item has exactly the
// fields the API takes.
func TestOpenAIResponsesShape(t *testing.T) {
	r, err := Response(OpenAIResponses, engine.CallDecision{ID: "call_abc", Name: "x", Reason: "not_declared", Layer: "declaration", Message: "m"})
	require.NoError(t, err)
	data, err := json.Marshal(r)
	require.NoError(t, err)
	require.JSONEq(t, `{"type": "function_call_output", "call_id": "call_abc",
		"output": "Tool call refused before execution: m (reason: not_declared, layer: declaration). It was not run."}`, string(data))
}

// A refusal quoting a long name is clipped: the model reads its head and
// tail and how much was left out, never the whole name, in every format;
// the cut never splits a character.
func TestLongMessagesAreClipped(t *testing.T) {
	name := strings.Repeat("é", 3000) + "x"
	c := engine.CallDecision{ID: "c1", Name: name, Allowed: false, Reason: "not_declared", Layer: "declaration",
		Message: fmt.Sprintf("tool %q is not declared", name)}
	text := Text(c)
	require.True(t, utf8.ValidString(text))
	require.Less(t, len(text), maxMessageBytes+160)
	require.Contains(t, text, "bytes left out")
	require.True(t, strings.HasPrefix(text, `Tool call refused before execution: tool "éé`), text)
	require.True(t, strings.HasSuffix(text, `éx" is not declared (reason: not_declared, layer: declaration). It was not run.`), text)
	for _, f := range Formats {
		r, err := Response(f, c)
		require.NoError(t, err, f)
		raw, err := json.Marshal(r)
		require.NoError(t, err)
		want := 0
		if f == Gemini {
			want = 1 // functionResponse.name, which must match the call's
		}
		require.Equal(t, want, strings.Count(string(raw), name), "%s: the refusal's text does not echo the whole name", f)
		quoted, err := json.Marshal(text)
		require.NoError(t, err)
		require.Contains(t, string(raw), string(quoted), f)
	}

	short := engine.CallDecision{ID: "c1", Name: "x", Reason: "not_declared", Layer: "declaration", Message: strings.Repeat("m", maxMessageBytes)}
	require.Contains(t, Text(short), strings.Repeat("m", maxMessageBytes), "a message of maxMessageBytes is whole")
}
