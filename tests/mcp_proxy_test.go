package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// The gateway tests run the real tooleval binary as `tooleval mcp proxy`
// in front of tests/mcpupstream (a server built with the Go SDK), and
// talk to it with the Go SDK's client, over stdio pipes and over
// Streamable HTTP on 127.0.0.1.

// buildUpstream builds tests/mcpupstream once.
var buildUpstream = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "tooleval-mcpupstream-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "mcpupstream")
	out, err := exec.Command("go", "build", "-o", bin, "./mcpupstream").CombinedOutput()
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
	stderr    *syncBuffer
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
		stderr:    &syncBuffer{},
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
	bin, err := buildCLI()
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

// TestMCPProxyOverStdio: the client sees only the tools the policy lets
// execute; an allowed call reaches the server and its result comes back
// as the server gave it; a refused call (a denied tool, an undeclared
// one, a path outside the workspace) gets isError with the policy's
// message and never reaches the server; a tool the server adds later is
// filtered as well; resources and prompts pass through; every decision
// is in the audit log.
func TestMCPProxyOverStdio(t *testing.T) {
	t.Parallel()
	g := newMCPGateway(t)
	cs := g.connect(t)
	ctx := context.Background()

	require.Equal(t, []string{"add_tool", "ask", "read_file", "report", "write_file"}, toolNames(t, cs), "drop_database is denied by the operator layer")

	inside := filepath.Join(g.workspace, "notes.txt")
	proxied := callTool(t, cs, "read_file", map[string]any{"path": inside})
	direct := callTool(t, directSession(t, filepath.Join(g.dir, "direct.jsonl")), "read_file", map[string]any{"path": inside})
	proxiedJSON, err := json.Marshal(proxied)
	require.NoError(t, err)
	directJSON, err := json.Marshal(direct)
	require.NoError(t, err)
	require.JSONEq(t, string(directJSON), string(proxiedJSON), "the result comes back unchanged")
	require.False(t, proxied.IsError)
	require.Equal(t, map[string]any{"path": inside, "bytes": float64(42)}, proxied.StructuredContent)

	denied, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "drop_database", Arguments: map[string]any{}})
	require.NoError(t, err)
	transcript, err := json.Marshal(denied)
	require.NoError(t, err)
	t.Logf("denied call, as the client got it: %s", transcript)
	require.Equal(t, `tool "mcp__files__drop_database" is not permitted: denied by layer "operator"`, refusalText(t, denied))

	require.Equal(t, `tool "no_such_tool" is not declared for this request: the server lists no tool of exactly that name`,
		refusalText(t, callTool(t, cs, "no_such_tool", nil)))

	outside := callTool(t, cs, "read_file", map[string]any{"path": "/etc/passwd"})
	require.Contains(t, refusalText(t, outside), `path "/etc/passwd" is outside the workspace`)
	escape := callTool(t, cs, "write_file", map[string]any{"path": "../escape.txt", "content": "x"})
	require.Contains(t, refusalText(t, escape), "outside the workspace")
	wrote := callTool(t, cs, "write_file", map[string]any{"path": "notes.txt", "content": "x"})
	require.False(t, wrote.IsError, "a relative path inside the workspace is written")
	// The server gets the arguments as the policy read them, written anew.
	escaped, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: json.RawMessage(`{"path": "\u006eotes.txt", "content": "y"}`)})
	require.NoError(t, err)
	require.False(t, escaped.IsError)
	// Arguments a server could read otherwise than the policy did are
	// refused: a member written twice (a server may take the first), or
	// twice but for case (Go's encoding/json matches member names without
	// regard to case, and takes the last).
	for _, raw := range []string{`{"path": "/etc/passwd", "path": "notes.txt"}`, `{"path": "notes.txt", "Path": "/etc/passwd"}`, `{"x": {"K": 1, "\u212a": 2}}`} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: json.RawMessage(raw)})
		require.NoError(t, err)
		require.Contains(t, refusalText(t, res), "twice", raw)
	}
	// A name the server does not list exactly is refused, and never sent:
	// the policy would read these as the listed read_file, and a server
	// could dispatch them to another tool.
	for _, name := range []string{"READ_FILE", "read.file", "Read_File", "read_file "} {
		require.Equal(t, fmt.Sprintf(`tool %q is not declared for this request: the server lists no tool of exactly that name`, name),
			refusalText(t, callTool(t, cs, name, map[string]any{"path": inside})), name)
	}

	// Tools the server adds later: notifications/tools/list_changed makes
	// the proxy list and filter again, and tell the client.
	before := g.catalogs()
	require.False(t, callTool(t, cs, "add_tool", map[string]any{"name": "search_notes"}).IsError)
	g.waitForCatalog(t, before)
	require.Equal(t, []string{"add_tool", "ask", "read_file", "report", "search_notes", "write_file"}, toolNames(t, cs))
	require.False(t, callTool(t, cs, "search_notes", nil).IsError)
	before = g.catalogs()
	require.False(t, callTool(t, cs, "add_tool", map[string]any{"name": "secret_dump"}).IsError)
	g.waitForCatalog(t, before)
	require.Equal(t, []string{"add_tool", "ask", "read_file", "report", "search_notes", "write_file"}, toolNames(t, cs), "secret_* is denied")
	require.Contains(t, refusalText(t, callTool(t, cs, "secret_dump", nil)), `denied by layer "operator"`)

	resource, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "note://readme"})
	require.NoError(t, err)
	require.Equal(t, "the readme", resource.Contents[0].Text)
	prompts, err := cs.ListPrompts(ctx, nil)
	require.NoError(t, err)
	require.Len(t, prompts.Prompts, 1)
	require.Equal(t, "greet", prompts.Prompts[0].Name)

	// Progress and log messages of an allowed call reach the client, and
	// the upstream's sampling request (a multi round-trip input request)
	// is answered by the client and the call retried. (From
	// protocol 2026-07-28 on, a client states its log level on each
	// request.)
	report := &mcp.CallToolParams{Name: "report", Meta: mcp.Meta{mcp.MetaKeyLogLevel: "info"}}
	report.SetProgressToken("report-1")
	reported, err := cs.CallTool(ctx, report)
	require.NoError(t, err)
	require.Equal(t, "reported", reported.Content[0].(*mcp.TextContent).Text)
	require.Equal(t, "halfway", receive(t, g.progress, "progress notification"))
	require.Equal(t, "working", receive(t, g.logs, "log message"))
	asked := callTool(t, cs, "ask", nil)
	require.Equal(t, "the model said yes", asked.Content[0].(*mcp.TextContent).Text)

	calls, arguments, starts := g.received(t)
	require.Equal(t, []string{"read_file", "write_file", "write_file", "add_tool", "search_notes", "add_tool", "report", "ask", "ask"}, calls, "refused calls never reach the server")
	require.Equal(t, 1, starts)
	require.JSONEq(t, fmt.Sprintf(`{"path": %q, "content": "x"}`, inside), arguments[1], "a path is forwarded as the policy judged it: resolved")
	require.Equal(t, fmt.Sprintf(`{"content":"y","path":%q}`, inside), arguments[2], "arguments are forwarded as the policy read them")

	// One audit record per decision: 21 calls were decided (ask twice:
	// the client's answer to the input request is a call of its own),
	// those refused before the policy included.
	require.NoError(t, cs.Close())
	decisions := auditDecisions(t, g.audit)
	require.Len(t, decisions, 21)
	require.Equal(t, "mcp__files__drop_database", decisions[1].Name)
	require.False(t, decisions[1].Allowed)
	require.Equal(t, "denied", decisions[1].Reason)
	require.Equal(t, "operator", decisions[1].Layer)
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

