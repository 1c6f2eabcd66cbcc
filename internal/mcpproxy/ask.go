package mcpproxy

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tooleval/tooleval/engine"
)

// DefaultAskTimeout is how long the proxy waits for a person's answer to
// an ask when [Options.AskTimeout] is zero.
const DefaultAskTimeout = 2 * time.Minute

// AskAuditMessage is the message of the audit record of a person's
// answer to an ask.
const AskAuditMessage = "tooleval ask answered"

// Answers to an ask, as the audit record names them.
const (
	answerApproved    = "approved"    // the person accepted, with approve true
	answerDeclined    = "declined"    // decline, or accept without approve true
	answerCancelled   = "cancelled"   // the person dismissed the question
	answerTimedOut    = "timed_out"   // no answer within the timeout
	answerFailed      = "failed"      // the question could not be put
	answerUnsupported = "unsupported" // the client declares no elicitation
	answerForged      = "not_this_call"
	answerTooLong     = "too_long" // the arguments do not fit in a question
)

var refusalReasons = map[string]string{
	answerDeclined:  "the person declined it",
	answerCancelled: "the person dismissed the question",
	answerTimedOut:  "no answer came in time",
	answerFailed:    "the question could not be put to the person",
	answerForged:    "the answer the client sent does not belong to this call",
}

// askKey is the key of the proxy's question among a call's input
// requests (protocol 2026-07-28 on).
const askKey = "tooleval_approval"

// approvalSchema is the form the person answers: one boolean, required.
// Only an accept whose approve is true approves the call, so a client
// that accepts every form without showing it approves nothing.
var approvalSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"approve": map[string]any{"type": "boolean", "title": "Approve this call", "description": "Run the tool call described above"},
	},
	"required": []any{"approve"},
}

// maxAskArguments is the most characters of a call's arguments (as
// asciiJSON writes them) a question shows; a call whose arguments are
// longer is refused, not asked about.
const maxAskArguments = 2000

// asks keeps what the proxy needs to trust an answer that comes back in
// a later request (protocol 2026-07-28 on, where a server asks by
// returning input requests and the client retries the call with the
// answers): the key that signs the request state, and the questions
// already answered.
type asks struct {
	key      [32]byte
	mu       sync.Mutex
	answered map[string]time.Time // nonce -> when its state expires
}

func newAsks() *asks {
	a := &asks{answered: map[string]time.Time{}}
	_, _ = rand.Read(a.key[:])
	return a
}

// askState is the request state of a question: which call it is about
// (the tool and a digest of the arguments the policy judged), until when
// it may be answered, whether it was approved already (the upstream asked
// for input of its own after an approval), and the upstream's own state.
type askState struct {
	Session  string `json:"s"` // the client session asked
	Nonce    string `json:"n"`
	Expires  int64  `json:"e"` // Unix milliseconds
	Call     string `json:"c"`
	Approved bool   `json:"a,omitempty"`
	Upstream string `json:"u,omitempty"`
}

// stateMark starts every request state the proxy signs.
const stateMark = "tooleval1."

