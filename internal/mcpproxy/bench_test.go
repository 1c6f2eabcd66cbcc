package mcpproxy

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tooleval/tooleval/engine"
)

// BenchmarkProxyCallInProcess is one tools/call through a proxy (decided,
// then forwarded) against the same call made directly, all in one
// process over in-memory transports: the proxy's own cost without the
// pipes and processes of tests/e2e/cli's BenchmarkProxyCall. "audit" writes every
// decision's audit record (to io.Discard), as the command always does;
// "path_rule" makes the call's path argument subject to the workspace
// rules (resolved on the host, then checked by the policy).
func BenchmarkProxyCallInProcess(b *testing.B) {
	ctx := context.Background()
	var received atomic.Int64
	connect := func(b *testing.B, server *mcp.Server) *mcp.ClientSession {
		clientSide, serverSide := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, serverSide, nil); err != nil {
			b.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, clientSide, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	loop := func(b *testing.B, cs *mcp.ClientSession) {
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "/ws/notes.txt"}})
			if err != nil || res.IsError {
				b.Fatalf("call failed: %v %+v", err, res)
			}
		}
	}
	b.Run("direct", func(b *testing.B) { loop(b, connect(b, upstreamServer(&received))) })
	for _, variant := range []struct {
		name         string
		audit, paths bool
	}{
		{"proxy", false, false},
		{"proxy/audit", true, false},
		{"proxy/audit/path_rule", true, true},
	} {
		b.Run(variant.name, func(b *testing.B) {
			var opts []engine.Option
			if variant.audit {
				opts = append(opts, engine.WithAuditLogger(slog.New(slog.NewJSONHandler(io.Discard, nil))))
			}
			if variant.paths {
				opts = append(opts, engine.WithConfig(engine.Config{"path_arguments": map[string]any{
					"mcp__files__read_file": map[string]any{"path": "read"},
				}}))
			}
			e, err := engine.New(ctx, opts...)
			if err != nil {
				b.Fatal(err)
			}
			load := func(context.Context) (*Policy, error) {
				return &Policy{Engine: e, Session: engine.SessionConfig{
					Layers:    []engine.Layer{{Name: "operator", Allow: []string{"mcp__files__*"}}},
					Workspace: &engine.Workspace{Root: "/ws"},
				}}, nil
			}
			upClient, upServer := mcp.NewInMemoryTransports()
			if _, err := upstreamServer(&received).Connect(ctx, upServer, nil); err != nil {
				b.Fatal(err)
			}
			proxy, err := Start(ctx, upClient, Options{ServerName: "files", Load: load})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = proxy.Close() })
			loop(b, connect(b, proxy.Server()))
		})
	}
}
