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
	codes({"tools": {"allow": ["read_file", "glob"], "deny": ["glob*"]}}, {}) == [["shadowed_entry", "config.tools.allow"]]
	codes({"agents": {"a": {"tools": ["x", "y"], "disallowed_tools": ["Y"]}}}, {}) == [["shadowed_entry", "config.agents.a.tools"]]
}

test_unreachable_subagent_entries if {
	codes({"subagents": {"allow": ["gateway", "read_file"]}}, {}) == [["unreachable_entry", "config.subagents.allow"]]
	w := check({"tools": {"profile": "minimal"}, "subagents": {"allow": ["session_status", "browser"]}}, {}).warnings
	[[x.entry, x.removed_by] | some x in w] == [
		["session_status", "subagent_hard_deny"],
		["browser", "config.profiles.minimal"],
	]
	codes({"tools": {"profile": "minimal", "also_allow": ["browser"]}, "subagents": {"allow": ["browser"]}}, {}) == []
}

test_unmatched_agent_tools if {
	conf := {"agents": {"reviewer": {"tools": ["read_file", "edit_file", "mcp__github__*"]}}}
	doc := {"agent": {"name": "reviewer"}, "declared": [{"name": "read_file"}]}
	c := check(conf, doc)
	c.agent_tools == {"agent": "reviewer", "valid": ["read_file"], "invalid": ["edit_file"]}
	[[w.code, w.entry] | some w in c.warnings] == [["unmatched_agent_tool", "edit_file"], ["unmatched_entry", "mcp__github__*"]]
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
	]
}

# A misspelt MCP server: with a request, an entry that matches no declared
# tool; without one, a server nothing else in the configuration knows.
test_misspelt_mcp_servers if {
	conf := {"tenants": {"acme": {"tools": ["read_file", "mcp__githb__*"]}, "globex": {"tools": ["mcp__github__*"]}}}
	doc := {
		"tenant": "acme",
		"declared": [{"name": "read_file"}, {"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}}],
		"layers": [{"name": "caller", "deny": ["mcp__github__delete_*", "read_fiel"]}],
	}
	[[w.code, w.field, w.entry] | some w in check(conf, doc).warnings] == [
		["unmatched_entry", "stage tenant (allow)", "mcp__githb__*"],
		["unmatched_entry", "layers[0].deny", "mcp__github__delete_*"],
	]
	[[w.code, w.server] | some w in check(conf, {}).warnings] == [["unknown_mcp_server", "githb"], ["unknown_mcp_server", "github"]]
	[[w.code, w.server] | some w in check(object.union(conf, {"mcp_servers": ["github"]}), {}).warnings] == [["unknown_mcp_server", "githb"]]
	both := {"tenants": {"acme": {"tools": ["mcp__github__*"]}, "globex": {"tools": ["mcp__github__read_*"]}}}
	check(both, {}).warnings == []
}

test_bare_server_in_an_allow_list if {
	conf := {"tenants": {"acme": {"tools": ["mcp__github"]}}, "mcp_servers": ["github"]}
	[[w.code, w.field] | some w in check(conf, {}).warnings] == [["bare_mcp_server_in_allow", "config.tenants.acme.tools"]]
	doc := {"layers": [{"name": "l", "allow": ["mcp__github"], "deny": ["mcp__github"]}]}
	[[w.code, w.field] | some w in check({}, doc).warnings] == [["bare_mcp_server_in_allow", "layers[0].allow"]]
}
