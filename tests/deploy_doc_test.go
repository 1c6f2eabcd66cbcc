package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
	addr := freeAddr(t)
	script = strings.ReplaceAll(script, "127.0.0.1:8181", addr)
	script = strings.ReplaceAll(script, "localhost:8181", addr)

	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bundle"), 0o755))
	bundle, err := os.ReadFile(bundlePath(t))
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
