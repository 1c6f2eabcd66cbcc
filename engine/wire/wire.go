// Package wire turns refused calls into the synthetic tool results that
// agent runtimes send back to the model in place of an execution, in the
// wire shapes in use: a Gemini functionResponse, an OpenAI Chat
// Completions tool message, an OpenAI Responses function_call_output
// item and an Anthropic tool_result. Each carries the original call id
// (and, for Gemini, the name as asked).
//
// A tool result must name the call it answers. A call whose id is not a
// non-empty string (the policy refuses such a call as invalid_input) has
// no valid result in the OpenAI and Anthropic shapes; neither has a
// Gemini call whose name is not a string. For those calls [Response]
// and [Split] return a [*CallError] wrapping [ErrInvalidID] or
// [ErrInvalidName] instead of a result the provider would reject.
package wire

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/tooleval/tooleval/engine"
)

// Format is a wire shape.
type Format string

// The wire shapes.
const (
	Gemini          Format = "gemini"
	OpenAI          Format = "openai"           // Chat Completions: a message with role "tool"
	OpenAIResponses Format = "openai-responses" // Responses API: a function_call_output input item
	Anthropic       Format = "anthropic"
)

// Formats lists every wire shape.
var Formats = []Format{Gemini, OpenAI, OpenAIResponses, Anthropic}

// Errors wrapped by [CallError].
var (
	// ErrInvalidID: the call's id is not a non-empty string, so no tool
	// result can be addressed to it.
	ErrInvalidID = errors.New("the call's id is not a non-empty string")
	// ErrInvalidName: a Gemini call's name is not a non-empty string.
	ErrInvalidName = errors.New("the call's name is not a non-empty string")
)

// CallError says why a refused call has no tool result in a format. The
// call itself was refused (it must not run); the runtime cannot answer
// it in that wire shape, and should drop the call from the turn (or end
// the turn) rather than send the provider a result it would reject.
type CallError struct {
	Index  int    // the call's index in the decision
	Format Format // the wire shape asked for
	Value  any    // the offending id or name
	Err    error  // ErrInvalidID or ErrInvalidName
}

func (e *CallError) Error() string {
	return fmt.Sprintf("call %d: no %s tool result: %v (got %#v); the call was refused, drop it from the turn", e.Index, e.Format, e.Err, e.Value)
}

func (e *CallError) Unwrap() error { return e.Err }

// Result is the synthetic tool result of one refused call, in one of the
// shapes: *GeminiResult, *OpenAIToolMessage, *OpenAIFunctionCallOutput
// or *AnthropicToolResult. Each encodes to the provider's JSON.
type Result interface {
	// Format is the result's wire shape.
	Format() Format
}

// GeminiResult is a Gemini content part holding a functionResponse.
type GeminiResult struct {
	FunctionResponse GeminiFunctionResponse `json:"functionResponse"`
}

// GeminiFunctionResponse answers a Gemini functionCall. ID is omitted
// when the call had none (Gemini matches by name then).
type GeminiFunctionResponse struct {
	ID       string      `json:"id,omitempty"`
	Name     string      `json:"name"`
	Response GeminiError `json:"response"`
}

// GeminiError is the response object of a refused call.
type GeminiError struct {
	Error string `json:"error"`
}

// OpenAIToolMessage is an OpenAI Chat Completions message answering a
// tool call.
type OpenAIToolMessage struct {
	Role       string `json:"role"` // always "tool"
	ToolCallID string `json:"tool_call_id"`
	Content    string `json:"content"`
}

