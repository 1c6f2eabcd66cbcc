package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/hookwire"
)

func post(t *testing.T, url string, body []byte) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, out
}

// TestHandlerAnswersEveryPostWithADocument: Claude Code's http hook
// reads the output at /v1/hooks/RUNTIME; a failure is a 200 deny, never
// another status (which Claude Code would read as "go on").
func TestHandlerAnswersEveryPostWithADocument(t *testing.T) {
	srv := httptest.NewServer(Handler(decider(t, "claude_code", Options{})))
	defer srv.Close()
	payload := fixture(t, "claude_code_pretooluse.json", map[string]any{"tool_input": command("git push")})

	code, out := post(t, srv.URL+"/v1/hooks/claude-code", payload)
	require.Equal(t, http.StatusOK, code)
	var doc map[string]map[string]string
	require.NoError(t, json.Unmarshal(out, &doc))
	require.Equal(t, "deny", doc["hookSpecificOutput"]["permissionDecision"])

	code, out = post(t, srv.URL+"/v1/hooks/claude-code/answer", payload)
	require.Equal(t, http.StatusOK, code)
	var a hookwire.Answer
	require.NoError(t, json.Unmarshal(out, &a))
	require.Equal(t, hookwire.Deny, a.Outcome)

	for name, c := range map[string]struct {
		path string
		body []byte
		want string
	}{
		"unknown runtime": {"/v1/hooks/claude_code", payload, "unknown runtime"},
		"too large":       {"/v1/hooks/claude-code", bytes.Repeat([]byte(" "), hookwire.MaxPayload+1), "larger than"},
		"not JSON":        {"/v1/hooks/gemini", []byte("{"), "not one JSON document"},
	} {
		code, out := post(t, srv.URL+c.path, c.body)
		require.Equal(t, http.StatusOK, code, name)
		require.Contains(t, string(out), c.want, name)
		require.True(t, strings.Contains(string(out), `"deny"`), name)
	}

	resp, err := http.Get(srv.URL + "/health")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)

	empty := httptest.NewServer(Handler(NewDecider(Options{})))
	defer empty.Close()
	resp, err = http.Get(empty.URL + "/health")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "no policy: not ready")
}

// TestClientOverUnixSocketAndHTTP: the command hook's client gets the
// server's answer over a Unix socket and over HTTP, and an error (never
// an answer) from a server that does not answer as tooleval serve does.
func TestClientOverUnixSocketAndHTTP(t *testing.T) {
	ctx := context.Background()
	d := decider(t, "claude_code", Options{})
	socket := filepath.Join(t.TempDir(), "s.sock")
	l, err := net.Listen("unix", socket)
	require.NoError(t, err)
	srv := &http.Server{Handler: Handler(d), ReadHeaderTimeout: time.Minute}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	payload := fixture(t, "claude_code_pretooluse.json", map[string]any{"tool_input": command("npm publish")})
	for _, target := range []string{"unix:" + socket, socket} {
		c, err := hookwire.NewClient(target, time.Minute)
		require.NoError(t, err)
		a, err := c.Answer(ctx, "claude-code", payload)
		require.NoError(t, err)
		require.Equal(t, hookwire.Ask, a.Outcome)
	}
	hs := httptest.NewServer(Handler(d))
	defer hs.Close()
	c, err := hookwire.NewClient(hs.URL+"/", time.Minute)
	require.NoError(t, err)
	a, err := c.Answer(ctx, "claude-code", payload)
	require.NoError(t, err)
	require.Equal(t, hookwire.Ask, a.Outcome)

	_, err = hookwire.NewClient("https://example.com", time.Minute)
	require.ErrorContains(t, err, "give http://HOST:PORT or unix:PATH")
	for name, handler := range map[string]http.HandlerFunc{
		"status":      func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) },
		"not JSON":    func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("allow")) },
		"bad outcome": func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"outcome":"yes","output":{}}`)) },
		"no output": func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(`{"outcome":"allow","output":null}`))
		},
	} {
		bad := httptest.NewServer(handler)
		c, err := hookwire.NewClient(bad.URL, time.Minute)
		require.NoError(t, err)
		_, err = c.Answer(ctx, "claude-code", payload)
		require.Error(t, err, name)
		bad.Close()
	}
	gone, err := hookwire.NewClient("unix:"+filepath.Join(t.TempDir(), "none.sock"), time.Minute)
	require.NoError(t, err)
	_, err = gone.Answer(ctx, "claude-code", payload)
	require.Error(t, err)
}
