package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/tooleval/tooleval/engine/canonical"
	"github.com/tooleval/tooleval/internal/benchload"
)

// benchSizes are the declared-tool counts of the benchmarks.
var benchSizes = benchload.Sizes

// benchRequest and fullRequest are the shared benchmark workload.
var (
	benchRequest = benchload.Request
	fullRequest  = benchload.Full
	wantAllowed  = benchload.WantAllowed
)

func checkVerdicts(b *testing.B, d *Decision) {
	b.Helper()
	if got := allowed(d); fmt.Sprint(got) != fmt.Sprint(wantAllowed) {
		b.Fatalf("verdicts %v, want %v: %+v", got, wantAllowed, d.Decisions)
	}
}

// liveHeap is the heap in use once garbage is collected (two cycles, so
// that objects freed by finalizers and sweeping are gone too).
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func BenchmarkSession(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("declared=%d", n), func(b *testing.B) {
			// No evaluation deadline: compiling the context of 10,000
			// declared tools can take longer than the default on a loaded
			// machine, and the benchmark measures the batches after it.
			e := newEngine(b, WithEvalTimeout(0))
			ctx := context.Background()
			static, calls := benchRequest(n)
			before := liveHeap()
			s, err := e.NewSession(ctx, static, WithPathResolution(false))
			if err != nil {
				b.Fatal(err)
			}
			sessionMB := float64(int64(liveHeap())-int64(before)) / (1 << 20)
			runtime.KeepAlive(static) // else its Go maps, freed, are subtracted from the session
			value, err := toValue(calls)
			if err != nil {
				b.Fatal(err)
			}
			d, err := s.Decide(ctx, value)
			if err != nil {
				b.Fatal(err)
			}
			checkVerdicts(b, d)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := s.Decide(ctx, value); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(sessionMB, "session-MB") // after the loop: ResetTimer clears metrics
			runtime.KeepAlive(s)
		})
	}
}

func BenchmarkOneShot(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("declared=%d", n), func(b *testing.B) {
			e := newEngine(b)
			ctx := context.Background()
			input, err := toValue(fullRequest(n))
			if err != nil {
				b.Fatal(err)
			}
			d, err := e.Decide(ctx, input)
			if err != nil {
				b.Fatal(err)
			}
			checkVerdicts(b, d)
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

// BenchmarkNaive is what a newcomer writes first: rego.New(...).Eval per
// call with the full JSON input, no preparation, no session.
func BenchmarkNaive(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("declared=%d", n), func(b *testing.B) {
			data, err := json.Marshal(fullRequest(n))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				var input any
				if err := json.Unmarshal(data, &input); err != nil {
					b.Fatal(err)
				}
				rs, err := rego.New(rego.Query("data.tooleval.decision"), rego.Load([]string{"../policies"}, skipTests), rego.Input(input)).Eval(ctx)
				if err != nil || len(rs) != 1 {
					b.Fatal(err)
				}
			}
		})
	}
}

// reference is the floor: the name-level semantics in plain Go, with the
// static part precomputed as a session does (canonical index, per-layer
// exact sets and MCP wildcards), deciding only the calls.
type reference struct {
	tools  map[string]refTool
	layers []refLayer
	root   string
}

type refTool struct {
	mcp          bool
	server, tool string
	refusal      string
}

type refLayer struct {
	name        string
	allowAll    bool
	allowExact  map[string]bool
	allowMCP    map[string][]string
	deny        map[string]bool
	allowAnyMCP bool
}

func newReference(static map[string]any) *reference {
	r := &reference{tools: map[string]refTool{}, root: static["workspace"].(map[string]any)["root"].(string)}
	for _, l := range static["layers"].([]any) {
		lm := l.(map[string]any)
		layer := refLayer{name: lm["name"].(string), allowExact: map[string]bool{}, allowMCP: map[string][]string{}, deny: map[string]bool{}}
		allow, ok := lm["allow"].([]any)
		layer.allowAll = !ok
		for _, e := range allow {
			c := canonical.Canonical(e.(string))
			switch {
			case c == "mcp__*":
				layer.allowAnyMCP = true
			case strings.HasPrefix(c, "mcp__") && strings.HasSuffix(c, "*"):
				body := strings.TrimSuffix(c[5:], "*")
				i := strings.Index(body, "__")
				layer.allowMCP[body[:i]] = append(layer.allowMCP[body[:i]], body[i+2:])
			default:
				layer.allowExact[c] = true
			}
		}
		for _, e := range asList(lm["deny"]) {
			layer.deny[canonical.Canonical(e.(string))] = true
		}
		r.layers = append(r.layers, layer)
	}
	for _, d := range static["declared"].([]any) {
		dm := d.(map[string]any)
		c := canonical.Canonical(dm["name"].(string))
		t := refTool{}
		if m, ok := dm["mcp"].(map[string]any); ok {
			t = refTool{mcp: true, server: canonical.Canonical(m["server"].(string)), tool: canonical.Canonical(m["tool"].(string))}
		}
		t.refusal = r.refusal(c, t)
		r.tools[c] = t
	}
	return r
}

func asList(x any) []any {
	l, _ := x.([]any)
	return l
}

func (r *reference) refusal(c string, t refTool) string {
	for _, l := range r.layers {
		if l.deny[c] {
			return "denied:" + l.name
		}
	}
	for _, l := range r.layers {
		if l.allowAll || l.allowExact[c] || (t.mcp && l.allowAnyMCP) {
			continue
		}
		matched := false
		for _, p := range l.allowMCP[t.server] {
			if t.mcp && strings.HasPrefix(t.tool, p) {
				matched = true
				break
			}
		}
		if !matched {
			return "not_allowed:" + l.name
		}
	}
	return ""
}

func (r *reference) decide(calls []any) []bool {
	out := make([]bool, len(calls))
	for i, c := range calls {
		cm := c.(map[string]any)
		t, ok := r.tools[canonical.Canonical(cm["name"].(string))]
		if !ok || t.refusal != "" {
			continue
		}
		if args, ok := cm["args"].(map[string]any); ok {
			if p, ok := args["path"].(string); ok && !strings.HasPrefix(p, r.root+"/") {
				continue
			}
		}
		out[i] = true
	}
	return out
}

func BenchmarkReference(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("declared=%d", n), func(b *testing.B) {
			static, calls := benchRequest(n)
			r := newReference(static)
			if got := r.decide(calls); fmt.Sprint(got) != fmt.Sprint(wantAllowed) {
				b.Fatalf("reference verdicts %v", got)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				r.decide(calls)
			}
		})
	}
}
