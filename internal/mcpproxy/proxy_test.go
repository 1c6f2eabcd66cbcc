package mcpproxy

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

func TestModelName(t *testing.T) {
	require.Equal(t, "mcp__github__read_issue", ModelName("github", "read_issue"))
	require.Equal(t, "mcp__foo_bar__a_b-c", ModelName("foo.bar", "a/b-c"))
	require.Equal(t, "mcp__s_p__t_", ModelName("s p", "tä"))
}

func TestScreenLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		code int64 // 0: the line passes
		id   any
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, nil},
		{`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`, 0, nil},
		{`{"jsonrpc":"2.0","id":1,"method":`, jsonrpc.CodeParseError, nil},
		{`not json`, jsonrpc.CodeParseError, nil},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, nil},
		{`{"jsonrpc":"1.0","id":"a","method":"ping"}`, jsonrpc.CodeInvalidRequest, "a"},
		{`42`, jsonrpc.CodeInvalidRequest, nil},
	} {
		reply := screenLine([]byte(tc.line), false)
		if tc.code == 0 {
			require.Nil(t, reply, tc.line)
			continue
		}
		require.NotNil(t, reply, tc.line)
		require.Equal(t, tc.code, reply.Error.(*jsonrpc.Error).Code, tc.line)
		require.Equal(t, tc.id, reply.ID.Raw(), tc.line)
	}
	reply := screenLine(nil, true)
	require.Equal(t, int64(jsonrpc.CodeInvalidRequest), reply.Error.(*jsonrpc.Error).Code)
}

// A line longer than the limit is dropped whole, and the next line is
// read as it is.
func TestReadLineDropsALongLine(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 100)+"\nnext\n"), 16)
	line, tooLong, err := readLine(r, 50)
	require.NoError(t, err)
	require.True(t, tooLong)
	require.Empty(t, line)
	line, tooLong, err = readLine(r, 50)
	require.NoError(t, err)
	require.False(t, tooLong)
	require.Equal(t, "next", string(line))
	_, _, err = readLine(r, 50)
	require.ErrorIs(t, err, io.EOF)
}

func TestStartNeedsANameAndALoader(t *testing.T) {
	_, err := Start(context.Background(), nil, Options{Load: func(context.Context) (*Policy, error) { return nil, nil }})
	require.ErrorContains(t, err, "needs a name")
	_, err = Start(context.Background(), nil, Options{ServerName: "s"})
	require.ErrorContains(t, err, "no policy loader")
}

// upstreamServer is an in-process MCP server with two tools; it counts
// the calls it receives.
func upstreamServer(received *atomic.Int64) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, nil)
	for _, name := range []string{"read_file", "search"} {
		server.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				received.Add(1)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " ran"}}}, nil
			})
	}
	return server
}

// connectInMemory starts a proxy in front of upstream and connects a
// client (with opts) to it, all over in-memory transports; everything
// is closed when the test ends.
func connectInMemory(t *testing.T, upstream *mcp.Server, load PolicyLoader, opts *mcp.ClientOptions) (*Proxy, *mcp.ClientSession) {
	t.Helper()
	return connectWith(t, upstream, Options{ServerName: "files", Load: load}, opts)
}

// connectWith is connectInMemory with the proxy's options.
func connectWith(t *testing.T, upstream *mcp.Server, options Options, opts *mcp.ClientOptions) (*Proxy, *mcp.ClientSession) {
	t.Helper()
	return connectSession(t, upstream, options, opts, nil)
}

// connectSession is connectWith with the client session's options (its
// protocol version).
func connectSession(t *testing.T, upstream *mcp.Server, options Options, opts *mcp.ClientOptions, sessionOpts *mcp.ClientSessionOptions) (*Proxy, *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	upTransport, upServerSide := mcp.NewInMemoryTransports()
	upSession, err := upstream.Connect(ctx, upServerSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = upSession.Close() })
	proxy, err := Start(ctx, upTransport, options)
	require.NoError(t, err)
	t.Cleanup(func() { _ = proxy.Close() })
	clientSide, proxySide := mcp.NewInMemoryTransports()
	_, err = proxy.Server().Connect(ctx, proxySide, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, opts).Connect(ctx, clientSide, sessionOpts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return proxy, cs
}

