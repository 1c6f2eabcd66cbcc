package tooleval.stages.agents_test

import data.tooleval.configuration
import data.tooleval.stages.agents
import data.tooleval.stages_test
import data.tooleval.subject

agent_config := {
	"agents": {
		"statusline-setup": {"builtin": true, "tools": ["read_file", "write_file"]},
		"explore": {"builtin": true, "disallowed_tools": ["write_file", "agent"]},
		"general-purpose": {"builtin": true, "tools": ["*"]},
		"reviewer": {"tools": ["read_file", "mcp__github__*", "edit_file"]},
		"verifier": {"builtin": true, "background": true},
		"helper": {"builtin": true, "async": true},
	},
	"agent_filters": {
		"all_agents_disallowed": ["task_output", "ask_user"],
		"custom_agents_disallowed": ["task_output", "ask_user", "browser"],
		"async_allowed": ["read_file", "glob", "bash"],
		"in_process_teammate_allowed": ["send_message"],
		"coordinator_allowed": ["agent", "send_message"],
		"agent_tool": "agent",
	},
}

sub(name) := {"agent": {"name": name, "role": "subagent", "depth": 1}}

# [note, request, call name, expected stages_test.verdict]
agent_cases := [
	["an allowlist admits its tools", sub("statusline-setup"), "write_file", "allowed"],
	["an allowlist refuses the rest", sub("statusline-setup"), "glob", ["not_allowed", "agent_definition"]],
	["a blocklist refuses its tools", sub("explore"), "write_file", ["denied", "agent_definition"]],
	["a blocklist inherits the rest", sub("explore"), "web_search", "allowed"],
	["[*] is every tool", sub("general-purpose"), "browser", "allowed"],
	["[*] does not bypass the global filter", sub("general-purpose"), "task_output", ["denied", "all_agents"]],
	["the global filter spares MCP tools", sub("general-purpose"), "mcp__github__create_issue", "allowed"],
	["a custom agent loses the custom list", sub("reviewer"), "read_file", "allowed"],
	["a custom agent's MCP wildcard", sub("reviewer"), "mcp__github__read_issue", "allowed"],
	["an undefined agent is custom", sub("nobody"), "browser", ["denied", "custom_agents"]],
	["a built-in agent keeps browser", sub("general-purpose"), "browser", "allowed"],
	["a background agent is async", sub("verifier"), "web_search", ["not_allowed", "async_agents"]],
	["an async agent keeps its allowlist", sub("helper"), "glob", "allowed"],
	["MCP tools pass the async filter", sub("helper"), "mcp__foo_bar__run", "allowed"],
	["an async agent loses the agent tool", sub("helper"), "agent", ["not_allowed", "async_agents"]],
	[
		"an in-process teammate keeps the agent tool",
		{"agent": {"name": "helper", "role": "subagent", "depth": 1, "teammate": true}}, "agent", "allowed",
	],
	[
		"and the teammate tools",
		{"agent": {"name": "helper", "role": "subagent", "depth": 1, "teammate": true}}, "send_message", "allowed",
	],
	[
		"input.agent.async makes any sub-agent async",
		{"agent": {"name": "general-purpose", "role": "subagent", "depth": 1, "async": true}}, "browser", ["not_allowed", "async_agents"],
	],
	["the main agent skips the sub-agent filters", {"agent": {"name": "nobody"}}, "task_output", "allowed"],
	["coordinator mode admits its tools", {"agent": {"coordinator": true}}, "send_message", "allowed"],
	["coordinator mode refuses the rest", {"agent": {"coordinator": true}}, "read_file", ["not_allowed", "coordinator_mode"]],
	["coordinator mode refuses MCP tools", {"agent": {"coordinator": true}}, "mcp__github__read_issue", ["not_allowed", "coordinator_mode"]],
	["the main agent's definition applies", {"agent": {"name": "statusline-setup"}}, "glob", ["not_allowed", "agent_definition"]],
	["agent names compare canonically", {"agent": {"name": "Statusline-Setup"}}, "glob", ["not_allowed", "agent_definition"]],
	["full-width agent names too", {"agent": {"name": "\uff45xplore", "role": "subagent", "depth": 1}}, "write_file", ["denied", "agent_definition"]],
]

test_agent_definitions_and_filters if {
	verdicts := stages_test.verdicts([[agent_config, req, name] | some [_, req, name, _] in agent_cases])
	got := [[note, verdicts[i], want] | some i, [note, _, _, want] in agent_cases]
	count(got) == count(agent_cases)
	[[note, g, want] | some [note, g, want] in got; g != want] == []
}

test_agent_tools_reports_valid_and_invalid_names if {
	index := {"read_file": {}, "mcp__github__read_issue": {}}
	conf := configuration.overlay(data.tooleval.config, agent_config)
	agents.agent_tools(subject.of(sub("reviewer"), conf), index) == {
		"agent": "reviewer",
		"valid": ["read_file"],
		"invalid": ["edit_file"],
	}
	agents.agent_tools(subject.of(sub("explore"), conf), index) == null
}

test_agent_configuration_errors if {
	conf := {
		"agents": {
			"a": {"tools": ["*", "read_file"], "disallowed_tools": "write_file", "async": "yes"},
			"b": [],
			"B": {"profile": "nope"},
		},
		"agent_filters": {"async_allowed": ["glob*"], "agent_tool": "no such tool"},
	}
	stages_test.codes(conf, {}) == [
		["colliding_names", "config.agents"],
		["unknown_profile", "config.agents.B.profile"],
		["bare_wildcard", "config.agents.a.tools"],
		["invalid_list", "config.agents.a.disallowed_tools"],
		["invalid_config_value", "config.agents.a.async"],
		["invalid_config_value", "config.agents.b"],
		["builtin_wildcard_in_allow", "config.agent_filters.async_allowed"],
		["invalid_config_value", "config.agent_filters.agent_tool"],
	]
}

test_agent_mode_must_be_boolean if {
	stages_test.codes({}, {"agent": {"read_only": "yes"}}) == [["invalid_agent", "agent.read_only"]]
}
