package tooleval.hooks_test

import data.tooleval.hooks

# Each runtime's output for each outcome it can give: allow states no
# decision, ask is Claude Code's own, deny is the runtime's deny form
# with the message as its reason (never an empty one).
test_output_in_each_runtime_form if {
	every tc in [
		{"runtime": "claude_code", "outcome": "allow", "message": "m", "want": {}},
		{"runtime": "codex", "outcome": "allow", "message": "m", "want": {}},
		{"runtime": "gemini", "outcome": "allow", "message": "m", "want": {}},
		{"runtime": "claude_code", "outcome": "ask", "message": "m", "want": {"hookSpecificOutput": {
			"hookEventName": "PreToolUse",
			"permissionDecision": "ask",
			"permissionDecisionReason": "m",
		}}},
		{"runtime": "claude_code", "outcome": "deny", "message": "m", "want": deny_form("claude_code", "m")},
		{"runtime": "codex", "outcome": "deny", "message": "m", "want": deny_form("codex", "m")},
		{"runtime": "gemini", "outcome": "deny", "message": "m", "want": deny_form("gemini", "m")},
		{"runtime": "codex", "outcome": "deny", "message": " ", "want": deny_form("codex", "refused by tooleval")},
		{"runtime": "gemini", "outcome": "deny", "message": null, "want": deny_form("gemini", "refused by tooleval")},
	] {
		hooks.output(tc.runtime, tc.outcome, tc.message) == tc.want
	}
}

# A runtime without an ask of its own has no ask output (the decision
# answers such an ask with a deny before it gets here), and a runtime
# the policy does not know has no output at all.
test_no_output_where_the_runtime_cannot_give_it if {
	every tc in [["codex", "ask"], ["gemini", "ask"], ["opencode", "allow"], ["claude_code", "maybe"]] {
		not hooks.output(tc[0], tc[1], "m")
	}
}

# Who asks, as each runtime's payload says it: a sub-agent by agent_id
# (named by agent_type where given), the main thread run as an agent by
# agent_type alone; Gemini CLI's payload names no agent.
test_agent_from_the_payload if {
	every tc in [
		{"runtime": "claude_code", "payload": {"agent_id": "a1", "agent_type": "explore"}, "want": {"role": "subagent", "depth": 1, "name": "explore"}},
		{"runtime": "codex", "payload": {"agent_id": "a1"}, "want": {"role": "subagent", "depth": 1}},
		{"runtime": "claude_code", "payload": {"agent_type": "reviewer"}, "want": {"role": "main", "depth": 0, "name": "reviewer"}},
		{"runtime": "claude_code", "payload": {}, "want": {"role": "main", "depth": 0}},
		{"runtime": "gemini", "payload": {"agent_id": "a1", "agent_type": "explore"}, "want": {"role": "main", "depth": 0}},
	] {
		hooks._agent(tc.runtime, tc.payload) == tc.want
	}
}

# The called tool's declaration: an MCP tool by Gemini CLI's mcp_context
# or by the mcp__SERVER__TOOL name (the server up to the next __), a
# built-in otherwise.
test_declared_from_the_payload if {
	every tc in [
		{"payload": {"tool_name": "Bash"}, "want": {"name": "Bash"}},
		{"payload": {"tool_name": "mcp__github__read_issue"}, "want": {"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}}},
		{"payload": {"tool_name": "mcp__a__b__c"}, "want": {"name": "mcp__a__b__c", "mcp": {"server": "a", "tool": "b__c"}}},
		{"payload": {"tool_name": "mcp____x"}, "want": {"name": "mcp____x"}},
		{"payload": {"tool_name": "mcp__github__"}, "want": {"name": "mcp__github__"}},
		{
			"payload": {"tool_name": "read_issue", "mcp_context": {"server_name": "github", "tool_name": "read_issue"}},
			"want": {"name": "read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
		},
	] {
		hooks._declared(tc.payload) == tc.want
	}
}
