package hooks

import (
	"encoding/json"
	"net/http"

	"github.com/tooleval/tooleval/internal/hookwire"
)

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
			body, _ = json.Marshal(hookwire.Denial(hookwire.Runtimes[r.PathValue("runtime")], "tooleval could not write its answer"))
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

func answerRequest(d *Decider, r *http.Request) *hookwire.Answer {
	runtime, err := hookwire.Runtime(r.PathValue("runtime"))
	if err != nil {
		return hookwire.Denial("claude_code", "tooleval: "+err.Error())
	}
	payload, err := hookwire.ReadPayload(r.Body)
	if err != nil {
		return hookwire.Denial(runtime, err.Error())
	}
	return d.Answer(r.Context(), runtime, payload)
}

func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
