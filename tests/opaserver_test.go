package tests

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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// opaBinary is the path of the OPA executable that `go tool opa` runs, so
// that a test can start (and stop) the server process itself.
var opaBinary = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "tool", "-n", "opa").Output()
	if err != nil {
		return "", fmt.Errorf("go tool -n opa: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
})

// syncBuffer collects a process's output safely across goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// opaServer is a real `opa run --server` on a loopback port.
type opaServer struct {
	url    string
	output *syncBuffer
	client *http.Client
}

// freeAddr returns a loopback address with a free port.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// startOPA starts `opa run --server` with the extra arguments, waits until
// /health?bundles answers 200, and stops the process when the test ends.
func startOPA(t *testing.T, args ...string) *opaServer {
	t.Helper()
	bin, err := opaBinary()
	require.NoError(t, err)
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"run", "--server", "--addr", addr, "--skip-version-check"}, args...)...)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	s := &opaServer{url: "http://" + addr, output: out, client: &http.Client{Timeout: 10 * time.Second}}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := s.client.Get(s.url + "/health?bundles")
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

// query POSTs {"input": input} to /v1/data/<path> and returns the raw
// result member; ok is false when the result is undefined.
func (s *opaServer) query(path string, input []byte) (result json.RawMessage, ok bool, err error) {
	body := append(append([]byte(`{"input":`), input...), '}')
	resp, err := s.client.Post(s.url+"/v1/data/"+path, "application/json", bytes.NewReader(body))
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

// revision returns the manifest revision of the named bundle.
func (s *opaServer) revision(bundle string) string {
	resp, err := s.client.Get(s.url + "/v1/data/system/bundles/" + bundle + "/manifest/revision")
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

// writeFile writes data to a new file in the test's temporary directory.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := t.TempDir() + "/" + name
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// The revision look-ups docs/deploy.md shows answer for the set-ups it
// shows them with: the bundle named tooleval (a local file loaded under
// that name), and every bundle's revision for --bundle FILE.
func TestDeployDocRevisionLookUps(t *testing.T) {
	t.Parallel()
	tarball := bundlePath(t)
	named := startOPA(t, "--set", "bundles.tooleval.resource=file://"+tarball, "--set", "bundles.tooleval.service=")
	want := named.revision("tooleval")
	require.NotEmpty(t, want, "GET /v1/data/system/bundles/tooleval/manifest/revision")

	byPath := startOPA(t, "--bundle", tarball)
	require.Empty(t, byPath.revision("tooleval"), "with --bundle FILE the bundle is named by its path")
	resp, err := byPath.client.Post(byPath.url+"/v1/query", "application/json",
		strings.NewReader(`{"query": "x := data.system.bundles[_].manifest.revision"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	var doc struct {
		Result []struct {
			X string `json:"x"`
		} `json:"result"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
	require.Len(t, doc.Result, 1)
	require.Equal(t, want, doc.Result[0].X)
}
