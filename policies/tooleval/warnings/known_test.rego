package tooleval.warnings_test

# A deny or exclusion entry that names no tool the preset, the
# configuration or the declared tools know protects nothing: a
# misspelling, or a runtime's spelling the preset does not map.
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
