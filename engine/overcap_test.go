package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/stretchr/testify/require"
)

// testCap is the call cap of the bundles these tests patch, so that a
// batch over it is a few calls.
const testCap = 3

// smallCapBundle copies policies/ to a new directory with a call cap of
// testCap and the patches applied: file (relative to policies/) to
// pairs of old and new text, each old text present once.
func smallCapBundle(t *testing.T, patches map[string][][2]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(filepath.Join("..", "policies"))))
	all := map[string][][2]string{"tooleval/shape/shape.rego": {{"max_calls := 100000", "max_calls := 3"}}}
	for file, p := range patches {
		all[file] = append(all[file], p...)
	}
	for file, pairs := range all {
		path := filepath.Join(dir, filepath.FromSlash(file))
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			data, err = nil, nil
		}
		require.NoError(t, err)
		text := string(data)
		for _, p := range pairs {
			if p[0] == "" {
				text += p[1]
				continue
			}
			require.Equal(t, 1, strings.Count(text, p[0]), "%s holds %q once", file, p[0])
			text = strings.Replace(text, p[0], p[1], 1)
		}
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	return dir
}

// stockOPA evaluates the bundle directory's entry points as a stock OPA
// does (rego.Load, no engine), as JSON.
type stockOPA map[string]rego.PreparedEvalQuery

func newStockOPA(t *testing.T, dir string, queries ...string) stockOPA {
	t.Helper()
	s := stockOPA{}
	for _, q := range queries {
		prepared, err := rego.New(rego.Query(q), rego.Load([]string{dir}, skipTests)).PrepareForEval(context.Background())
		require.NoError(t, err, q)
		s[q] = prepared
	}
	return s
}

func (s stockOPA) eval(t *testing.T, query string, input ast.Value) string {
	t.Helper()
	rs, err := s[query].Eval(context.Background(), rego.EvalParsedInput(input))
	require.NoError(t, err, query)
	require.Len(t, rs, 1, query)
	b, err := json.Marshal(rs[0].Expressions[0].Value)
	require.NoError(t, err)
	return string(b)
}

// requireDocument holds d to the policy's document want (JSON), byte for
// byte, and its decoded members to want's decoded.
func requireDocument(t *testing.T, want string, d *Decision, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, want, documentJSON(t, d), msgAndArgs...)
	value, err := DecodeInput([]byte(want))
	require.NoError(t, err)
	decoded, err := decodeDecision(value)
	require.NoError(t, err)
	require.Equal(t, decoded.Decisions, d.Decisions, msgAndArgs...)
	require.Equal(t, decoded.Errors, d.Errors, msgAndArgs...)
	require.Equal(t, decoded.Run, d.Run, msgAndArgs...)
}

// overCapCases are requests over testCap calls: their calls, and the
// rest of the request.
var overCapCases = []struct {
	name    string
	calls   string
	request string
}{
	{"ids present", `[{"id": "a", "name": "read_file"}, {"id": "b", "name": "write_file"}, {"id": "c", "name": "nope"}, {"id": "a", "name": "read_file", "args": {"path": "/x"}}]`,
		`{"declared": [{"name": "read_file"}, {"name": "write_file"}]}`},
	{"ids missing, null, not strings; calls not objects", `[{"name": "read_file"}, {"id": null, "name": 5}, "x", [1], 7, null, {"id": {"a": 1}}, {}]`,
		`{"declared": [{"name": "read_file"}]}`},
	{"a run", `[{"id": "a", "name": "read_file"}, {"id": "b"}, {"id": "c"}, {"id": "d"}, {"id": "e"}]`,
		`{"declared": [{"name": "read_file"}], "run": {"attempts": 3, "refusals": 1, "max_attempts": 10, "max_refusals": 5}}`},
	{"a malformed run", `[{"id": "a", "name": "read_file"}, {"id": "b"}, {"id": "c"}, {"id": "d"}]`,
		`{"declared": [{"name": "read_file"}], "run": {"attempts": -1}}`},
	{"a configuration error and a run", `[{"id": "a", "name": "read_file"}, {"id": "b"}, {"id": "c"}, {"id": "d"}]`,
		`{"declared": [{"name": "read_file"}], "layers": [{"name": "team", "allow": [""]}], "run": {"attempts": 0, "refusals": 0}}`},
	{"a sub-agent with a workspace and layers", `[{"id": "a", "name": "read_file", "args": {"path": "/ws/a"}}, {"id": "b", "name": "bash"}, {"id": "c"}, {"id": "d"}]`,
		`{"agent": {"role": "subagent", "depth": 1}, "declared": [{"name": "read_file"}, {"name": "bash"}], "layers": [{"name": "team", "allow": ["read_file"], "message": "ask the team"}], "workspace": {"root": "/ws"}}`},
}

