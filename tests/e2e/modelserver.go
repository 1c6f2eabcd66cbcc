// Package e2e drives real agent runtimes (Claude Code, Gemini CLI, Codex),
// installed from their pinned npm releases, against a scripted model
// server on loopback, and compares what they decide with tooleval.
//
// The model server speaks three wire protocols just far enough for a
// runtime to run a scripted conversation: Anthropic Messages, Gemini
// generateContent and OpenAI Responses. A script is a list of turns; a
// turn calls tools or says a text. The server records every request, so a
// test reads back the result the runtime sent for each tool call.
package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Call is one tool call a scripted turn makes.
type Call struct {
	ID   string         // the call's id, unique in the script
	Tool string         // the tool's name as the runtime declares it
	Args map[string]any // the call's arguments
}

// Turn is one model turn: tool calls, or (when Calls is empty) a text.
type Turn struct {
	Calls []Call
	Text  string
}

// Result is what the runtime sent back for one tool call.
type Result struct {
	ID      string // the call's id (Gemini: the id the runtime echoed)
	Tool    string // the tool's name when the protocol carries it
	Output  string // the result's text
	IsError bool   // the runtime marked the result as an error
}

// Request is one recorded request.
type Request struct {
	Path string
	Body map[string]any
}

// Server is a scripted model server on loopback.
type Server struct {
	listener net.Listener
	server   *http.Server

	mu       sync.Mutex
	script   []Turn
	agents   map[string][]Turn
	requests []Request
}

// SetAgentScript plays script, instead of the main one, to every request
// whose system prompt contains marker (a sub-agent's conversation, whose
// definition carries the marker: its history starts again at turn 0).
func (s *Server) SetAgentScript(marker string, script []Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.agents == nil {
		s.agents = map[string][]Turn{}
	}
	s.agents[marker] = script
}

// NewServer starts a model server on 127.0.0.1 (a free port) that plays
// script. Close stops it.
func NewServer(script []Turn) (*Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("model server: listen on loopback: %w", err)
	}
	s := &Server{listener: l, script: script}
	mux := http.NewServeMux()
	mux.HandleFunc("/", s.handle)
	s.server = &http.Server{Handler: mux}
	go func() { _ = s.server.Serve(l) }()
	return s, nil
}

// URL is the server's base URL, http://127.0.0.1:PORT.
func (s *Server) URL() string { return "http://" + s.listener.Addr().String() }

// Close stops the server.
func (s *Server) Close() error { return s.server.Close() }

// Requests returns the recorded requests, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Results returns the tool results the runtime sent back, by call id,
// read from every recorded request (the last one sent for an id wins).
func (s *Server) Results() map[string]Result {
	out := map[string]Result{}
	for _, r := range s.Requests() {
		for _, res := range resultsOf(r) {
			out[res.ID] = res
		}
	}
	return out
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var doc map[string]any
	if len(body) > 0 {
		if err := json.Unmarshal(body, &doc); err != nil {
			http.Error(w, "model server: body is not JSON: "+err.Error(), http.StatusBadRequest)
			return
		}
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Body: doc})
	s.mu.Unlock()
	path := r.URL.Path
	if os.Getenv("TOOLEVAL_E2E_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "model server: %s %s (%d bytes)\n", r.Method, r.URL, len(body))
		_ = os.WriteFile(filepath.Join(os.TempDir(), "tooleval-e2e-last-request.json"), body, 0o644)
	}
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 1})
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/v1/messages"):
		serveAnthropic(w, s.turnFor(doc, anthropicTurns, anthropicHasTools), doc)
	case r.Method == http.MethodPost && strings.Contains(path, ":streamGenerateContent"):
		serveGemini(w, s.turnFor(doc, geminiTurns, geminiHasTools), true)
	case r.Method == http.MethodPost && strings.Contains(path, ":generateContent"):
		serveGemini(w, s.turnFor(doc, geminiTurns, geminiHasTools), false)
	case r.Method == http.MethodPost && strings.Contains(path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 1})
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/responses"):
		serveResponses(w, s.turnFor(doc, responsesTurns, responsesHasTools))
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/models"):
		writeJSON(w, map[string]any{"data": []any{}, "models": []any{}})
	default:
		http.Error(w, "model server: no such endpoint", http.StatusNotFound)
	}
}

// turnFor picks the scripted turn a request asks for: the number of model
// turns already in its history. A request that declares no tools (a
// runtime's side query: a title, a summary) and a request past the script
// get the text "done".
func (s *Server) turnFor(doc map[string]any, turns func(map[string]any) int, hasTools func(map[string]any) bool) Turn {
	done := Turn{Text: "done"}
	if doc == nil || !hasTools(doc) {
		return done
	}
	n := turns(doc)
	s.mu.Lock()
	defer s.mu.Unlock()
	script := s.script
	if len(s.agents) > 0 {
		// The system prompt as each protocol carries it.
		system, _ := json.Marshal([]any{doc["system"], doc["systemInstruction"], doc["instructions"]})
		for marker, sub := range s.agents {
			if strings.Contains(string(system), marker) {
				script = sub
			}
		}
	}
	if n < len(script) {
		return script[n]
	}
	return done
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes one server-sent event (event may be empty) and flushes it.
func sse(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// resultsOf reads the tool results a request carries, whatever its protocol.
func resultsOf(r Request) []Result {
	switch {
	case strings.HasSuffix(r.Path, "/v1/messages"):
		return anthropicResults(r.Body)
	case strings.Contains(r.Path, "GenerateContent") || strings.Contains(r.Path, "generateContent"):
		return geminiResults(r.Body)
	case strings.HasSuffix(r.Path, "/responses"):
		return responsesResults(r.Body)
	}
	return nil
}

// list reads v as a JSON array (nil when it is not one).
func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// object reads v as a JSON object (nil when it is not one).
func object(v any) map[string]any {
	o, _ := v.(map[string]any)
	return o
}

// text reads v as a string, or joins the text of a list of text blocks.
func text(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var parts []string
		for _, p := range t {
			if o := object(p); o != nil {
				if s, ok := o["text"].(string); ok {
					parts = append(parts, s)
				}
			}
		}
		return strings.Join(parts, "\n")
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
