package tooleval.hooks_test

import data.tooleval.configuration
import data.tooleval.hooks

# The configuration of a deployment answering runtime's hook: its preset
# (an empty one where the bundle has none yet), the payload's cwd as the
# workspace root, and the global policy's lists.
conf(runtime, lists) := configuration.overlay(data.tooleval.config, {
	"preset": hooks.runtimes[runtime].preset,
	"presets": {hooks.runtimes[runtime].preset: object.get(data.tooleval.config.presets, hooks.runtimes[runtime].preset, {})},
	"hooks": {"workspace": "cwd"},
	"tools": lists,
	"subagents": {"allow": null, "deny": ["Write"]},
})

policy := {
	"deny": [
		{"tool": "Bash", "command_prefix": "git push"},
		{"tool": "run_shell_command", "command_prefix": "git push"},
		"mcp__github__delete_repo",
	],
	"ask": [
		{"tool": "Bash", "command_prefix": "npm publish"},
		{"tool": "run_shell_command", "command_prefix": "npm publish"},
	],
}

payload(runtime, tool, args) := object.union(
	{
		"session_id": "s1",
		"cwd": "/ws",
		"hook_event_name": hooks.runtimes[runtime].event,
		"tool_name": tool,
		"tool_input": args,
	},
	_call_id(runtime),
)

_call_id("gemini") := {"transcript_path": "/t.json", "timestamp": "2026-12-04T00:00:00Z"}

_call_id(runtime) := {"tool_use_id": "toolu_1", "permission_mode": "default"} if runtime != "gemini"

# The shell tool as each runtime's hook names it (Codex's hook names its
# shell tool Bash: codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json).
shell_tool := {"claude_code": "Bash", "gemini": "run_shell_command", "codex": "Bash"}

shell_args(_, command) := {"command": command}

respond(runtime, p) := responses(runtime, policy, [p])[0]

# The answers to payloads under one configuration, prepared once (one
# `with`, as an engine prepares a configuration once).
responses(runtime, lists, payloads) := outs if {
	outs := [hooks.respond(runtime, p) | some p in payloads] with data.tooleval.config as conf(runtime, lists)
}

deny_form("gemini", reason) := {"decision": "deny", "reason": reason}

deny_form(runtime, reason) := {"hookSpecificOutput": {
	"hookEventName": "PreToolUse",
	"permissionDecision": "deny",
	"permissionDecisionReason": reason,
}} if {
	runtime != "gemini"
}

# Every runtime, a command that runs, one its deny list refuses, one its
# ask list asks about: allow states nothing, deny is the runtime's deny
# form, ask is Claude Code's own ask and a deny elsewhere.
test_outcomes_in_each_runtime_form if {
	every runtime in object.keys(shell_tool) {
		_outcomes_in_form(runtime)
	}
}

_outcomes_in_form(runtime) if {
	tool := shell_tool[runtime]
	[allowed, denied, asked] := responses(runtime, policy, [
		payload(runtime, tool, shell_args(runtime, "ls -la")),
		payload(runtime, tool, shell_args(runtime, "git push origin main")),
		payload(runtime, tool, shell_args(runtime, "npm publish")),
	])
	allowed == {}
	denied == deny_form(runtime, _reason(denied))
	contains(_reason(denied), "read as [\"git\",\"push\",\"origin\",\"main\"]")
	contains(_reason(denied), "is not permitted: denied by layer \"global_policy\"")
	_asked(runtime, asked)
}

# Claude Code asks; Gemini CLI and Codex cannot, and deny.
_asked("claude_code", out) if {
	out.hookSpecificOutput.permissionDecision == "ask"
	contains(out.hookSpecificOutput.permissionDecisionReason, "needs a person's approval: asked by layer \"global_policy\"")
}

_asked(runtime, out) if {
	runtime != "claude_code"
	out == deny_form(runtime, _reason(out))
	contains(_reason(out), "cannot ask one: refused")
}

_reason(out) := out.reason

_reason(out) := out.hookSpecificOutput.permissionDecisionReason

# The entry points read input, with the configuration in data.
test_entry_points_read_input if {
	c := conf("claude_code", policy)
	p := payload("claude_code", "Bash", {"command": "git push"})
	out := hooks.claude_code with input as p with data.tooleval.config as c
	out.hookSpecificOutput.permissionDecision == "deny"
	hooks.gemini == {"decision": "deny", "reason": "the hook payload is not a JSON object"} with input as 7
		with data.tooleval.config as conf("gemini", policy)
	hooks.codex == deny_form("codex", "the hook payload has no tool_name (a non-empty string)") with input as {"hook_event_name": "PreToolUse"}
		with data.tooleval.config as conf("codex", policy)
}