// TestMCPProxyRunBudget: --max-attempts spans the proxy's lifetime: the
// calls past it are refused (run_exhausted) and never reach the server.
func TestMCPProxyRunBudget(t *testing.T) {
	t.Parallel()
	g := newMCPGateway(t)
	cs := g.connect(t, "--max-attempts", "3")
	for range 3 {
		require.False(t, callTool(t, cs, "read_file", map[string]any{"path": filepath.Join(g.workspace, "a")}).IsError)
	}
	refused := callTool(t, cs, "read_file", map[string]any{"path": filepath.Join(g.workspace, "a")})
	require.Contains(t, refusalText(t, refused), "run")
	decisions := auditDecisions(t, g.audit)
	require.Len(t, decisions, 4)
	require.Equal(t, "run_exhausted", decisions[3].Reason)
	calls, _, _ := g.received(t)
	require.Len(t, calls, 3)
}

// TestMCPProxyRefusalsBeforeThePolicyCount: every call the proxy answers
// is an attempt and every refusal counts, those it refuses before the
// policy (a name the server does not list exactly, a member given twice)
// included: with --max-refusals 2, two such refusals exhaust the run and
// the next call, allowed otherwise, is refused run_exhausted; with
// --max-attempts 2, one such refusal and one allowed call do.
func TestMCPProxyRefusalsBeforeThePolicyCount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		flag, says string
		first      func(t *testing.T, g *mcpGateway, cs *mcp.ClientSession)
	}{
		{"--max-refusals", "reached its limit of 2 refusals", func(t *testing.T, g *mcpGateway, cs *mcp.ClientSession) {
			require.Contains(t, refusalText(t, callTool(t, cs, "READ_FILE", map[string]any{"path": filepath.Join(g.workspace, "a")})), "not declared")
			twice, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: json.RawMessage(`{"path": "a", "path": "b"}`)})
			require.NoError(t, err)
			require.Contains(t, refusalText(t, twice), "twice")
		}},
		{"--max-attempts", "used all 2 of its attempts", func(t *testing.T, g *mcpGateway, cs *mcp.ClientSession) {
			require.Contains(t, refusalText(t, callTool(t, cs, "read.file", nil)), "not declared")
			require.False(t, callTool(t, cs, "read_file", map[string]any{"path": filepath.Join(g.workspace, "a")}).IsError)
		}},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			g := newMCPGateway(t)
			cs := g.connect(t, tc.flag, "2")
			tc.first(t, g, cs)
			refused := callTool(t, cs, "read_file", map[string]any{"path": filepath.Join(g.workspace, "a")})
			require.Contains(t, refusalText(t, refused), tc.says)
			decisions := auditDecisions(t, g.audit)
			require.Equal(t, "run_exhausted", decisions[len(decisions)-1].Reason)
			calls, _, _ := g.received(t)
			require.Len(t, calls, strings.Count(tc.flag, "attempts"), "only the allowed call reached the server")
		})
	}
}

