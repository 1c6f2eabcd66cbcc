package tests

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// newAdversarialEngine is an engine whose evaluation deadline is above
// the tests' own bounds: these inputs are huge on purpose, and the test
// is that they decide correctly. (With the default deadline they would
// fail closed; TestEvalTimeoutFailsClosed in engine/ covers that.)
func newAdversarialEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e, err := engine.New(context.Background(), engine.WithEvalTimeout(3*time.Minute))
	require.NoError(t, err)
	return e
}

// Each adversarial input ends in a defined, fail-closed decision within a
// bound; the bounds are generous for the 2-core build machine and are
// logged with the time actually taken.
func decideWithin(t *testing.T, e *engine.Engine, bound time.Duration, doc any) *engine.Decision {
	t.Helper()
	start := time.Now()
	d, err := e.Decide(context.Background(), doc)
	elapsed := time.Since(start)
	require.NoError(t, err)
	require.NotNil(t, d)
	require.Less(t, elapsed, bound, "decision took %s", elapsed)
	t.Logf("decided in %s", elapsed.Round(time.Millisecond))
	return d
}

// TestAdversarialManyCalls: one batch of 20,000 calls (make soak: the
// cap, 100,000), every tenth excluded, is decided call by call.
func TestAdversarialManyCalls(t *testing.T) {
	t.Parallel()
	e := newAdversarialEngine(t)
	calls := make([]any, min(scaled(t, 20000), 100000)) // make soak: the cap, 100,000
	for i := range calls {
		name := "read_file"
		if i%10 == 9 {
			name = "gateway"
		}
		calls[i] = map[string]any{"id": fmt.Sprintf("c%d", i), "name": name}
	}
	d := decideWithin(t, e, 3*time.Minute, map[string]any{
		"agent":    map[string]any{"role": "subagent", "depth": 1},
		"declared": []any{map[string]any{"name": "read_file"}, map[string]any{"name": "gateway"}},
		"calls":    calls,
	})
	require.Len(t, d.Decisions, len(calls))
	for i, c := range d.Decisions {
		require.Equal(t, i%10 != 9, c.Allowed, "call %d", i)
	}
}

func TestAdversarial50000Declared(t *testing.T) {
	t.Parallel()
	e := newAdversarialEngine(t)
	declared := make([]any, 50000)
	for i := range declared {
		declared[i] = map[string]any{"name": fmt.Sprintf("tool_%d", i)}
	}
	d := decideWithin(t, e, 3*time.Minute, map[string]any{
		"declared": declared,
		"layers":   []any{map[string]any{"name": "tenant", "allow": []any{"tool_7", "tool_49999"}}},
		"calls":    []any{map[string]any{"id": "a", "name": "tool_49999"}, map[string]any{"id": "b", "name": "tool_8"}},
	})
	require.True(t, d.Decisions[0].Allowed)
	require.Equal(t, "not_allowed", d.Decisions[1].Reason)

	start := time.Now()
	c, err := e.Tools(context.Background(), map[string]any{"declared": declared, "layers": []any{map[string]any{"name": "tenant", "allow": []any{"tool_7", "tool_49999"}}}})
	require.NoError(t, err)
	require.Less(t, time.Since(start), 3*time.Minute)
	require.Equal(t, []string{"tool_49999", "tool_7"}, c.Effective)
	require.Len(t, c.Tools, 50000)
}

func TestAdversarialHugeStrings(t *testing.T) {
	t.Parallel()
	e := newAdversarialEngine(t)
	huge := strings.Repeat("read_file", 10<<20/9)
	d := decideWithin(t, e, time.Minute, map[string]any{
		"declared": []any{map[string]any{"name": "read_file"}},
		"calls":    []any{map[string]any{"id": "a", "name": huge}, map[string]any{"id": huge, "name": "read_file"}},
	})
	require.Equal(t, "not_declared", d.Decisions[0].Reason)
	require.True(t, d.Decisions[1].Allowed, "a long id is only echoed")

	d = decideWithin(t, e, time.Minute, map[string]any{
		"declared": []any{map[string]any{"name": huge}},
		"calls":    []any{map[string]any{"id": "a", "name": huge}},
	})
	require.Equal(t, "uncanonicalizable_name", d.Errors[0].Code())
	require.Equal(t, "invalid_config", d.Decisions[0].Reason)
}

