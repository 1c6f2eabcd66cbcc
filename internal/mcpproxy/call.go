package mcpproxy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tooleval/tooleval/engine"
)

// callTool decides one tools/call and forwards it only when the policy
// allows it; the upstream's result comes back unchanged.
func (p *Proxy) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	params := req.Params
	if params == nil {
		params = &mcp.CallToolParamsRaw{}
	}
	args, refusal, approved := p.decide(ctx, req.Session, params)
	if refusal != nil {
		return refusal, nil
	}
	inputResponses, requestState := withoutAsk(params.InputResponses), params.RequestState
	if approved != nil { // the proxy's own question and state stay here
		inputResponses, requestState = approved.responses, approved.upstreamState(params.RequestState)
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
		InputResponses: inputResponses,
		RequestState:   requestState,
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
	res, err := p.upstream.CallTool(ctx, forward)
	if err == nil && approved != nil && res != nil && res.InputRequests != nil {
		res.RequestState = p.carry(approved, res.RequestState)
	}
	return res, err
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
func (p *Proxy) decide(ctx context.Context, session *mcp.ServerSession, params *mcp.CallToolParamsRaw) (any, *mcp.CallToolResult, *approval) {
	name := ModelName(p.opts.ServerName, params.Name)
	d := p.decider.Load()
	if d.session == nil {
		p.spend(true)
		p.auditUnevaluated(ctx, name, engine.ReasonInvalidConfig, "config", d.failure)
		return nil, Refusal(fmt.Sprintf("tool %q is not permitted: the tooleval policy could not be evaluated", name)), nil
	}
	if !d.declared[params.Name] {
		p.spend(true)
		p.auditUnevaluated(ctx, params.Name, engine.ReasonNotDeclared, "", fmt.Errorf("the upstream lists no tool named exactly %q", params.Name))
		return nil, Refusal(fmt.Sprintf("tool %q is not declared for this request: the server lists no tool of exactly that name", params.Name)), nil
	}
	call := map[string]any{"id": fmt.Sprintf("mcp_call_%d", p.calls.Add(1)), "name": name}
	args, err := decodeArguments(params.Arguments)
	if err != nil {
		p.spend(true)
		p.log.Error("mcp proxy: the call's arguments are refused", "tool", params.Name, "error", err.Error())
		p.auditUnevaluated(ctx, name, "invalid_arguments", "", err)
		return nil, Refusal(fmt.Sprintf("tool %q is not permitted: %s", name, err)), nil
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
		return nil, Refusal(fmt.Sprintf("tool %q is not permitted: the tooleval policy could not be evaluated", name)), nil
	}
	verdict := decision.Decisions[0]
	var approved *approval
	if err == nil && verdict.Outcome == engine.OutcomeAsk {
		var result *mcp.CallToolResult
		if approved, result = p.askPerson(ctx, session, name, verdict, judged, params); result != nil {
			return nil, result, nil
		}
	}
	if err == nil && (verdict.Allowed || approved != nil) { // an ask goes on only once approved
		forward, ok := judgedArguments(judged)
		switch {
		case !ok:
			p.spend(false)
			p.log.Error("mcp proxy: an allowed call's judged arguments cannot be read back, and it is refused", "tool", params.Name)
			return nil, Refusal(fmt.Sprintf("tool %q is not permitted: the tooleval proxy cannot forward what the policy judged", name)), nil
		case !(*p.served.Load())[params.Name]:
			// Allowed, but the client was not given it (the SDK refused its
			// schema, or the installation of this catalog is under way).
			p.spend(false)
			return nil, Refusal(fmt.Sprintf("tool %q is not permitted: the tooleval proxy does not serve it", name)), nil
		}
		return forward, nil, approved
	}
	message := verdict.Message
	if message == "" {
		message = fmt.Sprintf("tool %q is not permitted (%s)", name, verdict.Reason)
	}
	return nil, Refusal(message), nil
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
	if err := engine.DistinctMembers(raw); err != nil {
		return nil, fmt.Errorf("its arguments %w", err)
	}
	dec := json.NewDecoder(bytesReader(raw))
	dec.UseNumber()
	var args any
	if err := dec.Decode(&args); err != nil {
		return nil, fmt.Errorf("decode the arguments: %w", err)
	}
	return args, nil
}

// auditUnevaluated records a call the proxy refused without an
// evaluation (no policy, a name the upstream does not list, arguments a
// server could read otherwise), in the shape of the engine's audit
// records. layer may be empty.
func (p *Proxy) auditUnevaluated(ctx context.Context, name, reason, layer string, failure error) {
	if p.opts.Audit == nil {
		return
	}
	verdict := map[string]any{"name": name, "allowed": false, "outcome": string(engine.OutcomeDeny), "reason": reason}
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