# A payload that cannot be read exactly is refused in the runtime's deny
# form, with the first problem as the reason.
test_malformed_payloads_are_refused if {
	base := payload("claude_code", "Bash", {"command": "ls"})
	every case in [
		[null, "the hook payload is not a JSON object"],
		[[base], "the hook payload is not a JSON object"],
		[object.union(base, {"hook_event_name": "PostToolUse"}), "tooleval answers Claude Code's PreToolUse hook, not hook_event_name PostToolUse"],
		[object.remove(base, ["hook_event_name"]), "tooleval answers Claude Code's PreToolUse hook, not hook_event_name null"],
		[object.remove(base, ["tool_name"]), "the hook payload has no tool_name (a non-empty string)"],
		[object.union(base, {"tool_name": ""}), "the hook payload has no tool_name (a non-empty string)"],
		[object.union(base, {"tool_name": 3}), "the hook payload has no tool_name (a non-empty string)"],
		[object.union(base, {"tool_input": "ls"}), "the hook payload's tool_input is not a JSON object"],
		[object.remove(base, ["tool_input"]), "the hook payload's tool_input is not a JSON object"],
		[object.remove(base, ["session_id"]), "the hook payload has no session_id (a string)"],
		[object.union(base, {"agent_id": 5}), "the hook payload's agent_id is not a string"],
		[object.union(base, {"agent_type": {}}), "the hook payload's agent_type is not a string"],
		[object.union(base, {"tool_use_id": 1}), "the hook payload's tool_use_id is not a string"],
		[object.union(base, {"mcp_context": {"server_name": "s"}}), "the hook payload's mcp_context has no server_name and tool_name (strings)"],
		[object.union(base, {"cwd": "ws"}), "config.hooks.workspace is \"cwd\" and the hook payload's cwd is not an absolute path"],
		[object.remove(base, ["cwd"]), "config.hooks.workspace is \"cwd\" and the hook payload's cwd is not an absolute path"],
	] {
		respond("claude_code", case[0]) == deny_form("claude_code", case[1])
	}
}

# A runtime with no mapping, a configuration naming another runtime's
# preset, and a malformed config.hooks are refused.
test_configuration_problems_are_refused if {
	p := payload("claude_code", "Bash", {"command": "ls"})
	hooks.request("claude_code_x", p) == {"refusal": "tooleval has no hook mapping for runtime claude_code_x"}
	hooks.request("nope", p) == {"refusal": "tooleval has no hook mapping for runtime nope"}
	out := hooks.respond("claude_code", p) with data.tooleval.config as conf("gemini", policy)
	out == deny_form("claude_code", "config.preset is gemini_cli; Claude Code's hook needs the preset claude_code (its tool names and arguments)")
	every bad in [[], {"workspace": "root"}, {"workspace": "cwd", "x": 1}] {
		c := object.union(conf("claude_code", policy), {"hooks": bad})
		refused := hooks.respond("claude_code", p) with data.tooleval.config as c
		refused == deny_form("claude_code", "config.hooks must be an object whose only member, workspace, is null or \"cwd\"")
	}
}

# Who is asking: a sub-agent by agent_id (named by agent_type, depth 1),
# the main thread run as an agent by agent_type alone, the main thread
# otherwise; Gemini CLI's payload names no agent.
test_who_is_asking if {
	p := payload("claude_code", "Bash", {"command": "ls"})
	every case in [
		[{}, {"role": "main", "depth": 0}],
		[{"agent_type": "reviewer"}, {"role": "main", "depth": 0, "name": "reviewer"}],
		[{"agent_id": "a1", "agent_type": "Explore"}, {"role": "subagent", "depth": 1, "name": "Explore"}],
		[{"agent_id": "a1"}, {"role": "subagent", "depth": 1}],
	] {
		req := hooks.request("claude_code", object.union(p, case[0])) with data.tooleval.config as conf("claude_code", policy)
		req.input.agent == case[1]
		req.session == {"id": "s1", "agent": object.get(case[0], "agent_id", null)}
	}
	g := object.union(payload("gemini", "run_shell_command", {"command": "ls"}), {"agent_id": "a1"})
	req := hooks.request("gemini", g) with data.tooleval.config as conf("gemini", policy)
	req.input.agent == {"role": "main", "depth": 0}
}

# A sub-agent's request is judged as one: the configured sub-agent stage
# bites on it and not on the main thread.
test_subagent_stage_applies_to_subagents if {
	p := payload("claude_code", "Write", {"file_path": "/ws/a.txt", "content": "x"})
	[main, sub] := responses("claude_code", policy, [p, object.union(p, {"agent_id": "a1", "agent_type": "general-purpose"})])
	main == {}
	sub.hookSpecificOutput.permissionDecision == "deny"
	contains(sub.hookSpecificOutput.permissionDecisionReason, "subagent_policy")
}

