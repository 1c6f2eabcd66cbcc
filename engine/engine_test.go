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

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
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
	d, err := e.DecideJSON(context.Background(), []byte(`{
		"agent": {"name": "concierge", "role": "main", "depth": 0},
		"declared": [{"name": "read_file"}, {"name": "Refund"}],
		"layers": [{"name": "agent", "allow": ["read_file", "refund"]}, {"name": "tenant", "allow": ["read_file"]}],
		"calls": [{"id": "call_1", "name": "read_file"}, {"id": "call_2", "name": "Refund"}],
		"run": {"attempts": 0, "refusals": 0}
	}`))
	require.NoError(t, err)
	require.Equal(t, []CallDecision{
		{ID: "call_1", Name: "read_file", Allowed: true},
		{ID: "call_2", Name: "Refund", Reason: "not_allowed", Layer: "tenant",
			Message: `tool "Refund" is not permitted: refused by layer "tenant"`},
	}, d.Decisions)
	require.Empty(t, d.Errors)
	require.Equal(t, &RunTotals{Attempts: "2", Refusals: "1"}, d.Run)
	require.False(t, d.AllAllowed())
}

func TestDecideIsDefinedForAnyInput(t *testing.T) {
	e := newEngine(t)
	for _, in := range []string{`{}`, `null`, `[]`, `"x"`, `1e400`, `{"calls": [1, {"id": 2, "name": "x"}]}`} {
		d, err := e.DecideJSON(context.Background(), []byte(in))
		require.NoError(t, err, in)
		require.NotNil(t, d.Decisions, in)
		for _, c := range d.Decisions {
			require.False(t, c.Allowed, in)
		}
	}
}

func TestDecideRejectsUndecodableInputClosed(t *testing.T) {
	e := newEngine(t)
	d, err := e.DecideJSON(context.Background(), []byte(`{"calls": [`))
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
	want := []CallDecision{{ID: "a", Name: "read_file", Reason: "invalid_config", Layer: "config",
		Message: "the call is refused: the policy could not decide it"}}
	for name, policy := range map[string]string{
		"conflict":  "package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\ndecision := 1 if input.x\n\ndecision := 2 if input.x\n\ntools := 1 if input.x\n\ntools := 2 if input.x\n\nlaunch := 1 if input.x\n\nlaunch := 2 if input.x\n",
		"undefined": "package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\ndecision := 1 if input.missing\n\ntools := 1 if input.missing\n\nlaunch := 1 if input.missing\n",
	} {
		e := newEngine(t, WithBundle(brokenBundle(t, policy)))
		d, err := e.DecideValue(context.Background(), in)
		require.Error(t, err, name)
		require.Equal(t, want, d.Decisions, name)
		require.Contains(t, documentJSON(t, d), `"internal_error"`, name)
		c, err := e.ToolsValue(context.Background(), in)
		require.Error(t, err, name)
		require.Equal(t, []ToolVerdict{{Name: "read_file", Reason: "invalid_config", Layer: "config"}}, c.Tools, name)
		require.Empty(t, c.Effective, name)
		l, err := e.LaunchValue(context.Background(), in)
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
		d, err := e.DecideJSON(context.Background(), in)
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

	bad, err := e.LaunchJSON(context.Background(), []byte(`{"fork_tools": ["*"]}`))
	require.NoError(t, err)
	require.False(t, bad.Valid)
	require.Equal(t, []any{}, bad.ExecutionAllowedTools)

	broken, err := e.LaunchJSON(context.Background(), []byte(`{`))
	require.Error(t, err)
	require.False(t, broken.Valid)
	require.Equal(t, []any{}, broken.ExecutionAllowedTools)
}

func TestAuditLogsOneRecordPerDecision(t *testing.T) {
	var buf bytes.Buffer
	e := newEngine(t, WithAuditLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	_, err := e.DecideJSON(context.Background(), []byte(`{"agent": {"name": "a", "role": "main", "depth": 0},
		"declared": [{"name": "read_file"}], "calls": [{"id": "c1", "name": "read_file", "args": {"path": "/secret"}}, {"id": "c2", "name": "nope"}]}`))
	require.NoError(t, err)
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	require.Len(t, lines, 1)
	var rec map[string]any
	require.NoError(t, json.Unmarshal(lines[0], &rec))
	require.Equal(t, "tooleval decision", rec["msg"])
	require.Len(t, rec["decision_id"], 32)
	require.Equal(t, map[string]any{"name": "a", "role": "main", "depth": float64(0)}, rec["agent"])
	require.Equal(t, []any{
		map[string]any{"id": "c1", "name": "read_file", "allowed": true},
		map[string]any{"id": "c2", "name": "nope", "allowed": false, "reason": "not_declared", "layer": "declaration"},
	}, rec["calls"])
	require.NotContains(t, buf.String(), "/secret", "arguments must not be logged")
}

// TestDecideJSONReadsLikeOPAEval: a leading byte order mark is skipped;
// anything but white space after the document is an error, and the
// decision refuses every call.
func TestDecideJSONReadsLikeOPAEval(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	doc := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`
	plain, err := e.DecideJSON(ctx, []byte(doc))
	require.NoError(t, err)
	bom, err := e.DecideJSON(ctx, []byte("\xef\xbb\xbf"+doc))
	require.NoError(t, err)
	require.Equal(t, documentJSON(t, plain), documentJSON(t, bom))
	for _, trailing := range []string{doc + doc, doc + " 1", doc + "]", doc + "\f"} {
		d, err := e.DecideJSON(ctx, []byte(trailing))
		require.ErrorContains(t, err, "after the JSON document", trailing)
		require.Empty(t, d.Decisions)
		require.Equal(t, "internal_error", d.Errors[0].Code())
		l, err := e.LaunchJSON(ctx, []byte(trailing))
		require.Error(t, err)
		require.False(t, l.Valid)
		_, err = e.CheckJSON(ctx, []byte(trailing))
		require.Error(t, err)
	}
}
