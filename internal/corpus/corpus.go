// Package corpus generates decision input documents for tests: realistic
// requests and nasty ones (colliding and look-alike names, MCP servers that
// sanitize alike, null versus empty lists, malformed entries, sub-agents at
// every depth, unclean paths, budgets at the edge). Generation is seeded
// and deterministic.
package corpus

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
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

// Argument rules (docs/contract.md, Argument rules): commands and URLs
// from small vocabularies, so that rules and calls meet, with the
// spellings a rule must not be fooled by.
var (
	ruleTools    = []string{"run_shell_command", "run_shell_command", "bash", "web_fetch", "read_file"}
	ruleCommands = []string{"git status", "git push", "ls", "rm", "npm run", "git", "'git' status", "ls -la"}
	ruleDomains  = []string{"*.example.com", "example.com", "evil.net", "*", "a.example.com"}
	// globs over the corpus's paths (workspace /ws); the last few are not
	// globs
	rulePaths = []string{
		"src/**", "*.md", ".git", "/ws/**", "/etc/**", "/", "**", "./src", "/ws/.git/hooks", ".ssh", "/WS",
		"/skills/*/SKILL.md", "?eadme.md", "README.md", "../x", "a/**b",
	}
	ruleArgsPatterns = []string{
		``, `^\{"command":"ls`, `"path":"/ws/`, `git`, `&&`, `^\{"prompt":"summarize"`, `^\{\}$`, `^\{"url":"https://[a-z.]*example\.com/"\}$`, `(`,
	}
	ruleArgs = []map[string]any{
		{"command": "ls"}, {"command": "LS"}, {"path": "/ws/README.md"}, {"path": "/WS/readme.md"}, {"url": "https://example.com/"},
		{"prompt": "SUMMARIZE"}, {"prompt": "summarize"}, {"cwd": "/ws/src/main.go", "command": "ls"}, {},
	}
	ruleWildcards = []string{"git * status", "git *", "ls *", "rm *", "git push * --force*", "npm run t*", "git -*", "* x", "git '*'", "sudo *"}
	// rules that are configuration errors (wherever they are, or in an
	// allow list)
	invalidRules = []map[string]any{
		{"tool": "run_*", "command_prefix": "ls"}, {"tool": "bash", "command_prefix": "ls && rm"},
		{"tool": "bash", "command": ""}, {"tool": "bash", "command_prefix": "sudo ls"},
		{"tool": "web_fetch", "domain": "Example.com"}, {"tool": "bash", "command_prefix": "ls", "note": "x"},
		{"command_prefix": "ls"}, {"tool": "bash", "command": "ls", "domain": "a.com"},
	}
	programs   = []string{"git", "git", "ls", "rm", "npm", "/usr/bin/git", "GIT", "sudo", "env", "sh", "'ls'"}
	words      = []string{"status", "push", "-la", "-C", ".", "run", "test", "origin", "--force", "\"x y\"", "'q z'"}
	separators = []string{"; ", " && ", " || ", " | ", " & ", "\n", " ;; "}
	unreadable = []string{"$(id)", "`id`", "> out", "*", "~", "X=1", "<(ls)", "a\\ b", "#c", "(ls)", "\u00e9", "'open"}
	urls       = []any{
		"https://a.example.com/x", "https://example.com/", "http://EVIL.net./", "https://b.a.example.com:8080/p?q#f",
		"https://a.example.com@evil.net/", "https://evil.net@a.example.com/", "ftp://a.example.com/", "https://evil.net/",
		"https://a.example.com.evil.net/", "not a url", 7, nil, "https://-x.example.com/", "HTTPS://A.EXAMPLE.COM/",
		"evil.net:8080/x", "https://evil.net%3a443/", "http://evil.ne[s-t]/", "http://{a.example.com,evil.net}/", "http://a.example.com;evil.net/",
	}
)

// argumentDecision is a document whose calls argument rules decide:
// shell and web tools declared, one to three layers of mostly valid
// argument rules (and a few name entries), and calls of those tools with
// generated commands and URLs.
func (g *Generator) argumentDecision() map[string]any {
	declared := []any{
		map[string]any{"name": "run_shell_command"}, map[string]any{"name": "bash"},
		map[string]any{"name": "web_fetch"}, map[string]any{"name": "read_file"},
	}
	var layers []any
	for i := range 1 + g.rng.IntN(3) {
		layer := map[string]any{"name": []string{"agent", "tenant", "caller"}[i]}
		if g.chance(0.3) {
			layer["allow"] = []any{g.pick([]string{"read_file", "bash", "web_fetch", "group:read_only"})}
		}
		g.addArgumentRules(layer)
		if g.chance(0.3) {
			g.addArgumentRules(layer)
		}
		layers = append(layers, layer)
	}
	var calls []any
	for i := range 1 + g.rng.IntN(8) {
		name := g.pick([]string{"run_shell_command", "run_shell_command", "bash", "web_fetch", "read_file"})
		calls = append(calls, map[string]any{"id": fmt.Sprintf("call_%d", i), "name": name, "args": g.args(name)})
	}
	doc := map[string]any{"declared": declared, "layers": layers, "calls": calls}
	if g.chance(0.2) {
		doc["run"] = g.run()
	}
	if g.chance(0.45) {
		doc["workspace"] = g.workspace()
	}
	return doc
}

