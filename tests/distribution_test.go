package tests

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// bundleService is a bundle server: it serves whichever tarball was
// published last at /bundles/tooleval.tar.gz.
type bundleService struct {
	mu      sync.Mutex
	tarball []byte
	server  *httptest.Server
}

func newBundleService(t *testing.T) *bundleService {
	t.Helper()
	s := &bundleService{}
	s.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/bundles/tooleval.tar.gz" {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		data := s.tarball
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/gzip")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(data)
	}))
	t.Cleanup(s.server.Close)
	return s
}

func (s *bundleService) publish(tarball []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tarball = tarball
}

// changedPolicies copies policies/ and changes one rule: the not_allowed
// message gains a marker, so a server's answers show which revision it
// runs.
func changedPolicies(t *testing.T, marker string) string {
	t.Helper()
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS(harness.PoliciesDir())))
	messages := filepath.Join(dst, "tooleval", "verdict", "messages.rego")
	data, err := os.ReadFile(messages)
	require.NoError(t, err)
	changed := strings.Replace(string(data), `by layer %q%s"`, `by layer %q%s (`+marker+`)"`, 1)
	require.NotEqual(t, string(data), changed, "the rule to change was not found")
	require.NoError(t, os.WriteFile(messages, []byte(changed), 0o644))
	return dst
}

// serverConfig is an OPA configuration that pulls the bundle from url.
func serverConfig(url, extra string) []byte {
	return []byte(fmt.Sprintf(`services:
  bundles:
    url: %s
bundles:
  tooleval:
    service: bundles
    resource: /bundles/tooleval.tar.gz
    polling:
      min_delay_seconds: 1
      max_delay_seconds: 2
%s`, url, extra))
}

const refusedInput = `{"declared": [{"name": "read_file"}, {"name": "write_file"}],
	"layers": [{"name": "tenant", "allow": ["read_file"]}],
	"calls": [{"id": "call_a", "name": "write_file", "args": {"path": "/ws/x", "content": "TOP-SECRET-CONTENT"}}]}`

// messageOf returns the first decision's message from a server.
func messageOf(t *testing.T, s *harness.OPAServer) (string, bool) {
	t.Helper()
	result, ok, err := s.Query("tooleval/decision", []byte(refusedInput))
	if err != nil || !ok {
		return "", false
	}
	var d struct {
		Decisions []struct {
			Message string `json:"message"`
		} `json:"decisions"`
	}
	if jsonErr := jsonUnmarshal(result, &d); jsonErr != nil || len(d.Decisions) != 1 {
		return "", false
	}
	return d.Decisions[0].Message, true
}

// TestBundleDistribution: two OPA servers poll a bundle service; a new
// revision with a changed rule is published; both switch to it within the
// polling bound, and neither answers with an undefined decision meanwhile.
func TestBundleDistribution(t *testing.T) {
	t.Parallel()
	service := newBundleService(t)
	service.publish(harness.BuildBundle(t, harness.PoliciesDir(), "rev-a"))
	config := harness.WriteFile(t, "opa.yaml", serverConfig(service.server.URL, ""))
	servers := []*harness.OPAServer{
		harness.StartOPA(t, "--log-level", "error", "--config-file", config),
		harness.StartOPA(t, "--log-level", "error", "--config-file", config),
	}
	for _, s := range servers {
		require.Equal(t, "rev-a", s.Revision("tooleval"))
		msg, ok := messageOf(t, s)
		require.True(t, ok)
		require.Equal(t, `tool "write_file" is not permitted: refused by layer "tenant"`, msg)
	}

	// Query both servers without pause while the revision changes.
	var undefined, answered atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, ok := messageOf(t, s); ok {
					answered.Add(1)
				} else {
					undefined.Add(1)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}

	published := time.Now()
	service.publish(harness.BuildBundle(t, changedPolicies(t, "rev-b"), "rev-b"))
	bound := 10 * time.Second
	for i, s := range servers {
		require.Eventually(t, func() bool {
			msg, _ := messageOf(t, s)
			return s.Revision("tooleval") == "rev-b" && strings.HasSuffix(msg, "(rev-b)")
		}, bound, 50*time.Millisecond, "server %d did not switch to rev-b", i)
		t.Logf("server %d switched to rev-b %.1fs after publication", i, time.Since(published).Seconds())
	}
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()
	t.Logf("during the switch: %d answers, %d undefined", answered.Load(), undefined.Load())
	require.Zero(t, undefined.Load())
	require.Greater(t, answered.Load(), int64(20))
}

