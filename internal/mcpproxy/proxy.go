// Package mcpproxy puts the tooleval policy in front of an MCP server.
//
// A [Proxy] is an MCP client of one upstream server and an MCP server to
// its own clients, both sides built with the official Go SDK. The
// upstream's tools become the declared tools of a tooleval session (raw
// server and tool names as the MCP identity, mcp__SERVER__TOOL as the
// model-visible name); clients see only the tools the policy's catalog
// (data.tooleval.tools) lets execute, under the upstream's own names,
// and every tools/call is decided by the session before it is forwarded.
// A refused call never reaches the upstream: the client gets a
// CallToolResult with isError set and the policy's message. Resources,
// prompts, completion, logging, progress, sampling and elicitation pass
// through. A call the policy asks about (outcome ask) is put to the
// person at the client through MCP elicitation and forwarded only when
// they approve it; a client without that capability, a decline and a
// timeout refuse it. When the policy cannot be evaluated the tool list is
// empty and every call is refused.
package mcpproxy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tooleval/tooleval/engine"
)

// Policy is what the proxy decides with: an engine and the static part
// of the session it opens for each upstream catalog.
type Policy struct {
	// Engine evaluates the bundle.
	Engine *engine.Engine
	// Session is the agent, layers, workspace, tenant and caller of every
	// session; its Declared member is replaced by the upstream's catalog.
	Session engine.SessionConfig
}

// PolicyLoader loads the policy: once when the proxy starts and again on
// every [Proxy.Reload]. An error at start leaves the proxy failing
// closed until a reload succeeds; an error on reload keeps the last
// policy that loaded.
type PolicyLoader func(ctx context.Context) (*Policy, error)

// Options configure [Start].
type Options struct {
	// ServerName is the raw MCP server name the policy sees (the S of
	// mcp__S__* patterns). Required.
	ServerName string
	// Load loads the policy. Required.
	Load PolicyLoader
	// Guard, when not nil, is the run budget of every call the proxy
	// decides, for its whole lifetime.
	Guard *engine.RunGuard
	// Log receives the proxy's own records (catalog changes, reloads,
	// failures). Nil discards them.
	Log *slog.Logger
	// Audit receives a decision record, in the engine's audit format, for
	// each call the proxy refuses without an evaluation (no policy loaded,
	// a name the upstream does not list exactly, arguments a server could
	// read otherwise); the engine's own audit logger records every other
	// decision. Nil discards them.
	Audit *slog.Logger
	// AskTimeout is how long a call the policy asks about waits for the
	// person's answer (MCP elicitation) before it is refused; zero is
	// DefaultAskTimeout.
	AskTimeout time.Duration
}

// Proxy is a running gateway between MCP clients and one upstream MCP
// server. It is safe for concurrent use.
type Proxy struct {
	opts     Options
	log      *slog.Logger
	life     context.Context // the proxy's lifetime, for background work
	stop     context.CancelFunc
	upstream *mcp.ClientSession
	server   *mcp.Server
	// ready is server once Start has built it: the upstream's
	// notifications and requests can arrive before.
	ready atomic.Pointer[mcp.Server]
	calls atomic.Uint64
	// asks signs and checks the request state of the questions the
	// proxy puts to people (ask.go).
	asks *asks

	// reloading serializes reloads, from the policy's load to its
	// installation, so that an older load never replaces a newer one;
	// listing serializes the upstream's listings the same way.
	reloading sync.Mutex
	listing   sync.Mutex
	// mu serializes installations and guards the fields below it. No
	// upstream request is made while it is held.
	mu      sync.Mutex
	policy  *Policy     // the last policy loaded, nil if none has
	catalog []*mcp.Tool // the upstream's tools, as last listed

	// served is the set of upstream tool names served to the clients:
	// replaced whole under mu, read without it.
	served atomic.Pointer[map[string]bool]
	// listed is what tools/list answers (listing.go): the served tools
	// in the upstream's order, replaced whole under mu after served.
	listed atomic.Pointer[listing]

	// decider is what tools/call reads: the session of the current
	// catalog and policy, swapped whole.
	decider atomic.Pointer[decider]

	progress sync.Map // the progress token a forwarded call was given upstream -> *progressRoute
	tokens   atomic.Uint64
	// levels holds the log level each client session set with
	// logging/setLevel (before protocol 2026-07-28), for the calls it
	// makes: from 2026-07-28 on, the upstream reads it from each request.
	levels sync.Map // *mcp.ServerSession -> mcp.LoggingLevel
	// logContexts holds, per client session, the context of its latest
	// request: from protocol 2026-07-28 on, a client states its log level
	// on each request, and the SDK reads it from the request's context.
	logContexts sync.Map // *mcp.ServerSession -> context.Context
}

