package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Check is the configuration report of data.tooleval.check, decoded.
type Check struct {
	// Errors are the errors a decision for the same input would carry;
	// any of them refuses every call.
	Errors []Problem `json:"errors"`
	// Warnings are valid configuration that can never do what it says
	// (duplicate, shadowed, unreachable or ineffective entries, agent tools naming no
	// declared tool, confusable declared names). They change no decision.
	Warnings []Problem `json:"warnings"`
	// AgentTools says, for an agent whose definition lists its tools,
	// which listed names match a declared tool; nil otherwise.
	AgentTools *AgentTools `json:"agent_tools"`
	// Revision is the manifest revision of the bundle that checked.
	Revision string `json:"-"`

	document any
}

// AgentTools is the resolution of an agent definition's tools against
// the declared tools: Invalid names match none (a warning, never a
// widening).
type AgentTools struct {
	Agent   string   `json:"agent"`
	Valid   []string `json:"valid"`
	Invalid []string `json:"invalid"`
}

// JSON is the check document exactly as the policy produced it.
func (c *Check) JSON() ([]byte, error) {
	return json.Marshal(c.document)
}

// Check evaluates data.tooleval.check for the engine's configuration and
// a decision input in any of its forms (see [JSON]; nil checks the
// configuration alone).
func (e *Engine) Check(ctx context.Context, input any) (*Check, error) {
	if input == nil {
		input = map[string]any{}
	}
	value, err := toValue(input)
	if err != nil {
		return nil, err
	}
	return e.checkValue(ctx, value)
}

func (e *Engine) checkValue(ctx context.Context, input ast.Value) (*Check, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	p := e.current.Load()
	c, err := p.evalCheck(ctx, input)
	var document any
	if c != nil {
		document = c.document
	}
	e.record(ctx, p, auditCheck, input, document, err)
	return c, err
}

func (p *policy) evalCheck(ctx context.Context, input ast.Value) (*Check, error) {
	value, err := evalAST(ctx, p.check, input)
	if err != nil {
		return nil, err
	}
	document, err := ast.JSON(value)
	if err != nil {
		return nil, fmt.Errorf("decode check: %w", err)
	}
	c := &Check{document: document, Revision: p.revision}
	if err := decodeInto(value, c); err != nil {
		return nil, err
	}
	return c, nil
}
