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

# [declared names, expected groups of confusable names]
confusable_cases := [
	[["read_file", "re\u0430d_file"], [["read_file", "re\u0430d_file"]]],
	[["scope", "\u0455c\u03bfpe"], [["scope", "\u0455c\u03bfpe"]]],
	[["tool1", "tooll", "tool"], [["tool1", "tooll"]]],
	[["read_file", "READ_FILE_"], []],
	[["read_file", "write_file"], []],
]

test_confusable_declared_names if {
	got := [[names, groups, want] |
		some [names, want] in confusable_cases
		doc := {"declared": [{"name": n} | some n in names]}
		groups := [w.names | some w in check({}, doc).warnings; w.code == "confusable_names"]
	]
	count(got) == count(confusable_cases)
	[g | some g in got; g[1] != g[2]] == []
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

# A misspelt MCP server is one nothing else knows (the configuration's
# other lists, config.mcp_servers, the request's declared tools); with a
# request, an entry that matches none of its declared tools is reported
# where it is written, unless it is an MCP entry of a server the request
# does not have (or a built-in deny entry): denying a server that is not
# there is ordinary, and is not a warning on every request.
test_misspelt_mcp_servers if {
	conf := {"tenants": {"acme": {"tools": ["read_file", "mcp__githb__*"]}, "globex": {"tools": ["mcp__github__*"]}}}
	doc := {
		"tenant": "acme",
		"declared": [{"name": "read_file"}, {"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}}],
		"layers": [{"name": "caller", "deny": ["mcp__github__delete_*", "read_fiel"]}],
	}
	[[w.code, w.field, w.entry] | some w in check(conf, doc).warnings] == [
		["unmatched_entry", "layers[0].deny", "mcp__github__delete_*"],
		["unknown_mcp_server", "config.tenants.acme.tools", "mcp__githb__*"],
		["unknown_deny_entry", "layers[0].deny", "read_fiel"],
	]
	[[w.code, w.server] | some w in check(conf, {}).warnings] == [["unknown_mcp_server", "githb"], ["unknown_mcp_server", "github"]]
	[[w.code, w.server] | some w in check(object.union(conf, {"mcp_servers": ["github"]}), {}).warnings] == [["unknown_mcp_server", "githb"]]
	both := {"tenants": {"acme": {"tools": ["mcp__github__*"]}, "globex": {"tools": ["mcp__github__read_*"]}}}
	check(both, {}).warnings == []
}

test_entries_of_absent_servers_are_not_a_warning_per_request if {
	conf := {
		"mcp_servers": ["jira", "github"],
		"tools": {"deny": ["mcp__jira__*", "mcp__github__delete_repo"]},
		"tenants": {"acme": {"tools": ["read_file", "writ_file", "mcp__jira__read_*"]}},
	}
	doc := {"tenant": "acme", "declared": [{"name": "read_file"}]}

	# writ_file is misspelt whatever the request (unknown_allow_entry), and
	# matches no tool this request declares (unmatched_entry)
	[[w.code, w.field, w.index, w.entry] | some w in check(conf, doc).warnings] == [
		["unmatched_entry", "config.tenants.acme.tools", 1, "writ_file"],
		["unknown_allow_entry", "config.tenants.acme.tools", 1, "writ_file"],
	]
	with_github := object.union(doc, {"declared": [{"name": "read_file"}, {"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}}]})
	[[w.code, w.field, w.index, w.entry] | some w in check(conf, with_github).warnings] == [
		["unmatched_entry", "config.tools.deny", 1, "mcp__github__delete_repo"],
		["unmatched_entry", "config.tenants.acme.tools", 1, "writ_file"],
		["unknown_allow_entry", "config.tenants.acme.tools", 1, "writ_file"],
	]
}

test_bare_server_in_an_allow_list if {
	conf := {"tenants": {"acme": {"tools": ["mcp__github"]}}, "mcp_servers": ["github"]}
	[[w.code, w.field] | some w in check(conf, {}).warnings] == [["bare_mcp_server_in_allow", "config.tenants.acme.tools"]]
	doc := {"layers": [{"name": "l", "allow": ["mcp__github"], "deny": ["mcp__github"]}]}
	[[w.code, w.field] | some w in check({}, doc).warnings] == [["bare_mcp_server_in_allow", "layers[0].allow"]]
}

# A deny or exclusion entry that names no tool the preset, the
# configuration or the declared tools know protects nothing (issue 21,
# item 5): a misspelling, or a runtime's spelling the preset does not map.
test_deny_entries_that_protect_nothing if {
	[[w.code, w.field, w.index, w.entry] | some w in check({"tools": {"deny": ["read_file", "ShellTool", "zz*"]}}, {}).warnings] == [
		["unknown_deny_entry", "config.tools.deny", 1, "ShellTool"],
		["unknown_deny_entry", "config.tools.deny", 2, "zz*"],
	]

	# the qwen_code preset maps ShellTool; a prefix of a known name is known
	check({"preset": "qwen_code", "tools": {"deny": ["ShellTool", "run_*"]}}, {}).warnings == []

	# a group, an allow list or a declared tool makes a name known
	check({"groups": {"messaging": ["send_email"]}, "exclusions": {"subagent_hard_deny": ["send_email"]}}, {}).warnings == []

	# (the allow itself is unknown_allow_entry: a tool of one's own is
	# declared in config.builtin_tools)
	codes({"tools": {"allow": ["read_file", "send_email"]}, "subagents": {"deny": ["send_email"]}}, {}) == [["unknown_allow_entry", "config.tools.allow"]]
	codes({"exclusions": {"fork_no_spawn": ["send_email"]}}, {}) == [["unknown_deny_entry", "config.exclusions.fork_no_spawn"]]
	check({"exclusions": {"fork_no_spawn": ["send_email"]}}, {"declared": [{"name": "send_email"}]}).warnings == []
	codes({"agents": {"a": {"disallowed_tools": ["sendemail"]}}}, {}) == [["unknown_deny_entry", "config.agents.a.disallowed_tools"]]

	# config.builtin_tools names the runtime's tools
	check({"builtin_tools": ["send_email"], "tools": {"deny": ["send_email"]}}, {}).warnings == []
	[e.code | some e in check({"builtin_tools": ["mcp__x__y"]}, {}).errors] == ["invalid_list"]
}

# config.builtin_tools declares a family of tools the runtime names by a
# prefix (Gemini CLI's discovered_tool_*): a deny of the family, of part
# of it, of a wider prefix or of one of its names is known; a misspelt
# one is not, nor is a family a deny list alone names.
test_builtin_tool_families if {
	conf := {"builtin_tools": ["read_file", "discovered_tool_*"]}
	every deny in [
		["discovered_tool_*"], ["Discovered_Tool_*"], ["discovered_tool_lint*"], ["discovered_*"],
		["discovered_tool_lint"], ["read_*"],
	] {
		check(object.union(conf, {"tools": {"deny": deny}}), {}).warnings == []
	}
	every deny in [["discoverd_tool_*"], ["discovered_tol_lint"], ["discovered_tool"]] {
		codes(object.union(conf, {"tools": {"deny": deny}}), {}) == [["unknown_deny_entry", "config.tools.deny"]]
	}

	# named by deny lists only, a family is unknown
	codes({"tools": {"deny": ["discovered_tool_*"], "ask": ["discovered_tool_*"]}}, {}) == [
		["unknown_deny_entry", "config.tools.deny"],
		["unknown_deny_entry", "config.tools.ask"],
	]
}

# config.builtin_tools holds names and P* families, nothing else.
test_builtin_tools_take_names_and_families if {
	every list in [["read_file", "discovered_tool_*", "a*"], ["Bash"], []] {
		check({"builtin_tools": list}, {}).errors == []
	}
	every list in [["mcp__x__y"], ["mcp__x__*"], ["mcp__*"], ["*"], ["a*b"], ["group:x"], ["group:*"], [""], [" a*"], [1], "a"] {
		[e.code | some e in check({"builtin_tools": list}, {}).errors] == ["invalid_list"]
	}
}

# An allow entry that names a built-in tool nothing but allow lists knows
# allows nothing the runtime has: a misspelling (Raed for Read), or a
# tool of the deployment's own that config.builtin_tools should name.
test_allow_entries_that_name_no_known_tool if {
	ws := check({"preset": "claude_code", "tools": {"allow": ["Read", "Raed"]}}, {}).warnings
	[[w.code, w.field, w.index, w.entry] | some w in ws] == [["unknown_allow_entry", "config.tools.allow", 1, "Raed"]]
	contains(ws[0].message, "a misspelt name? a tool of your own: list it in config.builtin_tools")

	# every allow list of the configuration; an argument rule by its tool
	every case in [
		[{"tenants": {"acme": {"tools": ["read_file", "raed_file"]}}}, "config.tenants.acme.tools"],
		[{"scopes": {"files:read": ["raed_file"]}}, "config.scopes.files:read"],
		[{"agents": {"a": {"tools": ["raed_file"]}}}, "config.agents.a.tools"],
		[{"agents": {"a": {"also_allow": ["raed_file"]}}}, "config.agents.a.also_allow"],
		[{"tools": {"also_allow": ["raed_file"]}}, "config.tools.also_allow"],
		[{"subagents": {"allow": ["raed_file"]}}, "config.subagents.allow"],
		[{"continuation": {"restricted": ["raed_file"]}}, "config.continuation.restricted"],
		[{"preset": "claude_code", "tools": {"allow": [{"tool": "Raed", "args_pattern": "x"}]}}, "config.tools.allow"],
	] {
		codes(case[0], {}) == [["unknown_allow_entry", case[1]]]
	}

	# what knows a name: the preset (its aliases too), the floor, a group,
	# a profile, builtin_tools and its families, the declared tools
	every conf in [
		{"preset": "claude_code", "tools": {"allow": ["Read", "Bash", {"tool": "Read", "args_pattern": "x"}]}},
		{"preset": "openclaw", "tools": {"allow": ["bash", "exec"]}},
		{"tools": {"allow": ["gateway"]}},
		{"groups": {"mine": ["send_email"]}, "tools": {"allow": ["send_email", "group:mine"]}},
		{"profiles": {"mine": ["send_email"]}, "tools": {"profile": "mine", "also_allow": ["send_email"]}},
		{"builtin_tools": ["Send_Email", "discovered_tool_*"], "tools": {"allow": ["send_email", "discovered_tool_lint"]}},
	] {
		check(conf, {}).warnings == []
	}
	check({"tools": {"allow": ["send_email"]}}, {"declared": [{"name": "send_email"}]}).warnings == []

	# not checked: MCP entries (unknown_mcp_server), entries with an error,
	# the lists that list a whole runtime's tools (profiles, runtime
	# filters, read-only mode), which make their names known
	codes({"tools": {"allow": ["mcp__githb__get_issue"]}}, {}) == [["unknown_mcp_server", "config.tools.allow"]]
	check({"preset": "claude_code", "tools": {"allow": ["Raed*"]}}, {}).warnings == []
	check({"profiles": {"mine": ["raed_file"]}}, {}).warnings == []
	check({"agent_filters": {"async_allowed": ["raed_file"]}, "read_only": {"allow": ["raed_file"]}}, {}).warnings == []
	check({"agent_filters": {"coordinator_allowed": ["send_message"]}, "tools": {"allow": ["send_message"]}}, {}).warnings == []

	# a deny list does not make an allow known, nor an allow itself
	codes({"tools": {"allow": ["raed_file"], "deny": ["raed_file"]}}, {}) == [
		["shadowed_entry", "config.tools.allow"],
		["unknown_allow_entry", "config.tools.allow"],
	]
}

# A group that the configuration and its preset define differently, named
# by a deny list or an exclusion: the union applies there, and check says
# so (issue 21, item 4).
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
