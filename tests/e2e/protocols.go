package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
)

// messageIDs numbers the responses' message ids.
var messageIDs atomic.Int64

// The three wire protocols, each just far enough for a runtime to run a
// scripted conversation:
//
//   - Anthropic Messages (docs.anthropic.com/en/api/messages,
//     /en/docs/build-with-claude/streaming): POST /v1/messages, SSE when
//     "stream" is true, tool_use content blocks, tool_result blocks back;
//   - Gemini (ai.google.dev/api/generate-content):
//     models/M:streamGenerateContent?alt=sse and :generateContent,
//     functionCall parts, functionResponse parts back;
//   - OpenAI Responses (platform.openai.com/docs/api-reference/responses,
//     /responses-streaming): POST /v1/responses, SSE, function_call
//     output items, function_call_output input items back.

// --- Anthropic Messages ---

func anthropicHasTools(doc map[string]any) bool { return len(list(doc["tools"])) > 0 }

// anthropicTurns counts the assistant messages of a request's history.
func anthropicTurns(doc map[string]any) int {
	n := 0
	for _, m := range list(doc["messages"]) {
		if object(m)["role"] == "assistant" {
			n++
		}
	}
	return n
}

func anthropicResults(doc map[string]any) []Result {
	var out []Result
	for _, m := range list(doc["messages"]) {
		for _, b := range list(object(m)["content"]) {
			block := object(b)
			if block["type"] != "tool_result" {
				continue
			}
			id, _ := block["tool_use_id"].(string)
			isErr, _ := block["is_error"].(bool)
			out = append(out, Result{ID: id, Output: text(block["content"]), IsError: isErr})
		}
	}
	return out
}

func serveAnthropic(w http.ResponseWriter, t Turn, doc map[string]any) {
	model, _ := doc["model"].(string)
	// Each response has its own message id: Claude Code merges the
	// assistant messages of one id into one message of its history.
	id := fmt.Sprintf("msg_scripted_%d", messageIDs.Add(1))
	var blocks []map[string]any
	stop := "end_turn"
	if len(t.Calls) == 0 {
		blocks = append(blocks, map[string]any{"type": "text", "text": t.Text})
	}
	for _, c := range t.Calls {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Tool, "input": c.Args})
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 1, "output_tokens": 1}
	if stream, _ := doc["stream"].(bool); !stream {
		writeJSON(w, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	startSSE(w)
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage,
	}})
	for i, b := range blocks {
		start := map[string]any{"type": b["type"]}
		var delta map[string]any
		if b["type"] == "text" {
			start["text"] = ""
			delta = map[string]any{"type": "text_delta", "text": b["text"]}
		} else {
			start["id"], start["name"], start["input"] = b["id"], b["name"], map[string]any{}
			args, _ := json.Marshal(b["input"])
			delta = map[string]any{"type": "input_json_delta", "partial_json": string(args)}
		}
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": delta})
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 1}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// --- Gemini ---

func geminiHasTools(doc map[string]any) bool {
	for _, t := range list(doc["tools"]) {
		if len(list(object(t)["functionDeclarations"])) > 0 {
			return true
		}
	}
	return false
}

// geminiTurns counts the model turns of a request's history.
func geminiTurns(doc map[string]any) int {
	n := 0
	for _, c := range list(doc["contents"]) {
		if object(c)["role"] == "model" {
			n++
		}
	}
	return n
}

func geminiResults(doc map[string]any) []Result {
	var out []Result
	for _, c := range list(doc["contents"]) {
		for _, p := range list(object(c)["parts"]) {
			fr := object(object(p)["functionResponse"])
			if fr == nil {
				continue
			}
			id, _ := fr["id"].(string)
			name, _ := fr["name"].(string)
			resp := object(fr["response"])
			_, isErr := resp["error"]
			b, _ := json.Marshal(resp)
			out = append(out, Result{ID: id, Tool: name, Output: string(b), IsError: isErr})
		}
	}
	return out
}

func serveGemini(w http.ResponseWriter, t Turn, stream bool) {
	var parts []map[string]any
	if len(t.Calls) == 0 {
		parts = append(parts, map[string]any{"text": t.Text})
	}
	for _, c := range t.Calls {
		parts = append(parts, map[string]any{"functionCall": map[string]any{"id": c.ID, "name": c.Tool, "args": c.Args}})
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
		"modelVersion":  "scripted",
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	startSSE(w)
	sse(w, "", resp)
}

// --- OpenAI Responses ---

func responsesHasTools(doc map[string]any) bool { return len(list(doc["tools"])) > 0 }

// responsesIsModel tells the input items the model produced.
func responsesIsModel(item map[string]any) bool {
	switch item["type"] {
	case "function_call", "custom_tool_call", "local_shell_call", "reasoning":
		return true
	case "message":
		return item["role"] == "assistant"
	}
	return false
}

// responsesTurns counts the runs of model items in a request's input.
func responsesTurns(doc map[string]any) int {
	n, inModel := 0, false
	for _, it := range list(doc["input"]) {
		m := responsesIsModel(object(it))
		if m && !inModel {
			n++
		}
		inModel = m
	}
	return n
}

func responsesResults(doc map[string]any) []Result {
	var out []Result
	for _, it := range list(doc["input"]) {
		item := object(it)
		if item["type"] != "function_call_output" && item["type"] != "custom_tool_call_output" {
			continue
		}
		id, _ := item["call_id"].(string)
		out = append(out, Result{ID: id, Output: text(item["output"])})
	}
	return out
}

func serveResponses(w http.ResponseWriter, t Turn) {
	var items []map[string]any
	if len(t.Calls) == 0 {
		items = append(items, map[string]any{"type": "message", "id": "msg_scripted", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": t.Text, "annotations": []any{}}}})
	}
	for _, c := range t.Calls {
		args, _ := json.Marshal(c.Args)
		items = append(items, map[string]any{"type": "function_call", "id": "fc_" + c.ID, "call_id": c.ID,
			"name": c.Tool, "arguments": string(args), "status": "completed"})
	}
	response := map[string]any{"id": "resp_scripted", "object": "response", "status": "in_progress", "output": []any{}}
	startSSE(w)
	sse(w, "response.created", map[string]any{"type": "response.created", "response": response})
	for i, it := range items {
		sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": it})
		sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": it})
	}
	response["status"], response["output"] = "completed", items
	response["usage"] = map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": response})
}