// decider is the session that decides calls, or why there is none.
type decider struct {
	session *engine.Session // nil: the policy cannot be evaluated
	failure error           // why session is nil
	// declared holds the upstream's tool names, exactly as listed, that
	// the session declared. A call of any other name (another case or
	// spelling of a listed name included, which the policy would read as
	// the listed tool) is refused before the policy: it would be
	// forwarded under a name the policy did not decide.
	declared map[string]bool
}

// errNoPolicy is the failure of a proxy whose policy never loaded.
var errNoPolicy = errors.New("no policy is loaded")

// Start loads the policy, connects to the upstream server over
// upstream, lists its tools and prepares the server side. Serve clients
// with [Proxy.ServeStdio] or [Proxy.Handler]; end with [Proxy.Close].
// A policy that does not load is not an error here: the proxy starts
// failing closed (the error is logged).
func Start(ctx context.Context, upstream mcp.Transport, opts Options) (*Proxy, error) {
	if opts.ServerName == "" {
		return nil, errors.New("mcp proxy: the upstream server needs a name (the S of mcp__S__* patterns)")
	}
	if opts.Load == nil {
		return nil, errors.New("mcp proxy: no policy loader")
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	life, stop := context.WithCancel(context.WithoutCancel(ctx))
	p := &Proxy{opts: opts, log: log, life: life, stop: stop, asks: newAsks()}
	p.decider.Store(&decider{failure: errNoPolicy})
	p.served.Store(&map[string]bool{})
	p.listed.Store(&listing{})

	// Hold mu until the first catalog is installed: a list_changed that
	// arrives meanwhile waits for it.
	p.mu.Lock()
	defer p.mu.Unlock()

	policy, err := opts.Load(ctx)
	if err != nil {
		log.Error("mcp proxy: the policy did not load; every tool is withheld and every call refused until a reload succeeds", "error", err.Error())
	} else {
		p.policy = policy
	}

	client := mcp.NewClient(&mcp.Implementation{Name: "tooleval-mcp-proxy", Version: "1"}, p.clientOptions())
	cs, err := client.Connect(ctx, upstream, nil)
	if err != nil {
		stop()
		return nil, fmt.Errorf("mcp proxy: connect to the upstream server: %w", err)
	}
	p.upstream = cs
	p.server = mcp.NewServer(serverImplementation(cs.InitializeResult()), p.serverOptions(cs.InitializeResult()))
	p.server.AddReceivingMiddleware(p.intercept)

	p.ready.Store(p.server)

	if init := cs.InitializeResult(); init != nil && init.Capabilities != nil && init.Capabilities.Tools != nil {
		tools, err := p.listUpstreamTools(ctx)
		if err != nil {
			_ = cs.Close()
			stop()
			return nil, err
		}
		p.catalog = tools
	}
	p.install(ctx)
	return p, nil
}

// UpstreamDone is closed when the upstream session ends (the server
// exited or closed the connection).
func (p *Proxy) UpstreamDone() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		_ = p.upstream.Wait()
		close(done)
	}()
	return done
}

// Close ends the upstream session (a command's process is stopped by
// its transport) and the proxy's background work.
func (p *Proxy) Close() error {
	p.stop()
	if err := p.upstream.Close(); err != nil {
		return fmt.Errorf("mcp proxy: close the upstream session: %w", err)
	}
	return nil
}

// Reload loads the policy again and re-filters the current catalog with
// it, without touching the upstream server. On an error the proxy keeps
// the policy it had.
func (p *Proxy) Reload(ctx context.Context) error {
	p.reloading.Lock()
	defer p.reloading.Unlock()
	policy, err := p.opts.Load(ctx)
	if err != nil {
		p.log.Error("mcp proxy: reload failed; the previous policy stays in force", "error", err.Error())
		return fmt.Errorf("mcp proxy: reload: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.policy = policy
	p.install(ctx)
	p.log.Info("mcp proxy: policy reloaded", "revision", policy.Engine.Revision())
	return nil
}
