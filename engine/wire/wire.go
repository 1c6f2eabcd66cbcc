// Package wire turns refused calls into the synthetic tool results that
// agent runtimes send back to the model in place of an execution, in the
// three wire shapes in use: a Gemini functionResponse, an OpenAI chat
// tool message and an Anthropic tool_result. Each carries the original
// call id and the name as asked.
package wire

import (
	"fmt"

	"github.com/tooleval/tooleval/engine"
)

// Format is a wire shape.
type Format string

// The wire shapes.
const (
	Gemini    Format = "gemini"
	OpenAI    Format = "openai"
	Anthropic Format = "anthropic"
)

// Formats lists every wire shape.
var Formats = []Format{Gemini, OpenAI, Anthropic}

// Text is what the model reads for a refused call: that it was refused,
// why and by which layer. It offers no way to appeal.
func Text(c engine.CallDecision) string {
	return fmt.Sprintf("Tool call refused before execution: %s (reason: %s, layer: %s). It was not run.", c.Message, c.Reason, c.Layer)
}

// Response is the synthetic tool result for one refused call in format f.
func Response(f Format, c engine.CallDecision) (map[string]any, error) {
	text := Text(c)
	switch f {
	case Gemini:
		return map[string]any{
			"functionResponse": map[string]any{
				"id":       c.ID,
				"name":     c.Name,
				"response": map[string]any{"error": text},
			},
		}, nil
	case OpenAI:
		return map[string]any{"role": "tool", "tool_call_id": c.ID, "content": text}, nil
	case Anthropic:
		return map[string]any{"type": "tool_result", "tool_use_id": c.ID, "is_error": true, "content": text}, nil
	}
	return nil, fmt.Errorf("unknown wire format %q", f)
}

// Split separates a decision's calls: the allowed ones, in order, go on
// to the runtime untouched; every refused one gets its synthetic result
// in format f, in order.
func Split(f Format, d *engine.Decision) (allowed []engine.CallDecision, refused []map[string]any, err error) {
	for _, c := range d.Decisions {
		if c.Allowed {
			allowed = append(allowed, c)
			continue
		}
		r, err := Response(f, c)
		if err != nil {
			return nil, nil, err
		}
		refused = append(refused, r)
	}
	return allowed, refused, nil
}
