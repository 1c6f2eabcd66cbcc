package tooleval.verify_test

import data.tooleval.configuration
import data.tooleval.verify

space_with(overlay) := s if {
	s := verify.space with data.tooleval.config as configuration.overlay(data.tooleval.config, overlay)
}

names(space) := {t.name | some t in space.tools}

test_shipped_space if {
	s := verify.space
	s.agents == []
	s.tenants == []
	s.max_depth == 5
	s.errors == []

	# every name of the floor is a tool, a wildcard by its witness
	every name in ["gateway", "agent", "sessions_spawn", "conversations_verify_probe"] {
		name in names(s)
	}
	not "conversations_*" in names(s)
}

test_tables_are_enumerated if {
	s := space_with({
		"agents": {"lead": {"builtin": true}, "helper": {"tools": ["read_file"]}},
		"tenants": {"acme": {"tools": ["read_file"]}, "open": {"tools": null}},
		"scopes": {"repo": ["read_file"]},
		"mcp_user_services": {"alice": ["github"]},
	})
	s.agents == ["helper", "lead"]
	s.builtin_agents == ["lead"]
	s.tenants == ["acme", "open"]
	s.scopes == ["repo"]
	s.users == ["alice"]
	s.plans == {"acme": ["read_file"], "open": null}
}

# [note, overlay, mode, read]
mode_cases := [
	["async is read only with async_allowed", {}, "async", false],
	["async is read with async_allowed", {"agent_filters": {"async_allowed": ["read_file"]}}, "async", true],
	["teammate is read with async", {"agent_filters": {"async_allowed": ["read_file"]}}, "teammate", true],
	["teammate is read with a teammate exclusion", {"exclusions": {"teammate_no_spawn": ["agent"]}}, "teammate", true],
	["teammate is not read otherwise", {}, "teammate", false],
	["coordinator is read with coordinator_allowed", {"agent_filters": {"coordinator_allowed": ["agent"]}}, "coordinator", true],
	["coordinator is not read otherwise", {}, "coordinator", false],
	["read_only is always read", {}, "read_only", true],
	["qwen_code's teammates never spawn", {"preset": "qwen_code"}, "teammate", true],
]

test_modes if {
	failures := [note |
		some [note, overlay, mode, read] in mode_cases
		object.get(space_with(overlay).modes, mode, null) != read
	]
	failures == []
}

test_promised_exclusions_keep_floor_exceptions if {
	s := space_with({"floor_exceptions": {"subagent_hard_deny": ["message"]}, "exclusions": {"subagent_hard_deny": ["send_email"]}})
	"message" in s.exclusions.subagent_hard_deny
	"send_email" in s.exclusions.subagent_hard_deny
}

test_deny_lists_say_whom_they_apply_to if {
	s := space_with({
		"tools": {"deny": ["cron", {"tool": "bash", "command_prefix": "rm"}]},
		"agents": {"lead": {"disallowed_tools": ["bash"]}},
	})
	{"field": "config.tools.deny", "list": ["cron"], "applies": "all"} in s.deny_lists
	{"field": "config.agents.lead.disallowed_tools", "list": ["bash"], "applies": {"agent": "lead"}} in s.deny_lists
}

