// Package corpus generates decision input documents for tests: realistic
// requests and nasty ones (colliding and look-alike names, MCP servers that
// sanitize alike, null versus empty lists, malformed entries, sub-agents at
// every depth, unclean paths, budgets at the edge). Generation is seeded
// and deterministic.
package corpus

import (
	"fmt"
	"math/rand/v2"
)

// Tools is the pool generated declarations draw from.
var builtins = []string{
	"read_file", "write_file", "edit", "apply_patch", "run_shell_command", "bash", "grep", "glob",
	"web_fetch", "web_search", "gateway", "agents_list", "session_status", "cron", "message",
	"sessions_send", "sessions_spawn", "sessions_list", "sessions_history", "subagents", "agent",
	"conversations_list", "Refund", "ＳＥＡＲＣＨ", "search", "se\u200barch", "straße", "STRASSE",
	"\u212aelvin", "kelvin", "debug_dump", "e\u0301", "mcp__fake__tool",
}

var servers = []string{"github", "foo.bar", "foo_bar", "GitHub", "jira", "", "a__b"}

var mcpTools = []string{"read_issue", "read_pr", "create_issue", "delete_repo", "query", "Read_Page"}

var validEntries = []string{
	"read_file", "write_file", "READ_FILE", "bash", "gateway", "sessions_spawn", "agent", "refund",
	"mcp__*", "mcp__github__*", "mcp__github__read_*", "mcp__foo.bar__*", "mcp__foo_bar__*",
	"mcp__jira__create_*", "mcp__github__read_issue", "group:read_only", "group:edit", "group:execution",
	"debug_*", "conversations_*", "search", "kelvin", "strasse",
	// bare servers and exact MCP names, raw and sanitized
	"mcp__github", "mcp__foo.bar", "mcp__foo_bar", "mcp__foo.bar__query", "mcp__foo_bar__query", "mcp__a__b__*",
}

var invalidEntries = []string{
	"*", " read_file", "", "read*file", "mcp____*", "mcp__github*", "group:nope", "e\u0301",
	"mcp__github __*", "mcp__github__\u3000*", "mcp__", "mcp____x", "a\u0345\u0323",
}

var paths = []string{
	"/ws/README.md", "/ws/src/main.go", "/ws/.git/hooks/pre-commit", "/ws/.gitignore", "/ws/.ssh/id_rsa",
	"/ws/target/x", "/skills/a/SKILL.md", "/etc/passwd", "/wsx/y", "relative/path", "/ws/../etc",
	"/ws//x", "/ws/a/", "/WS/.AWS/credentials", "/",
	// spellings a case-insensitive file system treats alike
	"/ws/.\u017fsh/authorized_keys", "/ws/.g\u0131t/hooks/pre-commit", "/ws/.ssh./k", "/ws/Target/x",
	"/ws/.\uff33\uff33\uff28/k", "/ws/a\u0301\u0300\u0323/x",
	// never expanded
	"~/.bashrc", "$HOME/.bashrc",
}

// Generator produces documents from a seeded random source.
type Generator struct {
	rng *rand.Rand
}

// New returns a generator seeded with seed.
func New(seed uint64) *Generator {
	return &Generator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (g *Generator) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func (g *Generator) chance(p float64) bool { return g.rng.Float64() < p }

// Decision returns one decision input document; one in five is about
// argument rules (argumentDecision).
func (g *Generator) Decision() map[string]any {
	if g.chance(0.2) {
		return g.argumentDecision()
	}
	doc := map[string]any{}
	if g.chance(0.9) {
		doc["agent"] = g.agent()
	}
	declared := g.declared()
	doc["declared"] = declared
	if g.chance(0.85) {
		doc["layers"] = g.layers(declared)
	}
	doc["calls"] = g.calls(declared)
	if g.chance(0.4) {
		doc["workspace"] = g.workspace()
	}
	if g.chance(0.3) {
		doc["run"] = g.run()
	}
	if g.chance(0.05) {
		g.corrupt(doc)
	}
	return doc
}

// Decisions returns n documents.
func (g *Generator) Decisions(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = g.Decision()
	}
	return out
}

