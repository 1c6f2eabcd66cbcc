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
// through. When the policy cannot be evaluated the tool list is empty
// and every call is refused.
package mcpproxy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/text/cases"

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
	p := &Proxy{opts: opts, log: log, life: life, stop: stop}
	p.decider.Store(&decider{failure: errNoPolicy})
	p.served.Store(&map[string]bool{})

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

// Server is the MCP server that faces the clients, for a transport of
// the caller's choice.
func (p *Proxy) Server() *mcp.Server { return p.server }

// Handler serves clients over Streamable HTTP, every client session on
// the one upstream session.
func (p *Proxy) Handler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return p.server }, nil)
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

// refreshCatalog lists the upstream's tools again (after its
// notifications/tools/list_changed) and re-filters them. A listing that
// fails keeps the catalog the proxy had.
func (p *Proxy) refreshCatalog(ctx context.Context) {
	p.listing.Lock()
	defer p.listing.Unlock()
	tools, err := p.listUpstreamTools(ctx)
	if err != nil {
		p.log.Error("mcp proxy: the upstream changed its tools but listing them failed; the previous catalog stays", "error", err.Error())
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.catalog = tools
	p.install(ctx)
}

// Bounds of one listing of the upstream's tools: an upstream that stalls,
// pages without end or lists more tools than a request may declare gets
// no new catalog (the previous one stays).
const (
	listTimeout = 30 * time.Second
	maxTools    = 10000
	maxPages    = 1000
)

// listUpstreamTools reads every page of the upstream's tools/list,
// within listTimeout, maxTools and maxPages. A null entry is left out.
func (p *Proxy) listUpstreamTools(ctx context.Context) ([]*mcp.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	var tools []*mcp.Tool
	params := &mcp.ListToolsParams{}
	for pages := 1; ; pages++ {
		res, err := p.upstream.ListTools(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("mcp proxy: list the upstream's tools: %w", err)
		}
		for _, tool := range res.Tools {
			if tool != nil {
				tools = append(tools, tool)
			}
		}
		switch {
		case len(tools) > maxTools:
			return nil, fmt.Errorf("mcp proxy: the upstream lists more than %d tools", maxTools)
		case res.NextCursor == "":
			return tools, nil
		case pages == maxPages:
			return nil, fmt.Errorf("mcp proxy: the upstream's tool list has more than %d pages", maxPages)
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

// install opens the session for the current policy and catalog (its
// context is compiled once, here), asks the policy's catalog which tools
// execute, and serves exactly those to the clients. It fails closed:
// without a session no tool is served. Callers hold mu.
func (p *Proxy) install(ctx context.Context) {
	allowed, d := p.compile(ctx)
	p.decider.Store(d)
	if d.session == nil {
		p.log.Error("mcp proxy: the policy cannot be evaluated; every tool is withheld and every call refused", "error", d.failure.Error())
	}
	// Withdraw first, then add: the client, told of the change, never
	// lists a tool that is no longer allowed.
	var removed []string
	for name := range *p.served.Load() {
		if !allowed[name] {
			removed = append(removed, name)
		}
	}
	if len(removed) > 0 {
		p.server.RemoveTools(removed...)
	}
	var served, withheld []string
	for _, tool := range p.catalog {
		if !allowed[tool.Name] {
			withheld = append(withheld, tool.Name)
			continue
		}
		if err := p.serve(tool); err != nil {
			p.log.Error("mcp proxy: a tool the policy allows cannot be served and is withheld", "tool", tool.Name, "error", err.Error())
			p.server.RemoveTools(tool.Name)
			withheld = append(withheld, tool.Name)
			continue
		}
		served = append(served, tool.Name)
	}
	now := make(map[string]bool, len(served))
	for _, name := range served {
		now[name] = true
	}
	p.served.Store(&now)
	p.log.Info("mcp proxy: catalog", "server", p.opts.ServerName, "listed", len(p.catalog), "served", served, "withheld", withheld)
}

// compile opens a session for the catalog and returns the upstream tool
// names its catalog lets execute. A catalog with configuration errors
// serves nothing, and its session refuses every call (invalid_config).
func (p *Proxy) compile(ctx context.Context) (map[string]bool, *decider) {
	if p.policy == nil {
		return nil, &decider{failure: errNoPolicy}
	}
	config := p.policy.Session
	config.Declared = make([]engine.Declaration, 0, len(p.catalog))
	byModelName := make(map[string]string, len(p.catalog))
	declared := make(map[string]bool, len(p.catalog))
	for _, tool := range p.catalog {
		declared[tool.Name] = true
		name := ModelName(p.opts.ServerName, tool.Name)
		config.Declared = append(config.Declared, engine.Declaration{
			Name: name,
			MCP:  &engine.MCPIdentity{Server: p.opts.ServerName, Tool: tool.Name},
		})
		byModelName[name] = tool.Name
	}
	var opts []engine.SessionOption
	if p.opts.Guard != nil {
		opts = append(opts, engine.WithRunGuard(p.opts.Guard))
	}
	session, err := p.policy.Engine.NewSession(ctx, config, opts...)
	if err != nil {
		return nil, &decider{failure: fmt.Errorf("open a session for the upstream's catalog: %w", err)}
	}
	catalog, err := session.Tools(ctx)
	if err != nil {
		return nil, &decider{failure: fmt.Errorf("evaluate the catalog: %w", err)}
	}
	allowed := map[string]bool{}
	if len(catalog.Errors) > 0 {
		p.log.Error("mcp proxy: the configuration has errors; every tool is withheld and every call refused", "errors", catalog.Errors)
		return allowed, &decider{session: session, declared: declared}
	}
	for _, name := range catalog.Effective {
		if tool, ok := byModelName[name]; ok {
			allowed[tool] = true
		}
	}
	return allowed, &decider{session: session, declared: declared}
}

// serve registers an upstream tool on the client-facing server, as the
// upstream describes it. The SDK refuses (panics on) a tool whose input
// schema is not an object; such a tool is withheld.
func (p *Proxy) serve(tool *mcp.Tool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	copied := *tool
	p.server.AddTool(&copied, p.callTool)
	return nil
}

// intercept is the server's receiving middleware. A tools/call of a
// tool the client was not shown is decided here (and refused by the
// policy, as not declared or as the policy says, not reported as an
// unknown tool); a served tool's call goes through the SDK to its
// handler, [Proxy.callTool], so that the SDK relays multi round-trip
// input requests. The upstream's resources and prompts are forwarded.
// Everything else is the SDK's: initialize, ping, tools/list from the
// served tools, and the completion and subscription handlers.
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

// callTool decides one tools/call and forwards it only when the policy
// allows it; the upstream's result comes back unchanged.
func (p *Proxy) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	params := req.Params
	if params == nil {
		params = &mcp.CallToolParamsRaw{}
	}
	args, refusal := p.decide(ctx, params)
	if refusal != nil {
		return refusal, nil
	}
	meta := forwardedMeta(params.Meta)
	if level, ok := p.levels.Load(req.Session); ok && req.Session != nil {
		if meta == nil {
			meta = mcp.Meta{}
		}
		if _, stated := meta[mcp.MetaKeyLogLevel]; !stated {
			meta[mcp.MetaKeyLogLevel] = level
		}
	}
	forward := &mcp.CallToolParams{
		Meta:           meta,
		Name:           params.Name,
		Arguments:      args, // as decided, written anew: see decide
		InputResponses: params.InputResponses,
		RequestState:   params.RequestState,
	}
	if token := params.GetProgressToken(); token != nil {
		// The call goes upstream with a progress token of the proxy's own,
		// so that two clients' equal tokens never cross: the upstream's
		// notifications for it go back to this client under its token.
		own := fmt.Sprintf("tooleval-progress-%d", p.tokens.Add(1))
		forward.SetProgressToken(own)
		if req.Session != nil {
			route := &progressRoute{session: req.Session, token: token}
			p.progress.Store(own, route)
			// The upstream's notifications are handled apart from its
			// responses: one sent before the result may be handled after it.
			defer time.AfterFunc(progressGrace, func() { p.progress.Delete(own) })
		}
	}
	return p.upstream.CallTool(ctx, forward)
}

// progressGrace is how long a call's progress token still routes the
// upstream's notifications to its client after the call returned.
const progressGrace = 10 * time.Second

// progressRoute is the client session a forwarded call's progress
// notifications go to, and the progress token the client gave the call.
type progressRoute struct {
	session *mcp.ServerSession
	token   any
}

// sessionMeta are the _meta members that describe the client's own
// session (protocol 2026-07-28 on): the proxy's client states its own.
var sessionMeta = []string{mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientInfo, mcp.MetaKeyClientCapabilities, mcp.MetaKeySubscriptionID}

// forwardedMeta is a call's _meta as it goes upstream: everything but
// the members that describe the client's session (the progress token
// and the log level go on).
func forwardedMeta(meta mcp.Meta) mcp.Meta {
	if meta == nil {
		return nil
	}
	out := make(mcp.Meta, len(meta))
	for k, v := range meta {
		if !slices.Contains(sessionMeta, k) {
			out[k] = v
		}
	}
	return out
}

// decide asks the session about one call. It returns the call's
// arguments as the policy judged them, to be forwarded in place of the
// client's bytes, or the refusal the client gets. The arguments are
// written anew (so that the server cannot read them otherwise: a
// repeated member, for one, counts once, as the policy counted it), and
// every path argument the configuration names is the absolute, resolved
// path the policy judged, not the string the client sent: a server that
// resolves a relative path against a directory of its own, applies ".."
// before following links or matches names under Unicode normalization
// is handed the one file the policy decided on.
//
// Every call decide answers counts against the run guard: the policy
// counts those it decides, and decide counts the ones it refuses itself
// (before the policy, or allowed but not served).
func (p *Proxy) decide(ctx context.Context, params *mcp.CallToolParamsRaw) (any, *mcp.CallToolResult) {
	name := ModelName(p.opts.ServerName, params.Name)
	d := p.decider.Load()
	if d.session == nil {
		p.spend(true)
		p.auditUnevaluated(ctx, name, engine.ReasonInvalidConfig, "config", d.failure)
		return nil, Refusal(fmt.Sprintf("tool %q is not permitted: the tooleval policy could not be evaluated", name))
	}
	if !d.declared[params.Name] {
		p.spend(true)
		p.auditUnevaluated(ctx, params.Name, engine.ReasonNotDeclared, "", fmt.Errorf("the upstream lists no tool named exactly %q", params.Name))
		return nil, Refusal(fmt.Sprintf("tool %q is not declared for this request: the server lists no tool of exactly that name", params.Name))
	}
	call := map[string]any{"id": fmt.Sprintf("mcp_call_%d", p.calls.Add(1)), "name": name}
	args, err := decodeArguments(params.Arguments)
	if err != nil {
		p.spend(true)
		p.log.Error("mcp proxy: the call's arguments are refused", "tool", params.Name, "error", err.Error())
		p.auditUnevaluated(ctx, name, "invalid_arguments", "", err)
		return nil, Refusal(fmt.Sprintf("tool %q is not permitted: %s", name, err))
	}
	if args != nil {
		call["args"] = args // any JSON value: the policy refuses what is not an object of arguments
	}
	decision, judged, err := d.session.DecideResolved(ctx, []any{call})
	if err != nil {
		// The guard records nothing for a batch that failed.
		p.spend(true)
		p.log.Error("mcp proxy: the call could not be decided and is refused", "tool", params.Name, "error", err.Error())
	}
	if decision == nil || len(decision.Decisions) != 1 {
		return nil, Refusal(fmt.Sprintf("tool %q is not permitted: the tooleval policy could not be evaluated", name))
	}
	verdict := decision.Decisions[0]
	if err == nil && verdict.Allowed {
		forward, ok := judgedArguments(judged)
		switch {
		case !ok:
			p.spend(false)
			p.log.Error("mcp proxy: an allowed call's judged arguments cannot be read back, and it is refused", "tool", params.Name)
			return nil, Refusal(fmt.Sprintf("tool %q is not permitted: the tooleval proxy cannot forward what the policy judged", name))
		case !(*p.served.Load())[params.Name]:
			// Allowed, but the client was not given it (the SDK refused its
			// schema, or the installation of this catalog is under way).
			p.spend(false)
			return nil, Refusal(fmt.Sprintf("tool %q is not permitted: the tooleval proxy does not serve it", name))
		}
		return forward, nil
	}
	message := verdict.Message
	if message == "" {
		message = fmt.Sprintf("tool %q is not permitted (%s)", name, verdict.Reason)
	}
	return nil, Refusal(message)
}

// judgedArguments is the args member of the one call the policy judged
// (nil when it had none), and whether it could be read.
func judgedArguments(judged []any) (any, bool) {
	if len(judged) != 1 {
		return nil, false
	}
	call, ok := judged[0].(map[string]any)
	if !ok {
		return nil, false
	}
	return call["args"], true
}

// spend counts a call the proxy answered without the policy's tally: an
// attempt (unless the policy already counted it) and a refusal.
func (p *Proxy) spend(attempt bool) {
	if p.opts.Guard != nil {
		p.opts.Guard.Refused(1, attempt)
	}
}

// Refusal is the result a client gets for a refused call: isError set,
// with the policy's message as its only content, so that the model
// reads why and the conversation goes on.
func Refusal(message string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: message}}}
}