# [note, canonical name, declaration or null]
tool_cases := [
	["a built-in", "read_file", {"name": "read_file"}],
	["an MCP tool", "mcp__github__read_issue", {"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}}],
	["an MCP wildcard's witness", "mcp__github__*", {"name": "mcp__github__verify_probe", "mcp": {"server": "github", "tool": "verify_probe"}}],
	["an MCP prefix's witness", "mcp__github__read_*", {"name": "mcp__github__read_verify_probe", "mcp": {"server": "github", "tool": "read_verify_probe"}}],
	["a built-in prefix's witness", "sessions_*", {"name": "sessions_verify_probe"}],
	["a bare server is no tool", "mcp__github", null],
	["every MCP tool is no tool", "mcp__*", null],
	["a group is no tool", "group:web", null],
	["a name with white space is no tool", "rm -rf", null],
	["a star inside is no tool", "a*b*", null],
]

test_tool_names if {
	failures := [note |
		some [note, name, want] in tool_cases
		_added(name) != _expected(want)
	]
	failures == []
}

# The declarations a name adds to those of an empty configuration.
_added(name) := {d | some d in verify.tools({"groups": {"g": [name]}})} - {d | some d in verify.tools({})}

_expected(null) := set()

_expected(d) := {d} if d != null

# The spawn tool is read as the policy reads it: absent or null is agent.
test_spawn_tool_read_as_the_policy_reads_it if {
	"agent" in spawn_tools_with({"agent_filters": {"agent_tool": null}})
	"task" in spawn_tools_with({"agent_filters": {"agent_tool": "task"}})
}

# Without a preset the runtime is not known: the spawn tool of every
# preset's runtime is a spawn tool, and a tool of the universe. Read
# from the presets' data, so a preset added later is covered.
test_without_a_preset_every_runtime_spawns if {
	s := verify.space
	"agent" in s.spawn_tools
	"sessions_spawn" in s.spawn_tools
	every preset in data.tooleval.config.presets {
		lower(preset.agent_filters.agent_tool) in s.spawn_tools
	}
	every t in s.spawn_tools {
		t in names(s)
	}
	added := space_with({"presets": {"gemini_like": {"agent_filters": {"agent_tool": "invoke_agent"}}}})
	"invoke_agent" in added.spawn_tools
	"invoke_agent" in names(added)
}

# With a preset, the runtime's spawn tool alone.
test_a_preset_names_its_runtime_spawn_tool if {
	every name, preset in data.tooleval.config.presets {
		spawn_tools_with({"preset": name}) == [lower(preset.agent_filters.agent_tool)]
	}
	spawn_tools_with({"preset": "openclaw"}) == ["sessions_spawn"]
	spawn_tools_with({"preset": "gemini_like", "presets": {"gemini_like": {"agent_filters": {"agent_tool": "invoke_agent"}}}}) == ["invoke_agent"]
}

spawn_tools_with(overlay) := verify.spawn_tools(configuration.with_preset(configuration.overlay(data.tooleval.config, overlay)))

# [note, overlay, whether a spawn_tool_mismatch is reported]
spawn_error_cases := [
	["claude_code spawns with Agent, not task", {"preset": "claude_code", "agent_filters": {"agent_tool": "task"}}, true],
	["openclaw spawns with sessions_spawn", {"preset": "openclaw", "agent_filters": {"agent_tool": "agent"}}, true],
	["qwen_code spawns with agent", {"preset": "qwen_code", "agent_filters": {"agent_tool": "sessions_spawn"}}, true],
	["the preset's own, as written", {"preset": "claude_code", "agent_filters": {"agent_tool": "Agent"}}, false],
	["the preset's own, in another case", {"preset": "claude_code", "agent_filters": {"agent_tool": "agent"}}, false],
	["null says nothing", {"preset": "openclaw", "agent_filters": {"agent_tool": null}}, false],
	["no preset: the configuration's is the runtime's", {"agent_filters": {"agent_tool": "task"}}, false],
	["a preset without one", {"preset": "bare", "presets": {"bare": {}}, "agent_filters": {"agent_tool": "task"}}, false],
]

test_spawn_tool_errors if {
	failures := [note |
		some [note, overlay, reported] in spawn_error_cases
		errors := verify.spawn_tool_errors(configuration.overlay(data.tooleval.config, overlay))
		_reported(errors) != reported
	]
	failures == []
}

default _reported(_) := false

_reported(errors) if {
	some e in errors
	e.code == "spawn_tool_mismatch"
	e.field == "config.agent_filters.agent_tool"
}

test_spawn_tool_error_says_which if {
	[e] := space_with({"preset": "openclaw", "agent_filters": {"agent_tool": "agent"}}).errors
	e.code == "spawn_tool_mismatch"
	e.preset == "openclaw"
	e.runtime_spawn_tool == "sessions_spawn"
	contains(e.message, `"agent"`)
}
