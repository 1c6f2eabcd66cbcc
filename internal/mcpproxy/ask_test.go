package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// syncBuffer is a buffer the audit logger writes to from the proxy's
// goroutines while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// answers are the answer members of the audit's ask records, in order.
func (b *syncBuffer) answers(t *testing.T) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		if line == "" {
			continue
		}
		var record map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &record))
		if record["msg"] == AskAuditMessage {
			require.NotContains(t, record, "args", "the answer's record does not quote the arguments")
			out = append(out, record["answer"].(string))
		}
	}
	return out
}

// askPolicy asks a person about every call of read_file (by name) and
// about search when its q argument is "secret" (an argument rule).
func askPolicy(t *testing.T) PolicyLoader {
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	layers := []engine.Layer{{
		Name:     "operator",
		Allow:    []string{"mcp__files__*"},
		Ask:      []string{"mcp__files__read_file"},
		AskRules: []engine.ArgumentRule{{"tool": "mcp__files__search", "args": map[string]any{"q": "secret"}}},
	}}
	return func(context.Context) (*Policy, error) {
		return &Policy{Engine: e, Session: engine.SessionConfig{Layers: layers}}, nil
	}
}

// TestAnAskIsPutToThePerson: through the Go SDK on both sides, a call
// the policy asks about goes upstream only when the person at the client
// approves it through MCP elicitation; a decline, an accept that does not
// approve, a dismissal and a timeout refuse it, each saying why, and
// every answer is audited.
func TestAnAskIsPutToThePerson(t *testing.T) {
	ctx := context.Background()
	var received, asked atomic.Int64
	reply := make(chan *mcp.ElicitResult, 1)
	var lastQuestion atomic.Value
	audit := &syncBuffer{}
	_, cs := connectWith(t, upstreamServer(&received),
		Options{ServerName: "files", Load: askPolicy(t), Audit: slog.New(slog.NewJSONHandler(audit, nil)), AskTimeout: 300 * time.Millisecond, Log: slog.New(slog.NewTextHandler(os.Stderr, nil))},
		&mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			lastQuestion.Store(req.Params.Message)
			select {
			case r := <-reply:
				return r, nil
			case <-time.After(time.Second): // too late: the question expired
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})

	call := func(name string, args map[string]any, answer *mcp.ElicitResult) *mcp.CallToolResult {
		if answer != nil {
			reply <- answer
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err)
		return res
	}
	text := func(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

	listed, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, listed.Tools, 2, "a tool asked for by name is served: its calls are asked about")

	approved := call("read_file", map[string]any{"path": "/a"}, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}})
	require.False(t, approved.IsError, text(approved))
	require.Equal(t, int64(1), received.Load())
	require.Contains(t, lastQuestion.Load(), `"mcp__files__read_file" needs a person's approval`)
	require.Contains(t, lastQuestion.Load(), `Arguments: {"path":"/a"}`)

	for _, tc := range []struct {
		answer *mcp.ElicitResult
		why    string
	}{
		{&mcp.ElicitResult{Action: "decline"}, "the person declined it"},
		{&mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false}}, "the person declined it"},
		{&mcp.ElicitResult{Action: "cancel"}, "the person dismissed the question"},
		{nil, "no answer came in time"},
	} {
		refused := call("read_file", nil, tc.answer)
		require.True(t, refused.IsError)
		require.Contains(t, text(refused), tc.why)
	}
	require.Equal(t, int64(1), received.Load(), "no refused call reached the upstream")

	// an argument rule asks only about the calls it bites on
	require.False(t, call("search", map[string]any{"q": "x"}, nil).IsError)
	require.Equal(t, int64(5), asked.Load(), "search with another q was not asked about")
	require.True(t, call("search", map[string]any{"q": "SECRET"}, &mcp.ElicitResult{Action: "decline"}).IsError)
	require.False(t, call("search", map[string]any{"q": "secret"}, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}).IsError)
	require.Equal(t, int64(3), received.Load())

	require.Equal(t, []string{"approved", "declined", "declined", "cancelled", "timed_out", "declined", "approved"}, audit.answers(t))
}

// TestAnAskWithoutElicitationIsARefusal: a client that declares no
// elicitation capability cannot be asked; the call is refused, saying
// that approval is needed, and never reaches the upstream.
func TestAnAskWithoutElicitationIsARefusal(t *testing.T) {
	ctx := context.Background()
	var received atomic.Int64
	audit := &syncBuffer{}
	_, cs := connectWith(t, upstreamServer(&received), Options{ServerName: "files", Load: askPolicy(t), Audit: slog.New(slog.NewJSONHandler(audit, nil))}, nil)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file"})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Contains(t, res.Content[0].(*mcp.TextContent).Text, "needs a person's approval")
	require.Contains(t, res.Content[0].(*mcp.TextContent).Text, "declares no elicitation capability")
	require.Zero(t, received.Load())
	require.Equal(t, []string{"unsupported"}, audit.answers(t))
}

