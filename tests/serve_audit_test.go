package tests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestServeWritesEveryAuditRecordBeforeExiting: tooleval serve writes
// its audit records after it answers; stopped by SIGINT or SIGTERM (as
// a service manager stops it), it exits 0 having written one record for
// every call it answered, in the order it answered them.
func TestServeWritesEveryAuditRecordBeforeExiting(t *testing.T) {
	t.Parallel()
	tooleval, err := harness.BuildCLI()
	require.NoError(t, err)
	payload, err := os.ReadFile("../internal/hooks/testdata/claude_code_pretooluse.json")
	require.NoError(t, err)
	for _, signal := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(signal.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			auditLog, config := filepath.Join(dir, "audit.log"), filepath.Join(dir, "config.json")
			require.NoError(t, os.WriteFile(config, []byte(`{"preset": "claude_code", "hooks": {"workspace": "cwd"},
				"tools": {"allow": [{"tool": "Bash", "command_prefix": "ls"}]}}`), 0o600))
			addr := harness.FreeAddr(t)
			serve := exec.Command(tooleval, "serve", "--listen", addr, "--config", config, "--audit-log", auditLog)
			var stderr harness.SyncBuffer
			serve.Stderr = &stderr
			require.NoError(t, serve.Start())
			t.Cleanup(func() { _ = serve.Process.Kill() })

			url := "http://" + addr + "/v1/hooks/claude-code"
			call := func(i int) []byte {
				var p map[string]any
				require.NoError(t, json.Unmarshal(payload, &p))
				p["tool_use_id"] = fmt.Sprintf("toolu_%03d", i)
				body, err := json.Marshal(p)
				require.NoError(t, err)
				return body
			}
			postWhenUp(t, url, call(0))
			want := []string{"toolu_000"}
			for i := 1; i < 40; i++ {
				resp, err := http.Post(url, "application/json", bytes.NewReader(call(i)))
				require.NoError(t, err)
				resp.Body.Close()
				require.Equal(t, http.StatusOK, resp.StatusCode)
				want = append(want, fmt.Sprintf("toolu_%03d", i))
			}
			require.NoError(t, serve.Process.Signal(signal))
			require.NoError(t, serve.Wait(), "serve exits 0 on %s\n%s", signal, stderr.String())

			f, err := os.Open(auditLog)
			require.NoError(t, err)
			defer f.Close()
			var got []string
			lines := bufio.NewScanner(f)
			lines.Buffer(nil, 1<<20)
			for lines.Scan() {
				var rec struct {
					Path  string `json:"path"`
					Input struct {
						Calls []struct {
							ID string `json:"id"`
						} `json:"calls"`
					} `json:"input"`
				}
				require.NoError(t, json.Unmarshal(lines.Bytes(), &rec))
				if rec.Path == "tooleval/decision" && len(rec.Input.Calls) == 1 {
					got = append(got, rec.Input.Calls[0].ID)
				}
			}
			require.NoError(t, lines.Err())
			require.Equal(t, want, got)
		})
	}
}