func (g *Generator) agent() any {
	switch g.rng.IntN(10) {
	case 0:
		return map[string]any{"role": "main", "depth": 0}
	case 1:
		return map[string]any{"role": g.pick([]string{"subagent", "fork"}), "depth": 1 + g.rng.IntN(7)}
	case 2:
		return map[string]any{"role": "subagent"} // missing depth
	case 3:
		return map[string]any{"role": "root", "depth": 0}
	case 4:
		return "main"
	default:
		role := g.pick([]string{"main", "subagent", "fork"})
		depth := 0
		if role != "main" {
			depth = 1 + g.rng.IntN(6)
		}
		a := map[string]any{"name": "agent-" + fmt.Sprint(g.rng.IntN(5)), "role": role, "depth": depth}
		if g.chance(0.1) {
			a["leaf"] = []any{true, false, "yes"}[g.rng.IntN(3)]
		}
		return a
	}
}

func (g *Generator) declared() []any {
	n := g.rng.IntN(12)
	out := make([]any, 0, n+2)
	if g.chance(0.3) { // the tools argument rules read
		out = append(out, map[string]any{"name": g.pick([]string{"run_shell_command", "bash"})}, map[string]any{"name": "web_fetch"})
	}
	for range n {
		switch g.rng.IntN(10) {
		case 0, 1, 2:
			server, tool := g.pick(servers), g.pick(mcpTools)
			out = append(out, map[string]any{"name": "mcp__" + sanitize(server) + "__" + tool,
				"mcp": map[string]any{"server": server, "tool": tool}})
		case 3:
			out = append(out, map[string]any{"name": "peer_" + fmt.Sprint(g.rng.IntN(3)), "agent": true})
		case 4:
			if g.chance(0.3) {
				out = append(out, map[string]any{"name": 7})
			} else {
				out = append(out, map[string]any{"name": g.pick(builtins)})
			}
		default:
			out = append(out, map[string]any{"name": g.pick(builtins)})
		}
	}
	return out
}

// sanitize is what a provider does to a server name in a function name.
func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '.' {
			b[i] = '_'
		}
	}
	return string(b)
}

func (g *Generator) list() any {
	switch g.rng.IntN(8) {
	case 0:
		return nil
	case 1:
		return []any{}
	case 2:
		if g.chance(0.3) {
			return "read_file"
		}
	}
	n := 1 + g.rng.IntN(5)
	out := make([]any, 0, n)
	for range n {
		if g.chance(0.08) {
			out = append(out, g.pick(invalidEntries))
		} else {
			out = append(out, g.pick(validEntries))
		}
	}
	return out
}

// askList is an ask list: mostly a few entries naming the request's
// declared tools (as declared, or a valid entry), so that calls the other
// lists let through meet it; sometimes what list gives.
func (g *Generator) askList(declared []any) any {
	if g.chance(0.2) {
		return g.list()
	}
	out := make([]any, 0, 3)
	for range 1 + g.rng.IntN(3) {
		if d, ok := g.declaredName(declared); ok && g.chance(0.7) {
			out = append(out, d)
		} else {
			out = append(out, g.pick(validEntries))
		}
	}
	return out
}

// declaredName is the name of one of declared's tools, when it has one
// that is a string.
func (g *Generator) declaredName(declared []any) (string, bool) {
	if len(declared) == 0 {
		return "", false
	}
	d, _ := declared[g.rng.IntN(len(declared))].(map[string]any)
	name, ok := d["name"].(string)
	return name, ok
}

// pathValue is a path argument: usually one path, sometimes a list of
// them or a value that is not a path at all.
func (g *Generator) pathValue() any {
	switch g.rng.IntN(12) {
	case 0:
		return []any{g.pick(paths), g.pick(paths)}
	case 1:
		return []any{g.pick(paths), nil}
	case 2:
		return []any{nil, 3, true, map[string]any{}}[g.rng.IntN(4)]
	}
	return g.pick(paths)
}

