package mcpproxy

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// listingUpstream is an upstream with the named tools, each with a
// description and annotations, whose tools/list answers them in the
// order given, on one page (the SDK server would sort them by name).
func listingUpstream(names ...string) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, &mcp.ServerOptions{PageSize: len(names) + 1})
	for _, name := range names {
		server.AddTool(&mcp.Tool{
			Name:        name,
			Description: "the " + name + " tool",
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}},
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, Title: "Tool " + name},
		}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	}
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if list, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				slices.SortFunc(list.Tools, func(a, b *mcp.Tool) int {
					return slices.Index(names, a.Name) - slices.Index(names, b.Name)
				})
			}
			return res, err
		}
	})
	return server
}

// policyDenying is a loader of a policy that lets every tool of the
// files server execute but those named in deny.
func policyDenying(t *testing.T, deny ...string) PolicyLoader {
	t.Helper()
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	layer := engine.Layer{Name: "operator", Allow: []string{"mcp__files__*"}}
	for _, tool := range deny {
		layer.Deny = append(layer.Deny, "mcp__files__"+tool)
	}
	return func(context.Context) (*Policy, error) {
		return &Policy{Engine: e, Session: engine.SessionConfig{Layers: []engine.Layer{layer}}}, nil
	}
}

// tools/list is the upstream's list, in its order and unchanged, less the
// tools the policy withholds.
func TestToolsListIsTheUpstreamsLessTheWithheld(t *testing.T) {
	ctx := context.Background()
	names := []string{"zeta", "alpha", "mid", "beta"}
	upstream := listingUpstream(names...)
	_, cs := connectInMemory(t, upstream, policyDenying(t, "mid"), nil)

	direct := upstreamListing(t, upstream)
	res, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, res.NextCursor)
	var want []*mcp.Tool
	for _, tool := range direct {
		if tool.Name != "mid" {
			want = append(want, tool)
		}
	}
	require.Equal(t, []string{"zeta", "alpha", "beta"}, toolNames(res.Tools), "the upstream's order, not sorted")
	require.Equal(t, want, res.Tools, "each tool as the upstream describes it")
}

// A listing longer than a page is paged in the upstream's order; a cursor
// the proxy did not give is invalid params.
func TestToolsListPagesInTheUpstreamsOrder(t *testing.T) {
	ctx := context.Background()
	var names []string
	for i := range listPageSize + 5 {
		names = append(names, fmt.Sprintf("t%04d", listPageSize+5-i)) // descending
	}
	_, cs := connectInMemory(t, listingUpstream(names...), policyDenying(t, names[3]), nil)

	first, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, first.Tools, listPageSize)
	require.NotEmpty(t, first.NextCursor)
	second, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: first.NextCursor})
	require.NoError(t, err)
	require.Empty(t, second.NextCursor)
	want := slices.Delete(slices.Clone(names), 3, 4)
	require.True(t, slices.Equal(want, append(toolNames(first.Tools), toolNames(second.Tools)...)), "both pages, in the upstream's order")

	for _, cursor := range []string{"not-a-cursor", writeCursor(0, 1), writeCursor(99, 1), writeCursor(1, 0), writeCursor(1, len(want))} {
		_, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		require.ErrorContains(t, err, "list the tools again without one", "cursor %q", cursor)
	}
}

// A cursor of an earlier listing is refused once the policy changes what
// is served.
func TestToolsListRefusesACursorOfAnEarlierListing(t *testing.T) {
	l := &listing{generation: 7, tools: []*mcp.Tool{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	cursor := writeCursor(l.generation, 2)
	off, err := readCursor(cursor, l.generation, len(l.tools))
	require.NoError(t, err)
	require.Equal(t, 2, off)
	next := l.without([]string{"b"})
	require.Equal(t, []string{"a", "c"}, toolNames(next.tools))
	_, err = readCursor(cursor, next.generation, len(next.tools))
	require.ErrorContains(t, err, "the tool list changed")
	require.Same(t, l, l.without(nil), "nothing removed: the same listing, the same cursors")
}

func upstreamListing(t *testing.T, upstream *mcp.Server) []*mcp.Tool {
	t.Helper()
	ctx := context.Background()
	clientSide, serverSide := mcp.NewInMemoryTransports()
	ss, err := upstream.Connect(ctx, serverSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).Connect(ctx, clientSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	res, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	return res.Tools
}

func toolNames(tools []*mcp.Tool) []string {
	out := make([]string, 0, len(tools))
	for _, tool := range tools {
		out = append(out, tool.Name)
	}
	return out
}