// overCapDocument is a case's full input document.
func overCapDocument(t *testing.T, request, calls string) (ast.Object, ast.Object, *ast.Array) {
	t.Helper()
	static, err := DecodeInput([]byte(request))
	require.NoError(t, err)
	list, err := DecodeInput([]byte(calls))
	require.NoError(t, err)
	doc := static.(ast.Object).Copy()
	doc.Insert(ast.StringTerm("calls"), ast.NewTerm(list))
	return doc, static.(ast.Object), list.(*ast.Array)
}

// TestOverCapIsThePolicysDecision: a batch over the call cap, refused
// without its calls evaluated, gets the document data.tooleval.decision
// (and data.tooleval.explain) gives it on stock OPA with the same bundle,
// byte for byte, through every method that decides one.
func TestOverCapIsThePolicysDecision(t *testing.T) {
	ctx := context.Background()
	dir := smallCapBundle(t, nil)
	e := newEngine(t, WithBundle(dir))
	require.NotNil(t, e.current.Load().overCap, "the bundle has the over-cap entry points")
	require.Equal(t, testCap, e.current.Load().host.maxCalls)
	opa := newStockOPA(t, dir, "data.tooleval.decision", "data.tooleval.explain")
	t.Run("a batch at the cap is not over it", func(t *testing.T) {
		doc, _, _ := overCapDocument(t, `{"declared": [{"name": "read_file"}]}`, `[{"id": "a", "name": "read_file"}, {"id": "b", "name": "x"}, "c"]`)
		d, err := e.Decide(ctx, doc)
		require.NoError(t, err)
		requireDocument(t, opa.eval(t, "data.tooleval.decision", doc), d)
		require.Equal(t, []bool{true, false, false}, allowed(d))
	})
	for _, c := range overCapCases {
		t.Run(c.name, func(t *testing.T) {
			doc, static, calls := overCapDocument(t, c.request, c.calls)
			require.Greater(t, calls.Len(), testCap)
			want := opa.eval(t, "data.tooleval.decision", doc)
			require.Contains(t, want, `"too_many_entries"`)

			d, err := e.Decide(ctx, doc)
			require.NoError(t, err)
			requireDocument(t, want, d, "Decide(ast.Value)")
			data, err := json.Marshal(mustJSONValue(t, doc))
			require.NoError(t, err)
			d, err = e.Decide(ctx, JSON(data))
			require.NoError(t, err)
			requireDocument(t, want, d, "Decide(JSON)")
			var goValue any
			require.NoError(t, json.Unmarshal(data, &goValue))
			d, err = e.Decide(ctx, goValue)
			require.NoError(t, err)
			requireDocument(t, want, d, "Decide(Go value)")

			explained := opa.eval(t, "data.tooleval.explain", doc)
			x, err := e.Explain(ctx, doc)
			require.NoError(t, err)
			requireDocument(t, explained, x, "Explain(ast.Value)")
			require.NotEmpty(t, x.Decisions[0].Trace)

			s, err := e.NewSession(ctx, static, WithPathResolution(false))
			require.NoError(t, err)
			request := ast.NewObject([2]*ast.Term{ast.StringTerm("calls"), ast.NewTerm(calls)})
			if run := static.Get(ast.StringTerm("run")); run != nil {
				request.Insert(ast.StringTerm("run"), run)
			}
			d, err = s.DecideRequest(ctx, request)
			require.NoError(t, err)
			requireDocument(t, want, d, "Session.DecideRequest")
			if static.Get(ast.StringTerm("run")) == nil {
				d, err = s.Decide(ctx, calls)
				require.NoError(t, err)
				requireDocument(t, want, d, "Session.Decide")
				x, err = s.Explain(ctx, calls)
				require.NoError(t, err)
				requireDocument(t, explained, x, "Session.Explain")
			}
		})
	}
}

