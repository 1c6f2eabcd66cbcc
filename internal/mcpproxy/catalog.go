package mcpproxy

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tooleval/tooleval/engine"
)

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
	p.listed.Store(p.listed.Load().without(removed))
	if len(removed) > 0 {
		p.server.RemoveTools(removed...)
	}
	var served, withheld []string
	var listed []*mcp.Tool
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
		listed = append(listed, tool)
	}
	now := make(map[string]bool, len(served))
	for _, name := range served {
		now[name] = true
	}
	p.served.Store(&now)
	p.listed.Store(&listing{generation: p.listed.Load().generation + 1, tools: listed})
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
	// A tool a layer asks for by name is served too: each of its calls
	// is put to the person (askPerson) or refused.
	for _, v := range catalog.Tools {
		name, isString := v.Name.(string)
		if tool, ok := byModelName[name]; ok && isString && (v.Allowed || v.Outcome == engine.OutcomeAsk) {
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
