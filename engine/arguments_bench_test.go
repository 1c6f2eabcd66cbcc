package engine

import (
	"context"
	"fmt"
	"testing"
)

// argumentRequest is a request of ten calls of one tool under one layer
// that allows it: by name (rules "none"), or through argument rules on
// its command ("shell": prefix rules, a deny and an ask rule) or its URL
// ("domain"), every call allowed.
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
	case "none":
		arg = func(i int) map[string]any {
			return map[string]any{"command": fmt.Sprintf("git status --short && ls -la dir%d", i)}
		}
	}
	calls := make([]any, 10)
	for i := range calls {
		calls[i] = map[string]any{"id": fmt.Sprintf("c%d", i), "name": tool, "args": arg(i)}
	}
	return map[string]any{
		"declared": []any{map[string]any{"name": tool}},
		"layers":   []any{map[string]any{"name": "team", "allow": allow, "deny": deny, "ask": ask}},
		"calls":    calls,
	}
}

// BenchmarkArgumentRules is the cost of argument rules: a one-shot
// decision of ten calls allowed by name, by shell prefix rules, and by a
// domain rule. The difference over "none", divided by ten, is the
// per-call cost of reading the command (or URL) and checking the rules.
func BenchmarkArgumentRules(b *testing.B) {
	for _, rules := range []string{"none", "shell", "domain"} {
		b.Run("rules="+rules, func(b *testing.B) {
			e := newEngine(b)
			ctx := context.Background()
			input, err := toValue(argumentRequest(rules))
			if err != nil {
				b.Fatal(err)
			}
			d, err := e.DecideValue(ctx, input)
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
				if _, err := e.DecideValue(ctx, input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
