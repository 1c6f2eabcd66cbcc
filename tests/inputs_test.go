package tests

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestInputs evaluates every example with `go tool opa eval` on the built
// bundle and compares the result with the committed expectation. With
// TOOLEVAL_UPDATE_EXPECTED=1 it rewrites the expectations instead.
func TestInputs(t *testing.T) {
	t.Parallel()
	bundle := harness.BundlePath(t)
	update := os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1"
	for query, exs := range harness.ExamplesByQuery(t) {
		results := harness.OPAEvalEach(t, bundle, query, harness.InputsOf(exs))
		for i, ex := range exs {
			t.Run(strings.TrimPrefix(ex.Input, "../"), func(t *testing.T) {
				matchExpected(t, ex.Expected, results[i], update)
			})
		}
	}
}

// matchExpected requires a result to equal the committed expected
// document at path or, with update, rewrites that document.
func matchExpected(t *testing.T, path string, got []byte, update bool) {
	t.Helper()
	if update {
		writeExpected(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "no expected document: run `make expected` and review it")
	require.JSONEq(t, string(want), string(got))
}

// writeExpected writes a result as an expected document, indented.
func writeExpected(t *testing.T, path string, got []byte) {
	t.Helper()
	var pretty bytes.Buffer
	require.NoError(t, json.Indent(&pretty, got, "", "  "))
	pretty.WriteByte('\n')
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, pretty.Bytes(), 0o644))
}