func (a *asks) sign(s askState) string {
	payload, _ := json.Marshal(s)
	mac := hmac.New(sha256.New, a.key[:])
	mac.Write(payload)
	return stateMark + base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// open reads a request state the proxy signed; false for any other.
func (a *asks) open(state string) (askState, bool) {
	var s askState
	rest, ok := strings.CutPrefix(state, stateMark)
	if !ok {
		return s, false
	}
	payloadText, sigText, ok := strings.Cut(rest, ".")
	if !ok {
		return s, false
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(payloadText)
	sig, err2 := base64.RawURLEncoding.DecodeString(sigText)
	if err1 != nil || err2 != nil {
		return s, false
	}
	mac := hmac.New(sha256.New, a.key[:])
	mac.Write(payload)
	if !hmac.Equal(sig, mac.Sum(nil)) || json.Unmarshal(payload, &s) != nil {
		return s, false
	}
	return s, true
}

// answer marks a question answered; false when it was already.
func (a *asks) answer(s askState) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	for n, expires := range a.answered {
		if now.After(expires) {
			delete(a.answered, n)
		}
	}
	if _, done := a.answered[s.Nonce]; done {
		return false
	}
	a.answered[s.Nonce] = time.UnixMilli(s.Expires)
	return true
}

// approval is an approved ask: what goes upstream in place of the
// client's input responses and request state.
type approval struct {
	state     askState
	responses mcp.InputResponseMap
}

// callDigest names a call for its request state: the tool and the
// arguments the policy judged.
func callDigest(name string, args any) string {
	quoted, _ := json.Marshal(args)
	sum := sha256.Sum256(append(append([]byte(name), 0), quoted...))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// askPerson puts an ask to the person at the client through MCP
// elicitation (form mode, the arguments the policy judged quoted in the
// question). It returns the approval, or the result the client gets: a
// refusal, or (protocol 2026-07-28 on) the question itself, as input
// requests the client answers by retrying the call. A client that
// declares no elicitation capability, a decline, a dismissal, a timeout
// ([Options.AskTimeout]), a failed request and an answer that belongs to
// another call all refuse, each saying so. Every answer is audited
// ([Options.Audit]) without the arguments.
func (p *Proxy) askPerson(ctx context.Context, session *mcp.ServerSession, name string, verdict engine.CallDecision, judged []any, params *mcp.CallToolParamsRaw) (*approval, *mcp.CallToolResult) {
	question := verdict.Message
	if question == "" {
		question = fmt.Sprintf("tool %q needs a person's approval", name)
	}
	args, _ := judgedArguments(judged)
	digest := callDigest(name, args)
	if state, ok := p.asks.open(params.RequestState); ok && state.Approved {
		// approved in an earlier round: the rounds since are the
		// upstream's; each carried state serves one retry of this very
		// call, by this session, before the question's expiry
		if state.Call != digest || state.Session != sessionID(session) || time.Now().UnixMilli() > state.Expires || !p.asks.answer(state) {
			return p.answered(ctx, name, verdict, question, answerForged, approval{})
		}
		p.auditAnswer(ctx, name, verdict, answerApproved)
		return &approval{state: state, responses: params.InputResponses}, nil
	}
	if !canElicit(session) {
		p.auditAnswer(ctx, name, verdict, answerUnsupported)
		return nil, Refusal(question + " (this client cannot ask a person: it declares no elicitation capability, so the call is refused)")
	}
	quoted := asciiJSON(args)
	if len(quoted) > maxAskArguments {
		// the person would approve what they were not shown
		p.auditAnswer(ctx, name, verdict, answerTooLong)
		return nil, Refusal(fmt.Sprintf("%s, and the call is refused: its arguments are longer than the %d characters a question shows", question, maxAskArguments))
	}
	elicit := &mcp.ElicitParams{
		Mode:            "form",
		Message:         fmt.Sprintf("%s.\n\nTool: %s\nArguments: %s", question, name, quoted),
		RequestedSchema: approvalSchema,
	}
	timeout := p.opts.AskTimeout
	if timeout <= 0 {
		timeout = DefaultAskTimeout
	}
	if !multiRoundTrip(session) {
		askCtx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		res, err := session.Elicit(askCtx, elicit)
		answer := answerOf(askCtx, res, err)
		if answer == answerFailed && err != nil {
			p.log.Error("mcp proxy: an ask could not be put to the person", "tool", name, "error", err.Error())
		}
		return p.answered(ctx, name, verdict, question, answer, approval{responses: params.InputResponses, state: askState{Upstream: params.RequestState}})
	}
	response, answered := params.InputResponses[askKey]
	if !answered {
		state := askState{Session: sessionID(session), Nonce: nonce(), Expires: time.Now().Add(timeout).UnixMilli(), Call: digest}
		return nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{askKey: elicit}, RequestState: p.asks.sign(state)}
	}
	state, ok := p.asks.open(params.RequestState)
	answer := answerForged
	switch result, isElicit := response.(*mcp.ElicitResult); {
	case !ok || state.Approved || state.Call != digest || state.Session != sessionID(session) || !isElicit || !p.asks.answer(state):
	case time.Now().UnixMilli() > state.Expires:
		answer = answerTimedOut
	default:
		answer = answerOf(ctx, result, nil)
	}
	state.Approved, state.Upstream = true, ""
	return p.answered(ctx, name, verdict, question, answer, approval{state: state, responses: withoutAsk(params.InputResponses)})
}

// withoutAsk is a call's input responses as they go upstream: without an
// answer to the proxy's own question (nil when nothing is left). The
// server never sees it, on a call that was asked about or not.
func withoutAsk(responses mcp.InputResponseMap) mcp.InputResponseMap {
	if _, ours := responses[askKey]; !ours {
		return responses
	}
	upstream := make(mcp.InputResponseMap, len(responses))
	for k, v := range responses {
		if k != askKey {
			upstream[k] = v
		}
	}
	if len(upstream) == 0 {
		return nil
	}
	return upstream
}

func (p *Proxy) answered(ctx context.Context, name string, verdict engine.CallDecision, question, answer string, a approval) (*approval, *mcp.CallToolResult) {
	p.auditAnswer(ctx, name, verdict, answer)
	if answer == answerApproved {
		return &a, nil
	}
	return nil, Refusal(fmt.Sprintf("%s, and the call is refused: %s", question, refusalReasons[answer]))
}

// carry is the request state the client gets when the upstream asks for
// input of its own after an approval: the approval (valid until it
// expires) around the upstream's state, so that the client's retry is
// not asked about again.
func (p *Proxy) carry(a *approval, upstreamState string) string {
	s := a.state
	if s.Nonce == "" { // an older client's approval: no retry comes back with it
		return upstreamState
	}
	s.Approved, s.Upstream, s.Nonce = true, upstreamState, nonce() // good for one retry
	return p.asks.sign(s)
}

// upstreamState is the request state an approved call goes upstream
// with: the upstream's own, out of the proxy's.
func (a *approval) upstreamState(clientState string) string {
	if a.state.Nonce == "" {
		return clientState
	}
	return a.state.Upstream
}

func nonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// canElicit: the client declared the elicitation capability (form mode,
// or no mode, which means form).
func canElicit(session *mcp.ServerSession) bool {
	if session == nil {
		return false
	}
	params := session.InitializeParams()
	if params == nil || params.Capabilities == nil || params.Capabilities.Elicitation == nil {
		return false
	}
	caps := params.Capabilities.Elicitation
	return caps.Form != nil || caps.URL == nil
}

// multiRoundTrip: the client speaks protocol 2026-07-28 or later, where
// a server asks a question by returning it as input requests, not by
// sending it while it serves the call.
func multiRoundTrip(session *mcp.ServerSession) bool {
	params := session.InitializeParams()
	return params != nil && params.ProtocolVersion >= "2026-07-28"
}

// answerOf reads the person's answer: approved only for an accept whose
// approve is true.
func answerOf(ctx context.Context, res *mcp.ElicitResult, err error) string {
	switch {
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return answerTimedOut
	case err != nil || res == nil:
		return answerFailed
	case res.Action == "accept" && res.Content["approve"] == true:
		return answerApproved
	case res.Action == "cancel":
		return answerCancelled
	}
	return answerDeclined
}

// auditAnswer records the answer to an ask, after the engine's record of
// the decision (outcome ask): the tool, the layer that asked, the reading
// an argument rule looked at, the answer and whether the call goes on.
// The arguments are not recorded.
func (p *Proxy) auditAnswer(ctx context.Context, name string, verdict engine.CallDecision, answer string) {
	level := slog.LevelWarn
	if answer == answerApproved {
		level = slog.LevelInfo
	}
	p.log.Log(ctx, level, "mcp proxy: an ask was answered", "tool", name, "layer", verdict.Layer, "answer", answer)
	if p.opts.Audit == nil {
		return
	}
	p.opts.Audit.LogAttrs(ctx, level, AskAuditMessage,
		slog.String("timestamp", time.Now().UTC().Format(time.RFC3339Nano)),
		slog.String("tool", name),
		slog.String("layer", verdict.Layer),
		slog.String("argument", verdict.Argument),
		slog.String("answer", answer),
		slog.Bool("forwarded", answer == answerApproved),
	)
}

// sessionID names the client session an ask's state belongs to.
func sessionID(session *mcp.ServerSession) string {
	if session == nil {
		return ""
	}
	return session.ID()
}

// asciiJSON writes arguments as JSON with every character outside
// printable ASCII escaped (\uXXXX): the person reads what the server
// gets, with no control, format or bidirectional character to hide or
// reorder part of it.
func asciiJSON(args any) string {
	raw, _ := json.Marshal(args)
	var b strings.Builder
	for _, r := range string(raw) {
		switch {
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, "\\u%04x\\u%04x", hi, lo)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}
