# METADATA
# title: Runtime hooks
# description: |
#   The pre-tool hooks of the agent runtimes (Claude Code PreToolUse,
#   Gemini CLI BeforeTool, Codex PreToolUse), read and answered by the
#   policy: request maps a runtime's raw hook payload to a decision input,
#   answer maps the decision back to the document that runtime reads.
#   The entry points claude_code, gemini and codex do both for a stock
#   OPA server (opa run --server --set default_decision=tooleval/hooks/claude_code
#   answers Claude Code's http hook at POST /). docs/hooks.md says what
#   each runtime sends and where that comes from.
package tooleval.hooks

import data.tooleval.batch
import data.tooleval.context

# METADATA
# description: |
#   Claude Code's PreToolUse hook: the raw payload in, the runtime's
#   hook output out. Always defined; a payload that cannot be read, an
#   unknown event or a decision that cannot be read is the deny form.
# entrypoint: true
claude_code := respond("claude_code", input)

# METADATA
# description: Gemini CLI's BeforeTool hook, as claude_code.
# entrypoint: true
gemini := respond("gemini", input)

# METADATA
# description: Codex's PreToolUse hook, as claude_code.
# entrypoint: true
codex := respond("codex", input)

# METADATA
# description: |
#   The runtime's hook output for a payload: request, then the decision
#   of its input, then answer. The fail-closed deny form when any step is
#   undefined.
respond(runtime, payload) := out if {
	req := request(runtime, payload)
	out := answer(runtime, req, _decide(req)).output
} else := refusal(runtime, "tooleval could not answer this hook; the call is refused").output

# The decision of the request's input: data.tooleval.decision for it.
_decide(req) := d if {
	d := data.tooleval.decide(context.compile(req.input), req.input)
} else := batch.fail_closed(req.input) if {
	req.input
}

_decide(req) := null if not req.input

# METADATA
# description: |
#   The decision input of a hook payload, {"input": {agent, declared,
#   calls, workspace?}, "session": {id, agent}}: one call of the tool the
#   runtime names, declared as that tool (an MCP tool with its server and
#   tool), who is asking, and the payload's cwd as the workspace root
#   when config.hooks.workspace is "cwd". A payload that cannot be read
#   exactly is {"refusal": message}: the first problem found.
request(runtime, payload) := {
	"input": object.union(
		{
			"agent": _agent(runtime, payload),
			"declared": [_declared(payload)],
			"calls": [{"id": _call_id(payload), "name": payload.tool_name, "args": payload.tool_input}],
		},
		_workspace(payload),
	),
	"session": {
		"id": payload.session_id,
		"agent": object.get(payload, "agent_id", null),
	},
} if {
	_problems(runtime, payload) == []
} else := {"refusal": problems[0]} if {
	problems := _problems(runtime, payload)
	count(problems) > 0
} else := {"refusal": "tooleval could not read this hook payload"}

# METADATA
# description: |
#   The runtime's answer to a request (from request) given the decision
#   document of its input: {"outcome", "message", "output"}. outcome is
#   what the runtime is told (allow, ask or deny): an ask where the
#   runtime cannot ask is deny, and a decision that is not one decision
#   of the request's call, with an outcome that agrees with allowed, is
#   deny. output is the runtime's hook output document.
answer(runtime, req, decision) := refusal(runtime, req.refusal) if {
	is_string(req.refusal)
} else := _answer(runtime, outcome, message) if {
	[call] := req.input.calls
	[d] := decision.decisions
	d.id == call.id
	d.name == call.name
	outcome := _outcome(d)
	message := object.get(d, "message", "")
} else := refusal(runtime, "tooleval could not read the policy's decision; the call is refused")

# METADATA
# description: The deny form of a runtime with message as its reason.
refusal(runtime, message) := _answer(runtime, "deny", message)

_outcome(d) := d.outcome if {
	d.outcome == "allow"
	d.allowed == true
} else := d.outcome if {
	d.outcome in {"ask", "deny"}
	d.allowed == false
}

_answer(runtime, "ask", message) := _document(runtime, "ask", message) if {
	runtimes[runtime].ask
} else := _document(runtime, "deny", sprintf(
	"%s (the call needs a person's approval, and %s's hook cannot ask one: refused)",
	[message, runtimes[runtime].title],
))

_answer(runtime, outcome, message) := _document(runtime, outcome, message) if outcome != "ask"

_document(runtime, outcome, message) := {"outcome": outcome, "message": message, "output": output(runtime, outcome, message)}