// OpenAIFunctionCallOutput is an OpenAI Responses API input item
// answering a function_call item.
type OpenAIFunctionCallOutput struct {
	Type   string `json:"type"` // always "function_call_output"
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

// AnthropicToolResult is an Anthropic Messages tool_result content block.
type AnthropicToolResult struct {
	Type      string `json:"type"` // always "tool_result"
	ToolUseID string `json:"tool_use_id"`
	IsError   bool   `json:"is_error"`
	Content   string `json:"content"`
}

// Format implements [Result].
func (*GeminiResult) Format() Format { return Gemini }

// Format implements [Result].
func (*OpenAIToolMessage) Format() Format { return OpenAI }

// Format implements [Result].
func (*OpenAIFunctionCallOutput) Format() Format { return OpenAIResponses }

// Format implements [Result].
func (*AnthropicToolResult) Format() Format { return Anthropic }

// Text is what the model reads for a refused call: that it was refused,
// why and by which layer. It offers no way to appeal. A message longer
// than maxMessageBytes (it quotes a long name, path or argument) is
// clipped: its first messageHead and last messageTail bytes, cut at
// character boundaries, around a note of how many bytes were left out,
// so that a call cannot make its refusal as long as it likes.
func Text(c engine.CallDecision) string {
	return fmt.Sprintf("Tool call refused before execution: %s (reason: %s, layer: %s). It was not run.", clipMessage(c.Message), c.Reason, c.Layer)
}

// The clipping of a refusal's message in Text.
const (
	maxMessageBytes = 600
	messageHead     = 400
	messageTail     = 160
)

func clipMessage(m string) string {
	if len(m) <= maxMessageBytes {
		return m
	}
	head := m[:messageHead]
	for len(head) > 0 && !utf8.RuneStart(m[len(head)]) {
		head = head[:len(head)-1]
	}
	from := len(m) - messageTail
	for from < len(m) && !utf8.RuneStart(m[from]) {
		from++
	}
	return fmt.Sprintf("%s … [%d bytes left out] … %s", head, from-len(head), m[from:])
}

// Response is the synthetic tool result for one refused call in format
// f. It returns a [*CallError] (with Index 0) when the call cannot be
// answered in that shape.
func Response(f Format, c engine.CallDecision) (Result, error) {
	return response(f, 0, c)
}

func response(f Format, index int, c engine.CallDecision) (Result, error) {
	text := Text(c)
	id, idOK := c.ID.(string)
	idOK = idOK && id != ""
	switch f {
	case Gemini:
		name, ok := c.Name.(string)
		if !ok || name == "" {
			return nil, &CallError{Index: index, Format: f, Value: c.Name, Err: ErrInvalidName}
		}
		if !idOK && c.ID != nil {
			return nil, &CallError{Index: index, Format: f, Value: c.ID, Err: ErrInvalidID}
		}
		return &GeminiResult{FunctionResponse: GeminiFunctionResponse{ID: id, Name: name, Response: GeminiError{Error: text}}}, nil
	case OpenAI, OpenAIResponses, Anthropic:
		if !idOK {
			return nil, &CallError{Index: index, Format: f, Value: c.ID, Err: ErrInvalidID}
		}
	default:
		return nil, fmt.Errorf("unknown wire format %q (want one of %v)", f, Formats)
	}
	switch f {
	case OpenAI:
		return &OpenAIToolMessage{Role: "tool", ToolCallID: id, Content: text}, nil
	case OpenAIResponses:
		return &OpenAIFunctionCallOutput{Type: "function_call_output", CallID: id, Output: text}, nil
	default:
		return &AnthropicToolResult{Type: "tool_result", ToolUseID: id, IsError: true, Content: text}, nil
	}
}

// Split separates a decision's calls: the allowed ones, in order, go on
// to the runtime untouched; every refused one gets its synthetic result
// in format f, in order. A refused call that cannot be answered in f has
// no result: refused holds the others, and err joins one [*CallError]
// per such call. An unknown format is an error and nothing else.
func Split(f Format, d *engine.Decision) (allowed []engine.CallDecision, refused []Result, err error) {
	var errs []error
	for i, c := range d.Decisions {
		if c.Allowed {
			allowed = append(allowed, c)
			continue
		}
		r, err := response(f, i, c)
		var callErr *CallError
		switch {
		case errors.As(err, &callErr):
			errs = append(errs, err)
			continue
		case err != nil:
			return nil, nil, err
		}
		refused = append(refused, r)
	}
	return allowed, refused, errors.Join(errs...)
}
