package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// buildUpstream builds tests/mcpupstream once.
var buildUpstream = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "tooleval-mcpupstream-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "mcpupstream")
	cmd := exec.Command("go", "build", "-o", bin, "./tests/mcpupstream")
	cmd.Dir = harness.Root()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", errors.New(string(out))
	}
	return bin, nil
})

// mcpGateway is one proxy set-up: its files, and what the client saw.
type mcpGateway struct {
	dir       string // the test's directory
	workspace string
	record    string // what the upstream received, one JSON line per call
	audit     string // the proxy's audit log
	stderr    *harness.SyncBuffer
	changed   chan struct{} // a notifications/tools/list_changed reached the client
	progress  chan string   // the messages of the progress notifications the client got
	logs      chan any      // the data of the log messages the client got
	// upstreamArgs are given to the upstream: directories make it serve
	// its file tools over them (tests/mcpupstream/files.go).
	upstreamArgs []string
}

// newMCPGateway writes the layer (allow the server's tools, deny its
// drop_* and secret_* tools) and the configuration overlay (which
// argument of which tool is a path) into a fresh directory.
func newMCPGateway(t *testing.T) *mcpGateway {
	t.Helper()
	dir := t.TempDir()
	g := &mcpGateway{
		dir:       dir,
		workspace: filepath.Join(dir, "ws"),
		record:    filepath.Join(dir, "received.jsonl"),
		audit:     filepath.Join(dir, "audit.jsonl"),
		stderr:    &harness.SyncBuffer{},
		changed:   make(chan struct{}, 16),
		progress:  make(chan string, 16),
		logs:      make(chan any, 16),
	}
	require.NoError(t, os.MkdirAll(g.workspace, 0o755))
	writeJSON(t, filepath.Join(dir, "operator.json"), map[string]any{
		"name": "operator", "allow": []string{"mcp__files__*"}, "deny": []string{"mcp__files__drop_*", "mcp__files__secret_*"},
	})
	writeJSON(t, filepath.Join(dir, "config.json"), map[string]any{
		"path_arguments": map[string]any{
			"mcp__files__read_file":           map[string]any{"path": "read"},
			"mcp__files__write_file":          map[string]any{"path": "write"},
			"mcp__files__read_text_file":      map[string]any{"path": "read"},
			"mcp__files__write_text_file":     map[string]any{"path": "write"},
			"mcp__files__read_multiple_files": map[string]any{"paths": "read"},
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("proxy stderr:\n%s", g.stderr.String())
		}
	})
	return g
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o600))
}

// proxyArgs are the proxy's flags for the gateway's files, then extra.
func (g *mcpGateway) proxyArgs(extra ...string) []string {
	return append([]string{"mcp", "proxy", "--server-name", "files",
		"--layer", filepath.Join(g.dir, "operator.json"), "--config", filepath.Join(g.dir, "config.json"),
		"--workspace", g.workspace, "--audit-log", g.audit}, extra...)
}

// proxyCommand is the proxy in front of the upstream over stdio.
func (g *mcpGateway) proxyCommand(t *testing.T, extra ...string) *exec.Cmd {
	t.Helper()
	bin, err := harness.BuildCLI()
	require.NoError(t, err)
	upstream, err := buildUpstream()
	require.NoError(t, err)
	cmd := exec.Command(bin, append(append(g.proxyArgs(extra...), "--", upstream), g.upstreamArgs...)...)
	cmd.Env = append(os.Environ(), "TOOLEVAL_MCP_RECORD="+g.record)
	cmd.Stderr = g.stderr
	return cmd
}

// clientOptions keep the notifications the client gets, and answer a
// sampling request with "yes".
func (g *mcpGateway) clientOptions() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			g.changed <- struct{}{}
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			g.progress <- req.Params.Message
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			g.logs <- req.Params.Data
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "test", Role: "assistant", Content: &mcp.TextContent{Text: "yes"}}, nil
		},
	}
}

// receive waits for a value on ch.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s reached the client", what)
	}
	var zero T
	return zero
}

// connect starts the proxy over stdio and connects an SDK client to it.
func (g *mcpGateway) connect(t *testing.T, extra ...string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "gateway-test", Version: "1"}, g.clientOptions())
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: g.proxyCommand(t, extra...)}, nil)
	require.NoError(t, err, g.stderr.String())
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// catalogs counts the proxy's "catalog" records on its standard error:
// one each time it has installed a catalog (after a listing or a
// reload), its served set and its session both in place.
func (g *mcpGateway) catalogs() int {
	return strings.Count(g.stderr.String(), `"msg":"mcp proxy: catalog"`)
}

// waitForCatalog waits for the proxy to have installed more than before
// catalogs, and for the client to have been told of a change. (A client
// may be told more than once of one change, so the notification alone
// does not say the proxy is done.)
func (g *mcpGateway) waitForCatalog(t *testing.T, before int) {
	t.Helper()
	g.waitForListChanged(t)
	require.Eventually(t, func() bool { return g.catalogs() > before }, 10*time.Second, 10*time.Millisecond,
		"the proxy installed no new catalog:\n%s", g.stderr.String())
}

// waitForListChanged waits for a notifications/tools/list_changed.
func (g *mcpGateway) waitForListChanged(t *testing.T) {
	t.Helper()
	select {
	case <-g.changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed reached the client")
	}
}

// received is what the upstream received: the tools called, in order,
// and how many times it started.
func (g *mcpGateway) received(t *testing.T) (calls []string, arguments []string, starts int) {
	t.Helper()
	data, err := os.ReadFile(g.record)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, 0
	}
	require.NoError(t, err)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var entry struct {
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments"`
			Started   int             `json:"started"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &entry), line)
		if entry.Started != 0 {
			starts++
			continue
		}
		calls = append(calls, entry.Tool)
		arguments = append(arguments, string(entry.Arguments))
	}
	return calls, arguments, starts
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	names := []string{}
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	return res
}

// refusalText is the text of a refused call's result.
func refusalText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.True(t, res.IsError, "the call was not refused")
	require.Len(t, res.Content, 1)
	text, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok)
	return text.Text
}

// directSession connects an SDK client to the upstream itself.
func directSession(t *testing.T, record string) *mcp.ClientSession {
	t.Helper()
	upstream, err := buildUpstream()
	require.NoError(t, err)
	cmd := exec.Command(upstream)
	cmd.Env = append(os.Environ(), "TOOLEVAL_MCP_RECORD="+record)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// auditDecision is the verdict of one audit record.
type auditDecision struct {
	Name    string `json:"name"`
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason"`
	Layer   string `json:"layer"`
}

// auditDecisions reads the verdicts of an audit log, in order.
func auditDecisions(t *testing.T, path string) []auditDecision {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []auditDecision
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var record struct {
			Msg    string `json:"msg"`
			Path   string `json:"path"`
			Result struct {
				Decisions []auditDecision `json:"decisions"`
			} `json:"result"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &record), line)
		require.Equal(t, "Decision Log", record.Msg)
		require.Equal(t, "tooleval/decision", record.Path)
		require.Len(t, record.Result.Decisions, 1)
		out = append(out, record.Result.Decisions[0])
	}
	return out
}
