package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// newEngine returns an engine on the embedded bundle, shared by a test.
func newEngine(t testing.TB, opts ...Option) *Engine {
	t.Helper()
	e, err := New(context.Background(), opts...)
	require.NoError(t, err)
	return e
}

func documentJSON(t testing.TB, d interface{ JSON() ([]byte, error) }) string {
	t.Helper()
	b, err := d.JSON()
	require.NoError(t, err)
	return string(b)
}

func TestDecideSpecExample(t *testing.T) {
	e := newEngine(t)
	d, err := e.Decide(context.Background(), JSON([]byte(`{
		"agent": {"name": "concierge", "role": "main", "depth": 0},
		"declared": [{"name": "read_file"}, {"name": "Refund"}],
		"layers": [{"name": "agent", "allow": ["read_file", "refund"]}, {"name": "tenant", "allow": ["read_file"]}],
		"calls": [{"id": "call_1", "name": "read_file"}, {"id": "call_2", "name": "Refund"}],
		"run": {"attempts": 0, "refusals": 0}
	}`)))

	require.NoError(t, err)
	require.Equal(t, []CallDecision{
		{ID: "call_1", Name: "read_file", Allowed: true, Outcome: OutcomeAllow},
		{ID: "call_2", Name: "Refund", Outcome: OutcomeDeny, Reason: "not_allowed", Layer: "tenant",
			Message: `tool "Refund" is not permitted: refused by layer "tenant"`},
	}, d.Decisions)
	require.Empty(t, d.Errors)
	require.Equal(t, &RunTotals{Attempts: "2", Refusals: "1"}, d.Run)
	require.False(t, d.AllAllowed())
}

func TestDecideIsDefinedForAnyInput(t *testing.T) {
	e := newEngine(t)
	for _, in := range []string{`{}`, `null`, `[]`, `"x"`, `1e400`, `{"calls": [1, {"id": 2, "name": "x"}]}`} {
		d, err := e.Decide(context.Background(), JSON([]byte(in)))
		require.NoError(t, err, in)
		require.NotNil(t, d.Decisions, in)
		for _, c := range d.Decisions {
			require.False(t, c.Allowed, in)
		}
	}
}

func TestDecideRejectsUndecodableInputClosed(t *testing.T) {
	e := newEngine(t)
	d, err := e.Decide(context.Background(), JSON([]byte(`{"calls": [`)))
	require.Error(t, err)
	require.Equal(t, "internal_error", d.Errors[0].Code())
	require.Empty(t, d.Decisions)
}