// TestMCPProxyForwardsWhatItJudged: the proxy hands the server the
// absolute, resolved path the policy judged, not the client's string, in
// front of an upstream that finds files as the npm filesystem server does
// (tests/mcpupstream/files.go), whose first directory is outside the
// workspace. Each bypass is shown to work against the upstream directly:
//
//   - a relative path the server would resolve against its own first
//     directory reads and writes in the workspace;
//   - a ".." after a link (WS/L -> WS/a/b, L/../../outside/s.txt), which
//     the server applies before following L, is refused as unresolved;
//   - a spelling equal under NFC to a link of the workspace (U+212A KELVIN
//     SIGN for K: WS/Kdocs -> OUTSIDE, WS/Keys -> OUTSIDE/.ssh) is
//     refused, and so is an NFC request that the server would match to a
//     decomposed entry (WS/de\u0301tour -> OUTSIDE);
//   - each path of a list is forwarded resolved.
func TestMCPProxyForwardsWhatItJudged(t *testing.T) {
	t.Parallel()
	g := newMCPGateway(t)
	ws := g.workspace
	outside := filepath.Join(g.dir, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(outside, ".ssh"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "s.txt"), []byte("secret"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "s.txt"), []byte("inside"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "a", "b"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(ws, "a", "b"), filepath.Join(ws, "L")))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "Kdocs")))
	require.NoError(t, os.Symlink(filepath.Join(outside, ".ssh"), filepath.Join(ws, "Keys")))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "de\u0301tour")))
	g.upstreamArgs = []string{outside, ws}

	type attack struct {
		tool string
		args map[string]any
		says string // the refusal's reason; "" for a call that is allowed
	}
	attacks := []attack{
		{"read_text_file", map[string]any{"path": "s.txt"}, ""},
		{"read_text_file", map[string]any{"path": ws + "/L/../../outside/s.txt"}, `names one file when its ".." is applied first`},
		{"read_text_file", map[string]any{"path": "L/../../outside/s.txt"}, `names one file when its ".." is applied first`},
		{"read_text_file", map[string]any{"path": ws + "/\u212adocs/s.txt"}, "Unicode normalization"},
		{"read_text_file", map[string]any{"path": ws + "/d\u00e9tour/s.txt"}, "equivalent under Unicode normalization (NFC) to an entry"},
		{"write_text_file", map[string]any{"path": ws + "/\u212aeys/authorized_keys", "content": "ssh-ed25519 AAAA attacker"}, "Unicode normalization"},
	}

	// The upstream alone falls for every one of them.
	direct := func() *mcp.ClientSession {
		upstream, err := buildUpstream()
		require.NoError(t, err)
		cmd := exec.Command(upstream, g.upstreamArgs...)
		cmd.Env = append(os.Environ(), "TOOLEVAL_MCP_RECORD="+filepath.Join(g.dir, "direct.jsonl"))
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		require.NoError(t, err)
		return cs
	}()
	for _, a := range attacks {
		res := callTool(t, direct, a.tool, a.args)
		require.False(t, res.IsError, "%v", a.args)
		if a.tool == "read_text_file" {
			require.Equal(t, "secret", res.Content[0].(*mcp.TextContent).Text, "the upstream reads outside for %v", a.args)
		}
	}
	require.FileExists(t, filepath.Join(outside, ".ssh", "authorized_keys"))
	require.NoError(t, os.Remove(filepath.Join(outside, ".ssh", "authorized_keys")))
	wrote := callTool(t, direct, "write_text_file", map[string]any{"path": "new.txt", "content": "x"})
	require.Equal(t, "wrote "+filepath.Join(outside, "new.txt"), wrote.Content[0].(*mcp.TextContent).Text, "the upstream writes a relative path outside")
	require.NoError(t, os.Remove(filepath.Join(outside, "new.txt")))
	require.NoError(t, direct.Close())

	cs := g.connect(t)
	for _, a := range attacks {
		res := callTool(t, cs, a.tool, a.args)
		if a.says == "" {
			require.False(t, res.IsError, "%v", a.args)
			require.Equal(t, "inside", res.Content[0].(*mcp.TextContent).Text, "%v", a.args)
			continue
		}
		require.Contains(t, refusalText(t, res), a.says, "%v", a.args)
	}
	require.NoFileExists(t, filepath.Join(outside, ".ssh", "authorized_keys"))
	// With no entry to match, a path not in NFC is refused by the policy.
	require.Contains(t, refusalText(t, callTool(t, cs, "write_text_file", map[string]any{"path": ws + "/\u212a.txt", "content": "x"})),
		"not in Unicode normalization form C")
	wrote = callTool(t, cs, "write_text_file", map[string]any{"path": "new.txt", "content": "x"})
	require.False(t, wrote.IsError)
	require.FileExists(t, filepath.Join(ws, "new.txt"))
	require.NoFileExists(t, filepath.Join(outside, "new.txt"))
	many := callTool(t, cs, "read_multiple_files", map[string]any{"paths": []any{"s.txt", "a/../s.txt"}})
	require.Equal(t, ws+"/s.txt: inside\n"+ws+"/s.txt: inside", many.Content[0].(*mcp.TextContent).Text)

	calls, arguments, _ := g.received(t)
	require.Equal(t, []string{"read_text_file", "write_text_file", "read_multiple_files"}, calls, "refused calls never reach the server")
	require.JSONEq(t, fmt.Sprintf(`{"path": %q}`, ws+"/s.txt"), arguments[0], "the server gets the path the policy judged")
	require.JSONEq(t, fmt.Sprintf(`{"path": %q, "content": "x"}`, ws+"/new.txt"), arguments[1])
	require.JSONEq(t, fmt.Sprintf(`{"paths": [%q, %q]}`, ws+"/s.txt", ws+"/s.txt"), arguments[2])
}

