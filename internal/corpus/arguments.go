package corpus

import (
	"fmt"
	"maps"
	"strings"
)

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