// A reload re-filters the catalog with the new policy and tells the
// client; a reload that fails keeps the policy in force.
func TestReloadRefiltersAndKeepsThePolicyOnError(t *testing.T) {
	ctx := context.Background()
	e, err := engine.New(ctx)
	require.NoError(t, err)
	layers := [][]engine.Layer{
		{{Name: "operator", Allow: []string{"mcp__files__*"}}},
		{{Name: "operator", Allow: []string{"mcp__files__*"}, Deny: []string{"mcp__files__read_file"}}},
	}
	var loads atomic.Int64
	load := func(context.Context) (*Policy, error) {
		n := int(loads.Add(1)) - 1
		if n >= len(layers) {
			return nil, errors.New("the bundle is broken")
		}
		return &Policy{Engine: e, Session: engine.SessionConfig{Layers: layers[n]}}, nil
	}

	var received atomic.Int64
	changed := make(chan struct{}, 4)
	proxy, cs := connectInMemory(t, upstreamServer(&received), load, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})

	names := func() []string {
		res, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		var out []string
		for _, tool := range res.Tools {
			out = append(out, tool.Name)
		}
		slices.Sort(out)
		return out
	}
	call := func(name string) *mcp.CallToolResult {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name})
		require.NoError(t, err)
		return res
	}

	require.Equal(t, []string{"read_file", "search"}, names())
	require.False(t, call("read_file").IsError)
	require.Equal(t, int64(1), received.Load())

	require.NoError(t, proxy.Reload(ctx))
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("the reload did not notify the client")
	}
	require.Equal(t, []string{"search"}, names())
	refused := call("read_file")
	require.True(t, refused.IsError)
	require.Equal(t, `tool "mcp__files__read_file" is not permitted: denied by layer "operator"`, refused.Content[0].(*mcp.TextContent).Text)
	require.Equal(t, int64(1), received.Load(), "the refused call did not reach the upstream")

	require.ErrorContains(t, proxy.Reload(ctx), "the bundle is broken")
	require.Equal(t, []string{"search"}, names(), "a failed reload keeps the policy")
	require.False(t, call("search").IsError)
	require.True(t, call("read_file").IsError)
	require.Equal(t, int64(2), received.Load())
}

// An upstream that stalls its tools/list after announcing a change
// neither holds up a reload nor the calls: the listing is made outside
// the proxy's lock, and the catalog it brings is installed when it ends.
func TestAStalledListingHoldsUpNeitherReloadsNorCalls(t *testing.T) {
	ctx := context.Background()
	e, err := engine.New(ctx)
	require.NoError(t, err)
	var loads atomic.Int64
	load := func(context.Context) (*Policy, error) {
		loads.Add(1)
		return &Policy{Engine: e, Session: engine.SessionConfig{Layers: []engine.Layer{{Name: "operator", Allow: []string{"mcp__files__*"}}}}}, nil
	}

	var received, lists atomic.Int64
	stalled, release := make(chan struct{}, 1), make(chan struct{})
	upstream := upstreamServer(&received)
	upstream.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" && lists.Add(1) > 1 {
				stalled <- struct{}{}
				select {
				case <-release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return next(ctx, method, req)
		}
	})
	proxy, cs := connectInMemory(t, upstream, load, nil)

	upstream.AddTool(&mcp.Tool{Name: "later", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "later ran"}}}, nil
		})
	select {
	case <-stalled:
	case <-time.After(5 * time.Second):
		t.Fatal("the proxy did not list the tools again after list_changed")
	}

	reloaded := make(chan error, 1)
	go func() { reloaded <- proxy.Reload(ctx) }()
	select {
	case err := <-reloaded:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("a reload waited for the stalled listing")
	}
	require.Equal(t, int64(2), loads.Load())
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search"})
	require.NoError(t, err)
	require.False(t, res.IsError, "calls are decided while the listing stalls")
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "later"})
	require.NoError(t, err)
	require.True(t, res.IsError, "a tool not yet listed is not forwarded")

	close(release)
	require.Eventually(t, func() bool {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "later"})
		return err == nil && !res.IsError
	}, 5*time.Second, 20*time.Millisecond, "the listing's catalog was installed when it ended")
	require.Equal(t, int64(1), received.Load())
}

// Reloads run one at a time: a reload that starts while another is
// loading reads the files after it, and its policy is the one in force
// when both are done (an older read never replaces a newer one).
func TestReloadsRunOneAtATime(t *testing.T) {
	ctx := context.Background()
	e, err := engine.New(ctx)
	require.NoError(t, err)
	allow := []engine.Layer{{Name: "operator", Allow: []string{"mcp__files__*"}}}
	deny := []engine.Layer{{Name: "operator", Allow: []string{"mcp__files__*"}, Deny: []string{"mcp__files__read_file"}}}
	var loads atomic.Int64
	firstStarted, releaseFirst := make(chan struct{}), make(chan struct{})
	load := func(context.Context) (*Policy, error) {
		switch loads.Add(1) {
		case 1: // the proxy's start
			return &Policy{Engine: e, Session: engine.SessionConfig{Layers: allow}}, nil
		case 2: // the first reload: reads the old files, slowly
			close(firstStarted)
			<-releaseFirst
			return &Policy{Engine: e, Session: engine.SessionConfig{Layers: allow}}, nil
		default: // the second reload: reads the new files
			return &Policy{Engine: e, Session: engine.SessionConfig{Layers: deny}}, nil
		}
	}
	var received atomic.Int64
	proxy, cs := connectInMemory(t, upstreamServer(&received), load, nil)

	first, second := make(chan error, 1), make(chan error, 1)
	go func() { first <- proxy.Reload(ctx) }()
	<-firstStarted
	go func() { second <- proxy.Reload(ctx) }()
	time.Sleep(100 * time.Millisecond) // time for the second reload to overtake, were it able to
	require.Equal(t, int64(2), loads.Load(), "the second reload waits for the first")
	close(releaseFirst)
	require.NoError(t, <-first)
	require.NoError(t, <-second)
	require.Equal(t, int64(3), loads.Load())

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file"})
	require.NoError(t, err)
	require.True(t, res.IsError, "the later reload's policy is in force")
	require.Equal(t, int64(0), received.Load())
}