// TestAnAskUnderAnOlderProtocol: a client of protocol 2025-11-25 is
// asked while the call is served (elicitation/create); the proxy waits at
// most AskTimeout for the answer.
func TestAnAskUnderAnOlderProtocol(t *testing.T) {
	ctx := context.Background()
	var received atomic.Int64
	reply := make(chan *mcp.ElicitResult, 1)
	audit := &syncBuffer{}
	_, cs := connectSession(t, upstreamServer(&received),
		Options{ServerName: "files", Load: askPolicy(t), Audit: slog.New(slog.NewJSONHandler(audit, nil)), AskTimeout: 300 * time.Millisecond},
		&mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			select {
			case r := <-reply:
				return r, nil
			case <-ctx.Done(): // the proxy stopped waiting
				return nil, ctx.Err()
			}
		}},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	call := func(answer *mcp.ElicitResult) *mcp.CallToolResult {
		if answer != nil {
			reply <- answer
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file"})
		require.NoError(t, err)
		return res
	}
	require.False(t, call(&mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}).IsError)
	require.True(t, call(&mcp.ElicitResult{Action: "decline"}).IsError)
	late := call(nil)
	require.True(t, late.IsError)
	require.Contains(t, late.Content[0].(*mcp.TextContent).Text, "no answer came in time")
	require.Equal(t, int64(1), received.Load())
	require.Equal(t, []string{"approved", "declined", "timed_out"}, audit.answers(t))
}

// TestAnAnswerBelongsToItsCall: under protocol 2026-07-28 the client
// sends the answer back with the call; an answer to another call's
// question, one sent twice, one with a state the proxy did not sign and
// one sent after the question expired are refused, and never reach the
// upstream.
func TestAnAnswerBelongsToItsCall(t *testing.T) {
	ctx := context.Background()
	var received atomic.Int64
	audit := &syncBuffer{}
	_, cs := connectWith(t, upstreamServer(&received),
		Options{ServerName: "files", Load: askPolicy(t), Audit: slog.New(slog.NewJSONHandler(audit, nil)), AskTimeout: 500 * time.Millisecond},
		&mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return nil, errors.New("not used")
			},
			MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		})
	yes := mcp.InputResponseMap{askKey: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	ask := func(args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: args})
		require.NoError(t, err)
		require.True(t, res.NeedsInput(), "the question comes back as input requests")
		require.Contains(t, res.InputRequests, askKey)
		return res.RequestState
	}
	answer := func(args map[string]any, state string) *mcp.CallToolResult {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: args, InputResponses: yes, RequestState: state})
		require.NoError(t, err)
		return res
	}
	text := func(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

	state := ask(map[string]any{"path": "/a"})
	other := answer(map[string]any{"path": "/etc/shadow"}, state)
	require.True(t, other.IsError)
	require.Contains(t, text(other), "does not belong to this call")
	require.True(t, answer(map[string]any{"path": "/a"}, state+"x").IsError, "a state the proxy did not sign")
	require.True(t, answer(map[string]any{"path": "/a"}, "").IsError, "no state")

	state = ask(map[string]any{"path": "/a"})
	require.False(t, answer(map[string]any{"path": "/a"}, state).IsError)
	replayed := answer(map[string]any{"path": "/a"}, state)
	require.True(t, replayed.IsError, "an answer counts once")

	state = ask(map[string]any{"path": "/b"})
	time.Sleep(600 * time.Millisecond)
	expired := answer(map[string]any{"path": "/b"}, state)
	require.True(t, expired.IsError)
	require.Contains(t, text(expired), "no answer came in time")

	require.Equal(t, int64(1), received.Load())
	require.Equal(t, []string{"not_this_call", "not_this_call", "not_this_call", "approved", "not_this_call", "timed_out"}, audit.answers(t))
}

// TestAnApprovalCarriesOverTheUpstreamsOwnQuestions: after the person
// approves a call, an upstream that asks the client for input of its own
// gets it, and the client's retry is not asked about again.
func TestAnApprovalCarriesOverTheUpstreamsOwnQuestions(t *testing.T) {
	ctx := context.Background()
	var received atomic.Int64
	upstream := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, nil)
	for _, name := range []string{"read_file", "search"} {
		upstream.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if req.Params.InputResponses == nil {
					return &mcp.CallToolResult{
						InputRequests: mcp.InputRequestMap{"upstream_q": &mcp.ElicitParams{Mode: "form", Message: "which branch?", RequestedSchema: map[string]any{"type": "object"}}},
						RequestState:  "upstream-state",
					}, nil
				}
				if req.Params.RequestState != "upstream-state" {
					return nil, errors.New("the upstream's state did not come back")
				}
				if _, ok := req.Params.InputResponses[askKey]; ok {
					return nil, errors.New("the proxy's answer went upstream")
				}
				received.Add(1)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " ran"}}}, nil
			})
	}
	var questions []string
	_, cs := connectWith(t, upstream, Options{ServerName: "files", Load: askPolicy(t)},
		&mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			questions = append(questions, req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		}})
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "/a"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	require.Equal(t, int64(1), received.Load())
	require.Len(t, questions, 2, "the person was asked once, then the upstream's question")
	require.Contains(t, questions[0], "needs a person's approval")
	require.Equal(t, "which branch?", questions[1])
}

