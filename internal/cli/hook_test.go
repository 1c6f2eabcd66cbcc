package cli

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/hooks"
)

const hookPayload = `{"session_id":"s","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse",
"tool_name":"Bash","tool_input":{"command":"git push origin main"},"tool_use_id":"t1"}`

const hookConfig = `{"preset":"claude_code","tools":{"deny":[{"tool":"Bash","command_prefix":"git push"}]}}`

// denyReason reads the reason of a Claude Code deny form, or fails.
func denyReason(t *testing.T, out string) string {
	t.Helper()
	var doc struct {
		Output struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	require.Equal(t, "deny", doc.Output.Decision, out)
	return doc.Output.Reason
}

// TestHookDecidesInProcess: with no server, the policy the flags choose
// decides; a deny exits 2 with the reason on standard error.
func TestHookDecidesInProcess(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir()) // no default socket
	t.Setenv(ServerEnv, "")
	config := filepath.Join(t.TempDir(), "config.json")
	require.NoError(t, os.WriteFile(config, []byte(hookConfig), 0o600))
	out, stderr, code := run(t, hookPayload, false, "hook", "claude-code", "--config", config)
	require.Equal(t, 2, code)
	reason := denyReason(t, out)
	require.Contains(t, reason, `denied by layer "global_policy"`)
	require.Equal(t, reason+"\n", stderr)
}

// TestHookFailsClosed: every mistake is the runtime's deny form, exit 2.
func TestHookFailsClosed(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv(ServerEnv, "")
	gone := "unix:" + filepath.Join(t.TempDir(), "none.sock")
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"unknown runtime":     {[]string{"hook", "claude"}, "unknown runtime"},
		"no runtime":          {[]string{"hook"}, "name one runtime"},
		"unknown flag":        {[]string{"hook", "claude-code", "--nope"}, "unknown flag"},
		"server not there":    {[]string{"hook", "claude-code", "--server", gone}, "ask tooleval serve"},
		"server and config":   {[]string{"hook", "claude-code", "--server", gone, "--config", "x.json"}, "decides with its own"},
		"bad server":          {[]string{"hook", "claude-code", "--server", "ftp://x"}, "give http://HOST:PORT or unix:PATH"},
		"config not readable": {[]string{"hook", "claude-code", "--config", filepath.Join(t.TempDir(), "none.json")}, "could not load the policy"},
	} {
		out, stderr, code := run(t, hookPayload, false, c.args...)
		require.Equal(t, 2, code, name)
		require.Contains(t, denyReason(t, out), c.want, name)
		require.Contains(t, stderr, c.want, name)
	}
	out, _, code := run(t, hookPayload, false, "hook", "gemini", "--server", gone)
	require.Equal(t, 2, code)
	require.Contains(t, out, `"decision":"deny"`, "Gemini CLI's deny form")
}

// TestHookForwardsToServe: $TOOLEVAL_SERVER and a socket found in
// $XDG_RUNTIME_DIR are asked; a found socket that does not answer is
// passed over (the policy here decides).
func TestHookForwardsToServe(t *testing.T) {
	d := hooks.NewDecider(hooks.Options{})
	answered := 0
	srv := httptest.NewServer(countingHandler(&answered, hooks.Handler(d)))
	defer srv.Close()
	d.SetEngine(nil, os.ErrNotExist) // the server's own failure, to tell its answer apart
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv(ServerEnv, srv.URL)
	out, _, code := run(t, hookPayload, false, "hook", "claude-code")
	require.Equal(t, 2, code)
	require.Contains(t, denyReason(t, out), "file does not exist")
	require.Equal(t, 1, answered)

	// No $TOOLEVAL_SERVER: the socket in $XDG_RUNTIME_DIR is found.
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", dir)
	t.Setenv(ServerEnv, "")
	l, err := net.Listen("unix", filepath.Join(dir, "tooleval.sock"))
	require.NoError(t, err)
	server := &http.Server{Handler: countingHandler(&answered, hooks.Handler(d)), ReadHeaderTimeout: time.Minute}
	go func() { _ = server.Serve(l) }()
	defer server.Close()
	out, _, code = run(t, hookPayload, false, "hook", "claude-code")
	require.Equal(t, 2, code)
	require.Contains(t, denyReason(t, out), "file does not exist")
	require.Equal(t, 2, answered)
}

func countingHandler(n *int, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*n++
		h.ServeHTTP(w, r)
	})
}
