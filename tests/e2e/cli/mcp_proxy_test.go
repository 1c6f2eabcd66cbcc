package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// The gateway tests run the real tooleval binary as `tooleval mcp proxy`
// in front of tests/mcpupstream (a server built with the Go SDK), and
// talk to it with the Go SDK's client, over stdio pipes and over
// Streamable HTTP on 127.0.0.1.

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

	good, err := os.ReadFile(harness.BundlePath(t))
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