func (g *Generator) layers(declared []any) []any {
	names := []string{"agent", "tenant", "caller", "fork", "peer:researcher", "peer:summarizer"}
	n := g.rng.IntN(5)
	out := make([]any, 0, n)
	for i := range n {
		layer := map[string]any{"name": names[i%len(names)]}
		if g.chance(0.8) {
			layer["allow"] = g.list()
		}
		if g.chance(0.4) {
			layer["deny"] = g.list()
		}
		if g.chance(0.35) {
			layer["ask"] = g.askList(declared)
		}
		if g.chance(0.3) {
			g.addArgumentRules(layer)
		}
		if g.chance(0.15) {
			layer["otherwise"] = []any{"ask", "ask", "deny", nil, "Ask"}[g.rng.IntN(5)]
		}
		if g.chance(0.2) {
			layer["message"] = g.pick([]string{"ask a human", "Refunds need a ticket: https://help.example.com", "ＳＴＯＰ %s \n", ""})
		}
		if g.chance(0.02) {
			out = append(out, nil)
			continue
		}
		out = append(out, layer)
	}
	return out
}

func (g *Generator) calls(declared []any) []any {
	n := g.rng.IntN(8)
	out := make([]any, 0, n)
	for i := range n {
		var name any
		switch {
		case len(declared) > 0 && g.chance(0.6):
			if d, ok := declared[g.rng.IntN(len(declared))].(map[string]any); ok {
				name = d["name"]
			}
		case g.chance(0.05):
			name = nil
		default:
			name = g.pick(builtins)
		}
		call := map[string]any{"id": fmt.Sprintf("call_%d", i), "name": name}
		if g.chance(0.03) {
			call["id"] = "dup"
		}
		if g.chance(0.5) {
			call["args"] = g.args(name)
		}
		out = append(out, call)
	}
	if g.chance(0.03) {
		out = append(out, "not a call")
	}
	return out
}

func (g *Generator) workspace() any {
	if g.chance(0.05) {
		return "/ws"
	}
	ws := map[string]any{"root": "/ws"}
	if g.chance(0.5) {
		ws["read_roots"] = []any{"/skills"}
	}
	if g.chance(0.5) {
		ws["excluded"] = []any{".git", "target"}
	}
	if g.chance(0.2) {
		ws["allow_outside"] = true
	}
	return ws
}

func (g *Generator) run() any {
	if g.chance(0.05) {
		return map[string]any{"attempts": -1}
	}
	run := map[string]any{"attempts": g.rng.IntN(25), "refusals": g.rng.IntN(10)}
	if g.chance(0.7) {
		run["max_attempts"] = 20 + g.rng.IntN(10)
	}
	if g.chance(0.5) {
		run["max_refusals"] = 5 + g.rng.IntN(10)
	}
	return run
}

// corrupt replaces one member with a value of the wrong type.
func (g *Generator) corrupt(doc map[string]any) {
	key := g.pick([]string{"agent", "declared", "layers", "calls", "workspace", "run"})
	doc[key] = []any{"wrong", 1, nil}[g.rng.IntN(3)]
}

// Launch returns one launch input document.
func (g *Generator) Launch() map[string]any {
	doc := map[string]any{"declared": g.declared()}
	if g.chance(0.85) {
		doc["subagent_type"] = g.pick([]string{"fork", "fork", "fork", "researcher", ""})
	}
	if g.chance(0.8) {
		doc["fork_tools"] = g.list()
	}
	if g.chance(0.15) {
		doc["teammate"] = g.pick([]string{"alice", ""})
	}
	if g.chance(0.9) {
		doc["agent"] = g.agent()
	}
	if g.chance(0.03) {
		doc["fork_tools"] = map[string]any{"read_file": true}
	}
	return doc
}

// Launches returns n launch documents.
func (g *Generator) Launches(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = g.Launch()
	}
	return out
}
