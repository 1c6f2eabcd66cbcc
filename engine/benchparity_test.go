package engine

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchParityPaths is more path calls for the same comparison: cases
// of an input (hand-written) and the engine's decisions for it.
const benchParityPaths = "../tests/bench/cedar/testdata/paths.json"

// benchParityGolden is the decisions the Cedar comparison must reach on
// the benchmark workload, per declared-tool count: the engine's, written
// once and read by both sides (tests/bench/cedar compares its decisions
// with the same file), so that the Cedar figure is for the same work.
const benchParityGolden = "../tests/bench/cedar/testdata/decisions.json"

// benchDecisions is the "decisions" member of a decision document, as
// JSON values (every member the policy wrote, not only the Go struct's).
func benchDecisions(t *testing.T, d *Decision) []any {
	t.Helper()
	data, err := d.JSON()
	require.NoError(t, err)
	var doc struct {
		Decisions []any `json:"decisions"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	return doc.Decisions
}

// engineBenchDecisions decides the benchmark batch at every size both
// ways the benchmarks do (one-shot, and a session without host path
// resolution), requires the two to agree, and returns the decisions per
// size.
func engineBenchDecisions(t *testing.T) map[string][]any {
	t.Helper()
	e := newEngine(t, WithEvalTimeout(0)) // 10,000 declared on a loaded machine outlasts the default bound
	ctx := context.Background()
	out := map[string][]any{}
	for _, n := range benchSizes {
		oneShot, err := e.Decide(ctx, fullRequest(n))
		require.NoError(t, err)
		static, calls := benchRequest(n)
		s, err := e.NewSession(ctx, static, WithPathResolution(false))
		require.NoError(t, err)
		session, err := s.Decide(ctx, calls)
		require.NoError(t, err)
		want := benchDecisions(t, oneShot)
		require.Equal(t, want, benchDecisions(t, session), "declared=%d: the session and the one-shot decision differ", n)
		require.Equal(t, wantAllowed, allowed(oneShot), "declared=%d", n)
		out[strconv.Itoa(n)] = want
	}
	return out
}

// TestBenchParityGolden holds the engine to the golden decisions the
// Cedar benchmark is compared against: at 100, 1,000 and 10,000 declared
// tools, the engine's decisions for the benchmark batch equal the file.
// TOOLEVAL_UPDATE_EXPECTED=1 rewrites the file from the engine (review
// the diff, then run the Cedar module's tests).
func TestBenchParityGolden(t *testing.T) {
	got := engineBenchDecisions(t)
	if os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1" {
		data, err := json.MarshalIndent(got, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(benchParityGolden, append(data, '\n'), 0o644))
	}
	data, err := os.ReadFile(benchParityGolden)
	require.NoError(t, err)
	var want map[string][]any
	require.NoError(t, json.Unmarshal(data, &want))
	require.Len(t, want, len(benchSizes), "one entry per benchmark size")
	require.Equal(t, want, got)
}

// pathParityCase is one case of the path golden file.
type pathParityCase struct {
	Name      string         `json:"name"`
	Input     map[string]any `json:"input"`
	Decisions []any          `json:"decisions"`
}

// engineDecisionsOf decides a full input one-shot and, its calls apart,
// in a session without host path resolution, and requires the two to
// agree.
func engineDecisionsOf(t *testing.T, e *Engine, input map[string]any) []any {
	t.Helper()
	ctx := context.Background()
	oneShot, err := e.Decide(ctx, input)
	require.NoError(t, err)
	require.Empty(t, oneShot.Errors, "the input has errors: every call would be invalid_config")
	static := map[string]any{}
	for k, v := range input {
		if k != "calls" {
			static[k] = v
		}
	}
	s, err := e.NewSession(ctx, static, WithPathResolution(false))
	require.NoError(t, err)
	session, err := s.Decide(ctx, input["calls"])
	require.NoError(t, err)
	want := benchDecisions(t, oneShot)
	require.Equal(t, want, benchDecisions(t, session), "the session and the one-shot decision differ")
	return want
}

// TestBenchParityPaths holds the engine to the path golden file the
// Cedar side's path rule is compared against: calls that take every path
// rule, in several workspaces. TOOLEVAL_UPDATE_EXPECTED=1 rewrites the
// decisions from the engine (review the diff).
func TestBenchParityPaths(t *testing.T) {
	data, err := os.ReadFile(benchParityPaths)
	require.NoError(t, err)
	var cases []pathParityCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	e := newEngine(t, WithEvalTimeout(0))
	for i, c := range cases {
		got := engineDecisionsOf(t, e, c.Input)
		if os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1" {
			cases[i].Decisions = got
			continue
		}
		require.Equal(t, c.Decisions, got, c.Name)
	}
	if os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1" {
		out, err := json.MarshalIndent(cases, "", " ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(benchParityPaths, append(out, '\n'), 0o644))
	}
}
