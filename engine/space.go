package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// verifyQueries are the prepared queries of `tooleval verify`'s entry
// points (the host interface's verify_space, verify_stacks and
// verify_catalogs).
type verifyQueries struct {
	space, stacks, catalogs rego.PreparedEvalQuery
}

// ErrNoVerify is wrapped by the error of [Engine.Space] and
// [Engine.Stacks] on a bundle that does not define the rules `tooleval
// verify` reads.
var ErrNoVerify = errors.New("the bundle does not define the rules tooleval verify reads (verify_space and verify_stacks of its host interface): build it from a policy that has policies/tooleval/verify")

func (e *Engine) verifyQueries() (*verifyQueries, error) {
	if q := e.current.Load().verify; q != nil {
		return q, nil
	}
	return nil, ErrNoVerify
}

// Space is what `tooleval verify` enumerates for the engine's
// configuration, as the policy reads it (data.tooleval.verify.space,
// policies/tooleval/verify/space.rego): who can ask, every tool name the
// preset and the configuration know, and the lists whose promise the
// invariants hold the decisions to.
type Space struct {
	// Agents, Tenants, Scopes and Users are the keys of config.agents,
	// config.tenants, config.scopes and config.mcp_user_services, sorted.
	Agents  []string `json:"agents"`
	Tenants []string `json:"tenants"`
	Scopes  []string `json:"scopes"`
	Users   []string `json:"users"`
	// BuiltinAgents are the keys of config.agents whose definition says
	// builtin: the custom_agents stage spares them.
	BuiltinAgents []string `json:"builtin_agents"`
	// MaxDepth is the depth cap in force; sub-agents are enumerated at
	// depths 1 to MaxDepth+1.
	MaxDepth int `json:"max_depth"`
	// Modes says which agent modes (async, teammate, coordinator,
	// read_only, leaf) some part of the policy reads.
	Modes map[string]bool `json:"modes"`
	// Tools is one declaration per known tool name, a witness for each
	// wildcard entry ({"name"} or {"name", "mcp": {"server", "tool"}}).
	Tools []map[string]any `json:"tools"`
	// Exclusions are the runtime exclusions as promised: the floor's
	// whole lists (before floor exceptions) and the additions.
	Exclusions map[string][]any `json:"exclusions"`
	// SpawnTools are the entries of the tools that launch a sub-agent:
	// the runtime's, and without a preset every preset's runtime's.
	SpawnTools []any `json:"spawn_tools"`
	// Errors are what verify cannot read exactly in the configuration
	// as written (a spawn tool its preset replaces: spawn_tool_mismatch),
	// each with its location; nil when the bundle does not say.
	Errors []Problem `json:"errors"`
	// DenyLists are the configured deny lists and whom each applies to.
	DenyLists []SpaceList `json:"deny_lists"`
	// Plans are the tenants' plans: an allow list, or nil for every tool.
	Plans map[string]any `json:"plans"`
}

// SpaceList is one configured deny list: its location, its entries
// (argument rules left out) and whom it applies to: "all", "subagent",
// "custom" (a sub-agent whose definition is not builtin) or
// {"agent": NAME}.
type SpaceList struct {
	Field   string `json:"field"`
	List    []any  `json:"list"`
	Applies any    `json:"applies"`
}

// Space evaluates data.tooleval.verify.space, the space `tooleval
// verify` enumerates for the engine's configuration.
func (e *Engine) Space(ctx context.Context) (*Space, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	q, err := e.verifyQueries()
	if err != nil {
		return nil, err
	}
	value, err := evalAST(ctx, q.space, ast.NewObject())
	if err != nil {
		return nil, err
	}
	s := &Space{}
	if err := decodeInto(value, s); err != nil {
		return nil, err
	}
	return s, nil
}

// Stacks gives, for each decision input of inputs, what its name-level
// verdicts depend on besides its declared tools
// (data.tooleval.verify.stacks: its errors and compiled checks), as
// canonical JSON: two inputs with the same stack and the same declared
// tools get the same catalog ([Engine.Tools]). `tooleval verify` asks
// for one catalog per distinct stack. One evaluation reads the
// configuration once for all the inputs.
func (e *Engine) Stacks(ctx context.Context, inputs []ast.Value) ([]string, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	terms := make([]*ast.Term, len(inputs))
	for i, in := range inputs {
		terms[i] = ast.NewTerm(in)
	}
	q, err := e.verifyQueries()
	if err != nil {
		return nil, err
	}
	value, err := evalAST(ctx, q.stacks, ast.NewArray(terms...))
	if err != nil {
		return nil, err
	}
	arr, ok := value.(*ast.Array)
	if !ok || arr.Len() != len(inputs) {
		return nil, fmt.Errorf("%w: %d stacks for %d inputs", ErrShape, arrLen(arr), len(inputs))
	}
	out := make([]string, len(inputs))
	for i := range out {
		x, err := ast.JSON(arr.Elem(i).Value)
		if err != nil {
			return nil, fmt.Errorf("decode a stack: %w", err)
		}
		b, err := json.Marshal(x)
		if err != nil {
			return nil, fmt.Errorf("encode a stack: %w", err)
		}
		out[i] = string(b)
	}
	return out, nil
}

func arrLen(a *ast.Array) int {
	if a == nil {
		return -1
	}
	return a.Len()
}

// Catalogs gives the catalog ([Engine.Tools]) of each of requests with
// declared declared (data.tooleval.verify.catalogs): one evaluation,
// which reads the declared tools once. A request's own declared tools
// are ignored.
func (e *Engine) Catalogs(ctx context.Context, declared []any, requests []ast.Value) ([]*Catalog, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	q, err := e.verifyQueries()
	if err != nil {
		return nil, err
	}
	d, err := toValue(declared)
	if err != nil {
		return nil, err
	}
	terms := make([]*ast.Term, len(requests))
	for i, r := range requests {
		terms[i] = ast.NewTerm(r)
	}
	input := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("declared"), ast.NewTerm(d)},
		[2]*ast.Term{ast.StringTerm("requests"), ast.ArrayTerm(terms...)},
	)
	value, err := evalAST(ctx, q.catalogs, input)
	if err != nil {
		return nil, err
	}
	arr, ok := value.(*ast.Array)
	if !ok || arr.Len() != len(requests) {
		return nil, fmt.Errorf("%w: %d catalogs for %d requests", ErrShape, arrLen(arr), len(requests))
	}
	out := make([]*Catalog, len(requests))
	for i := range out {
		c := &Catalog{}
		if err := decodeInto(arr.Elem(i).Value, c); err != nil {
			return nil, err
		}
		if err := checkToolVerdicts(c.Tools); err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}