// signingKey generates an RSA key pair and writes both PEM files.
func signingKey(t *testing.T) (private, public string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	require.NoError(t, err)
	private = harness.WriteFile(t, "signing.pem", pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	public = harness.WriteFile(t, "verify.pem", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	return private, public
}

// verifyingServerConfig writes the configuration of a server that pulls
// the tooleval bundle from service and activates it only when it is
// signed with the private half of the public key file (key id tooleval).
func verifyingServerConfig(t *testing.T, service *bundleService, public string) string {
	t.Helper()
	pubPEM, err := os.ReadFile(public)
	require.NoError(t, err)
	indented := "      " + strings.ReplaceAll(strings.TrimSpace(string(pubPEM)), "\n", "\n      ")
	return harness.WriteFile(t, "opa.yaml", serverConfig(service.server.URL, fmt.Sprintf(`    signing:
      keyid: tooleval
keys:
  tooleval:
    algorithm: RS256
    key: |
%s
`, indented)))
}

// tamper changes a data file inside a bundle tarball and leaves its
// signature as it was.
func tamper(t *testing.T, tarball []byte, file string, edit func(string) string) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(tarball))
	require.NoError(t, err)
	tr := tar.NewReader(zr)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	found := false
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		data, err := io.ReadAll(tr)
		require.NoError(t, err)
		if strings.TrimPrefix(hdr.Name, "/") == file {
			changed := edit(string(data))
			require.NotEqual(t, string(data), changed)
			data = []byte(changed)
			found = true
		}
		hdr.Size = int64(len(data))
		require.NoError(t, tw.WriteHeader(hdr))
		_, err = tw.Write(data)
		require.NoError(t, err)
	}
	require.True(t, found, "%s is not in the bundle", file)
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	return out.Bytes()
}

// TestSignedBundles: the bundle is signed at build time and the server
// verifies it; a tampered bundle is rejected and the last good one keeps
// serving.
func TestSignedBundles(t *testing.T) {
	t.Parallel()
	private, public := signingKey(t)
	signed := harness.BuildBundle(t, harness.PoliciesDir(), "signed-a", "--signing-key", private, "--signing-alg", "RS256")
	service := newBundleService(t)
	service.publish(signed)
	server := harness.StartOPA(t, "--log-level", "info", "--config-file", verifyingServerConfig(t, service, public))
	require.Equal(t, "signed-a", server.Revision("tooleval"))

	// The tampered bundle would let sub-agents use gateway.
	tampered := tamper(t, harness.BuildBundle(t, harness.PoliciesDir(), "signed-b", "--signing-key", private, "--signing-alg", "RS256"),
		"data.json", func(s string) string { return strings.Replace(s, `"gateway",`, "", 1) })
	service.publish(tampered)
	require.Eventually(t, func() bool {
		return strings.Contains(server.Output.String(), "digest mismatch")
	}, 15*time.Second, 100*time.Millisecond, "the server did not reject the tampered bundle")
	time.Sleep(2 * time.Second) // a few more polling rounds
	require.Equal(t, "signed-a", server.Revision("tooleval"), "the tampered bundle was activated")
	result, ok, err := server.Query("tooleval/decision", []byte(`{"agent": {"role": "subagent", "depth": 1},
		"declared": [{"name": "gateway"}], "calls": [{"id": "g", "name": "gateway"}]}`))
	require.NoError(t, err)
	require.True(t, ok)
	require.Contains(t, string(result), `"subagent_hard_deny"`)

	// An unsigned bundle is rejected too.
	failures := strings.Count(server.Output.String(), "Bundle load failed")
	service.publish(harness.BuildBundle(t, harness.PoliciesDir(), "unsigned"))
	require.Eventually(t, func() bool {
		return strings.Count(server.Output.String(), "Bundle load failed") > failures+1
	}, 15*time.Second, 100*time.Millisecond, "the server did not reject the unsigned bundle")
	require.Equal(t, "signed-a", server.Revision("tooleval"))
}

// TestDecisionLogsMaskArguments: with the console decision log on, each
// logged decision carries the input's call ids and names, and the mask
// policy shipped in the bundle keeps call arguments out.
func TestDecisionLogsMaskArguments(t *testing.T) {
	t.Parallel()
	server := harness.StartOPA(t, "--log-level", "info", "--bundle", harness.BundlePath(t), "--set", "decision_logs.console=true")
	_, ok, err := server.Query("tooleval/decision", []byte(refusedInput))
	require.NoError(t, err)
	require.True(t, ok)
	var line string
	require.Eventually(t, func() bool {
		for _, l := range strings.Split(server.Output.String(), "\n") {
			if strings.Contains(l, `"Decision Log"`) && strings.Contains(l, "call_a") {
				line = l
				return true
			}
		}
		return false
	}, 10*time.Second, 100*time.Millisecond, "no decision log line:\n%s", server.Output.String())
	require.Contains(t, line, `"decision_id"`)
	require.Contains(t, line, `"write_file"`)
	require.Contains(t, line, `/input/calls/0/args`, "the log should say what was erased")
	require.NotContains(t, line, "TOP-SECRET-CONTENT")
	require.NotContains(t, line, `/ws/x`)
}

