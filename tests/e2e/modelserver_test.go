package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// post sends body to the server and returns the JSON documents of the
// answer: each SSE data line, or the one JSON body.
func post(t *testing.T, url string, body any) []map[string]any {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var out []map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var doc map[string]any
				require.NoError(t, json.Unmarshal([]byte(data), &doc))
				out = append(out, doc)
			}
		}
		return out
	}
	var doc map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
	return append(out, doc)
}

// find returns the first of docs with the given value at key (nil if none).
func find(docs []map[string]any, key, value string) map[string]any {
	for _, d := range docs {
		if d[key] == value {
			return d
		}
	}
	return nil
}

var scripted = []Turn{
	{Calls: []Call{{ID: "call_1", Tool: "Bash", Args: map[string]any{"command": "ls"}}}},
	{Text: "all done"},
}

// Each protocol plays the script by the model turns of the request's
// history, answers a request that declares no tools with "done", and
// records the tool results the runtime sends back.
func TestModelServerAnthropic(t *testing.T) {
	s, err := NewServer(scripted)
	require.NoError(t, err)
	defer s.Close()
	tools := []any{map[string]any{"name": "Bash"}}
	first := post(t, s.URL()+"/v1/messages", map[string]any{"stream": true, "tools": tools,
		"messages": []any{map[string]any{"role": "user", "content": "go"}}})
	start := find(first, "type", "content_block_start")
	require.NotNil(t, start)
	require.Equal(t, "tool_use", object(start["content_block"])["type"])
	require.Equal(t, "call_1", object(start["content_block"])["id"])
	delta := object(find(first, "type", "content_block_delta")["delta"])
	require.JSONEq(t, `{"command":"ls"}`, delta["partial_json"].(string))
	require.Equal(t, "tool_use", object(find(first, "type", "message_delta")["delta"])["stop_reason"])

	second := post(t, s.URL()+"/v1/messages", map[string]any{"stream": false, "tools": tools, "messages": []any{
		map[string]any{"role": "user", "content": "go"},
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "call_1"}}},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "call_1", "is_error": true,
			"content": []any{map[string]any{"type": "text", "text": "denied"}}}}},
	}})
	require.Equal(t, "all done", object(list(second[0]["content"])[0])["text"])
	require.NotEqual(t, first[0]["message"].(map[string]any)["id"], second[0]["id"], "each response has its own message id")

	side := post(t, s.URL()+"/v1/messages", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "title?"}}})
	require.Equal(t, "done", object(list(side[0]["content"])[0])["text"])
	require.Equal(t, map[string]Result{"call_1": {ID: "call_1", Output: "denied", IsError: true}}, s.Results())
	require.Len(t, s.Requests(), 3)
}

func TestModelServerGemini(t *testing.T) {
	s, err := NewServer(scripted)
	require.NoError(t, err)
	defer s.Close()
	tools := []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": "Bash"}}}}
	first := post(t, s.URL()+"/v1beta/models/m:streamGenerateContent?alt=sse", map[string]any{"tools": tools,
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "go"}}}}})
	require.Len(t, first, 1)
	part := object(list(object(object(list(first[0]["candidates"])[0])["content"])["parts"])[0])
	require.Equal(t, map[string]any{"id": "call_1", "name": "Bash", "args": map[string]any{"command": "ls"}}, part["functionCall"])

	second := post(t, s.URL()+"/v1beta/models/m:generateContent", map[string]any{"tools": tools, "contents": []any{
		map[string]any{"role": "user", "parts": []any{map[string]any{"text": "go"}}},
		map[string]any{"role": "model", "parts": []any{part}},
		map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{
			"id": "call_1", "name": "Bash", "response": map[string]any{"output": "a.txt"}}}}},
	}})
	text := object(list(object(object(list(second[0]["candidates"])[0])["content"])["parts"])[0])["text"]
	require.Equal(t, "all done", text)
	require.Equal(t, map[string]Result{"call_1": {ID: "call_1", Tool: "Bash", Output: `{"output":"a.txt"}`}}, s.Results())
}

func TestModelServerResponses(t *testing.T) {
	s, err := NewServer(scripted)
	require.NoError(t, err)
	defer s.Close()
	tools := []any{map[string]any{"type": "function", "name": "Bash"}}
	user := map[string]any{"type": "message", "role": "user", "content": "go"}
	first := post(t, s.URL()+"/v1/responses", map[string]any{"tools": tools, "input": []any{user}})
	item := object(find(first, "type", "response.output_item.done")["item"])
	require.Equal(t, "function_call", item["type"])
	require.Equal(t, "call_1", item["call_id"])
	require.JSONEq(t, `{"command":"ls"}`, item["arguments"].(string))
	require.NotNil(t, find(first, "type", "response.completed"))

	second := post(t, s.URL()+"/v1/responses", map[string]any{"tools": tools, "input": []any{user, item,
		map[string]any{"type": "function_call_output", "call_id": "call_1", "output": "ran"}}})
	done := object(find(second, "type", "response.output_item.done")["item"])
	require.Equal(t, "all done", object(list(done["content"])[0])["text"])
	require.Equal(t, map[string]Result{"call_1": {ID: "call_1", Output: "ran"}}, s.Results())
}

// A sub-agent's conversation (its system prompt carries the marker) plays
// its own script from turn 0; the main conversation keeps the main one,
// even when its history quotes the marker (a call starting the sub-agent).
func TestModelServerAgentScript(t *testing.T) {
	s, err := NewServer(scripted)
	require.NoError(t, err)
	defer s.Close()
	s.SetAgentScript("E2E-SUB", []Turn{{Calls: []Call{{ID: "sub_1", Tool: "Read", Args: map[string]any{"file_path": "README"}}}}})
	tools := []any{map[string]any{"name": "Bash"}, map[string]any{"name": "Read"}}
	callOf := func(system any) string {
		docs := post(t, s.URL()+"/v1/messages", map[string]any{"system": system, "tools": tools,
			"messages": []any{map[string]any{"role": "user", "content": "go E2E-SUB"}}})
		return object(list(docs[0]["content"])[0])["id"].(string)
	}
	require.Equal(t, "call_1", callOf("You are the main agent."))
	require.Equal(t, "sub_1", callOf([]any{map[string]any{"type": "text", "text": "E2E-SUB: run the scripted calls."}}))
}
