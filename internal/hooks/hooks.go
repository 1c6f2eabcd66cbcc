// Package hooks answers the agent runtimes' pre-tool hooks (Claude Code
// and Codex PreToolUse, Gemini CLI BeforeTool) with the tooleval policy:
// the policy maps a payload to a decision input and the decision to the
// runtime's hook output (policies/tooleval/hooks); this package keeps the
// sessions and run budgets between calls, serves the hooks over HTTP
// (tooleval serve) and forwards a command hook to such a server
// (tooleval hook). Every failure is answered with the runtime's deny form.
package hooks

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tooleval/tooleval/engine"
)

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

// Deny is the deny form of a runtime (the policy's name) with message as
// its reason: the answer when the policy could not answer at all. It is
// the policy's own deny form (tooleval.hooks.output), which a test holds
// it to. An unknown runtime gets Claude Code's.
func Deny(runtime, message string) *engine.HookAnswer {
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
	return &engine.HookAnswer{Outcome: engine.OutcomeDeny, Message: message, Output: raw}
}

// Exit is how a command hook ends for an answer: a deny exits 2 with its
// reason on standard error, which every runtime reads as a block
// whatever it makes of standard output (Claude Code's hooks reference,
// Gemini CLI's hookRunner.ts, Codex's pre_tool_use.rs); allow and ask
// exit 0 with the output document on standard output.
func Exit(a *engine.HookAnswer) (code int, stderr string) {
	if a.Outcome == engine.OutcomeDeny {
		return 2, a.Message
	}
	return 0, ""
}
