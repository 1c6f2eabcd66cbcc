package mcpproxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientOptions are the upstream-facing client's handlers: a changed
// tool list is re-filtered, and what the upstream sends the client side
// (log messages, progress, resource updates, sampling and elicitation
// requests) goes on to the clients.
func (p *Proxy) clientOptions() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		// No roots: the proxy does not speak for the client's file system.
		Capabilities: &mcp.ClientCapabilities{},
		// An upstream's input requests (protocol 2026-07-28 on) go back to
		// the client in the result, and the client's retry is a new call,
		// decided like any other.
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			// Not in the handler: listing waits for the upstream, whose
			// messages this handler's caller delivers.
			go p.refreshCatalog(p.life)
		},
		LoggingMessageHandler: func(ctx context.Context, req *mcp.LoggingMessageRequest) {
			server := p.ready.Load()
			if server == nil {
				return
			}
			live := map[*mcp.ServerSession]bool{}
			for ss := range server.Sessions() {
				live[ss] = true
				logCtx := ctx
				if c, ok := p.logContexts.Load(ss); ok {
					logCtx = c.(context.Context)
				}
				if err := ss.Log(logCtx, req.Params); err != nil {
					p.log.Debug("mcp proxy: forward a log message", "error", err.Error())
				}
			}
			// Forget what ended sessions set.
			p.logContexts.Range(func(k, _ any) bool {
				if !live[k.(*mcp.ServerSession)] {
					p.logContexts.Delete(k)
					p.levels.Delete(k)
				}
				return true
			})
		},
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			reg, ok := p.progress.Load(req.Params.ProgressToken)
			if !ok {
				return
			}
			route := reg.(*progressRoute)
			params := *req.Params
			params.ProgressToken = route.token
			if err := route.session.NotifyProgress(ctx, &params); err != nil {
				p.log.Debug("mcp proxy: forward a progress notification", "error", err.Error())
			}
		},
		ResourceUpdatedHandler: func(ctx context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			server := p.ready.Load()
			if server == nil {
				return
			}
			if err := server.ResourceUpdated(ctx, req.Params); err != nil {
				p.log.Debug("mcp proxy: forward a resource update", "error", err.Error())
			}
		},
		CreateMessageHandler: func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			ss, err := p.onlyClient()
			if err != nil {
				return nil, fmt.Errorf("sampling/createMessage: %w", err)
			}
			return ss.CreateMessage(ctx, req.Params)
		},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			ss, err := p.onlyClient()
			if err != nil {
				return nil, fmt.Errorf("elicitation/create: %w", err)
			}
			return ss.Elicit(ctx, req.Params)
		},
	}
}

// onlyClient is the one connected client session, to which the
// upstream's requests go; with none or several there is no one to ask.
func (p *Proxy) onlyClient() (*mcp.ServerSession, error) {
	server := p.ready.Load()
	if server == nil {
		return nil, errors.New("the tooleval proxy is still starting")
	}
	var only *mcp.ServerSession
	for ss := range server.Sessions() {
		if only != nil {
			return nil, errors.New("several clients are connected to the tooleval proxy; it cannot tell which one to ask")
		}
		only = ss
	}
	if only == nil {
		return nil, errors.New("no client is connected to the tooleval proxy")
	}
	return only, nil
}

// serverOptions are the client-facing server's: the upstream's
// capabilities, never more. Tools are always announced with
// listChanged, since a reload or an upstream change re-filters them;
// the prompt and resource lists are announced without listChanged, as
// the proxy does not relay those notifications.
func (p *Proxy) serverOptions(init *mcp.InitializeResult) *mcp.ServerOptions {
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}}
	opts := &mcp.ServerOptions{Capabilities: caps}
	if init == nil || init.Capabilities == nil {
		return opts
	}
	opts.Instructions = init.Instructions
	up := init.Capabilities
	caps.Logging = up.Logging
	if up.Prompts != nil {
		caps.Prompts = &mcp.PromptCapabilities{}
	}
	if up.Resources != nil {
		caps.Resources = &mcp.ResourceCapabilities{Subscribe: up.Resources.Subscribe}
		if up.Resources.Subscribe {
			opts.SubscribeHandler = func(ctx context.Context, req *mcp.SubscribeRequest) error {
				return p.upstream.Subscribe(ctx, req.Params)
			}
			opts.UnsubscribeHandler = func(ctx context.Context, req *mcp.UnsubscribeRequest) error {
				return p.upstream.Unsubscribe(ctx, req.Params)
			}
		}
	}
	if up.Completions != nil {
		caps.Completions = up.Completions
		opts.CompletionHandler = func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			return p.upstream.Complete(ctx, req.Params)
		}
	}
	return opts
}

// serverImplementation names the client-facing server as the upstream
// names itself: the client talks to that server, through the proxy.
func serverImplementation(init *mcp.InitializeResult) *mcp.Implementation {
	if init == nil || init.ServerInfo == nil {
		return &mcp.Implementation{Name: "tooleval-mcp-proxy", Version: "1"}
	}
	impl := *init.ServerInfo
	return &impl
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
