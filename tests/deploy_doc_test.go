package tests

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestDeployPinnedOPASnippetRuns runs docs/deploy.md's "OPA from this
// repository's go.mod" commands as written, in a directory holding the
// built bundle, with OPA's loopback port replaced by a free one: OPA is
// built from go.mod, started, answers /health?bundles once it listens
// (the snippet waits for it, so curl does not run before OPA listens and
// print nothing), and stops on SIGTERM.
func TestDeployPinnedOPASnippetRuns(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/deploy.md")
	require.NoError(t, err)
	_, section, found := strings.Cut(string(data), "### OPA from this repository's go.mod")
	require.True(t, found)
	blocks := docBlocks(t, section, "sh")
	require.NotEmpty(t, blocks)
	script := blocks[0]
	addr := harness.FreeAddr(t)
	script = strings.ReplaceAll(script, "127.0.0.1:8181", addr)
	script = strings.ReplaceAll(script, "localhost:8181", addr)

	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bundle"), 0o755))
	bundle, err := os.ReadFile(harness.BundlePath(t))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bundle", "tooleval.tar.gz"), bundle, 0o600))
	// go build resolves OPA from this repository's go.mod: the line runs
	// in the repository, writing bin/opa into the snippet's directory.
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	const build = "go build -o bin/opa github.com/open-policy-agent/opa"
	script = strings.Replace(script, build, "(cd "+repo+" && go build -o "+filepath.Join(dir, "bin", "opa")+" github.com/open-policy-agent/opa)", 1)
	// The snippet runs in a process group of its own, killed whole when
	// the test ends: a snippet that stops early must not leave OPA behind
	// holding its output open.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	defer func() {
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "{}", "OPA answered /health?bundles: %s", out)
}

// TestDeployRESTExamplesAnswerAsShown sends docs/deploy.md's REST
// requests (its curl commands to /v1/data/tooleval/...) as written to a
// real opa run --server with the bundle, the port replaced by the
// server's, and holds each answer to the JSON the page shows after it
// (compared as JSON, key order and layout aside); a request the page
// shows no answer for must have a result.
func TestDeployRESTExamplesAnswerAsShown(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/deploy.md")
	require.NoError(t, err)
	_, section, found := strings.Cut(string(data), "## REST requests")
	require.True(t, found)
	section, _, _ = strings.Cut(section, "\n## ")
	server := harness.StartOPA(t, "--log-level", "error", "--bundle", harness.BundlePath(t))
	block := regexp.MustCompile("(?s)```(sh|json)\n(.*?)```")
	blocks := block.FindAllStringSubmatch(section, -1)
	requests := 0
	for i, b := range blocks {
		if b[1] != "sh" || !strings.Contains(b[2], "localhost:8181/v1/data/tooleval/") {
			continue
		}
		requests++
		script := strings.ReplaceAll(b[2], "http://localhost:8181", server.URL)
		script = strings.ReplaceAll(script, "localhost:8181", strings.TrimPrefix(server.URL, "http://"))
		out, err := exec.Command("bash", "-euo", "pipefail", "-c", script).CombinedOutput()
		require.NoError(t, err, "%s\n%s", script, out)
		var got map[string]any
		require.NoError(t, json.Unmarshal(out, &got), "%s", out)
		require.Contains(t, got, "result", "%s answered %s", script, out)
		if i+1 < len(blocks) && blocks[i+1][1] == "json" {
			var want map[string]any
			require.NoError(t, json.Unmarshal([]byte(blocks[i+1][2]), &want), "the answer deploy.md shows")
			require.Equal(t, want, got, "docs/deploy.md shows another answer to\n%s", b[2])
		}
	}
	require.GreaterOrEqual(t, requests, 3)
}

// TestDeployOPARunCommandsServe starts every `opa run --server` command
// of docs/deploy.md's blocks as written (the pinned OPA as opa on the
// PATH, in a directory with the bundle where the command names it, the
// address replaced by a free loopback port) and holds it to serving the
// bundle (/health?bundles answers 200). The one that reads
// bundle/opa-config.yaml needs a bundle service and a key of one's own:
// TestDeployBundleServiceTemplateServes runs it with the page's
// configuration filled in.
func TestDeployOPARunCommandsServe(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/deploy.md")
	require.NoError(t, err)
	bundle, err := os.ReadFile(harness.BundlePath(t))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bundle"), 0o755))
	for _, name := range []string{"bundle/tooleval.tar.gz", "tooleval.tar.gz"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), bundle, 0o600))
	}
	commands := 0
	for _, block := range docBlocks(t, string(data), "sh") {
		for _, line := range strings.Split(block, "\n") {
			if !strings.HasPrefix(line, "opa run --server") || strings.Contains(line, "--config-file") {
				continue
			}
			commands++
			server := serveDocOPA(t, dir, line)
			require.True(t, server.healthy, "docs/deploy.md: %q did not serve the bundle:\n%s", line, server.out.String())
			server.stop()
		}
	}
	require.GreaterOrEqual(t, commands, 2)
}