# The called tool is declared as the runtime names it; an MCP tool with
# its server and tool (Gemini CLI's mcp_context, else mcp__SERVER__TOOL).
test_declared_tool if {
	every case in [
		["Bash", null, {"name": "Bash"}],
		["mcp__github__read_issue", null, {"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}}],
		["mcp__github__a__b", null, {"name": "mcp__github__a__b", "mcp": {"server": "github", "tool": "a__b"}}],
		["mcp__github__", null, {"name": "mcp__github__"}],
		["mcp____x", null, {"name": "mcp____x"}],
		["read_issue", {"server_name": "git.hub", "tool_name": "read_issue"}, {"name": "read_issue", "mcp": {"server": "git.hub", "tool": "read_issue"}}],
	] {
		p := object.union(payload("claude_code", case[0], {}), _mcp(case[1]))
		req := hooks.request("claude_code", p) with data.tooleval.config as conf("claude_code", policy)
		req.input.declared == [case[2]]
		req.input.calls == [{"id": "toolu_1", "name": case[0], "args": {}}]
	}
}

_mcp(null) := {}

_mcp(ctx) := {"mcp_context": ctx} if ctx != null

# MCP deny entries bite on the MCP tool the hook names; a name that looks
# like an MCP tool but is not one is refused (a built-in cannot
# impersonate one).
test_mcp_tools_are_judged_as_mcp_tools if {
	[out, read, odd] := responses("claude_code", policy, [
		payload("claude_code", "mcp__github__delete_repo", {}),
		payload("claude_code", "mcp__github__read_issue", {}),
		payload("claude_code", "mcp__github__", {}),
	])
	out.hookSpecificOutput.permissionDecision == "deny"
	read == {}
	odd.hookSpecificOutput.permissionDecision == "deny"
}

# The payload's cwd is the workspace root when the configuration says
# so: a write outside it is refused; without it no path rule applies.
test_cwd_is_the_workspace_root if {
	p := payload("claude_code", "Write", {"file_path": "/etc/passwd", "content": "x"})
	[out, inside] := responses("claude_code", policy, [p, payload("claude_code", "Write", {"file_path": "/ws/a", "content": "x"})])
	contains(out.hookSpecificOutput.permissionDecisionReason, "outside")
	inside == {}
	c := object.union(conf("claude_code", policy), {"hooks": {"workspace": null}})
	every q in [p, object.remove(p, ["cwd"])] {
		no_root := hooks.request("claude_code", q) with data.tooleval.config as c
		not no_root.input.workspace
		no_root.input.calls[0].args == q.tool_input
	}
}

# Gemini CLI's payload has no call id; the call is "call".
test_call_id if {
	req := hooks.request("gemini", payload("gemini", "read_file", {})) with data.tooleval.config as conf("gemini", policy)
	req.input.calls[0].id == "call"
}

# A decision that is not one decision of the request's call, or whose
# outcome disagrees with allowed, is not read: the call is refused.
test_unreadable_decisions_are_refused if {
	req := hooks.request("claude_code", payload("claude_code", "Bash", {"command": "ls"})) with data.tooleval.config as conf("claude_code", policy)
	ok := {"id": "toolu_1", "name": "Bash", "allowed": true, "outcome": "allow"}
	hooks.answer("claude_code", req, {"decisions": [ok]}).outcome == "allow"
	every bad in [
		null,
		{},
		{"decisions": []},
		{"decisions": [ok, ok]},
		{"decisions": [object.union(ok, {"id": "other"})]},
		{"decisions": [object.union(ok, {"name": "bash"})]},
		{"decisions": [object.union(ok, {"allowed": false})]},
		{"decisions": [object.union(ok, {"outcome": "ask"})]},
		{"decisions": [object.union(ok, {"outcome": "maybe", "allowed": false})]},
		{"decisions": [object.remove(ok, ["outcome"])]},
	] {
		a := hooks.answer("claude_code", req, bad)
		a.outcome == "deny"
		a.message == "tooleval could not read the policy's decision; the call is refused"
	}
}

# A deny always carries a reason (Codex ignores a deny without one).
test_deny_reason_is_never_empty if {
	every message in ["", "  ", null] {
		hooks.output("codex", "deny", message).hookSpecificOutput.permissionDecisionReason == "refused by tooleval"
	}
	hooks.output("gemini", "deny", "x") == {"decision": "deny", "reason": "x"}
}

# respond is defined for every runtime it knows, whatever the payload;
# an invalid configuration refuses.
test_invalid_configuration_refuses if {
	c := object.union(conf("claude_code", policy), {"max_depth": "deep"})
	out := hooks.respond("claude_code", payload("claude_code", "Bash", {"command": "ls"})) with data.tooleval.config as c
	out.hookSpecificOutput.permissionDecision == "deny"
	not hooks.respond("nope", {})
}

_no_decision(ctx, _) := ctx.no_such_member

_no_answer(runtime, _, _) := runtime.no_such_member

# The safety nets: a decision the policy could not make refuses the call
# (the fail-closed decision), and so does an answer it could not make.
test_safety_nets_refuse if {
	p := payload("claude_code", "Bash", {"command": "ls"})
	c := conf("claude_code", policy)
	undecided := hooks.respond("claude_code", p) with data.tooleval.config as c with data.tooleval.decide as _no_decision
	undecided.hookSpecificOutput.permissionDecision == "deny"
	contains(undecided.hookSpecificOutput.permissionDecisionReason, "could not decide")
	unanswered := hooks.respond("claude_code", p) with data.tooleval.config as c with hooks.answer as _no_answer
	unanswered == deny_form("claude_code", "tooleval could not answer this hook; the call is refused")
}