// TestACarriedApprovalServesOneRetry: the state that carries an approval
// over the server's own question serves one retry of that call; sent
// again, it is refused and the server does not run the call twice.
func TestACarriedApprovalServesOneRetry(t *testing.T) {
	ctx := context.Background()
	var received atomic.Int64
	upstream := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, nil)
	upstream.AddTool(&mcp.Tool{Name: "read_file", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.InputResponses == nil {
				return &mcp.CallToolResult{
					InputRequests: mcp.InputRequestMap{"upstream_q": &mcp.ElicitParams{Mode: "form", Message: "sure?", RequestedSchema: map[string]any{"type": "object"}}},
					RequestState:  "upstream-state",
				}, nil
			}
			received.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran"}}}, nil
		})
	_, cs := connectWith(t, upstream, Options{ServerName: "files", Load: askPolicy(t)}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("not used")
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	args := map[string]any{"path": "/a"}
	call := func(responses mcp.InputResponseMap, state string) *mcp.CallToolResult {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: args, InputResponses: responses, RequestState: state})
		require.NoError(t, err)
		return res
	}
	asked := call(nil, "")
	require.Contains(t, asked.InputRequests, askKey)
	upstreamAsks := call(mcp.InputResponseMap{askKey: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}, asked.RequestState)
	require.Contains(t, upstreamAsks.InputRequests, "upstream_q", "approved: the server's own question comes back")
	require.NotContains(t, upstreamAsks.InputRequests, askKey)
	answers := mcp.InputResponseMap{"upstream_q": &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}}
	require.False(t, call(answers, upstreamAsks.RequestState).IsError)
	require.Equal(t, int64(1), received.Load())
	replayed := call(answers, upstreamAsks.RequestState)
	require.True(t, replayed.IsError, "a carried approval serves one retry")
	require.Contains(t, replayed.Content[0].(*mcp.TextContent).Text, "does not belong to this call")
	require.Equal(t, int64(1), received.Load())
}

// TestAQuestionShowsWhatTheServerGets: arguments too long to show are
// refused without asking, and characters that could hide or reorder
// text are shown escaped.
func TestAQuestionShowsWhatTheServerGets(t *testing.T) {
	ctx := context.Background()
	var received, asked atomic.Int64
	var question atomic.Value
	_, cs := connectWith(t, upstreamServer(&received), Options{ServerName: "files", Load: askPolicy(t)},
		&mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			question.Store(req.Params.Message)
			return &mcp.ElicitResult{Action: "decline"}, nil
		}})
	long, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "/a", "pad": strings.Repeat(" ", 3000)}})
	require.NoError(t, err)
	require.True(t, long.IsError)
	require.Contains(t, long.Content[0].(*mcp.TextContent).Text, "longer than the 2000 characters a question shows")
	require.Zero(t, asked.Load(), "not asked")

	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "/a\u202e/gpj.exe", "n": "\x07😀"}})
	require.NoError(t, err)
	require.Contains(t, question.Load(), `"path":"/a\u202e/gpj.exe"`)
	require.Contains(t, question.Load(), `"n":"\u0007\ud83d\ude00"`)
	require.Zero(t, received.Load())
}

// TestTheProxysAnswerNeverGoesUpstream: an answer to the proxy's own
// question sent with a call that was not asked about is not forwarded;
// the server's own input responses are.
func TestTheProxysAnswerNeverGoesUpstream(t *testing.T) {
	ctx := context.Background()
	var seen atomic.Value
	upstream := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, nil)
	upstream.AddTool(&mcp.Tool{Name: "search", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var keys []string
			for k := range req.Params.InputResponses {
				keys = append(keys, k)
			}
			seen.Store(keys)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran"}}}, nil
		})
	_, cs := connectWith(t, upstream, Options{ServerName: "files", Load: askPolicy(t)}, &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}})
	accept := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"q": "x"},
		InputResponses: mcp.InputResponseMap{askKey: accept, "upstream_q": accept}, RequestState: "upstream-state"})
	require.NoError(t, err)
	require.False(t, res.IsError, "search with another q is not asked about")
	require.Equal(t, []string{"upstream_q"}, seen.Load())
}
