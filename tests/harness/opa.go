package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// OPABinary is the path of the OPA executable that `go tool opa` runs, so
// that a test can start (and stop) the server process itself.
var OPABinary = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "tool", "-n", "opa").Output()
	if err != nil {
		return "", fmt.Errorf("go tool -n opa: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
})

// OPA runs `go tool opa` with the arguments and returns its output. It
// runs the executable that `go tool opa` runs, without the go command's
// start-up each time.
func OPA(t testing.TB, args ...string) []byte {
	t.Helper()
	bin, err := OPABinary()
	require.NoError(t, err)
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go tool opa %s: %s", strings.Join(args, " "), stderr.String())
	return out
}

// BundlePath is the built bundle the examples are evaluated with: the one
// `make bundle` built (TOOLEVAL_BUNDLE), or one built here.
func BundlePath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("TOOLEVAL_BUNDLE"); p != "" {
		return p
	}
	p := filepath.Join(t.TempDir(), "tooleval.tar.gz")
	OPA(t, "build", "--bundle", PoliciesDir(), "--ignore", "*_test.rego", "--output", p)
	return p
}

// OPAEvalEach evaluates query with `go tool opa eval` on bundle for each
// input file, in one process: each document is bound as the input in
// turn (`with input as`), and the results come back in order. A query
// that is undefined for an input fails the test. The same evaluation is
// run once per test binary for the tests that ask for it.
func OPAEvalEach(t testing.TB, bundle, query string, inputs []string) []json.RawMessage {
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

// opaEvaluations holds OPAEvalEach's evaluations, by bundle, query and inputs.
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
	bin, err := OPABinary()
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

// FreeAddr returns a loopback address with a free port.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// OPAServer is a real `opa run --server` on a loopback port.
type OPAServer struct {
	URL    string      // its base URL, http://HOST:PORT
	Output *SyncBuffer // what it printed
	Client *http.Client
}

// StartOPA starts `opa run --server` with the extra arguments, waits
// until /health?bundles answers 200, and stops the process when the test
// ends.
func StartOPA(t testing.TB, args ...string) *OPAServer {
	t.Helper()
	bin, err := OPABinary()
	require.NoError(t, err)
	addr := FreeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"run", "--server", "--addr", addr, "--skip-version-check"}, args...)...)
	out := &SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	s := &OPAServer{URL: "http://" + addr, Output: out, Client: &http.Client{Timeout: 10 * time.Second}}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := s.Client.Get(s.URL + "/health?bundles")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("OPA at %s did not become healthy: %v\n%s", addr, err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Query POSTs {"input": input} to /v1/data/<path> and returns the raw
// result member; ok is false when the result is undefined.
func (s *OPAServer) Query(path string, input []byte) (result json.RawMessage, ok bool, err error) {
	body := append(append([]byte(`{"input":`), input...), '}')
	resp, err := s.Client.Post(s.URL+"/v1/data/"+path, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, false, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, false, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, false, fmt.Errorf("POST /v1/data/%s: %s: %s", path, resp.Status, data)
	}
	var doc struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, false, err
	}
	return doc.Result, doc.Result != nil, nil
}

// Revision returns the manifest revision of the named bundle.
func (s *OPAServer) Revision(bundle string) string {
	resp, err := s.Client.Get(s.URL + "/v1/data/system/bundles/" + bundle + "/manifest/revision")
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var doc struct {
		Result string `json:"result"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&doc)
	return doc.Result
}

// BuildBundle runs `go tool opa build` on a policy directory at a
// revision (extra arguments appended), as `make bundle` does, and
// returns the tarball.
func BuildBundle(t testing.TB, source, revision string, extra ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "bundle.tar.gz")
	args := append([]string{"build", "--bundle", source, "--ignore", "*_test.rego", "--revision", revision, "--output", out}, extra...)
	OPA(t, args...)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	return data
}
