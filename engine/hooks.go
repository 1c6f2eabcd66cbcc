package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
)

// ErrNoHooks is wrapped by the errors of [Engine.HookRequest] and
// [Engine.HookAnswer] on a bundle that does not define the hook rules
// (hook_request and hook_answer of its host interface).
var ErrNoHooks = errors.New("the bundle does not define the hook rules (hook_request and hook_answer of its host interface): build it from a policy that has policies/tooleval/hooks")

// hookQueries are the prepared hook rules of a policy.
type hookQueries struct {
	request, answer rego.PreparedEvalQuery
}

// prepareHooks prepares the hook rules the host interface names, or
// returns nil when the bundle does not define them.
func prepareHooks(ctx context.Context, compiler *ast.Compiler, store storage.Store, ep entryPoints) (*hookQueries, error) {
	if ep.hookRequest == "" || ep.hookAnswer == "" || len(missingRules(compiler, []string{ep.hookRequest, ep.hookAnswer})) > 0 {
		return nil, nil
	}
	h := &hookQueries{}
	for query, target := range map[string]*rego.PreparedEvalQuery{
		ep.hookRequest + "(input.runtime, input.payload)":                &h.request,
		ep.hookAnswer + "(input.runtime, input.request, input.decision)": &h.answer,
	} {
		var err error
		*target, err = rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
		if err != nil {
			return nil, fmt.Errorf("prepare %s: %w", query, err)
		}
	}
	return h, nil
}

// HookRequest is a runtime's hook payload as the policy read it
// (data.tooleval.hooks.request): the decision input of its one call and
// the session it belongs to, or the reason it is refused unread.
type HookRequest struct {
	// Runtime is the runtime's name in the policy: claude_code, gemini
	// or codex.
	Runtime string
	// Input is the decision input (agent, declared, calls, workspace?);
	// nil when Refusal says why the payload is refused.
	Input ast.Value
	// Static is Input without its calls: a session's static document.
	Static ast.Value
	// Calls is Input's calls.
	Calls ast.Value
	// SessionID and AgentID name the runtime's session and, inside a
	// sub-agent, the sub-agent ("" on the main thread).
	SessionID, AgentID string
	// Refusal is why the payload is refused; "" when Input is set.
	Refusal string

	value ast.Value // the policy's request document
}

// HookAnswer is the policy's answer to a hook (data.tooleval.hooks.answer).
type HookAnswer struct {
	// Outcome is what the runtime is told: allow, ask or deny (an ask
	// the runtime cannot put to a person is deny).
	Outcome Outcome `json:"outcome"`
	// Message is the reason given with an ask or a deny.
	Message string `json:"message"`
	// Output is the runtime's hook output document.
	Output json.RawMessage `json:"output"`
}

// HookRequest reads a runtime's hook payload with the policy. An error
// (no hook rules in the bundle, an evaluation error or timeout, a
// document that is not a request) comes with a nil request: the caller
// answers with the runtime's deny form.
func (e *Engine) HookRequest(ctx context.Context, runtime string, payload ast.Value) (*HookRequest, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	p := e.current.Load()
	if p.hooks == nil {
		return nil, ErrNoHooks
	}
	input := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("runtime"), ast.StringTerm(runtime)},
		[2]*ast.Term{ast.StringTerm("payload"), ast.NewTerm(payload)},
	)
	value, err := evalAST(ctx, p.hooks.request, input)
	if err != nil {
		return nil, fmt.Errorf("read the %s hook payload: %w", runtime, err)
	}
	return decodeHookRequest(runtime, value)
}

func decodeHookRequest(runtime string, value ast.Value) (*HookRequest, error) {
	obj, ok := value.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("the policy's hook request is not an object: %v", value)
	}
	r := &HookRequest{Runtime: runtime, value: value}
	if refusal, ok := typedMember[ast.String](obj, "refusal"); ok {
		r.Refusal = string(refusal)
		return r, nil
	}
	input, ok := typedMember[ast.Object](obj, "input")
	if !ok {
		return nil, fmt.Errorf("the policy's hook request has neither input nor refusal: %v", value)
	}
	calls := input.Get(ast.StringTerm("calls"))
	session, okS := typedMember[ast.Object](obj, "session")
	if calls == nil || !okS {
		return nil, fmt.Errorf("the policy's hook request lacks calls or a session: %v", value)
	}
	id, okID := typedMember[ast.String](session, "id")
	if !okID {
		return nil, fmt.Errorf("the policy's hook request lacks calls or a session id: %v", value)
	}
	r.Input, r.Calls = input, calls.Value
	r.Static = withoutBatch(input)
	r.SessionID = string(id)
	if agent, ok := typedMember[ast.String](session, "agent"); ok {
		r.AgentID = string(agent)
	}
	return r, nil
}

// HookAnswer is the policy's answer to a request given the decision of
// its input (nil for a refused request). An error (no hook rules, an
// evaluation error, an answer that cannot be read) comes with a nil
// answer: the caller answers with the runtime's deny form.
func (e *Engine) HookAnswer(ctx context.Context, r *HookRequest, d *Decision) (*HookAnswer, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	p := e.current.Load()
	if p.hooks == nil {
		return nil, ErrNoHooks
	}
	var decision ast.Value = ast.Null{}
	if d != nil {
		v, err := d.ast()
		if err != nil {
			return nil, err
		}
		decision = v
	}
	input := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("runtime"), ast.StringTerm(r.Runtime)},
		[2]*ast.Term{ast.StringTerm("request"), ast.NewTerm(r.value)},
		[2]*ast.Term{ast.StringTerm("decision"), ast.NewTerm(decision)},
	)
	value, err := evalAST(ctx, p.hooks.answer, input)
	if err != nil {
		return nil, fmt.Errorf("answer the %s hook: %w", r.Runtime, err)
	}
	return decodeHookAnswer(value)
}

// decodeHookAnswer reads the policy's answer {outcome, message, output}.
func decodeHookAnswer(value ast.Value) (*HookAnswer, error) {
	obj, ok := value.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("the policy's hook answer is not an object: %v", value)
	}
	outcome, okO := typedMember[ast.String](obj, "outcome")
	message, okM := typedMember[ast.String](obj, "message")
	output := obj.Get(ast.StringTerm("output"))
	if !okO || !okM || output == nil {
		return nil, fmt.Errorf("the policy's hook answer is not {outcome, message, output}: %v", value)
	}
	o := Outcome(outcome)
	if o != OutcomeAllow && o != OutcomeAsk && o != OutcomeDeny {
		return nil, fmt.Errorf("the policy's hook answer has outcome %q", o)
	}
	doc, err := ast.JSON(output.Value)
	if err != nil {
		return nil, fmt.Errorf("read the hook output: %w", err)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("write the hook output: %w", err)
	}
	return &HookAnswer{Outcome: o, Message: string(message), Output: raw}, nil
}

// ast returns the decision document as AST.
func (d *Decision) ast() (ast.Value, error) {
	if d.value != nil {
		return d.value, nil
	}
	v, err := ast.InterfaceToValue(d.document)
	if err != nil {
		return nil, fmt.Errorf("read the decision document: %w", err)
	}
	return v, nil
}
