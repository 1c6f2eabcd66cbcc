package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/hooks"
	"github.com/tooleval/tooleval/tests/harness"
)

// hooksConfig is a deployment answering Claude Code's hooks.
var hooksConfig = engine.Config{
	"preset": "claude_code",
	"hooks":  map[string]any{"workspace": "cwd"},
	"tools": map[string]any{
		"deny": []any{map[string]any{"tool": "Bash", "command_prefix": "git push"}, "mcp__github__delete_repo"},
		"ask":  []any{map[string]any{"tool": "Bash", "command_prefix": "npm publish"}},
	},
}

// hookPayloads are Claude Code PreToolUse payloads (the fixture of
// internal/hooks/testdata with members replaced), by what they show.
func hookPayloads(t *testing.T) map[string][]byte {
	t.Helper()
	data, err := os.ReadFile("../internal/hooks/testdata/claude_code_pretooluse.json")
	require.NoError(t, err)
	with := func(set map[string]any) []byte {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(data, &doc))
		for k, v := range set {
			doc[k] = v
		}
		out, err := json.Marshal(doc)
		require.NoError(t, err)
		return out
	}
	return map[string][]byte{
		"allow":         with(nil),
		"deny":          with(map[string]any{"tool_input": map[string]any{"command": "git push origin main"}}),
		"ask":           with(map[string]any{"tool_input": map[string]any{"command": "npm publish"}}),
		"subagent":      with(map[string]any{"agent_id": "a1", "agent_type": "Explore", "tool_input": map[string]any{"command": "git push"}}),
		"mcp":           with(map[string]any{"tool_name": "mcp__github__delete_repo", "tool_input": map[string]any{}}),
		"outside":       with(map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "/etc/x", "content": "x"}}),
		"another event": with(map[string]any{"hook_event_name": "PostToolUse"}),
		"not an object": []byte(`["PreToolUse"]`),
	}
}

// TestClaudeCodeHTTPHookOnStockOPA: a stock `opa run --server` whose
// default decision is tooleval/hooks/claude_code answers Claude Code's
// http hook at POST / (the raw payload is the input), with the document
// tooleval serve and tooleval hook give for the same payload.
func TestClaudeCodeHTTPHookOnStockOPA(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundle := filepath.Join(dir, "hooks.tar.gz")
	f, err := os.Create(bundle)
	require.NoError(t, err)
	require.NoError(t, engine.WriteBundle(context.Background(), f, harness.PoliciesDir(), "hooks", hooksConfig))
	require.NoError(t, f.Close())
	server := harness.StartOPA(t, "--log-level", "error", "--bundle", bundle, "--set", "default_decision=tooleval/hooks/claude_code")

	e, err := engine.New(context.Background(), engine.WithConfig(hooksConfig))
	require.NoError(t, err)
	d := hooks.NewDecider(hooks.Options{})
	d.SetEngine(e, nil)

	want := map[string]string{
		"allow": "", "deny": "deny", "ask": "ask", "subagent": "deny", "mcp": "deny", "outside": "deny",
		"another event": "deny", "not an object": "deny",
	}
	for name, payload := range hookPayloads(t) {
		resp, err := server.Client.Post(server.URL+"/", "application/json", bytes.NewReader(payload))
		require.NoError(t, err, name)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", name, body)

		var doc struct {
			Output struct {
				Decision string `json:"permissionDecision"`
			} `json:"hookSpecificOutput"`
		}
		require.NoError(t, json.Unmarshal(body, &doc), name)
		require.Equal(t, want[name], doc.Output.Decision, "%s: %s", name, body)

		local := d.Answer(context.Background(), "claude_code", payload)
		require.JSONEq(t, string(local.Output), string(body), "%s: the stock OPA server and tooleval answer alike", name)
	}
}
