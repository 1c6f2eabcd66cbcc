// Package benchload is the benchmark workload shared by the engine's
// benchmarks and the Cedar comparison: n declared tools, five layers of 20
// entries, and a batch of 10 calls.
package benchload

import "fmt"

// Sizes are the declared-tool counts the benchmarks run at.
var Sizes = []int{100, 1000, 10000}

// Request is the benchmark workload for n declared tools: 40%
// built-ins and 60% MCP tools over n/20 servers, five layers of 20
// entries each, and a batch of 10 calls of which 6 are allowed and 4 are
// refused by different checks (undeclared, a deny, an allow list, a path).
func Request(n int) (static map[string]any, calls []any) {
	servers := max(n/20, 1)
	declared := make([]any, 0, n)
	for i := range n * 4 / 10 {
		name := fmt.Sprintf("tool_%d", i)
		switch i {
		case 0:
			name = "read_file"
		case 1:
			name = "write_file"
		}
		declared = append(declared, map[string]any{"name": name})
	}
	for i := range n - len(declared) {
		server := fmt.Sprintf("srv%d", i%servers)
		tool := fmt.Sprintf("read_%d", i/servers)
		if i/servers%2 == 1 {
			tool = fmt.Sprintf("write_%d", i/servers)
		}
		declared = append(declared, map[string]any{"name": "mcp__" + server + "__" + tool, "mcp": map[string]any{"server": server, "tool": tool}})
	}
	layers := make([]any, 5)
	for l := range layers {
		allow := []any{"read_file", "write_file", "tool_2", "tool_3", "tool_4", "mcp__srv0__*", "mcp__srv1__read_*", "mcp__srv2__read_0"}
		for len(allow) < 20 {
			allow = append(allow, fmt.Sprintf("tool_%d", 5+len(allow)+l))
		}
		layer := map[string]any{"name": fmt.Sprintf("layer%d", l), "allow": allow}
		if l == 2 {
			layer["deny"] = []any{"tool_4"}
		}
		if l == 4 {
			layer["allow"] = append(allow[:len(allow)-1:len(allow)-1], "mcp__srv3__*")
			layer["allow"] = removeEntry(layer["allow"].([]any), "tool_3")
		}
		layers[l] = layer
	}
	static = map[string]any{
		"agent":     map[string]any{"name": "bench", "role": "main", "depth": 0},
		"declared":  declared,
		"layers":    layers,
		"workspace": map[string]any{"root": "/ws"},
	}
	calls = []any{
		call("c0", "read_file", map[string]any{"path": "/ws/src/main.go"}), // allowed, path checked
		call("c1", "tool_2", nil),                                       // allowed
		call("c2", "mcp__srv0__read_0", nil),                            // allowed, server wildcard
		call("c3", "mcp__srv1__read_0", nil),                            // allowed, prefix wildcard
		call("c4", "mcp__srv2__read_0", nil),                            // allowed, MCP exact
		call("c5", "TOOL_2", nil),                                       // allowed, canonical form
		call("c6", "no_such_tool", nil),                                 // not_declared
		call("c7", "tool_4", nil),                                       // denied by layer2
		call("c8", "tool_3", nil),                                       // not_allowed by layer4
		call("c9", "write_file", map[string]any{"path": "/etc/passwd"}), // path
	}
	return static, calls
}

func removeEntry(list []any, entry string) []any {
	out := list[:0:0]
	for _, e := range list {
		if e != entry {
			out = append(out, e)
		}
	}
	return out
}

func call(id, name string, args map[string]any) map[string]any {
	c := map[string]any{"id": id, "name": name}
	if args != nil {
		c["args"] = args
	}
	return c
}

// Full is Request as one full input document.
func Full(n int) map[string]any {
	static, calls := Request(n)
	full := map[string]any{"calls": calls}
	for k, v := range static {
		full[k] = v
	}
	return full
}

// WantAllowed is the verdict every implementation must reach, per call.
var WantAllowed = []bool{true, true, true, true, true, true, false, false, false, false}
