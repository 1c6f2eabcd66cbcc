// Package verifyquery is how tooleval verify asks the engine what is not
// the engine's public API: the space verify enumerates
// (data.tooleval.verify.space), the stacks of many decision inputs and
// the catalogs of many requests, each in one evaluation. The engine sets
// the functions in its init, the way grpc's internal package gives its
// own packages what the public API does not: a program that imports the
// engine has them set, and nothing outside this module can call them.
package verifyquery

import (
	"context"
	"errors"

	"github.com/open-policy-agent/opa/v1/ast"
)

// ErrNoVerify is wrapped by the error of each query on a bundle that
// does not define the rules tooleval verify reads.
var ErrNoVerify = errors.New("the bundle does not define the rules tooleval verify reads (verify_space, verify_stacks and verify_catalogs of its host interface): build it from a policy that has policies/tooleval/verify")

// The queries, set by the engine's init. Engine is an *engine.Engine;
// any other value is an error.
var (
	// ReadSpace evaluates data.tooleval.verify.space, the space verify
	// enumerates for the engine's configuration.
	ReadSpace func(ctx context.Context, engine any) (*Space, error)
	// Stacks gives, for each decision input of inputs, what its
	// name-level verdicts depend on besides its declared tools
	// (data.tooleval.verify.stacks), as canonical JSON: two inputs with
	// the same stack and the same declared tools get the same catalog.
	Stacks func(ctx context.Context, engine any, inputs []ast.Value) ([]string, error)
	// Catalogs gives the catalog (what engine.Engine.Tools gives, as
	// *engine.Catalog) of each of requests with declared declared
	// (data.tooleval.verify.catalogs): one evaluation, which reads the
	// declared tools once. A request's own declared tools are ignored.
	Catalogs func(ctx context.Context, engine any, declared []any, requests []ast.Value) ([]any, error)
)

// Space is what tooleval verify enumerates for the engine's
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
	// each a problem document with its location; nil when the bundle
	// does not say.
	Errors []map[string]any `json:"errors"`
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
