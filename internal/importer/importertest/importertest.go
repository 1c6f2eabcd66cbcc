// Package importertest holds what the importers' tests share: the rows
// of a round trip (a runtime's rules imported, calls decided by the
// engine under the overlay, each held to what the runtime does), the
// values of the policy an importer copies, and the notes and MCP servers
// an import must give.
package importertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/importer"
)

// Row is one call under an imported overlay: what the runtime's
// documentation or tests say it does (Runtime: allow, ask or deny) and
// what tooleval decides under the overlay (Want: the same, or the
// stricter outcome the importer notes).
//
// It is an unnamed struct type, so that a table of rows may list them
// without keys (go vet's composites check refuses that for a named
// struct type of another package).
type Row = struct {
	Source  string // where the runtime's verdict is documented
	Tool    string
	Args    map[string]any
	Runtime string
	Want    string
}

// strictness orders outcomes: a tooleval outcome may be stricter than the
// runtime's, never looser.
var strictness = map[string]int{"allow": 0, "ask": 1, "deny": 2}

// Hold decides the rows' calls in one request (declared tools,
// workspace) through an engine with the overlay, and holds each to its
// Want, never looser than the runtime.
func Hold(t *testing.T, name string, overlay map[string]any, request map[string]any, rows []Row) {
	t.Helper()
	ctx := context.Background()
	e, err := engine.New(ctx, engine.WithConfig(engine.Config(overlay)))
	require.NoError(t, err, name)
	calls := []any{}
	for i, r := range rows {
		calls = append(calls, map[string]any{"id": fmt.Sprint(i), "name": r.Tool, "args": r.Args})
	}
	request["calls"] = calls
	d, err := e.Decide(ctx, request)
	require.NoError(t, err, name)
	require.Empty(t, d.Errors, "%s: the imported overlay is valid", name)
	for i, r := range rows {
		got := string(d.Decisions[i].Outcome)
		require.Equal(t, r.Want, got, "%s: %s %v (%s): %s", name, r.Tool, r.Args, r.Source, d.Decisions[i].Message)
		require.GreaterOrEqual(t, strictness[got], strictness[r.Runtime], "%s: %s %v is looser than the runtime (%s)", name, r.Tool, r.Args, r.Source)
	}
}

// RequireValid holds that the configuration check of an engine with the
// overlay reports no error (a carried example that fails would be one).
func RequireValid(t *testing.T, name string, overlay map[string]any) {
	t.Helper()
	ctx := context.Background()
	e, err := engine.New(ctx, engine.WithConfig(engine.Config(overlay)))
	require.NoError(t, err, name)
	report, err := e.Check(ctx, nil)
	require.NoError(t, err, name)
	require.Empty(t, report.Errors, "%s: the overlay has errors", name)
}

// PolicyValue is query evaluated by OPA on the policy's sources (tests
// left out), found from the working directory up: what the importers'
// copies of the policy's tables are held to.
func PolicyValue(t *testing.T, query string) any {
	t.Helper()
	skipTests := func(abspath string, info fs.FileInfo, _ int) bool {
		return !info.IsDir() && strings.HasSuffix(abspath, "_test.rego")
	}
	rs, err := rego.New(
		rego.Query(query),
		rego.Load([]string{policies(t)}, skipTests),
	).Eval(context.Background())
	require.NoError(t, err)
	require.Len(t, rs, 1, "%s is defined", query)
	return rs[0].Expressions[0].Value
}

// policies is the repository's policies directory, the nearest above the
// working directory.
func policies(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	require.NoError(t, err)
	for {
		if p := filepath.Join(dir, "policies", "tooleval"); isDir(p) {
			return filepath.Join(dir, "policies")
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no policies directory above the working directory")
		dir = parent
	}
}

// Noted is a note an import must give: at this location, with this text
// in it (an unnamed struct type, as Row).
type Noted = struct{ Location, Text string }

// RequireNoted holds that each of want is among notes, and that no other
// note is at a location of unwanted (the places a case must leave
// alone).
func RequireNoted(t *testing.T, notes []importer.Note, want []Noted, unwanted []string) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, n := range notes {
			if n.Location == w.Location && strings.Contains(n.Text, w.Text) {
				found = true
			}
		}
		assert.True(t, found, "a note at %q says %q: %v", w.Location, w.Text, notes)
	}
	for _, n := range notes {
		assert.NotContains(t, unwanted, n.Location, "no note at %q: %v", n.Location, notes)
	}
}

// RequireServersDeclared holds an overlay's mcp_servers to want (absent
// when want is empty).
func RequireServersDeclared(t *testing.T, overlay map[string]any, want ...string) {
	t.Helper()
	got, present := overlay["mcp_servers"]
	if len(want) == 0 {
		require.False(t, present, "mcp_servers: %v", got)
		return
	}
	b, err := json.Marshal(got)
	require.NoError(t, err)
	w, err := json.Marshal(want)
	require.NoError(t, err)
	require.JSONEq(t, string(w), string(b))
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
