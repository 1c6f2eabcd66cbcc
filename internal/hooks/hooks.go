// Package hooks answers the agent runtimes' pre-tool hooks (Claude Code
// and Codex PreToolUse, Gemini CLI BeforeTool) with the tooleval policy:
// the policy maps a payload to a decision input and the decision to the
// runtime's hook output (policies/tooleval/hooks); this package keeps the
// sessions and run budgets between calls and serves the hooks over HTTP
// (tooleval serve). What a command hook needs to ask such a server is
// internal/hookwire. Every failure is answered with the runtime's deny
// form.
package hooks

import (
	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/hookwire"
)

// wire is the policy's answer as a command hook and the HTTP endpoints
// give it.
func wire(a *engine.HookAnswer) *hookwire.Answer {
	return &hookwire.Answer{Outcome: string(a.Outcome), Message: a.Message, Output: a.Output}
}
