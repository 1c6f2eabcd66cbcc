package tests

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/corpus"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestRESTEqualsEmbedded posts every example and a generated corpus
// (300 decisions, each also as a catalog request and one in five as an
// explain request, and 120 launches; ten times more in make soak) to a
// stock OPA server loaded with the built bundle, and requires each result
// to be identical to the embedded engine's document for the same input.
func TestRESTEqualsEmbedded(t *testing.T) {
	t.Parallel()
	server := harness.StartOPA(t, "--log-level", "error", "--bundle", harness.BundlePath(t))
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	ctx := context.Background()

	type request struct {
		path  string
		input []byte
	}
	var requests []request
	for _, ex := range harness.Examples(t) {
		data, err := os.ReadFile(ex.Input)
		require.NoError(t, err)
		path := strings.ReplaceAll(strings.TrimPrefix(ex.Query, "data."), ".", "/")
		requests = append(requests, request{path, data})
	}
	gen := corpus.New(2026)
	for i, doc := range gen.Decisions(scaled(t, 100)) { // make soak: 1,000
		data, err := json.Marshal(doc)
		require.NoError(t, err)
		requests = append(requests, request{"tooleval/decision", data}, request{"tooleval/tools", data})
		if i%5 == 0 {
			requests = append(requests, request{"tooleval/explain", data})
		}
	}
	for _, doc := range gen.Launches(scaled(t, 60)) {
		data, err := json.Marshal(doc)
		require.NoError(t, err)
		requests = append(requests, request{"tooleval/launch", data})
	}
	for _, odd := range append([]string{`{}`, `null`, `[]`, `"x"`, `1e400`, `{"calls": "x"}`}, largeRunTotals...) {
		requests = append(requests,
			request{"tooleval/decision", []byte(odd)}, request{"tooleval/tools", []byte(odd)},
			request{"tooleval/launch", []byte(odd)}, request{"tooleval/explain", []byte(odd)})
	}

	differences := 0
	for i, r := range requests {
		got, ok, err := server.Query(r.path, r.input)
		require.NoError(t, err)
		require.True(t, ok, "request %d: %s is undefined on the server", i, r.path)
		var doc interface{ JSON() ([]byte, error) }
		switch r.path {
		case "tooleval/decision":
			doc, err = e.Decide(ctx, engine.JSON(r.input))
		case "tooleval/tools":
			doc, err = e.Tools(ctx, engine.JSON(r.input))
		case "tooleval/explain":
			doc, err = e.Explain(ctx, engine.JSON(r.input))
		default:
			doc, err = e.Launch(ctx, engine.JSON(r.input))
		}
		require.NoError(t, err)
		want, err := doc.JSON()
		require.NoError(t, err)
		if !jsonEqual(t, want, got) {
			differences++
			if differences <= 5 {
				t.Errorf("request %d (%s) differs\ninput:    %s\nembedded: %s\nREST:     %s", i, r.path, r.input, want, got)
			}
		}
	}
	t.Logf("REST vs embedded: %d requests compared, %d differences", len(requests), differences)
	require.Zero(t, differences)
}

// jsonEqual compares two JSON documents by value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	require.NoError(t, json.Unmarshal(a, &x))
	require.NoError(t, json.Unmarshal(b, &y))
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