// TestOverCapUnderARunGuard: a session's batch over the cap spends its
// run budget as the policy's decision of it says, every call an attempt
// and a refusal.
func TestOverCapUnderARunGuard(t *testing.T) {
	ctx := context.Background()
	dir := smallCapBundle(t, nil)
	e := newEngine(t, WithBundle(dir))
	opa := newStockOPA(t, dir, "data.tooleval.decision")
	_, static, calls := overCapDocument(t, overCapCases[0].request, overCapCases[0].calls)
	guard := NewRunGuard(10, 0)
	s, err := e.NewSession(ctx, static, WithRunGuard(guard))
	require.NoError(t, err)
	for batch, attempts := range []int{0, 4} {
		doc := static.Copy()
		doc.Insert(ast.StringTerm("calls"), ast.NewTerm(calls))
		doc.Insert(ast.StringTerm("run"), ast.NewTerm(ast.MustParseTerm(
			`{"attempts": `+jsonInt(attempts)+`, "refusals": `+jsonInt(attempts)+`, "max_attempts": 10}`).Value))
		d, err := s.Decide(ctx, calls)
		require.NoError(t, err)
		requireDocument(t, opa.eval(t, "data.tooleval.decision", doc), d, "batch %d", batch)
	}
	require.Equal(t, RunTotals{Attempts: "8", Refusals: "8"}, guard.Totals())
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

func mustJSONValue(t *testing.T, v ast.Value) any {
	t.Helper()
	x, err := ast.JSON(v)
	require.NoError(t, err)
	return x
}

// TestOverCapIsRefusedWithoutEvaluatingItsCalls: what the policy
// evaluates for a batch over the cap does not grow with its calls (the
// engine hands it none), where deciding the batch in full, as a bundle
// without the over-cap entry points does, grows with them.
func TestOverCapIsRefusedWithoutEvaluatingItsCalls(t *testing.T) {
	ctx := context.Background()
	fast := newEngine(t, WithBundle(smallCapBundle(t, nil)))
	full := newEngine(t, WithBundle(smallCapBundle(t, map[string][][2]string{"tooleval/host/host.rego": {
		{"\t\"over_cap\": \"data.tooleval.over_cap\",\n\t\"decide_over_cap\": \"data.tooleval.decide_over_cap\",\n", ""},
	}})))
	require.Nil(t, full.current.Load().overCap)
	static := ast.MustParseTerm(`{"declared": [{"name": "read_file"}], "layers": [{"name": "team", "allow": ["read_file"]}]}`).Value.(ast.Object)
	batch := func(n int) (ast.Object, *ast.Array) {
		terms := make([]*ast.Term, n)
		for i := range terms {
			terms[i] = ast.MustParseTerm(`{"id": "c` + jsonInt(i) + `", "name": "read_file", "args": {"path": "/x"}}`)
		}
		doc := static.Copy()
		doc.Insert(ast.StringTerm("calls"), ast.ArrayTerm(terms...))
		return doc, ast.NewArray(terms...)
	}
	expressions := func(e *Engine, n int) map[string]int64 {
		doc, calls := batch(n)
		out := map[string]int64{}
		for name, decide := range map[string]func(context.Context) (*Decision, error){
			"decide":  func(ctx context.Context) (*Decision, error) { return e.Decide(ctx, doc) },
			"explain": func(ctx context.Context) (*Decision, error) { return e.Explain(ctx, doc) },
			"session": func(ctx context.Context) (*Decision, error) {
				s, err := e.NewSession(ctx, static)
				require.NoError(t, err)
				return s.Decide(ctx, calls)
			},
		} {
			counted, counter := counting(ctx)
			d, err := decide(counted)
			require.NoError(t, err, name)
			require.Len(t, d.Decisions, n, name)
			require.Equal(t, "too_many_entries", d.Errors[0].Code(), name)
			out[name] = counter.n.Load()
		}
		return out
	}
	small, large := expressions(fast, testCap+1), expressions(fast, 10*testCap)
	t.Logf("expressions evaluated for %d and %d calls: %v, %v", testCap+1, 10*testCap, small, large)
	require.Equal(t, small, large, "a batch over the cap costs the same whatever its calls")
	fullSmall, fullLarge := expressions(full, testCap+1), expressions(full, 10*testCap)
	for name := range fullSmall {
		require.Greater(t, fullLarge[name], fullSmall[name], "%s: the counter sees the calls of a batch decided in full", name)
	}
}

// TestOverCapFailsClosed: an over-cap entry point that is undefined,
// answers another shape or allows the calls refuses every call as a
// decision the policy could not make does, with the error; never an
// allow.
func TestOverCapFailsClosed(t *testing.T) {
	ctx := context.Background()
	for name, rules := range map[string]string{
		"undefined":     "over_cap(_, _) := 1 if false\n\ndecide_over_cap(_, _, _) := 1 if false\n",
		"not an object": "over_cap(_, _) := 1\n\ndecide_over_cap(_, _, _) := 1\n",
		"no refusal":    "over_cap(_, _) := {\"document\": {\"errors\": []}, \"trace\": []}\n\ndecide_over_cap(_, _, _) := {\"document\": {\"errors\": []}}\n",
		"an allow": "over_cap(_, _) := x\n\ndecide_over_cap(_, _, _) := x\n\n" +
			"x := {\"document\": {\"errors\": []}, \"refusal\": {\"allowed\": true, \"outcome\": \"allow\"}, \"trace\": []}\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := smallCapBundle(t, map[string][][2]string{
				"tooleval/host/host.rego": {
					{`"data.tooleval.over_cap"`, `"data.tooleval.broken.over_cap"`},
					{`"data.tooleval.decide_over_cap"`, `"data.tooleval.broken.decide_over_cap"`},
				},
				"tooleval/broken.rego": {{"", "package tooleval.broken\n\n" + rules}},
			})
			e := newEngine(t, WithBundle(dir))
			require.NotNil(t, e.current.Load().overCap)
			doc, static, calls := overCapDocument(t, overCapCases[2].request, overCapCases[2].calls)
			failed := documentJSON(t, e.messages().failClosed(doc))

			d, err := e.Decide(ctx, doc)
			require.Error(t, err)
			require.Equal(t, failed, documentJSON(t, d))
			x, err := e.Explain(ctx, doc)
			require.Error(t, err)
			require.Equal(t, documentJSON(t, e.messages().failClosedExplained(doc)), documentJSON(t, x))
			s, err := e.NewSession(ctx, static)
			require.NoError(t, err)
			d, err = s.DecideRequest(ctx, ast.NewObject([2]*ast.Term{ast.StringTerm("calls"), ast.NewTerm(calls)}))
			require.Error(t, err)
			require.Len(t, d.Decisions, calls.Len())
			for _, c := range append(d.Decisions, x.Decisions...) {
				require.False(t, c.Allowed)
				require.Equal(t, ReasonInvalidConfig, c.Reason)
			}
		})
	}
}

