package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestMCPProxyMalformedJSONRPC: a line that is not JSON gets a JSON-RPC
// parse error, a batch and a request without its params an invalid
// request error, and the proxy goes on serving the same connection.
func TestMCPProxyMalformedJSONRPC(t *testing.T) {
	t.Parallel()
	g := newMCPGateway(t)
	cmd := g.proxyCommand(t)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	})
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	next := func() map[string]any {
		t.Helper()
		require.True(t, lines.Scan(), "the proxy stopped answering: %v", lines.Err())
		var msg map[string]any
		require.NoError(t, json.Unmarshal(lines.Bytes(), &msg), lines.Text())
		return msg
	}
	send := func(line string) {
		t.Helper()
		_, err := io.WriteString(stdin, line+"\n")
		require.NoError(t, err)
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	require.EqualValues(t, 1, next()["id"])
	send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)

	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list",`)
	parseError := next()
	require.Nil(t, parseError["id"])
	require.EqualValues(t, -32700, parseError["error"].(map[string]any)["code"])

	send(`[{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}]`)
	require.EqualValues(t, -32600, next()["error"].(map[string]any)["code"])

	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call"}`)
	invalid := next()
	require.EqualValues(t, 4, invalid["id"])
	require.EqualValues(t, -32600, invalid["error"].(map[string]any)["code"])

	send(`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}`)
	list := next()
	require.EqualValues(t, 5, list["id"])
	var names []string
	for _, tool := range list["result"].(map[string]any)["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	require.ElementsMatch(t, []string{"add_tool", "ask", "read_file", "report", "write_file"}, names)

	send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"drop_database","arguments":{}}}`)
	refused := next()
	require.EqualValues(t, 6, refused["id"])
	require.Equal(t, true, refused["result"].(map[string]any)["isError"])
}

// TestMCPProxyOverHTTP: the same gateway over Streamable HTTP on
// 127.0.0.1, in front of a Streamable HTTP server.
func TestMCPProxyOverHTTP(t *testing.T) {
	t.Parallel()
	g := newMCPGateway(t)
	upstreamBin, err := buildUpstream()
	require.NoError(t, err)
	upstream := exec.Command(upstreamBin, "-http", "127.0.0.1:0")
	upstream.Env = append(os.Environ(), "TOOLEVAL_MCP_RECORD="+g.record)
	upstreamOut, err := upstream.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, upstream.Start())
	t.Cleanup(func() {
		_ = upstream.Process.Kill()
		_ = upstream.Wait()
	})
	upstreamURL, err := bufio.NewReader(upstreamOut).ReadString('\n')
	require.NoError(t, err)

	bin, err := harness.BuildCLI()
	require.NoError(t, err)
	proxy := exec.Command(bin, g.proxyArgs("--listen", "127.0.0.1:0", "--upstream", strings.TrimSpace(upstreamURL))...)
	proxyErr, err := proxy.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, proxy.Start())
	t.Cleanup(func() {
		_ = proxy.Process.Signal(os.Interrupt)
		_ = proxy.Wait()
	})
	serving := regexp.MustCompile(`serving Streamable HTTP on (http://\S+)`)
	stderr := bufio.NewScanner(proxyErr)
	var endpoint string
	for endpoint == "" && stderr.Scan() {
		g.stderr.Write(append(stderr.Bytes(), '\n'))
		if m := serving.FindStringSubmatch(stderr.Text()); m != nil {
			endpoint = m[1]
		}
	}
	require.NotEmpty(t, endpoint, "the proxy did not say where it listens")
	go func() {
		for stderr.Scan() {
			g.stderr.Write(append(stderr.Bytes(), '\n'))
		}
	}()

	client := mcp.NewClient(&mcp.Implementation{Name: "gateway-test", Version: "1"}, g.clientOptions())
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	require.Equal(t, []string{"add_tool", "ask", "read_file", "report", "write_file"}, toolNames(t, cs))
	res := callTool(t, cs, "read_file", map[string]any{"path": filepath.Join(g.workspace, "b")})
	require.False(t, res.IsError)
	require.Equal(t, "contents of "+filepath.Join(g.workspace, "b"), res.Content[0].(*mcp.TextContent).Text)
	require.Equal(t, `tool "mcp__files__drop_database" is not permitted: denied by layer "operator"`,
		refusalText(t, callTool(t, cs, "drop_database", nil)))
	require.Contains(t, refusalText(t, callTool(t, cs, "read_file", map[string]any{"path": "/etc/passwd"})), "outside the workspace")

	before := g.catalogs()
	require.False(t, callTool(t, cs, "add_tool", map[string]any{"name": "search_notes"}).IsError)
	g.waitForCatalog(t, before)
	require.Equal(t, []string{"add_tool", "ask", "read_file", "report", "search_notes", "write_file"}, toolNames(t, cs))

	calls, _, _ := g.received(t)
	require.Equal(t, []string{"read_file", "add_tool"}, calls)
}

// BenchmarkProxyCall measures one tools/call through `tooleval mcp
// proxy` (decided by the policy, then forwarded) against the same call
// made to the server directly, both over stdio pipes.
func BenchmarkProxyCall(b *testing.B) {
	dir := b.TempDir()
	workspace := filepath.Join(dir, "ws")
	if err := os.MkdirAll(workspace, 0o755); err != nil {
		b.Fatal(err)
	}
	layer := filepath.Join(dir, "operator.json")
	if err := os.WriteFile(layer, []byte(`{"name": "operator", "allow": ["mcp__files__*"], "deny": ["mcp__files__drop_*"]}`), 0o600); err != nil {
		b.Fatal(err)
	}
	config := filepath.Join(dir, "config.json")
	if err := os.WriteFile(config, []byte(`{"path_arguments": {"mcp__files__read_file": {"path": "read"}}}`), 0o600); err != nil {
		b.Fatal(err)
	}
	upstream, err := buildUpstream()
	if err != nil {
		b.Fatal(err)
	}
	bin, err := harness.BuildCLI()
	if err != nil {
		b.Fatal(err)
	}
	args := map[string]any{"path": filepath.Join(workspace, "notes.txt")}
	run := func(b *testing.B, cmd *exec.Cmd) {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		for b.Loop() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: args})
			if err != nil || res.IsError {
				b.Fatalf("call failed: %v %+v", err, res)
			}
		}
	}
	b.Run("direct", func(b *testing.B) { run(b, exec.Command(upstream)) })
	b.Run("proxy", func(b *testing.B) {
		run(b, exec.Command(bin, "mcp", "proxy", "--server-name", "files", "--layer", layer, "--config", config,
			"--workspace", workspace, "--audit-log", filepath.Join(dir, "audit.jsonl"), "--", upstream))
	})
}
