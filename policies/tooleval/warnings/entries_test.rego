package tooleval.warnings_test

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
