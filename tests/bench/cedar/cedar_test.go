// Package cedar measures the engine a user might pick instead of tooleval:
// the benchmark's name-level allowlist decisions encoded as Cedar policies
// and evaluated with cedar-go. It is its own Go module so that the
// product's go.mod does not carry Cedar.
package cedar

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cedar-policy/cedar-go"

	"github.com/tooleval/tooleval/engine/canonical"
	"github.com/tooleval/tooleval/internal/benchload"
)

// encoded is the workload in Cedar: one Tool entity per declared tool
// (canonical name, MCP server and tool), a permit for everything, and per
// layer a forbid unless its allow list matches and a forbid when its deny
// list matches. Canonicalization, the declaration check and the path
// check stay in Go, as in the reference.
type encoded struct {
	policies *cedar.PolicySet
	entities cedar.EntityMap
	root     string
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// matchExpr is a Cedar condition that holds when resource matches entry.
func matchExpr(entry string) string {
	c := canonical.Canonical(entry)
	switch {
	case c == "mcp__*":
		return "resource.mcp"
	case strings.HasPrefix(c, "mcp__") && strings.HasSuffix(c, "*"):
		body := strings.TrimSuffix(c[5:], "*")
		i := strings.Index(body, "__")
		return fmt.Sprintf("(resource.mcp && resource.server == %s && resource.tool like %s)", quote(body[:i]), quote(body[i+2:]+"*"))
	default:
		return fmt.Sprintf("resource.name == %s", quote(c))
	}
}

func encode(static map[string]any) (*encoded, error) {
	var src strings.Builder
	src.WriteString("permit (principal, action, resource);\n")
	for _, l := range static["layers"].([]any) {
		layer := l.(map[string]any)
		if allow, ok := layer["allow"].([]any); ok {
			var exact []string
			var other []string
			for _, e := range allow {
				m := matchExpr(e.(string))
				if strings.HasPrefix(m, "resource.name == ") {
					exact = append(exact, strings.TrimPrefix(m, "resource.name == "))
				} else {
					other = append(other, m)
				}
			}
			cond := append([]string{fmt.Sprintf("[%s].contains(resource.name)", strings.Join(exact, ", "))}, other...)
			fmt.Fprintf(&src, "@layer(%s)\nforbid (principal, action, resource) unless { %s };\n", quote(layer["name"].(string)), strings.Join(cond, " || "))
		}
		if deny, ok := layer["deny"].([]any); ok && len(deny) > 0 {
			var cond []string
			for _, e := range deny {
				cond = append(cond, matchExpr(e.(string)))
			}
			fmt.Fprintf(&src, "@layer(%s)\nforbid (principal, action, resource) when { %s };\n", quote(layer["name"].(string)), strings.Join(cond, " || "))
		}
	}
	ps, err := cedar.NewPolicySetFromBytes("layers.cedar", []byte(src.String()))
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, src.String())
	}
	entities := cedar.EntityMap{}
	for _, d := range static["declared"].([]any) {
		decl := d.(map[string]any)
		name := canonical.Canonical(decl["name"].(string))
		attrs := cedar.RecordMap{"name": cedar.String(name), "mcp": cedar.False, "server": cedar.String(""), "tool": cedar.String("")}
		if m, ok := decl["mcp"].(map[string]any); ok {
			attrs["mcp"] = cedar.True
			attrs["server"] = cedar.String(canonical.Canonical(m["server"].(string)))
			attrs["tool"] = cedar.String(canonical.Canonical(m["tool"].(string)))
		}
		uid := cedar.NewEntityUID("Tool", cedar.String(name))
		entities[uid] = cedar.Entity{UID: uid, Attributes: cedar.NewRecord(attrs)}
	}
	return &encoded{policies: ps, entities: entities, root: static["workspace"].(map[string]any)["root"].(string)}, nil
}

var (
	principal = cedar.NewEntityUID("Agent", "bench")
	action    = cedar.NewEntityUID("Action", "call")
)

// decide decides a batch: undeclared calls are refused before Cedar is
// asked (Cedar would skip a policy whose attribute look-up errors).
func (e *encoded) decide(calls []any) []bool {
	out := make([]bool, len(calls))
	for i, c := range calls {
		call := c.(map[string]any)
		uid := cedar.NewEntityUID("Tool", cedar.String(canonical.Canonical(call["name"].(string))))
		if _, ok := e.entities[uid]; !ok {
			continue
		}
		decision, _ := e.policies.IsAuthorized(e.entities, cedar.Request{Principal: principal, Action: action, Resource: uid, Context: cedar.NewRecord(nil)})
		if decision != cedar.Allow {
			continue
		}
		if args, ok := call["args"].(map[string]any); ok {
			if p, ok := args["path"].(string); ok && !strings.HasPrefix(p, e.root+"/") {
				continue
			}
		}
		out[i] = true
	}
	return out
}

func BenchmarkCedar(b *testing.B) {
	for _, n := range benchload.Sizes {
		b.Run(fmt.Sprintf("declared=%d", n), func(b *testing.B) {
			static, calls := benchload.Request(n)
			e, err := encode(static)
			if err != nil {
				b.Fatal(err)
			}
			if got := e.decide(calls); fmt.Sprint(got) != fmt.Sprint(benchload.WantAllowed) {
				b.Fatalf("cedar verdicts %v, want %v", got, benchload.WantAllowed)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				e.decide(calls)
			}
		})
	}
}

func TestCedarAgreesWithTheWorkload(t *testing.T) {
	static, calls := benchload.Request(100)
	e, err := encode(static)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.decide(calls); fmt.Sprint(got) != fmt.Sprint(benchload.WantAllowed) {
		t.Fatalf("cedar verdicts %v, want %v", got, benchload.WantAllowed)
	}
}