// decodeArguments keeps a call's arguments as they came: exact numbers,
// any JSON value (the policy refuses what is not an object of
// arguments), nil for none, an error for what is not JSON.
func TestArgumentsAreDecodedAsTheyCame(t *testing.T) {
	args, err := decodeArguments(json.RawMessage(`{"n": 12345678901234567890}`))
	require.NoError(t, err)
	require.Equal(t, json.Number("12345678901234567890"), args.(map[string]any)["n"])
	args, err = decodeArguments(json.RawMessage(`[1]`))
	require.NoError(t, err)
	require.Equal(t, []any{json.Number("1")}, args)
	args, err = decodeArguments(nil)
	require.NoError(t, err)
	require.Nil(t, args)
	_, err = decodeArguments(json.RawMessage(`{`))
	require.Error(t, err)
}

// Arguments a server could read otherwise than the policy are refused:
// text that is not UTF-8, and members named twice, in any object, equal
// or equal under case folding.
func TestArgumentsAServerCouldReadOtherwiseAreRefused(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		says string // "" when the arguments are accepted
	}{
		{`{"path": "a", "Path": "b"}`, "twice"},
		{`{"path": "a", "path": "a"}`, "twice"},
		{`{"k": 1, "\u212a": 2}`, "twice"},                       // KELVIN SIGN folds to k
		{`{"x": [{"a": 1}, {"b": {"ß": 1, "SS": 2}}]}`, "twice"}, // full case folding
		{`{"x": [{"a": 1}, {"a": 2}], "y": {"a": 3}}`, ""},       // equal names in different objects
		{`{"a": {"a": {"a": 1}}, "b": [[{"a": [], "b": {}}]]}`, ""},
		{`{"path": "caf\u00e9"}`, ""},
		{"{\"path\": \"\xff\"}", "not valid UTF-8"},
		{`{"a": 1,}`, "not JSON"},
	} {
		_, err := decodeArguments(json.RawMessage(tc.raw))
		if tc.says == "" {
			require.NoError(t, err, tc.raw)
			continue
		}
		require.ErrorContains(t, err, tc.says, tc.raw)
	}
}

// A configuration with errors (here an unknown tenant) withholds every
// tool and refuses every call with the policy's invalid_config message;
// the upstream sees nothing.
func TestConfigurationErrorsWithholdEveryTool(t *testing.T) {
	ctx := context.Background()
	e, err := engine.New(ctx)
	require.NoError(t, err)
	load := func(context.Context) (*Policy, error) {
		return &Policy{Engine: e, Session: engine.SessionConfig{Tenant: "no-such-tenant"}}, nil
	}
	var received atomic.Int64
	_, cs := connectInMemory(t, upstreamServer(&received), load, nil)

	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, list.Tools)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file"})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Equal(t, `tool "mcp__files__read_file" is refused: the request or policy configuration has 1 error(s), listed under errors`,
		res.Content[0].(*mcp.TextContent).Text)
	require.Zero(t, received.Load())
}

// Every call the proxy answers counts against its run guard, those it
// refuses before the policy included: arguments that are not UTF-8 (which
// no SDK client sends, so the proxy's decision is asked directly), a name
// the upstream does not list exactly, a member given twice.
func TestRefusalsBeforeThePolicyCount(t *testing.T) {
	ctx := context.Background()
	e, err := engine.New(ctx)
	require.NoError(t, err)
	load := func(context.Context) (*Policy, error) {
		return &Policy{Engine: e, Session: engine.SessionConfig{Layers: []engine.Layer{{Name: "operator", Allow: []string{"mcp__files__*"}}}}}, nil
	}
	guard := engine.NewRunGuard(0, 3)
	var received atomic.Int64
	proxy, cs := connectWith(t, upstreamServer(&received), Options{ServerName: "files", Load: load, Guard: guard}, nil)
	for _, raw := range []string{"{\"path\": \"\xff\"}", `{"path": "a", "path": "b"}`} {
		_, refusal, _ := proxy.decide(ctx, nil, &mcp.CallToolParamsRaw{Name: "read_file", Arguments: json.RawMessage(raw)})
		require.NotNil(t, refusal, raw)
	}
	_, refusal, _ := proxy.decide(ctx, nil, &mcp.CallToolParamsRaw{Name: "Read_File"})
	require.NotNil(t, refusal)
	totals := guard.Totals()
	require.Equal(t, json.Number("3"), totals.Attempts)
	require.Equal(t, json.Number("3"), totals.Refusals)
	require.True(t, totals.Exhausted)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file"})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Contains(t, res.Content[0].(*mcp.TextContent).Text, "reached its limit of 3 refusals")
	require.Zero(t, received.Load())
}
