package mcpproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is the MCP server that faces the clients, for a transport of
// the caller's choice.
func (p *Proxy) Server() *mcp.Server { return p.server }

// Handler serves clients over Streamable HTTP, every client session on
// the one upstream session.
func (p *Proxy) Handler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return p.server }, nil)
}

// intercept is the server's receiving middleware. A tools/call of a
// tool the client was not shown is decided here (and refused by the
// policy, as not declared or as the policy says, not reported as an
// unknown tool); a served tool's call goes through the SDK to its
// handler, [Proxy.callTool], so that the SDK relays multi round-trip
// input requests. tools/list answers the served tools in the upstream's
// order (listing.go); the upstream's resources and prompts are forwarded.
// Everything else is the SDK's: initialize, ping, and the completion and
// subscription handlers.
func (p *Proxy) intercept(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
			p.logContexts.Store(ss, context.WithoutCancel(ctx))
		}
		switch r := req.(type) {
		case *mcp.CallToolRequest:
			if r.Params == nil || !(*p.served.Load())[r.Params.Name] {
				return p.callTool(ctx, r)
			}
		case *mcp.ListToolsRequest:
			return p.listTools(r.Params)
		case *mcp.ListResourcesRequest:
			return p.upstream.ListResources(ctx, r.Params)
		case *mcp.ListResourceTemplatesRequest:
			return p.upstream.ListResourceTemplates(ctx, r.Params)
		case *mcp.ReadResourceRequest:
			return p.upstream.ReadResource(ctx, r.Params)
		case *mcp.ListPromptsRequest:
			return p.upstream.ListPrompts(ctx, r.Params)
		case *mcp.GetPromptRequest:
			return p.upstream.GetPrompt(ctx, r.Params)
		}
		if method == "logging/setLevel" {
			// The upstream filters its messages at the client's level; the
			// SDK records the level for this session too.
			if params, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok && params != nil {
				if err := p.upstream.SetLoggingLevel(ctx, params); err != nil {
					return nil, err
				}
				if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
					p.levels.Store(ss, params.Level)
				}
			}
		}
		return next(ctx, method, req)
	}
}

// Serve serves the proxy's clients until ctx ends or the upstream
// session ends: over Streamable HTTP on listener when it is not nil (see
// [LoopbackOnly]: the proxy authenticates no one), else one client over
// in and out (newline-delimited JSON-RPC, see [Proxy.ServeStdio]).
func (p *Proxy) Serve(ctx context.Context, listener net.Listener, in io.Reader, out io.Writer) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-p.UpstreamDone():
			p.log.Info("mcp proxy: the upstream session ended")
			stop()
		case <-ctx.Done():
		}
	}()
	if listener != nil {
		return p.serveHTTP(ctx, listener)
	}
	return p.ServeStdio(ctx, in, out)
}

// serveHTTP serves clients over Streamable HTTP on listener until ctx
// ends, then shuts the server down (5 s for calls under way).
func (p *Proxy) serveHTTP(ctx context.Context, listener net.Listener) error {
	server := &http.Server{Handler: p.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdown)
	}()
	if err := server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve Streamable HTTP: %w", err)
	}
	return nil
}

// LoopbackOnly accepts HOST:PORT when HOST is localhost or a loopback IP
// address: the proxy authenticates no client, so whoever can connect
// could call the tools the policy allows.
func LoopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%q is not a loopback address: the proxy authenticates no client, so it serves only this host (127.0.0.1, ::1 or localhost); put an authenticating reverse proxy in front of it to serve others", host)
}

// ReloadOn reloads the proxy's policy on every signal until ctx ends
// (SIGHUP). A failed reload keeps the policy in force (the proxy logs it).
func (p *Proxy) ReloadOn(ctx context.Context, signals <-chan os.Signal) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-signals:
			_ = p.Reload(ctx)
		}
	}
}

// UpstreamTransport connects to the upstream: Streamable HTTP at url, or
// else command over stdio, started in the workspace (the policy resolves
// a relative path against the workspace root, so the server must resolve
// it against the same directory) with its standard error on stderr, each
// line prefixed with "upstream: " so that the server cannot write lines
// that read as the proxy's audit records.
func UpstreamTransport(command []string, url, workspace string, stderr io.Writer) mcp.Transport {
	if url != "" {
		return &mcp.StreamableClientTransport{Endpoint: url}
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = &linePrefixer{out: stderr, prefix: []byte("upstream: "), start: true}
	cmd.Dir = workspace
	return &mcp.CommandTransport{Command: cmd}
}

// linePrefixer writes what it is given to out with prefix at the start
// of every line.
type linePrefixer struct {
	mu     sync.Mutex
	out    io.Writer
	prefix []byte
	start  bool // the next byte starts a line
}

func (w *linePrefixer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var buf []byte
	for _, b := range p {
		if w.start {
			buf = append(buf, w.prefix...)
		}
		buf = append(buf, b)
		w.start = b == '\n'
	}
	if _, err := w.out.Write(buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// OpenAuditLog opens the audit log: the file at path appended to (its
// directory made, private to the user, when missing), or fallback when
// path is empty. The function returned closes it.
func OpenAuditLog(path string, fallback io.Writer) (io.Writer, func(), error) {
	if path == "" {
		return fallback, func() {}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { _ = f.Close() }, nil
}