// TestDecisionLogsMaskWhatIdentifies: the decision log of a stock OPA
// server keeps no path, no user and no session: not the argument, not
// the refused path in the result's message, not caller.user, the
// requester, the handoff or the workspace. What a decision was (call ids
// and names, verdicts, reasons, layers, rules) stays.
func TestDecisionLogsMaskWhatIdentifies(t *testing.T) {
	t.Parallel()
	server := harness.StartOPA(t, "--log-level", "info", "--bundle", harness.BundlePath(t), "--set", "decision_logs.console=true")
	pathRefusal := `{"declared": [{"name": "write_file"}, {"name": "read_file"}],
		"workspace": {"root": "/home/alice/ws", "read_roots": ["/home/alice/skills"], "excluded": ["alice-private"]},
		"caller": {"user": "alice@example.com", "scopes": null},
		"calls": [{"id": "call_w", "name": "write_file", "args": {"path": "/home/alice/.ssh/authorized_keys", "content": "ssh-ed25519 AAAA"}},
		          {"id": "call_r", "name": "read_file", "args": {"path": "/home/alice/ws/notes.txt"}}]}`
	continuation := `{"declared": [{"name": "read_file"}],
		"requester": {"session": "alice-session-1", "batch": "alice-batch-1", "policy_digest": "d"},
		"handoff": {"session": "alice-session-1", "batch": "alice-batch-1", "children": []},
		"calls": [{"id": "call_h", "name": "read_file"}]}`
	result, ok, err := server.Query("tooleval/decision", []byte(pathRefusal))
	require.NoError(t, err)
	require.True(t, ok)
	require.Contains(t, string(result), `/home/alice/.ssh/authorized_keys\" is outside the workspace`, "the caller gets the message")
	_, ok, err = server.Query("tooleval/decision", []byte(continuation))
	require.NoError(t, err)
	require.True(t, ok)

	logLine := func(id string) string {
		var line string
		require.Eventually(t, func() bool {
			for _, l := range strings.Split(server.Output.String(), "\n") {
				if strings.Contains(l, `"Decision Log"`) && strings.Contains(l, id) {
					line = l
					return true
				}
			}
			return false
		}, 10*time.Second, 100*time.Millisecond, "no decision log line:\n%s", server.Output.String())
		require.NotContains(t, strings.ToLower(line), "alice", "the log identifies a person or a file:\n%s", line)
		return line
	}
	line := logLine("call_w")
	for _, kept := range []string{`"call_w"`, `"call_r"`, `"write_file"`, `"outside_workspace"`, `"reason":"path"`, `"layer":"workspace"`} {
		require.Contains(t, line, kept)
	}
	for _, erased := range []string{"/input/calls/0/args", "/input/calls/1/args", "/input/caller/user", "/input/workspace", "/result/decisions/0/message"} {
		require.Contains(t, line, `"`+erased+`"`, "the event should list what was erased")
	}
	line = logLine("call_h")
	for _, erased := range []string{"/input/requester", "/input/handoff"} {
		require.Contains(t, line, `"`+erased+`"`, "the event should list what was erased")
	}
}

// TestCLIConfiguredAndSignedBundle: tooleval bundle build --config
// --signing-key makes, in one command, a bundle that a stock OPA server
// verifying signatures activates and decides with the configuration.
func TestCLIConfiguredAndSignedBundle(t *testing.T) {
	t.Parallel()
	private, public := signingKey(t)
	overlay := harness.WriteFile(t, "config.json", []byte(`{"tenants": {"acme": {"tools": ["read_file"]}}}`))
	tarball := filepath.Join(t.TempDir(), "tooleval.tar.gz")
	_, stderr, code := harness.CLI(t, "", "bundle", "build", "--config", overlay, "--revision", "configured-signed",
		"--signing-key", private, "--signing-key-id", "tooleval", "-o", tarball)
	require.Equal(t, 0, code, stderr)
	signed, err := os.ReadFile(tarball)
	require.NoError(t, err)

	service := newBundleService(t)
	service.publish(signed)
	server := harness.StartOPA(t, "--config-file", verifyingServerConfig(t, service, public))
	require.Equal(t, "configured-signed", server.Revision("tooleval"))
	result, ok, err := server.Query("tooleval/decision", []byte(`{"tenant": "acme",
		"declared": [{"name": "read_file"}, {"name": "write_file"}],
		"calls": [{"id": "r", "name": "read_file"}, {"id": "w", "name": "write_file"}]}`))
	require.NoError(t, err)
	require.True(t, ok)
	var d struct {
		Decisions []struct {
			Allowed bool   `json:"allowed"`
			Layer   string `json:"layer"`
		} `json:"decisions"`
	}
	require.NoError(t, json.Unmarshal(result, &d))
	require.Len(t, d.Decisions, 2)
	require.True(t, d.Decisions[0].Allowed)
	require.Equal(t, "tenant", d.Decisions[1].Layer, "the configuration is in the signed bundle")

	_, stderr, code = harness.CLI(t, "", "bundle", "build", "--signing-key", private, "--signing-alg", "XX1", "-o", tarball)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "signing key")
	kept, err := os.ReadFile(tarball)
	require.NoError(t, err)
	require.Equal(t, signed, kept, "a refused build leaves the bundle as it was")
}