// brokenBundle writes a bundle whose decision rule fails at evaluation
// time (two values for one complete rule) or is undefined. It holds the
// real data documents and defines every rule the engine evaluates, so
// that it loads.
func brokenBundle(t *testing.T, policy string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".manifest"), []byte(`{"roots": ["tooleval"], "rego_version": 1}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken.rego"), []byte(policy), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "context.rego"),
		[]byte("package tooleval.context\n\nsession(x) := x\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "catalog.rego"),
		[]byte("package tooleval.catalog\n\ncatalog(x, _) := x\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "configuration.rego"),
		[]byte("package tooleval.configuration\n\npath_arguments_in_force := {}\n\nprepared_document := {}\n"), 0o644))
	shipped, err := shippedPolicy()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "host.rego"),
		[]byte("package tooleval.host\n\ninterface := "+string(mustJSON(t, shipped.document))+"\n\n"+testHostLoad), 0o644))
	for _, data := range []string{"config", "config/presets", "floor", "unicode", "unicode/skeleton"} {
		src := filepath.Join("..", "policies", "tooleval", data, "data.json")
		dst := filepath.Join(dir, "tooleval", data, "data.json")
		b, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		require.NoError(t, os.WriteFile(dst, b, 0o644))
	}
	return dir
}

func TestEvaluationErrorsFailClosed(t *testing.T) {
	in := ast.MustParseTerm(`{"x": true, "declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`).Value
	want := []CallDecision{{ID: "a", Name: "read_file", Outcome: OutcomeDeny, Reason: "invalid_config", Layer: "config",
		Message: "the call is refused: the policy could not decide it"}}
	for name, policy := range map[string]string{
		"conflict":  "package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\ndecision := 1 if input.x\n\ndecision := 2 if input.x\n\ntools := 1 if input.x\n\ntools := 2 if input.x\n\nlaunch := 1 if input.x\n\nlaunch := 2 if input.x\n",
		"undefined": "package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\ndecision := 1 if input.missing\n\ntools := 1 if input.missing\n\nlaunch := 1 if input.missing\n",
	} {
		e := newEngine(t, WithBundle(brokenBundle(t, policy)))
		d, err := e.Decide(context.Background(), in)
		require.Error(t, err, name)
		require.Equal(t, want, d.Decisions, name)
		require.Contains(t, documentJSON(t, d), `"internal_error"`, name)
		c, err := e.Tools(context.Background(), in)
		require.Error(t, err, name)
		require.Equal(t, []ToolVerdict{{Name: "read_file", Outcome: OutcomeDeny, Reason: "invalid_config", Layer: "config"}}, c.Tools, name)
		require.Empty(t, c.Effective, name)
		l, err := e.Launch(context.Background(), in)
		require.Error(t, err, name)
		require.False(t, l.Valid, name)
		require.Equal(t, []any{}, l.ExecutionAllowedTools, name)
	}
}

func TestWithBundleDirectoryAndTarball(t *testing.T) {
	dir := filepath.Join("..", "policies")
	fromDir := newEngine(t, WithBundle(dir))
	tarball := filepath.Join(t.TempDir(), "b.tar.gz")
	out, err := exec.Command("go", "tool", "opa", "build", "--bundle", dir, "--ignore", "*_test.rego",
		"--revision", "test-rev", "--output", tarball).CombinedOutput()
	require.NoError(t, err, string(out))
	fromTarball := newEngine(t, WithBundle(tarball))
	require.Equal(t, "test-rev", fromTarball.Revision())

	in := []byte(`{"declared": [{"name": "gateway"}], "agent": {"role": "fork", "depth": 1}, "calls": [{"id": "a", "name": "gateway"}]}`)
	embedded := newEngine(t)
	var docs []string
	for _, e := range []*Engine{embedded, fromDir, fromTarball} {
		d, err := e.Decide(context.Background(), JSON(in))
		require.NoError(t, err)
		docs = append(docs, documentJSON(t, d))
	}
	require.Equal(t, docs[0], docs[1])
	require.Equal(t, docs[0], docs[2])

	_, err = New(context.Background(), WithBundle(filepath.Join(t.TempDir(), "missing")))
	require.Error(t, err)
	empty := t.TempDir()
	_, err = New(context.Background(), WithBundle(empty))
	require.ErrorContains(t, err, "no policy")
}

func TestLaunch(t *testing.T) {
	e := newEngine(t)
	l, err := e.Launch(context.Background(), map[string]any{
		"subagent_type": "fork",
		"fork_tools":    []any{"read_file"},
		"declared":      []any{map[string]any{"name": "read_file"}, map[string]any{"name": "write_file"}},
	})
	require.NoError(t, err)
	require.True(t, l.Valid)
	require.Equal(t, []any{"read_file"}, l.ExecutionAllowedTools)
	require.Contains(t, l.Notice, "read_file")

	bad, err := e.Launch(context.Background(), JSON([]byte(`{"fork_tools": ["*"]}`)))
	require.NoError(t, err)
	require.False(t, bad.Valid)
	require.Equal(t, []any{}, bad.ExecutionAllowedTools)

	broken, err := e.Launch(context.Background(), JSON([]byte(`{`)))
	require.Error(t, err)
	require.False(t, broken.Valid)
	require.Equal(t, []any{}, broken.ExecutionAllowedTools)
}

func TestAuditLogsOneRecordPerDecision(t *testing.T) {
	var buf bytes.Buffer
	e := newEngine(t, WithAuditLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	ctx := context.Background()
	_, err := e.Decide(ctx, JSON([]byte(`{"agent": {"name": "a", "role": "main", "depth": 0}, "workspace": {"root": "/home/alice/ws"},
		"caller": {"user": "alice@example.com", "scopes": null},
		"declared": [{"name": "read_file"}], "calls": [{"id": "c1", "name": "read_file", "args": {"path": "/secret"}}, {"id": "c2", "name": "nope"}]}`)))

	require.NoError(t, err)
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	require.Len(t, lines, 1)
	var rec map[string]any
	require.NoError(t, json.Unmarshal(lines[0], &rec))
	require.Equal(t, AuditMessage, rec["msg"])
	require.Len(t, rec["decision_id"], 32)
	require.Equal(t, "tooleval/decision", rec["path"])
	require.Equal(t, map[string]any{"tooleval": map[string]any{"revision": e.Revision()}}, rec["bundles"])
	_, err = time.Parse(time.RFC3339Nano, rec["timestamp"].(string))
	require.NoError(t, err)
	require.Equal(t, []any{"/input/caller/user", "/input/calls/0/args", "/input/workspace", "/result/decisions/0/message"}, rec["erased"])
	input := rec["input"].(map[string]any)
	require.Equal(t, map[string]any{"name": "a", "role": "main", "depth": float64(0)}, input["agent"])
	require.Equal(t, []any{map[string]any{"id": "c1", "name": "read_file"}, map[string]any{"id": "c2", "name": "nope"}}, input["calls"])
	result := rec["result"].(map[string]any)
	require.Equal(t, map[string]any{"id": "c1", "name": "read_file", "allowed": false, "outcome": "deny", "reason": "path", "layer": "workspace", "rule": "not_readable"},
		result["decisions"].([]any)[0], "the path refusal's message quotes the path: erased")
	for _, secret := range []string{"/secret", "alice", "/home"} {
		require.NotContains(t, buf.String(), secret, "the mask erases arguments, users and the workspace")
	}
}

// TestAuditRecordsLaunchesChecksAndSessionBatches: launches, checks and
// explanations are audited with their entry point's path, and a
// session's batch with the full input (its static document and the
// batch), so that the record can be replayed.
func TestAuditRecordsLaunchesChecksAndSessionBatches(t *testing.T) {
	var buf bytes.Buffer
	e := newEngine(t, WithAuditLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	ctx := context.Background()
	_, err := e.Launch(ctx, JSON([]byte(`{"subagent_type": "fork", "fork_tools": ["read_file"]}`)))
	require.NoError(t, err)
	_, err = e.Check(ctx, JSON([]byte(`{}`)))
	require.NoError(t, err)
	_, err = e.Explain(ctx, JSON([]byte(`{"declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]}`)))
	require.NoError(t, err)
	s, err := e.NewSession(ctx, SessionConfig{Declared: []Declaration{{Name: "read_file"}}})
	require.NoError(t, err)
	_, err = s.Decide(ctx, []Call{{ID: "b1", Name: "read_file"}})
	require.NoError(t, err)
	var paths []string
	var session map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var rec map[string]any
		require.NoError(t, json.Unmarshal(line, &rec))
		paths = append(paths, rec["path"].(string))
		session = rec
	}
	require.Equal(t, []string{"tooleval/launch", "tooleval/check", "tooleval/explain", "tooleval/decision"}, paths)
	input := session["input"].(map[string]any)
	require.Equal(t, []any{map[string]any{"name": "read_file"}}, input["declared"])
	require.Equal(t, []any{map[string]any{"id": "b1", "name": "read_file"}}, input["calls"])
}

func TestEraseFollowsJSONPointers(t *testing.T) {
	doc := map[string]any{"input": map[string]any{"a/b": 1, "m~n": 2, "list": []any{map[string]any{"x": 1, "y": 2}}}}
	for _, p := range []string{"/input/a~1b", "/input/m~0n", "/input/list/0/x", "/input/list/7/x", "/input/nothing/here", "/input/list/-1"} {
		erase(doc, p)
	}
	require.Equal(t, map[string]any{"input": map[string]any{"list": []any{map[string]any{"y": 2}}}}, doc)
	// An array element is removed, as OPA's decision logger removes it.
	erase(doc, "/input/list/0")
	require.Equal(t, map[string]any{"input": map[string]any{"list": []any{}}}, doc)
}

// TestAuditMasksMalformedShapes: the shapes that leaked through the mask
// (caller as a string, a call sent as an array, calls as an object, a
// call id that is not a string and is echoed in the result) are erased
// whole, and the record is still written.
func TestAuditMasksMalformedShapes(t *testing.T) {
	for _, tc := range []struct {
		input  string
		erased []any
	}{
		{`{"caller": "alice@example.com", "calls": [{"id": "c1", "name": "read_file"}]}`, []any{"/input/caller", "/result/errors/0/message"}},
		{`{"calls": [{"id": "c1", "name": "read_file"}, ["read_file", "/home/alice/x"]]}`, []any{"/input/calls"}},
		{`{"calls": {"c1": {"id": "c1", "name": "read_file", "args": {"path": "/home/alice/x"}}}}`, []any{"/input/calls", "/result/errors/0/message"}},
		{`{"calls": [{"id": {"user": "alice@example.com"}, "name": "read_file"}]}`, []any{"/input/calls/0/id", "/result/decisions/0/id"}},
		{`["alice@example.com"]`, []any{"/input", "/result/errors/0/message"}},
	} {
		var buf bytes.Buffer
		e := newEngine(t, WithAuditLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
		_, err := e.Decide(context.Background(), JSON([]byte(tc.input)))
		require.NoError(t, err, tc.input)
		lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
		require.Len(t, lines, 1, tc.input)
		var rec map[string]any
		require.NoError(t, json.Unmarshal(lines[0], &rec))
		require.Equal(t, tc.erased, rec["erased"], tc.input)
		require.NotContains(t, buf.String(), "alice", tc.input)
	}
}

// TestDecideJSONReadsLikeOPAEval: a leading byte order mark is skipped;
// anything but white space after the document is an error, and the
// decision refuses every call.
func TestDecideJSONReadsLikeOPAEval(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	doc := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`
	plain, err := e.Decide(ctx, JSON([]byte(doc)))
	require.NoError(t, err)
	bom, err := e.Decide(ctx, JSON([]byte("\xef\xbb\xbf"+doc)))
	require.NoError(t, err)
	require.Equal(t, documentJSON(t, plain), documentJSON(t, bom))
	for _, trailing := range []string{doc + doc, doc + " 1", doc + "]", doc + "\f"} {
		d, err := e.Decide(ctx, JSON([]byte(trailing)))
		require.ErrorContains(t, err, "after the JSON document", trailing)
		require.Empty(t, d.Decisions)
		require.Equal(t, "internal_error", d.Errors[0].Code())
		l, err := e.Launch(ctx, JSON([]byte(trailing)))
		require.Error(t, err)
		require.False(t, l.Valid)
		_, err = e.Check(ctx, JSON([]byte(trailing)))
		require.Error(t, err)
	}
}

// TestMeterProviderCountsDecisionsByOutcome: an OpenTelemetry meter
// provider (the SDK's, with a manual reader) gets one count per
// decision, by outcome, and a duration for each.
func TestMeterProviderCountsDecisionsByOutcome(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	provider := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	e := newEngine(t, WithMeterProvider(provider))
	ctx := context.Background()
	for _, in := range []string{
		`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`,
		`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "write_file"}]}`,
		`{"layers": [{"name": "x", "allow": ["*"]}], "calls": [{"id": "a", "name": "x"}]}`,
	} {
		_, err := e.Decide(ctx, JSON([]byte(in)))
		require.NoError(t, err)
	}
	s, err := e.NewSession(ctx, SessionConfig{Declared: []Declaration{{Name: "read_file"}}})
	require.NoError(t, err)
	_, err = s.Decide(ctx, []Call{{ID: "b", Name: "read_file"}})
	require.NoError(t, err)
	_, err = e.Decide(ctx, JSON([]byte(`{`)))
	require.Error(t, err)

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	counts := map[string]int64{}
	var durations uint64
	for _, scope := range rm.ScopeMetrics {
		for _, m := range scope.Metrics {
			switch data := m.Data.(type) {
			case metricdata.Sum[int64]:
				require.Equal(t, "tooleval.decisions", m.Name)
				for _, p := range data.DataPoints {
					outcome, _ := p.Attributes.Value("outcome")
					counts[outcome.AsString()] += p.Value
				}
			case metricdata.Histogram[float64]:
				require.Equal(t, "tooleval.decision.duration", m.Name)
				for _, p := range data.DataPoints {
					durations += p.Count
				}
			}
		}
	}
	// The undecodable document never reached the policy: not counted.
	require.Equal(t, map[string]int64{"allowed": 2, "refused": 1, "errors": 1}, counts)
	require.Equal(t, uint64(4), durations)
}

// A decision that refuses a call is audited at warning level, one that
// allows every call at info level.
func TestAuditLogsRefusalsAtWarningLevel(t *testing.T) {
	var buf bytes.Buffer
	e := newEngine(t, WithAuditLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	ctx := context.Background()
	_, err := e.Decide(ctx, JSON([]byte(`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`)))
	require.NoError(t, err)
	_, err = e.Decide(ctx, JSON([]byte(`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}, {"id": "b", "name": "nope"}]}`)))
	require.NoError(t, err)
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	require.Len(t, lines, 2)
	var levels []string
	for _, line := range lines {
		var rec map[string]any
		require.NoError(t, json.Unmarshal(line, &rec))
		levels = append(levels, rec["level"].(string))
	}
	require.Equal(t, []string{"INFO", "WARN"}, levels)
}

// JSON text given as a plain []byte is refused, and every call with it,
// not read as the base64 string encoding/json would make of it; as
// engine.JSON it is decided.
func TestRawBytesAreNotAnInput(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	doc := []byte(`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`)
	d, err := e.Decide(ctx, doc)
	require.ErrorContains(t, err, "engine.JSON(data)")
	require.Len(t, d.Decisions, 0, "no calls are read from a []byte")
	require.NotEmpty(t, d.Errors)
	d, err = e.Decide(ctx, JSON(doc))
	require.NoError(t, err)
	require.True(t, d.Decisions[0].Allowed)
	_, err = e.Tools(ctx, doc)
	require.ErrorContains(t, err, "engine.JSON(data)")
}
