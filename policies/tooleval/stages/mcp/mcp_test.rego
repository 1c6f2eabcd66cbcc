package tooleval.stages.mcp_test

import data.tooleval.stages_test

user_services := {"mcp_user_services": {"alice": ["github"], "bob": ["foo.bar", "github"]}}

# [note, configuration overlay, request, call name, expected stages_test.verdict]
mcp_cases := [
	["a listed server is admitted", {}, {"mcp_services": ["github"]}, "mcp__github__read_issue", "allowed"],
	["another server is refused", {}, {"mcp_services": ["github"]}, "mcp__foo_bar__run", ["not_allowed", "mcp_services"]],
	["built-ins pass untouched", {}, {"mcp_services": []}, "read_file", "allowed"],
	["peer agents pass untouched", {}, {"mcp_services": []}, "researcher", "allowed"],
	["no services: no MCP tool", {}, {"mcp_services": []}, "mcp__github__read_issue", ["not_allowed", "mcp_services"]],
	["servers match the raw name", {}, {"mcp_services": ["foo.bar"]}, "mcp__foo_bar__run", "allowed"],
	["never the sanitized name", {}, {"mcp_services": ["foo_bar"]}, "mcp__foo_bar__run", ["not_allowed", "mcp_services"]],
	["servers compare canonically", {}, {"mcp_services": ["GitHub"]}, "mcp__github__read_issue", "allowed"],
	["a server name is never a pattern", {}, {"mcp_services": ["github_"]}, "mcp__github__read_issue", ["not_allowed", "mcp_services"]],
	["nor a prefix", {}, {"mcp_services": ["git"]}, "mcp__github__read_issue", ["not_allowed", "mcp_services"]],
	["null services: no stage", {}, {"mcp_services": null}, "mcp__foo_bar__run", "allowed"],
	["a user's servers", user_services, {"caller": {"user": "alice"}}, "mcp__github__read_issue", "allowed"],
	["not another's", user_services, {"caller": {"user": "alice"}}, "mcp__foo_bar__run", ["not_allowed", "mcp_user_services"]],
	["an unknown user gets no MCP tool", user_services, {"caller": {"user": "eve"}}, "mcp__github__read_issue", ["not_allowed", "mcp_user_services"]],
	["no user gets no MCP tool", user_services, {}, "mcp__github__read_issue", ["not_allowed", "mcp_user_services"]],
	["user binding keeps built-ins", user_services, {}, "read_file", "allowed"],
	[
		"request and user intersect", user_services,
		{"caller": {"user": "bob"}, "mcp_services": ["github"]}, "mcp__foo_bar__run", ["not_allowed", "mcp_services"],
	],
]

test_mcp_service_allowlists if {
	verdicts := stages_test.verdicts([[conf, req, name] | some [_, conf, req, name, _] in mcp_cases])
	got := [[note, verdicts[i], want] | some i, [note, _, _, _, want] in mcp_cases]
	count(got) == count(mcp_cases)
	[[note, g, want] | some [note, g, want] in got; g != want] == []
}

test_mcp_service_errors if {
	stages_test.codes({}, {"mcp_services": "github"}) == [["invalid_field", "mcp_services"]]
	stages_test.codes({}, {"mcp_services": ["a__b", "x*", 3, "", " "]}) == [
		["invalid_mcp_service", "mcp_services"],
		["invalid_mcp_service", "mcp_services"],
		["invalid_mcp_service", "mcp_services"],
	]
	stages_test.codes({"mcp_user_services": []}, {}) == [["invalid_config_value", "config.mcp_user_services"]]
	stages_test.codes({"mcp_user_services": {"u": "github", "v": ["ok", ""]}}, {}) == [
		["invalid_mcp_service", "config.mcp_user_services.u"],
		["invalid_mcp_service", "config.mcp_user_services.v"],
	]
}
