package hooks

import (
	"context"
	"testing"

	"github.com/tooleval/tooleval/engine"
)

// BenchmarkDeciderAnswer: one Claude Code hook answered in process by a
// decider at the hook benchmarks' configuration of 100 tools, its
// session open: what tooleval serve does per call, without HTTP.
//
//	go test -run '^$' -bench DeciderAnswer -benchmem ./internal/hooks/
func BenchmarkDeciderAnswer(b *testing.B) {
	ctx := context.Background()
	e, err := engine.New(ctx, engine.WithConfig(benchConfig()))
	if err != nil {
		b.Fatal(err)
	}
	d := NewDecider(Options{})
	d.SetEngine(e, nil)
	payload := fixture(b, "claude_code_pretooluse.json", nil)
	if a := d.Answer(ctx, "claude_code", payload); string(a.Output) != "{}" {
		b.Fatalf("the fixture is not allowed: %s", a.Output)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		d.Answer(ctx, "claude_code", payload)
	}
}