func TestAdversarialDeepNesting(t *testing.T) {
	t.Parallel()
	e := newAdversarialEngine(t)
	deep := strings.Repeat(`{"a":`, 1000) + `1` + strings.Repeat(`}`, 1000)
	doc := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file", "args": {"x": ` + deep + `}}]}`
	start := time.Now()
	d, err := e.Decide(context.Background(), engine.JSON([]byte(doc)))
	require.NoError(t, err)
	require.Less(t, time.Since(start), time.Minute)
	require.True(t, d.Decisions[0].Allowed, "arguments that are not paths are not read")

	deepName := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": ` + deep + `}]}`
	d, err = e.Decide(context.Background(), engine.JSON([]byte(deepName)))
	require.NoError(t, err)
	require.Equal(t, "invalid_input", d.Decisions[0].Reason)
}

func TestAdversarialControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	e := newAdversarialEngine(t)
	d := decideWithin(t, e, time.Minute, map[string]any{
		"declared":  []any{map[string]any{"name": "read_file"}, map[string]any{"name": "write_file"}},
		"workspace": map[string]any{"root": "/ws"},
		"calls": []any{
			map[string]any{"id": "nul", "name": "read\x00file"},
			map[string]any{"id": "rlo", "name": "read_\u202efile"},
			map[string]any{"id": "path-nul", "name": "write_file", "args": map[string]any{"path": "/ws/a\x00/../../etc/passwd"}},
			map[string]any{"id": "cyrillic", "name": "r\u0435ad_file"},
			map[string]any{"id": "greek", "name": "read_\u03bfile"},
			map[string]any{"id": "invalid-utf8", "name": "read_file\xff"},
		},
	})
	verdict := func(i int) string {
		c := d.Decisions[i]
		if c.Allowed {
			return "allowed"
		}
		return c.Reason + "/" + c.Rule
	}
	require.Equal(t, "not_declared/", verdict(0), "NUL is not ignorable")
	require.Equal(t, "allowed", verdict(1), "U+202E is default-ignorable: the same tool")
	require.Equal(t, "path/unresolved", verdict(2))
	require.Equal(t, "not_declared/", verdict(3), "a Cyrillic look-alike is another name")
	require.Equal(t, "not_declared/", verdict(4), "a Greek look-alike is another name")
	require.Equal(t, "not_declared/", verdict(5), "invalid UTF-8 reaches the policy as U+FFFD")
	require.Equal(t, "read_file\ufffd", d.Decisions[5].Name, "echoed as the policy saw it")
}

// 3,000 MCP tools of one server against 3,000 deny prefixes of that
// server (a 250 KB input; fork_tools and layers can come from a model):
// wildcard entries are indexed, so a tool is matched with one look-up
// per distinct prefix length, not one per entry. Before the index this
// input took 25 s or more on the build machine.
func TestAdversarialManyWildcardsOfOneServer(t *testing.T) {
	t.Parallel()
	e := newTestEngine(t)
	const n = 3000
	declared := make([]any, n)
	deny := make([]any, n)
	for i := range n {
		declared[i] = map[string]any{"name": fmt.Sprintf("mcp__s__t%d", i), "mcp": map[string]any{"server": "s", "tool": fmt.Sprintf("t%d", i)}}
		deny[i] = fmt.Sprintf("mcp__s__q%d*", i)
	}
	deny = append(deny[:n-1], "mcp__s__t29*")
	d := decideWithin(t, e, 5*time.Second, map[string]any{
		"declared": declared,
		"layers":   []any{map[string]any{"name": "fork", "deny": deny}},
		"calls": []any{
			map[string]any{"id": "a", "name": "mcp__s__t5"},
			map[string]any{"id": "b", "name": "mcp__s__t2999"},
		},
	})
	require.True(t, d.Decisions[0].Allowed)
	require.Equal(t, "denied", d.Decisions[1].Reason, "t2999 starts with t29")
}
