package tooleval.stages_test

# A request is refused for errors in the configuration it reads, not for
# errors in parts of it that only other requests read; tooleval check
# reports them all.
scoped_config := {
	"agents": {"good": {"tools": ["read_file"]}, "broken": {"tools": ["read*"]}},
	"tenants": {"acme": {"tools": ["read_file"]}, "broken": {"tools": "read_file"}},
	"scopes": {"ok": ["read_file"], "broken": ["group:nope"]},
	"profiles": {"minimal": ["read_file"], "broken": ["*"], "full": null},
	"agent_filters": {"all_agents_disallowed": [""]},
	"mcp_user_services": {"alice": ["github"], "bob": [""]},
	"read_only": {"allow": ["read*"]},
	"continuation": {"restricted": ["*"]},
}

# [note, request, expected verdict of a read_file call]
scoped_cases := [
	["another agent's broken definition", {"agent": {"name": "good"}}, "allowed"],
	["its own broken definition", {"agent": {"name": "broken"}}, ["invalid_config", "config"]],
	["another tenant's broken plan", {"tenant": "acme"}, "allowed"],
	["its own tenant's broken plan", {"tenant": "broken"}, ["invalid_config", "config"]],
	["a scope it does not name", {"caller": {"scopes": ["ok"]}}, "allowed"],
	["a scope it names", {"caller": {"scopes": ["broken"]}}, ["invalid_config", "config"]],
	["a profile it does not select", {}, "allowed"],
	["the profile it selects", {"agent": {"name": "sel"}}, ["invalid_config", "config"]],
	["the sub-agent filters, for a main agent", {}, "allowed"],
	["the sub-agent filters, for a sub-agent", {"agent": {"role": "subagent", "depth": 1}}, ["invalid_config", "config"]],
	["another user's MCP servers", {"caller": {"user": "alice"}}, "allowed"],
	["its own user's MCP servers", {"caller": {"user": "bob"}}, ["invalid_config", "config"]],
	["read-only mode, when not read-only", {}, "allowed"],
	["read-only mode, when read-only", {"agent": {"read_only": true}}, ["invalid_config", "config"]],
	["the restricted continuation, without a handoff", {}, "allowed"],
	["the restricted continuation, with one", {"handoff": {}}, ["invalid_config", "config"]],
]

test_requests_are_refused_for_the_configuration_they_read if {
	conf := object.union(scoped_config, {"agents": {"sel": {"profile": "broken"}}})
	got := [[note, verdict(conf, req, "read_file"), want] | some [note, req, want] in scoped_cases]
	count(got) == count(scoped_cases)
	[[note, g, want] | some [note, g, want] in got; g != want] == []
}

test_check_reports_every_error if {
	fields := {e.field | some e in check(scoped_config, {}).errors}
	every field in [
		"config.agents.broken.tools",
		"config.tenants.broken.tools",
		"config.scopes.broken",
		"config.profiles.broken",
		"config.agent_filters.all_agents_disallowed",
		"config.mcp_user_services.bob",
		"config.read_only.allow",
		"config.continuation.restricted",
	] {
		field in fields
	}
}

# [configuration overlay, request, the error's field]: a misspelt member
# is an error, so that it never silently configures nothing.
misspelt_cases := [
	[{"tenants": {"acme": {"tool": ["read_file"]}}}, {"tenant": "acme"}, "config.tenants.acme.tool"],
	[{"agents": {"explore": {"disallowedTools": ["bash"]}}}, {"agent": {"name": "explore"}}, "config.agents.explore.disallowedTools"],
	[{"agents": {"auditor": {"readonly": true}}}, {"agent": {"name": "auditor"}}, "config.agents.auditor.readonly"],
	[
		{"agent_filters": {"custom_agent_disallowed": ["bash"]}}, {"agent": {"role": "subagent", "depth": 1}},
		"config.agent_filters.custom_agent_disallowed",
	],
	[{"tools": {"denied": ["bash"]}}, {}, "config.tools.denied"],
	[{"subagents": {"alow": ["bash"]}}, {"agent": {"role": "subagent", "depth": 1}}, "config.subagents.alow"],
	[{"shell": {"tool": ["bash"], "tools": ["bash"]}}, {"agent": {"read_only": true}}, "config.shell.tool"],
	[{"continuation": {"restrict": []}}, {"handoff": {}}, "config.continuation.restrict"],
]

test_misspelt_members_are_errors if {
	got := [[field, verdict(conf, req, "read_file"), fields] |
		some [conf, req, field] in misspelt_cases
		fields := {e.field | some e in check(conf, req).errors}
	]
	count(got) == count(misspelt_cases)
	[g | some g in got; g[1] != ["invalid_config", "config"]] == []
	[g | some g in got; not g[0] in g[2]] == []
}
