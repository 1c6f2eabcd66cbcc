package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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
	for query, exs := range examplesByQuery(t) {
		results := opaEvalEach(t, bundle, query, inputsOf(exs))
		for i, ex := range exs {
			t.Run(strings.TrimPrefix(ex.input, "../"), func(t *testing.T) {
				matchExpected(t, ex.expected, results[i], update)
			})
		}
	}
}

// examplesByQuery groups the examples by the entry point they are evaluated with.
func examplesByQuery(t *testing.T) map[string][]example {
	t.Helper()
	out := map[string][]example{}
	for _, ex := range examples(t) {
		out[ex.query] = append(out[ex.query], ex)
	}
	return out
}

func inputsOf(exs []example) []string {
	out := make([]string, len(exs))
	for i, ex := range exs {
		out[i] = ex.input
	}
	return out
}

// opaEvalEach evaluates query with `go tool opa eval` on bundle for each
// input file, in one process: each document is bound as the input in turn
// (`with input as`), and the results come back in order. A query that is
// undefined for an input fails the test. The same evaluation is run once
// for the tests that ask for it (TestInputs and TestCLIEqualsOPAEval).
func opaEvalEach(t *testing.T, bundle, query string, inputs []string) []json.RawMessage {
	t.Helper()
	key := strings.Join(append([]string{bundle, query}, inputs...), "\x00")
	run, _ := opaEvaluations.LoadOrStore(key, sync.OnceValues(func() ([]json.RawMessage, error) {
		return opaEvalFiles(bundle, query, inputs)
	}))
	results, err := run.(func() ([]json.RawMessage, error))()
	require.NoError(t, err)
	require.Len(t, results, len(inputs), "%s is undefined for an input", query)
	return results
}

// opaEvaluations holds opaEvalEach's evaluations, by bundle, query and inputs.
var opaEvaluations sync.Map

func opaEvalFiles(bundle, query string, inputs []string) ([]json.RawMessage, error) {
	docs := make([]json.RawMessage, len(inputs))
	for i, f := range inputs {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if !json.Valid(data) {
			return nil, fmt.Errorf("%s is not JSON", f)
		}
		docs[i] = data
	}
	all, err := json.Marshal(docs)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "tooleval-opa-eval-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "inputs.json")
	if err := os.WriteFile(path, all, 0o600); err != nil {
		return nil, err
	}
	bin, err := opaBinary()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "eval", "--format", "raw", "--bundle", bundle, "--input", path, fmt.Sprintf("[x | some doc in input; x := %s with input as doc]", query))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("opa eval %s: %w: %s", query, err, stderr.String())
	}
	var results []json.RawMessage
	if err := json.Unmarshal(out, &results); err != nil {
		return nil, fmt.Errorf("opa eval: %w: %s", err, out)
	}
	return results, nil
}

// cliEach runs the command line once with args and then every input file,
// and returns each input's document in order (with several inputs,
// --format json prints one {"result", "source"} line per input) and the
// exit code.
func cliEach(t *testing.T, args []string, inputs []string) ([]json.RawMessage, int) {
	t.Helper()
	out, stderr, code := cli(t, "", append(append([]string{}, args...), inputs...)...)
	require.Contains(t, []int{0, 1, 3}, code, "tooleval %v: %s", args, stderr)
	if len(inputs) == 1 {
		return []json.RawMessage{json.RawMessage(out)}, code
	}
	var results []json.RawMessage
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Result json.RawMessage `json:"result"`
			Source string          `json:"source"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &r), "tooleval %v: %s", args, line)
		require.Equal(t, inputs[len(results)], r.Source, "tooleval %v answers out of order", args)
		results = append(results, r.Result)
	}
	require.Len(t, results, len(inputs), "tooleval %v: %s", args, out)
	return results, code
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