// addArgumentRules puts one to three argument rules in the layer's lists.
func (g *Generator) addArgumentRules(layer map[string]any) {
	for range 1 + g.rng.IntN(3) {
		list := g.pick([]string{"allow", "allow", "deny", "ask"})
		entries, _ := layer[list].([]any)
		rule := g.argumentRule()
		if list != "allow" && g.chance(0.3) || g.chance(0.01) {
			rule = g.withExceptions(rule)
		}
		layer[list] = append(entries, rule)
	}
}

func (g *Generator) argumentRule() map[string]any {
	if g.chance(0.04) {
		return invalidRules[g.rng.IntN(len(invalidRules))]
	}
	tool := g.pick(ruleTools)
	rule := map[string]any{"tool": tool}
	switch {
	case tool == "web_fetch" && g.chance(0.9), g.chance(0.05):
		rule["domain"] = g.pick(ruleDomains)
	case tool == "read_file" && g.chance(0.8), g.chance(0.08):
		rule["path"] = g.pick(rulePaths)
	case g.chance(0.15):
		rule["args_pattern"] = g.pick(ruleArgsPatterns)
	case g.chance(0.15):
		rule["args"] = ruleArgs[g.rng.IntN(len(ruleArgs))]
	case g.chance(0.25):
		rule["command_wildcard"] = g.pick(ruleWildcards)
	case g.chance(0.7):
		rule["command_prefix"] = g.pick(ruleCommands)
	default:
		rule["command"] = g.pick(ruleCommands)
	}
	if g.chance(0.15) { // examples, which hold or fail
		rule[g.pick([]string{"match", "not_match"})] = []any{g.example(rule)}
	}
	return rule
}

// withExceptions is rule (a copy) with exceptions (unless): one to three
// allow entries, names and argument rules, now and then an invalid list.
func (g *Generator) withExceptions(rule map[string]any) map[string]any {
	out := maps.Clone(rule)
	if g.chance(0.05) {
		out["unless"] = g.pick([]string{"[]", "x"})
		if out["unless"] == "[]" {
			out["unless"] = []any{}
		}
		return out
	}
	if g.chance(0.3) { // the rule of a whole tool, whose exceptions are of every kind
		for k := range out {
			if _, ok := ruleReads[k]; ok {
				delete(out, k)
			}
		}
		delete(out, "match")
		delete(out, "not_match")
		out["args_pattern"] = ""
	}
	var unless []any
	for range 1 + g.rng.IntN(3) {
		if g.chance(0.25) {
			unless = append(unless, g.pick(append([]string{"mcp__*", "mcp__github__*"}, ruleTools...)))
			continue
		}
		exception := maps.Clone(g.argumentRule())
		for try := 0; try < 8 && g.chance(0.85) && !sameReads(out, exception); try++ {
			exception = maps.Clone(g.argumentRule()) // mostly of the rule's kind; now and then another (exception_kind)
		}
		if tool, ok := rule["tool"].(string); ok && g.chance(0.6) && exception["tool"] != nil {
			exception["tool"] = tool // an exception for the rule's own tool, which can spare what it bites
		}
		unless = append(unless, exception)
	}
	out["unless"] = unless
	return out
}

// ruleReads is what an argument rule's condition reads.
var ruleReads = map[string]string{
	"command_prefix": "command", "command": "command", "command_wildcard": "command",
	"domain": "url", "path": "path", "args_pattern": "args", "args": "args",
}

// sameReads: exception reads what rule reads, or rule is a whole tool's
// rule (args_pattern ""), which takes exceptions of every kind.
func sameReads(rule, exception map[string]any) bool {
	if rule["args_pattern"] == "" {
		return true
	}
	for k, reads := range ruleReads {
		if _, ok := rule[k]; ok {
			for j, other := range ruleReads {
				if _, ok := exception[j]; ok {
					return reads == other
				}
			}
		}
	}
	return false
}

// example is a value of what rule reads: a URL, a path, arguments or a
// command.
func (g *Generator) example(rule map[string]any) any {
	switch {
	case rule["domain"] != nil:
		return g.urls()
	case rule["path"] != nil:
		return g.pick(append([]string{"src/a.go", ".env", "x/.ENV"}, paths...))
	case rule["args_pattern"] != nil, rule["args"] != nil:
		return g.args(g.pick(ruleTools))
	}
	return g.command()
}

// args are a call's arguments: a shell command for a shell tool, a URL
// for web_fetch, paths for the others; now and then an argument that
// changes what a command runs.
func (g *Generator) args(name any) map[string]any {
	switch name {
	case "run_shell_command", "bash":
		args := map[string]any{"command": g.command()}
		if g.chance(0.3) {
			args["cwd"] = g.pathValue()
		}
		if g.chance(0.1) {
			args["env"] = map[string]any{"PATH": "/tmp"}
		}
		if g.chance(0.05) {
			delete(args, "command")
		}
		return args
	case "web_fetch":
		args := map[string]any{"url": g.urls()}
		if g.chance(0.3) {
			args["prompt"] = "summarize"
		}
		return args
	}
	return map[string]any{"path": g.pathValue(), "cwd": g.pathValue(), "command": "ls"}
}

func (g *Generator) urls() any { return urls[g.rng.IntN(len(urls))] }

// command is a shell command of one to three parts.
func (g *Generator) command() string {
	var b strings.Builder
	for i := range 1 + g.rng.IntN(3) {
		if i > 0 {
			b.WriteString(g.pick(separators))
		}
		b.WriteString(g.pick(programs))
		for range g.rng.IntN(3) {
			b.WriteString(" ")
			b.WriteString(g.pick(words))
		}
		if g.chance(0.08) {
			b.WriteString(" ")
			b.WriteString(g.pick(unreadable))
		}
	}
	return b.String()
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
