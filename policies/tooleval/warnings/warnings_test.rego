package tooleval.warnings_test

import data.tooleval
import data.tooleval.configuration

check(conf, doc) := c if {
	c := tooleval.check with input as doc with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
}

codes(conf, doc) := [[w.code, w.field] | some w in check(conf, doc).warnings]

test_the_shipped_configuration_has_no_warnings if {
	check({}, {}) == {"errors": [], "warnings": [], "agent_tools": null}
}

test_duplicate_entries if {
	codes({"tenants": {"acme": {"tools": ["read_file", "READ_FILE"]}}}, {}) == [["duplicate_entry", "config.tenants.acme.tools"]]
}

test_shadowed_entries if {
	codes({"builtin_tools": ["glob"], "tools": {"allow": ["read_file", "glob"], "deny": ["glob*"]}}, {}) == [["shadowed_entry", "config.tools.allow"]]
	codes({"builtin_tools": ["x", "y"], "agents": {"a": {"tools": ["x", "y"], "disallowed_tools": ["Y"]}}}, {}) == [["shadowed_entry", "config.agents.a.tools"]]
}

test_unreachable_subagent_entries if {
	codes({"subagents": {"allow": ["gateway", "read_file"]}}, {}) == [["unreachable_entry", "config.subagents.allow"]]
	w := check({"builtin_tools": ["browser"], "tools": {"profile": "minimal"}, "subagents": {"allow": ["session_status", "browser"]}}, {}).warnings
	[[x.entry, x.removed_by] | some x in w] == [
		["session_status", "subagent_hard_deny"],
		["browser", "config.profiles.minimal"],
	]
	codes({"builtin_tools": ["browser"], "tools": {"profile": "minimal", "also_allow": ["browser"]}, "subagents": {"allow": ["browser"]}}, {}) == []
}

test_unmatched_agent_tools if {
	conf := {"builtin_tools": ["edit_file"], "agents": {"reviewer": {"tools": ["read_file", "edit_file", "mcp__github__*"]}}}
	doc := {"agent": {"name": "reviewer"}, "declared": [{"name": "read_file"}]}
	c := check(conf, doc)
	c.agent_tools == {"agent": "reviewer", "valid": ["read_file"], "invalid": ["edit_file"]}
	[[w.code, w.entry] | some w in c.warnings] == [["unmatched_agent_tool", "edit_file"], ["unknown_mcp_server", "mcp__github__*"]]
}

test_unknown_configuration_keys_are_errors if {
	[[e.code, e.field] | some e in check({"tenant": {}}, {}).errors] == [["unknown_config_key", "config.tenant"]]
}

test_mcp_entries_in_agent_filters_are_ineffective if {
	codes({"agent_filters": {"all_agents_disallowed": ["mcp__payments__*", "task_output"]}}, {}) == [
		["ineffective_entry", "config.agent_filters.all_agents_disallowed"],
		["unknown_mcp_server", "config.agent_filters.all_agents_disallowed"],
		["unknown_deny_entry", "config.agent_filters.all_agents_disallowed"],
	]
}

# A group that the configuration and its preset define differently, named
# by a deny list or an exclusion: the union applies there, and check says
# so.
test_a_group_the_preset_redefines_in_a_deny_list if {
	conf := {
		"preset": "openclaw",
		"groups": {"messaging": ["send_email", "post_to_slack"]},
		"exclusions": {"subagent_hard_deny": ["group:messaging"]},
	}
	[[w.code, w.field, w.preset_field, w.used_by] | some w in check(conf, {}).warnings] == [[
		"preset_group_union", "config.groups.messaging", "config.presets.openclaw.groups.messaging",
		["config.exclusions.subagent_hard_deny"],
	]]

	# named by an allow list only: the preset's group, no warning
	check(object.union(conf, {"exclusions": {"subagent_hard_deny": []}, "tools": {"allow": ["group:messaging"]}}), {}).warnings == []

	# the same members: no disagreement
	check(object.union(conf, {"groups": {"messaging": ["MESSAGE"]}}), {}).warnings == []
}

# The warnings about names read an argument rule's tool, and the ask
# lists as deny lists: a deny or ask rule on a misspelt tool protects
# nothing; an allow rule on a tool the same stage denies, or that a
# sub-agent never gets, can never match; two rules on one tool are not
# duplicates.
test_warnings_read_argument_rules if {
	typo := {"tools": {"deny": [{"tool": "run_shell_comand", "command_prefix": "rm"}], "ask": [{"tool": "wbe_fetch", "domain": "*"}]}}
	[[w.code, w.field, w.index, w.entry] | some w in check(typo, {}).warnings] == [
		["unknown_deny_entry", "config.tools.deny", 0, "run_shell_comand"],
		["unknown_deny_entry", "config.tools.ask", 0, "wbe_fetch"],
	]
	shadowed := {"tools": {"allow": [{"tool": "glob", "path": "src/**"}], "deny": ["glob"]}}
	codes(shadowed, {}) == [["shadowed_entry", "config.tools.allow"]]
	unreachable := {"subagents": {"allow": [{"tool": "gateway", "args": {"a": "b"}}]}}
	codes(unreachable, {}) == [["unreachable_entry", "config.subagents.allow"]]
	two_rules := {"tools": {"ask": [
		{"tool": "run_shell_command", "command_prefix": "git push"},
		{"tool": "run_shell_command", "command_prefix": "npm publish"},
	]}}
	check(two_rules, {}).warnings == []
}

# [configuration, warnings as [code, field, index]]: an allow entry of a
# stage whose deny list has a rule of the whole tool without exceptions
# can never allow a call (as when an import carries a rule it cannot
# read exactly as a deny of every call); a rule with exceptions, or of
# another tool, leaves it reachable.
whole_denied_cases := [
	[
		{"tools": {
			"allow": [{"tool": "run_shell_command", "command_prefix": "npm test"}, "read_file"],
			"deny": [{"tool": "run_shell_command", "args_pattern": ""}],
		}},
		[["unreachable_entry", "config.tools.allow", 0]],
	],
	[
		{"subagents": {"allow": ["web_fetch"], "deny": [{"tool": "web_fetch", "args_pattern": ""}]}},
		[["unreachable_entry", "config.subagents.allow", 0]],
	],
	[
		{"tools": {
			"allow": [{"tool": "run_shell_command", "command_prefix": "npm test"}],
			"deny": [{"tool": "run_shell_command", "args_pattern": "", "unless": [{"tool": "run_shell_command", "command_prefix": "npm test"}]}],
		}},
		[],
	],
	[
		{"tools": {"allow": ["read_file"], "deny": [{"tool": "run_shell_command", "args_pattern": ""}]}},
		[],
	],
	[
		{"tools": {"allow": ["run_shell_command"], "deny": [{"tool": "run_shell_command", "args_pattern": "rm"}]}},
		[],
	],
]

test_an_allow_a_deny_of_the_whole_tool_refuses_is_unreachable if {
	every case in whole_denied_cases {
		warning_places(case[0]) == case[1]
	}
}

warning_places(conf) := [[w.code, w.field, w.index] | some w in check(conf, {}).warnings]
