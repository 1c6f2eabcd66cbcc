// Package hookwire is what a command hook needs to ask tooleval serve,
// and nothing more (no policy engine): the runtimes' names, their deny
// forms, how a hook exits, and the client of tooleval serve's answer
// endpoint. cmd/tooleval-hook is built from it alone, so that a command
// hook starts in a few milliseconds.
package hookwire

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// MaxPayload is the largest hook payload read (4 MiB); a larger one is
// refused.
const MaxPayload = 4 << 20

// ServerEnv names the tooleval serve a command hook forwards to when
// --server is not given: http://HOST:PORT or unix:PATH.
const ServerEnv = "TOOLEVAL_SERVER"

// SocketName is the socket tooleval serve listens on by default, and a
// command hook looks for, in $XDG_RUNTIME_DIR (a directory only its user
// can enter).
const SocketName = "tooleval.sock"

// The outcomes of an answer.
const (
	Allow = "allow"
	Ask   = "ask"
	Deny  = "deny"
)

// Answer is the policy's answer to a hook: what the runtime is told
// (allow, ask or deny), the reason given with an ask or a deny, and the
// runtime's hook output document.
type Answer struct {
	Outcome string          `json:"outcome"`
	Message string          `json:"message"`
	Output  json.RawMessage `json:"output"`
}

// Runtimes maps the runtime names of the command line and the HTTP paths
// (claude-code, gemini, codex) to the policy's (claude_code, gemini,
// codex).
var Runtimes = map[string]string{
	"claude-code": "claude_code",
	"gemini":      "gemini",
	"codex":       "codex",
}

// RuntimeNames is the command line's runtime names, sorted.
func RuntimeNames() []string {
	names := make([]string, 0, len(Runtimes))
	for name := range Runtimes {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Runtime returns the policy's name of a command line runtime name.
func Runtime(name string) (string, error) {
	if r, ok := Runtimes[name]; ok {
		return r, nil
	}
	return "", fmt.Errorf("unknown runtime %q (the runtimes: %s)", name, strings.Join(RuntimeNames(), ", "))
}

// Denial is the deny form of a runtime (the policy's name) with message
// as its reason: the answer when the policy could not answer at all. It
// is the policy's own deny form (tooleval.hooks.output), which a test
// holds it to. An unknown runtime gets Claude Code's.
func Denial(runtime, message string) *Answer {
	if strings.TrimSpace(message) == "" {
		message = "refused by tooleval"
	}
	var doc any
	switch runtime {
	case "gemini":
		// google-gemini/gemini-cli packages/core/src/hooks/types.ts: decision, reason
		doc = map[string]any{"decision": "deny", "reason": message}
	default:
		// Claude Code (docs.claude.com/en/docs/claude-code/hooks) and Codex
		// (codex-rs/hooks/schema/generated/pre-tool-use.command.output.schema.json)
		doc = map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName":            "PreToolUse",
			"permissionDecision":       "deny",
			"permissionDecisionReason": message,
		}}
	}
	raw, _ := json.Marshal(doc) // maps of strings always marshal
	return &Answer{Outcome: Deny, Message: message, Output: raw}
}

// Exit is how a command hook ends for an answer: a deny exits 2 with its
// reason on standard error, which every runtime reads as a block
// whatever it makes of standard output (Claude Code's hooks reference,
// Gemini CLI's hookRunner.ts, Codex's pre_tool_use.rs); allow and ask
// exit 0 with the output document on standard output.
func Exit(a *Answer) (code int, stderr string) {
	if a.Outcome == Deny {
		return 2, a.Message
	}
	return 0, ""
}

// Write writes an answer as a command hook gives it and returns the exit
// code.
func Write(out, errs io.Writer, a *Answer) int {
	fmt.Fprintf(out, "%s\n", a.Output)
	code, reason := Exit(a)
	if reason != "" {
		fmt.Fprintln(errs, reason)
	}
	return code
}

// DefaultSocket is $XDG_RUNTIME_DIR/tooleval.sock, or "" without
// XDG_RUNTIME_DIR.
func DefaultSocket() string {
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, SocketName)
}

// FoundSocket is the default socket when it is a socket owned by this
// user, or "".
func FoundSocket() string {
	path := DefaultSocket()
	if path == "" {
		return ""
	}
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&os.ModeSocket == 0 {
		return ""
	}
	if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return ""
	}
	return path
}

// Target is the tooleval serve a command hook asks: flag, else
// $TOOLEVAL_SERVER (both explicit), else the socket found in
// $XDG_RUNTIME_DIR (not explicit), else "".
func Target(flag string) (target string, explicit bool) {
	if flag != "" {
		return flag, true
	}
	if env := os.Getenv(ServerEnv); env != "" {
		return env, true
	}
	return FoundSocket(), false
}

// ReadPayload reads a hook payload of at most MaxPayload bytes.
func ReadPayload(r io.Reader) ([]byte, error) {
	payload, err := io.ReadAll(io.LimitReader(r, MaxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("tooleval could not read the hook payload: %w", err)
	}
	if len(payload) > MaxPayload {
		return nil, fmt.Errorf("the hook payload is larger than %d bytes", MaxPayload)
	}
	return payload, nil
}

// Forward asks the tooleval serve at target for its answer to a payload.
func Forward(ctx context.Context, target, cliRuntime string, payload []byte, wait time.Duration) (*Answer, error) {
	c, err := NewClient(target, wait)
	if err != nil {
		return nil, err
	}
	return c.Answer(ctx, cliRuntime, payload)
}