// docOPA is an OPA server a test started from a command the docs show.
type docOPA struct {
	addr    string              // the loopback address it listens on
	out     *harness.SyncBuffer // what it printed
	healthy bool                // it served its bundle (/health?bundles answered 200)
	stop    func()              // stops it and waits for it (also at the test's end)
}

// serveDocOPA runs an opa run command the docs show, as written but for
// its address (0.0.0.0:8181 or 127.0.0.1:8181, replaced by a free
// loopback port), in dir with the pinned OPA as opa on the PATH, and
// waits until it serves its bundle, stops, or two minutes pass.
func serveDocOPA(t *testing.T, dir, command string) *docOPA {
	t.Helper()
	bin, err := harness.OPABinary()
	require.NoError(t, err)
	path := filepath.Join(dir, "path")
	if _, err := os.Stat(filepath.Join(path, "opa")); err != nil {
		require.NoError(t, os.MkdirAll(path, 0o755))
		require.NoError(t, os.Symlink(bin, filepath.Join(path, "opa")))
	}
	s := &docOPA{addr: harness.FreeAddr(t), out: &harness.SyncBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "bash", "-c", "exec "+strings.NewReplacer("0.0.0.0:8181", s.addr, "127.0.0.1:8181", s.addr).Replace(command))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Stdout, cmd.Stderr = s.out, s.out
	require.NoError(t, cmd.Start(), command)
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.stop = sync.OnceFunc(func() { cancel(); <-exited })
	t.Cleanup(s.stop)
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case <-exited:
			return s // it stopped: it will not serve
		default:
		}
		if resp, err := http.Get("http://" + s.addr + "/health?bundles"); err == nil {
			resp.Body.Close()
			if s.healthy = resp.StatusCode == http.StatusOK; s.healthy {
				return s
			}
		}
	}
	return s
}

// TestDeploySymlinkSwapRunsAsShown runs docs/deploy.md's symbolic link
// swap as written, in a directory whose current link names rev-41: the
// link then names rev-42 (mv -T renames the new link over the old one,
// not into the directory the old one names).
func TestDeploySymlinkSwapRunsAsShown(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/deploy.md")
	require.NoError(t, err)
	const swap = "ln -s bundles/rev-42 current.tmp && mv -T current.tmp current"
	require.Contains(t, string(data), swap)
	dir := t.TempDir()
	for _, rev := range []string{"rev-41", "rev-42"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "bundles", rev), 0o755))
	}
	require.NoError(t, os.Symlink("bundles/rev-41", filepath.Join(dir, "current")))
	cmd := exec.Command("sh", "-c", swap)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	target, err := os.Readlink(filepath.Join(dir, "current"))
	require.NoError(t, err)
	require.Equal(t, "bundles/rev-42", target)
	entries, err := os.ReadDir(filepath.Join(dir, "bundles", "rev-41"))
	require.NoError(t, err)
	require.Empty(t, entries, "the new link went over the old one, not into rev-41")
}

// TestMakeBundleSignsWithSigningKey runs docs/deploy.md's `make bundle
// SIGNING_KEY=signing.pem` (the bundle written to a temporary file, the
// key made by the page's openssl lines): the tarball carries
// .signatures.json, and tooleval loads it with the public key and
// refuses it with another.
func TestMakeBundleSignsWithSigningKey(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/deploy.md")
	require.NoError(t, err)
	require.Contains(t, string(data), "make bundle SIGNING_KEY=signing.pem")
	dir := t.TempDir()
	key, public, bundle := filepath.Join(dir, "signing.pem"), filepath.Join(dir, "verify.pem"), filepath.Join(dir, "tooleval.tar.gz")
	for _, line := range []string{"openssl genrsa -out " + key + " 2048", "openssl rsa -in " + key + " -pubout -out " + public} {
		out, err := exec.Command("sh", "-c", line).CombinedOutput()
		require.NoError(t, err, "%s: %s", line, out)
	}
	out, err := exec.Command("make", "-C", "..", "--no-print-directory", "bundle", "SIGNING_KEY="+key, "BUNDLE="+bundle).CombinedOutput()
	require.NoError(t, err, "%s", out)
	list, err := exec.Command("tar", "-tzf", bundle).CombinedOutput()
	require.NoError(t, err, "%s", list)
	require.Contains(t, string(list), ".signatures.json")
	tooleval, err := harness.BuildCLI()
	require.NoError(t, err)
	out, err = exec.Command(tooleval, "check", "--bundle", bundle, "--verification-key", public).CombinedOutput()
	require.NoError(t, err, "tooleval verifies the signed bundle with the public key: %s", out)
	other := filepath.Join(dir, "other.pem")
	out, err = exec.Command("sh", "-c", "openssl genrsa 2048 | openssl rsa -pubout -out "+other).CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.Command(tooleval, "check", "--bundle", bundle, "--verification-key", other).CombinedOutput()
	require.Error(t, err, "another key does not verify it: %s", out)
}