// TestMCPProxyBrokenBundleFailsClosedUntilReload: a bundle that does not
// load withholds every tool and refuses every call; after the bundle is
// replaced, SIGHUP makes the proxy serve the tools the policy allows,
// with the same upstream process.
func TestMCPProxyBrokenBundleFailsClosedUntilReload(t *testing.T) {
	t.Parallel()
	g := newMCPGateway(t)
	bundle := filepath.Join(g.dir, "policy.tar.gz")
	require.NoError(t, os.WriteFile(bundle, []byte("not a bundle"), 0o600))
	cmd := g.proxyCommand(t, "--bundle", bundle)
	client := mcp.NewClient(&mcp.Implementation{Name: "gateway-test", Version: "1"}, g.clientOptions())
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err, g.stderr.String())
	t.Cleanup(func() { _ = cs.Close() })

	require.Empty(t, toolNames(t, cs))
	refused := callTool(t, cs, "read_file", map[string]any{"path": filepath.Join(g.workspace, "a")})
	require.Equal(t, `tool "mcp__files__read_file" is not permitted: the tooleval policy could not be evaluated`, refusalText(t, refused))
	calls, _, _ := g.received(t)
	require.Empty(t, calls)
	require.Contains(t, g.stderr.String(), "the policy did not load")

	good, err := os.ReadFile(bundlePath(t))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bundle+".new", good, 0o600))
	require.NoError(t, os.Rename(bundle+".new", bundle))
	before := g.catalogs()
	require.NoError(t, cmd.Process.Signal(syscall.SIGHUP))
	g.waitForCatalog(t, before)

	require.Equal(t, []string{"add_tool", "ask", "read_file", "report", "write_file"}, toolNames(t, cs))
	require.False(t, callTool(t, cs, "read_file", map[string]any{"path": filepath.Join(g.workspace, "a")}).IsError)
	calls, _, starts := g.received(t)
	require.Equal(t, []string{"read_file"}, calls)
	require.Equal(t, 1, starts, "the upstream was not restarted")

	decisions := auditDecisions(t, g.audit)
	require.Len(t, decisions, 2, "the refusal without a policy is audited too")
	require.Equal(t, auditDecision{Name: "mcp__files__read_file", Reason: "invalid_config", Layer: "config"}, decisions[0])
	require.True(t, decisions[1].Allowed)
}

