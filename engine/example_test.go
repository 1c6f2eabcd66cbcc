package engine_test

import (
	"context"
	"fmt"

	"github.com/tooleval/tooleval/engine"
)

// New loads the policy bundle embedded in the binary.
func ExampleNew() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	d, err := e.DecideJSON(ctx, []byte(`{
		"declared": [{"name": "read_file"}, {"name": "Refund"}],
		"layers": [{"name": "tenant", "allow": ["read_file"]}],
		"calls": [{"id": "call_1", "name": "read_file"}, {"id": "call_2", "name": "Refund"}]
	}`))
	if err != nil {
		panic(err)
	}
	for _, c := range d.Decisions {
		if c.Allowed {
			fmt.Println(c.ID, "allowed")
		} else {
			fmt.Println(c.ID, "refused:", c.Message)
		}
	}
	// Output:
	// call_1 allowed
	// call_2 refused: tool "Refund" is not permitted: refused by layer "tenant"
}

// A session compiles the agent's static request once and decides each
// dispatch batch against it.
func ExampleSession_Decide() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	s, err := e.NewSession(ctx, engine.SessionConfig{
		Agent: &engine.Agent{Name: "researcher", Role: "subagent", Depth: 1},
		Declared: []engine.Declaration{
			{Name: "web_search"},
			{Name: "gateway"},
			{Name: "mcp__github__read_issue", MCP: &engine.MCPIdentity{Server: "github", Tool: "read_issue"}},
		},
		Layers: []engine.Layer{{Name: "agent", Allow: []string{"web_search", "gateway", "mcp__github__read_*"}}},
	})
	if err != nil {
		panic(err)
	}
	d, err := s.Decide(ctx, []engine.Call{
		{ID: "c1", Name: "web_search", Args: map[string]any{"query": "rego"}},
		{ID: "c2", Name: "gateway"},
		{ID: "c3", Name: "mcp__github__read_issue"},
	})
	if err != nil {
		panic(err)
	}
	for _, c := range d.Decisions {
		if c.Allowed {
			fmt.Println(c.ID, "allowed")
		} else {
			fmt.Println(c.ID, "refused:", c.Reason, "by", c.Layer)
		}
	}
	fmt.Println(d.Effective)
	// Output:
	// c1 allowed
	// c2 refused: excluded by subagent_hard_deny
	// c3 allowed
	// [mcp__github__read_issue web_search]
}

// Launch validates a fork launch and returns the allowlist to persist and
// the notice for the fork's task prompt.
func ExampleEngine_Launch() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	l, err := e.Launch(ctx, map[string]any{
		"subagent_type": "fork",
		"fork_tools":    []string{"read_file", "mcp__github__read_*"},
		"declared": []engine.Declaration{
			{Name: "read_file"},
			{Name: "write_file"},
			{Name: "mcp__github__read_issue", MCP: &engine.MCPIdentity{Server: "github", Tool: "read_issue"}},
		},
		"agent": engine.Agent{Role: "main", Depth: 0},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Valid, l.ExecutionAllowedTools)
	fmt.Println(l.Notice)
	// Output:
	// true [read_file mcp__github__read_*]
	// Tool restriction: in this fork you may execute only these tools: mcp__github__read_issue, read_file. Calls to any other tool are refused before they run.
}
