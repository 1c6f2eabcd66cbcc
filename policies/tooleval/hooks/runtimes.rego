package tooleval.hooks

# METADATA
# scope: rule
# description: |
#   What the policy knows of each runtime's hook, from its public source
#   or reference (docs/hooks.md cites each):
#
#   - event: the hook_event_name of the payload it answers;
#   - preset: the configuration's preset the runtime's tool names need
#     (config.preset must name it: another runtime's names would leave
#     this runtime's path and command arguments unread);
#   - ask: whether the runtime's hook output can ask a person (Claude
#     Code's permissionDecision "ask"); where it cannot, an ask is denied;
#   - agents: whether the payload says which sub-agent asks (agent_id,
#     agent_type).
runtimes := {
	# https://docs.claude.com/en/docs/claude-code/hooks (PreToolUse input, hookSpecificOutput)
	"claude_code": {"title": "Claude Code", "event": "PreToolUse", "preset": "claude_code", "ask": true, "agents": true},
	# google-gemini/gemini-cli packages/core/src/hooks/types.ts (BeforeToolInput;
	# isBlockingDecision reads only block and deny: an ask would run the tool)
	"gemini": {"title": "Gemini CLI", "event": "BeforeTool", "preset": "gemini_cli", "ask": false, "agents": false},
	# openai/codex codex-rs/hooks/src/events/pre_tool_use.rs, src/engine/output_parser.rs
	# (permissionDecision "ask" is rejected as unsupported and the call runs)
	"codex": {"title": "Codex", "event": "PreToolUse", "preset": "codex", "ask": false, "agents": true},
}

# METADATA
# scope: document
# description: |
#   The runtime's hook output for an outcome. allow states no decision
#   ({}): an allowed call is not pre-approved and goes on to the runtime's
#   own permission pipeline (docs/contract.md). ask and deny carry the
#   message as the runtime's reason.
output(runtime, "allow", _) := {} if runtimes[runtime]

output("claude_code", outcome, message) := _pre_tool_use(outcome, message) if outcome in {"ask", "deny"}

output("codex", "deny", message) := _pre_tool_use("deny", message)

output("gemini", "deny", message) := {"decision": "deny", "reason": _reason(message)}

_pre_tool_use(outcome, message) := {"hookSpecificOutput": {
	"hookEventName": "PreToolUse",
	"permissionDecision": outcome,
	"permissionDecisionReason": _reason(message),
}}

# A deny needs a reason (Codex ignores a deny without one).
_reason(message) := message if {
	is_string(message)
	trim_space(message) != ""
} else := "refused by tooleval"

# The problems of a payload, in the order they are checked; the first is
# the refusal's reason. Every check is total (true or false), so that
# the list is defined for every runtime and payload: request reads a
# payload only when the list is empty.
_problems(runtime, payload) := [check[1] |
	some check in _checks(runtime, payload)
	check[0] == false
]

_checks(runtime, payload) := [
	[_known(runtime), sprintf("tooleval has no hook mapping for runtime %v", [runtime])],
	[is_object(payload), "the hook payload is not a JSON object"],
	[_event_matches(runtime, payload), sprintf(
		"tooleval answers %s's %s hook, not hook_event_name %v",
		[_title(runtime), _event(runtime), _field(payload, "hook_event_name")],
	)],
	[_non_empty_string(_field(payload, "tool_name")), "the hook payload has no tool_name (a non-empty string)"],
	[is_object(_field(payload, "tool_input")), "the hook payload's tool_input is not a JSON object"],
	[is_string(_field(payload, "session_id")), "the hook payload has no session_id (a string)"],
	[_optional_string(payload, "agent_id"), "the hook payload's agent_id is not a string"],
	[_optional_string(payload, "agent_type"), "the hook payload's agent_type is not a string"],
	[_optional_string(payload, "tool_use_id"), "the hook payload's tool_use_id is not a string"],
	[_mcp_readable(payload), "the hook payload's mcp_context has no server_name and tool_name (strings)"],
	[_hooks_config_valid, "config.hooks must be an object whose only member, workspace, is null or \"cwd\""],
	[_cwd_readable(payload), "config.hooks.workspace is \"cwd\" and the hook payload's cwd is not an absolute path"],
	[_preset_matches(runtime), sprintf(
		"config.preset is %v; %s's hook needs the preset %v (its tool names and arguments)",
		[_configured_preset, _title(runtime), _preset(runtime)],
	)],
]

