package engine

import (
	"context"
	"fmt"
	"testing"
)

// argumentRequest is a request of ten calls of one tool under one layer
// that allows it: by name (rules "none"), or through argument rules on
// its command ("shell": prefix rules, a deny and an ask rule) or its URL
// ("domain"), through path rules on its resolved path ("path") or
// through an args rule and an args_pattern ("args"), every call allowed.
func argumentRequest(rules string) map[string]any {
	tool, allow, deny, ask := "run_shell_command", []any{"run_shell_command"}, []any{}, []any{}
	arg := func(i int) map[string]any {
		return map[string]any{"command": fmt.Sprintf("git status --short && ls -la dir%d", i)}
	}
	switch rules {
	case "shell":
		allow = []any{
			map[string]any{"tool": tool, "command_prefix": "git status"},
			map[string]any{"tool": tool, "command_prefix": "ls"},
		}
		deny = []any{map[string]any{"tool": tool, "command_prefix": "git push"}}
		ask = []any{map[string]any{"tool": tool, "command_prefix": "npm publish"}}
	case "domain":
		tool = "web_fetch"
		allow = []any{map[string]any{"tool": tool, "domain": "*.example.com"}}
		deny = []any{map[string]any{"tool": tool, "domain": "evil.example.com"}}
		arg = func(i int) map[string]any {
			return map[string]any{"url": fmt.Sprintf("https://docs.example.com/page/%d", i)}
		}
	case "path":
		tool = "read_file"
		allow = []any{map[string]any{"tool": tool, "path": "src/**"}}
		deny = []any{map[string]any{"tool": tool, "path": ".env"}}
		arg = func(i int) map[string]any {
			return map[string]any{"path": fmt.Sprintf("/ws/src/pkg%d/main.go", i)}
		}
	case "args":
		tool = "deploy"
		allow = []any{map[string]any{"tool": tool, "args": map[string]any{"env": "staging"}}}
		deny = []any{map[string]any{"tool": tool, "args_pattern": `"force":true`}}
		arg = func(i int) map[string]any {
			return map[string]any{"env": "staging", "tag": fmt.Sprintf("v%d", i)}
		}
	case "none":
		arg = func(i int) map[string]any {
			return map[string]any{"command": fmt.Sprintf("git status --short && ls -la dir%d", i)}
		}
	}
	calls := make([]any, 10)
	for i := range calls {
		calls[i] = map[string]any{"id": fmt.Sprintf("c%d", i), "name": tool, "args": arg(i)}
	}
	request := map[string]any{
		"declared": []any{map[string]any{"name": tool}},
		"layers":   []any{map[string]any{"name": "team", "allow": allow, "deny": deny, "ask": ask}},
		"calls":    calls,
	}
	if rules == "path" {
		request["workspace"] = map[string]any{"root": "/ws"} // paths as the host resolved them
	}
	return request
}

// argumentRuleKinds are the workloads of argumentRequest.
var argumentRuleKinds = []string{"none", "shell", "domain", "path", "args"}

// BenchmarkArgumentRules is the cost of argument rules: a one-shot
// decision of ten calls allowed by name, by shell prefix rules, by a
// domain rule, by a path rule and by an args rule. The difference over
// "none", divided by ten, is the per-call cost of reading the command
// (URL, paths, arguments) and checking the rules.
func BenchmarkArgumentRules(b *testing.B) {
	for _, rules := range argumentRuleKinds {
		b.Run("rules="+rules, func(b *testing.B) {
			e := newEngine(b)
			ctx := context.Background()
			input, err := toValue(argumentRequest(rules))
			if err != nil {
				b.Fatal(err)
			}
			d, err := e.Decide(ctx, input)
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range d.Decisions {
				if !c.Allowed {
					b.Fatalf("%s: %+v", rules, c)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := e.Decide(ctx, input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
