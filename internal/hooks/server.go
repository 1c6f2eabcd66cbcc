package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/tooleval/tooleval/engine"
)

// MaxPayload is the largest hook payload read (4 MiB); a larger one is
// refused.
const MaxPayload = 4 << 20

// Handler serves a decider over HTTP:
//
//	POST /v1/hooks/RUNTIME         the runtime's hook output (Claude Code's http hook)
//	POST /v1/hooks/RUNTIME/answer  {"outcome", "message", "output"} (tooleval hook)
//	GET  /health                   200 with the bundle's revision once a policy is loaded
//
// RUNTIME is claude-code, gemini or codex. Every POST is answered 200
// with a document, a deny when anything fails: Claude Code reads any
// other status of an http hook as a non-blocking error, and runs the call.
func Handler(d *Decider) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/hooks/{runtime}", func(w http.ResponseWriter, r *http.Request) {
		a := answerRequest(d, r)
		writeJSON(w, a.Output)
	})
	mux.HandleFunc("POST /v1/hooks/{runtime}/answer", func(w http.ResponseWriter, r *http.Request) {
		a := answerRequest(d, r)
		body, err := json.Marshal(a)
		if err != nil {
			body, _ = json.Marshal(Deny(Runtimes[r.PathValue("runtime")], "tooleval could not write its answer"))
		}
		writeJSON(w, body)
	})
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		e := d.Engine()
		if e == nil {
			http.Error(w, `{"error":"no policy is loaded"}`, http.StatusServiceUnavailable)
			return
		}
		body, _ := json.Marshal(map[string]string{"revision": e.Revision()})
		writeJSON(w, body)
	})
	return mux
}

func answerRequest(d *Decider, r *http.Request) *engine.HookAnswer {
	runtime, err := Runtime(r.PathValue("runtime"))
	if err != nil {
		return Deny("claude_code", "tooleval: "+err.Error())
	}
	payload, err := io.ReadAll(io.LimitReader(r.Body, MaxPayload+1))
	if err != nil {
		return Deny(runtime, "tooleval could not read the hook payload: "+err.Error())
	}
	if len(payload) > MaxPayload {
		return Deny(runtime, fmt.Sprintf("the hook payload is larger than %d bytes", MaxPayload))
	}
	return d.Answer(r.Context(), runtime, payload)
}

func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// Client asks a running tooleval serve: at an http://HOST:PORT URL or a
// Unix socket (unix:PATH, or a path starting with /).
type Client struct {
	base string
	http *http.Client
}

// NewClient returns a client of the server at target, waiting at most
// timeout for an answer.
func NewClient(target string, timeout time.Duration) (*Client, error) {
	c := &Client{http: &http.Client{Timeout: timeout}}
	switch {
	case strings.HasPrefix(target, "unix:") || strings.HasPrefix(target, "/"):
		path := strings.TrimPrefix(target, "unix:")
		c.base = "http://tooleval"
		c.http.Transport = &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var dialer net.Dialer
			return dialer.DialContext(ctx, "unix", path)
		}}
	case strings.HasPrefix(target, "http://"):
		c.base = strings.TrimSuffix(target, "/")
	default:
		return nil, fmt.Errorf("tooleval serve at %q: give http://HOST:PORT or unix:PATH", target)
	}
	return c, nil
}

// Answer forwards a hook payload to the server and returns its answer.
func (c *Client) Answer(ctx context.Context, cliRuntime string, payload []byte) (*engine.HookAnswer, error) {
	url := c.base + "/v1/hooks/" + cliRuntime + "/answer"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("ask tooleval serve: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("ask tooleval serve: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxPayload))
	if err != nil {
		return nil, fmt.Errorf("read tooleval serve's answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("tooleval serve answered %s", resp.Status)
	}
	var a engine.HookAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("read tooleval serve's answer: %w", err)
	}
	switch {
	case a.Outcome != engine.OutcomeAllow && a.Outcome != engine.OutcomeAsk && a.Outcome != engine.OutcomeDeny:
		return nil, fmt.Errorf("tooleval serve's answer has outcome %q", a.Outcome)
	case !json.Valid(a.Output) || !bytes.HasPrefix(bytes.TrimSpace(a.Output), []byte("{")):
		return nil, errors.New("tooleval serve's answer has no output document")
	}
	return &a, nil
}
