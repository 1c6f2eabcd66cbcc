package tests

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// example is one committed input document and its expected result.
type example struct {
	input, expected, query string
}

// examples lists inputs/*.json (decisions, and their catalogs under
// tools/) and inputs/launch/*.json (launches) with their expected
// documents under inputs/expected/.
func examples(t *testing.T) []example {
	t.Helper()
	var out []example
	for _, set := range []struct{ dir, expected, query string }{
		{"../inputs", "../inputs/expected", "data.tooleval.decision"},
		{"../inputs", "../inputs/expected/tools", "data.tooleval.tools"},
		{"../inputs", "../inputs/expected/explain", "data.tooleval.explain"},
		{"../inputs/launch", "../inputs/expected/launch", "data.tooleval.launch"},
	} {
		files, err := filepath.Glob(filepath.Join(set.dir, "*.json"))
		require.NoError(t, err)
		for _, f := range files {
			out = append(out, example{f, filepath.Join(set.expected, filepath.Base(f)), set.query})
		}
	}
	require.GreaterOrEqual(t, len(out), 8, "the examples are missing")
	return out
}

// bundlePath is the built bundle the examples are evaluated with: the one
// `make bundle` built (TOOLEVAL_BUNDLE), or one built here.
func bundlePath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TOOLEVAL_BUNDLE"); p != "" {
		return p
	}
	p := filepath.Join(t.TempDir(), "tooleval.tar.gz")
	opa(t, "build", "--bundle", policiesDir, "--ignore", "*_test.rego", "--output", p)
	return p
}

// opa runs `go tool opa` with the arguments and returns its output. It
// runs the executable that `go tool opa` runs, without the go command's
// start-up each time.
func opa(t *testing.T, args ...string) []byte {
	t.Helper()
	bin, err := opaBinary()
	require.NoError(t, err)
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go tool opa %s: %s", strings.Join(args, " "), stderr.String())
	return out
}

// TestInputs evaluates every example with `go tool opa eval` on the built
// bundle and compares the result with the committed expectation. With
// TOOLEVAL_UPDATE_EXPECTED=1 it rewrites the expectations instead.
func TestInputs(t *testing.T) {
	t.Parallel()
	bundle := bundlePath(t)
	update := os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1"
	for _, ex := range examples(t) {
		t.Run(strings.TrimPrefix(ex.input, "../"), func(t *testing.T) {
			raw := opa(t, "eval", "--format", "json", "--bundle", bundle, "--input", ex.input, ex.query)
			var result struct {
				Result []struct {
					Expressions []struct {
						Value json.RawMessage `json:"value"`
					} `json:"expressions"`
				} `json:"result"`
			}
			require.NoError(t, json.Unmarshal(raw, &result))
			require.Len(t, result.Result, 1, "%s is undefined", ex.query)
			require.Len(t, result.Result[0].Expressions, 1)
			matchExpected(t, ex.expected, result.Result[0].Expressions[0].Value, update)
		})
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