// decodeArguments reads a call's arguments as they came (numbers kept
// exact, as json.Number, so that they are written anew as they came):
// nil for none. It refuses arguments a server could read otherwise than
// the policy does: text that is not UTF-8, and an object with two
// members whose names are equal, or equal but for case (a server that
// matches member names without regard to case, as Go's encoding/json
// does, would take the one the policy did not check).
func decodeArguments(raw json.RawMessage) (any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if !utf8.Valid(raw) {
		return nil, errors.New("its arguments are not valid UTF-8")
	}
	if err := distinctMembers(raw); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytesReader(raw))
	dec.UseNumber()
	var args any
	if err := dec.Decode(&args); err != nil {
		return nil, fmt.Errorf("decode the arguments: %w", err)
	}
	return args, nil
}

// distinctMembers checks that no object in a JSON text has two members
// whose names are equal under Unicode case folding.
func distinctMembers(raw []byte) error {
	type frame struct {
		object    bool
		expectKey bool
		names     map[string]string // folded -> as written
	}
	var stack []*frame
	dec := json.NewDecoder(bytesReader(raw))
	dec.UseNumber()
	fold := cases.Fold()
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("its arguments are not JSON: %w", err)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.expectKey {
			if tok == json.Delim('}') {
				stack = stack[:len(stack)-1]
				continue
			}
			name, _ := tok.(string)
			folded := fold.String(name)
			if first, seen := top.names[folded]; seen {
				return fmt.Errorf("its arguments name the member %q twice (as %q and %q)", name, first, name)
			}
			top.names[folded] = name
			top.expectKey = false
			continue
		}
		if top != nil && top.object {
			top.expectKey = true // tok is the member's value
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, expectKey: true, names: map[string]string{}})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

// auditUnevaluated records a call the proxy refused without an
// evaluation (no policy, a name the upstream does not list, arguments a
// server could read otherwise), in the shape of the engine's audit
// records. layer may be empty.
func (p *Proxy) auditUnevaluated(ctx context.Context, name, reason, layer string, failure error) {
	if p.opts.Audit == nil {
		return
	}
	verdict := map[string]any{"name": name, "allowed": false, "reason": reason}
	if layer != "" {
		verdict["layer"] = layer
	}
	var id [16]byte
	_, _ = rand.Read(id[:])
	p.opts.Audit.LogAttrs(ctx, slog.LevelWarn, engine.AuditMessage, // always a refusal
		slog.String("decision_id", hex.EncodeToString(id[:])),
		slog.String("path", "tooleval/decision"),
		slog.String("timestamp", time.Now().UTC().Format(time.RFC3339Nano)),
		slog.Any("input", map[string]any{"calls": []any{map[string]any{"name": name}}}),
		slog.Any("result", map[string]any{"decisions": []any{verdict}}),
		slog.Any("erased", []string{"/input/calls/0/args"}),
		slog.String("error", failure.Error()),
	)
}
