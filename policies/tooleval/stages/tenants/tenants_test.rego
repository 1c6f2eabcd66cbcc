package tooleval.stages.tenants_test

import data.tooleval.stages.tenants
import data.tooleval.stages_test

tenant_config := {
	"tenants": {
		"acme": {"tools": ["read_file", "glob", "mcp__github__*"]},
		"free": {"tools": []},
		"enterprise": {"tools": null},
	},
	"scopes": {
		"repo:read": ["read_file", "mcp__github__read_issue"],
		"files": ["group:read_only"],
	},
}

# [note, request, call name, expected stages_test.verdict]
tenant_cases := [
	["a plan admits its tools", {"tenant": "acme"}, "glob", "allowed"],
	["a plan refuses the rest", {"tenant": "acme"}, "refund", ["not_allowed", "tenant"]],
	["a plan's MCP wildcard", {"tenant": "acme"}, "mcp__github__create_issue", "allowed"],
	["an empty plan refuses everything", {"tenant": "free"}, "read_file", ["not_allowed", "tenant"]],
	["a plan that states nothing narrows nothing", {"tenant": "enterprise"}, "refund", "allowed"],
	["no tenant narrows nothing", {"tenant": null}, "refund", "allowed"],
	["an unknown tenant refuses everything", {"tenant": "nobody"}, "read_file", ["invalid_config", "config"]],
	["a mapped scope covers its tools", {"caller": {"scopes": ["repo:read"]}}, "mcp__github__read_issue", "allowed"],
	["and nothing else", {"caller": {"scopes": ["repo:read"]}}, "mcp__github__create_issue", ["not_allowed", "caller"]],
	["a scope may map to a group", {"caller": {"scopes": ["files"]}}, "glob", "allowed"],
	["an unmapped scope is the tool of that name", {"caller": {"scopes": ["refund"]}}, "refund", "allowed"],
	["an unmapped scope is never a wildcard", {"caller": {"scopes": ["mcp__*"]}}, "mcp__github__read_issue", ["not_allowed", "caller"]],
	["scopes are a union", {"caller": {"scopes": ["refund", "files"]}}, "read_file", "allowed"],
	["no scopes refuses everything", {"caller": {"scopes": []}}, "read_file", ["not_allowed", "caller"]],
	["null scopes narrow nothing", {"caller": {"scopes": null}}, "refund", "allowed"],
	["the tenant is checked before the caller", {"tenant": "acme", "caller": {"scopes": []}}, "refund", ["not_allowed", "tenant"]],
	["tenant and caller intersect", {"tenant": "acme", "caller": {"scopes": ["repo:read"]}}, "glob", ["not_allowed", "caller"]],
]

test_tenants_and_callers if {
	verdicts := stages_test.verdicts([[tenant_config, req, name] | some [_, req, name, _] in tenant_cases])
	got := [[note, verdicts[i], want] | some i, [note, _, _, want] in tenant_cases]
	count(got) == count(tenant_cases)
	[[note, g, want] | some [note, g, want] in got; g != want] == []
}

test_unknown_tenant_has_its_own_error if {
	stages_test.codes(tenant_config, {"tenant": "nobody"}) == [["unknown_tenant", "tenant"]]
}

# [request, expected errors]
tenant_input_cases := [
	[{"tenant": 7}, [["invalid_field", "tenant"]]],
	[{"caller": []}, [["invalid_field", "caller"]]],
	[{"caller": {"scopes": "files"}}, [["invalid_field", "caller.scopes"]]],
	[{"caller": {"scopes": [1]}}, [["invalid_field", "caller.scopes"]]],
	[{"caller": {"user": 1}}, [["invalid_field", "caller.user"]]],
]

test_tenant_and_caller_shape if {
	[[req, got] | some [req, want] in tenant_input_cases; got := stages_test.codes(tenant_config, req); got != want] == []
}

test_tenant_configuration_errors if {
	conf := {
		"tenants": {"acme": {"tools": ["group:nope"]}, "ACME": {}, "x": []},
		"scopes": {"s": null},
	}
	stages_test.codes(conf, {}) == [
		["colliding_names", "config.tenants"],
		["unknown_group", "config.tenants.acme.tools"],
		["invalid_config_value", "config.tenants.x"],
		["invalid_list", "config.scopes.s"],
	]
}

# request_errors skips its checks only where they find nothing: a request
# without tenant and caller under no tenants and scopes. Each other
# request below has an error the full checks find.
test_request_errors_skipped_only_where_nothing_is_read if {
	every c in [[{}, {}], [{"tenant": null, "caller": null}, {"tenants": {}, "scopes": {}}]] {
		tenants._reads_nothing(c[0], c[1])
		tenants.request_errors(c[0], null, c[1]) == []
	}
	every c in [
		[{"tenant": "nobody"}, {}],
		[{"caller": "me"}, {}],
		[{}, {"tenants": false}],
		[{"caller": {"scopes": ["s"]}}, {"scopes": {"s": 1}}],
		[{"tenant": "t"}, {"tenants": {"t": []}}],
	] {
		not tenants._reads_nothing(c[0], c[1])
		count(tenants.request_errors(c[0], null, c[1])) > 0
	}
}