// TestOverCapPathsAreNotResolved: a session that resolves paths on the
// host resolves none of a batch over the cap, which is refused unread:
// DecideResolved hands back its calls as they came, and the decision
// and explanation are the policy's for them.
func TestOverCapPathsAreNotResolved(t *testing.T) {
	ctx := context.Background()
	dir := smallCapBundle(t, nil)
	e := newEngine(t, WithBundle(dir))
	opa := newStockOPA(t, dir, "data.tooleval.decision", "data.tooleval.explain")
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	static := map[string]any{"declared": []any{map[string]any{"name": "write_file"}}, "workspace": map[string]any{"root": root}}
	s, err := e.NewSession(ctx, static)
	require.NoError(t, err)
	require.True(t, s.resolve)
	var calls []any
	for _, id := range []string{"a", "b", "c", "d"} {
		calls = append(calls, map[string]any{"id": id, "name": "write_file", "args": map[string]any{"path": "notes.txt"}})
	}
	d, judged, err := s.DecideResolved(ctx, calls)
	require.NoError(t, err)
	require.Equal(t, calls, judged, "no path of the batch is resolved")
	doc, err := toValue(map[string]any{"declared": static["declared"], "workspace": static["workspace"], "calls": calls})
	require.NoError(t, err)
	requireDocument(t, opa.eval(t, "data.tooleval.decision", doc), d)
	x, err := s.Explain(ctx, calls)
	require.NoError(t, err)
	requireDocument(t, opa.eval(t, "data.tooleval.explain", doc), x)
}