_known(runtime) := runtime in object.keys(runtimes)

_title(runtime) := object.get(runtimes, [runtime, "title"], sprintf("%v", [runtime]))

_event(runtime) := object.get(runtimes, [runtime, "event"], null)

_preset(runtime) := object.get(runtimes, [runtime, "preset"], null)

_event_matches(runtime, payload) := _known(runtime) if _field(payload, "hook_event_name") == _event(runtime)

else := false

_field(doc, key) := object.get(doc, key, null) if is_object(doc)

_field(doc, _) := null if not is_object(doc)

_non_empty_string(x) if {
	is_string(x)
	x != ""
} else := false

_optional_string(payload, key) if {
	_field(payload, key) == null
} else := is_string(_field(payload, key))

_mcp_readable(payload) if {
	_field(payload, "mcp_context") == null
} else if {
	ctx := _field(payload, "mcp_context")
	_non_empty_string(_field(ctx, "server_name"))
	_non_empty_string(_field(ctx, "tool_name"))
} else := false

_configured_preset := object.get(data.tooleval.config, "preset", null)

_preset_matches(runtime) := _known(runtime) if _configured_preset == _preset(runtime)

else := false

_hooks_config := object.get(data.tooleval.config, "hooks", {})

default _hooks_config_valid := false

_hooks_config_valid if {
	is_object(_hooks_config)
	object.keys(_hooks_config) - {"workspace"} == set()
	object.get(_hooks_config, "workspace", null) in {null, "cwd"}
}

_workspace_from_cwd if _hooks_config.workspace == "cwd"

_cwd_readable(payload) if {
	not _workspace_from_cwd
} else if {
	cwd := _field(payload, "cwd")
	is_string(cwd)
	startswith(cwd, "/")
} else := false

_workspace(payload) := {"workspace": {"root": payload.cwd}} if _workspace_from_cwd

_workspace(_) := {} if not _workspace_from_cwd

_call_id(payload) := id if {
	id := payload.tool_use_id
	is_string(id)
} else := "call"

# Who is asking. Claude Code and Codex name a sub-agent by agent_id, its
# definition by agent_type; agent_type alone is the main thread run as
# that agent (claude --agent). A sub-agent of theirs is at depth 1: their
# sub-agents do not say how deep they are (docs/hooks.md).
_agent(runtime, payload) := {"role": "subagent", "depth": 1, "name": payload.agent_type} if {
	runtimes[runtime].agents
	is_string(payload.agent_id)
	is_string(payload.agent_type)
} else := {"role": "subagent", "depth": 1} if {
	runtimes[runtime].agents
	is_string(payload.agent_id)
} else := {"role": "main", "depth": 0, "name": payload.agent_type} if {
	runtimes[runtime].agents
	is_string(payload.agent_type)
} else := {"role": "main", "depth": 0}

# The declaration of the called tool: an MCP tool with its raw server and
# tool (Gemini CLI's mcp_context; Claude Code's and Codex's
# mcp__SERVER__TOOL, the server up to the next __), a built-in otherwise.
_declared(payload) := {"name": payload.tool_name, "mcp": {
	"server": payload.mcp_context.server_name,
	"tool": payload.mcp_context.tool_name,
}} if {
	is_object(payload.mcp_context)
} else := {"name": payload.tool_name, "mcp": {"server": server, "tool": tool}} if {
	startswith(payload.tool_name, "mcp__")
	rest := substring(payload.tool_name, 5, -1)
	i := indexof(rest, "__")
	i > 0
	server := substring(rest, 0, i)
	tool := substring(rest, i + 2, -1)
	tool != ""
} else := {"name": payload.tool_name}
