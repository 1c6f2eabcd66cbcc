//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/tests/harness"
)

// The hooks are held against the runtimes with the real binaries:
// `tooleval` and `tooleval-hook` are built once per test binary into a
// temporary directory, and each test starts its own `tooleval serve`
// (docs/hooks.md).

var (
	buildOnce sync.Once
	builtDir  string
	buildErr  error
)

// hookBinaries builds tooleval and tooleval-hook (once) and returns the
// directory holding them.
func hookBinaries(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		root := harness.Root()
		builtDir, buildErr = os.MkdirTemp("", "tooleval-e2e-bin-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", builtDir+string(filepath.Separator), "./cmd/tooleval", "./cmd/tooleval-hook")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return builtDir
}

// HookServer is one running `tooleval serve`.
type HookServer struct {
	Bin    string // the directory of tooleval and tooleval-hook
	Socket string // its Unix socket, when it serves one
	Addr   string // its loopback HOST:PORT, when it listens on one
	Audit  string // its audit log (JSON Lines)
}

// Hook is the command a runtime runs as its hook: tooleval-hook RUNTIME
// asking this server (absolute paths: the runtimes run it through a shell
// with the test's PATH).
func (h *HookServer) Hook(rt string) string {
	return fmt.Sprintf("%s %s --server unix:%s", filepath.Join(h.Bin, "tooleval-hook"), rt, h.Socket)
}

// StartHookServer starts `tooleval serve` with config on a Unix socket,
// or on a free loopback port when tcp, and stops it when t ends.
func StartHookServer(t *testing.T, config map[string]any, tcp bool) *HookServer {
	t.Helper()
	bin := hookBinaries(t)
	// A short directory: a socket's path has at most 107 bytes.
	dir, err := os.MkdirTemp("", "teh-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	cfg, err := json.Marshal(config)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o644))
	h := &HookServer{Bin: bin, Audit: filepath.Join(dir, "audit.jsonl")}
	args := []string{"serve", "--config", filepath.Join(dir, "config.json"), "--audit-log", h.Audit}
	if tcp {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		h.Addr = l.Addr().String()
		require.NoError(t, l.Close())
		args = append(args, "--listen", h.Addr)
	} else {
		h.Socket = filepath.Join(dir, "s.sock")
		args = append(args, "--socket", h.Socket)
	}
	cmd := exec.Command(filepath.Join(bin, "tooleval"), args...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	// Ready when it answers a connection (generous: the machine may be busy).
	network, addr := "unix", h.Socket
	if tcp {
		network, addr = "tcp", h.Addr
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		if c, err := net.Dial(network, addr); err == nil {
			_ = c.Close()
			return h
		}
		select {
		case <-ctx.Done():
			t.Fatalf("tooleval serve did not come up: %s", log.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// AuditRecord is one decision of the audit log: the call (id and tool)
// and its outcome.
type AuditRecord struct {
	ID, Tool, Outcome, Layer string
}

// AuditRecords reads the decisions serve logged.
func (h *HookServer) AuditRecords(t *testing.T) []AuditRecord {
	t.Helper()
	f, err := os.Open(h.Audit)
	require.NoError(t, err)
	defer f.Close()
	var out []AuditRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var rec struct {
			Msg    string `json:"msg"`
			Result struct {
				Decisions []struct {
					ID      string `json:"id"`
					Name    string `json:"name"`
					Outcome string `json:"outcome"`
					Layer   string `json:"layer"`
				} `json:"decisions"`
			} `json:"result"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), "audit line %s", sc.Text())
		for _, d := range rec.Result.Decisions {
			out = append(out, AuditRecord{ID: d.ID, Tool: d.Name, Outcome: d.Outcome, Layer: d.Layer})
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// jsonText is v as JSON text.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