// TestMCPProxyWatchReloadsALayer: with --watch, replacing a layer file
// re-filters the tools and tells the client, with the same upstream.
func TestMCPProxyWatchReloadsALayer(t *testing.T) {
	t.Parallel()
	g := newMCPGateway(t)
	cs := g.connect(t, "--watch")
	require.Contains(t, toolNames(t, cs), "read_file")

	layer := filepath.Join(g.dir, "operator.json")
	writeJSON(t, layer+".new", map[string]any{
		"name": "operator", "allow": []string{"mcp__files__*"}, "deny": []string{"mcp__files__drop_*", "mcp__files__read_*"},
	})
	before := g.catalogs()
	require.NoError(t, os.Rename(layer+".new", layer))
	g.waitForCatalog(t, before)

	require.Equal(t, []string{"add_tool", "ask", "report", "write_file"}, toolNames(t, cs))
	require.Equal(t, `tool "mcp__files__read_file" is not permitted: denied by layer "operator"`,
		refusalText(t, callTool(t, cs, "read_file", map[string]any{"path": filepath.Join(g.workspace, "a")})))
	calls, _, starts := g.received(t)
	require.Empty(t, calls)
	require.Equal(t, 1, starts)
}

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

	bin, err := buildCLI()
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
	bin, err := buildCLI()
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
