package cedar

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/benchload"
)

// policiesDir is the repository's policies/tooleval, whose shipped data
// the Go side reads.
const policiesDir = "../../../policies/tooleval"

// The golden files, written from the engine by engine/benchparity_test.go
// (TOOLEVAL_UPDATE_EXPECTED=1) and held to it there: decisions.json is
// the engine's decisions for the benchmark batch per declared-tool count;
// paths.json is cases of a hand-written input with more path calls, and
// the engine's decisions for each.
const (
	decisionsGolden = "testdata/decisions.json"
	pathsGolden     = "testdata/paths.json"
)

func loadJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	data, err := os.ReadFile(path)
	require.NoError(tb, err)
	require.NoError(tb, json.Unmarshal(data, v))
}

func newEncoded(tb testing.TB, static map[string]any) *encoded {
	tb.Helper()
	s, err := loadShipped(policiesDir)
	require.NoError(tb, err)
	e, err := encode(static, s)
	require.NoError(tb, err)
	return e
}

// requireDecisions compares decisions with the engine's, member by member
// as JSON (so a member the engine writes and this copy does not fails).
func requireDecisions(tb testing.TB, want json.RawMessage, got []decision, msg string) {
	tb.Helper()
	data, err := json.Marshal(got)
	require.NoError(tb, err)
	require.JSONEq(tb, string(want), string(data), msg)
}

// TestCedarDecisionsEqualTheEngines: at every benchmark size, the Cedar
// side's decisions for the benchmark batch are the engine's, reasons,
// layers, messages and path rules included.
func TestCedarDecisionsEqualTheEngines(t *testing.T) {
	var golden map[string]json.RawMessage
	loadJSON(t, decisionsGolden, &golden)
	require.Len(t, golden, len(benchload.Sizes))
	for _, n := range benchload.Sizes {
		static, calls := benchload.Request(n)
		want, ok := golden[strconv.Itoa(n)]
		require.True(t, ok, "no golden decisions for declared=%d", n)
		requireDecisions(t, want, newEncoded(t, static).decide(calls), fmt.Sprintf("declared=%d", n))
	}
}

// TestCedarPathRuleEqualsTheEngines: on calls that take every path rule
// (unresolved, outside_workspace, not_readable, sensitive in several
// spellings, excluded, read roots, segment boundaries, lists, non-string
// values), in several workspaces, the Go side decides as the engine does.
func TestCedarPathRuleEqualsTheEngines(t *testing.T) {
	var cases []struct {
		Name      string          `json:"name"`
		Input     map[string]any  `json:"input"`
		Decisions json.RawMessage `json:"decisions"`
	}
	loadJSON(t, pathsGolden, &cases)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			static := maps.Clone(c.Input)
			calls := static["calls"].([]any)
			delete(static, "calls")
			requireDecisions(t, c.Decisions, newEncoded(t, static).decide(calls), c.Name)
		})
	}
}

// TestCedarCheckFailsOnAnotherDecision shows the comparison can fail: a
// path rule left out changes a decision and the golden file no longer
// matches.
func TestCedarCheckFailsOnAnotherDecision(t *testing.T) {
	var golden map[string]json.RawMessage
	loadJSON(t, decisionsGolden, &golden)
	static, calls := benchload.Request(100)
	e := newEncoded(t, static)
	e.workspace = nil
	data, err := json.Marshal(e.decide(calls))
	require.NoError(t, err)
	require.NotEqual(t, compactJSON(t, golden["100"]), string(data))
}

func compactJSON(tb testing.TB, raw json.RawMessage) string {
	tb.Helper()
	var v any
	require.NoError(tb, json.Unmarshal(raw, &v))
	data, err := json.Marshal(v)
	require.NoError(tb, err)
	return string(data)
}

// TestEncodeRefusesWhatItDoesNotModel: inputs outside the copy's scope
// are errors, not other answers.
func TestEncodeRefusesWhatItDoesNotModel(t *testing.T) {
	s, err := loadShipped(policiesDir)
	require.NoError(t, err)
	for name, change := range map[string]func(map[string]any){
		"run":         func(m map[string]any) { m["run"] = map[string]any{"attempts": 0} },
		"subagent":    func(m map[string]any) { m["agent"] = map[string]any{"name": "x", "role": "subagent", "depth": 1} },
		"group entry": func(m map[string]any) { m["layers"] = []any{map[string]any{"name": "l", "allow": []any{"group:edit"}}} },
		"deny wildcard": func(m map[string]any) {
			m["layers"] = []any{map[string]any{"name": "l", "deny": []any{"mcp__srv0__*"}}}
		},
		"bad root": func(m map[string]any) { m["workspace"] = map[string]any{"root": "ws/"} },
	} {
		static, _ := benchload.Request(100)
		change(static)
		_, err := encode(static, s)
		require.Error(t, err, name)
	}
}

// BenchmarkCedar decides the benchmark batch: Cedar for the layers, Go
// for canonical names, the declaration check, the path rule and the
// messages. Before timing it checks the decisions against the engine's
// (testdata/decisions.json).
func BenchmarkCedar(b *testing.B) {
	var golden map[string]json.RawMessage
	loadJSON(b, decisionsGolden, &golden)
	for _, n := range benchload.Sizes {
		b.Run(fmt.Sprintf("declared=%d", n), func(b *testing.B) {
			static, calls := benchload.Request(n)
			e := newEncoded(b, static)
			requireDecisions(b, golden[strconv.Itoa(n)], e.decide(calls), "cedar decisions differ from the engine's")
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				e.decide(calls)
			}
		})
	}
}
